#!/bin/bash
# tanbo study --merge takes only the whole set of shards of one run: it refuses an incomplete
# set (naming the missing shards), a shard of another run (naming the file and why), a
# duplicate, a cut file; --allow-partial merges an incomplete set and the report says so.
# Also: progress lines without a terminal, --dry-run, and options that do not go together.
# usage: bash study_merge.sh TANBO TESTDIR
set -euo pipefail
TANBO=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"
printf 'line 7\ngrid 3x3\nhex 3\n' > list.txt
base=(--topologies list.txt --players greedy,random --games 5 --seed 3)

# refused EXPECTED... -- COMMAND...: the command exits 2, prints nothing on stdout, and its
# stderr holds every EXPECTED string.
refused() {
  local expected=()
  while [[ $1 != -- ]]; do expected+=("$1") && shift; done
  shift
  local status=0
  "$@" > out.txt 2> err.txt || status=$?
  [[ $status -eq 2 ]] || fail "exit $status, not 2: $*"
  [[ ! -s out.txt ]] || fail "printed on stdout: $*"
  for e in "${expected[@]}"; do
    grep -qF -- "$e" err.txt || { cat err.txt >&2 && fail "no '$e' in the refusal of: $*"; }
  done
}

"$TANBO" study "${base[@]}" --csv > whole.csv 2> whole.err
"$TANBO" study "${base[@]}" > whole.txt 2> /dev/null
for i in 1 2 3 4; do "$TANBO" study "${base[@]}" --csv --shard "$i/4" > "s$i.csv" 2> /dev/null; done

# The shard's header names its run; the whole set merges to the unsharded CSV and table.
head -n 5 s2.csv > header.txt
grep -qx "# tanbo study shard 2/4" header.txt || fail "no shard line in s2.csv"
grep -qx "# seed 3" header.txt || fail "no seed line"
grep -qx "# games 5" header.txt || fail "no games line"
grep -qx "# players greedy,random" header.txt || fail "no players line"
grep -qE "^# boards 3 [0-9a-f]{16}$" header.txt || fail "no boards line"
"$TANBO" study --merge s1.csv s2.csv s3.csv s4.csv --csv | cmp - whole.csv
"$TANBO" study --merge s4.csv s2.csv s1.csv s3.csv | cmp - whole.txt

# Incomplete: refused, the missing shard named, no chart written.
refused "missing shards 3/4" "nothing merged" "--allow-partial" -- \
  "$TANBO" study --merge s1.csv s2.csv s4.csv --png chart.png
[[ ! -e chart.png ]] || fail "a refused merge wrote its chart"
refused "missing shards 2/4, 3/4" -- "$TANBO" study --merge s1.csv s4.csv --csv

# Shards of other runs, each named with its file and why.
"$TANBO" study --topologies list.txt --players greedy,random --games 5 --seed 4 --csv \
  --shard 4/4 > seed4.csv 2> /dev/null
refused "missing shards 4/4" "seed4.csv: shard 4/4 of another run: other seed (4, not 3)" -- \
  "$TANBO" study --merge s1.csv s2.csv s3.csv seed4.csv
"$TANBO" study "${base[@]}" --csv --shard 2/3 > of3.csv 2> /dev/null
refused "of3.csv: shard 2/3 of another run: other shard count (/3, not /4)" -- \
  "$TANBO" study --merge s1.csv s2.csv s3.csv s4.csv of3.csv
"$TANBO" study --topologies list.txt --players greedy,random --games 6 --seed 3 --csv \
  --shard 4/4 > games6.csv 2> /dev/null
refused "games6.csv: shard 4/4 of another run: other options: games per board 6, not 5" -- \
  "$TANBO" study --merge s1.csv s2.csv s3.csv games6.csv
"$TANBO" study --topologies list.txt --players random,greedy --games 5 --seed 3 --csv \
  --shard 4/4 > players.csv 2> /dev/null
refused "players.csv: shard 4/4 of another run: other options: players \"random,greedy\"" -- \
  "$TANBO" study --merge s1.csv s2.csv s3.csv players.csv
printf 'line 7\ngrid 3x3\nhex 3 | hexbo\n' > list2.txt
"$TANBO" study --topologies list2.txt --players greedy,random --games 5 --seed 3 --csv \
  --shard 4/4 > boards.csv 2> /dev/null
refused "boards.csv: shard 4/4 of another run: other options: other boards" -- \
  "$TANBO" study --merge s1.csv s2.csv s3.csv boards.csv
# The run is the one most files share, wherever the foreign file stands.
refused "seed4.csv: shard 4/4 of another run" "the run: shards of 4, seed 3," -- \
  "$TANBO" study --merge seed4.csv s1.csv s2.csv s3.csv

# Duplicates: a copy, or the same file twice.
cp s2.csv copy.csv
refused "copy.csv: duplicate of shard 2/4 (already given as s2.csv)" -- \
  "$TANBO" study --merge s1.csv s2.csv s3.csv s4.csv copy.csv
refused "s3.csv: duplicate of shard 3/4" -- \
  "$TANBO" study --merge s1.csv s2.csv s3.csv s3.csv s4.csv

# A CSV without shard header merges only alone (it is a whole study: the chart is re-drawn).
"$TANBO" study --merge whole.csv --csv | cmp - whole.csv
refused "whole.csv: no shard header" -- "$TANBO" study --merge s1.csv s2.csv s3.csv s4.csv whole.csv

# A cut or edited shard is refused.
head -n -1 s3.csv > cut.csv
refused "cut.csv: 2 boards, but its header says 3" -- \
  "$TANBO" study --merge s1.csv s2.csv cut.csv s4.csv
