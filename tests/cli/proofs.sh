#!/usr/bin/env bash
# Proof certificates end to end: tanbo solve --proof writes one, tanbo check-proof accepts it,
# a corrupted one is refused with the position that breaks it (exit 1), text that is not a
# certificate is refused (exit 2), and every certificate published in docs/proofs/ is valid.
set -uo pipefail
TANBO=$1
SRC=$2
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work" || exit 1

"$TANBO" solve --topology "grid 4x4" --table 8 --progress 0 --proof 4x4.proof > out 2> err \
  || fail "solve --proof: $(cat err)"
out=$(cat out)
[[ $out == *"winner: white"* ]] || fail "solve: $out"
[[ $out == *"proof: 4x4.proof ("* ]] || fail "no proof line: $out"
[ "$(head -1 4x4.proof)" = "tanbo-proof 1" ] || fail "header: $(head -3 4x4.proof)"
"$TANBO" check-proof 4x4.proof > out 2> err || fail "check-proof of a good certificate: $(cat out err)"
grep -qx "valid: white wins grid 4x4 (setup spaced)" out || fail "check-proof said: $(cat out)"

# A certificate of a position within a game says which: its win holds after those moves only.
"$TANBO" new g.tanbo --topology "grid 4x4" --setup spaced > /dev/null &&
  "$TANBO" move g.tanbo B1 > /dev/null && "$TANBO" move g.tanbo D2 > /dev/null &&
  "$TANBO" solve g.tanbo --table 8 --progress 0 --proof g.proof > /dev/null 2>&1 ||
  fail "a game's certificate was not written"
"$TANBO" check-proof g.proof > out 2> err || fail "check-proof of a game's certificate: $(cat out err)"
grep -qx "valid: white wins grid 4x4 (setup spaced) after the moves B1 D2" out ||
  fail "a game's certificate: $(cat out)"

# A line removed: the check names the position that is missing, exit 1.
sed '10d' 4x4.proof > cut.proof
missing=$(sed -n '10p' 4x4.proof | sed 's/ [^ ]*$//')
"$TANBO" check-proof cut.proof > out 2> err
status=$?
[ $status -eq 1 ] || fail "a certificate with a line removed: status $status, $(cat out err)"
grep -qF "invalid: the position $missing (white to move) is not listed" out \
  || fail "the missing position is not named: $(cat out)"
# With --low-memory: the same answers, more positions counted (some are checked again).
"$TANBO" check-proof cut.proof --low-memory > out 2> err
[ $? -eq 1 ] && grep -qF "invalid: the position $missing (white to move) is not listed" out \
  || fail "--low-memory on a certificate with a line removed: $(cat out err)"
"$TANBO" check-proof 4x4.proof > all.out && "$TANBO" check-proof 4x4.proof --low-memory > low.out \
  || fail "--low-memory on a good certificate: $(cat low.out)"
all=$(sed -n 's/^positions: \([0-9]*\) checked.*/\1/p' all.out)
low=$(sed -n 's/^positions: \([0-9]*\) checked.*/\1/p' low.out)
[ "$(head -1 low.out)" = "$(head -1 all.out)" ] && [ -n "$all" ] && [ "$low" -gt "$all" ] \
  || fail "--low-memory: $(cat low.out) against $(cat all.out)"

# The winner changed.
sed 's/^winner white$/winner black/' 4x4.proof > wrong.proof
"$TANBO" check-proof wrong.proof > out 2> err
[ $? -eq 1 ] || fail "a certificate for the loser was accepted: $(cat out)"

# Not a certificate at all, or no file: exit 2, one line on stderr, nothing on stdout.
printf 'hello\n' > junk.proof
"$TANBO" check-proof junk.proof > out 2> err
[ $? -eq 2 ] || fail "junk: status"
grep -qF 'tanbo check-proof: not a proof certificate' err || fail "junk: $(cat err)"
"$TANBO" check-proof > out 2> err
[ $? -eq 2 ] || fail "no file: status"
"$TANBO" solve --topology "grid 4x4" --table 8 --time 0.000001 --progress 0 --proof t.proof > out 2> err
[ -e t.proof ] && fail "an unsolved search wrote a certificate"

# A certificate from anyone: a few bytes that claim a board of a million points fail at the
# first position missing, with the position cut short (timeout: a guard against a hang only).
printf 'tanbo-proof 1\ntopology grid 1000x1000\nsetup spaced\nmoves\nwinner white\n' > huge.proof
timeout 300 "$TANBO" check-proof huge.proof > out 2> err
status=$?
[ $status -eq 1 ] || fail "a certificate of a huge board: status $status, $(head -c 300 err)"
grep -q '(white to move) is not listed$' out || fail "huge board: $(head -c 300 out)"
[ "$(wc -c < out)" -lt 1200 ] || fail "huge board: a message of $(wc -c < out) bytes"

