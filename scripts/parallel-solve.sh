#!/usr/bin/env bash
# Solves a position as many work units with GNU parallel (on this machine, or on hosts that
# see the same folder), then merges them: the answer of one tanbo solve of the whole position.
#
# usage: scripts/parallel-solve.sh --out DIR --jobs N [--depth D] [--wait] [--proof] [--resume]
#                                  [--time T] [-S HOSTS] -- SOLVE_OPTIONS...
#   --out DIR     the split's folder (see docs/solved.md): units, results, DIR/result.txt
#   --jobs N      units solved at a time (parallel's -j; on each host with -S)
#   -S HOSTS      parallel's --sshlogin, e.g. 8/node1,8/node2 (add : for this machine): the
#                 units run there, by ssh, in DIR at the same path, with tanbo at the same path
#   --depth D     the units are the positions D plies ahead (default 2; mirror images are one)
#   --wait        accepted for the Slurm script's sake: this script always waits for the merge
#   --proof       each unit writes its certificate (DIR/results/unit-I.proof.gz), the
#                 merge one of the whole result, DIR/proof.txt (tanbo check-proof
#                 DIR/proof.txt)
#   --resume      each unit keeps its search's table in DIR/checkpoints/unit-I.ckpt (written
#                 every --checkpoint-every seconds, default 600, and when it stops), and a unit
#                 run again (bash DIR/unit.sh I) carries on from it
#   --time T      give each unit at most T seconds (tanbo solve --time); a unit not solved in
#                 time fails, and so does the merge
#   SOLVE_OPTIONS the position (GAME, or --topology/--setup) and the search's options
#                 (--table, --method, --threads, ...), as tanbo solve takes them
# The program is $TANBO if set, else tanbo on PATH. When every unit is solved, DIR/result.txt
# holds the lines tanbo solve prints (winner: ..., winning moves: ...). Exits with the merge's
# status, or 1 when a unit failed, naming the units without a result (solve each again with
# bash DIR/unit.sh I, then bash DIR/merge.sh).
set -euo pipefail
study_me=parallel-solve.sh
# shellcheck source-path=SCRIPTDIR source=solve-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/solve-common.sh"
usage() { sed -n '2,/^set /s/^# \{0,1\}//p' "${BASH_SOURCE[0]}" | sed '$d'; }

solve_parse "$@"
[[ -z $solve_partition ]] || study_die "--partition is Slurm's (scripts/slurm-solve.sh)"
if [[ -n $solve_time ]]; then
  [[ $solve_time =~ ^[0-9]+(\.[0-9]+)?$ ]] || study_die "--time $solve_time: expected seconds"
  solve_search+=(--time "$solve_time")
fi
command -v parallel > /dev/null || study_die "GNU parallel not found (apt-get install parallel)"
study_find_tanbo
solve_split
printf '#!/bin/bash\n# Solves unit $1 of this split.\nexec %s\n' "$(solve_unit_command '"$1"')" > "$solve_dir/unit.sh"
printf '#!/bin/bash\n# Merges the units of this split.\nexec %s\n' "$(solve_merge_command)" > "$solve_dir/merge.sh"
mkdir -p "$solve_dir/logs"
# The unit numbers come on parallel's standard input: a million of them would not fit on its
# command line.
run=(parallel --will-cite -q -j "$solve_jobs" --halt never --joblog "$solve_dir/logs/parallel.joblog")
[[ -n $solve_hosts ]] && run+=(-S "$solve_hosts")
study_run_parallel 0 $((solve_units - 1)) "${run[@]}" bash "$solve_dir/unit.sh" {}
status=$study_parallel_status
# What is missing is read from the results: parallel's status counts failed jobs only up to
# 100, and is 255 when it was stopped (Ctrl-C).
missing=$(solve_missing)
if [[ -n $missing ]]; then
  hint=""
  # A host whose login gives no $SHELL: parallel skips its jobs and exits 0.
  [[ -n $solve_hosts && $status -eq 0 ]] && hint="; check that \$SHELL is set on the hosts (parallel runs nothing without it)"
  echo "$study_me: units without a result: $missing (parallel: exit $status)$hint; solve each again with: bash $(study_quote_words "$solve_dir/unit.sh") I, then: bash $(study_quote_words "$solve_dir/merge.sh")" >&2
  exit 1
fi
bash "$solve_dir/merge.sh"
