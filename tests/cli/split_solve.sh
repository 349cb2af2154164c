#!/bin/bash
# A solve spread over work units: scripts/parallel-solve.sh (GNU parallel) splits 5x5, solves
# the units and merges them into the answer of one tanbo solve of the whole board, with one
# certificate that tanbo check-proof accepts; scripts/slurm-solve.sh does the same through a
# stub sbatch; the merge refuses a missing unit, a result of another split, and damaged
# manifests, unit files and unit certificates, writing nothing.
# usage: bash split_solve.sh TANBO TESTDIR
set -u
real_tanbo=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tests=$(cd "$2" && pwd)
cli_work_name="split solve"
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work" || exit 1
export TANBO=$real_tanbo

# The whole board on one machine, for comparison.
"$TANBO" solve --topology "grid 5x5" --setup spaced --table 16 --progress 0 > whole.txt 2> err ||
  fail "solve: $(cat err)"
grep -E '^(winner|winning moves):' whole.txt > whole.lines

bash "$tests/../scripts/parallel-solve.sh" --out "split dir" --jobs 2 --proof -- \
  --topology "grid 5x5" --setup spaced --table 16 > out 2> err || fail "parallel-solve: $(cat out err)"
[ -s "split dir/result.txt" ] || fail "no result.txt"
grep -E '^(winner|winning moves):' "split dir/result.txt" > merged.lines
cmp -s whole.lines merged.lines || fail "the merged answer differs: $(cat merged.lines) -- $(cat whole.lines)"
"$TANBO" check-proof "split dir/proof.txt" > out 2> err || fail "the merged certificate: $(cat out err)"
grep -qx "valid: black wins grid 5x5 (setup spaced)" out || fail "check-proof: $(cat out)"

# The merge refuses a unit of another run and a missing unit, and writes nothing then.
rm "split dir/result.txt"
cp "split dir/results/unit-1.txt" unit-1.txt
sed -i 's/^run .*/run 0123456789abcdef/' "split dir/results/unit-1.txt"
"$TANBO" solve --merge "split dir" > out 2> err && fail "a unit of another run was merged"
grep -qF "belongs to another split" err || fail "another run: $(cat err)"
rm "split dir/results/unit-1.txt"
"$TANBO" solve --merge "split dir" > out 2> err && fail "a missing unit was merged"
grep -qF "unit-1 has no result" err || fail "missing unit: $(cat err)"
[ -e "split dir/result.txt" ] && fail "a refused merge wrote result.txt"
cp unit-1.txt "split dir/results/unit-1.txt"
# Damaged numbers in the manifest or a unit's result are refused with the file's name (they
# once made the merge fail with an internal error).
cp "split dir/manifest.txt" manifest.txt
sed -i 's/^depth .*/depth two/' "split dir/manifest.txt"
"$TANBO" solve --merge "split dir" > out 2> err && fail "a damaged manifest was merged"
grep -qF "a damaged manifest" err || fail "damaged manifest: $(cat err)"
grep -q "internal error" err && fail "damaged manifest: $(cat err)"
cp manifest.txt "split dir/manifest.txt"
sed -i 's/^nodes .*/nodes 12x/' "split dir/results/unit-1.txt"
"$TANBO" solve --merge "split dir" > out 2> err && fail "a damaged result was merged"
grep -qF "a damaged result" err || fail "damaged result: $(cat err)"
cp unit-1.txt "split dir/results/unit-1.txt"
"$TANBO" solve --merge "split dir" > out 2> err || fail "merge again: $(cat err)"

# Hostile splits (a 4x4 split at 2 plies, its units solved with certificates): every damaged
# file is refused with a message naming it, status 2, and the merge writes nothing.
"$TANBO" solve --topology "grid 4x4" --setup spaced --split 2 --out h > out 2> err ||
  fail "split 4x4: $(cat err)"
units=$(sed -n 's/^units //p' h/manifest.txt)
for ((i = 0; i < units; ++i)); do
  "$TANBO" solve --out h --unit "$i" --table 4 --progress 0 --proof "h/results/unit-$i.proof" \
    > out 2> err || fail "unit $i: $(cat err)"
