#!/bin/bash
# tanbo play in a pseudo-terminal (util-linux `script`): colour on, a complete game against
# an engine player; and the same program piped: no colour.
# usage: bash play_pty.sh TANBO TESTDIR
set -u
TANBO=$1
fail() { echo "FAIL: $*"; exit 1; }
command -v script >/dev/null || { echo "SKIP: script(1) not installed"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A stubborn human: every point of 9x9, over and over; illegal ones are refused.
for i in $(seq 1 150); do
  for r in 1 2 3 4 5 6 7 8 9; do for c in A B C D E F G H J; do echo "$c$r"; done; done
done > "$work/input"

timeout 120 script -qec "$TANBO play --topology 'grid 9x9' --white random --seed 4" /dev/null \
  < "$work/input" > "$work/pty.out" 2>&1
grep -q "Game over: .* wins" "$work/pty.out" || fail "no end of game in the terminal session"
grep -q $'\033\\[' "$work/pty.out" || fail "no colour in a terminal"
grep -q "Illegal move" "$work/pty.out" || fail "no refusal shown"

"$TANBO" play --topology 'grid 9x9' --white random --seed 4 < "$work/input" > "$work/pipe.out" 2>&1 \
  || fail "piped game failed"
grep -q "Game over: .* wins" "$work/pipe.out" || fail "no end of game when piped"
grep -q $'\033' "$work/pipe.out" && fail "colour codes when piped"
"$TANBO" play --topology 'grid 9x9' --colour always < /dev/null | grep -q $'\033' \
  || fail "--colour always gives no colour"
echo "ok"
