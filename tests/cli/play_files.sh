#!/bin/bash
# Game files from the command line: new, move, show, undo, resign, export, import; refusals
# with non-zero exit and one line; a failed write leaves the old file intact.
# usage: bash play_files.sh TANBO TESTDIR
set -u
TANBO=$1
TESTDIR=$2
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"

# --help of every subcommand shows an example.
for sub in play new move show undo resign export import; do
  "$TANBO" $sub --help | grep -q "example" || fail "$sub --help has no example"
done

"$TANBO" new cube.tanbo --topology "grid 5x5x5" --players alice,bob > out || fail "new"
grep -q "^topology grid 5x5x5$" cube.tanbo || fail "no topology line"
grep -q "^player black alice$" cube.tanbo || fail "no player line"
"$TANBO" new cube.tanbo --topology "grid 5x5x5" 2> err && fail "new overwrote a file"
[ "$(wc -l < err)" -eq 1 ] || fail "refusal is not one line"

"$TANBO" move cube.tanbo 125 > out || fail "move 125"
grep -q "Black plays 125." out || fail "move report"
"$TANBO" move cube.tanbo 124 2> err && fail "illegal move accepted"
grep -q "no White stone touches 124" err || fail "reason missing: $(cat err)"
cp cube.tanbo before
"$TANBO" move cube.tanbo 999 2> err && fail "off-board move accepted"
grep -q "not a point of this board" err || fail "reason missing: $(cat err)"
cmp -s cube.tanbo before || fail "a refused move changed the file"
"$TANBO" move cube.tanbo 255 --as black 2> err && fail "--as black accepted on White's turn"
"$TANBO" move cube.tanbo 255 --as white > out || fail "move 255"
"$TANBO" show cube.tanbo --move 1 > out || fail "show --move 1"
grep -q "move 1: Black plays 125." out || fail "show --move 1 header"
grep -q "after move 1, White (bob) to play" out || fail "show --move 1 status"
"$TANBO" show cube.tanbo --move 9 2> err && fail "show --move 9 accepted"
"$TANBO" undo cube.tanbo > out || fail "undo"
grep -q "took back: White plays 255." out || fail "undo report"
[ "$(grep -c '^white ' cube.tanbo)" -eq 0 ] || fail "undo left the move in the file"
"$TANBO" resign cube.tanbo white > out || fail "resign"
grep -q "Game over: Black wins (White resigned)." out || fail "resign report"
grep -q "^result black$" cube.tanbo || fail "no result line"
"$TANBO" move cube.tanbo 135 2> err && fail "move after the end accepted"
"$TANBO" export cube.tanbo --sgf 2> err && fail "SGF of a 3D game"
grep -q "2D boards only" err || fail "export refusal: $(cat err)"

# A 9x9 game played to the end by engines, saved, exported and imported back.
"$TANBO" play --topology "grid 9x9" --black random --white random --seed 8 < /dev/null > out \
  || fail "engine game"
"$TANBO" new g.tanbo --topology "grid 9x9" > /dev/null
# Replay that game's moves through `tanbo move` one by one.
grep -E "^move [0-9]+ \[random\]: " out | sed -E 's/.*(plays|move at) ([A-J][0-9]+).*/\2/' > moves
[ -s moves ] || fail "no moves found"
while read -r m; do "$TANBO" move g.tanbo "$m" > /dev/null || fail "move $m"; done < moves
grep -q "^result " g.tanbo || fail "replayed game has no result"
"$TANBO" export g.tanbo --sgf -o g.sgf 2> /dev/null || fail "export"
grep -q "AE\[" g.sgf || fail "no removals in SGF"
"$TANBO" import g.sgf -o back.tanbo 2> /dev/null || fail "import"
diff <(grep -v '^date' g.tanbo | sed -n '/^moves$/,$p') <(sed -n '/^moves$/,$p' back.tanbo) \
  || fail "SGF round trip changed the moves"
"$TANBO" show g.sgf > show_sgf || fail "show SGF"
"$TANBO" show g.tanbo > show_game || fail "show game"
diff <(tail -n +2 show_sgf) <(tail -n +2 show_game) > /dev/null || fail "SGF and game file show different boards"

# Garbled and illegal files are refused with a line number.
sed 's/^white \(.*\)$/white Z99/' g.tanbo > bad.tanbo
"$TANBO" show bad.tanbo 2> err && fail "garbled file accepted"
grep -qE "^tanbo show: bad.tanbo:[0-9]+: \"Z99\" is not a point" err || fail "$(cat err)"
head -c 60 g.tanbo > cut.tanbo
"$TANBO" show cut.tanbo 2> err && fail "truncated file accepted"

# A failed write (file size limit) leaves the old file intact and no temporary file.
"$TANBO" new big.tanbo --topology "grid 19x19" > /dev/null
cp big.tanbo big.before
# (stderr goes through a pipe: the size limit applies to regular files only)
( trap '' XFSZ; ulimit -f 0; exec "$TANBO" move big.tanbo A2 ) 2>&1 > /dev/null | cat > err
[ "${PIPESTATUS[0]}" -ne 0 ] || fail "write with no space succeeded"
grep -q "the file was not changed" err || fail "write failure message: $(cat err)"
cmp -s big.tanbo big.before || fail "failed write damaged the file"
ls -a | grep -q '\.tmp\.' && fail "temporary file left behind"

# DOT boards carry their graph.
"$TANBO" new w.tanbo --topology "file $TESTDIR/data/render/wheel.dot" > /dev/null || fail "new DOT"
grep -q "^dot graph wheel {" w.tanbo || fail "DOT text not embedded"
"$TANBO" move w.tanbo r2 > /dev/null || fail "move on DOT board"
(cd / && "$TANBO" show "$work/w.tanbo" > /dev/null) || fail "DOT game not readable elsewhere"

# Bad options: non-zero exit, one line.
"$TANBO" show 2> err && fail "show without a game"
[ "$(wc -l < err)" -eq 1 ] || fail "not one line: $(cat err)"
"$TANBO" show g.tanbo --colour pink 2> err && fail "bad --colour accepted"
"$TANBO" new x.tanbo --setup nonsense 2> err && fail "bad setup accepted"
[ "$(wc -l < err)" -eq 1 ] || fail "not one line: $(cat err)"
echo "ok"