done
"$TANBO" solve --merge h --proof h/proof.txt > out 2> err || fail "merge 4x4: $(cat err)"
grep -qx "winner: white" out || fail "merge 4x4: $(cat out)"
cp -r h h.keep
merge_refused() {  # WANT: the merge of h (with --proof h/proof.txt) fails saying WANT
  rm -f h/result.txt h/proof.txt
  "$TANBO" solve --merge h --proof h/proof.txt > out 2> err
  local status=$?
  [ $status -eq 2 ] || fail "$1: status $status: $(cat out err)"
  grep -qF -- "$1" err || fail "wanted \"$1\": $(cat err)"
  [ -e h/result.txt ] || [ -e h/proof.txt ] && fail "$1: the refused merge wrote a file"
  rm -rf h && cp -r h.keep h
}
edit() { sed -i "$2" "h/$1"; }
edit manifest.txt 's/^unit 0 .*/unit 0 A1 C1/'
merge_refused "unit 0: A1 is not a legal move there"
edit manifest.txt 's/^unit 0 \(.*\)/unit 0 \1 B2 C2 D2 A3 B3 C3 D3 B4 C4/'
merge_refused "moves, not the split's depth 2"
edit manifest.txt 's/^depth 2/depth 0/'
merge_refused "a damaged manifest (its depth or unit count)"
edit manifest.txt 's/^depth 2/depth 1000/'
merge_refused "a damaged manifest (its depth or unit count)"
# A unit line left out (the others and the count renumbered), the results kept: each result
# records its unit's moves, so it is not merged onto the position that now has its number.
first=$(grep '^unit 0 ' h/manifest.txt)
awk '/^units /{print "units " $2 - 1; next} /^unit 0 /{next} /^unit /{$2 = $2 - 1} {print}' \
  h/manifest.txt > manifest.cut && mv manifest.cut h/manifest.txt
cp h/manifest.txt manifest.cut
merge_refused "unit-0.txt was solved after the moves \"${first#unit 0 }\", but the manifest's unit 0"
# The same with the results renumbered to match: the position no unit holds is named by its
# moves (the merge once said only that the units did not cover the root). Unit 0 is the first
# position the merge reaches.
cp manifest.cut h/manifest.txt
rm h/results/unit-0.*
for ((i = 1; i < units; ++i)); do
  sed "s/^unit $i\$/unit $((i - 1))/" "h/results/unit-$i.txt" > "h/results/unit-$((i - 1)).txt"
  mv "h/results/unit-$i.proof" "h/results/unit-$((i - 1)).proof"
  rm "h/results/unit-$i.txt"
done
merge_refused "manifest.txt: no unit holds the position after the moves ${first#unit 0 } from the root"
printf 'B2/C2/C3 D2\n' >> h/results/unit-1.proof
merge_refused "unit-1.proof: line"
printf 'B2/C2/C3 D2\n' >> h/results/unit-1.proof
merge_refused "not a position of 2 players"
cp h/results/unit-0.proof h/results/unit-1.proof
merge_refused "(a certificate of another position, winner or split)"
# A move changed in the units' certificates (the first listed move of each made one onto a
# stone): the merged certificate no longer proves the result.
change_first_moves() {
  local f line stone
  for f in h/results/unit-*.proof; do
    line=$(grep -n '/.* [A-D][1-4]$' "$f" | head -n 1 | cut -d: -f1)
    stone=$(sed -n "${line}s/^\([A-D][1-4]\).*/\1/p" "$f")
    [ -n "$stone" ] && sed -i "${line}s/ [A-D][1-4]\$/ $stone/" "$f"
  done
}
change_first_moves
merge_refused "the merged certificate does not prove the result"
# The merged certificate is checked before it takes its name: a certificate there already is
# left as it was.
"$TANBO" solve --merge h --proof h/proof.txt > out 2> err || fail "merge h: $(cat err)"
cp h/proof.txt proof.keep
change_first_moves
"$TANBO" solve --merge h --proof h/proof.txt > out 2> err && fail "a wrong merge over a certificate"
grep -qF "the merged certificate does not prove the result" err || fail "over a certificate: $(cat err)"
cmp -s h/proof.txt proof.keep || fail "a refused merge changed the certificate there"
[ -z "$(find h -name '*.tmp*')" ] || fail "a refused merge left a file: $(find h -name '*.tmp*')"
rm -rf h && cp -r h.keep h
# Units' certificates compressed with gzip (unit-I.proof.gz) merge into the same certificate,
# and --proof NAME.gz writes it compressed.
"$TANBO" solve --merge h --proof plain.proof > out 2> err || fail "merge h: $(cat err)"
gzip h/results/unit-*.proof
"$TANBO" solve --merge h --proof merged.proof.gz > out 2> err || fail "gzip units: $(cat err)"
zcat merged.proof.gz | cmp -s - plain.proof || fail "gzip units merge into another certificate"
"$TANBO" check-proof merged.proof.gz > out 2> err || fail "the compressed merge: $(cat out err)"
rm -rf h && cp -r h.keep h
# The keys of the positions a merge lists count against the memory limit: 5x6 in units, merged
# under 8 MB, is refused as the merge passes the limit, and writes nothing.
"$TANBO" solve --topology "grid 5x6" --setup spaced --split 2 --out m > out 2> err || fail "split 5x6: $(cat err)"
for ((i = 0; i < $(sed -n 's/^units //p' m/manifest.txt); ++i)); do
  "$TANBO" solve --out m --unit "$i" --table 64 --progress 0 --proof "m/results/unit-$i.proof.gz" \
    > out 2> err || fail "5x6 unit $i: $(cat err)"
