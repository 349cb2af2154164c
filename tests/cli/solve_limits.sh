#!/bin/bash
# tanbo solve and GTP tanbo-solve at the edges: games as long as the board (a path of 10^5
# points; 10^6 without sanitizers), time limits on huge boards and with more threads than
# cores, and a table larger than the memory limit.
# usage: bash solve_limits.sh TANBO TESTDIR
set -uo pipefail
TANBO=$(realpath "$1")
cli_work_name="solve limits"  # (a space in the board file's path)
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
sanitized=${TANBO_TEST_SANITIZE:-}

# path N FILE: a DOT path of N points, n0 (Black) to nN-1 (White). Each side has one move a
# turn, so the game lasts N-2 plies and Black, who fills the last point, wins.
path() {
  awk -v n="$1" 'BEGIN {
    print "graph p {"; print "n0 [stone=black]"; printf "n%d [stone=white]\n", n - 1
    for (i = 0; i + 1 < n; i++) printf "n%d -- n%d\n", i, i + 1
    print "}" }' > "$2"
}

# elapsed COMMAND...: runs it (its output in out and err) and sets $ms to its wall time.
elapsed() {
  local t0
  t0=$(date +%s%N)
  "$@" > "$work/out" 2> "$work/err" || fail "$*: status $?: $(head -c 300 "$work/err")"
  ms=$((($(date +%s%N) - t0) / 1000000))
}
# within SECONDS WHAT: $ms is at most SECONDS.
within() { [ "$ms" -le $(($1 * 1000)) ] || fail "$2 took $ms ms (at most $1 s)"; }

# A game as long as the board: both methods prove it (it crashed on the stack at 50,000).
sizes=100000
[ -n "$sanitized" ] || sizes="100000 1000000"
for n in $sizes; do
  path "$n" "$work/path $n.dot"
  methods="pn ab"
  [ "$n" -lt 1000000 ] || methods=pn  # (a million: about 2 s each; ab's stack is the same)
  for method in $methods; do
    out=$("$TANBO" solve --topology "file $work/path $n.dot" --method "$method" --progress 0)
    grep -qx "winner: black" <<< "$out" || fail "path $n, $method: $out"
    grep -qx "best: n1 (wins in $((n - 2)) plies)" <<< "$out" || fail "path $n, $method: $out"
  done
done

# The same board in a GTP session: tanbo-solve answers and the session goes on.
out=$(printf 'topology file %s\ntanbo-solve\ntanbo-solve 5\nname\n' "$work/path 100000.dot" |
  "$TANBO" gtp)
[ "$(grep -c '^= black n1$' <<< "$out")" = 2 ] || fail "gtp tanbo-solve on a path: $out"
grep -qx "= tanbo" <<< "$out" || fail "gtp after tanbo-solve on a path: $out"

# Time limits, setup included, on boards of a million points and with more threads than
# cores (a hang or a search that ignores the clock breaks these generous bounds).
big="grid 1000x1000"  # (made in about 0.3 s; under the sanitizers a quarter of it)
[ -z "$sanitized" ] || big="grid 500x500"
elapsed "$TANBO" solve --topology "$big" --time 1 --progress 0.5
grep -q "^winner: unknown (stopped after" "$work/out" || fail "$big: $(cat "$work/out")"
within 6 "solve $big --time 1"
grep -q "^solve: " "$work/err" || fail "$big: no progress line: $(cat "$work/err")"
elapsed "$TANBO" solve --topology "grid 300x300" --time 0.5 --threads 64
within 4 "solve 300x300 --time 0.5 --threads 64"
cores=$(getconf _NPROCESSORS_ONLN)
if [ "$cores" -lt 64 ]; then
  grep -qx "tanbo solve: --threads 64 capped to $cores, the number of cores of this machine" \
    "$work/err" || fail "no note of the threads capped: $(cat "$work/err")"
fi
elapsed "$TANBO" gtp <<< $'topology grid 500x500\ntanbo-solve 0.1\nname'
grep -q "^= unknown after" "$work/out" || fail "gtp tanbo-solve 0.1 on 500x500: $(cat "$work/out")"
within 5 "gtp tanbo-solve 0.1 on 500x500"

# A table larger than the memory limit is refused before it is made.
cd "$work"
refused_in_one_line "--table 2000: the solver's table of 1 GB would need about 1 GB" \
  "$TANBO" solve --table 2000 --max-memory 512M
grep -qF "the limit of 512 MB (--max-memory)" err || fail "--table message: $(cat err)"
refused_in_one_line "--table 1048576: the solver's table of 1 TB" "$TANBO" solve --table 1048576
"$TANBO" solve --table 256 --max-memory 512M > out || fail "--table 256 refused under 512 MB"
grep -qx "winner: white" out || fail "4x4 with --table 256: $(cat out)"
# Under a limit too small for the tables: tanbo-solve refuses with the reason, and the engine
# (whose solver would want 16 MB near the end of a 5x5 game) plays on without its solver.
out=$(printf 'topology grid 5x5\ntanbo-solve\ngenmove b\n' | "$TANBO" gtp --max-memory 12M)
grep -q "^? the solver's table of 64 MB would need about 64 MB" <<< "$out" ||
  fail "tanbo-solve under 12 MB: $out"
grep -q "^= [A-E][1-5]$" <<< "$out" || fail "genmove under 12 MB: $out"
echo "solve_limits: ok"
