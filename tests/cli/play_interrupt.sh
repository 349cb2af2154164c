#!/bin/bash
# Ctrl-C in tanbo play: while an engine thinks, it plays the best move found so far (a search of
# 60 s answers within seconds) and the game goes on; at a person's prompt it leaves the game,
# status 130; SIGTERM leaves it at once, status 143. The input is a FIFO kept open, as a terminal is, so that the game waits at its
# prompt (the program is started in the background, where a shell ignores SIGINT for it).
# usage: bash play_interrupt.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work" || exit 1

mkfifo input
exec 3<> input  # holds the FIFO open: the game reads no end of input
"$TANBO" play --topology "grid 7x7" --black mcts:time=60 --seed 3 < input > out 2>&1 &
pid=$!
# (waits for the banner, the sign that the engine's search is about to start or under way)
for _ in $(seq 1 100); do grep -q "Type help" out && break; sleep 0.05; done
sleep 0.5
start=$(date +%s)
kill -INT $pid
for _ in $(seq 1 200); do grep -q "^move 1 \[mcts:time=60\]: Black plays" out && break; sleep 0.05; done
grep -q "^move 1 \[mcts:time=60\]: Black plays" out || {
  kill -KILL $pid
  fail "Ctrl-C did not make the engine move: $(tail -5 out)"
}
(($(date +%s) - start < 20)) || fail "the engine moved only after $(($(date +%s) - start)) s"
kill -0 $pid 2> /dev/null || fail "Ctrl-C during the engine's move ended the game"
for _ in $(seq 1 100); do grep -q "White> " out && break; sleep 0.05; done
kill -INT $pid
wait $pid
status=$?
[ $status -eq 130 ] || fail "Ctrl-C at the prompt: status $status, not 130: $(tail -3 out)"
grep -qx "Leaving the game unfinished (Ctrl-C)." out || fail "no word on leaving: $(tail -3 out)"

# SIGTERM (and SIGHUP, a closed terminal) leave the game even while an engine thinks: status 143.
rm -f out
"$TANBO" play --topology "grid 7x7" --black mcts:time=60 --seed 3 < input > out 2>&1 &
pid=$!
for _ in $(seq 1 100); do grep -q "Type help" out && break; sleep 0.05; done
sleep 0.5
kill -TERM $pid
wait $pid
status=$?
[ $status -eq 143 ] || fail "SIGTERM while the engine thinks: status $status, not 143: $(tail -3 out)"
grep -qx "Leaving the game unfinished (SIGTERM)." out || fail "no word on SIGTERM: $(tail -3 out)"
grep -q "Black plays" out && fail "SIGTERM made the engine move: $(tail -3 out)"
exec 3>&-
echo "play_interrupt: ok"
