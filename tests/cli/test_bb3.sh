#!/bin/bash
# test_bb3.sh - the bb3 ruleset played by mail to the end: the fight at
# the Monmouth hedgerow (campaign/monmouth-1778) from its order mails,
# with the scripted dice tests/cli/bb3/make_dice.py wrote, so that every
# response to a charge, the howitzer and the three officers' falls
# happen on every run; then exported and verified, and seen in fog.
#   usage: test_bb3.sh PATH/TO/despatch SOURCE_DIR
set -u
bin=$1
src=$2
mon="$src/campaign/monmouth-1778"
dice="$src/tests/cli/bb3/monmouth"
work=$(mktemp -d /tmp/despatch-bb3.XXXXXX)
trap 'rm -rf "$work"' EXIT
pass=0
fail=0
db="$work/m.db"
export DESPATCH_TEMPLATES="$src/templates"

. "$src/tests/cli/checks.sh"

d() { "$bin" --db "$db" "$@"; }

# Every number of the table says where it comes from.
check "rules" 0 d rules bb3
says "rules: the types' morale marked" "morale 9 (default)"
says "rules: Warhammer's dice a source" "source  the scatter die's hit faces"
# (the lines under "Numbers:" up to the next that is not indented)
awk '/^Numbers:/ { on = 1; next } on && /^  / { print; seen = 1; next } seen { exit }' \
	"$work/out" >"$work/numbers"
