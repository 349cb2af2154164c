#!/bin/bash
# Hostile DOT boards end to end: 20 KB and 1 MB of nested braces (which crashed every command
# with a stack overflow when the reader recursed) are refused by new, show, move, bench and the
# protocol with one line and the reason, never a signal; the protocol session goes on. A board
# written with subgraphs as ends of edges is played.
# usage: bash dot_input.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"

# deep.dot: graph { {{{...{ a -- b }...}}} } with N braces; deep.tanbo: a game file carrying it.
make_deep() {
  { printf 'graph { '; head -c "$1" /dev/zero | tr '\0' '{'; printf ' a -- b '
    head -c "$1" /dev/zero | tr '\0' '}'; printf ' }'; } > deep.dot
  { printf 'tanbo-game 1\ntopology file deep.dot\ndot '; cat deep.dot; printf '\nmoves\n'; } > deep.tanbo
}
check_refused() {  # what
  [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || fail "$1: exit $rc: $(head -c 300 <<< "$out")"
  grep -q "subgraphs nested more than 1000 deep" <<< "$out" || fail "$1: no reason: $(head -c 300 <<< "$out")"
  [ "$(wc -l <<< "$out")" -eq 1 ] || fail "$1: more than one line"
  [ "$(wc -c <<< "$out")" -lt 400 ] || fail "$1: the message repeats the input"
}

for size in 20000 1048576; do
  make_deep "$size"
  out=$("$TANBO" new g.tanbo --topology "file deep.dot" 2>&1); rc=$?
  check_refused "new $size"
  [ -e g.tanbo ] && fail "a refused new left a file"
  out=$("$TANBO" show deep.tanbo 2>&1); rc=$?
  check_refused "show $size"
  cp deep.tanbo before
  out=$("$TANBO" move deep.tanbo a 2>&1); rc=$?
  check_refused "move $size"
  cmp -s deep.tanbo before || fail "move $size changed the file"
  out=$("$TANBO" bench --topology "file deep.dot" --games 1 2>&1); rc=$?
  check_refused "bench $size"
  out=$(printf 'topology file deep.dot\nname\n' | "$TANBO" gtp 2>&1); rc=$?
  [ "$rc" -eq 0 ] || fail "gtp $size: exit $rc"
  grep -q '^? DOT board deep.dot: not valid Graphviz DOT: line 1: subgraphs nested' <<< "$out" ||
    fail "gtp $size: $(head -c 300 <<< "$out")"
  grep -q '^= tanbo$' <<< "$out" || fail "gtp $size: the session did not go on"
done

# Subgraphs and node lists as ends of edges: b and f joined to z, z to y and x.
cat > ring.dot <<'EOF'
graph ring {
  a -- b -- c -- d -- e -- f -- g -- h -- a
  { b f } -- z -- x, y
  a [stone=1]; e [stone=2]
}
EOF
"$TANBO" new ring.tanbo --topology "file ring.dot" > out || fail "new ring: $(cat out)"
grep -q "file ring.dot: 11 points, 12 edges" out || fail "ring edges: $(cat out)"
for point in b f z; do "$TANBO" move ring.tanbo $point > out || fail "move $point: $(cat out)"; done
"$TANBO" move ring.tanbo x 2> err && fail "White x, touching no White stone, was accepted"
grep -q "no White stone touches x" err || fail "no reason for x: $(cat err)"
"$TANBO" show ring.tanbo | grep -q "Black root a: 3 stones" || fail "show ring: z is not Black's"
# The boards of examples/ (docs use them) are played from their own stones.
for board in "$2"/../examples/boards/*.dot; do
  "$TANBO" new example.tanbo --topology "file $board" --force > out || fail "$board: $(cat out)"
  "$TANBO" bench --topology "file $board" --games 20 > out || fail "bench $board: $(cat out)"
done
echo ok
