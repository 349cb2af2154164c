#!/bin/bash
# tanbo view end to end: off-screen PNGs under Xvfb, or, in a build without the viewer, the
# message that says so. Usage: view_png.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
out=$work

if ! "$TANBO" view --help >"$out/help" 2>"$out/err"; then
  grep -q "built without the viewer" "$out/err" || fail "view --help failed: $(cat "$out/err")"
  echo "viewer not built: message checked"
  exit 0
fi
grep -q -- "--png" "$out/help" || fail "--help does not mention --png"

# tanbo runs the viewer's program from its own directory: a tanbo copied alone says what is
# missing, and the rest of it works without VTK.
mkdir "$out/alone" && cp "$TANBO" "$out/alone/tanbo"
"$out/alone/tanbo" view --topology "grid 5x5x5" >"$out/log" 2>&1 && fail "view ran without tanbo-view"
grep -q "built without the viewer ($out/alone/tanbo-view is missing" "$out/log" ||
  fail "unexpected message: $(cat "$out/log")"
"$out/alone/tanbo" show --help >/dev/null 2>&1 || fail "tanbo alone: show --help failed"
if ldd "$out/alone/tanbo" | grep -qi vtk; then fail "tanbo links VTK"; fi
command -v xvfb-run >/dev/null || { echo "SKIP: xvfb-run not installed"; exit 0; }

# A tanbo built with AddressSanitizer: the OpenGL driver's few leaked bytes are not ours.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
# A display number of our own to start the search from (parallel ctest runs several xvfb-run).
xvfb() { xvfb-run -a -n $((100 + $$ % 800)) -s "-screen 0 1280x1024x24" "$@"; }
is_png() { [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; }

# A 5x5x5 game file made by the viewer itself would need a click; use --moves instead.
xvfb "$TANBO" view --topology "grid 5x5x5" --moves "125 255 135" --png "$out/cube.png" \
  --size 320x240 >"$out/log" 2>&1 || fail "5x5x5: $(cat "$out/log")"
grep -q "wrote $out/cube.png (320x240, move 3)" "$out/log" || fail "unexpected output: $(cat "$out/log")"
is_png "$out/cube.png" || fail "cube.png is not a PNG"

xvfb "$TANBO" view --topology "grid 5x5x5x5" --random 30 --axes x,y,w --slice z=3 \
  --png "$out/4d.png" --size 320x240 >"$out/log" 2>&1 || fail "4D: $(cat "$out/log")"
is_png "$out/4d.png" || fail "4d.png is not a PNG"
xvfb "$TANBO" view --topology "grid 5x5x5x5" --random 30 --axes x,y,w --slice z=1 \
  --png "$out/4d_z1.png" --size 320x240 >"$out/log" 2>&1 || fail "4D z=1: $(cat "$out/log")"
cmp -s "$out/4d.png" "$out/4d_z1.png" && fail "slices z=3 and z=1 gave the same picture"

# The window itself starts and keeps running until it is closed (here: killed by timeout).
timeout 4 xvfb-run -a -n $((120 + $$ % 800)) "$TANBO" view "$out/new.tanbo" --topology "grid 5x5x5" \
  --size 400x300 >"$out/log" 2>&1
status=$?
[ "$status" = 124 ] || fail "the window did not stay open (status $status): $(cat "$out/log")"
grep -q "^topology grid 5x5x5" "$out/new.tanbo" || fail "the new game file was not written"

# Refusals change nothing and say why.
if "$TANBO" view --topology "grid 5x5x5" --slice z=3 --png "$out/bad.png" 2>"$out/err"; then
  fail "--slice on a 3D board was accepted"
fi
grep -q "4 or more axes" "$out/err" || fail "unclear refusal: $(cat "$out/err")"
[ ! -e "$out/bad.png" ] || fail "a refused command wrote a file"

# The picture is written as every output is: never over what is not a plain file (a FIFO here;
# as root /dev/null was replaced by a PNG), never over the game file or DOT board it shows, and
# no temporary file left beside it.
mkdir "$out/dest" && mkfifo "$out/dest/fifo"
if xvfb "$TANBO" view --topology "grid 5x5x5" --png "$out/dest/fifo" --size 64x64 \
  >"$out/log" 2>&1; then
  fail "--png FIFO was accepted: $(cat "$out/log")"
fi
[ -p "$out/dest/fifo" ] || fail "the FIFO was replaced"
grep -q "not a regular file\|is a FIFO\|a FIFO" "$out/log" || fail "unclear refusal: $(cat "$out/log")"
xvfb "$TANBO" view --topology "grid 5x5x5" --png "$out/dest" --size 64x64 >"$out/log" 2>&1 &&
  fail "--png DIR was accepted"
[ "$(ls -A "$out/dest")" = fifo ] || fail "left behind: $(ls -A "$out/dest")"
printf 'graph { a [stone=1]; b [stone=2]; a -- x -- y -- b; }\n' >"$out/line.dot"
cp "$out/line.dot" "$out/line.keep"
"$TANBO" new "$out/g.tanbo" --topology "grid 5x5x5" >/dev/null || fail "new g.tanbo"
cp "$out/g.tanbo" "$out/g.keep"
replaced_refused() {
  if xvfb "$TANBO" view "$@" --size 64x64 >"$out/log" 2>&1; then fail "$*: accepted"; fi
  grep -q "it would be replaced" "$out/log" || fail "$*: unclear refusal: $(cat "$out/log")"
}
replaced_refused "$out/g.tanbo" --png "$out/g.tanbo"
replaced_refused --topology "file $out/line.dot" --png "$out/line.dot"
cmp -s "$out/g.tanbo" "$out/g.keep" || fail "the game file was replaced by its picture"
cmp -s "$out/line.dot" "$out/line.keep" || fail "the DOT board was replaced by its picture"
echo "ok"
