#!/bin/bash
# scripts/slurm-study.sh end to end with a stub sbatch (tests/support/sbatch-stub, which runs
# each job at once on this machine, honouring --array, --dependency=afterok and the #SBATCH
# lines): its argument checks, a study in a folder with spaces whose merged CSV and chart equal
# the unsharded run's, a failed shard (no file left, the merge not run, the printed one-liner
# runs it again) and a failed merge (--wait exits with its status).
# usage: bash slurm_study.sh TANBO TESTDIR
set -euo pipefail
real_tanbo=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tests=$(cd "$2" && pwd)
script=$tests/../scripts/slurm-study.sh
cli_work_name="slurm study"
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"
mkdir bin "my boards"
cp "$tests/support/sbatch-stub" bin/sbatch
export PATH="$work/bin:$PATH" SBATCH_STUB_DIR="$work/stub" TANBO=$real_tanbo

# refused EXPECTED -- COMMAND...: exits 2 with EXPECTED on stderr and submits nothing.
refused() {
  local expected=$1 status=0
  shift 2
  rm -rf "$SBATCH_STUB_DIR"
  "$@" > out.txt 2> err.txt || status=$?
  [[ $status -eq 2 ]] || { cat out.txt err.txt >&2 && fail "exit $status, not 2: $*"; }
  grep -qF -- "$expected" err.txt || { cat err.txt >&2 && fail "no '$expected' from: $*"; }
  [[ ! -e $SBATCH_STUB_DIR/calls ]] || fail "submitted although refused: $*"
}

printf 'line 7\ngrid 3x3\nhex 3\n' > "my boards/list.txt"
title='a "quoted" $title, with \ and %'
study=(--topologies "my boards/list.txt" --players greedy,random --games 5 --seed 3)
"$TANBO" study "${study[@]}" --csv --png whole.png --title "$title" > whole.csv 2> /dev/null
"$TANBO" study "${study[@]}" > whole.txt 2> /dev/null

# ---- the arguments
refused "--out DIR is required" -- bash "$script" --shards 2 -- "${study[@]}"
refused "--shards N is required" -- bash "$script" --out s -- "${study[@]}"
refused "--shards 0: expected a whole number" -- bash "$script" --out s --shards 0 -- "${study[@]}"
refused "--shards x: expected a whole number" -- bash "$script" --out s --shards x -- "${study[@]}"
refused "unknown option '--games'" -- bash "$script" --out s --shards 2 --games 5
refused "--time needs a value" -- bash "$script" --out s --shards 2 --time
refused "--time 1h: expected a Slurm time limit" -- bash "$script" --out s --shards 2 --time 1h \
  -- "${study[@]}"
refused "--time 2:00" -- bash "$script" --out s --shards 2 --time $'2:00\n#SBATCH --x' -- "${study[@]}"
[[ -e s ]] && fail "a refused --time made the study's folder"
refused "no study options after --" -- bash "$script" --out s --shards 2 --
refused "--shard: the shards are set by --shards N" -- \
  bash "$script" --out s --shards 2 -- "${study[@]}" --shard 1/2
refused "--png=x.png: the merge writes the chart to DIR/study.png" -- \
  bash "$script" --out s --shards 2 -- "${study[@]}" --png=x.png
refused "--merge: the merge is the last step" -- bash "$script" --out s --shards 2 -- --merge a.csv
refused "--games must be at least 1" -- \
  bash "$script" --out s --shards 2 -- --topologies "my boards/list.txt" --games 0
refused "the study options are refused" -- bash "$script" --out s --shards 2 -- --topologies nofile
refused "TANBO=$work/none is not an executable file" -- \
  env TANBO="$work/none" bash "$script" --out s --shards 2 -- "${study[@]}"
refused "no program 'tanbo' on PATH" -- \
  env -u TANBO PATH="$work/bin:/usr/bin:/bin" bash "$script" --out s --shards 2 -- "${study[@]}"
mkdir nosbatch
ln -s "$(command -v dirname)" nosbatch/dirname
refused "sbatch not found" -- \
  env PATH="$work/nosbatch" "$(command -v bash)" "$script" --out s --shards 2 -- "${study[@]}"
refused "sbatch refused the array job" -- \
  env SBATCH_STUB_FAIL=yes bash "$script" --out s --shards 2 -- "${study[@]}"
[[ ! -e s/shards/shard-1.csv ]] || fail "a refused submission left shards"

