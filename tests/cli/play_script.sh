#!/bin/bash
# scripts/play.sh, the README's first command, run as it is but on a stand-in build: a copy of
# the script in a scratch tree whose scripts/deps.sh installs nothing, whose `cmake` (first on
# PATH) records what it is asked to build, and whose build/tanbo is the program under test.
#  - The viewer is built when CMake offers its target, however long the target list (a
#    `... | grep -q` under pipefail would see the writer die of SIGPIPE and skip it).
#  - Extra arguments go to `tanbo play`, with a terminal and without one; the defaults
#    (Black human, White engine) only for the seats they do not name.
#  - Without a terminal: the starting position, no protocol lines ("="), status 0.
# usage: bash play_script.sh TANBO TESTDIR
set -u
TANBO=$1
TESTDIR=$2
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"

mkdir -p "$work/tree/scripts" "$work/tree/build" "$work/bin"
cp "$TESTDIR/../scripts/play.sh" "$work/tree/scripts/play.sh"
printf '#!/bin/bash\nexit 0\n' > "$work/tree/scripts/deps.sh"
ln -s "$TANBO" "$work/tree/build/tanbo"
cat > "$work/bin/cmake" <<'FAKE'
#!/bin/bash
# Stand-in for cmake: configure and build are recorded; the target list is long, with the
# viewer's target near its top when FAKE_VIEWER=1.
case " $* " in
  *" --target help "*)
    echo "The following are some of the valid targets for this Makefile:"
    echo "... all"
    [ "$FAKE_VIEWER" = 1 ] && echo "... tanbo-view"
    for i in $(seq 1 30000); do echo "... some_object_$i.o"; done
    ;;
  *" --build "*) echo "build $*" >> "$FAKE_LOG" ;;
  *) echo "configure $*" >> "$FAKE_LOG" ;;
esac
FAKE
chmod +x "$work/bin/cmake"
export PATH="$work/bin:$PATH" FAKE_LOG="$work/cmake.log"

# Without a terminal, VTK found: tanbo and tanbo-view are built; the arguments reach play.
FAKE_VIEWER=1 bash "$work/tree/scripts/play.sh" --white random < /dev/null > "$work/out" 2>&1
status=$?
[ $status -eq 0 ] || fail "play.sh --white random without a terminal: status $status: $(cat "$work/out")"
grep -q "^build .*--target tanbo tanbo-view" "$work/cmake.log" \
  || fail "the viewer was not built: $(cat "$work/cmake.log")"
grep -q "^Tanbo on grid 19x19: Black human, White random\." "$work/out" \
  || fail "the arguments did not reach tanbo play: $(cat "$work/out")"
grep -q "^start, Black to play" "$work/out" || fail "no starting position: $(cat "$work/out")"
grep -q "^=" "$work/out" && fail "protocol lines: $(cat "$work/out")"
grep -qi "error\|twice" "$work/out" && fail "an error: $(cat "$work/out")"

# Without VTK: tanbo alone; the defaults fill the seats no argument names.
: > "$work/cmake.log"
FAKE_VIEWER=0 bash "$work/tree/scripts/play.sh" --topology "grid 9x9" --engine random \
  < /dev/null > "$work/out" 2>&1 || fail "play.sh without the viewer: $(cat "$work/out")"
grep -q "^build .*--target tanbo$" "$work/cmake.log" || fail "targets: $(cat "$work/cmake.log")"
grep -q "^Tanbo on grid 9x9: Black human, White random\." "$work/out" \
  || fail "defaults: $(cat "$work/out")"
FAKE_VIEWER=0 bash "$work/tree/scripts/play.sh" --black random --white=greedy --topology "hex 3" \
  < /dev/null > "$work/out" 2>&1 || fail "play.sh with both seats named: $(cat "$work/out")"
grep -q "^Tanbo on hex 3: Black random, White greedy\." "$work/out" \
  || fail "seats named by the arguments: $(cat "$work/out")"

# With a terminal (util-linux script): the same arguments, given once.
if command -v script > /dev/null; then
  printf 'quit\n' | FAKE_VIEWER=0 timeout 60 script -qec \
    "bash '$work/tree/scripts/play.sh' --white random --topology 'grid 9x9'" /dev/null \
    > "$work/pty" 2>&1
  grep -q "Tanbo on grid 9x9: Black human, White random\." "$work/pty" \
    || fail "in a terminal: $(cat "$work/pty")"
  grep -q "Leaving the game unfinished" "$work/pty" || fail "no quit in a terminal: $(cat "$work/pty")"
  grep -qi "twice\|tanbo: " "$work/pty" && fail "refused in a terminal: $(cat "$work/pty")"
fi
echo "ok"
