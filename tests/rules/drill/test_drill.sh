#!/bin/bash
# test_drill.sh - the ruleset seam (issue 21): the test-only drill
# ruleset (drill.c), registered by tests/CMakeLists.txt alone, takes a
# player's orders by mail, plays its steps through the referee and
# verifies through 'despatch verify' in the test build; the installed
# build knows no such ruleset and says so.
#   usage: test_drill.sh DESPATCH_TEST DESPATCH SOURCE_DIR
set -u
bin=$1
installed=$2
src=$3
work=$(mktemp -d /tmp/despatch-drill.XXXXXX)
pass=0
fail=0
trap '[ "$fail" = 0 ] && rm -rf "$work" || echo "kept $work"' EXIT
export DESPATCH_FROM="despatch <despatch@referee.example.org>"
export DESPATCH_TEMPLATES=$src/tests/rules/drill
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }
d() { "$bin" --db "$work/d.db" "$@"; }

"$bin" rules | grep -q '^ *drill ' && ok || no "the test build does not list drill: $("$bin" rules)"
"$installed" rules | grep -q 'drill' && no "the installed build lists the test-only ruleset" || ok

d new drill "$src/tests/rules/drill/drill.scenario" >/dev/null || no "new"
d player add drill red red@example.org --password amber-birch-cobalt-dune >/dev/null || no "player red"
d player add drill blue blue@example.org --password ember-fjord-garnet-heath >/dev/null || no "player blue"
d start drill >/dev/null 2>&1 || no "start"

# Red's orders by mail: understood by the drill's own verb table.
cat >"$work/red.eml" <<'MAIL'
Message-ID: <drill-1@example.org>
Date: Wed, 02 Dec 2026 09:00:00 +0000
From: Red <red@example.org>
To: despatch <despatch@referee.example.org>
Subject: drill orders
Content-Type: text/plain; charset=UTF-8

GAME drill SIDE red TURN 1 PASSWORD amber-birch-cobalt-dune
First Red: HOLD
Second Red: ADVANCE 3
MAIL
d submit "$work/red.eml" >"$work/submit.out" 2>&1 || no "submit: $(cat "$work/submit.out")"
d outbox --json >"$work/outbox.json" 2>&1
d outbox write "$work/out" >/dev/null 2>&1
reply=$(grep -l 'drill orders' "$work/out"/*.eml 2>/dev/null | head -1)
[ -n "$reply" ] && grep -q 'First Red: HOLD' "$reply" && ok || no "the reply does not echo the HOLD: $(ls "$work/out")"
# The welcome's help gives examples in the drill's own orders only.
welcome=$(ls "$work/out"/*welcome-red*.eml 2>/dev/null | head -1)
[ -n "$welcome" ] && grep -q 'Red companies brigade: HOLD' "$welcome" && ! grep -q 'ADVANCE\|WHEEL\|MOVE TO' "$welcome" && ok ||
	no "the welcome's examples are not the drill's: $(grep -A6 'For example' "$welcome")"
# ADVANCE is not a drill verb: refused on its line, with the verbs it has.
[ -n "$reply" ] && grep -q '"ADVANCE 3" is not an order I know; orders are HOLD' "$reply" && ok ||
	no "ADVANCE was not refused by the drill's table"

# The sides take turns to lead (drill.c's turn_order): red, blue, then
# blue, red.  The open phase, the next phase's mail and the archive all
# follow the ruleset's order, not the scenario's.
phases=
for i in 1 2 3 4; do
	phases="$phases $(d show drill | sed -n 's/.*), \([a-z]*\) phase$/\1/p')"
	d turn drill >"$work/turn$i.out" 2>&1 || no "turn $i: $(cat "$work/turn$i.out")"
done
[ "$phases" = " red blue blue red" ] && ok || no "the phases are not played in the ruleset's order: $phases"
d outbox write "$work/out2" >/dev/null 2>&1
grep -l 'Subject: \[drill\] Turn 2, blue phase' "$work/out2"/*blue*.eml >/dev/null 2>&1 && ok ||
	no "blue is not told it leads turn 2: $(grep -h '^Subject' "$work/out2"/*.eml | sort -u)"
grep -q 'the battle is over' "$work/turn4.out" && ok || no "four steps do not end the battle: $(cat "$work/turn4.out")"
# Each step moved every stand an inch ahead: red from y 8 to 12, blue
# from 40 to 36, and logged its one event.
d state drill >"$work/state.out"
grep -q 'at 20,12 facing 0' "$work/state.out" && grep -q 'at 28,36 facing 180' "$work/state.out" && ok ||
	no "the drill did not move each stand 4 inches in 4 steps: $(grep ' at ' "$work/state.out")"
[ "$(d events drill | grep -c '4 units step forward 1"')" = 4 ] && ok || no "not one event a step: $(d events drill)"
d events drill --json | grep -q '"kind": *"move"' && ok || no "events --json lacks the drill's event"

d export drill "$work/drill.json" >/dev/null || no "export"
d verify "$work/drill.json" >"$work/verify.out" 2>&1 && grep -q 'every step played again' "$work/verify.out" && ok ||
	no "the test build does not verify the drill archive: $(cat "$work/verify.out")"
# The installed build cannot replay it, and says which ruleset it lacks.
"$installed" verify "$work/drill.json" >"$work/verify2.out" 2>&1
[ $? != 0 ] && grep -q 'this build has no ruleset drill' "$work/verify2.out" && ok ||
	no "the installed build verified a drill archive: $(cat "$work/verify2.out")"

echo "test_drill: $pass passed, $fail failed"
[ "$fail" = 0 ]
