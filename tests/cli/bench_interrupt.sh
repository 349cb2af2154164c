#!/bin/bash
# Ctrl-C in tanbo bench: a count of games too large to finish is stopped after the game under
# way, with the usual line for the games played and status 130. (The program is started in the
# background, where a shell ignores SIGINT for it: bench takes the signal all the same.)
# usage: bash bench_interrupt.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work" || exit 1

"$TANBO" bench --topology "grid 9x9" --games 18446744073709551615 > out 2> err &
pid=$!
sleep 1
kill -INT $pid
for _ in $(seq 1 200); do kill -0 $pid 2> /dev/null || break; sleep 0.1; done
if kill -0 $pid 2> /dev/null; then
  kill -KILL $pid
  fail "Ctrl-C did not stop the run within 20 s"
fi
wait $pid
status=$?
[ $status -eq 130 ] || fail "Ctrl-C: status $status, not 130: $(cat out err)"
grep -qE '^games=[1-9][0-9]* moves_per_game=[0-9]+\.[0-9] playouts_per_second=[0-9]+$' out ||
  fail "no line for the games played: $(cat out)"
grep -qE '^tanbo bench: stopped by Ctrl-C after [1-9][0-9]* of 18446744073709551615 games$' err ||
  fail "no word on the stop: $(cat err)"
echo "bench_interrupt: ok"