# A DOT board travels inside its certificate ("dot" lines), so the certificate is checked in
# another folder without the .dot file; a change to the carried board is caught.
mkdir -p made elsewhere
printf 'graph p {\n  a -- b -- c -- d -- e -- a\n  a -- f; b -- g; c -- h; d -- i; e -- j\n  f -- h -- j -- g -- i -- f\n  a [stone=1]; c [stone=2]\n}\n' > made/p.dot
(cd made && "$TANBO" solve --topology "file p.dot" --setup file --table 8 --progress 0 \
  --proof p.proof > ../out 2> ../err) || fail "solve --proof on a DOT board: $(cat err)"
mv made/p.proof elsewhere/ && rm made/p.dot
[ "$(sed -n 3p elsewhere/p.proof)" = "dot graph p {" ] || fail "DOT text: $(head -4 elsewhere/p.proof)"
(cd elsewhere && "$TANBO" check-proof p.proof > ../out 2> ../err) \
  || fail "a DOT certificate away from its file: $(cat out err)"
grep -qx "valid: white wins file p.dot (setup file)" out || fail "DOT check said: $(cat out)"
sed 's/^dot   a -- f; b -- g; c -- h; d -- i; e -- j$/dot   a -- f; b -- g; c -- h; d -- i/' \
  elsewhere/p.proof > cut-edge.proof
cmp -s cut-edge.proof elsewhere/p.proof && fail "the edge line was not found"
"$TANBO" check-proof cut-edge.proof > out 2> err
[ $? -eq 1 ] || fail "a certificate whose board lost an edge: $(cat out err)"
sed '3i dot graph { a -- b }' 4x4.proof > grid-dot.proof
"$TANBO" check-proof grid-dot.proof > out 2> err
[ $? -eq 2 ] || fail "dot lines after a grid: status"
grep -qF 'line 2: "dot" lines follow a board that is not a DOT board' err || fail "grid dot: $(cat err)"

# A certificate is read a piece at a time: a file over the limit (1 TB, sparse here) is refused
# before it is read; what is kept is counted against the memory limit, in a few bytes a stone,
# so the largest published certificate (22 MB of text, 813,155 positions) is checked in 100 MB.
if truncate -s 1100G sparse.proof 2> /dev/null; then
  "$TANBO" check-proof sparse.proof > out 2> err
  [ $? -eq 2 ] || fail "a certificate of 1100 GB: status"
  grep -qF 'over the 1 TB limit for proof certificates' err || fail "1100 GB: $(cat err)"
  rm -f sparse.proof
fi
gzip -dc "$SRC"/../docs/proofs/grid-5x5-steere2026.proof.gz > big.proof
TANBO_MAX_MEMORY=100M "$TANBO" check-proof big.proof --progress 0.1 > out 2> err \
  || fail "5x5 (steere2026) in 100 MB: $(cat out err)"
grep -qE '^check: [0-9]+ s, [0-9]+ (lines read|positions checked)$' err \
  || fail "no progress lines: $(head -3 err)"
TANBO_MAX_MEMORY=20M "$TANBO" check-proof big.proof > out 2> err
[ $? -eq 2 ] || fail "5x5 (steere2026) in 20 MB: $(cat out err)"
grep -qF 'checking this certificate would need about' err || fail "20 MB: $(cat err)"
rm -f big.proof

# Points named by four coordinates ("1,2,3,1"): their commas are read as part of each name.
"$TANBO" solve --topology "grid 2x2x3x2" --table 8 --progress 0 --proof 4d.proof > out 2> err \
  || fail "solve --proof on 2x2x3x2: $(cat err)"
"$TANBO" check-proof 4d.proof > out 2> err || fail "a 4D certificate: $(cat out err)"
grep -qx "valid: black wins grid 2x2x3x2 (setup spaced)" out || fail "4D said: $(cat out)"

# A certificate named *.gz is written compressed, and check-proof reads a gzip file as it is
# (whatever its name); cut short or with bytes after its end, it is refused as no certificate.
"$TANBO" solve --topology "grid 4x4" --table 8 --progress 0 --proof small.proof.gz > out 2> err \
  || fail "solve --proof small.proof.gz: $(cat err)"
gzip -t small.proof.gz || fail "small.proof.gz is not a gzip file"
gzip -dc small.proof.gz | cmp -s - 4x4.proof || fail "the compressed certificate differs"
"$TANBO" check-proof small.proof.gz > out 2> err || fail "a gzip certificate: $(cat out err)"
grep -qx "valid: white wins grid 4x4 (setup spaced)" out || fail "gzip said: $(cat out)"
head -c 500 "$SRC"/../docs/proofs/grid-5x5-spaced.proof.gz > cut.gz
"$TANBO" check-proof cut.gz > out 2> err
[ $? -eq 2 ] || fail "a cut gzip file: status"
grep -qF 'cut.gz: the compressed text ends early' err || fail "cut gzip: $(cat err)"
{ cat small.proof.gz; echo junk; } > junk.gz
"$TANBO" check-proof junk.gz > out 2> err
[ $? -eq 2 ] || fail "a gzip file with junk after it: status"
grep -qF 'junk.gz: it goes on after the end of its compressed text' err ||
  fail "junk after gzip: $(cat err)"
{ cat small.proof.gz; head -c 512 /dev/zero; } > padded.gz  # (a tape's padding)
"$TANBO" check-proof padded.gz > out 2> err
[ $? -eq 2 ] && grep -qF 'padded.gz: it goes on after the end' err || fail "zeros after gzip: $(cat err)"
{ cat small.proof.gz; printf '\037\213\010'; } > member.gz  # a member cut short
"$TANBO" check-proof member.gz > out 2> err
[ $? -eq 2 ] && grep -qF 'member.gz: the compressed text ends early' err ||
  fail "a cut second member: $(cat err)"

