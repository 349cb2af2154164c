#!/bin/bash
# Game files with real concurrent processes: writers of one file take turns (no move reported
# as played is ever lost, a refused command leaves no trace), `new` creates exclusively, a lock
# held too long makes a writer give up with a message, readers never see a half-written file.
# usage: bash game_file_races.sh TANBO TESTDIR
set -u
TANBO=$1
source "$(dirname "${BASH_SOURCE[0]}")/../support/cli.sh"
cd "$work"

# The legal first points of both colours on 19x19 (Figure A), from the engine protocol.
legal=$(printf 'legal_moves black\nlegal_moves white\n' | "$TANBO" gtp | tr -d '=' | tr '\n' ' ')
points=($legal)
[ "${#points[@]}" -ge 40 ] || fail "expected many legal points, got: $legal"

# The moves a game file holds, one "colour point" a line.
moves_in() { sed -n '/^moves$/,$p' "$1" | grep -E '^[a-z]+ [A-Za-z0-9,]+$' | grep -v -e '^result ' -e ' resigns$' || true; }

# Runs every given command at once in its own process; leaves in $work/out/N the command's
# output and in $work/out/N.rc its exit code.
race() {
  rm -rf out && mkdir out
  local i=0 pids=()
  for cmd in "$@"; do
    (eval "$cmd" > "out/$i" 2>&1; echo $? > "out/$i.rc") &
    pids+=($!)
    i=$((i + 1))
  done
  wait "${pids[@]}"
}

