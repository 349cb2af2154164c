#!/bin/bash
# The move model's tools (examples/move-model): tanbo-move-data writes one CSV row per legal
# move of every searched position, the same for a seed and different for another; bad
# arguments are refused with the reason; fit.py fits weights to the data and prints one per
# feature.
# usage: bash move_model.sh TANBO TESTDIR
set -u
TANBO=$1
TESTDIR=$2
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"
DATA=$(dirname "$TANBO")/tanbo-move-data
[ -x "$DATA" ] || fail "no tanbo-move-data next to $TANBO"

"$DATA" --topology "grid 5x5" --games 3 --seed 4 --engine playouts=100 > a.csv 2> a.err ||
  fail "tanbo-move-data failed: $(cat a.err)"
"$DATA" --topology "grid 5x5" --games 3 --seed 4 --engine playouts=100 > b.csv 2> /dev/null
"$DATA" --topology "grid 5x5" --games 3 --seed 5 --engine playouts=100 > c.csv 2> /dev/null
cmp -s a.csv b.csv || fail "the same seed wrote different data"
cmp -s a.csv c.csv && fail "another seed wrote the same data"
header=$(head -1 a.csv)
[[ $header == position,visits,edge,corner,* ]] || fail "header: $header"
# Every row has the header's 30 fields; positions are numbered from 0 up, in order; one row
# per legal move, so a position has at least one row; every position got playouts.
awk -F, -v want=30 '
  NR == 1 { next }
  NF != want { print "row " NR ": " NF " fields"; bad = 1 }
  $1 != last { if ($1 != count) { print "position " $1 " after " last; bad = 1 } count++; last = $1 }
  { visits[$1] += $2 }
  END {
    if (count < 10) { print "only " count " positions"; bad = 1 }
    for (p in visits) if (visits[p] == 0) { print "position " p " without playouts"; bad = 1 }
    exit bad
  }' last=-1 count=0 a.csv > check.txt || fail "data: $(cat check.txt)"
grep -q '^game 3: ' a.err || fail "no progress line for game 3: $(cat a.err)"

# Bad arguments: exit 2, one line naming the problem, nothing on standard output.
refused() { refused_in_one_line "$1" "$DATA" "${@:2}"; }
refused 'expected a whole number, got "x"' --games x
refused 'unknown option --bogus' --bogus 1
refused 'unknown topology' --topology nonsense
refused 'mcts option model=3' --engine model=3

# fit.py: a python3 with numpy (the system's, when the first python3 on PATH has none).
python=
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import numpy' 2> /dev/null; then
    python=$candidate
    break
  fi
done
[ -n "$python" ] || fail "no python3 with numpy (apt-get install python3-numpy)"
"$python" "$TESTDIR/../examples/move-model/fit.py" a.csv > fit.txt 2> fit.err ||
  fail "fit.py failed: $(cat fit.err)"
weights=$(grep -A1 '^weights:' fit.txt | tail -1 | tr ',' '\n' | grep -c '[0-9]')
[ "$weights" -eq 28 ] || fail "fit.py printed $weights weights: $(cat fit.txt)"
grep -q '^held-out agreement with the most visited move' fit.txt || fail "no report: $(cat fit.txt)"
echo "move_model: ok"
