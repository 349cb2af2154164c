#!/bin/bash
# tanbo solve --checkpoint FILE --resume: a solve in stages (node and time limits, SIGINT and
# SIGTERM) proves what one solve proves; checkpoints of other solves and damaged ones are
# refused and left as they were.
# usage: bash solve_resume.sh TANBO TESTDIR
set -uo pipefail
TANBO=$(realpath "$1")
cli_work_name="solve resume"  # (a space in the checkpoint's path)
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work" || exit 1
export TANBO  # (for the scripts)

# answer: the lines of a solve's output that say who wins (winner, winning moves).
answer() { grep -E '^(winner|winning moves):' <<< "$1"; }

# stages CHECKPOINT OPTIONS...: runs tanbo solve OPTIONS --checkpoint CHECKPOINT --resume until
# it says finished (at most 40 runs); $out is the last run's output, $runs the number of runs.
stages() {
  local ckpt=$1
  shift
  for runs in $(seq 1 40); do
    out=$("$TANBO" solve "$@" --table 16 --progress 0 --checkpoint "$ckpt" --resume 2> err) ||
      fail "$* (run $runs): status $?: $(cat err)"
    grep -q "checkpoint .* written" err || fail "$* (run $runs): no checkpoint written: $(cat err)"
    grep -q '^total: .*: unfinished, run again with --resume' <<< "$out" || return 0
  done
  fail "$*: not proven in 40 runs"
}

# Node limits: 5x5 (388,268 nodes in one solve), hex 3 and a line (alpha-beta), in several runs.
for board in "grid 5x5|spaced|60000|pn" "hex 3|hexbo|5000|pn" "line 24|spaced|10000|ab"; do
  IFS='|' read -r spec setup nodes method <<< "$board"
  once=$("$TANBO" solve --topology "$spec" --setup "$setup" --method "$method" --progress 0) ||
    fail "$spec: status $?"
  rm -f "run.ckpt"
  stages "run.ckpt" --topology "$spec" --setup "$setup" --method "$method" --nodes "$nodes"
  [ "$runs" -ge 2 ] || fail "$spec: proven in one run of $nodes nodes: the limit did not stop it"
  [ "$(answer "$out")" = "$(answer "$once")" ] ||
    fail "$spec in $runs runs: $(answer "$out") instead of $(answer "$once")"
  grep -q "^total: .* in $runs runs (checkpoint run.ckpt): finished$" <<< "$out" || fail "$spec: $out"
done
# A finished checkpoint (the line's) answers at once, with its certificate, and is left as it
# was: the run is not counted.
cp run.ckpt done.keep
again=$("$TANBO" solve --topology "$spec" --setup "$setup" --method "$method" --table 16 \
  --progress 0 --checkpoint run.ckpt --resume --proof done.proof 2> err) ||
  fail "a finished checkpoint resumed: status $?: $(cat err)"
cmp -s run.ckpt done.keep || fail "a finished checkpoint was written again: $(cat err)"
grep -q "run.ckpt held the result already: left as it was, this run not counted" err ||
  fail "a finished checkpoint resumed: $(cat err)"
grep -q "^total: .* in $runs runs (checkpoint run.ckpt): finished$" <<< "$again" ||
  fail "a finished checkpoint resumed: $again"
[ "$(answer "$again")" = "$(answer "$once")" ] || fail "a finished checkpoint resumed: $again"
check=$("$TANBO" check-proof done.proof) || fail "its certificate: $check"
# The first run of a job script that always passes --resume starts afresh, and says so.
rm -f run.ckpt
"$TANBO" solve --topology "hex 3" --setup hexbo --nodes 2000 --checkpoint run.ckpt --resume \
  > out 2> err || fail "first run: status $?"
grep -q "no checkpoint run.ckpt yet: starting afresh" err || fail "first run: $(cat err)"
"$TANBO" solve --topology "hex 3" --setup hexbo --nodes 2000 --checkpoint run.ckpt --resume \
  > out 2> err || fail "second run: status $?"
grep -q "resumed from run.ckpt (1 runs, " err || fail "second run: $(cat err)"
# Another table size takes it.
"$TANBO" solve --topology "hex 3" --setup hexbo --table 1 --checkpoint run.ckpt --resume \
  > out 2> err || fail "--table 1: status $?"
grep -q "table of 256 MB was read into this run's table of 1 MB" err || fail "--table 1: $(cat err)"
grep -q "^winner: white" out || fail "--table 1: $(cat out)"

# Refusals: the file is never changed.
cp run.ckpt keep.ckpt
refused() {
  local want=$1
  shift
  refused_in_one_line "$want" "$TANBO" solve --progress 0 "$@"
  cmp -s run.ckpt keep.ckpt || fail "$*: the checkpoint changed"
}
refused "run.ckpt exists: --resume carries on from it" --topology "hex 3" --setup hexbo \
  --checkpoint run.ckpt
