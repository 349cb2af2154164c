#!/usr/bin/env bash
# Solves a position on a Slurm cluster: splits it into work units here, runs the units as array
# jobs and the merge as a job that waits for them (afterok). Slurm refuses array task ids from
# its MaxArraySize up (1001 by default; scontrol show config tells): more units than that go in
# several arrays, each of at most MaxArraySize tasks, run one after another (so that --jobs
# bounds them all); task a of such an array solves unit TANBO_UNIT_BASE + a.
#
# usage: scripts/slurm-solve.sh --out DIR --jobs N [--depth D] [--wait] [--proof] [--resume]
#                               [--time T] [--partition P] -- SOLVE_OPTIONS...
#   --out DIR       the split's folder, on a file system the compute nodes share
#   --jobs N        units running at a time (the array's %N)
#   --depth D       the units are the positions D plies ahead (default 2; mirror images are one)
#   --wait          return when the merge is done, with its status; DIR/result.txt then holds
#                   the lines tanbo solve prints (winner: ..., winning moves: ...); the job ids
#                   go to stderr, and Ctrl-C stops the waiting, not the jobs
#   --proof         each unit writes its certificate (DIR/results/unit-I.proof.gz), the
#                   merge one of the whole result, DIR/proof.txt (tanbo check-proof
#                   DIR/proof.txt)
#   --resume        each unit keeps its search's table in DIR/checkpoints/unit-I.ckpt (written
#                   every --checkpoint-every seconds, default 600, and when it stops), and a unit
#                   run again (sbatch --array=I DIR/unit.sh) carries on from it
#   --time T, --partition P   passed to sbatch for every job (#SBATCH lines of DIR/unit.sh
#                   and DIR/merge.sh); T in sbatch's forms (MINUTES, H:MM:SS, D-H:MM:SS, ...)
#   SOLVE_OPTIONS   the position (GAME, or --topology/--setup) and the search's options
#                   (--table, --method, --threads, ...), as tanbo solve takes them
# The program is $TANBO if set, else tanbo on PATH. A unit that failed: solve it again and merge
# with sbatch --dependency=afterok:$(sbatch --parsable --array=I DIR/unit.sh) DIR/merge.sh
# (a unit I from MaxArraySize up: --array=I%M --export=ALL,TANBO_UNIT_BASE=I-I%M, M being
# MaxArraySize). When sbatch refuses the units' array jobs, the split is removed (and the arrays
# already submitted are cancelled) so that the same command can be run again.
set -euo pipefail
study_me=slurm-solve.sh
# shellcheck source-path=SCRIPTDIR source=solve-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/solve-common.sh"
usage() { sed -n '2,/^set /s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" | sed '$d'; }

# Submits the units as arrays of at most solve_max_array tasks, each after the one before
# (afterany), so that --jobs bounds them all. Sets solve_arrays (the job ids, space-separated).
# When sbatch refuses one, cancels those submitted, removes the split and stops.
solve_submit_units() {
  solve_max_array=$(study_max_array_size)
  solve_arrays=""
  local base n id after=()
  for ((base = 0; base < solve_units; base += solve_max_array)); do
    n=$((solve_units - base < solve_max_array ? solve_units - base : solve_max_array))
    if ! id=$(sbatch --parsable --array="0-$((n - 1))%$solve_jobs" \
      --export="ALL,TANBO_UNIT_BASE=$base" "${after[@]}" "$solve_dir/unit.sh"); then
      # shellcheck disable=SC2086 # the ids, one word each
      [[ -z $solve_arrays ]] || scancel $solve_arrays 2> /dev/null || true
      solve_undo_split
      study_die "sbatch refused the array job of units $base to $((base + n - 1)) (above); nothing started${solve_arrays:+ (jobs $solve_arrays cancelled)}, and the split is removed"
    fi
    id=$(study_job_id "$id" "check squeue for the units' array jobs (job name tanbo-solve)") || exit
    solve_arrays+=${solve_arrays:+ }$id
    after=(--dependency="afterany:$id")
  done
}

# How to solve the units $1 (comma-separated) again and merge: units from MaxArraySize up need
# the base of their array.
solve_rerun_hint() {
  local q_unit q_merge i big=0
  q_unit=$(study_quote_words "$solve_dir/unit.sh")
  q_merge=$(study_quote_words "$solve_dir/merge.sh")
  for i in ${1//,/ }; do ((i < solve_max_array)) || big=1; done
  if ((big)); then
    echo "solve each unit I again with: sbatch --array=\$((I % $solve_max_array)) --export=ALL,TANBO_UNIT_BASE=\$((I - I % $solve_max_array)) $q_unit, then merge with: sbatch $q_merge"
  else
    echo "solve each again and merge with: sbatch --dependency=afterok:\$(sbatch --parsable --array=${1:-I} $q_unit) $q_merge"
  fi
}

solve_parse "$@"
[[ -z $solve_hosts ]] || study_die "-S is parallel-solve.sh's: here Slurm places the jobs (--partition)"
# A line feed would end an #SBATCH line of the job scripts and start a line of shell.
[[ $solve_out != *$'\n'* ]] || study_die "--out: a folder name with a line feed is not supported"
[[ $solve_partition != *$'\n'* ]] || study_die "--partition: no line feeds"
study_check_sbatch_time "$solve_time" # (sbatch refusing the units' job would come after the split)
command -v sbatch > /dev/null ||
  study_die "sbatch not found: this script submits to Slurm (scripts/parallel-solve.sh runs the units with GNU parallel)"
study_find_tanbo
solve_split
mkdir -p "$solve_dir/logs"
common=""
[[ -n $solve_partition ]] && common+=$(study_sbatch_line partition "$solve_partition")$'\n'
[[ -n $solve_time ]] && common+=$(study_sbatch_line time "$solve_time")$'\n'
{
  echo '#!/bin/bash'
  study_sbatch_line job-name tanbo-solve
  study_sbatch_line output "${solve_dir//%/%%}/logs/unit-%a-%A.log"
  printf '%s' "$common"
  echo '# Solves unit TANBO_UNIT_BASE + $SLURM_ARRAY_TASK_ID of this split (or unit $1).'
  echo 'unit=${1-}'
  echo '[[ -n ${SLURM_ARRAY_TASK_ID-} ]] && unit=$((${TANBO_UNIT_BASE:-0} + SLURM_ARRAY_TASK_ID))'
  echo 'echo "unit $unit"'
  echo "exec $(solve_unit_command '"$unit"')"
} > "$solve_dir/unit.sh"
{
  echo '#!/bin/bash'
  study_sbatch_line job-name tanbo-solve-merge
  study_sbatch_line output "${solve_dir//%/%%}/logs/merge-%j.log"
  study_sbatch_line kill-on-invalid-dep yes
  printf '%s' "$common"
  echo "exec $(solve_merge_command)"
} > "$solve_dir/merge.sh"
q_dir=$(study_quote_words "$solve_dir")
if ((solve_units == 0)); then
  # Every line of play ends within --depth plies: no unit, the merge alone gives the answer.
  dependency=()
  array_note="no units (the game ends within $solve_depth plies)"
else
  solve_submit_units
  dependency=(--dependency="afterok:${solve_arrays// /:}")
  if [[ $solve_arrays == *" "* ]]; then
    array_note="units as jobs $solve_arrays ($solve_units tasks in arrays of at most $solve_max_array)"
  else
    array_note="units as job $solve_arrays ($solve_units tasks)"
  fi
fi
if ((solve_wait)); then
  echo "$array_note; waiting for the merge (logs in $solve_dir/logs)" >&2
  # Ctrl-C or a kill stops the waiting; the jobs are left to Slurm.
  stopped="$study_me: stopped waiting; the jobs are Slurm's: squeue -n tanbo-solve,tanbo-solve-merge shows them, scancel stops them; the merge writes $solve_dir/result.txt"
  trap 'echo "$stopped" >&2; exit 130' INT
  trap 'echo "$stopped" >&2; exit 143' TERM
  status=0
  # sbatch's "Submitted batch job N" (the merge's id) goes to stderr: stdout is the answer's.
  sbatch --wait "${dependency[@]}" "$solve_dir/merge.sh" >&2 || status=$?
  trap - INT TERM
  if ((status == 0)) && [[ ! -s $solve_dir/result.txt ]]; then
    # sbatch --wait exits 0 for a job Slurm cancelled because a unit failed.
    missing=$(solve_missing)
    echo "$study_me: the merge did not run: units without a result: ${missing:-none} (logs in $solve_dir/logs); $(solve_rerun_hint "$missing")" >&2
    exit 1
  fi
  if ((status != 0)); then
    echo "$study_me: the merge failed or was not submitted (exit $status); see sbatch's message above and $solve_dir/logs/merge-*.log" >&2
    exit "$status"
  fi
  cat "$solve_dir/result.txt"
  exit 0
fi
merge=$(sbatch --parsable "${dependency[@]}" "$solve_dir/merge.sh") ||
  study_die "sbatch refused the merge job (above); the units run; merge later with: sbatch $q_dir/merge.sh"
merge=$(study_job_id "$merge" "the merge may have been submitted (squeue -n tanbo-solve-merge)") || exit
echo "submitted: $array_note, the merge as job $merge; result in $solve_dir/result.txt"
