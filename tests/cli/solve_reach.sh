#!/bin/bash
# scripts/solve_reach.py end to end: on a board the solver proves from the start, every game
# is proven back to its first position (the reach is the whole game); on a board it cannot
# prove in the time given, the reach stops short of the start.
# usage: bash solve_reach.sh TANBO TESTDIR
set -euo pipefail
TANBO=$1
TESTDIR=$2
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
script=$TESTDIR/../scripts/solve_reach.py

# 3x3 from the 2026 start: White wins from the start (docs/solved.md), so each game is proven
# from its first position, and its reach equals its length.
out=$(python3 "$script" "$TANBO" --topology "grid 3x3" --setup steere2026 --games 3 --seconds 5 \
  --selfplay random)
games=$(grep -c '^game ' <<< "$out" || true)
[ "$games" -eq 3 ] || fail "3x3: $games game lines: $out"
while read -r line; do
  plies=$(sed -E 's/^game [0-9]+: ([0-9]+) plies;.*/\1/' <<< "$line")
  grep -q "proven $plies plies before the end" <<< "$line" || fail "3x3 not proven whole: $line"
  grep -q ": white [A-C][1-3]$" <<< "$line" || fail "3x3 start not a White win: $line"
done < <(grep '^game ' <<< "$out")
grep -q '^| `grid 3x3` | steere2026 | 3 | 5 |' <<< "$out" || fail "3x3 row: $out"

# 9x9 from the 2026 start with a tenth of a second a position: no game is proven from its
# start, and the reach is smaller than the game.
out=$(python3 "$script" "$TANBO" --topology "grid 9x9" --setup steere2026 --games 1 \
  --seconds 0.1 --selfplay greedy)
line=$(grep '^game 1: ' <<< "$out") || fail "9x9: $out"
plies=$(sed -E 's/^game 1: ([0-9]+) plies.*/\1/' <<< "$line")
if [[ $line =~ proven\ ([0-9]+)\ plies ]]; then
  [ "${BASH_REMATCH[1]}" -lt "$plies" ] || fail "9x9 proven from its start in 0.1 s: $line"
fi
echo "ok"