done
"$TANBO" solve --merge m --proof m/proof.txt --max-memory 8M > out 2> err && fail "a merge past 8 MB"
grep -qF "merging the units' certificates would need about" err || fail "merge under 8 MB: $(cat err)"
[ -e m/proof.txt ] || [ -e m/result.txt ] && fail "a merge refused for memory wrote a file"
# Under 16 MB the merge passes and its check does not: said so, and nothing written.
"$TANBO" solve --merge m --proof m/proof.txt --max-memory 16M > out 2> err && fail "a check past 16 MB"
grep -qF "the merged certificate could not be checked: checking this certificate would need" err ||
  fail "check under 16 MB: $(cat err)"
[ -e m/proof.txt ] || [ -e m/result.txt ] && fail "a merge whose check ran out of room wrote a file"
# A long merge shows its progress on stderr (--progress S, as a solve does).
"$TANBO" solve --merge m --proof m/proof.txt --progress 0.1 > out 2> err || fail "merge 5x6: $(cat err)"
grep -qE '^merge: ([0-9]+ s, [0-9]+ units.* certificates read, [0-9]+ positions listed|checking the merged certificate, [0-9]+ s, [0-9]+ (lines read|positions checked))$' err ||
  fail "no progress lines from a merge of 5x6: $(cat err)"
"$TANBO" check-proof m/proof.txt > out 2> err || fail "the 5x6 merge: $(cat out err)"
# Ctrl-C while the merged certificate is written (after its first progress line) stops the
# merge: the answer printed, status 130, no certificate, no result.txt and no temporary file.
rm m/proof.txt m/result.txt
"$TANBO" solve --merge m --proof m/proof.txt --progress 0.1 > out 2> err &
interrupt_when $! grep -q '^merge: ' err
[ $status -eq 130 ] || fail "SIGINT during a merge: status $status, $(cat out err)"
grep -qx 'winner: white' out || fail "SIGINT during a merge: no answer: $(cat out)"
grep -qx 'proof: not written (stopped by SIGINT); m/result.txt not written' out ||
  fail "SIGINT during a merge: $(cat out)"
[ -e m/proof.txt ] || [ -e m/result.txt ] && fail "a merge stopped by SIGINT wrote a file"
compgen -G 'm/.proof.txt.tmp.*' > /dev/null && fail "a stopped merge left a temporary file"
# The split's own files are not overwritten by the certificate.
cp h/manifest.txt manifest.keep
"$TANBO" solve --merge h --proof h/manifest.txt > out 2> err && fail "--proof over the manifest"
grep -qF "is one of the split's own files" err || fail "--proof manifest: $(cat err)"
cmp -s h/manifest.txt manifest.keep || fail "the manifest changed"
# A certificate with CRLF line ends (which check-proof accepts) merges as well.
sed -i 's/$/\r/' h/results/unit-0.proof
"$TANBO" solve --merge h --proof h/proof.txt > out 2> err || fail "a CRLF certificate: $(cat err)"
"$TANBO" check-proof h/proof.txt > out 2> err || fail "the CRLF merge: $(cat out err)"
rm -rf h && cp -r h.keep h
# A unit's --proof or --checkpoint may not name the split's own files: a certificate written
# over the manifest, the root, a unit file or a result once broke the split for good.
for target in h/manifest.txt h/root.tanbo h/units/unit-1.tanbo h/results/unit-0.txt \
  h/results/unit-1.proof; do
  cp "$target" target.keep
  "$TANBO" solve --out h --unit 0 --table 4 --progress 0 --proof "$target" > out 2> err
  status=$?
  [ $status -eq 2 ] || fail "--unit 0 --proof $target: status $status: $(cat out err)"
  grep -qF -- "--proof $target is one of the split's own files" err || fail "--proof $target: $(cat err)"
  cmp -s "$target" target.keep || fail "--unit 0 --proof $target changed it"
