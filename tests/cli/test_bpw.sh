#!/bin/bash
# test_bpw.sh - the bpw ruleset played to the end: Cowpens rated for
# Black Powder Wars (campaign/cowpens-1781/cowpens-bpw.scenario, an
# overlay that includes cowpens.scenario) from the demo's order mails,
# with the dice in tests/cli/bpw/ (a seeded game's, taken from its event
# list, so that a rally with elan, a bloodied unit, shattered units,
# heavy cavalry and cavalry's two quality dice happen on every run);
# then exported and verified, and seen in fog.
#   usage: test_bpw.sh PATH/TO/despatch SOURCE_DIR
set -u
bin=$1
src=$2
cow="$src/campaign/cowpens-1781"
dice="$src/tests/cli/bpw"
work=$(mktemp -d /tmp/despatch-bpw.XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
db="$work/c.db"
export DESPATCH_TEMPLATES="$src/templates"

. "$src/tests/cli/checks.sh"

d() { "$bin" --db "$db" "$@"; }

# Every number of bpw's table says where it comes from, and the type
# defaults are marked as defaults.
check "rules" 0 d rules bpw
awk '/^Numbers:/ { on = 1; next } on && /^  / { print; seen = 1; next } seen { exit }' \
	"$work/out" >"$work/numbers"
n=$(grep -cE '^  [a-z][a-z0-9.-]+ +[0-9.]+["%]? +[0-9.]+"?-[0-9.]+"? +(text|default) ' "$work/numbers")
m=$(wc -l <"$work/numbers")
[ "$n" -ge 16 ] && [ "$n" = "$m" ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: $n of $m numbers of 'rules bpw' say text or default"; }
says "rules: built on vnb-wing" "bpw plays on vnb-wing's table"
says "rules: type defaults" "trained-militia            green    militia           default"

# The overlay includes the battle: a game stores the whole text, so it
# never reads the files again.
cp "$cow/cowpens-bpw.scenario" "$cow/cowpens.scenario" "$work/"
check "new" 0 d new cowpens "$work/cowpens-bpw.scenario" --sandbox
rm "$work/cowpens.scenario"
check "crown" 0 d player add cowpens crown tarleton@crown.example.org --password scarlet-bugle-thistle-harbour
check "continental" 0 d player add cowpens continental morgan@continental.example.org --password hickory-ember-cove-wren
check "start" 0 d start cowpens
check "show" 0 d show cowpens
says "show: the ruleset" "ruleset    bpw"
check "welcome" 0 d outbox write "$work/welcome"
cat "$work"/welcome/*welcome-morgan* | tr -d '\r' | sed ':a;/=$/{N;s/=\n//;ba}' >"$work/out"
says "welcome: bpw's crib" "makes a quality attack: a d6 less its"
says "welcome: the ratings" "Delaware Continentals         Veteran Regulars, elite"
says "welcome: militia" "Hayes's Little River Regiment  Green Militia"
says "welcome: REFORM is a rally check" "REFORM: (disordered) a rally check"
# (the ratings block: the lines after its heading up to the next that
# is not indented four spaces)
awk '/Your units. ratings:/ { on = 1; next } on && /^    / { print; next } on { exit }' \
	"$work/out" >"$work/ratings"
n=$(wc -l <"$work/ratings")
[ "$n" = 10 ] && ! grep -q "Ogilvie" "$work/ratings" && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: the continental welcome rates $n units, or the enemy's"; }

step=0
for t in 1 2 3 4 5 6; do
	for s in crown continental; do
		step=$((step + 1))
		mail=$(printf '%s/orders/t%02d-%s.eml' "$cow" "$t" "$s")
		if [ -f "$mail" ]; then
			check "submit t$t $s" 0 d submit "$mail"
			says "submit t$t $s" "0 lines not understood"
		fi
		check "turn $step" 0 d turn cowpens --dice "$(printf '%s/step%02d.dice' "$dice" $step)"
	done
done
says "the end" "the battle is over"

check "events" 0 d events cowpens
for e in "rallies with elan" "is bloodied" "shatters and is removed from play" \
    "+1 heavy cavalry" "the better of 2 and 3 against disordered foot, +1 heavy cavalry" \
    "strikes first at Ogilvie's Troop (it did not move in its last phase)" \
    "Maryland Continentals drives off British Legion Infantry" \
    "stay locked in melee: neither gives way" \
    "forces no check" "forcing a morale check" "fails to rally" \
    "Delaware Continentals checks its morale: 2 (the better of 4 and 3, elite"; do
	says "events: $e" "$e"
done
lacks "events: no rout costs an SP" "loses 1 SP (rout)"

# What the players read: bpw's sentences, and vnb-wing's for the rest.
check "outbox" 0 d outbox write "$work/mail"
cat "$work"/mail/*report* | tr -d '\r' | sed ':a;/=$/{N;s/=\n//;ba}' >"$work/out"
says "report: a quality attack" "less 4 for its quality, made 2 and forced a morale check"
says "report: a shattered unit" "shattered: a morale check of"
says "report: vnb-wing's fire" "opened fire on"
says "report: the ratings" "Veteran Regulars, elite"
says "report: bloodied" "Seasoned Militia, 1 stand, 1 SP, in skirmish order, bloodied, at"
says "report: a shattered unit off the table" "[gone]  off the table: shattered, its morale broken"

check "state" 0 d state cowpens --json
says "state: grade" '"grade": 3'
says "state: bloodied" '"bloodied": true'
says "state: heavy" '"heavy": true'
says "state: over" '"over": true'
check "map" 0 d map cowpens "$work/cow.png"
head -c 8 "$work/cow.png" | od -An -c | grep -q 'P   N   G' && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: the map is no PNG"; }

check "export" 0 d export cowpens "$work/cow.jsonl"
check "verify" 0 "$bin" verify "$work/cow.jsonl"
says "verify" "every step played again"
says "verify" "12 steps were played with dice the operator chose"
grep -q 'rating \\"Delaware Continentals\\" grade veteran quality regulars elite' "$work/cow.jsonl" &&
	pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: the archive lacks the overlay's ratings"; }

# In fog an enemy's ratings show, what it has been through does not.
check "fog: new" 0 d new fog "$cow/cowpens-bpw.scenario"
check "fog: visibility" 0 d set fog visibility fog
check "fog: crown" 0 d player add fog crown c@example.org --password fog-crown-secret
check "fog: continental" 0 d player add fog continental k@example.org --password fog-continental-secret
check "fog: start" 0 d start fog
# The order reply warns what bpw will do with the orders.
cat >"$work/fog-t1.txt" <<'EOM'
From: c@example.org
To: despatch@localhost
Subject: orders
Message-ID: <fog-t1@example.org>

GAME fog SIDE crown TURN 1 PASSWORD fog-crown-secret
7th Foot: REFORM
Legion Cavalry: CHARGE Thomas's Spartan Regiment
Ogilvie: CHARGE Hayes's Little River Regiment THEN CHARGE Virginia Militia
EOM
check "fog: orders" 0 d submit "$work/fog-t1.txt"
rm -rf "$work/fogmail"
check "fog: reply" 0 d outbox write "$work/fogmail"
cat "$work"/fogmail/*reply* | tr -d '\r' | sed ':a;/=$/{N;s/=\n//;ba}' >"$work/out"
says "reply: REFORM in good order" "7th Foot (Royal Fusiliers) is in good order: REFORM has nothing to rally."
says "reply: who strikes first" "Thomas's Spartan Regiment did not move in its last phase: it strikes first"
says "reply: no breakthrough" "only Ogilvie's Troop's first CHARGE is played: bpw has no breakthrough charges."
check "fog: state" 0 d state fog --side crown --json
n=$(grep -o '"bloodied"' "$work/out" | wc -l)
[ "$n" = 9 ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: the crown's fog view has $n units with bloodied, not its own 9"; }

# An overlay's mistakes name their file and line.
printf 'scenario "x"\nruleset bpw\ninclude "cowpens.scenario"\nrating "No Such Unit" grade green\n' \
	>"$work/bad.scenario"
cp "$cow/cowpens.scenario" "$work/"
check "bad rating" 1 d new bad "$work/bad.scenario"
says "bad rating: the line" "bad.scenario:4: no unit \"No Such Unit\""
sed 's/type british-line morale 4/type no-such-type morale 4/' "$cow/cowpens.scenario" >"$work/cowpens.scenario"
check "bad include" 1 d new bad "$work/bad.scenario"
says "bad include: the included file's line" "cowpens.scenario:58: unknown troop type 'no-such-type'"
printf 'scenario "y"\nruleset bpw\ninclude "missing.scenario"\n' >"$work/gone.scenario"
check "missing include" 1 d new bad "$work/gone.scenario"
says "missing include" "gone.scenario:3: cannot include"

echo "test_bpw: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
