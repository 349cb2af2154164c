# Shared by scripts/parallel-solve.sh and scripts/slurm-solve.sh (sourced, not run): their
# options, the split of the solve's options into the board's (for the split) and the search's
# (for each unit), and the split itself.
# shellcheck shell=bash source-path=SCRIPTDIR source=study-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/study-common.sh"

# Reads the script's options into solve_out, solve_jobs, solve_depth, solve_wait, solve_proof,
# solve_resume, solve_time, solve_partition, solve_hosts (-S), and the options after -- into
# solve_board and solve_search.
solve_parse() {
  solve_out="" solve_jobs="" solve_depth=2 solve_wait=0 solve_proof=0 solve_resume=0 solve_time=""
  solve_partition="" solve_hosts=""
  while (($#)); do
    case $1 in
      --out | --jobs | --depth | --time | --partition | -S | --sshlogin)
        (($# >= 2)) && [[ -n $2 ]] || study_die "$1 needs a value (see --help)"
        case $1 in
          --out) solve_out=$2 ;;
          --jobs) solve_jobs=$2 ;;
          --depth) solve_depth=$2 ;;
          --time) solve_time=$2 ;;
          --partition) solve_partition=$2 ;;
          -S | --sshlogin) solve_hosts=$2 ;;
        esac
        shift 2
        ;;
      --out=* | --jobs=* | --depth=* | --time=* | --partition=* | --sshlogin=*)
        # The same options written NAME=VALUE, as the study scripts take them.
        set -- "${1%%=*}" "${1#*=}" "${@:2}"
        continue
        ;;
      --wait) solve_wait=1 && shift ;;
      --proof) solve_proof=1 && shift ;;
      --resume) solve_resume=1 && shift ;;
      -h | --help) usage && exit 0 ;;
      --) shift && break ;;
      *) study_die "unknown option '$1' (the solve's options go after --; see --help)" ;;
    esac
  done
  [[ -n $solve_out ]] || study_die "--out DIR is needed"
  [[ -n $solve_jobs ]] || study_die "--jobs N is needed"
  [[ $solve_jobs =~ ^[1-9][0-9]{0,4}$ ]] || study_die "--jobs $solve_jobs: expected a whole number from 1 to 99999"
  [[ $solve_depth =~ ^([1-9]|1[0-2])$ ]] || study_die "--depth $solve_depth: expected 1 to 12 plies"
  solve_check_out
  solve_board=() solve_search=()
  while (($#)); do
    case $1 in
      --topology | --setup | --players | --game | -t | -s | -p | --max-memory)
        (($# >= 2)) || study_die "$1 needs a value"
        solve_board+=("$1" "$2")
        [[ $1 == --max-memory ]] && solve_search+=("$1" "$2")
        shift 2
        ;;
      --topology=* | --setup=* | --players=* | --game=*) solve_board+=("$1") && shift ;;
      --split* | --out* | --unit* | --merge* | --proof* | --resume | --checkpoint | --checkpoint=*)
        study_die "$1 is the script's to give (see --help)" ;;
      --progress | --progress=*) study_die "$1: the units run with --progress 0 (their logs stay short)" ;;
      -h | --help) study_die "$1 among the solve's options: see tanbo solve --help" ;;
      --checkpoint-every | --checkpoint-every=*)
        ((solve_resume)) || study_die "$1 goes with the script's --resume (the units' checkpoints)"
        [[ $1 == *=* ]] && solve_search+=("$1") && shift && continue
        (($# >= 2)) || study_die "$1 needs a value"
        solve_search+=("$1" "$2") && shift 2
        ;;
      --first | --no-symmetry) solve_search+=("$1") && shift ;;
      --*=*) solve_search+=("$1") && shift ;;
      --time | --nodes | --threads | --table | --method)
        (($# >= 2)) || study_die "$1 needs a value"
        solve_search+=("$1" "$2") && shift 2
        ;;
      --*)
        # (alone at the end: tanbo solve's check below names it as an unknown option)
        (($# >= 2)) || { solve_search+=("$1") && shift && continue; }
        solve_search+=("$1" "$2") && shift 2
        ;;
      *) solve_board+=("$1") && shift ;;
    esac
  done
}

# Refuses an --out that holds the files of another run: a split (merged or not), a file this
# run would write (the job scripts, result.txt, ...), or a study (scripts/*-study.sh).
solve_check_out() {
  local d=$solve_out q
  q=$(study_quote_words "$d")
  if [[ -e $d/manifest.txt ]]; then
    [[ -e $d/result.txt ]] && study_die "$d holds a split already, merged into $d/result.txt; choose another --out"
    study_die "$d holds a split already, not merged yet; choose another --out, or finish it: solve each unit I without $d/results/unit-I.txt with bash $q/unit.sh I, then bash $q/merge.sh"
  fi
  [[ -e $d/shard.sh ]] && study_die "$d holds a study ($d/shard.sh); choose another --out"
  local f written=(unit.sh merge.sh result.txt root.tanbo units results)
  ((solve_proof)) && written+=(proof.txt)
  for f in "${written[@]}"; do
    [[ -e $d/$f || -L $d/$f ]] && study_die "$d holds $f, which this run would write; choose another --out"
  done
  return 0
}

# Lets tanbo parse the units' options (--help after them: it parses every option, then prints
# the help and does nothing), so that an unknown or repeated option is reported now and not by
# every unit after the split.
solve_check_options() {
  local words=(solve --out "$solve_out" --unit 0 --progress 0 "${solve_search[@]}") out
  ((solve_proof)) && words+=(--proof "$solve_out/results/unit-0.proof.gz")
  ((solve_resume)) && words+=(--checkpoint "$solve_out/checkpoints/unit-0.ckpt" --resume)
  if ! out=$("$study_tanbo" "${words[@]}" --help 2>&1 > /dev/null); then
    printf '%s\n' "$out" >&2
    study_die "the solve's options after -- are refused (above); nothing started"
  fi
}

# Splits the root into units; sets solve_units (their number) and solve_dir (absolute). The
# run holds DIR/.run-lock until it exits: two runs started at once into one DIR would mix the
# units and results of two splits.
solve_split() {
  solve_check_options
  mkdir -p -- "$solve_out" || study_die "cannot make $solve_out"
  solve_dir=$(study_absolute "$solve_out")
  study_take_lock "$solve_dir"
  solve_out=$solve_dir solve_check_out
  "$study_tanbo" solve "${solve_board[@]}" --split "$solve_depth" --out "$solve_dir" ||
    study_die "the split failed (above); nothing was solved"
  solve_units=$(sed -n 's/^units //p' "$solve_dir/manifest.txt")
  if ((solve_resume)); then
    mkdir -p "$solve_dir/checkpoints" || study_die "cannot make $solve_dir/checkpoints"
  fi
}

# Removes what solve_split and the script made, when no unit was started (sbatch refused the
# jobs), so that the same command can be run again into the same DIR.
solve_undo_split() {
  rm -f -- "$solve_dir/manifest.txt" "$solve_dir/root.tanbo" "$solve_dir/unit.sh" "$solve_dir/merge.sh"
  rm -rf -- "$solve_dir/units"
  rmdir -- "$solve_dir/results" "$solve_dir/checkpoints" "$solve_dir/logs" 2> /dev/null || true
}

# The units without a result (DIR/results/unit-I.txt), separated by commas.
solve_missing() {
  local i absent=()
  for ((i = 0; i < solve_units; i++)); do
    [[ -e $solve_dir/results/unit-$i.txt ]] || absent+=("$i")
  done
  local IFS=,
  printf '%s' "${absent[*]}"
}

# The command that solves unit $1 (a number or a shell expression), quoted for a script.
solve_unit_command() {
  local words=("$study_tanbo" solve --out "$solve_dir" --unit)
  local line
  line="$(study_quote_words "${words[@]}") $1 --progress 0 $(study_quote_words "${solve_search[@]}")"
  ((solve_proof)) && line+=" --proof $(study_quote_words "$solve_dir/results")/unit-$1.proof.gz"
  ((solve_resume)) &&
    line+=" --checkpoint $(study_quote_words "$solve_dir/checkpoints")/unit-$1.ckpt --resume"
  echo "$line"
}

# The merge's command, quoted for a script.
solve_merge_command() {
  local words=("$study_tanbo" solve --merge "$solve_dir")
  ((solve_proof)) && words+=(--proof "$solve_dir/proof.txt")
  study_quote_words "${words[@]}"
}
