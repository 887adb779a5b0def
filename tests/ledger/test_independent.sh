#!/bin/bash
# test_independent.sh - the demo's archive checked by check_archive.py, a
# checker written from docs/ledger.md and despatch-archive(5) alone: the
# documentation must be enough to recompute every hash, the state hash of
# every step from the "state" object its line shows among them.  Also a
# battle with Fog of War cards and a bb7 battle, whose states have what the
# demo's lacks (cards, effects, density and disruption).
#   usage: test_independent.sh PATH/TO/despatch SOURCE_DIR
set -u
bin=$1
src=$2
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
work=$(mktemp -d /tmp/despatch-indep.XXXXXX)
trap 'rm -rf "$work"' EXIT
export PYTHONDONTWRITEBYTECODE=1
check=$src/tests/ledger/check_archive.py
"$bin" demo "$work/d" >/dev/null || { echo "FAIL: the demo"; exit 1; }
fail=0
python3 "$check" "$work/d/archive.jsonl" ||
	{ echo "FAIL: the independent checker rejects the demo archive"; fail=1; }
# One hex digit of step 3's record changed: the checker must see it.
sed '5s/"record":"\(.\{200\}\)\([0-9a-f]\)/"record":"\1X\2/; 5s/X0/1/; 5s/X\([1-9a-f]\)/0/' \
	"$work/d/archive.jsonl" >"$work/bad.jsonl"
if cmp -s "$work/bad.jsonl" "$work/d/archive.jsonl"; then
	echo "FAIL: the test did not change the archive"; fail=1
elif python3 "$check" "$work/bad.jsonl" >/dev/null; then
	echo "FAIL: the independent checker accepts a changed record"; fail=1
fi

# Line $2 of archive $1 with its "state" object edited by the Python
# expression $3 (on s, the object); the rest of the line byte for byte.
edit_state() {
	python3 - "$1" "$2" "$3" <<'EOP'
import json, sys
path, no, expr = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(path, "rb").read().decode("ascii").split("\n")
line = lines[no - 1]
at = line.index(',"state":')
s = json.loads(line[at + len(',"state":'):-1])
exec(expr)
text = json.dumps(s, separators=(",", ":")) if s is not None else None
lines[no - 1] = line[:at] + ("" if text is None else ',"state":' + text) + "}"
sys.stdout.write("\n".join(lines))
EOP
}

# One stand's facing turned in step 3's state (line 5), nothing else: the
# checker's state hash no longer matches the record's, and despatch verify
# names the step and the field.
edit_state "$work/d/archive.jsonl" 5 \
	's["stands"][0]["facing"] = (s["stands"][0]["facing"] + 90) % 360' \
	>"$work/facing.jsonl"
if cmp -s "$work/facing.jsonl" "$work/d/archive.jsonl" ||
    ! cmp -s <(sed 5d "$work/facing.jsonl") <(sed 5d "$work/d/archive.jsonl"); then
	echo "FAIL: the facing test did not change the archive as meant"; fail=1
fi
out=$(python3 "$check" "$work/facing.jsonl")
if [ $? = 0 ] || ! grep -q "line 5: record.state_hash" <<<"$out"; then
	echo "FAIL: the independent checker accepts a stand's facing changed:"
	echo "$out"; fail=1
fi
out=$("$bin" verify "$work/facing.jsonl")
if [ $? = 0 ] || ! grep -q "FAILED: line 5, step 3, state.stands\[0\].facing" <<<"$out"; then
	echo "FAIL: despatch verify accepts a stand's facing changed, or does not name it:"
	echo "$out"; fail=1
fi
# A step line without its state: not what despatch writes.
edit_state "$work/d/archive.jsonl" 4 's = None' >"$work/nostate.jsonl"
out=$("$bin" verify "$work/nostate.jsonl")
if [ $? = 0 ] || ! grep -q 'FAILED: line 4, step 2, state: .*carries no "state"' <<<"$out"; then
	echo "FAIL: despatch verify accepts a step line without its state:"
	echo "$out"; fail=1
fi
out=$(python3 "$check" "$work/nostate.jsonl")
if [ $? = 0 ] || ! grep -q "line 4: state" <<<"$out"; then
	echo "FAIL: the independent checker accepts a step line without its state"
	fail=1
fi