# ---- a whole study in a folder with spaces; --wait
rm -rf "$SBATCH_STUB_DIR"
bash "$script" --out "run 1" --shards 4 --wait --partition debug --time 5:00 -- "${study[@]}" \
  --csv --title "$title" > run1.out 2> run1.err || { cat run1.err >&2 && fail "the run failed"; }
cmp "run 1/study.csv" whole.csv
cmp "run 1/study.png" whole.png
cmp "run 1/study.txt" whole.txt
grep -q "^study: $work/run 1/study.csv, study.txt, study.png$" run1.out || fail "no result line"
for i in 1 2 3 4; do
  head -n 1 "run 1/shards/shard-$i.csv" | grep -qx "# tanbo study shard $i/4" || fail "shard $i"
  grep -q "^tanbo study shard $i/4: \([0-9]*\)/\1 games, " "run 1/logs/shard-$i-100.log" ||
    fail "no progress in the log of shard $i"
done
grep -q "^merged 4 of 4 shards" "run 1/logs/merge-101.log" || fail "merge log"
[[ -z $(find "run 1" -name '*.part*') ]] || fail "temporary files left"
# The calls: the array 1-4, then the merge after it; the count is in the scripts, the settings
# in their #SBATCH lines.
mapfile -t calls < "$SBATCH_STUB_DIR/calls"
[[ ${#calls[@]} -eq 2 ]] || fail "${#calls[@]} sbatch calls"
[[ ${calls[0]} == "--parsable --array=1-4 $(printf '%q' "$work/run 1/shard.sh")" ]] ||
  fail "array call: ${calls[0]}"
[[ ${calls[1]} == "--wait --dependency=afterok:100 $(printf '%q' "$work/run 1/merge.sh")" ]] ||
  fail "merge call: ${calls[1]}"
grep -qx 'count=4' "run 1/shard.sh" || fail "the shard count is not written in shard.sh"
for f in shard merge; do
  grep -qx '#SBATCH --partition="debug"' "run 1/$f.sh" || fail "no partition in $f.sh"
  grep -qx '#SBATCH --time="5:00"' "run 1/$f.sh" || fail "no time in $f.sh"
done
grep -qx '#SBATCH --kill-on-invalid-dep="yes"' "run 1/merge.sh" || fail "merge.sh kill-on-invalid-dep"
# The folder is used: a second run into it is refused.
refused "already holds a study" -- bash "$script" --out "run 1" --shards 4 -- "${study[@]}"

# ---- without --wait: the jobs are submitted and the script says where the results go
rm -rf "$SBATCH_STUB_DIR"
bash "$script" --out run2 --shards 3 -- "${study[@]}" > run2.out 2> /dev/null
grep -q "^merge: job 101, after the shards" run2.out || fail "no merge job line"
grep -qF "a failed shard I: sbatch --dependency=afterok:\$(sbatch --parsable --array=I" run2.out ||
  fail "no re-run line"
cmp run2/study.csv whole.csv
# An sbatch that prints no job id on --parsable (a site's wrapper) is not taken for one.
mkdir bad-bin
printf '#!/bin/bash\necho "sbatch: warning: no id today"\n' > bad-bin/sbatch
chmod +x bad-bin/sbatch
status=0
PATH="$work/bad-bin:$PATH" bash "$script" --out bad-id --shards 2 -- "${study[@]}" \
  > bad.out 2> bad.err || status=$?
[[ $status -eq 2 ]] || fail "no job id: exit $status, not 2"
grep -qF "sbatch printed 'sbatch: warning: no id today', not a job id" bad.err ||
  fail "no job id: $(cat bad.err)"
grep -q "^shards: job" bad.out && fail "no job id, yet reported: $(cat bad.out)"

# ---- a failed shard: no file, no merge, exit 1, the one-liner that mends it
cat > flaky << EOF
#!/bin/bash
if [[ -e "$work/break" && " \$* " == *" --shard 3/"* ]]; then echo "flaky: broken" >&2; exit 7; fi
exec "$real_tanbo" "\$@"
EOF
chmod +x flaky
touch break
rm -rf "$SBATCH_STUB_DIR"
status=0
TANBO=$work/flaky bash "$script" --out "run 3" --shards 4 --wait -- "${study[@]}" \
  > run3.out 2> run3.err || status=$?
[[ $status -eq 1 ]] || fail "a failed shard: exit $status, not 1"
grep -q "the merge did not run" run3.err || fail "no word on the merge"
grep -q "missing shards: 3; run them again" run3.err || fail "the missing shard is not named"
[[ ! -e "run 3/shards/shard-3.csv" && ! -e "run 3/study.csv" ]] || fail "files of a failed shard"
[[ -z $(find "run 3" -name '*.part*') ]] || fail "temporary files of a failed shard left"
grep -q "flaky: broken" "run 3/logs/shard-3-100.log" || fail "the failure is not in the log"
rm break
rerun=$(grep "^  sbatch --dependency" run3.err)
eval "$rerun" > /dev/null
cmp "run 3/study.csv" whole.csv
grep -q "^--parsable --array=3 " "$SBATCH_STUB_DIR/calls" || fail "the re-run call"

# ---- more shards than Slurm's MaxArraySize (3 here, from a stub scontrol): arrays 1-2, then
# 0-2 and 0-1 from shards 3 and 6 (task a running shard base + a); the same study. Before, sbatch
# refused the array 1-7 and nothing ran.
mkdir small-bin
printf '#!/bin/bash\n[[ "$*" == "show config" ]] && echo "MaxArraySize            = 3"\n' > small-bin/scontrol
chmod +x small-bin/scontrol
rm -rf "$SBATCH_STUB_DIR"
PATH="$work/small-bin:$PATH" bash "$script" --out arrays --shards 7 --wait -- "${study[@]}" \
  --csv --title "$title" > arrays.out 2> arrays.err || fail "shards in arrays: $(cat arrays.err)"
cmp arrays/study.csv whole.csv
grep -q "^shards: jobs 100 101 102, arrays of at most 3 tasks" arrays.out || fail "$(cat arrays.out)"
mapfile -t calls < "$SBATCH_STUB_DIR/calls"
q=$(printf '%q' "$work/arrays/shard.sh")
[[ ${calls[0]} == "--parsable --array=1-2 $q" &&
  ${calls[1]} == "--parsable --array=0-2 --export=ALL\,TANBO_SHARD_BASE=3 $q" &&
  ${calls[2]} == "--parsable --array=0-1 --export=ALL\,TANBO_SHARD_BASE=6 $q" &&
  ${calls[3]} == "--wait --dependency=afterok:100:101:102 "* ]] || fail "the calls: $(cat "$SBATCH_STUB_DIR/calls")"
for i in 1 2 3 4 5 6 7; do
  head -n 1 "arrays/shards/shard-$i.csv" | grep -qx "# tanbo study shard $i/7" || fail "shard $i/7"
done
# A failed shard from MaxArraySize up is named with its array's base.
touch break
rm -rf "$SBATCH_STUB_DIR"
status=0
PATH="$work/small-bin:$PATH" TANBO=$work/flaky bash "$script" --out arrays2 --shards 7 --wait -- \
  "${study[@]}" > /dev/null 2> arrays2.err || status=$?
rm break
[[ $status -eq 1 ]] && grep -q "missing shards: 3; run them again" arrays2.err &&
  grep -qF -- "--export=ALL,TANBO_SHARD_BASE=\$((I - I % 3))" arrays2.err || fail "$(cat arrays2.err)"
# A shard task under Slurm with a base, and task ids that are not numbers.
SLURM_ARRAY_TASK_ID=1 TANBO_SHARD_BASE=6 bash arrays/shard.sh 2> shard.err || fail "base 6, task 1"
grep -q "^shard 7/7 " shard.err || fail "base 6, task 1 ran: $(cat shard.err)"
status=0
SLURM_ARRAY_TASK_ID='1+x' bash arrays/shard.sh 2> shard.err || status=$?
[[ $status -eq 2 ]] && grep -qF "got '1+x'" shard.err || fail "task 1+x: $status $(cat shard.err)"

# ---- a failed merge: --wait exits with its status
cat > nomerge << EOF
#!/bin/bash
[[ " \$* " == *" --merge "* ]] && { echo "nomerge: refused" >&2; exit 5; }
exec "$real_tanbo" "\$@"
EOF
chmod +x nomerge
status=0
TANBO=$work/nomerge bash "$script" --out run4 --shards 2 --wait -- "${study[@]}" \
  > /dev/null 2> run4.err || status=$?
[[ $status -eq 5 ]] || fail "a failed merge: exit $status, not 5"
grep -q "the merge failed (exit 5)" run4.err || fail "no word on the failed merge"
echo "slurm_study: submissions checked"
