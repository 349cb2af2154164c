#!/bin/bash
# Game files when things go wrong: links, writers killed with SIGKILL, a file-size limit, a full
# disk and a read-only folder. Each failing write says why, exits non-zero, leaves the game
# exactly as it was and leaves no temporary file; the next writer removes what killed writers
# left.
# usage: bash game_file_failures.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"
temps() { find "${1:-.}" -name '.*.tmp.*' | wc -l; }

"$TANBO" new g.tanbo --players ann,bob > /dev/null || fail "new"
"$TANBO" move g.tanbo B1 > /dev/null || fail "move B1"

# A symbolic link: the move reaches the real game and the link stays a link.
ln -s g.tanbo link.tanbo
"$TANBO" move link.tanbo F1 > /dev/null || fail "move through a link"
[ -L link.tanbo ] || fail "the link was replaced by a file"
grep -q '^white F1$' g.tanbo || fail "the move did not reach the link's target"
mkdir sub && ln -s ../g.tanbo sub/rel.tanbo
"$TANBO" undo sub/rel.tanbo > /dev/null || fail "undo through a relative link in another folder"
[ -L sub/rel.tanbo ] && ! grep -q '^white F1$' g.tanbo || fail "relative link: undo lost"
ln -s missing.tanbo dangling.tanbo
"$TANBO" new dangling.tanbo > /dev/null || fail "new through a dangling link"
[ -L dangling.tanbo ] && [ -f missing.tanbo ] || fail "new through a link did not create its target"

# A hard link: refused with the reason (a rename would detach the other name), nothing changed.
ln g.tanbo hard.tanbo
cp g.tanbo before
"$TANBO" move g.tanbo F1 > /dev/null 2> err && fail "a move on a hard-linked file was accepted"
grep -q "hard links" err || fail "hard link refusal: $(cat err)"
cmp -s g.tanbo before && cmp -s hard.tanbo before || fail "the hard-linked game changed"
rm hard.tanbo

# Writers killed with SIGKILL at random moments never corrupt the game; the temporary files they
# leave are removed by the next writer; a live writer's temporary file is never touched.
for i in $(seq 60); do
  if [ $((i % 2)) = 0 ]; then "$TANBO" move g.tanbo F1 > /dev/null 2>&1 &
  else "$TANBO" undo g.tanbo > /dev/null 2>&1 & fi
  pid=$!
  sleep "0.00$((RANDOM % 10))"
  kill -9 "$pid" 2> /dev/null
  wait "$pid" 2> /dev/null
done
"$TANBO" show g.tanbo > /dev/null 2> err || fail "a killed writer corrupted the game: $(cat err)"
# A writer killed between making its file and writing to it leaves it empty, as a live writer's
# is for an instant before its lock: an empty file is removed once it is a minute old.
find . -name '.*.tmp.*' -size 0 -exec touch -d '2 minutes ago' {} +
printf 'half a game' > .g.tanbo.tmp.AbCdEf     # as a writer killed before its rename leaves it
: > .g.tanbo.tmp.OlDeMp && touch -d '2 minutes ago' .g.tanbo.tmp.OlDeMp
: > .g.tanbo.tmp.NeWeMp                         # made an instant ago by a writer not locked yet
flock .g.tanbo.tmp.LiVe123 sleep 3 &            # a writer still at work holds its file's lock
holder=$!
sleep 0.2
"$TANBO" move g.tanbo B1 > /dev/null 2>&1 || "$TANBO" move g.tanbo F1 > /dev/null 2>&1 ||
  "$TANBO" undo g.tanbo > /dev/null || fail "writer after kills"
[ -e .g.tanbo.tmp.AbCdEf ] && fail "an abandoned temporary file was not removed"
[ -e .g.tanbo.tmp.OlDeMp ] && fail "an old empty temporary file was not removed"
[ -e .g.tanbo.tmp.NeWeMp ] || fail "a new empty temporary file (a writer's before its lock) was removed"
[ -e .g.tanbo.tmp.LiVe123 ] || fail "a live writer's temporary file was removed"
kill "$holder" 2> /dev/null; wait "$holder" 2> /dev/null; rm -f .g.tanbo.tmp.LiVe123 .g.tanbo.tmp.NeWeMp
[ "$(temps)" = 0 ] || fail "temporary files left: $(ls -a)"