# The same values in uppercase hex (issue 19, 8): they would read the same,
# but despatch writes lowercase, and an archive has one spelling only.
for what in 'sig:3' 'head:4' 'record:5' 'salt:4'; do
	key=${what%%:*} no=${what##*:}
	python3 - "$work/d/archive.jsonl" "$key" "$no" >"$work/upper.jsonl" <<'EOP'
import re, sys
path, key, no = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(path).read().split("\n")
pat = re.compile('("%s":")([0-9a-f]+)(")' % key)
lines[no - 1], n = pat.subn(lambda m: m.group(1) + m.group(2).upper() + m.group(3),
    lines[no - 1], count=1)
assert n == 1 and any(c in "abcdef" for c in pat.search(open(path).read().split("\n")[no - 1]).group(2))
sys.stdout.write("\n".join(lines))
EOP
	if cmp -s "$work/upper.jsonl" "$work/d/archive.jsonl"; then
		echo "FAIL: the uppercase test did not change $key on line $no"; fail=1
	elif "$bin" verify "$work/upper.jsonl" >/dev/null 2>&1; then
		echo "FAIL: despatch verify accepts $key in uppercase hex on line $no"; fail=1
	fi
done

# The skirmish of the referee's tests with Fog of War cards, a card played
# on a unit (an effect in play) and one discarded, played out and exported.
db=$work/mill.db
cat >"$work/mill.scenario" <<'EOS'
scenario "Skirmish at the Mill"
ruleset vnb-wing
table 48 x 48
turns 2
side crown "Crown"
  commander "Howe" army at 24,4
  brigade "1st" commander "Grey" at 24,8
    unit "23rd Foot" type british-line stands 2 sp 3 at 24,10 facing 0
side continental "Continental"
  commander "Greene" army at 24,44
  brigade "Va" commander "Weedon" at 24,34
    unit "2nd Virginia" type continentals-post-1778 stands 2 sp 2 at 24,30 facing 180
cards
hand crown "Good Going" "Regulars!!" "Bad Going" "Panic!!!"
hand continental "Good Going" "Bad Going" "Liberty or Death!!!" "Local Knowledge"
EOS
printf 'From: Howe <howe@crown.example.org>\nTo: despatch@referee.example.org\nSubject: orders\nMessage-ID: <mill1@crown.example.org>\n\nGAME mill SIDE crown TURN 1 PASSWORD scarlet-bugle-thistle-harbour\nPLAY CARD "Good Going" ON 23rd Foot\nDISCARD CARD "Panic!!!"\n23rd Foot: ADVANCE 2\n' >"$work/mill1.eml"
if "$bin" --db "$db" new mill "$work/mill.scenario" >"$work/out" 2>&1 &&
    "$bin" --db "$db" player add mill crown howe@crown.example.org --password scarlet-bugle-thistle-harbour >>"$work/out" 2>&1 &&
    "$bin" --db "$db" player add mill continental greene@continental.example.org --password hickory-ember-cove-wren >>"$work/out" 2>&1 &&
    "$bin" --db "$db" start mill >>"$work/out" 2>&1 &&
    "$bin" --db "$db" submit "$work/mill1.eml" >>"$work/out" 2>&1 &&
    "$bin" --db "$db" turn mill >>"$work/out" 2>&1 &&
    "$bin" --db "$db" turn mill >>"$work/out" 2>&1 &&
    "$bin" --db "$db" export mill "$work/mill.jsonl" >>"$work/out" 2>&1; then
	out=$(python3 "$check" "$work/mill.jsonl") ||
		{ echo "FAIL: the independent checker rejects a battle with cards:"; echo "$out"; fail=1; }
	grep -q '"effects":\[{"card"' "$work/mill.jsonl" && grep -q '"commanders_out":' "$work/mill.jsonl" ||
		{ echo "FAIL: the battle with cards shows no card effect in its state"; fail=1; }
	"$bin" verify "$work/mill.jsonl" >/dev/null ||
		{ echo "FAIL: despatch verify rejects the battle with cards"; fail=1; }
else
	echo "FAIL: the battle with cards could not be played:"; cat "$work/out"; fail=1
fi

# bb7: Freeman's Farm for two turns from its order mails (units with
# density, disruption and markers).
ff=$src/campaign/freemans-farm-1777
fdb=$work/ff.db
if "$bin" --db "$fdb" new ff "$ff/freemans-farm.scenario" >"$work/out" 2>&1 &&
    "$bin" --db "$fdb" player add ff crown burgoyne@crown.example.org --password gentleman-johnny-oak >>"$work/out" 2>&1 &&
    "$bin" --db "$fdb" player add ff continental morgan@continental.example.org --password turkey-call-rifle >>"$work/out" 2>&1 &&
    "$bin" --db "$fdb" start ff >>"$work/out" 2>&1; then
	for t in t01-continental t01-crown t02-continental t02-crown; do
		"$bin" --db "$fdb" submit "$ff/orders/$t.eml" >>"$work/out" 2>&1 &&
			"$bin" --db "$fdb" turn ff >>"$work/out" 2>&1 ||
			{ echo "FAIL: bb7: $t"; cat "$work/out"; fail=1; break; }
	done
	if "$bin" --db "$fdb" export ff "$work/ff.jsonl" >>"$work/out" 2>&1; then
		out=$(python3 "$check" "$work/ff.jsonl") ||
			{ echo "FAIL: the independent checker rejects a bb7 battle:"; echo "$out"; fail=1; }
		grep -q '"density":[1-9]' "$work/ff.jsonl" ||
			{ echo "FAIL: the bb7 battle's state shows no density"; fail=1; }
	else
		echo "FAIL: bb7: export"; cat "$work/out"; fail=1
	fi
else
	echo "FAIL: bb7: the game could not be set up:"; cat "$work/out"; fail=1
fi
[ "$fail" = 0 ] && echo "ok: the independent checker agrees with despatch"
exit $fail
