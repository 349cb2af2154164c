#!/bin/bash
# tanbo play in a pseudo-terminal (util-linux `script`): colour on, a complete game against
# an engine player; and the same program piped: no colour. The menu of a finished game in a
# terminal: --load opens it there; review, back, forward, goto, undo (the engines play on to a
# new end), save, new, quit; a hex board keeps its coordinates in colour.
# usage: bash play_pty.sh TANBO TESTDIR
set -u
TANBO=$1
command -v script >/dev/null || { echo "SKIP: script(1) not installed"; exit 0; }
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"

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
# A finished game, opened in the menu; the engines play every turn taken back.
"$TANBO" match --topology "hex 3" --players random,random --games 1 --save-games "$work/games" \
  > /dev/null || fail "match for a finished game"
finished="$work/games/game-001.tanbo"
n=$(grep -c '^black \|^white ' "$finished")
printf 'review\n\nforward 2\nback\ngoto 2\nlast\nsave %s\nundo 2\nnew\nmoves\nquit\n' \
  "$work/saved.tanbo" > "$work/menu.in"
timeout 120 script -qec "$TANBO play --load '$finished' --black random --white random --seed 9" \
  /dev/null < "$work/menu.in" > "$work/menu.out" 2>&1 || fail "menu session failed"
tr -d '\r' < "$work/menu.out" | sed 's/\x1b\[[0-9;]*m//g' > "$work/menu.txt"
expect() { grep -qF -- "$1" "$work/menu.txt" || fail "no \"$1\" in the terminal session"; }
expect "game over> "
expect "start of the game ($n moves in all)"
expect "move 1 of $n: Black "
expect "move 3 of $n: "
expect "move 2 of $n: White "
expect "move $n of $n: "
expect "saved to $work/saved.tanbo"
expect "took back 2 turns"
expect "new game on hex 3 (setup hexbo)"
expect "     1 2 3"  # the hex board's cell numbers
[ "$(grep -c "^Game over: " "$work/menu.txt")" -eq 3 ] \
  || fail "not three ends (loaded, after undo, after new)"
grep -q $'\033\\[' "$work/menu.out" || fail "no colour in the menu session"
"$TANBO" show "$work/saved.tanbo" | grep -q "game over after $n turns" || fail "saved game"
echo "ok"
