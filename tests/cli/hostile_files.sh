#!/bin/bash
# Files that are not game files, or hostile ones, named wherever a path is read: a FIFO (refused
# at once, never waited on), /dev/zero, a folder, a sparse file far over the size limit (refused
# before anything is read), a huge or NUL-holding SGF value and a huge file name (quoted short in
# the message), a GTP session that goes on answering; and the smaller refusals of SGF sizes,
# empty player names and an --png path that cannot be written (found before the review).
# usage: bash hostile_files.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"

mkfifo fifo || fail "mkfifo"
mkdir folder
truncate -s 2G sparse.tanbo || fail "truncate"

# refused STATUS WANT COMMAND...: the command ends within 20 s (a blocked read would not) with
# STATUS and one short line on stderr holding WANT.
refused() {
  local status=$1 want=$2
  shift 2
  timeout 20 "$@" < /dev/null > out 2> err
  local got=$?
  [ $got -eq "$status" ] || fail "$*: status $got, not $status: $(head -c 300 err)"
  [ "$(wc -l < err)" -eq 1 ] || fail "$*: not one line: $(head -c 300 err)"
  [ "$(wc -c < err)" -lt 400 ] || fail "$*: $(wc -c < err) bytes on stderr"
  grep -qF -- "$want" err || fail "$*: no \"$want\" in: $(cat err)"
}

refused 1 "fifo: is not a regular file (a FIFO)" "$TANBO" show fifo
refused 1 "/dev/zero: is not a regular file (a character device)" "$TANBO" show /dev/zero
refused 1 "folder: is a directory" "$TANBO" show folder
refused 1 "sparse.tanbo: has 2147483648 bytes, over the 64 MB limit for game files" \
  "$TANBO" show sparse.tanbo
for file in fifo folder sparse.tanbo; do
  refused 1 "$file: " "$TANBO" undo "$file"
done
refused 1 "fifo: is not a regular file" "$TANBO" export fifo --sgf
refused 1 "fifo: is not a regular file" "$TANBO" import fifo
for file in fifo /dev/zero; do
  refused 2 "$file: is not a regular file" "$TANBO" analyze "$file"
  refused 2 "$file: is not a regular file" "$TANBO" play --load "$file"
  refused 2 "$file: is not a regular file" "$TANBO" solve --game "$file"
done
refused 2 'DOT file "fifo": is not a regular file' "$TANBO" solve --topology "file fifo"
refused 2 'DOT file "folder": is a directory' "$TANBO" solve --topology "file folder"

# Over the limit by one byte: refused.
"$TANBO" new small.tanbo > /dev/null || fail "new"
cp small.tanbo big.tanbo
truncate -s $((64 * 1024 * 1024 + 1)) big.tanbo
refused 1 "big.tanbo: has 67108865 bytes, over the 64 MB limit for game files" \
  "$TANBO" show big.tanbo

# Huge SGF values and a NUL: the message quotes 40 characters, escaped.
{ printf '(;GM[1]SZ['; head -c 1000000 /dev/zero | tr '\0' 9; printf '])'; } > bigsz.sgf
refused 1 'SZ["9999999999' "$TANBO" show bigsz.sgf
grep -qF '(1000000 bytes)' err || fail "the size of the quoted value is not given: $(cat err)"
{ printf '(;GM[1]SZ[9];B['; head -c 1000000 /dev/zero | tr '\0' c; printf '])'; } > bigb.sgf
refused 1 'node 2: ["cccccccc' "$TANBO" show bigb.sgf
printf '(;GM[1]SZ[9];B[c\0h])' > nul.sgf
refused 1 '["c\0h"] is not a point' "$TANBO" show nul.sgf
printf '(;GM[1]SZ[9.5])' > fraction.sgf
refused 1 'SZ[9.5] is not a board size' "$TANBO" show fraction.sgf
printf '(;GM[1]SZ[9]SZ[19])' > twice.sgf
refused 1 'property SZ is given twice in one node' "$TANBO" show twice.sgf

