#!/bin/bash
# Memory and input limits of the real program (docs/hardening.md, "Memory and input limits"):
# - boards too big for the memory this process may have are refused up front by every
#   subcommand, naming the need, the limit and where it comes from (ulimit -v, --max-memory,
#   TANBO_MAX_MEMORY) and the options; boards that fit are built;
# - an allocation that fails anyway (the limit raised past what the process may have) is a
#   message and exit 1, never an abort or a core dump;
# - huge tokens and control bytes are quoted short and escaped (messages under 200 bytes);
# - topology specs that mean nothing are refused with the reason.
# Nothing here allocates more than a few hundred MB.
# usage: bash limits.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"
ulimit -c 0
printf 'tanbo-game 1\ntopology grid 10000x10000\nmoves\n' > big.tanbo   # 45 bytes, 10^8 points
VIEW=$(dirname "$TANBO")/tanbo-view
LIMIT=300000   # KB of address space (ulimit -v)

# Runs "tanbo ARGS" under the address-space limit; sets $out and $rc.
limited() { out=$(bash -c "ulimit -v $LIMIT; exec \"\$@\"" tanbo "$TANBO" "$@" 2>&1 < /dev/null); rc=$?; }
# A refusal: exit 1 or 2 (not a signal), one short message holding the text given.
check_refused() {  # what, then the text the message must hold
  [ "$rc" -ge 1 ] && [ "$rc" -le 2 ] || fail "$1: exit $rc: $out"
  echo "$out" | grep -q -- "$2" || fail "$1: message lacks \"$2\": $out"
  [ "$(echo "$out" | wc -l)" -le 2 ] || fail "$1: more than a short message: $out"
}

# AddressSanitizer reserves terabytes of address space when the program starts, so a sanitized
# build cannot run under ulimit -v at all: the parts with ulimit -v run in the other builds.
under_ulimit=1
if [[ ${TANBO_TEST_SANITIZE-} == *address* ]]; then
  under_ulimit=0
  echo "limits: the parts under ulimit -v skipped (AddressSanitizer build)"
fi

if ((under_ulimit)); then
# ---- refused up front, naming the need, the limit, its source and the options
for args in "show big.tanbo" "move big.tanbo A1" "undo big.tanbo" "resign big.tanbo black" \
            "export big.tanbo --sgf" "analyze big.tanbo" "solve big.tanbo"; do
  limited $args
  check_refused "$args" '"grid 10000x10000" has 100000000 points .* would need about .* the limit of .* (ulimit -v (RLIMIT_AS))'
  echo "$out" | grep -q -- "--max-memory SIZE or TANBO_MAX_MEMORY" || fail "$args: no option named: $out"
done
echo "grid 5000x5000" > study.txt
for sub in "new n.tanbo" "bench --games 1" "play" "match --players random,random --games 1" "gtp"; do
  limited $sub --topology "grid 5000x5000"
  check_refused "$sub" '"grid 5000x5000" has 25000000 points.* would need about'
done
limited study --topologies study.txt --games 1
echo "$out" | grep -q '"grid 5000x5000" has 25000000 points' || fail "study: $out"
[ -e n.tanbo ] && fail "a refused new left a file"
if [ -x "$VIEW" ]; then
  limited view big.tanbo --png x.png
  check_refused "view" "would need about"
fi
gtp_out=$(printf 'topology grid 5000x5000\nname\n' | bash -c "ulimit -v $LIMIT; exec \"\$0\" gtp" "$TANBO" 2>&1)
echo "$gtp_out" | grep -q '^? "grid 5000x5000" has .* would need about' || fail "gtp topology: $gtp_out"
echo "$gtp_out" | grep -q '^= tanbo' || fail "gtp did not go on after the refusal: $gtp_out"

# ---- what fits is built: 1000x1000 (about 110 MB) under the same limit
limited new fits.tanbo --topology "grid 1000x1000"
[ "$rc" -eq 0 ] || fail "grid 1000x1000 refused under ulimit -v $LIMIT: $out"
limited show fits.tanbo
[ "$rc" -eq 0 ] || fail "show of grid 1000x1000 under ulimit -v $LIMIT: $out"
fi