sed 's/^# games 5$/# games 6/' s3.csv > edited.csv
refused "edited.csv: \"grid 3x3\" has 1 game, but shard 3/4 of 6 games per board plays 2" -- \
  "$TANBO" study --merge edited.csv
# A row renamed: its games were once merged as a board of their own (a fourth row).
sed 's/^grid 3x3,/grid 3x4,/' s3.csv > renamed.csv
refused "renamed.csv: board 2 is \"grid 3x4 | default\", but s1.csv of the same run has \"grid 3x3 | default\" there" -- \
  "$TANBO" study --merge s1.csv s2.csv renamed.csv s4.csv --csv

# A shard count of 19 digits (any whole number is a shard count): the merge counts the shards
# missing instead of listing every one (it once walked them all, filling the memory; the
# timeout guards against that hang only).
"$TANBO" study "${base[@]}" --csv --shard 1/9999999999999999999 > huge.csv 2> /dev/null
timeout 120 "$TANBO" study --merge huge.csv --allow-partial > huge.txt 2> huge.err ||
  fail "a shard of 9999999999999999999: exit $?: $(head -c 300 huge.err)"
grep -q "^partial merge: missing shards 2/9999999999999999999, 3/9999999999999999999, .* and 9999999999999999988 more (1 of 15 games)$" huge.txt ||
  fail "a shard of 9999999999999999999: $(cat huge.txt)"

# --allow-partial: merged, and the report (table, CSV, chart title, stderr) says what is missing.
"$TANBO" study --merge s1.csv s2.csv s4.csv --allow-partial > partial.txt 2> partial.err
grep -q "^partial merge: missing shards 3/4 ([0-9]* of 15 games)$" partial.txt ||
  fail "the partial table does not say so"
grep -q "warning: partial merge: missing shards 3/4" partial.err || fail "no warning on stderr"
"$TANBO" study --merge s1.csv s2.csv s4.csv --allow-partial --csv > partial.csv 2> /dev/null
head -n 1 partial.csv | grep -q "^# partial merge: missing shards 3/4" || fail "partial CSV"
"$TANBO" study --merge partial.csv --csv > /dev/null # a note, not a shard header: merges alone
# ... but it never lets a foreign shard in.
refused "seed4.csv: shard 4/4 of another run" -- \
  "$TANBO" study --merge s1.csv s2.csv seed4.csv --allow-partial

# Progress without a terminal: a start line, then a line per board, each with the games done
# of the total, the time elapsed and the time left.
[[ $(grep -c "^tanbo study: .* games, elapsed .*, left " whole.err) -ge 4 ]] || fail "progress lines"
for b in "1/3 (line 7)" "2/3 (grid 3x3)" "3/3 (hex 3)"; do
  grep -q "; board $b done: 5 games" whole.err || fail "no progress line for board $b"
done
grep -q "^tanbo study: 15/15 games, " whole.err || fail "no last progress line"
"$TANBO" study "${base[@]}" --csv --shard 2/4 2> shard.err > /dev/null
grep -q "^tanbo study shard 2/4: 4/4 games, " shard.err || fail "a shard's progress lines do not name it"
"$TANBO" study "${base[@]}" --progress 0 2> quiet.err > /dev/null
[[ ! -s quiet.err ]] || fail "--progress 0 still wrote progress"

# --dry-run plays nothing and says what would be played.
"$TANBO" study "${base[@]}" --shard 2/4 --dry-run > plan.txt
grep -q "^shard 2/4 plays 4 of the 15 games$" plan.txt || fail "dry run: $(cat plan.txt)"
printf 'line 7\ngrid 0x3\n' > bad.txt
refused "bad.txt" "grid 0x3" -- "$TANBO" study --topologies bad.txt --dry-run

# Counts that cannot be: sums past 2^64 (they wrapped into wrong means), seat counts that are
# not the run's, wins per seat past 2^64; games per board times boards past 2^62.
big=9223372036854775807
sed "s/^line 7,default,\([0-9]*\),\([0-9]*\),\([0-9]*\),[0-9]*,/line 7,default,\1,\2,\3,$big,/" \
  s1.csv > o1.csv
sed "s/^line 7,default,\([0-9]*\),\([0-9]*\),\([0-9]*\),[0-9]*,/line 7,default,\1,\2,\3,$big,/" \
  s2.csv > o2.csv
refused 'the counts of "line 7" add up past 2^64 - 1' -- \
  "$TANBO" study --merge o1.csv o2.csv s3.csv s4.csv --csv
sed 's/^\(line 7,default,[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*:[0-9]*\),/\1:0,/' \
  s1.csv > seats.csv
refused '"line 7" count 3 and 2 seats' -- \
  "$TANBO" study --merge seats.csv s2.csv s3.csv s4.csv --csv
sed "s/^\(line 7,default,\)2,0,0,\([0-9]*,[0-9]*,[0-9]*\),0:2,/\12,0,0,\2,0:$big:$big:2,/" \
  s1.csv > wins.csv
grep -q ":$big:" wins.csv || fail "wins.csv was not made: $(cat s1.csv)"
refused 'the wins per seat add up past 2^64 - 1' -- \
  "$TANBO" study --merge wins.csv s2.csv s3.csv s4.csv --csv
refused 'makes more than 2^62 games' -- \
  "$TANBO" study --topologies list.txt --games 6148914691236517206 --dry-run

# Options that do not go together.
refused "--seed is not used" -- "$TANBO" study --merge s1.csv --seed 3
refused "--allow-partial goes with --merge" -- "$TANBO" study "${base[@]}" --allow-partial
refused "--progress -1" -- "$TANBO" study "${base[@]}" --progress -1
echo "study_merge: merges checked"
