#!/bin/bash
# A solve spread over work units: scripts/parallel-solve.sh (GNU parallel) splits 5x5, solves
# the units and merges them into the answer of one tanbo solve of the whole board, with one
# certificate that tanbo check-proof accepts; scripts/slurm-solve.sh does the same through a
# stub sbatch; the merge refuses a missing unit and a result of another split.
# usage: bash split_solve.sh TANBO TESTDIR
set -u
real_tanbo=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tests=$(cd "$2" && pwd)
cli_work_name="split solve"
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work" || exit 1
export TANBO=$real_tanbo

# The whole board on one machine, for comparison.
"$TANBO" solve --topology "grid 5x5" --setup spaced --table 16 --progress 0 > whole.txt 2> err ||
  fail "solve: $(cat err)"
grep -E '^(winner|winning moves):' whole.txt > whole.lines

bash "$tests/../scripts/parallel-solve.sh" --out "split dir" --jobs 2 --proof -- \
  --topology "grid 5x5" --setup spaced --table 16 > out 2> err || fail "parallel-solve: $(cat out err)"
[ -s "split dir/result.txt" ] || fail "no result.txt"
grep -E '^(winner|winning moves):' "split dir/result.txt" > merged.lines
cmp -s whole.lines merged.lines || fail "the merged answer differs: $(cat merged.lines) -- $(cat whole.lines)"
"$TANBO" check-proof "split dir/proof.txt" > out 2> err || fail "the merged certificate: $(cat out err)"
grep -qx "valid: black wins grid 5x5 (setup spaced)" out || fail "check-proof: $(cat out)"

# The merge refuses a unit of another run and a missing unit, and writes nothing then.
rm "split dir/result.txt"
cp "split dir/results/unit-1.txt" unit-1.txt
sed -i 's/^run .*/run 0123456789abcdef/' "split dir/results/unit-1.txt"
"$TANBO" solve --merge "split dir" > out 2> err && fail "a unit of another run was merged"
grep -qF "belongs to another split" err || fail "another run: $(cat err)"
rm "split dir/results/unit-1.txt"
"$TANBO" solve --merge "split dir" > out 2> err && fail "a missing unit was merged"
grep -qF "unit-1 has no result" err || fail "missing unit: $(cat err)"
[ -e "split dir/result.txt" ] && fail "a refused merge wrote result.txt"
cp unit-1.txt "split dir/results/unit-1.txt"
# Damaged numbers in the manifest or a unit's result are refused with the file's name (they
# once made the merge fail with an internal error).
cp "split dir/manifest.txt" manifest.txt
sed -i 's/^depth .*/depth two/' "split dir/manifest.txt"
"$TANBO" solve --merge "split dir" > out 2> err && fail "a damaged manifest was merged"
grep -qF "a damaged manifest" err || fail "damaged manifest: $(cat err)"
grep -q "internal error" err && fail "damaged manifest: $(cat err)"
cp manifest.txt "split dir/manifest.txt"
sed -i 's/^nodes .*/nodes 12x/' "split dir/results/unit-1.txt"
"$TANBO" solve --merge "split dir" > out 2> err && fail "a damaged result was merged"
grep -qF "a damaged result" err || fail "damaged result: $(cat err)"
cp unit-1.txt "split dir/results/unit-1.txt"
"$TANBO" solve --merge "split dir" > out 2> err || fail "merge again: $(cat err)"

# The same folder cannot be split twice; bad options are refused.
bash "$tests/../scripts/parallel-solve.sh" --out "split dir" --jobs 2 -- --topology "grid 5x5" \
  > out 2> err && fail "a second split into one folder"
grep -qF "holds a split already" err || fail "second split: $(cat err)"
"$TANBO" solve --topology "grid 4x4" --split 2 > out 2> err && fail "--split without --out"
grep -qF -- "--split DEPTH and --out DIR go together" err || fail "--split alone: $(cat err)"

# Through Slurm (a stub sbatch that runs each job here at once), with --wait.
mkdir bin
cp "$tests/support/sbatch-stub" bin/sbatch
PATH="$work/bin:$PATH" SBATCH_STUB_DIR="$work/stub" bash "$tests/../scripts/slurm-solve.sh" \
  --out slurm --jobs 2 --wait --proof --time 10:00 -- --topology "grid 5x5" --setup spaced \
  --table 16 > out 2> err || fail "slurm-solve: $(cat out err)"
grep -E '^(winner|winning moves):' slurm/result.txt > slurm.lines
cmp -s whole.lines slurm.lines || fail "the Slurm answer differs: $(cat slurm.lines)"
grep -qF -- "--array=0-" stub/calls || fail "no array job: $(cat stub/calls)"
"$TANBO" check-proof slurm/proof.txt > out 2> err || fail "the Slurm certificate: $(cat out err)"
echo ok
