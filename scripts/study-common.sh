# shellcheck shell=bash
# Shared by scripts/slurm-study.sh and scripts/parallel-study.sh (sourced, not run): the
# checks of their arguments and the two scripts they write into the study's folder,
#   DIR/shard.sh I   plays shard I of N into DIR/shards/shard-I.csv (through a temporary file
#                    renamed on success, so a failed shard leaves no file);
#                    under Slurm I is $TANBO_SHARD_BASE (0 if unset) + $SLURM_ARRAY_TASK_ID
#   DIR/merge.sh     merges DIR/shards/shard-1..N.csv into DIR/study.csv, study.txt and
#                    study.png; its arguments go to tanbo study --merge (e.g. --allow-partial)
# The study's options, the program and every path are written into them quoted, so that they
# run the same from any folder, on any machine that sees the same paths.

# The calling script's name, for messages.
study_me=${study_me:-study}

study_die() {
  echo "$study_me: $*" >&2
  exit 2
}

# An absolute path without a trailing slash.
study_absolute() {
  local p=$1
  [[ $p == /* ]] || p=$PWD/$p
  while [[ $p == */ && $p != / ]]; do p=${p%/}; done
  printf '%s' "$p"
}

# Sets study_tanbo to the absolute path of the program: $TANBO if set, else tanbo on PATH.
study_find_tanbo() {
  local t=${TANBO:-tanbo} found
  if [[ $t == */* ]]; then
    found=$(study_absolute "$t")
  else
    found=$(command -v -- "$t") || study_die "no program '$t' on PATH (set TANBO=/path/to/tanbo)"
    found=$(study_absolute "$found")
  fi
  [[ -f $found && -x $found ]] || study_die "TANBO=$t is not an executable file"
  study_tanbo=$found
}

# Sorts the study's options given after -- into study_options (for the shards) and
# study_merge_options (--title, for the merge); refuses those the scripts set themselves.
study_split_options() {
  study_options=()
  study_merge_options=()
  ((${#})) || study_die "no study options after -- (e.g. -- --topologies LIST --games 100)"
  while ((${#})); do
    case $1 in
      --csv) ;;  # the shards always write CSV
      --title)
        (($# >= 2)) || study_die "--title needs a value"
        study_merge_options+=(--title "$2")
        shift
        ;;
      --title=*) study_merge_options+=("$1") ;;
      --shard | --shard=*) study_die "$1: the shards are set by --shards N (shard i/N each)" ;;
      --merge | --merge=* | --allow-partial)
        study_die "$1: the merge is the last step of this script (DIR/merge.sh)"
        ;;
      --png | --png=*) study_die "$1: the merge writes the chart to DIR/study.png" ;;
      --dry-run) study_die "--dry-run: this script checks the options itself before it starts" ;;
      -h | --help) study_die "$1 among the study options: see tanbo study --help" ;;
      *) study_options+=("$1") ;;
    esac
    shift
  done
}

# Checks --out and --shards: sets study_dir (absolute) and study_count.
study_check_out() {
  local dir=$1 count=$2
  [[ -n $dir ]] || study_die "--out DIR is required"
  [[ -n $count ]] || study_die "--shards N is required"
  [[ $count =~ ^[1-9][0-9]{0,5}$ ]] || study_die "--shards $count: expected a whole number from 1 to 999999"
  [[ $dir != *$'\n'* && $dir != *\\* ]] || study_die "--out: a folder name with a line feed or a backslash is not supported"
  study_dir=$(study_absolute "$dir")
  study_count=$count
  if [[ -e $study_dir/study.csv ]] || compgen -G "$study_dir/shards/shard-*.csv" > /dev/null; then
    study_die "$study_dir already holds a study (study.csv or shards/shard-*.csv); choose another --out or remove them"
  fi
  # A split solve's folder (scripts/parallel-solve.sh, slurm-solve.sh) has a merge.sh of its own.
  if [[ -e $study_dir/manifest.txt || -e $study_dir/unit.sh ]]; then
    study_die "$study_dir holds a split solve (manifest.txt or unit.sh); choose another --out"
  fi
  # Another study's scripts, whose shards may still run (a Slurm run returns at once).
  if [[ -e $study_dir/shard.sh ]]; then
    study_die "$study_dir holds a study's scripts (shard.sh) already; choose another --out, or remove $study_dir/shard.sh if no shard of that study runs"
  fi
}

# Holds DIR/.run-lock until the script exits, so that a second run started into DIR at the
# same time stops at once instead of mixing the two runs' files.
study_take_lock() {
  local dir=$1
  mkdir -- "$dir/.run-lock" 2> /dev/null ||
    study_die "another run uses $dir ($dir/.run-lock; remove it if that run was killed)"
  # shellcheck disable=SC2064 # the folder's name now, as the trap must remove this run's lock
  trap "rmdir -- $(study_quote_words "$dir/.run-lock") 2> /dev/null || true" EXIT
}

# Runs GNU parallel (PARALLEL_COMMAND: parallel and its arguments, with the numbers FIRST to
# LAST on its standard input) and waits for it. INT, TERM and HUP sent to this script are passed
# on to parallel, which stops its jobs, instead of leaving them running: TERM to each job, then
# KILL 10 minutes later (parallel's own default kills after 350 ms, while a solve's unit still
# writes its checkpoint). Says which signal stopped it, and sets study_parallel_status
# (parallel's exit status).
study_run_parallel() {
  local first=$1 last=$2 pid sig stopped=""
  shift 2
  study_parallel_status=0
  seq "$first" "$last" | "$1" --termseq "TERM,600000,KILL,25" "${@:2}" &
  pid=$!
  for sig in INT TERM HUP; do
    # shellcheck disable=SC2064 # this signal's name and this parallel's pid, now
    trap "stopped=SIG$sig; kill -TERM $pid 2> /dev/null || true" "$sig"
  done
  # A trapped signal ends a wait early: wait again until parallel has stopped its jobs.
  wait "$pid" || study_parallel_status=$?
  while kill -0 "$pid" 2> /dev/null; do
    study_parallel_status=0
    wait "$pid" || study_parallel_status=$?
  done
  trap - INT TERM HUP
  [[ -z $stopped ]] || echo "$study_me: stopped by $stopped" >&2
}

# Plays nothing: lets tanbo study check the options and build every board, so that a mistake
# is reported now and not by every shard.
study_check_options() {
  local out
  if ! out=$("$study_tanbo" study "${study_options[@]}" --csv --shard "1/$study_count" \
    --dry-run 2>&1); then
    printf '%s\n' "$out" >&2
    study_die "the study options are refused (above); nothing started"
  fi
}

# Stops the script unless $1 (--time) is empty or in one of sbatch --time's forms (MIN,
# MIN:SEC, H:MIN:SEC, D-H, D-H:MIN, D-H:MIN:SEC, UNLIMITED): checked before anything is made,
# since sbatch would refuse it only when the jobs are submitted.
study_check_sbatch_time() {
  local t=$1
  [[ -z $t || $t =~ ^([0-9]+(:[0-9]+){0,2}|[0-9]+-[0-9]+(:[0-9]+){0,2})$ ||
    ${t,,} =~ ^(unlimited|infinite)$ ]] ||
    study_die "--time $t: expected a Slurm time limit (MINUTES, HOURS:MINUTES:SECONDS or DAYS-HOURS:MINUTES:SECONDS)"
}

# Prints the job id of what sbatch --parsable printed ($1: JOBID or JOBID;CLUSTER); stops the
# script, saying $2, when that is no job id (a wrapper's or site script's words on stdout).
study_job_id() {
  local id=${1%%;*}
  [[ $id =~ ^[0-9]+$ ]] || study_die "sbatch printed '$1', not a job id; $2"
  printf '%s' "$id"
}

# Slurm's MaxArraySize (scontrol show config), 1001 when it cannot be read: array task ids
# must be below it.
study_max_array_size() {
  local config size
  config=$(scontrol show config 2> /dev/null) || config=""
  size=$(awk '$1 == "MaxArraySize" { print $3 }' <<< "$config")
  [[ $size =~ ^[1-9][0-9]{0,8}$ ]] || size=1001
  echo "$size"
}

# Prints "#SBATCH --NAME=VALUE" with VALUE quoted as sbatch reads its directives.
study_sbatch_line() {
  local value=${2//\\/\\\\}
  value=${value//\"/\\\"}
  printf '#SBATCH --%s="%s"\n' "$1" "$value"
}

# The arguments quoted for bash, separated by spaces (nothing for no arguments).
study_quote_words() {
  (($#)) || return 0
  local quoted
  printf -v quoted '%q ' "$@"
  printf '%s' "${quoted% }"
}

# Writes DIR/shard.sh and DIR/merge.sh. Arguments: the extra lines for the top of each (the
# #SBATCH directives), shard first.
study_write_scripts() {
  local shard_top=$1 merge_top=$2
  mkdir -p "$study_dir/logs" "$study_dir/shards" || study_die "cannot create $study_dir/logs and $study_dir/shards"
  study_take_lock "$study_dir"
  study_check_out "$study_dir" "$study_count" # (again: a run may have begun since)
  local common
  common=$(
    printf 'set -euo pipefail\n'
    printf 'tanbo=%q\n' "$study_tanbo"
    printf 'dir=%q\n' "$study_dir"
    printf 'count=%q\n' "$study_count"
    printf 'cd %q\n' "$PWD"
  )
  {
    printf '#!/bin/bash\n'
    printf '# Shard I of the study in this folder (written by %s): bash shard.sh I\n' "$study_me"
    printf '%s' "$shard_top"
    printf '%s\n' "$common"
    printf 'options=(%s)\n' "$(study_quote_words "${study_options[@]}")"
    cat << 'SHARD'
# Under Slurm, shard TANBO_SHARD_BASE + the array task's id (arrays past MaxArraySize).
i=${1:-}
task=${SLURM_ARRAY_TASK_ID:-} base=${TANBO_SHARD_BASE:-0}
if [[ -z $i && $task =~ ^[0-9]{1,9}$ && $base =~ ^[0-9]{1,9}$ ]]; then
  i=$((10#$base + 10#$task))
elif [[ -z $i ]]; then
  i=$task
fi
if ! [[ $i =~ ^[1-9][0-9]*$ ]] || ((i > count)); then
  echo "shard.sh: expected a shard number from 1 to $count, got '$i'" >&2
  exit 2
fi
out=$dir/shards/shard-$i.csv
part=$dir/shards/.shard-$i.csv.part-$$
trap 'rm -f "$part"' EXIT
echo "shard $i/$count on $(hostname) from $(date '+%F %T')" >&2
"$tanbo" study "${options[@]}" --csv --shard "$i/$count" > "$part"
mv -f "$part" "$out"
echo "shard $i/$count written to $out at $(date '+%F %T')" >&2
SHARD
  } > "$study_dir/shard.sh"
  {
    printf '#!/bin/bash\n'
    printf '# Merges the shards of the study in this folder (written by %s): bash merge.sh\n' "$study_me"
    printf '%s' "$merge_top"
    printf '%s\n' "$common"
    printf 'merge_options=(%s)\n' "$(study_quote_words "${study_merge_options[@]}")"
    cat << 'MERGE'
files=()
for ((i = 1; i <= count; i++)); do
  if [[ -e $dir/shards/shard-$i.csv ]]; then files+=("$dir/shards/shard-$i.csv"); fi
done
if ((${#files[@]} == 0)); then
  echo "merge.sh: no shard in $dir/shards (shard-1.csv to shard-$count.csv)" >&2
  exit 2
fi
# (temporary names of this merge's own: two merges at once must not swap each other's files)
csv_part=$dir/.study.csv.part-$$ txt_part=$dir/.study.txt.part-$$ err_part=$dir/.study.err.part-$$
trap 'rm -f "$csv_part" "$txt_part" "$err_part"' EXIT
"$tanbo" study --merge "${files[@]}" "${merge_options[@]}" "$@" --csv > "$csv_part"
# The second merge's warnings are the first's; its refusal (a chart that cannot be written) is
# its own and is shown.
status=0
"$tanbo" study --merge "${files[@]}" "${merge_options[@]}" "$@" --png "$dir/study.png" \
  > "$txt_part" 2> "$err_part" || status=$?
if ((status != 0)); then
  cat "$err_part" >&2
  echo "merge.sh: the chart and table were not written (exit $status); $dir/study.csv is unchanged" >&2
  exit "$status"
fi
mv -f "$csv_part" "$dir/study.csv"
mv -f "$txt_part" "$dir/study.txt"
cat "$dir/study.txt"
echo "merged ${#files[@]} of $count shards into $dir/study.csv, study.txt and study.png" >&2
MERGE
  } > "$study_dir/merge.sh"
  chmod +x "$study_dir/shard.sh" "$study_dir/merge.sh"
}

# The shard numbers from 1 to N whose file is missing, separated by commas.
study_missing() {
  local i absent=()
  for ((i = 1; i <= study_count; i++)); do
    [[ -e $study_dir/shards/shard-$i.csv ]] || absent+=("$i")
  done
  local IFS=,
  printf '%s' "${absent[*]}"
}
