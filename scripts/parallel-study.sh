#!/usr/bin/env bash
# Runs a tanbo study as N shards with GNU parallel, on this machine or on hosts that see the
# same paths (a shared folder), then merges them into DIR/study.csv, DIR/study.txt and
# DIR/study.png when every shard succeeded.
#
# usage: scripts/parallel-study.sh --out DIR --shards N [--jobs J] [-S HOSTS]
#                                  -- STUDY_OPTIONS...
#   --out DIR      the study's folder: DIR/shard.sh and DIR/merge.sh (the scripts of a shard and
#                  of the merge), DIR/shards/shard-I.csv, DIR/logs/parallel.joblog and the
#                  results; it must not hold a study already, nor a split solve
#   --shards N     shard I runs tanbo study STUDY_OPTIONS --csv --shard I/N
#   --jobs J       shards at a time on each host (parallel's -j; default: one per core)
#   -S HOSTS       parallel's --sshlogin, e.g. 8/node1,8/node2 (add : for this machine)
# The shards' progress lines go to standard error as they come. The program is $TANBO if set,
# else tanbo on PATH. A shard that failed leaves no file; run it again, then the merge, with:
#   bash DIR/shard.sh 5 && bash DIR/merge.sh
# Exits with the merge's status, or 1 when a shard failed. See docs/studies.md.
set -euo pipefail
study_me=parallel-study.sh
# shellcheck source-path=SCRIPTDIR source=study-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/study-common.sh"

usage() {
  sed -n '2,/^set /s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

out="" shards="" jobs="" hosts=""
while (($#)); do
  case $1 in
    --out | --shards | --jobs | -S | --sshlogin)
      (($# >= 2)) || study_die "$1 needs a value (see --help)"
      case $1 in
        --out) out=$2 ;;
        --shards) shards=$2 ;;
        --jobs) jobs=$2 ;;
        -S | --sshlogin) hosts=$2 ;;
      esac
      shift 2
      ;;
    --out=*) out=${1#*=} && shift ;;
    --shards=*) shards=${1#*=} && shift ;;
    --jobs=*) jobs=${1#*=} && shift ;;
    --sshlogin=*) hosts=${1#*=} && shift ;;
    -h | --help) usage && exit 0 ;;
    --)
      shift
      break
      ;;
    *) study_die "unknown option '$1' (the study's options go after --; see --help)" ;;
  esac
done
[[ -z $jobs || $jobs =~ ^[1-9][0-9]{0,4}$ ]] || study_die "--jobs $jobs: expected a whole number from 1"

study_check_out "$out" "$shards"
study_split_options "$@"
command -v parallel > /dev/null || study_die "GNU parallel not found (apt-get install parallel)"
study_find_tanbo
study_check_options
study_write_scripts "" ""

run=(parallel --will-cite --line-buffer --joblog "$study_dir/logs/parallel.joblog")
[[ -n $jobs ]] && run+=(-j "$jobs")
[[ -n $hosts ]] && run+=(-S "$hosts")
echo "shards: $study_count, by GNU parallel (logs: $study_dir/logs/parallel.joblog)" >&2
# parallel quotes what replaces {1} and {2} for the shell, here and on other hosts. The shard
# numbers come on its standard input (:::: -): 999,999 of them would not fit on its command line.
study_run_parallel 1 "$study_count" "${run[@]}" bash '{1}' '{2}' ::: "$study_dir/shard.sh" :::: -
status=$study_parallel_status
missing=$(study_missing)
if [[ -n $missing ]]; then
  rerun=""
  for i in ${missing//,/ }; do rerun+="bash $(printf '%q' "$study_dir/shard.sh") $i && "; done
  echo "$study_me: missing shards: $missing (parallel: exit $status); nothing merged" >&2
  # parallel runs a remote job with the $SHELL it finds there, and skips it without an error
  # when that is empty.
  ((status == 0)) && [[ -n $hosts ]] &&
    echo "$study_me: parallel reported success: check that \$SHELL is set on the hosts" >&2
  echo "$study_me: run them again and merge with:" >&2
  echo "  ${rerun}bash $(printf '%q' "$study_dir/merge.sh")" >&2
  exit 1
fi
bash "$study_dir/merge.sh"