done
"$TANBO" solve --out h --unit 0 --table 4 --progress 0 --checkpoint h/results/unit-9.txt \
  --resume > out 2> err && fail "a unit's checkpoint among the results"
grep -qF -- "--checkpoint h/results/unit-9.txt is one of the split's own files" err ||
  fail "--checkpoint in results: $(cat err)"
[ -e h/results/unit-9.txt ] && fail "a refused unit wrote its checkpoint"
"$TANBO" solve --out h --unit 0 --table 4 --progress 0 --proof h/results/unit-0.proof > out 2> err ||
  fail "a unit's own certificate refused: $(cat err)"
# The lines of a DOT board's unit certificate are named by their number in the file, after
# the board's "dot" lines (they were counted as if the header had five lines).
printf 'graph p {\n  a -- b -- c -- d -- e -- a\n  a -- f; b -- g; c -- h; d -- i; e -- j\n  f -- h -- j -- g -- i -- f\n  a [stone=1]; c [stone=2]\n}\n' > p.dot
"$TANBO" solve --topology "file p.dot" --setup file --split 1 --out pd > out 2> err || fail "split p.dot: $(cat err)"
for ((i = 0; i < $(sed -n 's/^units //p' pd/manifest.txt); ++i)); do
  "$TANBO" solve --out pd --unit "$i" --table 4 --progress 0 --proof "pd/results/unit-$i.proof" \
    > out 2> err || fail "p.dot unit $i: $(cat err)"
done
for f in pd/results/unit-*.proof; do printf 'nonsense\n' >> "$f"; done
"$TANBO" solve --merge pd --proof pd/proof.txt > out 2> err && fail "a damaged DOT unit certificate"
damaged=$(grep -o 'unit-[0-9]*\.proof' err | head -n 1)
[ -n "$damaged" ] || fail "no unit certificate named: $(cat err)"
grep -qF "$damaged: line $(wc -l < "pd/results/$damaged"): not \"POSITION MOVE\"" err ||
  fail "DOT line number ($(wc -l < "pd/results/$damaged") lines): $(cat err)"
# A unit file that is not the position of its manifest line is not solved.
cp h/units/unit-0.tanbo h/units/unit-1.tanbo
"$TANBO" solve --out h --unit 1 --table 4 --progress 0 > out 2> err && fail "a copied unit file"
grep -qF "unit-1.tanbo is not the position its manifest line gives" err || fail "copied: $(cat err)"
"$TANBO" solve --out h --unit -1 > out 2> err && fail "--unit -1"
grep -qF -- '--unit "-1": must be a whole number of 0 or more' err || fail "--unit -1: $(cat err)"
# --out must be a folder that can be made, and a split too deep for --time writes nothing.
touch afile
"$TANBO" solve --topology "grid 4x4" --split 1 --out afile > out 2> err && fail "--out a file"
grep -qF "afile is not a folder" err || fail "--out afile: $(cat err)"
"$TANBO" solve --topology "grid 4x4" --split 1 --out "" > out 2> err && fail "--out ''"
grep -qF -- "--out DIR is empty" err || fail "--out '': $(cat err)"
"$TANBO" solve --topology "grid 19x19" --split 4 --out big --time 0.5 > out 2> err &&
  fail "a split past --time"
grep -qF "were not all found within --time" err || fail "--split past --time: $(cat err)"
[ -e big ] && fail "a split stopped by --time made its folder"