# A file-size limit: no SIGXFSZ death, a message, the game as it was, no temporary file.
cp g.tanbo before
# (the limit is set in a child shell whose output goes to a pipe: pipes have no size limit)
under_limit() { bash -c 'ulimit -f 0; exec "$@"' limited "$@" 2>&1 | cat > err; echo "${PIPESTATUS[0]}" > rc; }
under_limit "$TANBO" undo g.tanbo
[ "$(cat rc)" != 0 ] || fail "undo under a zero file-size limit succeeded"
[ "$(cat rc)" -lt 128 ] || fail "undo under a file-size limit died of a signal (exit $(cat rc))"
grep -q "File too large" err && grep -q "the file was not changed" err || fail "size limit message: $(cat err)"
cmp -s g.tanbo before || fail "the game changed under a file-size limit"
[ "$(temps)" = 0 ] || fail "a temporary file was left under a file-size limit"
under_limit "$TANBO" new small.tanbo
[ "$(cat rc)" != 0 ] && [ "$(cat rc)" -lt 128 ] && [ ! -e small.tanbo ] || fail "new under a size limit"
# The program's own output past a file-size limit or on a full device: a message naming the
# cause on stderr and exit 1, never a death by SIGXFSZ nor a silent success (match --help
# writes about 2 KB, the limit lets 1 KB through).
rc=0
msg=$(bash -c 'ulimit -f 1; exec "$@"' limited "$TANBO" match --help 2>&1 > out.txt) || rc=$?
[ "$rc" = 1 ] || fail "output past a file-size limit: exit $rc"
grep -qx "tanbo match: could not write all of the output: File too large" <<< "$msg" ||
  fail "output past a file-size limit: $msg"
if [ -w /dev/full ]; then
  rc=0
  msg=$("$TANBO" --version 2>&1 > /dev/full) || rc=$?
  [ "$rc" = 1 ] && grep -q "could not write all of the output: No space left on device" <<< "$msg" ||
    fail "output to /dev/full: exit $rc: $msg"
  # tanbo gtp ends at its first answer that cannot be written, instead of reading on (here
  # the input would end only after 6 s, and timeout would stop it after 4), and says why.
  rc=0
  msg=$({ printf 'name\n'; sleep 6; printf 'quit\n'; } | timeout 4 "$TANBO" gtp 2>&1 > /dev/full) || rc=$?
  [ "$rc" = 1 ] && grep -qx "tanbo gtp: could not write all of the output: No space left on device" <<< "$msg" ||
    fail "gtp answering into /dev/full: exit $rc: $msg"
fi

# A full disk and a read-only folder, on a small file system of our own (needs a mount
# namespace: root, or skipped with a note).
if unshare -m true 2> /dev/null; then
  cat > fs.sh <<EOF
set -u
mnt=\$(mktemp -d)
mount -t tmpfs -o size=64k tmpfs "\$mnt" || exit 3
cd "\$mnt"
"$TANBO" new g.tanbo > /dev/null || exit 4
"$TANBO" move g.tanbo B1 > /dev/null || exit 5
cp g.tanbo "$work/fs_before"
dd if=/dev/zero of=filler bs=1k count=200 2> /dev/null
"$TANBO" move g.tanbo F1 > /dev/null 2> "$work/full_err" && exit 6
cmp -s g.tanbo "$work/fs_before" || exit 7
[ -z "\$(find . -name '.*.tmp.*')" ] || exit 8
rm filler
mount -o remount,ro "\$mnt" || exit 3
"$TANBO" move g.tanbo F1 > /dev/null 2> "$work/ro_err" && exit 9
cmp -s g.tanbo "$work/fs_before" || exit 10
cd / && umount "\$mnt"
EOF
  unshare -m bash fs.sh
  rc=$?
  case $rc in
    0) ;;
    3) echo "note: no tmpfs mount here; full-disk and read-only cases skipped" ;;
    *) fail "full disk / read-only folder case $rc: $(cat full_err ro_err 2> /dev/null)" ;;
  esac
  if [ "$rc" = 0 ]; then
    grep -q "No space left on device" full_err || fail "full disk message: $(cat full_err)"
    grep -q "Read-only file system" ro_err || fail "read-only message: $(cat ro_err)"
  fi
else
  echo "note: no mount namespace here; full-disk and read-only cases skipped"
fi
echo "game file failures: ok"
