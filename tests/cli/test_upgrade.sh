#!/bin/bash
# test_upgrade.sh - a game meeting a new rules engine (issue 19, 3;
# docs/ledger.md, "Engines and upgrades").  Part of a game is played by a
# build that says it is engine 3 (the test hook DESPATCH_TEST_ENGINE);
# then this build (engine 5) takes orders but plays nothing until
# 'despatch game upgrade', status says so, the players are told once,
# and after the upgrade the archive verifies, naming the build that
# replays the first span.  The same archive with its checkpoint altered
# is refused at that line; a phase closed for its nonces cannot be
# carried over; the server setting upgrade=auto carries a game over at
# its next due phase.
#   usage: test_upgrade.sh DESPATCH SOURCE_DIR
set -u
bin=$1
src=$2
work=$(mktemp -d /tmp/despatch-upgrade.XXXXXX)
pass=0
fail=0
trap '[ "$fail" = 0 ] && rm -rf "$work" || echo "kept $work"' EXIT
export DESPATCH_FROM="despatch <despatch@referee.example.org>"
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }
d() { "$bin" --db "$work/d.db" "$@"; }
scn=$src/campaign/cowpens-1781/cowpens.scenario
orders=$src/campaign/cowpens-1781/orders
check=$src/tests/ledger/check_archive.py

newgame() {  # newgame NAME [nonces|far]: two players, started
	d new "$1" "$( [ "${2:-}" = far ] && echo "$work/far.scenario" || echo "$scn")" >/dev/null || no "new $1"
	d player add "$1" crown tarleton@crown.example.org --password scarlet-bugle-thistle-harbour >/dev/null
	d player add "$1" continental morgan@continental.example.org --password hickory-ember-cove-wren >/dev/null
	[ "${2:-}" = nonces ] && d set "$1" nonces on >/dev/null
	# Each tick plays a phase whose orders are in (no settle time).
	d set "$1" settle 0 >/dev/null
	d start "$1" >/dev/null 2>&1 || no "start $1"
}
told() { d outbox 2>/dev/null | grep -c "\[$1\] Turn .* waits for the server's upgrade"; }

# An older engine plays the first phases.
export DESPATCH_TEST_ENGINE=3
newgame cowpens
d submit "$orders/t01-crown.eml" >/dev/null && d turn cowpens >/dev/null || no "engine 3: turn 1, crown"
d submit "$orders/t01-continental.eml" >/dev/null && d turn cowpens >/dev/null || no "engine 3: turn 1, continental"
d ledger cowpens >"$work/ledger.out" 2>&1 && ok || no "engine 3's chain: $(tail -2 "$work/ledger.out")"
unset DESPATCH_TEST_ENGINE

# This build: orders are taken, nothing is played.
d submit "$orders/t02-crown.eml" >"$work/submit.out" 2>&1 && ok || no "orders are refused while the game waits: $(cat "$work/submit.out")"
d turn cowpens >"$work/turn.out" 2>&1
[ $? = 1 ] && grep -q "waits for an upgrade: it was played by rules engine 3 and this build plays engine 5; run 'despatch game upgrade cowpens'" "$work/turn.out" &&
	ok || no "turn on a game of engine 3: $(cat "$work/turn.out")"
d show cowpens | grep -q "turn 2 of 6" && ok || no "a step was played under another engine: $(d show cowpens | head -2)"
d status >"$work/status.out" 2>&1
grep -q "WAITS: played by rules engine 3, this build plays 5; run 'despatch game upgrade' for it" "$work/status.out" && ok ||
	no "status does not warn: $(cat "$work/status.out")"
# Every order is in, so each tick finds the phase due: told once, not
# counted as an error each time.
for _ in 1 2 3; do d tick >"$work/tick.out" 2>&1; done
grep -q "error" "$work/tick.out" && no "a waiting game is an error at each tick: $(cat "$work/tick.out")" || ok
[ "$(told cowpens)" = 2 ] && ok || no "the two players were not told once each: $(told cowpens)"
d show cowpens | grep -q "turn 2 of 6" && ok || no "tick played a step under another engine"
# The old engine's archive exports as it is, its span not replayed.
d export cowpens "$work/before.jsonl" >/dev/null 2>&1 && ok || no "export before the upgrade"
"$bin" verify "$work/before.jsonl" >"$work/verify.out" 2>&1 && ok || no "verify before the upgrade: $(tail -3 "$work/verify.out")"
grep -q "NOT REPLAYED: 2 steps (from step 1, rules engine 3)" "$work/verify.out" && grep -q "verify this archive with despatch 0.3.0" "$work/verify.out" &&
	ok || no "verify does not name the build for engine 3: $(cat "$work/verify.out")"