# ---- the limit can be set: lower with the option or the variable; a bad size is refused
out=$("$TANBO" new m.tanbo --topology "grid 300x300" --max-memory 1M 2>&1) && fail "--max-memory 1M accepted 300x300"
echo "$out" | grep -q "the limit of 1 MB (--max-memory)" || fail "--max-memory message: $out"
out=$(TANBO_MAX_MEMORY=2M "$TANBO" new m.tanbo --topology "grid 300x300" 2>&1) && fail "TANBO_MAX_MEMORY=2M accepted"
echo "$out" | grep -q "the limit of 2 MB (TANBO_MAX_MEMORY)" || fail "TANBO_MAX_MEMORY message: $out"
out=$(TANBO_MAX_MEMORY=2M "$TANBO" show big.tanbo 2>&1) && fail "TANBO_MAX_MEMORY=2M: show accepted"
echo "$out" | grep -q "(TANBO_MAX_MEMORY)" || fail "TANBO_MAX_MEMORY with show: $out"
out=$("$TANBO" new m.tanbo --max-memory lots 2>&1) && fail "--max-memory lots accepted"
echo "$out" | grep -q '"lots" is not a size' || fail "bad size message: $out"
out=$(TANBO_MAX_MEMORY=lots "$TANBO" new m.tanbo 2>&1) && fail "TANBO_MAX_MEMORY=lots accepted"
echo "$out" | grep -q 'TANBO_MAX_MEMORY "lots" is not a size' || fail "bad variable message: $out"
"$TANBO" new m.tanbo --topology "grid 300x300" --max-memory 1.5G > /dev/null || fail "--max-memory 1.5G refused 300x300"
out=$("$TANBO" new p8.tanbo --topology "grid 300x300" --setup spaced --players 8 --max-memory 20M 2>&1) &&
  fail "8 players on 300x300 accepted with 20 MB"
echo "$out" | grep -q '"grid 300x300" with 8 players would need about' || fail "players check: $out"

# ---- DOT boards: refused while read, or before when the text alone is too big
{ echo "graph {"; seq 1 200000 | sed 's/.*/n& -- n&x/'; echo "}"; } > chain.dot
out=$("$TANBO" new d.tanbo --topology "file chain.dot" --max-memory 40M 2>&1) && fail "chain.dot accepted with 40 MB"
echo "$out" | grep -q '"file chain.dot" has .* points .* would need about .* (--max-memory)' || fail "DOT: $out"
out=$("$TANBO" new d.tanbo --topology "file chain.dot" --max-memory 4M 2>&1) && fail "chain.dot accepted with 4 MB"
echo "$out" | grep -q 'DOT file "chain.dot" has [0-9]* bytes and would need about' || fail "DOT text: $out"

# ---- raised past what the process may have: the allocation fails, and that is a message too
if ((under_ulimit)); then
for args in "show big.tanbo" "bench --topology grid\ 3000x3000 --games 1" "new o.tanbo --topology grid\ 4000x4000"; do
  out=$(bash -c "ulimit -v $LIMIT; exec \"\$0\" $args --max-memory 100G" "$TANBO" 2>&1); rc=$?
  check_refused "$args (allocation)" "out of memory"
done
gtp_out=$(printf 'topology grid 4000x4000\nname\n' | bash -c "ulimit -v $LIMIT; exec \"\$0\" gtp --max-memory 100G" "$TANBO" 2>&1); rc=$?
[ "$rc" -eq 0 ] || fail "gtp out of memory: exit $rc: $gtp_out"
echo "$gtp_out" | grep -q '^? out of memory' || fail "gtp out of memory: $gtp_out"
if [ -x "$VIEW" ]; then
  limited view big.tanbo --png x.png --max-memory 100G
  check_refused "view (allocation)" "out of memory"
fi
fi

