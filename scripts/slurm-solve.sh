#!/usr/bin/env bash
# Solves a position on a Slurm cluster: splits it into work units here, runs the units as one
# array job and the merge as a job that waits for them (afterok).
#
# usage: scripts/slurm-solve.sh --out DIR --jobs N [--depth D] [--wait] [--proof] [--resume]
#                               [--time T] [--partition P] -- SOLVE_OPTIONS...
#   --out DIR       the split's folder, on a file system the compute nodes share
#   --jobs N        units running at a time (the array's %N)
#   --depth D       the units are the positions D plies ahead (default 2; mirror images are one)
#   --wait          return when the merge is done, with its status; DIR/result.txt then holds
#                   the lines tanbo solve prints (winner: ..., winning moves: ...)
#   --proof         each unit writes its certificate, the merge one of the whole result:
#                   DIR/proof.txt (tanbo check-proof DIR/proof.txt)
#   --resume        each unit keeps its search's table in DIR/checkpoints/unit-I.ckpt (written
#                   every --checkpoint-every seconds, default 600, and when it stops), and a unit
#                   run again (sbatch --array=I DIR/unit.sh) carries on from it
#   --time T, --partition P   passed to sbatch for every job (#SBATCH lines of DIR/unit.sh
#                   and DIR/merge.sh)
#   SOLVE_OPTIONS   the position (GAME, or --topology/--setup) and the search's options
#                   (--table, --method, --threads, ...), as tanbo solve takes them
# The program is $TANBO if set, else tanbo on PATH. A unit that failed: solve it again and merge
# with sbatch --dependency=afterok:$(sbatch --parsable --array=I DIR/unit.sh) DIR/merge.sh
set -euo pipefail
study_me=slurm-solve.sh
# shellcheck source-path=SCRIPTDIR source=solve-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/solve-common.sh"
usage() { sed -n '2,/^set /s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" | sed '$d'; }

solve_parse "$@"
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
  echo '# Solves unit $SLURM_ARRAY_TASK_ID of this split (or unit $1).'
  echo "exec $(solve_unit_command '"${SLURM_ARRAY_TASK_ID:-$1}"')"
} > "$solve_dir/unit.sh"
{
  echo '#!/bin/bash'
  study_sbatch_line job-name tanbo-solve-merge
  study_sbatch_line output "${solve_dir//%/%%}/logs/merge-%j.log"
  study_sbatch_line kill-on-invalid-dep yes
  printf '%s' "$common"
  echo "exec $(solve_merge_command)"
} > "$solve_dir/merge.sh"
array=$(sbatch --parsable --array="0-$((solve_units - 1))%$solve_jobs" "$solve_dir/unit.sh") ||
  study_die "sbatch refused the array job of the units (above); nothing started"
array=${array%%;*}
if ((solve_wait)); then
  status=0
  sbatch --wait --dependency="afterok:$array" "$solve_dir/merge.sh" > /dev/null || status=$?
  if ((status == 0)) && [[ ! -s $solve_dir/result.txt ]]; then
    echo "$study_me: the merge did not run: a unit failed (logs in $solve_dir/logs)" >&2
    exit 1
  fi
  ((status == 0)) && cat "$solve_dir/result.txt"
  exit "$status"
fi
merge=$(sbatch --parsable --dependency="afterok:$array" "$solve_dir/merge.sh") ||
  study_die "sbatch refused the merge job (above); the units run; merge later with: sbatch $solve_dir/merge.sh"
echo "submitted: units as job ${array} (${solve_units} tasks), the merge as job ${merge%%;*}; result in $solve_dir/result.txt"
