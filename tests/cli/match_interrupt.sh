#!/bin/bash
# Ctrl-C in tanbo match and tanbo analyze, as in tanbo bench: the run ends with what was done so
# far (the table of the games played, the review of the moves reviewed, its chart) and status
# 130; a second Ctrl-C ends a match at once, even in the middle of a game that would last
# hours. (The programs are started in the background, where a shell ignores SIGINT for them:
# they take the signal all the same.)
# usage: bash match_interrupt.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work" || exit 1

# ended_by PID: waits up to 20 s for PID to end (killed and failed otherwise); $status is its
# exit status.
ended_by() {
  for _ in $(seq 1 200); do kill -0 "$1" 2> /dev/null || break; sleep 0.1; done
  if kill -0 "$1" 2> /dev/null; then
    kill -KILL "$1"
    fail "$2: still running 20 s after Ctrl-C"
  fi
  wait "$1"
  status=$?
}

# A match of more games than could ever be played: the table of those played, each saved.
"$TANBO" match --topology "grid 7x7" --players random,greedy --games 18446744073709551615 \
  --save-games games > out 2> err &
pid=$!
sleep 1
kill -INT $pid
ended_by $pid "match"
[ $status -eq 130 ] || fail "match: status $status, not 130: $(cat out err)"
played=$(sed -n 's/^tanbo match: stopped by Ctrl-C after \([1-9][0-9]*\) of 18446744073709551615 games$/\1/p' err)
[ -n "$played" ] || fail "match: no word on the stop: $(cat err)"
grep -q "^match: grid 7x7 (steere2026), $played games, seed 1$" out ||
  fail "match: no table of the $played games played: $(cat out)"
grep -q "^mean game length: " out || fail "match: the table is cut short: $(cat out)"
[ "$(ls games | wc -l)" -eq "$played" ] || fail "match: $(ls games | wc -l) games saved, $played played"
ls -A games | grep -v '^game-[0-9]*\.tanbo$' && fail "match: other files left in games/"

# The same as CSV.
"$TANBO" match --topology "grid 7x7" --players random,random --games 18446744073709551615 \
  --csv > out 2> err &
pid=$!
sleep 1
kill -INT $pid
ended_by $pid "match --csv"
[ $status -eq 130 ] || fail "match --csv: status $status"
[ "$(grep -c '^[12],random,[1-9][0-9]*,' out)" -eq 2 ] || fail "match --csv: no rows: $(cat out)"

# An engine that would think for hours on its first move: the first Ctrl-C waits for the game
# under way and says so; the second ends the match at once, with no game finished.
"$TANBO" match --topology "grid 19x19" --players mcts:playouts=1000000000000,random --games 3 \
  > out 2> err &
pid=$!
sleep 1
kill -INT $pid
sleep 0.5
kill -0 $pid 2> /dev/null || fail "slow match: ended at the first Ctrl-C: $(cat out err)"
grep -q "stopping after the game under way (Ctrl-C again stops at once)" err ||
  fail "slow match: the first Ctrl-C was not acknowledged: $(cat err)"
kill -INT $pid
ended_by $pid "slow match"
[ $status -eq 130 ] || fail "slow match: status $status"
grep -q "stopped by Ctrl-C after 0 of 3 games" err || fail "slow match: $(cat err)"

# A review with a big search per move: the moves reviewed, the chart, status 130.
"$TANBO" match --topology "grid 9x9" --players random,random --games 1 --save-games g > /dev/null ||
  fail "a game to review"
"$TANBO" analyze g/game-001.tanbo --playouts 1000000000 --png chart.png > out 2> err &
pid=$!
sleep 2
kill -INT $pid
ended_by $pid "analyze"
[ $status -eq 130 ] || fail "analyze: status $status, not 130: $(cat out err)"
grep -qE '^tanbo analyze: stopped by Ctrl-C after 0 of [1-9][0-9]* moves$' err ||
  fail "analyze: no word on the stop: $(cat err)"
grep -q "^move  player  played" out || fail "analyze: no table: $(cat out)"
grep -q "^chart: chart.png$" out || fail "analyze: no chart: $(cat out)"
[ "$(head -c 8 chart.png | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
  fail "analyze: chart.png is not a PNG"
echo "match_interrupt: ok"