# The upgrade.
d game upgrade cowpens >"$work/up.out" 2>&1 && ok || no "game upgrade: $(cat "$work/up.out")"
grep -q "carried over from rules engine 3 to 5" "$work/up.out" && ok || no "game upgrade says: $(cat "$work/up.out")"
d game upgrade cowpens >"$work/up2.out" 2>&1
[ $? = 1 ] && grep -q "already plays rules engine 5" "$work/up2.out" && ok || no "a second upgrade: $(cat "$work/up2.out")"
[ "$(d outbox 2>/dev/null | grep -c "\[cowpens\] The game goes on under the new rules engine")" = 2 ] && ok || no "the players were not told of the upgrade"
d status | grep -q WAITS && no "status still warns after the upgrade" || ok
d turn cowpens >/dev/null 2>&1 && ok || no "the phase is not played after the upgrade"
d submit "$orders/t02-continental.eml" >/dev/null && d turn cowpens >/dev/null || no "engine 5: turn 2, continental"
d show cowpens | grep -q "turn 3 of 6" && ok || no "the game did not go on: $(d show cowpens | head -2)"
d ledger cowpens >"$work/ledger.out" 2>&1 && ok || no "the chain with an upgrade: $(tail -3 "$work/ledger.out")"
grep -q "act upgrade" "$work/ledger.out" && ok || no "the ledger shows no upgrade: $(cat "$work/ledger.out")"

d export cowpens "$work/a.jsonl" >"$work/export.out" 2>&1 && ok || no "export: $(cat "$work/export.out")"
"$bin" verify "$work/a.jsonl" >"$work/verify.out" 2>&1 && ok || no "verify: $(tail -3 "$work/verify.out")"
grep -q "1 upgrade carried the game to a new rules engine" "$work/verify.out" && ok || no "verify says nothing of the upgrade: $(cat "$work/verify.out")"
grep -q "the 2 other steps, played again, give the events and state their records signed" "$work/verify.out" && ok ||
	no "verify does not replay engine 5's span: $(cat "$work/verify.out")"
grep -q "NOT REPLAYED: 2 steps (from step 1, rules engine 3)" "$work/verify.out" && ok || no "verify: $(cat "$work/verify.out")"
python3 "$check" "$work/a.jsonl" >"$work/check.out" 2>&1 && ok || no "the independent checker: $(cat "$work/check.out")"

# Tampered: the checkpoint's state, one stand's strength.
tamper() {  # tamper IN OUT PY: each line's JSON o, changed by PY
	python3 -c '
import json, sys
out = []
for line in open(sys.argv[1]):
    o = json.loads(line)
    exec(sys.argv[3])
    out.append(json.dumps(o, separators=(",", ":"), ensure_ascii=True))
open(sys.argv[2], "w").write("\n".join(out) + "\n")' "$1" "$2" "$3"
}
cpline=$(grep -n '"checkpoint"' "$work/a.jsonl" | cut -d: -f1)
tamper "$work/a.jsonl" "$work/t1.jsonl" 'if "checkpoint" in o: o["checkpoint"]["stands"][3]["sp"] -= 1'
"$bin" verify "$work/t1.jsonl" >"$work/t.out" 2>&1
[ $? = 1 ] && grep -q "FAILED: line $cpline, step 3, checkpoint: line $cpline's checkpoint is not the state its record signed" "$work/t.out" &&
	ok || no "a checkpoint altered: $(cat "$work/t.out")"
python3 "$check" "$work/t1.jsonl" >"$work/check.out" 2>&1
[ $? = 1 ] && grep -q "line $cpline: checkpoint: does not hash" "$work/check.out" && ok || no "the checker and an altered checkpoint: $(cat "$work/check.out")"
# A key added, the checkpoint dropped, or a step line with a state it
# should not have.
tamper "$work/a.jsonl" "$work/t2.jsonl" 'if "checkpoint" in o: o["checkpoint"]["extra"] = 1'
"$bin" verify "$work/t2.jsonl" >"$work/t.out" 2>&1
[ $? = 1 ] && grep -q "line $cpline, step 3, checkpoint: line $cpline's checkpoint is not a state of this scenario" "$work/t.out" &&
	ok || no "a checkpoint with a key added: $(cat "$work/t.out")"