# 1. Many `tanbo move` at once, three rounds: the file holds exactly the moves of the commands
#    that exited 0, each for the colour that command reported, in an order the rules accept.
"$TANBO" new g.tanbo --players ann,bob > /dev/null || fail "new"
for round in 1 2 3; do
  cmds=()
  for p in "${points[@]}"; do cmds+=("'$TANBO' move g.tanbo $p"); done
  race "${cmds[@]}"
  "$TANBO" show g.tanbo > /dev/null 2> err || fail "round $round: the file no longer replays: $(cat err)"
  reported=$(cat out/*[0-9] | sed -n 's/^\(Black\|White\) plays \([A-Z0-9]*\).*/\1 \2/p' |
             tr 'A-Z' 'a-z' | sort)
  ok=$(cat out/*.rc | grep -c '^0$')
  [ "$ok" -ge 1 ] || fail "round $round: no move succeeded"
  inside=$(moves_in g.tanbo | tr "A-Z" "a-z" | sort)
  played_now=$(comm -13 <(echo "${before:-}") <(echo "$inside") | sed '/^$/d')
  [ "$(echo "$reported" | sed '/^$/d' | wc -l)" -eq "$ok" ] ||
    fail "round $round: $ok commands exited 0 but $(echo "$reported" | wc -l) reported a move"
  [ "$played_now" = "$reported" ] ||
    fail "round $round: the file's new moves differ from the reported ones: $played_now -- $reported"
  for f in out/*.rc; do
    [ "$(cat "$f")" = 0 ] && continue
    grep -q "^tanbo move: " "${f%.rc}" || fail "round $round: a refusal without a message: $(cat "${f%.rc}")"
  done
  before=$inside
done

# 2. `move` and `undo` at once: the length of the game is the start's plus the moves that
#    exited 0 less the undos that exited 0.
start=$(moves_in g.tanbo | wc -l)
cmds=()
for p in "${points[@]:0:24}"; do cmds+=("'$TANBO' move g.tanbo $p"); done
for i in $(seq 12); do cmds+=("'$TANBO' undo g.tanbo"); done
race "${cmds[@]}"
"$TANBO" show g.tanbo > /dev/null || fail "move/undo: the file no longer replays"
moved=0 undone=0
for i in $(seq 0 $((${#cmds[@]} - 1))); do
  [ "$(cat out/$i.rc)" = 0 ] || continue
  if [ "$i" -lt 24 ]; then moved=$((moved + 1)); else undone=$((undone + 1)); fi
done
now=$(moves_in g.tanbo | wc -l)
[ "$now" -eq $((start + moved - undone)) ] ||
  fail "move/undo: $start + $moved moves - $undone undos should give $((start + moved - undone)) moves, the file has $now"

# 3. `move` and both players' `resign` at once: exactly one resignation wins; no move after it.
"$TANBO" new r.tanbo --players ann,bob > /dev/null || fail "new r"
cmds=()
for p in "${points[@]:0:20}"; do cmds+=("'$TANBO' move r.tanbo $p"); done
cmds+=("'$TANBO' resign r.tanbo ann" "'$TANBO' resign r.tanbo bob")
race "${cmds[@]}"
resigned=$(( $(cat out/20.rc) == 0 ? 1 : 0 ))
resigned=$((resigned + ($(cat out/21.rc) == 0 ? 1 : 0)))
[ "$resigned" -eq 1 ] || fail "resign race: $resigned resignations succeeded"
tail -n 2 r.tanbo | head -n 1 | grep -q ' resigns$' || fail "resign race: the resignation is not the last turn"
moved=$(cat out/{0..19}.rc | grep -c '^0$')
[ "$(moves_in r.tanbo | wc -l)" -eq "$moved" ] || fail "resign race: moves lost or invented"

# 4. Many `new` on one path: one creates it, every other is told it exists; the file is the
#    winner's.
cmds=()
for i in $(seq 20); do cmds+=("'$TANBO' new n.tanbo --players p$i,q$i"); done
race "${cmds[@]}"
[ "$(cat out/*.rc | grep -c '^0$')" -eq 1 ] || fail "new race: not exactly one creator"
winner=$(grep -l '^0$' out/*.rc)
i=$(( ${winner//[^0-9]/} + 1 ))
grep -q "^player black p$i$" n.tanbo || fail "new race: the file is not the creator's"
for f in out/*.rc; do
  [ "$(cat "$f")" = 0 ] && continue
  grep -q "exists already" "${f%.rc}" || fail "new race: loser not told: $(cat "${f%.rc}")"
done

# 5. A writer that cannot get the lock in time gives up with a message and changes nothing;
#    one with time enough waits and plays.
#    (A game of its own with a move to take back: the races above may have undone g.tanbo to
#    its start.)
"$TANBO" new l.tanbo --players ann,bob > /dev/null || fail "new l"
"$TANBO" move l.tanbo "${points[0]}" > /dev/null || fail "first move of l"
flock l.tanbo sleep 2 &
holder=$!
sleep 0.3
cp l.tanbo before
TANBO_LOCK_TIMEOUT=0.2 "$TANBO" undo l.tanbo > /dev/null 2> err && fail "undo ran while the file was locked"
grep -q "another program is writing it" err || fail "lock timeout message: $(cat err)"
cmp -s l.tanbo before || fail "a writer that gave up changed the file"
TANBO_LOCK_TIMEOUT=30 "$TANBO" undo l.tanbo > /dev/null 2> err || fail "a patient writer failed: $(cat err)"
kill -0 "$holder" 2> /dev/null && fail "the patient writer did not wait for the lock"
wait "$holder"

# 6. Readers never see a half-written file: show runs in a loop while writers play and undo.
(for i in $(seq 30); do "$TANBO" move g.tanbo "${points[$((i % ${#points[@]}))]}" > /dev/null 2>&1
   "$TANBO" undo g.tanbo > /dev/null 2>&1; done) &
writer=$!
bad=0
for i in $(seq 60); do "$TANBO" show g.tanbo > /dev/null 2>> reader_err || bad=$((bad + 1)); done
wait "$writer"
[ "$bad" -eq 0 ] || fail "a reader failed $bad times: $(head -3 reader_err)"
ls -a | grep -q '\.tmp\.' && fail "temporary files left behind: $(ls -a)"
echo "game file races: ok"
