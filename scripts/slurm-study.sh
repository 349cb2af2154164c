#!/usr/bin/env bash
# Runs a tanbo study on Slurm: an array job of N shards and a merge job that starts when all of
# them succeeded (afterok), writing DIR/study.csv, DIR/study.txt and DIR/study.png.
#
# usage: scripts/slurm-study.sh --out DIR --shards N [--wait] [--partition P] [--time T]
#                               -- STUDY_OPTIONS...
#   --out DIR        the study's folder: DIR/shard.sh and DIR/merge.sh (the jobs' scripts),
#                    DIR/shards/shard-I.csv, DIR/logs/shard-I-JOB.log, DIR/logs/merge-JOB.log
#                    and the results; it must not hold a study already, nor a split solve
#   --shards N       array tasks 1..N, task I running tanbo study STUDY_OPTIONS --csv --shard I/N
#                    (from Slurm's MaxArraySize up, in further arrays: task a of the array
#                    from shard B runs shard B + a, B given as TANBO_SHARD_BASE)
#   --wait           wait for the merge job; exit with its status
#   --partition P, --time T   passed to sbatch for every job (#SBATCH lines of the scripts);
#                    T in sbatch's forms (MINUTES, H:MM:SS, D-H:MM:SS, ...)
# The program is $TANBO if set, else tanbo on PATH. A shard that failed leaves no file; run it
# again, then the merge, with (DIR/shard.sh knows N):
#   sbatch --dependency=afterok:$(sbatch --parsable --array=5 DIR/shard.sh) DIR/merge.sh
# (a shard I from MaxArraySize M up: --array=I%M --export=ALL,TANBO_SHARD_BASE=I-I%M).
# See docs/studies.md.
set -euo pipefail
study_me=slurm-study.sh
# shellcheck source-path=SCRIPTDIR source=study-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/study-common.sh"

usage() {
  sed -n '2,/^set /s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

out="" shards="" wait=0 partition="" time=""
while (($#)); do
  case $1 in
    --out | --shards | --partition | --time)
      (($# >= 2)) || study_die "$1 needs a value (see --help)"
      case $1 in
        --out) out=$2 ;;
        --shards) shards=$2 ;;
        --partition) partition=$2 ;;
        --time) time=$2 ;;
      esac
      shift 2
      ;;
    --out=*) out=${1#*=} && shift ;;
    --shards=*) shards=${1#*=} && shift ;;
    --partition=*) partition=${1#*=} && shift ;;
    --time=*) time=${1#*=} && shift ;;
    --wait) wait=1 && shift ;;
    -h | --help) usage && exit 0 ;;
    --)
      shift
      break
      ;;
    *) study_die "unknown option '$1' (the study's options go after --; see --help)" ;;
  esac
done
[[ $partition != *$'\n'* ]] || study_die "--partition: no line feeds"
study_check_sbatch_time "$time"

study_check_out "$out" "$shards"
study_split_options "$@"
command -v sbatch > /dev/null ||
  study_die "sbatch not found: this script submits to Slurm (scripts/parallel-study.sh runs a study with GNU parallel)"
study_find_tanbo
study_check_options