tamper "$work/a.jsonl" "$work/t5.jsonl" 'if "checkpoint" in o: o["checkpoint"]["stands"][0]["sp"] = 2**40'
"$bin" verify "$work/t5.jsonl" >"$work/t.out" 2>&1
[ $? = 1 ] && grep -q "line $cpline's checkpoint is not a state of this scenario" "$work/t.out" &&
	ok || no "a checkpoint with a number out of range: $(cat "$work/t.out")"
tamper "$work/a.jsonl" "$work/t3.jsonl" 'o.pop("checkpoint", None)'
"$bin" verify "$work/t3.jsonl" >"$work/t.out" 2>&1
[ $? = 1 ] && grep -q "line $cpline, step 3, checkpoint: line $cpline, an upgrade, gives no checkpoint" "$work/t.out" &&
	ok || no "an upgrade without its checkpoint: $(cat "$work/t.out")"
# A state given for a step of engine 3 is checked against its hash.
tamper "$work/a.jsonl" "$work/t4.jsonl" 'exec("if o.get(\"step\") == 2 and \"state\" not in o:\n    cp = [json.loads(l) for l in open(sys.argv[1]) if \"checkpoint\" in l][0][\"checkpoint\"]\n    cp[\"stands\"][0][\"sp\"] += 1\n    o[\"state\"] = cp")'
"$bin" verify "$work/t4.jsonl" >"$work/t.out" 2>&1
[ $? = 1 ] && grep -q "step 2, state: step 2's state in the archive is not the one its record signed" "$work/t.out" &&
	ok || no "a wrong state on a step not replayed: $(cat "$work/t.out")"

# A phase closed for its nonces under engine 3 is not carried over.
export DESPATCH_TEST_ENGINE=3
newgame ford nonces
d turn ford >/dev/null 2>&1   # closes the crown's phase for its nonces
unset DESPATCH_TEST_ENGINE
d game upgrade ford >"$work/up.out" 2>&1
[ $? = 1 ] && grep -q "step 1 is closed for its nonces under engine 3" "$work/up.out" && grep -q "play it with the build that closed it (despatch 0.3.0), then upgrade" "$work/up.out" &&
	ok || no "upgrade of a closed phase: $(cat "$work/up.out")"
d ledger ford | grep -q upgrade && no "a refused upgrade wrote a record" || ok