# TERM sent to the script alone (not to its process group, as a scheduler or `kill PID` does)
# stops the units it started: each writes its checkpoint and ends, and the script says so and
# fails. Before, the script ended and its units went on solving. The TERM waits until both
# units catch it (SigCgt in /proc), which they do from the start of their search: a unit
# stopped while it starts has nothing to keep and ends at once (docs/solved.md).
bash "$tests/../scripts/parallel-solve.sh" --out "stopped dir" --jobs 2 --depth 2 --resume -- \
  --topology "grid 6x6" --setup spaced --table 64 > out 2> err &
script=$!
unit_line="stopped dir --unit"  # (what pgrep -f finds in the units' command lines)
units_running() { pgrep -c -f -- "$unit_line" || true; }
units_searching() {
  local pid mask n=0
  for pid in $(pgrep -f -- "$unit_line"); do
    mask=$(awk '/^SigCgt:/ {print $2}' "/proc/$pid/status" 2> /dev/null) || continue
    [ -n "$mask" ] && (((0x$mask >> 14) & 1)) && n=$((n + 1))
  done
  echo "$n"
}
for _ in $(seq 300); do
  [ "$(units_searching)" -ge 2 ] && break
  sleep 0.1
done
[ "$(units_searching)" -ge 2 ] || fail "the 6x6 units did not start their search: $(cat out err)"
kill -TERM "$script"
wait "$script" && fail "a stopped parallel-solve.sh succeeded"
[ "$(units_running)" -eq 0 ] || fail "units still run after TERM: $(pgrep -a -f -- "$unit_line")"
grep -qF "parallel-solve.sh: stopped by SIGTERM" err || fail "TERM: $(cat err)"
grep -qF "units without a result: 0,1" err || fail "TERM, the units named: $(cat err)"
for i in 0 1; do
  [ -s "stopped dir/checkpoints/unit-$i.ckpt" ] || fail "unit $i wrote no checkpoint on TERM"
done

# The same folder cannot be split twice; bad options are refused.
bash "$tests/../scripts/parallel-solve.sh" --out "split dir" --jobs 2 -- --topology "grid 5x5" \
  > out 2> err && fail "a second split into one folder"
grep -qF "holds a split already" err || fail "second split: $(cat err)"
# A folder of another run is refused before anything in it changes: a split not merged yet
# (the message says how to finish it), a study's folder (whose merge.sh the split's would
# replace), a result.txt the merge would overwrite, and a run that holds the folder (two runs
# at once would mix two splits). A folder whose name starts with a dash is made.
solve_script() { bash "$tests/../scripts/parallel-solve.sh" "$@" > out 2> err; }
rm "split dir/result.txt"
solve_script --out "split dir" --jobs 2 -- --topology "grid 4x4" && fail "an unmerged split run again"
grep -qF "not merged yet" err && grep -qF "unit.sh I, then bash" err || fail "unmerged: $(cat err)"
mkdir study && echo "# a study's merge" > study/merge.sh && touch study/shard.sh
solve_script --out study --jobs 2 -- --topology "grid 4x4" && fail "a split into a study's folder"
grep -qF "study holds a study (study/shard.sh)" err || fail "study folder: $(cat err)"
[ "$(cat study/merge.sh)" = "# a study's merge" ] || fail "the study's merge.sh changed"
mkdir taken && echo "an old answer" > taken/result.txt
solve_script --out taken --jobs 2 -- --topology "grid 4x4" && fail "a split over a result.txt"
grep -qF "taken holds result.txt, which this run would write" err || fail "result.txt: $(cat err)"
[ "$(cat taken/result.txt)" = "an old answer" ] || fail "result.txt was overwritten"
mkdir -p busy/.run-lock
solve_script --out busy --jobs 2 -- --topology "grid 4x4" && fail "a split into a folder in use"
grep -qF "another run uses" err || fail "a folder in use: $(cat err)"
[ -e busy/manifest.txt ] && fail "a split was made into a folder in use"
solve_script --out=eq --jobs=2 -- --topology "grid 4x4" --table 4 || fail "--out=eq: $(cat err)"
grep -qx "winner: white" eq/result.txt || fail "--out=eq: $(cat out)"
solve_script --out -dash --jobs 2 -- --topology "grid 4x4" --table 4 || fail "--out -dash: $(cat err)"
grep -qx "winner: white" -- -dash/result.txt || fail "--out -dash: $(cat out)"
[ -e -dash/.run-lock ] && fail "the run left its lock"
# Through -S: the units go to the hosts by ssh (tests/support/tanbo-test-ssh runs them here)
# and the answer is the same; a host whose login gives no $SHELL runs nothing, which is named.
mkdir -p ssh-bin
cp "$tests/support/tanbo-test-ssh" ssh-bin/
export FAKESSH_LOG=$work/ssh.log
PATH=$work/ssh-bin:$PATH PARALLEL_SSH=tanbo-test-ssh solve_script --out "by ssh" --jobs 1 -S 2/nodeA \
  -- --topology "grid 5x5" --setup spaced --table 16 || fail "-S: $(cat out err)"