refused "a checkpoint of another solve (board: hex 3; this solve has hex 4)" \
  --topology "hex 4" --setup hexbo --checkpoint run.ckpt --resume
refused "(method: pn; this solve has ab)" --topology "hex 3" --setup hexbo --method ab \
  --checkpoint run.ckpt --resume
refused "(symmetry: on; this solve has off)" --topology "hex 3" --setup hexbo --no-symmetry \
  --checkpoint run.ckpt --resume
refused "--resume needs --checkpoint FILE" --topology "hex 3" --resume
refused "--nodes \"-1\": must be a whole number of 0 or more" --topology "hex 3" --nodes -1
refused "--nodes must be 0 to 10^15" --topology "hex 3" --nodes 1000000000000001
refused "--table \"-5\": must be a whole number of 0 or more" --topology "hex 3" --table -5
refused "--checkpoint FILE is empty: give a name" --topology "hex 3" --checkpoint ""
refused_in_one_line "--progress must be 0 (no progress lines) or 0.1 to 10^7 seconds" "$TANBO" \
  solve --topology "hex 3" --progress 1e-9
refused "--checkpoint-every needs --checkpoint FILE" --topology "hex 3" --checkpoint-every 5
refused "--checkpoint is for a solve of one position or unit" --topology "hex 3" --split 1 --out d \
  --checkpoint run.ckpt
size=$(stat -c %s keep.ckpt)
head -c $((size / 2)) keep.ckpt > half.ckpt
cp half.ckpt half.keep
refused_in_one_line "half.ckpt: truncated" "$TANBO" solve --topology "hex 3" --setup hexbo \
  --checkpoint half.ckpt --resume
cmp -s half.ckpt half.keep || fail "a truncated checkpoint changed"
# Header figures no run could reach are damage (they are added to the next run's and printed).
for change in 's/^seconds: [^\n]*/seconds: nan/m' 's/^nodes: [^\n]*/nodes: 18446744073709551616/m' \
  's/^runs: ([^\n]*)/runs: $1\nruns: $1/m'; do
  cp keep.ckpt forged.ckpt
  perl -0pi -e "$change" forged.ckpt
  cp forged.ckpt forged.keep
  refused_in_one_line "forged.ckpt: a damaged checkpoint (" "$TANBO" solve --topology "hex 3" \
    --setup hexbo --checkpoint forged.ckpt --resume
  cmp -s forged.ckpt forged.keep || fail "a forged checkpoint changed"
done
printf 'winner: black\n' > text.ckpt
refused_in_one_line "text.ckpt: not a solver checkpoint" "$TANBO" solve --topology "hex 3" \
  --checkpoint text.ckpt --resume
# A DOT board is named by its file, which may be edited between runs: a checkpoint of the file
# before an edge was taken out (the same points and seeds, so the same position hashes) is of
# another board, and refused. It was once read in, the old board's proofs taken for the new's:
# without h -- j Black wins, and the solve resumed from it said White.
printf 'graph p {\n  a -- b -- c -- d -- e -- a\n  a -- f; b -- g; c -- h; d -- i; e -- j\n  f -- h -- j -- g -- i -- f\n  a [stone=1]; c [stone=2]\n}\n' > p.dot
"$TANBO" solve --topology "file p.dot" --setup file --progress 0 --checkpoint dot.ckpt > out 2> err ||
  fail "p.dot: $(cat err)"
grep -aq "^graph: [0-9a-f]\{16\} (10 points)$" dot.ckpt || fail "no graph line: $(head -n 8 dot.ckpt)"
sed -i 's/^  f -- h -- j -- g -- i -- f$/  f -- h; j -- g -- i -- f/' p.dot
cp dot.ckpt dot.keep
refused_in_one_line "dot.ckpt: a checkpoint of another solve (graph: " "$TANBO" solve \
  --topology "file p.dot" --setup file --progress 0 --checkpoint dot.ckpt --resume
cmp -s dot.ckpt dot.keep || fail "a checkpoint of another DOT board changed"
# A byte changed in the table: the checksum finds it, or before it the check of each entry
# (an entry no search writes).
cp keep.ckpt flip.ckpt
printf '\x55' | dd of=flip.ckpt bs=1 seek=$((size - 100)) conv=notrunc status=none
cp flip.ckpt flip.keep
refused_in_one_line "flip.ckpt: damaged (" "$TANBO" solve --topology "hex 3" \
  --setup hexbo --checkpoint flip.ckpt --resume
cmp -s flip.ckpt flip.keep || fail "a damaged checkpoint changed"

# Time limits and checkpoints during the run: the 5x5 start (18 s in one solve) for 1.5 s,
# written every 0.5 s and at the end, then carried on.
rm -f long.ckpt
"$TANBO" solve --topology "grid 5x5" --time 1.5 --table 16 --progress 0 --checkpoint long.ckpt \
  --checkpoint-every 0.5 > out 2> err || fail "--time 1.5: status $?: $(cat err)"
