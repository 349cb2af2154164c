#!/bin/bash
# A small study sharded 3 ways through GNU parallel and merged must equal the unsharded run,
# as CSV and as the table.
# usage: bash study_shard.sh TANBO TESTDIR
set -euo pipefail
TANBO=$1
if ! command -v parallel > /dev/null; then
  echo "study_shard: GNU parallel is not installed (apt-get install parallel)" >&2
  exit 1
fi
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cat > "$work/list.txt" << 'LIST'
# a few small boards of different kinds
line 13
grid 5x5
grid 3x3x3
grid 4x4 wrap
hex 3
LIST

run_shard() {
  "$TANBO" study --topologies "$work/list.txt" --players "greedy,mcts:playouts=20,explore=0.3,solver=0" \
    --games 7 --seed 11 --csv --shard "$1/3" > "$work/shard-$1.csv"
}
export -f run_shard
export TANBO work

# (solver=0: the exact solver inside the MCTS would take most of the time on these small boards.)
"$TANBO" study --topologies "$work/list.txt" --players "greedy,mcts:playouts=20,explore=0.3,solver=0" \
  --games 7 --seed 11 --csv --png "$work/whole.png" > "$work/whole.csv"
parallel --will-cite -j3 run_shard ::: 1 2 3

# Every shard played a part, and the parts are disjoint: their games add up to 5 x 7. A shard
# starts with comment lines naming its run, then the CSV's header.
total=0
for i in 1 2 3; do
  head -n 1 "$work/shard-$i.csv" | grep -qx "# tanbo study shard $i/3"
  n=$(grep -v '^#' "$work/shard-$i.csv" | tail -n +2 | awk -F, '{s += $3} END {print s}')
  [ "$n" -gt 0 ] || { echo "shard $i played no game" >&2; exit 1; }
  total=$((total + n))
done
[ "$total" -eq 35 ] || { echo "shards played $total games, expected 35" >&2; exit 1; }

"$TANBO" study --merge "$work"/shard-1.csv "$work"/shard-2.csv "$work"/shard-3.csv --csv \
  > "$work/merged.csv"
diff -u "$work/whole.csv" "$work/merged.csv"

"$TANBO" study --topologies "$work/list.txt" --players "greedy,mcts:playouts=20,explore=0.3,solver=0" \
  --games 7 --seed 11 > "$work/whole.txt"
"$TANBO" study --merge "$work"/shard-*.csv > "$work/merged.txt"
diff -u "$work/whole.txt" "$work/merged.txt"

# The merged chart is the unsharded run's chart, title included (both take the run's title).
"$TANBO" study --merge "$work"/shard-*.csv --png "$work/chart.png" > /dev/null
head -c 8 "$work/chart.png" | od -An -tx1 | grep -q "89 50 4e 47 0d 0a 1a 0a"
cmp "$work/whole.png" "$work/chart.png"
echo "study_shard: merged shards equal the whole study"