grep -E '^(winner|winning moves):' "by ssh/result.txt" > ssh.lines
cmp -s whole.lines ssh.lines || fail "-S: another answer: $(cat ssh.lines)"
[[ $(grep -c ssh ssh.log) -ge 2 ]] || fail "-S: the units did not go through ssh"
PATH=$work/ssh-bin:$PATH PARALLEL_SSH=tanbo-test-ssh FAKESSH_SHELL="" solve_script --out "no shell" \
  --jobs 1 -S 1/nodeA -- --topology "grid 4x4" --table 4 && fail "-S without \$SHELL: exit 0"
grep -qF "units without a result: 0" err && grep -qF 'check that $SHELL is set' err ||
  fail "-S without \$SHELL: $(cat err)"
bash "$tests/../scripts/slurm-solve.sh" --out s -S 1/nodeA --jobs 1 -- --topology "grid 4x4" \
  > out 2> err && fail "slurm-solve took -S"
grep -qF -- "-S is parallel-solve.sh's" err || fail "slurm-solve -S: $(cat err)"

# The solve's options after -- are checked before the split (they were once found wrong by
# every unit, after the split had claimed the folder), and a game file given as --game FILE is
# the position split (it was once passed to the units, which refused it, and the default board
# was split instead).
options_refused() {  # WANT OPTIONS...: parallel-solve.sh refuses them saying WANT, making nothing
  local want=$1
  shift
  rm -rf opts
  solve_script --out opts "$@" && fail "$*: accepted"
  grep -qF -- "$want" err || fail "$*: wanted \"$want\": $(cat err)"
  [ -e opts/manifest.txt ] && fail "$*: split anyway"
  return 0
}
options_refused "unrecognised option '--tabel'" --jobs 2 -- --topology "grid 4x4" --tabel 4
options_refused "unrecognised option '--bogus'" --jobs 2 -- --topology "grid 4x4" --bogus
options_refused "--table needs a value" --jobs 2 -- --topology "grid 4x4" --table
options_refused "'--time' cannot be specified more than once" --jobs 2 --time 10 -- \
  --topology "grid 4x4" --time 5
options_refused "the units run with --progress 0" --jobs 2 -- --topology "grid 4x4" --progress 1
options_refused "goes with the script's --resume" --jobs 2 -- --topology "grid 4x4" \
  --checkpoint-every 5
options_refused "--time needs a value" --jobs 2 --time "" -- --topology "grid 4x4"
options_refused "--jobs 100000: expected a whole number from 1 to 99999" --jobs 100000 -- \
  --topology "grid 4x4"
"$TANBO" solve --topology "grid 4x4" --setup spaced --split 1 --out g > out 2> err || fail "g: $(cat err)"
"$TANBO" solve g/units/unit-0.tanbo --table 4 --progress 0 > out 2> err || fail "unit-0: $(cat err)"
grep -E '^(winner|winning moves):' out > game.lines
solve_script --out by-game --jobs 2 -- --game g/units/unit-0.tanbo --table 4 ||
  fail "--game: $(cat err)"
grep -E '^(winner|winning moves):' by-game/result.txt | cmp -s - game.lines ||
  fail "--game: $(cat by-game/result.txt) -- $(cat game.lines)"
# Units that fail are named from the results that are missing (parallel's exit status, once
# printed as the number of failed units, is 255 after Ctrl-C and at most 101).
solve_script --out limited --jobs 2 -- --topology "grid 4x4" --setup spaced --table 4 \
  --nodes 1 && fail "units stopped by --nodes were merged"