grep -q '^winner: unknown' out || fail "--time 1.5: $(cat out)"
[ "$(grep -c 'checkpoint long.ckpt written' err)" -ge 2 ] || fail "--checkpoint-every: $(cat err)"
head -n 1 long.ckpt | grep -qx "tanbo solver checkpoint" || fail "no checkpoint header"
grep -aq "^board: grid 5x5$" long.ckpt || fail "the header names no board"

# stopped_by SIG PID WHAT: sends SIG to the solve PID, waits for it, and fails unless it exited
# 128 + the signal's number (130 for INT, 143 for TERM).
stopped_by() {
  local sig=$1 pid=$2 status want
  kill -"$sig" "$pid"
  wait "$pid"
  status=$?
  want=$([ "$sig" = INT ] && echo 130 || echo 143)
  [ $status -eq "$want" ] || fail "SIG$sig$3: status $status, not $want: $(cat err)"
}

# SIGINT and SIGTERM stop the search, write the checkpoint and exit 130 and 143.
for sig in INT TERM; do
  "$TANBO" solve --topology "grid 5x5" --table 16 --progress 0 --checkpoint long.ckpt --resume \
    > out 2> err &
  pid=$!
  for _ in $(seq 1 100); do  # (until it has read the checkpoint and searches)
    grep -q "resumed from" err && break
    sleep 0.05
  done
  sleep 0.3
  stopped_by "$sig" $pid ""
  grep -q '^winner: unknown' out || fail "SIG$sig: $(cat out)"
  grep -q "checkpoint long.ckpt written" err || fail "SIG$sig: no checkpoint: $(cat err)"
done
grep -aq "^runs: 3$" long.ckpt || fail "three runs are not counted: $(head -n 16 long.ckpt)"
# Without a checkpoint too, Ctrl-C or a kill stops the search and prints what is known (the
# process died of the signal, and a redirected output lost even its board line).
for sig in INT TERM; do
  "$TANBO" solve --topology "grid 6x6" --table 16 --progress 0 > out 2> err &
  pid=$!
  sleep 0.5
  stopped_by "$sig" $pid " without a checkpoint"
  grep -q '^board: grid 6x6' out && grep -q '^winner: unknown' out && grep -q '^nodes: ' out ||
    fail "SIG$sig without a checkpoint: $(cat out)"
done

# A kill during a write leaves the last checkpoint whole: writes of a 256 MB table every 0.1 s,
# killed (-9) after the first, at whatever point the next has reached.
rm -f kill.ckpt
"$TANBO" solve --topology "grid 5x5" --progress 0 --checkpoint kill.ckpt --checkpoint-every 0.1 \
  > out 2> err &
pid=$!
for _ in $(seq 1 200); do
  grep -q "checkpoint kill.ckpt written" err && break
  sleep 0.05
done
sleep 0.15
kill -9 $pid
wait $pid
"$TANBO" solve --topology "grid 5x5" --nodes 1 --progress 0 --checkpoint kill.ckpt --resume \
  > out 2> err || fail "after kill -9: status $?: $(cat err)"
grep -q "resumed from kill.ckpt (1 runs" err || fail "after kill -9: $(cat err)"
ls -a | grep -q '^\.kill\.ckpt\.tmp' && fail "a killed write's temporary file was left: $(ls -a)"

# The solve scripts' --resume: each unit keeps a checkpoint, and a unit that a limit stopped
# carries on when it is run again.
once=$("$TANBO" solve --topology "grid 5x5" --setup spaced --progress 0) || fail "5x5: status $?"
bash "$2/../scripts/parallel-solve.sh" --out "split dir" --jobs 2 --resume -- \
  --topology "grid 5x5" --setup spaced --table 16 --nodes 100000 > out 2> err &&
  fail "parallel-solve: no unit was stopped by --nodes 100000"
grep -q -- "checkpoints.*/unit-.*\.ckpt --resume" "split dir/unit.sh" ||
  fail "unit.sh keeps no checkpoint: $(cat "split dir/unit.sh")"
for unit in $(seq 0 $(($(sed -n 's/^units //p' "split dir/manifest.txt") - 1))); do
  for _ in $(seq 1 20); do
    [ -e "split dir/results/unit-$unit.txt" ] && break
    bash "split dir/unit.sh" "$unit" > out 2> err
  done
  [ -e "split dir/results/unit-$unit.txt" ] || fail "unit $unit: not solved in 20 runs: $(cat err)"
done
bash "split dir/merge.sh" > out 2> err || fail "merge: $(cat err)"
[ "$(answer "$(cat out)")" = "$(answer "$once")" ] || fail "units in stages: $(cat out)"
bash "$2/../scripts/parallel-solve.sh" --out other --jobs 2 -- --topology "grid 5x5" \
  --checkpoint x.ckpt > out 2> err && fail "the scripts took --checkpoint"
grep -qF -- "--checkpoint is the script's to give" err || fail "--checkpoint: $(cat err)"
exit 0