n=$(grep -cE '^  [a-z][a-z0-9.-]+ +[0-9.]+["%]? +[0-9.]+"?-[0-9.]+"? +(text|source|default) ' "$work/numbers")
m=$(wc -l <"$work/numbers")
[ "$n" -gt 85 ] && [ "$n" = "$m" ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: $n of $m numbers of 'rules bb3' say text, source or default"; }
check "new" 0 d new mon "$mon/monmouth-hedgerow.scenario" --sandbox
check "crown" 0 d player add mon crown cornwallis@crown.example.org --password brown-bess-grenadier
check "continental" 0 d player add mon continental wayne@continental.example.org --password hedgerow-mad-anthony
check "start" 0 d start mon
check "welcome" 0 d outbox write "$work/welcome"
cat "$work"/welcome/*welcome* >"$work/out"
says "welcome: the crib" "Command: a d10 at or under your commander's quality + 3"
says "welcome: HELP has the responses" "IF CHARGED FIRE AND FLEE"
says "welcome: HELP has the initiative" "INITIATIVE"
says "welcome: turn 1's order only" "in turn 1, first crown and then continental"
says "welcome: then the initiative" "the order of each turn is decided as the battle"

# Each step: the mail of the side whose step it is, if it wrote one for
# that turn, then the step with its dice.  Which side that is follows the
# initiative rolled at each turn's end, not the scenario.
phases=
step=0
while :; do
	d show mon >"$work/show"
	t=$(sed -n 's/.*turn \([0-9]*\) of 6 ([0-9:]*), \([a-z]*\) phase$/\1 \2/p' "$work/show")
	[ -n "$t" ] || break
	step=$((step + 1))
	set -- $t
	phases="$phases $2"
	mail=$(printf '%s/orders/t%02d-%s.eml' "$mon" "$1" "$2")
	if [ -f "$mail" ]; then
		check "submit t$1 $2" 0 d submit "$mail"
		says "submit t$1 $2" "0 lines not understood"
	fi
	# Continental's orders for turn 4, sent before the initiative that
	# decides who leads it: they must be played in its step of turn 4,
	# whichever that turns out to be.
	if [ "$1 $2" = "3 crown" ]; then
		check "submit ahead" 0 d submit "$mon/orders/ahead-t04-continental.eml"
		says "submit ahead" "0 lines not understood"
	fi
	check "turn $step" 0 d turn mon --dice "$(printf '%s/step%02d.dice' "$dice" $step)"
	[ $step -lt 20 ] || break
done
[ "$step" = 12 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL: $step steps played, not 12"; }
grep -q 'the battle is over' "$work/out" && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: the last step did not end the battle"; }
# Continental won the initiative of turns 3 and 4 (the dice say so).
want=" crown continental crown continental crown continental continental crown crown continental crown continental"
[ "$phases" = "$want" ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: the steps went$phases"; }

check "events" 0 d events mon
for e in "answers with stand the charge" "answers with evade the charge" \
    "answers with flee the charge" "answers with fire and flee the charge" \
    "answers with about face the charge" "halved for turning about" \
    "Lt. Col. Monckton falls at the head of 2nd Grenadiers" \
    "Lt. Col. Ramsay falls at the head of Ramsay's 3rd Maryland" \
    "Abercromby falls at the head of British Light Infantry" \
    "shell bursts on Stewart's 13th Pennsylvania" "shell scatters" \
    "is caught by Moylan's 4th Light Dragoons and destroyed" "pursues" \
    "wheels after its catch" \
    "reaches Ramsay's 3rd Maryland" "short of Butler's light troops" \
    "New Jersey militia runs off the field" "rallies" \
    "reforms after" "Continental wins the initiative" \
    "aimed at officer Abercromby" "Olney's Rhode Islanders moves 2\""; do
	says "events: $e" "$e"
done

# What the players read: the reports in bb3's own words.
check "outbox" 0 d outbox write "$work/mail"
# (the plain part, its quoted-printable soft breaks joined)
cat "$work"/mail/*report* | tr -d '\r' | sed ':a;/=$/{N;s/=\n//;ba}' >"$work/out"
says "report: a response" "met the charge of 2nd Grenadiers with its answer: stand"
says "report: an officer" "Lt. Col. Monckton fell at the head of 2nd Grenadiers"
says "report: a volley" "points and 2 on the d3, modified by"
says "report: figures" "figures"
says "report: the initiative" "Continental won the initiative"
says "report: a broken unit is fleeing" "1st Grenadiers [fleeing]"
grep -qF "[routed]" "$work/out" && { fail=$((fail + 1)); echo "FAIL: a report says routed, not fleeing"; } || pass=$((pass + 1))

check "state" 0 d state mon --json
says "state: fleeing" '"fleeing"'
says "state: morale" '"morale"'
# The scenario's objectives decide it: the rear guard still holds
# Wayne's fence line at the end (the dice say so).
says "state: a result on points" '"winner": "continental"'
says "state: the fence line held" '"held_by": "continental"'
check "map" 0 d map mon "$work/mon.png"
head -c 8 "$work/mon.png" | od -An -c | grep -q 'P   N   G' && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: the map is no PNG"; }

check "export" 0 d export mon "$work/mon.jsonl"
check "verify" 0 "$bin" verify "$work/mon.jsonl"
says "verify" "every step played again"
says "verify" "12 steps were played with dice the operator chose"
for o in "IF CHARGED: STAND" "IF CHARGED FIRE AND FLEE" "INITIATIVE: FIRST" \
    "PICK OFF 2" "JOIN 2nd Grenadiers"; do
	grep -qF "$o" "$work/mon.jsonl" && pass=$((pass + 1)) ||
		{ fail=$((fail + 1)); echo "FAIL: the archive lacks the order '$o'"; }
done
grep -q '"initiative"' "$work/mon.jsonl" && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: the archive lacks bb3's initiative table"; }

# In fog a side sees of the enemy only what the table shows: not its
# response to a charge (its own units' are there).
fog_game() {  # fog_game GAME SCENARIO CROWN-ADDR CONTINENTAL-ADDR
	check "$1: new" 0 d new "$1" "$2"
	check "$1: visibility" 0 d set "$1" visibility fog
	check "$1: crown" 0 d player add "$1" crown "$3" --password "$1-crown-secret"
	check "$1: continental" 0 d player add "$1" continental "$4" \
	    --password "$1-continental-secret"
	check "$1: start" 0 d start "$1"
}
fog_game fog "$mon/monmouth-hedgerow.scenario" c@example.org k@example.org
check "fog: state" 0 d state fog --side continental --json
n=$(grep -o '"response"' "$work/out" | wc -l)
[ "$n" = 7 ] && pass=$((pass + 1)) ||
	{ fail=$((fail + 1)); echo "FAIL: the continental fog view shows $n units' responses, not its own 7"; }
says "fog: own figures" '"figures"'

# A unit 3" deep in a wood is out of sight of an enemy outside it (troops
# see 2" into woods): its side's fog view has it, the enemy's has not,
# nor the enemy's welcome.
cat >"$work/wood.scenario" <<'EOS'
scenario "In the wood"
ruleset bb3
table 48 x 48
terrain wood "The wood" poly 30,30 46,30 46,46 30,46
side crown "Crown"
  commander "Howe" army at 2,2
  brigade "Line" commander "Grey" at 10,4
    unit "23rd Foot" type british-regulars stands 2 sp 6 at 10,10 facing 45
side continental "Continental"
  commander "Greene" army at 46,2
  brigade "Rifles" commander "Morgan" at 40,4
    unit "Morgan's Riflemen" type riflemen stands 2 sp 3 at 38,38 facing 225
    unit "2nd Virginia" type continentals stands 2 sp 6 at 20,10 facing 270
EOS
fog_game wood "$work/wood.scenario" w1@example.org w2@example.org
check "wood: crown's view" 0 d state wood --side crown --json
says "wood: the Virginians in the open are seen" "2nd Virginia"
grep -q "Morgan's Riflemen" "$work/out" && { fail=$((fail + 1)); echo "FAIL: the crown's fog view shows the riflemen in the wood"; } || pass=$((pass + 1))
rm -rf "$work/woodmail"
check "wood: mail" 0 d outbox write "$work/woodmail"
grep -l "w1@example.org" "$work"/woodmail/*wood* | xargs cat | tr -d '\r' |
	sed ':a;/=$/{N;s/=\n//;ba}' >"$work/out"
says "wood: the crown's welcome" "In the wood"
grep -q "Morgan's Riflemen" "$work/out" && { fail=$((fail + 1)); echo "FAIL: the crown's welcome names the riflemen in the wood"; } || pass=$((pass + 1))
check "wood: continental's view" 0 d state wood --side continental --json
says "wood: its own riflemen" "Morgan's Riflemen"

# A unit's IF CHARGED on a line of its own stands apart from its moves: a
# later mail's move for the unit leaves it; and FALL BACK keeps its
# distance when stored (it once lost it, and the turn could not be read).
for n in 1 2; do
	case $n in
	1) body="Butler's light troops: IF CHARGED EVADE
Olney's Rhode Islanders: FALL BACK 2" ;;
	2) body="Butler's light troops: ADVANCE 2" ;;
	esac
	printf 'From: k@example.org\nTo: despatch@example.org\nSubject: orders\nMessage-ID: <merge-%s@continental.example.org>\n\nGAME fog SIDE continental PASSWORD fog-continental-secret\n%s\n' \
	    "$n" "$body" >"$work/merge$n.eml"
	check "merge: mail $n" 0 d submit "$work/merge$n.eml"
	says "merge: mail $n read" "0 lines not understood"
done
check "merge: the replies" 0 d outbox write "$work/merge"
grep -l "merge-2@continental" "$work"/merge/* | xargs cat | tr -d '\r' |
	sed ':a;/=$/{N;s/=\n//;ba}' >"$work/out"
says "merge: the response kept" "kept Butler's light troops: IF CHARGED EVADE"
says "merge: the move new" "new  Butler's light troops: ADVANCE 2"
says "merge: FALL BACK keeps its distance" "kept Olney's Rhode Islanders: FALL BACK 2"
check "merge: the crown's step" 0 d turn fog
check "merge: the continental's step" 0 d turn fog
check "merge: events" 0 d events fog --turn 1
says "merge: the fall back played" "order to Olney's Rhode Islanders"

echo "test_bb3: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