# --proof may not replace what the solve reads: its game file, its DOT board, its checkpoint.
"$TANBO" new game.tanbo --topology "grid 4x4" > /dev/null 2>&1 || fail "new game.tanbo"
cp game.tanbo game.bak
"$TANBO" solve game.tanbo --table 8 --progress 0 --proof game.tanbo > out 2> err
[ $? -eq 2 ] || fail "--proof over the game file: status"
grep -qF -- '--proof game.tanbo is the input game.tanbo' err || fail "game input: $(cat err)"
cmp -s game.tanbo game.bak || fail "the game file was changed"
"$TANBO" solve --topology "grid 4x4" --table 8 --progress 0 --checkpoint ck --proof ./ck > out 2> err
[ $? -eq 2 ] || fail "--proof over the checkpoint: status"
grep -qF -- '--proof and --checkpoint name one file' err || fail "checkpoint: $(cat err)"
[ -e ck ] && fail "a checkpoint was written before the refusal"

# Ctrl-C while the certificate is written: the result stands, nothing is left half written.
"$TANBO" solve --topology "grid 4x8" --table 256 --progress 0 --proof stopped.proof.gz > out 2> err &
# (The result printed first: a check before the search makes a temporary file for a moment,
# when no handler is there yet and a background job ignores SIGINT.)
certificate_begun() { grep -q '^time: ' out && compgen -G '.stopped.proof.gz.tmp.*' > /dev/null; }
interrupt_when $! certificate_begun
[ $status -eq 130 ] || fail "SIGINT during the certificate: status $status, $(cat out err)"
grep -qx 'winner: white' out || fail "SIGINT: no result: $(cat out)"
grep -qx 'proof: not written (stopped by SIGINT)' out || fail "SIGINT: $(cat out)"
compgen -G '.stopped.proof.gz.tmp.*' > /dev/null && fail "a temporary file was left"
[ -e stopped.proof.gz ] && fail "a certificate was written"

# A line is refused as soon as it passes 64 MB (here a sparse file of 200 GB, which reading
# to its end would take ten minutes; timeout: a guard against that only), the text of a carried
# DOT board counts against the memory limit, and a DOT board whose node ids hold ',' is no
# certificate's board.
"$TANBO" solve --topology "grid 4x4" --table 8 --progress 0 --proof long.proof > /dev/null 2>&1
truncate -s 200G long.proof || fail "truncate"
timeout 60 "$TANBO" check-proof long.proof > out 2> err
[ $? -eq 2 ] || fail "a line of gigabytes: status"
grep -qF 'is longer than 64 MB' err || fail "long line: $(cat err)"
rm -f long.proof
{ printf 'tanbo-proof 1\ntopology file x.dot\n'
  for _ in 1 2 3; do printf 'dot '; head -c 40000000 /dev/zero | tr '\0' ' '; echo; done
} | gzip -1 > dotbomb.gz
TANBO_MAX_MEMORY=100M "$TANBO" check-proof dotbomb.gz > out 2> err
[ $? -eq 2 ] || fail "dot lines of 120 MB: status"
grep -qF 'checking this certificate would need about' err || fail "dot lines: $(cat err)"
printf 'tanbo-proof 1\ntopology file odd.dot\ndot graph g {\ndot  "a,b" [stone=black]; f [stone=white];\ndot  "a,b" -- c -- d -- f -- g -- h -- "a,b"\ndot  c -- f\ndot }\nsetup file\nmoves\nwinner black\na,b/f c\n' > odd.proof
"$TANBO" check-proof odd.proof > out 2> err
[ $? -eq 2 ] || fail "a DOT id with a comma: status"
grep -qF 'a certificate cannot name the point "a,b"' err || fail "comma id: $(cat err)"

# Every published certificate passes.
count=0
for gz in "$SRC"/../docs/proofs/*.proof.gz; do
  [ -e "$gz" ] || continue
  gzip -dc "$gz" > pub.proof || fail "cannot unpack $gz"
  "$TANBO" check-proof pub.proof > out 2> err || fail "$(basename "$gz"): $(cat out err)"
  count=$((count + 1))
done
[ $count -ge 30 ] || fail "only $count published certificates in docs/proofs"
echo "ok ($count published certificates checked)"