missing=$(for i in 0 1 2 3; do [ -e "limited/results/unit-$i.txt" ] || printf '%s,' "$i"; done)
[ -n "$missing" ] || fail "--nodes 1 stopped no unit"
grep -qF "units without a result: ${missing%,} (parallel: exit" err || fail "failed units: $(cat err)"
[ -e limited/result.txt ] && fail "a merge without every unit"
"$TANBO" solve --topology "grid 4x4" --split 2 > out 2> err && fail "--split without --out"
grep -qF -- "--split DEPTH and --out DIR go together" err || fail "--split alone: $(cat err)"

# Through Slurm (a stub sbatch that runs each job here at once), with --wait.
mkdir bin
cp "$tests/support/sbatch-stub" bin/sbatch
PATH="$work/bin:$PATH" SBATCH_STUB_DIR="$work/stub" bash "$tests/../scripts/slurm-solve.sh" \
  --out slurm --jobs 2 --wait --proof --time 10:00 -- --topology "grid 5x5" --setup spaced \
  --table 16 > out 2> err || fail "slurm-solve: $(cat out err)"
grep -E '^(winner|winning moves):' slurm/result.txt > slurm.lines
cmp -s whole.lines slurm.lines || fail "the Slurm answer differs: $(cat slurm.lines)"
grep -qF -- "--array=0-" stub/calls || fail "no array job: $(cat stub/calls)"
"$TANBO" check-proof slurm/proof.txt > out 2> err || fail "the Slurm certificate: $(cat out err)"
# With --wait, standard output is the split's line and the answer; the job ids go to stderr.
PATH="$work/bin:$PATH" SBATCH_STUB_DIR="$work/stub" bash "$tests/../scripts/slurm-solve.sh" \
  --out slurm2 --jobs 2 --wait -- --topology "grid 4x4" --setup spaced --table 4 > out 2> err ||
  fail "slurm-solve 4x4: $(cat out err)"
tail -n +2 out | cmp -s - slurm2/result.txt || fail "--wait printed more than the answer: $(cat out)"
grep -q "^units as job [0-9]* (4 tasks)" err && grep -q "Submitted batch job" err ||
  fail "--wait named no jobs: $(cat err)"

slurm_script() {
  PATH="$work/bin:$PATH" SBATCH_STUB_DIR="$work/stub" bash "$tests/../scripts/slurm-solve.sh" \
    "$@" > out 2> err
}
# More units than Slurm's MaxArraySize (3 here, from a stub scontrol): arrays of 3 tasks and
# fewer, one after another, task a of the second solving unit 3 + a; the same answer. Before,
# sbatch refused the single array of 4 tasks (ids to 3) and nothing ran.
mkdir small-bin
printf '#!/bin/bash\n[[ "$*" == "show config" ]] && echo "MaxArraySize            = 3"\n' > small-bin/scontrol
chmod +x small-bin/scontrol
rm -rf stub
PATH="$work/small-bin:$PATH" slurm_script --out chunked --jobs 2 --wait --proof -- \
  --topology "grid 5x5" --setup spaced --table 16 || fail "slurm-solve in arrays: $(cat out err)"
grep -E '^(winner|winning moves):' chunked/result.txt | cmp -s whole.lines - ||
  fail "the answer of arrays differs: $(cat chunked/result.txt)"
"$TANBO" check-proof chunked/proof.txt > /dev/null 2>&1 || fail "the certificate of arrays"
grep -q "^units as jobs [0-9]* [0-9]* (4 tasks in arrays of at most 3)" err || fail "arrays: $(cat err)"
grep -qF -- "--array=0-2%2 --export=ALL\,TANBO_UNIT_BASE=0 " stub/calls &&
  grep -qF -- "--array=0-0%2 --export=ALL\,TANBO_UNIT_BASE=3 --dependency=afterany:" stub/calls ||
  fail "the arrays submitted: $(cat stub/calls)"
grep -qx "unit 3" chunked/logs/unit-*.log || fail "no log names unit 3: $(ls chunked/logs)"
# A unit from MaxArraySize up that failed is named with its array's base.
PATH="$work/small-bin:$PATH" slurm_script --out chunked-failing --jobs 2 --wait -- \
  --topology "grid 5x5" --setup spaced --table 16 --nodes 1 && fail "arrays of failing units merged"
