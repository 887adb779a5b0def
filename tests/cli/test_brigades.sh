#!/bin/bash
# test_brigades.sh - a battle of 1,600 stands and 80 brigades (issue 24's
# generated battles): a new game takes it, and a player is given
# brigades among its first 64 only (a seat's brigades are a 64-bit mask),
# one past them refused by name and number, not as "no such brigade".
#   usage: test_brigades.sh DESPATCH BENCH_ADJUDICATE
set -u
bin=$1
bench=$2
work=$(mktemp -d /tmp/despatch-brigades.XXXXXX)
pass=0
fail=0
trap '[ "$fail" = 0 ] && rm -rf "$work" || echo "kept $work"' EXIT
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }
db=$work/b.db

"$bench" --rules vnb-wing --sizes 1600 --scenario >"$work/big.scenario" || no "the generator"
[ "$(grep -c '^ *brigade "' "$work/big.scenario")" = 80 ] && ok || no "not 80 brigades: $(grep -c '^ *brigade "' "$work/big.scenario")"
"$bin" --db "$db" new big "$work/big.scenario" >"$work/out" 2>&1 && ok || no "new: $(cat "$work/out")"
# The continental brigades are the battle's 41st to 80th.
"$bin" --db "$db" player add big continental a@x.example.org --brigades "Rebel Brigade 24" >"$work/out" 2>&1 && ok ||
	no "the battle's 64th brigade refused: $(cat "$work/out")"
"$bin" --db "$db" player add big continental b@x.example.org --brigades "Rebel Brigade 25" >"$work/out" 2>&1
got=$?
[ "$got" = 1 ] && grep -qF 'brigade "Rebel Brigade 25" is number 65 of the battle: a player can be given only brigades among its first 64' "$work/out" && ok ||
	no "the 65th brigade: exit $got: $(cat "$work/out")"
"$bin" --db "$db" player add big continental c@x.example.org >"$work/out" 2>&1 && ok || no "a player of the whole side: $(cat "$work/out")"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
