#!/bin/bash
# tanbo match seats every player of --players in every game: the setup must seat that many
# players (a list that does not fit is refused with the reason and nothing is played); a
# game of more than two players says so; saved games are named game-001.tanbo, ...; tanbo
# study seats its players in the same way.
# usage: bash match_players.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"

# refused LINE_IN_STDERR ARGS...: exit status 2, one line on stderr holding the reason,
# nothing played.
refused() { refused_in_one_line "$1" "$TANBO" match "${@:2}"; }

# Three players on 19x19, whose setup (Figure A) is for two: refused, the setups that seat
# three named.
refused "--players lists 3 players, but setup steere1995 does not seat 3 players on grid 19x19; setups that do: dense, spaced" \
  --players random,random,random --games 1
# Two players on the four-player setup; four on a hex board (2, 3 or 6 players).
refused "--players lists 2 players, but setup four does not seat 2 players on grid 19x19" \
  --players random,greedy --setup four --games 1
refused "setup hexbo does not seat 4 players on hex 4; no setup of this board does" \
  --topology "hex 4" --players random,random,random,random --games 1
# A DOT board for three players and a list of two.
printf 'graph { players=3; a [stone=1]; b [stone=2]; c [stone=3]; a -- x -- b -- y -- c -- z -- a; }\n' \
  > three.dot
refused "--players lists 2 players, but setup file does not seat 2 players" \
  --topology "file three.dot" --players random,random --games 1

# A list the setup seats: three players on hex 3 play three-player games, and say so.
"$TANBO" match --topology "hex 3" --players random,greedy,random --games 3 > out 2> err \
  || fail "3 players on hex 3: $(cat err)"
grep -q "^match: hex 3 (hexbo), 3-player games (every player in every game, the seats rotating), 3 games" out \
  || fail "no 3-player header: $(cat out)"
grep -q "as red" out || fail "no Red column: $(cat out)"
# Two players: no such note.
"$TANBO" match --topology "hex 3" --players random,greedy --games 2 --save-games games > out \
  || fail "2 players"
grep -q "player games" out && fail "a 2-player match called itself a many-player one"
# The saved games' names, as docs/cli.md gives them.
[ -f games/game-001.tanbo ] && [ -f games/game-002.tanbo ] || fail "saved names: $(ls games)"
"$TANBO" show games/game-001.tanbo > /dev/null || fail "show game-001.tanbo"
# A folder that takes no file is refused before the first game, not after it (with the table
# of the games played lost). Root writes anywhere but into an immutable folder.
mkdir ro
if chattr +i ro 2> /dev/null; then
  "$TANBO" match --topology "grid 3x3" --players random,random --games 2 --save-games ro \
    > out 2> err
  status=$?
  chattr -i ro
  [ "$status" = 2 ] && grep -q "save-games" err && [ ! -s out ] \
    || fail "an unwritable --save-games folder: status $status, $(cat err) $(cat out)"
else
  echo "note: chattr +i is not available here; the unwritable folder was not tried"
fi

# tanbo study seats every listed player too: a list the setup of a board does not seat is
# refused naming the board; one that fits says on stderr which setups it plays.
printf 'grid 8x8\nhex 5\n' > fits.txt
printf 'grid 8x8\ngrid 3x3\n' > small.txt
"$TANBO" study --topologies small.txt --players random,random,greedy --games 2 > out 2> err
status=$?
[ $status -eq 2 ] || fail "study with a board that seats no 3 players: status $status"
grep -qF 'small.txt: "grid 3x3": --players lists 3 players, but setup steere2026 does not seat 3 players on grid 3x3' err \
  || fail "study refusal: $(cat err)"
[ -s out ] && fail "study played anyway: $(cat out)"
# A study's setups are chosen in its list (SPEC | SETUP): its hint says so, not --setup.
printf 'grid 7x7\n' > odd.txt
"$TANBO" study --topologies odd.txt --players random,random,greedy --games 2 > out 2> err
grep -qF 'setups that do: dense, spaced (choose one in the list: SPEC | SETUP)' err \
  || fail "study hint: $(cat err)"
"$TANBO" study --topologies fits.txt --players random,random,greedy --games 2 > out 2> err \
  || fail "study with 3 players: $(cat err)"
grep -qF "tanbo study: 3-player games (3 players listed, seats rotating); setups: grid 8x8 spaced, hex 5 hexbo" err \
  || fail "study did not say it plays 3-player games: $(cat err)"
"$TANBO" study --topologies fits.txt --players random,greedy --games 2 > out 2> err || fail "study, 2"
grep -q "player games" err && fail "a 2-player study called itself a many-player one"
echo "ok"