grep -qF "units without a result: 0,1,2,3" err &&
  grep -qF -- "--export=ALL,TANBO_UNIT_BASE=\$((I - I % 3))" err || fail "failed units in arrays: $(cat err)"
# What would break the #SBATCH lines of the job scripts (a line feed ends one and starts a line
# of shell) or make sbatch refuse them is refused before the split.
slurm_refused() {  # WANT OPTIONS...: slurm-solve.sh refuses them saying WANT, making nothing
  local want=$1
  shift
  rm -rf opts stub/calls
  slurm_script "$@" && fail "$*: accepted"
  grep -qF -- "$want" err || fail "$*: wanted \"$want\": $(cat err)"
  [ -e opts/manifest.txt ] && fail "$*: split anyway"
  [ -e stub/calls ] && fail "$*: submitted anyway"
  return 0
}
slurm_refused "--partition: no line feeds" --out opts --jobs 2 --partition $'a\nb' -- --topology "grid 4x4"
slurm_refused "a folder name with a line feed" --out $'opts\nx' --jobs 2 -- --topology "grid 4x4"
slurm_refused "--time 1h: expected a Slurm time limit" --out opts --jobs 2 --time 1h -- \
  --topology "grid 4x4"
# sbatch refusing the units' job: the split is removed, and the same command runs again.
SBATCH_STUB_FAIL=yes slurm_script --out refused --jobs 2 --wait -- --topology "grid 4x4" \
  --setup spaced --table 4 && fail "a refused submission succeeded"
grep -qF "nothing started, and the split is removed" err || fail "refused: $(cat err)"
[ -e refused/manifest.txt ] && fail "a refused submission kept its split"
slurm_script --out refused --jobs 2 --wait -- --topology "grid 4x4" --setup spaced --table 4 ||
  fail "after a refused submission: $(cat err)"
grep -qx "winner: white" out || fail "after a refused submission: $(cat out)"
# An sbatch that prints no job id is not taken for one.
mkdir bad-bin
printf '#!/bin/bash\necho "sbatch: warning: no id today"\n' > bad-bin/sbatch
chmod +x bad-bin/sbatch
PATH="$work/bad-bin:$PATH" bash "$tests/../scripts/slurm-solve.sh" --out bad-id --jobs 2 -- \
  --topology "grid 4x4" > out 2> err && fail "no job id taken"
grep -qF "sbatch printed 'sbatch: warning: no id today', not a job id" err || fail "id: $(cat err)"
grep -q submitted out && fail "no job id, yet submitted: $(cat out)"
# A split with no units (line 4 ends within 3 plies) is the merge alone (an array 0--1 is no
# array sbatch takes).
slurm_script --out none --jobs 2 --depth 3 --wait --proof -- --topology "line 4" ||
  fail "no units: $(cat err)"
grep -qx "winner: black" out || fail "no units: $(cat out)"
grep -q -- "--array" stub/calls && grep -q "none/unit.sh" stub/calls && fail "an array of no units"
# A unit that fails: --wait names it and the command that runs it again and the merge.
rm -rf stub
slurm_script --out failing --jobs 2 --wait -- --topology "grid 4x4" --setup spaced --table 4 \
  --nodes 1 && fail "units stopped by --nodes were merged"
grep -qF "the merge did not run: units without a result:" err || fail "failed unit: $(cat err)"
grep -qF -- "--array=" err && grep -qF "failing/merge.sh" err || fail "no one-liner: $(cat err)"
# A merge that fails (a program whose merge exits 3) is said to have failed, with its status.
printf '#!/bin/bash\n[[ " $* " == *" --merge "* ]] && exit 3\nexec %q "$@"\n' "$TANBO" > bin/failing-merge
chmod +x bin/failing-merge
TANBO=$work/bin/failing-merge slurm_script --out merge-fails --jobs 2 --wait -- \
  --topology "grid 4x4" --setup spaced --table 4
status=$?
[ $status -eq 3 ] || fail "a failed merge: status $status: $(cat err)"
grep -qF "the merge failed or was not submitted (exit 3)" err || fail "a failed merge: $(cat err)"
echo ok