# ---- huge tokens and control bytes: short messages, escaped, nothing cut
"$TANBO" new g.tanbo --topology "grid 9x9" > /dev/null || fail "new g.tanbo"
cp g.tanbo g.before
short() {  # what, then the message; under 200 bytes, and the file untouched
  [ "${#2}" -lt 200 ] || fail "$1: message of ${#2} bytes: ${2:0:300}"
  cmp -s g.tanbo g.before || fail "$1 changed the game file"
}
long=$(head -c 100000 /dev/zero | tr '\0' x)
out=$("$TANBO" move g.tanbo "$long" 2>&1) && fail "a 100 KB move accepted"
short "move of 100 KB" "$out"
echo "$out" | grep -q '(100000 bytes)' || fail "100 KB move: $out"
out=$("$TANBO" move g.tanbo "${long:0:4000}" 2>&1) && fail "a 4 KB move accepted"
short "move of 4 KB" "$out"
echo "$out" | grep -q '"x\{40\}..." (4000 bytes) is not a point' || fail "4 KB move: $out"
out=$("$TANBO" move g.tanbo $'A\x01\nB' 2>&1) && fail "control bytes accepted"
echo "$out" | grep -q '"A\\x01\\nB" is not a point' || fail "control bytes: $out"
for spec in "${long:0:4000}" "grid 9x9 ${long:0:4000}" "grid ${long:0:4000}" "file ${long:0:4000}"; do
  out=$("$TANBO" new t.tanbo --topology "$spec" 2>&1) && fail "spec of ${#spec} bytes accepted"
  short "spec ${spec:0:12}" "$out"
done
head -c 10485760 /dev/zero | tr '\0' x > token
{ printf 'tanbo-game 1\ntopology grid 9x9\nmoves\nblack '; cat token; printf '\n'; } > huge.tanbo
out=$("$TANBO" show huge.tanbo 2>&1) && fail "a 10 MB move line accepted"
short "game file line" "$out"
printf 'tanbo-game 1\ntopology grid 9x9\nmoves\nblack B\0tail\n' > nul.tanbo
out=$("$TANBO" show nul.tanbo 2>&1) && fail "a NUL in a point accepted"
echo "$out" | grep -q '"B\\0tail" is not a point' || fail "NUL byte: $out"
out=$({ printf 'play b '; cat token; printf '\nname\n'; } | "$TANBO" gtp 2>&1)
first=$(echo "$out" | head -1)
[ "${#first}" -lt 200 ] && [ "${first:0:1}" = "?" ] || fail "gtp 10 MB line: ${first:0:300}"
echo "$out" | grep -q '^= tanbo' || fail "gtp did not go on after a 10 MB line"
out=$({ cat token; printf '\nquit\n'; } | "$TANBO" play --topology "grid 9x9" 2>&1)
[ "$(echo "$out" | awk '{ if (length($0) > m) m = length($0) } END { print m }')" -lt 300 ] ||
  fail "play echoed a 10 MB line"
echo "$out" | grep -q 'the line is longer than 1048576 bytes' || fail "play 10 MB line: ${out:0:300}"
out=$("$TANBO" "$long" 2>&1) && fail "a 100 KB subcommand accepted"
short "subcommand" "$out"
out=$("$TANBO" show g.tanbo "--${long:0:4000}" 2>&1) && fail "a 4 KB option accepted"
short "option" "$out"
out=$("$TANBO" new q.tanbo --players $'ann\nseed black A1,bob' 2>&1) && fail "a name with a line feed accepted"
echo "$out" | grep -q 'cannot hold control characters' || fail "name with a line feed: $out"

# ---- specs that mean nothing
while IFS='|' read -r spec why; do
  out=$("$TANBO" new s.tanbo --topology "$spec" 2>&1) && fail "\"$spec\" accepted"
  echo "$out" | grep -qF -- "$why" || fail "\"$spec\": $out"
done <<'EOF'
grid 9x9 wrap wrap|"wrap" twice
line 9 wrap torus|"wrap" twice
hex 5 wrap|a hex board does not wrap
grid 9x9x|empty size
grid 9x9 9x9|unexpected "9x9"
grid wrap 9x9|the sizes come first
grid 2x2 wrap|"wrap" changes nothing
line 3x3|"line" takes one size
EOF
[ -e s.tanbo ] && fail "a refused spec left a file"
echo "limits: ok"
