#!/bin/bash
# Boards too big for the memory this process may have: every subcommand refuses them up front
# with the need, the limit and where the limit comes from (ulimit -v, --max-memory,
# TANBO_MAX_MEMORY), and an allocation that fails anyway is a message and exit 1, never an
# abort. Nothing here allocates more than a few hundred MB.
# usage: bash limits.sh TANBO TESTDIR
set -u
TANBO=$1
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
printf 'tanbo-game 1\ntopology grid 10000x10000\nmoves\n' > big.tanbo   # 60 bytes, 10^8 points
VIEW=$(dirname "$TANBO")/tanbo-view

# Runs "tanbo ARGS" under a 400 MB address-space limit; sets $out and $rc.
limited() { out=$(bash -c 'ulimit -v 400000; exec "$@"' tanbo "$TANBO" "$@" 2>&1 < /dev/null); rc=$?; }
check_refused() {  # what, then the text the message must hold
  [ "$rc" -ne 0 ] && [ "$rc" -lt 128 ] || fail "$1: exit $rc: $out"
  echo "$out" | grep -q "$2" || fail "$1: message lacks \"$2\": $out"
  [ "$(echo "$out" | wc -l)" -le 2 ] || fail "$1: more than a short message: $out"
}

# Refused up front, naming the limit's source and the options.
for args in "show big.tanbo" "move big.tanbo A1" "undo big.tanbo" "resign big.tanbo black" \
            "export big.tanbo --sgf"; do
  limited $args
  check_refused "$args" "would need about .* (ulimit -v (RLIMIT_AS)"
  echo "$out" | grep -q -- "--max-memory SIZE or TANBO_MAX_MEMORY=SIZE" || fail "$args: no option named: $out"
done
for sub in "new n.tanbo" "bench --games 1" "play" "match --players random,random --games 1"; do
  limited $sub --topology "grid 5000x5000"
  check_refused "$sub" "grid 5000x5000.* would need about"
done
[ -e n.tanbo ] && fail "a refused new left a file"
if [ -x "$VIEW" ]; then
  limited view big.tanbo --png x.png
  check_refused "view" "would need about"
fi
gtp_out=$(printf 'topology grid 5000x5000\nshowboard\n' | bash -c 'ulimit -v 400000; exec "$0" gtp' "$TANBO" 2>&1)
echo "$gtp_out" | grep -q '^? "grid 5000x5000" has .* would need about' || fail "gtp topology: $gtp_out"

# The limit can be set: lower with the option or the variable, and a bad size is refused.
out=$("$TANBO" new m.tanbo --topology "grid 300x300" --max-memory 1M 2>&1) && fail "--max-memory 1M accepted 300x300"
echo "$out" | grep -q "the limit of 1 MB (--max-memory)" || fail "--max-memory message: $out"
out=$(TANBO_MAX_MEMORY=2M "$TANBO" new m.tanbo --topology "grid 300x300" 2>&1) && fail "TANBO_MAX_MEMORY=2M accepted"
echo "$out" | grep -q "the limit of 2 MB (TANBO_MAX_MEMORY)" || fail "TANBO_MAX_MEMORY message: $out"
out=$("$TANBO" new m.tanbo --max-memory lots 2>&1) && fail "--max-memory lots accepted"
echo "$out" | grep -q '"lots" is not a size' || fail "bad size message: $out"
"$TANBO" new m.tanbo --topology "grid 300x300" --max-memory 2G > /dev/null || fail "--max-memory 2G refused 300x300"

# Raised past what the process may have: the allocation fails, and that is a message too.
for args in "show big.tanbo" "bench --topology grid\ 3000x3000 --games 1"; do
  out=$(bash -c "ulimit -v 400000; exec \"\$0\" $args --max-memory 100G" "$TANBO" 2>&1); rc=$?
  check_refused "$args (allocation)" "out of memory"
done
if [ -x "$VIEW" ]; then
  limited view big.tanbo --png x.png --max-memory 100G
  check_refused "view (allocation)" "out of memory"
fi
echo "limits: ok"
