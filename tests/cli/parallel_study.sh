#!/bin/bash
# scripts/parallel-study.sh with the real GNU parallel: a study in a folder with spaces whose
# merged CSV equals the unsharded run's, the same through -S (parallel's remote path, with an
# "ssh" that runs the command here), a failed shard (no file, no merge, the printed one-liner
# mends it) and its argument checks.
# usage: bash parallel_study.sh TANBO TESTDIR
set -euo pipefail
real_tanbo=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tests=$(cd "$2" && pwd)
script=$tests/../scripts/parallel-study.sh
if ! command -v parallel > /dev/null; then
  echo "parallel_study: GNU parallel is not installed (apt-get install parallel)" >&2
  exit 1
fi
cli_work_name="parallel study"
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"
export TANBO=$real_tanbo
# A command that fails without a word (its output went to a file) names its line and shows
# what the scripts printed.
on_error() {
  echo "parallel_study: line $1 failed (exit $2); the scripts' output:" >&2
  for f in "$work"/*.err "$work"/*.out; do
    [[ -e $f ]] && { echo "--- $(basename "$f")"; tail -n 20 "$f"; } >&2
  done
}
trap 'on_error $LINENO $?' ERR

mkdir "my boards"
printf 'line 7\ngrid 3x3\nhex 3\n' > "my boards/list.txt"
study=(--topologies "my boards/list.txt" --players greedy,random --games 5 --seed 3)
"$TANBO" study "${study[@]}" --csv > whole.csv 2> /dev/null
"$TANBO" study "${study[@]}" > whole.txt 2> /dev/null

# Argument checks.
status=0
bash "$script" --out x --shards 2 --jobs 0 -- "${study[@]}" 2> err.txt || status=$?
[[ $status -eq 2 ]] && grep -q -- "--jobs 0: expected a whole number" err.txt || fail "--jobs 0"
status=0
bash "$script" --shards 2 -- "${study[@]}" 2> err.txt || status=$?
[[ $status -eq 2 ]] && grep -q -- "--out DIR is required" err.txt || fail "no --out"
# A split solve's folder (scripts/parallel-solve.sh) keeps its merge.sh.
"$TANBO" solve --topology "grid 4x4" --split 1 --out split > /dev/null
echo "# the split's merge" > split/merge.sh
status=0
bash "$script" --out split --shards 2 -- "${study[@]}" 2> err.txt || status=$?
[[ $status -eq 2 ]] && grep -q "holds a split solve" err.txt || fail "a split's folder: $(cat err.txt)"
[[ $(cat split/merge.sh) == "# the split's merge" ]] || fail "the split's merge.sh was replaced"
# Another study's scripts (its shards may still run), and a run that holds the folder now.
mkdir other && echo "# another study's shard" > other/shard.sh
status=0
bash "$script" --out other --shards 2 -- "${study[@]}" 2> err.txt || status=$?
[[ $status -eq 2 ]] && grep -q "holds a study's scripts (shard.sh)" err.txt || fail "shard.sh: $(cat err.txt)"
[[ $(cat other/shard.sh) == "# another study's shard" ]] || fail "another study's shard.sh was replaced"
mkdir -p busy/.run-lock
status=0
bash "$script" --out busy --shards 2 -- "${study[@]}" 2> err.txt || status=$?
[[ $status -eq 2 ]] && grep -q "another run uses" err.txt || fail "a folder in use: $(cat err.txt)"
[[ -e busy/shard.sh ]] && fail "scripts were written into a folder in use"

# On the local cores.
bash "$script" --out "run 1" --shards 3 --jobs 2 -- "${study[@]}" > run1.out 2> run1.err
cmp "run 1/study.csv" whole.csv
cmp "run 1/study.txt" whole.txt
cmp run1.out whole.txt # the table on stdout
grep -q "^tanbo study shard 2/3: " run1.err || fail "no progress lines"
[[ $(grep -c . "run 1/logs/parallel.joblog") -eq 4 ]] || fail "joblog"
[[ -e "run 1/.run-lock" ]] && fail "the run left its lock"
# A chart that cannot be written (a folder in its place): merge.sh fails saying why, and the
# run's study.csv stays as it was (the second merge's messages once went to /dev/null, and it
# failed without a word).
mv "run 1/study.png" study1.png
mkdir "run 1/study.png"
status=0
bash "run 1/merge.sh" > merge.out 2> merge.err || status=$?
[[ $status -ne 0 ]] || fail "merge.sh with a folder for its chart succeeded"
grep -q "study.png: is a directory" merge.err || fail "merge.sh failed without a word: $(cat merge.err)"
cmp "run 1/study.csv" whole.csv
[[ -z $(find "run 1" -name '.study.*') ]] || fail "merge.sh left temporary files"
rmdir "run 1/study.png"

# Through -S: parallel quotes the script's path for the remote shell; the "ssh"
# (tests/support/tanbo-test-ssh) runs it here.
mkdir bin
cp "$tests/support/tanbo-test-ssh" bin/
export FAKESSH_LOG=$work/ssh.log
PATH=$work/bin:$PATH PARALLEL_SSH=tanbo-test-ssh bash "$script" --out "run 2" --shards 2 \
  -S 1/nodeA -- "${study[@]}" > run2.out 2> run2.err
cmp "run 2/study.csv" whole.csv
[[ $(grep -c ssh ssh.log) -ge 2 ]] || fail "the shards did not go through ssh"

# A host whose login gives no $SHELL: parallel skips the jobs and exits 0; the script says so.
status=0
PATH=$work/bin:$PATH PARALLEL_SSH=tanbo-test-ssh FAKESSH_SHELL="" bash "$script" \
  --out "run 2b" --shards 2 -S 1/nodeA -- "${study[@]}" > run2b.out 2> run2b.err || status=$?
[[ $status -eq 1 ]] || fail "a host without \$SHELL: exit $status, not 1"
grep -q "missing shards: 1,2 (parallel: exit 0)" run2b.err || fail "shards not named"
grep -q "check that \$SHELL is set on the hosts" run2b.err || fail "no hint about \$SHELL"

# A failed shard.
cat > flaky << EOF
#!/bin/bash
if [[ -e "$work/break" && " \$* " == *" --shard 2/"* ]]; then echo "flaky: broken" >&2; exit 7; fi
exec "$real_tanbo" "\$@"
EOF
chmod +x flaky
touch break
status=0
TANBO=$work/flaky bash "$script" --out "run 3" --shards 3 -- "${study[@]}" > run3.out 2> run3.err ||
  status=$?
[[ $status -eq 1 ]] || fail "a failed shard: exit $status, not 1"
grep -q "missing shards: 2 (parallel: exit 1); nothing merged" run3.err || fail "not named"
[[ ! -e "run 3/shards/shard-2.csv" && ! -e "run 3/study.csv" ]] || fail "files of a failed shard"
[[ -z $(find "run 3" -name '*.part*') ]] || fail "temporary files left"
rm break
rerun=$(grep "^  bash " run3.err)
eval "$rerun" > rerun.out 2> rerun.err
cmp "run 3/study.csv" whole.csv
echo "parallel_study: shards run and merged"