# GTP: every hostile file gets a short refusal and the session goes on answering.
long=$(head -c 200000 /dev/zero | tr '\0' a)
printf '(;GM[1]FF[4]SZ[9]PB[ann\r\n]PW[bob\r\n\r\n]AB[bh][hb]AW[hh][bb];B[ch])' > names.sgf
{
  for f in fifo /dev/zero folder sparse.tanbo bigsz.sgf bigb.sgf nul.sgf "$long"; do
    echo "loadsgf $f"
  done
  echo "loadsgf names.sgf"
  echo "printsgf"
  echo "name"
  echo "quit"
} > commands
timeout 20 "$TANBO" gtp < commands > answers || fail "gtp: status $? on hostile files"
[ "$(grep -c '^? cannot load' answers)" -eq 8 ] || fail "gtp: not 8 refusals: $(head -c 2000 answers)"
[ "$(wc -c < answers)" -lt 3000 ] || fail "gtp: $(wc -c < answers) bytes of answers"
grep -q '^= tanbo$' answers || fail "gtp stopped answering: $(head -c 2000 answers)"
grep -q $'\r' answers && fail "a carriage return inside a GTP answer"
# Nine answers before printsgf, then printsgf's and name's and quit's: each ends with one
# empty line, and printsgf's has none inside.
[ "$(grep -c '^$' answers)" -eq 12 ] || fail "blank lines inside an answer: $(cat -A answers | head -40)"
grep -qF 'PW[bob]' answers || fail "the loaded names: $(cat answers)"

# A game's analysis: a chart that cannot be written is refused before the review (the review
# of this many playouts would take hours), with the status of failed output.
"$TANBO" move small.tanbo B1 > /dev/null || fail "move"
timeout 20 "$TANBO" analyze small.tanbo --playouts 1000000000 --png /nonexistent/x.png \
  > out 2> err
status=$?
[ $status -eq 1 ] || fail "analyze --png /nonexistent/x.png: status $status, not 1: $(cat err)"
grep -qF "/nonexistent/x.png: cannot write in its folder" err || fail "analyze: $(cat err)"
[ -s out ] && fail "analyze reviewed the game anyway: $(cat out)"
"$TANBO" analyze small.tanbo --playouts 10 > out || fail "analyze"
grep -qx "result: unfinished (white to play)" out || fail "analyze result: $(grep result out)"

# An output that is one of the command's inputs is refused, the input left as it was (a link
# to it too); empty output names and abbreviated options are refused; a match does not replace
# the games of another in --save-games.
cp small.tanbo self.tanbo
ln -s self.tanbo self-link.tanbo
for png in self.tanbo self-link.tanbo; do
  refused 2 "--png $png is the input self.tanbo: it would be replaced" \
    "$TANBO" analyze self.tanbo --playouts 10 --png "$png"
  cmp -s self.tanbo small.tanbo || fail "analyze --png $png changed the game"
done
printf 'grid 3x3\n' > list.txt
refused 2 "--png list.txt is the input list.txt" "$TANBO" study -T list.txt --games 2 --png list.txt
# A chart that cannot be written is refused before the games (the whole study's table was lost).
refused 2 "nodir/x.png: cannot write in its folder nodir" \
  "$TANBO" study -T list.txt --games 2 --png nodir/x.png
[ -s out ] && fail "a study with an unwritable --png played: $(cat out)"
# import and export never write over their input, and import keeps an existing game file.
"$TANBO" export small.tanbo --sgf -o small.sgf 2> /dev/null || fail "export small.tanbo"
cp small.sgf small-copy.sgf
for f in self.tanbo self-link.tanbo; do
  refused 1 "-o $f is the input self.tanbo: it would be replaced" "$TANBO" export self.tanbo --sgf -o "$f"
done
refused 1 "-o small.sgf is the input small.sgf" "$TANBO" import small.sgf -o small.sgf
cmp -s small.sgf small-copy.sgf && cmp -s self.tanbo small.tanbo || fail "import/export replaced an input"
refused 1 "self.tanbo exists already (use --force to overwrite it)" \
  "$TANBO" import small.sgf -o self.tanbo
cmp -s self.tanbo small.tanbo || fail "import replaced an existing game"
"$TANBO" import small.sgf -o self.tanbo --force 2> /dev/null || fail "import --force"
refused 2 "folder: is a directory, not a file" "$TANBO" new folder
refused 1 "folder: is a directory, not a file" "$TANBO" import small.sgf -o folder
# A FIFO or a device in the place of a new game is named as what it is (it was "exists already
# (use --force to overwrite it)", and --force then refused it as not a regular file).
refused 2 "fifo: is not a regular file (a FIFO)" "$TANBO" new fifo
refused 1 "/dev/null: is not a regular file (a character device)" \
  "$TANBO" import small.sgf -o /dev/null
