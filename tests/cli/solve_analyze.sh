#!/bin/bash
# tanbo solve and tanbo analyze end to end: the answers' form, a game file's position, a
# review with its chart, and refusals of bad input.
# usage: bash solve_analyze.sh TANBO TESTDIR
set -euo pipefail
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"

# A line of 8 points: Black wins with its only move, 2.
out=$("$TANBO" solve --topology "line 8")
grep -qx "winner: black" <<< "$out" || fail "line 8: $out"
grep -qx "winning moves: 2 (1 of 1)" <<< "$out" || fail "line 8 moves: $out"
grep -q "^nodes: [0-9]* (" <<< "$out" || fail "line 8 nodes: $out"
grep -q "^time: " <<< "$out" || fail "line 8 time: $out"

# 4x4: White wins; the best move of a losing side is still a legal move.
out=$("$TANBO" solve --topology "grid 4x4" --threads 2)
grep -qx "winner: white" <<< "$out" || fail "4x4: $out"
grep -q "^best: [A-D][1-4] (resists longest" <<< "$out" || fail "4x4 best: $out"

# A game file: after Black B1 on 4x4, White wins with D2 (and only with it, as brute force in
# tests/test_solver.cpp confirms for such positions).
"$TANBO" new "$work/g.tanbo" --topology "grid 4x4" --players a,b > /dev/null
"$TANBO" move "$work/g.tanbo" B1 > /dev/null
out=$("$TANBO" solve "$work/g.tanbo")
grep -qx "winner: white" <<< "$out" || fail "game file: $out"
grep -q "^winning moves: D2" <<< "$out" || fail "game file moves: $out"

# A time limit that runs out.
out=$("$TANBO" solve --topology "grid 9x9" --time 0.3)
grep -Eq "^winner: unknown \(stopped after [0-9.]+ s: [0-9]+ of 8 moves proven losing\)$" <<< "$out" \
  || fail "time limit: $out"

# Refusals: exit 2, a reason, nothing on stdout.
for bad in "--topology grid\ 5x5 --players 3" "--time -1" "--threads 0" "$work/none.tanbo"; do
  if eval "\"$TANBO\" solve $bad" > "$work/out" 2> "$work/err"; then fail "accepted: $bad"; fi
  [ -s "$work/err" ] || fail "no reason for: $bad"
  [ ! -s "$work/out" ] || fail "output for: $bad"
done

# A review of a whole game played by the engine, with its chart.
(echo "topology grid 5x5"; for i in $(seq 1 40); do echo "genmove b"; echo "genmove w"; done) |
  "$TANBO" gtp --engine mcts:playouts=50 --seed 3 | sed -n 's/^= \([A-Z][0-9]*\)$/\1/p' > "$work/moves"
"$TANBO" new "$work/r.tanbo" --topology "grid 5x5" --players a,b > /dev/null
while read -r m; do "$TANBO" move "$work/r.tanbo" "$m" > /dev/null; done < "$work/moves"
out=$("$TANBO" analyze "$work/r.tanbo" --playouts 100 --png "$work/r.png" 2> /dev/null)
moves=$(wc -l < "$work/moves")
rows=$(grep -c "^[0-9]" <<< "$out")
[ "$rows" = "$moves" ] || fail "analyze: $rows rows for $moves moves: $out"
grep -q "^result: " <<< "$out" || fail "analyze result: $out"
[ "$(head -c 4 "$work/r.png" | tail -c 3)" = "PNG" ] || fail "analyze: no PNG chart"
if "$TANBO" analyze "$work/none.tanbo" > /dev/null 2>&1; then fail "analyze accepted a missing file"; fi
if "$TANBO" analyze "$work/r.tanbo" --margin 2 > /dev/null 2>&1; then fail "analyze accepted --margin 2"; fi
# tanbo-analyze searches with tanbo gtp's --seed: the same seed gives the same answer, and
# of three other seeds at least one gives another (7x7 from the start: 300 playouts spread
# over dozens of moves, so two seeds agreeing on every visit count is all but impossible).
analysis() { printf 'topology grid 7x7\ntanbo-analyze 300\n' | "$TANBO" gtp --seed "$1"; }
first=$(analysis 1)
[ "$(analysis 1)" = "$first" ] || fail "tanbo-analyze: seed 1 answered twice differently"
differs=0
for seed in 2 3 4; do
  if [ "$(analysis "$seed")" != "$first" ]; then differs=1; fi
done
[ "$differs" = 1 ] || fail "tanbo-analyze: seeds 2, 3 and 4 answered as seed 1 did"
# tanbo-analyze searches with the options of tanbo gtp's --engine: its first line is the move
# genmove plays with the same budget and seed, also where the options change the default's
# answer (rave=0 with seed 1, explore=1 with seed 1 and 3: checked below that they do).
for engine in mcts:playouts=300 mcts:playouts=300,rave=0 mcts:playouts=300,explore=1; do
  for seed in 1 3; do
    out=$(printf 'topology grid 7x7\ntanbo-analyze 300\ngenmove b\n' | "$TANBO" gtp --seed "$seed" --engine "$engine")
    analyzed=$(sed -n 's/^= move \([A-G][1-7]\) .*/\1/p' <<< "$out")
    played=$(sed -n 's/^= \([A-G][1-7]\)$/\1/p' <<< "$out")
    [ -n "$played" ] && [ "$analyzed" = "$played" ] ||
      fail "tanbo-analyze with --engine $engine --seed $seed: first line $analyzed, genmove $played"
    echo "$seed $analyzed" >> "$work/analyzed-$engine"
  done
done
cmp -s "$work/analyzed-mcts:playouts=300" "$work/analyzed-mcts:playouts=300,rave=0" &&
  cmp -s "$work/analyzed-mcts:playouts=300" "$work/analyzed-mcts:playouts=300,explore=1" &&
  fail "tanbo-analyze: the engine's options changed no answer"
# Streaming analysis: updates until the next command, then that command's answer.
(printf 'topology grid 7x7\n5 tanbo-analyze 1000000 0.2\n'; sleep 1; printf 'side_to_move\nquit\n') |
  "$TANBO" gtp > "$work/stream.txt"
grep -qx "=5 " "$work/stream.txt" || fail "stream: no =5: $(cat "$work/stream.txt")"
[ "$(grep -c '^update [0-9]*$' "$work/stream.txt")" -ge 2 ] || fail "stream: fewer than 2 updates"
if grep '^move ' "$work/stream.txt" | grep -vqE '^move [A-G][1-7] visits [0-9]+ winrate [01][.][0-9]{4}( proven)? pv( [A-G][1-7])+$'; then
  fail "stream: a line out of form: $(grep '^move ' "$work/stream.txt" | head -3)"
fi
grep -qx "= black" "$work/stream.txt" || fail "stream: the next command got no answer"
# tanbo study --exact: the perfect-play winner after the table.
printf 'grid 4x4\nhex 3\n' > "$work/list.txt"
out=$("$TANBO" study --topologies "$work/list.txt" --players random,random --games 2 --exact 30 --progress 0)
grep -q "^  grid 4x4 (spaced): white wins (" <<< "$out" || fail "study --exact: $out"
grep -q "^  hex 3 (hexbo): white wins (" <<< "$out" || fail "study --exact hex: $out"
echo "solve_analyze: ok"