# The jobs' settings, as #SBATCH lines at the top of their scripts, so that a shard submitted
# again by hand gets them too. '%' is doubled: sbatch reads it as a pattern in file names.
logs=${study_dir//%/%%}/logs
common_lines=""
[[ -n $partition ]] && common_lines+=$(study_sbatch_line partition "$partition")$'\n'
[[ -n $time ]] && common_lines+=$(study_sbatch_line time "$time")$'\n'
shard_top=$(study_sbatch_line job-name tanbo-study)$'\n'$(study_sbatch_line output "$logs/shard-%a-%A.log")$'\n'$common_lines
merge_top=$(study_sbatch_line job-name tanbo-study-merge)$'\n'$(study_sbatch_line output "$logs/merge-%j.log")$'\n'
merge_top+=$(study_sbatch_line kill-on-invalid-dep yes)$'\n'$common_lines
study_write_scripts "$shard_top" "$merge_top"

# Submits the shards: array task ids must be below Slurm's MaxArraySize, so shards from there
# up go in further arrays, task a of the one from shard B running shard B + a
# (TANBO_SHARD_BASE). Sets arrays (the job ids, space-separated). When sbatch refuses one,
# cancels those submitted and stops.
submit_shards() {
  local first base last id env=()
  for ((first = 1; first <= study_count; first = base + max_array)); do
    base=$((first - first % max_array))
    last=$((study_count - base < max_array - 1 ? study_count - base : max_array - 1))
    ((base == 0)) || env=(--export="ALL,TANBO_SHARD_BASE=$base")
    if ! id=$(sbatch --parsable --array="$((first - base))-$last" "${env[@]}" "$study_dir/shard.sh"); then
      # shellcheck disable=SC2086 # the ids, one word each
      [[ -z $arrays ]] || scancel $arrays 2> /dev/null || true
      study_die "sbatch refused the array job of shards $first to $((base + last)) (above); nothing started${arrays:+ (jobs $arrays cancelled)}"
    fi
    id=$(study_job_id "$id" "check squeue for the shards' array jobs (job name tanbo-study)") || exit
    arrays+=${arrays:+ }$id
  done
}

# How to run the shards $1 (comma-separated, or I) again and then the merge.
rerun_hint() {
  local i big=0
  for i in ${1//,/ }; do [[ $i == I ]] || ((i < max_array)) || big=1; done
  if ((big)) || [[ $1 == I && $study_count -ge $max_array ]]; then
    echo "sbatch --array=\$((I % $max_array)) --export=ALL,TANBO_SHARD_BASE=\$((I - I % $max_array)) $q_shard for each shard I, then: sbatch $q_merge"
  else
    echo "sbatch --dependency=afterok:\$(sbatch --parsable --array=$1 $q_shard) $q_merge"
  fi
}

q_shard=$(printf '%q' "$study_dir/shard.sh")
q_merge=$(printf '%q' "$study_dir/merge.sh")
max_array=$(study_max_array_size)
arrays=""
submit_shards
if [[ $arrays == *" "* ]]; then
  echo "shards: jobs $arrays, arrays of at most $max_array tasks ($study_dir/shards, logs in $study_dir/logs)"
else
  echo "shards: job $arrays, array 1-$study_count ($study_dir/shards, logs in $study_dir/logs)"
fi

# After the merge: what is there, or what failed and how to run it again.
report() {
  local status=$1 missing
  if ((status == 0)) && [[ -s $study_dir/study.csv ]]; then
    cat "$study_dir/study.txt"
    echo "study: $study_dir/study.csv, study.txt, study.png"
    return 0
  fi
  missing=$(study_missing)
  if ((status == 0)); then
    # sbatch --wait exits 0 for a job Slurm cancelled: the merge never ran.
    echo "$study_me: the merge did not run (Slurm cancels it when a shard fails); see $study_dir/logs" >&2
  else
    echo "$study_me: the merge failed (exit $status); see $study_dir/logs/merge-*.log" >&2
  fi
  if [[ -n $missing ]]; then
    echo "$study_me: missing shards: $missing; run them again and merge with:" >&2
    echo "  $(rerun_hint "$missing")" >&2
  fi
  return $((status == 0 ? 1 : status))
}

dependency=(--dependency="afterok:${arrays// /:}")
if ((wait)); then
  echo "merge: after the shards; waiting (progress: tail -f $(printf '%q' "$study_dir")/logs/shard-*.log)"
  status=0
  sbatch --wait "${dependency[@]}" "$study_dir/merge.sh" || status=$?
  report "$status" || exit
else
  if ! merge=$(sbatch --parsable "${dependency[@]}" "$study_dir/merge.sh"); then
    study_die "sbatch refused the merge job (above); the shards run; merge them later with: sbatch $q_merge"
  fi
  merge=$(study_job_id "$merge" "the merge may have been submitted (squeue -n tanbo-study-merge)") || exit
  echo "merge: job $merge, after the shards: $study_dir/study.csv, study.txt, study.png"
  echo "a failed shard I: $(rerun_hint I)"
fi