: > empty.sgf
refused 1 "empty.sgf: empty: neither a Tanbo game file nor an SGF record" "$TANBO" show empty.sgf
refused 2 "--png FILE is empty" "$TANBO" analyze small.tanbo --png ""
refused 2 "--png FILE is empty" "$TANBO" study -T list.txt --games 2 --png ""
refused 2 "unrecognised option '--pn'" "$TANBO" study -T list.txt --games 2 --pn x.png
refused 2 "--save-games DIR is empty" "$TANBO" match -p random,random -t "grid 3x3" --save-games ""
mkdir saved && printf 'precious\n' > saved/game-001.tanbo
refused 2 "holds saved/game-001.tanbo already" "$TANBO" match -p random,random -t "grid 3x3" \
  --games 2 --save-games saved
grep -qx precious saved/game-001.tanbo || fail "match replaced another match's game"
# Nor mixed with another match's games numbered with more digits, nor made with its parents.
refused 2 "holds saved/game-001.tanbo already" "$TANBO" match -p random,random -t "grid 3x3" \
  --games 1000 --save-games saved
refused 2 "--save-games no/such: cannot create the folder" "$TANBO" match -p random,random \
  -t "grid 3x3" --save-games no/such
[ -e no ] && fail "match made the folders of --save-games no/such"
refused 2 "--save-games list.txt: is not a folder" "$TANBO" match -p random,random -t "grid 3x3" \
  --save-games list.txt
# A game file its user may not write is not replaced through the folder (as root, another user).
# (only where that user can run the program: a build inside /root is out of its reach)
as_nobody=(setpriv --reuid 65534 --regid 65534 --clear-groups)
if [ "$(id -u)" -eq 0 ] && command -v setpriv > /dev/null &&
  "${as_nobody[@]}" "$TANBO" --help > /dev/null 2>&1; then
  chmod o+x "$work" && mkdir shared && chmod 777 shared && cp small.tanbo shared/ro.tanbo && chmod 444 shared/ro.tanbo
  cp shared/ro.tanbo ro.keep
  "${as_nobody[@]}" "$TANBO" move shared/ro.tanbo A2 \
    > out 2> err && fail "a read-only game was replaced"
  grep -qF "shared/ro.tanbo: cannot write it (Permission denied)" err || fail "ro: $(cat err)"
  cmp -s shared/ro.tanbo ro.keep || fail "the read-only game changed"
fi

# Names given to new: none may be empty, all must be UTF-8, and --as must be able to name
# each player: no name twice. A name is read before a colour, its letter or a number, so the
# players of "a,b" are a and b (b is not Black there).
refused 2 'name 1 is empty' "$TANBO" new n.tanbo --players ,
refused 2 'name 2 is empty' "$TANBO" new n.tanbo --players "ann, "
refused 2 'names must be UTF-8 text' "$TANBO" new n.tanbo --players "$(printf 'ann\377'),bob"
refused 2 'names 1 and 3 are the same, "Ann"' "$TANBO" play --players "ann,bob, Ann"
[ -e n.tanbo ] && fail "new wrote a game with two players of one name"
"$TANBO" new n.tanbo --topology "grid 5x5" --players a,b > out 2> err || fail "a,b: $(cat err)"
refused 1 "it is Black (a)'s turn, not White's" "$TANBO" move n.tanbo A2 --as b
"$TANBO" move n.tanbo A2 --as a > out 2> err || fail "--as a: $(cat err)"
"$TANBO" move n.tanbo B1 --as b > out 2> err || fail "--as b: $(cat err)"
"$TANBO" new n.tanbo --force --topology "grid 5x5" --players white,black > out 2> err ||
  fail "white,black: $(cat err)"
"$TANBO" move n.tanbo A2 --as white > out 2> err || fail "--as white, the name of Black: $(cat err)"
rm -f n.tanbo
# A long file name (331 bytes) is echoed quoted and cut, by new, show, play's load and save.
deep=$(printf 'folder-with-a-long-name-%02d/' $(seq 12))
mkdir -p "$deep"
[ $((${#deep} + 7)) -eq 331 ] || fail "the deep name is not 331 bytes"
"$TANBO" new "${deep}g.tanbo" > out || fail "new in a deep folder"
grep -qF '(331 bytes): grid 19x19' out || fail "new echoed the long name: $(cat out)"
"$TANBO" show "${deep}g.tanbo" > out || fail "show in a deep folder"
[ "$(head -1 out | wc -c)" -lt 200 ] || fail "show echoed the long name: $(head -1 out)"
printf 'load %s\nsave %s\nquit\n' "${deep}g.tanbo" "${deep}h.tanbo" |
  "$TANBO" play > out 2>&1 || fail "play load and save"
grep -qF '(331 bytes)' out && ! grep -qF "$deep" out || fail "play echoed the long name: $(cat out)"
exit 0