# A game whose last phase was played by a build that kept no state of it
# (games.last_state NULL): the state the tables carry is its checkpoint
# when it hashes to the phase's record (a first phase with no orders
# leaves no hits), and refused, the game left as it was, when not.
sqlset() { python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' "$work/d.db" "$1"; }
# (Two units 36" apart: whatever the dice, a first phase leaves nothing
# that lasts only a phase.)
printf '%s\n' 'scenario "Far apart"' 'ruleset vnb-wing' 'table 48 x 48' 'turns 2' \
	'side crown "Crown"' '  commander "Howe" army at 24,2' '  brigade "1st" commander "Grey" at 24,4' \
	'    unit "23rd Foot" type british-line stands 1 sp 3 at 24,6 facing 0' \
	'side continental "Continental"' '  commander "Greene" army at 24,46' \
	'  brigade "Va" commander "Weedon" at 24,44' \
	'    unit "2nd Virginia" type continentals-post-1778 stands 1 sp 2 at 24,42 facing 180' >"$work/far.scenario"
export DESPATCH_TEST_ENGINE=3
newgame quiet far
d turn quiet >/dev/null || no "engine 3: quiet's first phase"
newgame damaged far
d turn damaged >/dev/null || no "engine 3: damaged's first phase"
unset DESPATCH_TEST_ENGINE
sqlset "UPDATE games SET last_state = NULL WHERE name IN ('quiet', 'damaged')"
d game upgrade quiet >"$work/up.out" 2>&1 && ok || no "upgrade from the tables' state: $(cat "$work/up.out")"
d turn quiet >/dev/null 2>&1 && d export quiet "$work/q.jsonl" >/dev/null 2>&1 && "$bin" verify "$work/q.jsonl" >"$work/verify.out" 2>&1 &&
	ok || no "quiet's archive after the upgrade: $(tail -3 "$work/verify.out")"
sqlset "UPDATE stands SET sp = sp - 1 WHERE idx = 0 AND game_id = (SELECT id FROM games WHERE name = 'damaged')"
d game upgrade damaged >"$work/up.out" 2>&1
[ $? = 1 ] && grep -q "so no checkpoint can be proved against its record" "$work/up.out" && ok ||
	no "an upgrade from a state that is not the record's: $(cat "$work/up.out")"
d ledger damaged | grep -q upgrade && no "a refused upgrade wrote a record" || ok

# Engines 1 and 2 left no state-hash function here: such a game cannot
# be carried over, and says so (it once crashed the tick).
export DESPATCH_TEST_ENGINE=2
newgame old
unset DESPATCH_TEST_ENGINE
d game upgrade old >"$work/up.out" 2>&1
[ $? = 1 ] && grep -q "whose state this build cannot hash, so it cannot carry the game over: finish it with despatch 0.2.0" "$work/up.out" &&
	ok || no "upgrading an engine-2 game: $(cat "$work/up.out")"
d status | grep -q "this build cannot carry it over: finish it with despatch 0.2.0" && ok || no "status for an engine-2 game: $(d status | grep -A1 ' old ')"

# An archive whose last steps were not replayed cannot show that the
# battle ended early: its header saying so is refused.
tamper "$work/before.jsonl" "$work/t6.jsonl" 'exec("if \"despatch_archive\" in o: o[\"finished\"] = True")'
"$bin" verify "$work/t6.jsonl" >"$work/t.out" 2>&1
[ $? = 1 ] && grep -q "only a replay of its last steps could show: verify it with despatch 0.3.0" "$work/t.out" &&
	ok || no "a cut-short archive said to be over: $(cat "$work/t.out")"

# upgrade=auto: carried over when its next phase is due.
export DESPATCH_TEST_ENGINE=3
newgame mill
unset DESPATCH_TEST_ENGINE
d set --server upgrade auto >/dev/null || no "set upgrade auto"
d set --server upgrade sometimes >"$work/set.out" 2>&1
[ $? = 1 ] && grep -q "upgrade takes manual or auto, not \"sometimes\"" "$work/set.out" && ok || no "a wrong upgrade setting: $(cat "$work/set.out")"
sed 's/^GAME cowpens/GAME mill/; s/^Message-ID: <0b6a/Message-ID: <mill-0b6a/' "$orders/t01-crown.eml" | d submit >/dev/null || no "orders for mill"
d tick >"$work/tick.out" 2>&1 || no "tick: $(cat "$work/tick.out")"
d ledger mill | grep -q "act upgrade" && ok || no "upgrade=auto did not carry mill over: $(d ledger mill | tail -3)"
d show mill | grep -q "continental phase" && ok || no "upgrade=auto: the phase was not played: $(d show mill | head -2)"
d export mill "$work/m.jsonl" >/dev/null 2>&1 && "$bin" verify "$work/m.jsonl" >"$work/verify.out" 2>&1 && ok ||
	no "mill's archive: $(tail -3 "$work/verify.out")"
# Carried over before any step: its checkpoint is the opening state,
# and every step is replayed.
grep -q "NOT REPLAYED" "$work/verify.out" && no "mill's steps were all engine 5's: $(cat "$work/verify.out")" || ok

# Engine 4 to 5 (issue 21: events signed as message ids and values, not
# sentences): both engines are replayed, so an archive spanning the
# upgrade is played again whole, and the checker follows both events
# hashes.
export DESPATCH_TEST_ENGINE=4
newgame hill
sed 's/^GAME cowpens/GAME hill/; s/^Message-ID: <0b6a/Message-ID: <hill-0b6a/' "$orders/t01-crown.eml" | d submit >/dev/null || no "orders for hill"
d turn hill >/dev/null || no "engine 4: hill's first phase"
unset DESPATCH_TEST_ENGINE
d game upgrade hill >"$work/up.out" 2>&1 && grep -q "carried over from rules engine 4 to 5" "$work/up.out" && ok ||
	no "upgrade from engine 4: $(cat "$work/up.out")"
d turn hill >/dev/null 2>&1 && d turn hill >/dev/null 2>&1 || no "engine 5: hill's next phases"
d export hill "$work/h.jsonl" >/dev/null 2>&1 && "$bin" verify "$work/h.jsonl" >"$work/verify.out" 2>&1 && ok ||
	no "hill's archive: $(tail -3 "$work/verify.out")"
grep -q "NOT REPLAYED" "$work/verify.out" && no "hill's engine-4 step was not replayed: $(cat "$work/verify.out")" || ok
grep -q "every step played again gives the events and state its record signed" "$work/verify.out" && grep -q "3 steps of 12" "$work/verify.out" && ok || no "hill's steps: $(cat "$work/verify.out")"
# The engine-4 step's events give their sentences, the engine-5 steps'
# their message ids and values.
python3 - "$work/h.jsonl" <<'PY' && ok || no "hill's archive's events are not each in their engine's form"
import json, sys
steps = [json.loads(l) for l in open(sys.argv[1]) if '"kind":"step"' in l]
first, later = steps[0]["events"], [e for s in steps[1:] for e in s["events"]]
assert first and all("text" in e and "msg" not in e for e in first)
assert later and all("msg" in e and "args" in e and "text" not in e for e in later)
PY
python3 "$check" "$work/h.jsonl" >"$work/check.out" 2>&1 && ok || no "the independent checker on hill: $(cat "$work/check.out")"

# A campaign outlives an upgrade (issue 26): its battle is opened and
# begun by engine 3, carried over by this build in the middle of the
# campaign, fought to its end, and carried back; the campaign's archive
# verifies whole, the battle's first span named as engine 3's.
cat >"$work/t.campaign" <<'EOC'
campaign "The Cowpens approach"
ruleset vnb-wing
calendar 1781-01-16 to 1781-01-20 turn day
place "Thicketty Creek" kind crossroads at 40,70 ground open
place "Cowpens" kind crossroads at 38.9,78.5 ground open
road "Thicketty Creek" to "Cowpens" miles 9
side crown "Crown" nation british
  column "Tarleton's Legion" commander "Lt. Col. Banastre Tarleton" at "Thicketty Creek"
    brigade "Front Line" commander "Maj. Timothy Newmarsh"
      unit "7th Foot (Royal Fusiliers)" type british-line stands 2 sp 2,2 line
side continental "Continental" nation continental
  column "Flying Army" commander "Brig. Gen. Daniel Morgan" at "Cowpens"
    brigade "Main Line" commander "Lt. Col. John Eager Howard"
      unit "Maryland Continentals" type continentals-post-1778 stands 2 sp 2,2 line
EOC
c() { "$bin" --db "$work/c.db" "$@"; }
c campaign new up "$work/t.campaign" >/dev/null 2>&1 || no "campaign new"
c campaign player add up crown a@crown.example.org --password aa-bb >/dev/null 2>&1
c campaign player add up continental b@continental.example.org --password cc-dd >/dev/null 2>&1
c campaign start up >/dev/null 2>&1 || no "campaign start"
printf "Tarleton's Legion: MARCH TO Cowpens\n" | c campaign orders up crown - >/dev/null 2>&1 || no "campaign orders"
export DESPATCH_TEST_ENGINE=3
c campaign turn up 2>&1 | grep -q "battle up-t1-1 opened at Cowpens" && ok || no "engine 3 did not open the campaign's battle"
c turn up-t1-1 >/dev/null 2>&1 && c turn up-t1-1 >/dev/null 2>&1 || no "engine 3: the battle's first phases"
unset DESPATCH_TEST_ENGINE
c turn up-t1-1 >"$work/cturn.out" 2>&1
grep -q "waits for an upgrade" "$work/cturn.out" && ok || no "the campaign's battle did not wait for the upgrade: $(cat "$work/cturn.out")"
c game upgrade up-t1-1 >/dev/null 2>&1 && ok || no "the campaign's battle could not be carried over"
for _ in $(seq 20); do c turn up-t1-1 >/dev/null 2>&1 || break; done
c campaign turn up >"$work/cset.out" 2>&1
grep -q "turn 1 settled" "$work/cset.out" && ok || no "the upgraded battle was not carried back: $(cat "$work/cset.out")"
c export up "$work/up.jsonl" >/dev/null 2>&1 || no "campaign export"
"$bin" verify "$work/up.jsonl" >"$work/cverify.out" 2>&1 &&
	grep -q "1 turn played again, 1 battle verified and carried back" "$work/cverify.out" && ok ||
	no "the campaign with an upgraded battle does not verify: $(cat "$work/cverify.out")"
python3 - "$work/up.jsonl" <<'PY' && ok || no "the campaign's battle archive does not hold its upgrade"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
b = [l for l in lines if l.get("battle") == "up-t1-1"][0]["archive"]
recs = [json.loads(x) for x in b.splitlines() if x.strip()]
# its header names the build that began it; an act with a checkpoint
# carries it over
assert recs[0]["engine"] == "0.3.0"
assert any(r.get("kind") == "act" and "checkpoint" in r for r in recs)
PY

# A campaign begun under campaign engine 1 (strength only) is played on
# by this build under engine 1: two forced-march days running leave its
# brigades unexhausted, as engine 1 did, and its archive verifies as
# engine 1's; one begun under engine 2, and one begun now (engine 3,
# whose battles open with a deployment step), are exhausted by the same
# days, and each verifies as its own engine's.
cat >"$work/far.campaign" <<'EOC'
campaign "The long road"
ruleset vnb-wing
calendar 1781-01-16 to 1781-01-20 turn day
place "Ninety Six" kind town at 0,0
place "Cowpens" kind crossroads at 60,0
place "Gilbert Town" kind town at 160,0
road "Ninety Six" to "Cowpens" miles 60
road "Cowpens" to "Gilbert Town" miles 100
side crown "Crown" nation british
  column "Tarleton's Legion" commander "Lt. Col. Banastre Tarleton" at "Ninety Six"
    brigade "Front Line" commander "Maj. Timothy Newmarsh"
      unit "7th Foot (Royal Fusiliers)" type british-line stands 2 sp 2,2 line
side continental "Continental" nation continental
  column "Flying Army" commander "Brig. Gen. Daniel Morgan" at "Cowpens"
    brigade "Main Line" commander "Lt. Col. John Eager Howard"
      unit "Maryland Continentals" type continentals-post-1778 stands 2 sp 2,2 line
  depot "Cowpens"
EOC
# A command on $db, begun under the older campaign engine $eng by the
# test hook (3 is this build's own).
begun() { if [ "$eng" -lt 3 ]; then DESPATCH_TEST_CAMPAIGN_ENGINE=$eng "$bin" --db "$db" "$@"; else "$bin" --db "$db" "$@"; fi; }
for eng in 1 2 3; do
	db="$work/ce$eng.db"
	ce() { "$bin" --db "$db" "$@"; }
	begun campaign new ce "$work/far.campaign" >/dev/null 2>&1 || no "campaign new, engine $eng"
	ce campaign player add ce crown a@crown.example.org --password aa-bb >/dev/null 2>&1
	ce campaign player add ce continental b@continental.example.org --password cc-dd >/dev/null 2>&1
	begun campaign start ce >/dev/null 2>&1 || no "campaign start, engine $eng"
	ce campaign show ce | grep -q "(vnb-wing), campaign engine $eng\$" && ok || no "campaign show does not name engine $eng: $(ce campaign show ce | head -3)"
	for t in 1 2; do
		printf "Flying Army: FORCED MARCH TO Gilbert Town\n" | ce campaign orders ce continental - >/dev/null 2>&1 || no "engine $eng: forced march orders"
		ce campaign turn ce >"$work/ce.out" 2>&1 || no "engine $eng: turn $t: $(cat "$work/ce.out")"
	done
	rm -rf "$work/ceout$eng"
	ce outbox write "$work/ceout$eng" >/dev/null 2>&1
	n=$(grep -l "Main Line 4 of 4 (exhausted)" "$work/ceout$eng"/* 2>/dev/null | wc -l)
	st=$(ce campaign state ce)
	if [ "$eng" = 1 ]; then [ "$n" = 0 ] && ok || no "engine 1 exhausted a column by forced marching"
		case "$st" in *exhausted*|*forced-march*) no "engine 1's state shows exhaustion: $st" ;; *) ok ;; esac
	else [ "$n" -gt 0 ] && ok || no "engine $eng did not exhaust a column by two forced-march days"
		case "$st" in *'out of supply; exhausted: "Main Line"; 2 forced-march days running'*|*'4 of 4; exhausted: "Main Line"; 2 forced-march days running'*) ok ;;
		*) no "engine $eng's state does not show the exhausted brigade: $st" ;; esac
	fi
	ce export ce "$work/ce$eng.jsonl" >/dev/null 2>&1 || no "engine $eng: campaign export"
	"$bin" verify "$work/ce$eng.jsonl" >"$work/ce.out" 2>&1 &&
		grep -q "played by campaign engine $eng\$" "$work/ce.out" && ok ||
		no "the engine $eng campaign does not verify as engine $eng's: $(cat "$work/ce.out")"
done

# An archive of a campaign played by a build of campaign engine 1
# (bdcae1a, before exhaustion, weather and roads of two rivers: its road
# to Gilbert Town names two rivers and paid one crossing): this build
# plays it again as engine 1's, byte for byte.
"$bin" verify "$src/tests/cli/campaign-engine1.jsonl" >"$work/ce1.out" 2>&1 &&
	grep -q "3 turns played again" "$work/ce1.out" &&
	grep -q "played by campaign engine 1\$" "$work/ce1.out" && ok ||
	no "the engine 1 campaign archive does not verify: $(cat "$work/ce1.out")"

# A battle a campaign of engine 2 opens is played as it was, its first
# step turn 1, a column that came later in the day on the table from the
# start; one of engine 3 opens with the deployment (turn 0) and brings
# that column on at its turn (the Rear Guard, five miles off at dawn,
# reaches Cowpens in the battle's third turn), and each campaign
# verifies with its battle.
cat >"$work/meet.campaign" <<'EOC'
campaign "The meeting"
ruleset vnb-wing
calendar 1781-01-16 to 1781-01-18 turn day
place "Mill" kind town at 0,0
place "Thicketty Creek" kind ford at 0,10
place "Cowpens" kind crossroads at 0,14
road "Thicketty Creek" to "Cowpens" miles 4
road "Mill" to "Cowpens" miles 5
side crown "Crown" nation british
  column "Tarleton's Legion" commander "Lt. Col. Banastre Tarleton" at "Thicketty Creek"
    brigade "Front Line" commander "Maj. Timothy Newmarsh"
      unit "7th Foot (Royal Fusiliers)" type british-line stands 2 sp 2,2 line
  column "Rear Guard" commander "Maj. Archibald McArthur" at "Mill"
    brigade "Highlanders" commander "Capt. Duncan"
      unit "1st Bn 71st Highlanders" type highlanders stands 2 sp 2,2 line
side continental "Continental" nation continental
  column "Flying Army" commander "Brig. Gen. Daniel Morgan" at "Cowpens"
    brigade "Main Line" commander "Lt. Col. John Eager Howard"
      unit "Maryland Continentals" type continentals-post-1778 stands 2 sp 2,2 line
EOC
for eng in 2 3; do
	db="$work/meet$eng.db"
	mt() { "$bin" --db "$db" "$@"; }
	begun campaign new mt "$work/meet.campaign" >/dev/null 2>&1 || no "meet: campaign new, engine $eng"
	# the crown's two columns, a player each (a beginning of a name will
	# do); a column that is not the side's is refused, naming its columns
	mt campaign player add mt crown c@crown.example.org --password ee-ff --columns "Flying Army" >"$work/mt.out" 2>&1 &&
		no "meet: a player given the other side's column" ||
		grep -q "side crown has no column \"Flying Army\" (its columns: \"Tarleton's Legion\", \"Rear Guard\")" "$work/mt.out" && ok ||
		no "meet: the wrong column's refusal: $(cat "$work/mt.out")"
	mt campaign player add mt crown a@crown.example.org --password aa-bb --columns "Tarleton's Legion" >/dev/null 2>&1 || no "meet: player a"
	mt campaign player add mt crown c@crown.example.org --password ee-ff --columns rear >/dev/null 2>&1 || no "meet: player c"
	mt campaign player add mt continental b@continental.example.org --password cc-dd >/dev/null 2>&1
	mt campaign show mt | grep -q 'side crown "Crown": a@crown.example.org (commanding Tarleton'"'"'s Legion), c@crown.example.org (commanding Rear Guard)' && ok ||
		no "meet: show lacks the players' columns: $(mt campaign show mt | grep '^side crown')"
	begun campaign start mt >/dev/null 2>&1 || no "meet: campaign start, engine $eng"
	# by mail, each orders only their own column: a's line for the Rear
	# Guard is refused, c's taken, and both stand for the side
	printf 'From: a@crown.example.org\nTo: despatch@localhost\nSubject: orders\nMessage-ID: <mt-a-%s@crown.example.org>\n\nCAMPAIGN mt SIDE crown PASSWORD aa-bb\nTarleton'"'"'s Legion: MARCH TO Cowpens\nRear Guard: MARCH TO Cowpens\n' "$eng" >"$work/mt-a.eml"
	printf 'From: c@crown.example.org\nTo: despatch@localhost\nSubject: orders\nMessage-ID: <mt-c-%s@crown.example.org>\n\nCAMPAIGN mt SIDE crown PASSWORD ee-ff\nRear Guard: MARCH TO Cowpens\n' "$eng" >"$work/mt-c.eml"
	mt submit "$work/mt-a.eml" >"$work/mt.out" 2>&1; grep -q "orders: 1 order, 1 line not understood" "$work/mt.out" && ok || no "meet: player a's mail: $(cat "$work/mt.out")"
	mt submit "$work/mt-c.eml" >"$work/mt.out" 2>&1; grep -q "orders: 1 order, 0 lines not understood" "$work/mt.out" && ok || no "meet: player c's mail: $(cat "$work/mt.out")"
	rm -rf "$work/mtout"; mt outbox write "$work/mtout" >/dev/null 2>&1
	grep -l '"Rear Guard" is not one of your columns: you command Tarleton'"'"'s Legion' "$work/mtout"/* >/dev/null 2>&1 && ok || no "meet: a's refusal does not say whose the column is"
	mt campaign turn mt >"$work/mt.out" 2>&1 && grep -q "battle mt-t1-1 opened at Cowpens" "$work/mt.out" && ok ||
		no "meet: engine $eng: no battle: $(cat "$work/mt.out")"
	first=$(mt state mt-t1-1 --json | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["turn"], d["phase"])')
	# in the battle each commands his column's brigades, a the army too
	seats=$(mt player list mt-t1-1 --json | python3 -c 'import json, sys; print(sorted((p["email"][0], p["brigades"]) for p in json.load(sys.stdin)))')
	[ "$seats" = "[('a', 'Front Line, army'), ('b', None), ('c', 'Highlanders')]" ] && ok || no "meet: engine $eng's battle seats: $seats"
	# ... and each one's welcome says so
	rm -rf "$work/mtout"; mt outbox write "$work/mtout" >/dev/null 2>&1
	n=$(grep -l "^You command: Highlanders (your side's other players command the rest)" "$work/mtout"/mt-t1-1-*welcome-c-* 2>/dev/null | wc -l)
	[ "$n" = 1 ] && ok || no "meet: engine $eng: c's battle welcome does not say what he commands"
	if [ "$eng" = 2 ]; then want="1 crown"; else want="0 deployment"; fi
	[ "$first" = "$want" ] && ok || no "meet: engine $eng's battle opens with turn '$first', not '$want'"
	# the Highlanders: on the table from the start (engine 2), or off it
	# until they come on in the crown's phase of turn 3 (engine 3)
	late=$(mt state mt-t1-1 --json | python3 -c 'import json, sys; d = json.load(sys.stdin); u = [u for u in d["units"] if u["name"].startswith("1st Bn 71st")][0]; print(u["stands_left"], u["sp"])')
	if [ "$eng" = 2 ]; then want="2 4"; else want="0 4"; fi
	[ "$late" = "$want" ] && ok || no "meet: engine $eng's late column stands '$late' at the start, not '$want'"
	for i in $(seq 1 40); do mt turn mt-t1-1 >/dev/null 2>&1 || break; done
	came=$(mt events mt-t1-1 --json | python3 -c 'import json, sys; d = json.load(sys.stdin); print(" ".join("%s:%d:%s" % (e["msg"], e["turn"], e["phase"]) for e in d["events"] if e["msg"].startswith("arrives")))')
	if [ "$eng" = 2 ]; then want=""; else want="arrives:3:crown arrives-commander:3:crown arrives-commander:3:crown"; fi
	[ "$came" = "$want" ] && ok || no "meet: engine $eng's arrivals are '$came', not '$want'"
	mt campaign turn mt >/dev/null 2>&1 || no "meet: engine $eng: the turn does not settle"
	mt export mt "$work/mt$eng.jsonl" >/dev/null 2>&1 || no "meet: engine $eng: export"
	"$bin" verify "$work/mt$eng.jsonl" >"$work/mt.out" 2>&1 &&
		grep -q "1 battle verified" "$work/mt.out" &&
		grep -q "played by campaign engine $eng\$" "$work/mt.out" && ok ||
		no "meet: engine $eng's campaign does not verify with its battle: $(cat "$work/mt.out")"
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
