#!/bin/bash
# concurrency.sh - eight 'despatch submit' processes and a 'turn' of the
# largest battle the scenario format allows, at once, on one database:
# every submit is answered with exit 0 (none waits past the busy timeout
# for the turn), every mail is stored exactly once, and the turn is
# played once.
#   concurrency.sh DESPATCH DBSTATE SOURCE_DIR
set -u
bin=$1
dbstate=$2
src=$3
work=$(mktemp -d /tmp/despatch-conc.XXXXXX)
trap 'rm -rf "$work"' EXIT
export DESPATCH_FROM="despatch <umpire@club.example>"
db="$work/c.db"
fail=0

# 128 units a side of 4 stands, in facing rows, every row in range.
{
	printf 'scenario "The Largest Field"\nruleset vnb-wing\ntable 500 x 100\nturns 3\nset dice.infantry.fire 12\n'
	for s in 0 1; do
		if [ $s = 0 ]; then id=crown; face=0; cy=2; else id=continental; face=180; cy=98; fi
		printf 'side %s "Side %s"\n  commander "Army Commander of %s" army at 250,%s\n' $id $id $id $cy
		for br in $(seq 0 31); do
			row=$((br / 8)); col0=$(((br % 8) * 4))
			y=$(awk -v r=$row -v s=$s 'BEGIN { printf "%.2f", 10 + r * 9 + (s ? 4.5 : 0) }')
			by=$(awk -v y=$y -v s=$s 'BEGIN { printf "%.2f", y + (s ? 1.5 : -1.5) }')
			bx=$(awk -v c=$col0 'BEGIN { printf "%.2f", 10 + (c + 1.5) * 14 + 6 }')
			printf '  brigade "Brigade %d of %s" commander "Commander %d of %s" at %s,%s\n' $br $id $br $id $bx $by
			for u in 0 1 2 3; do
				x=$(awk -v c=$col0 -v u=$u 'BEGIN { printf "%.2f", 10 + (c + u) * 14 + 6 }')
				printf '    unit "Unit %d of the very long and formally titled line infantry of the %s" type british-line stands 4 sp 3 at %s,%s facing %d line\n' $((br * 4 + u)) $id $x $y $face
			done
		done
	done
} >"$work/big.scenario"
"$bin" --db "$db" new big "$work/big.scenario" >/dev/null || exit 1
"$bin" --db "$db" player add big crown a@a.example.org --password aaaa-aaaa-1 >/dev/null || exit 1
"$bin" --db "$db" player add big continental b@b.example.org --password bbbb-bbbb-1 >/dev/null || exit 1
"$bin" --db "$db" start big >/dev/null 2>&1 || exit 1

# 8 submitters x 10 mails each: continental's orders for its phase of
# turn 1 (step 2, so the turn of step 1 does not make them late).
for p in $(seq 1 8); do
	for i in $(seq 1 10); do
		printf 'From: B <b@b.example.org>\nTo: umpire@club.example\nSubject: orders\nMessage-ID: <c%d-%d@b.example.org>\n\nGAME big SIDE continental TURN 1 PASSWORD bbbb-bbbb-1\nUnit %d: HOLD\n' $p $i $((128 + (p * 10 + i) % 128)) >"$work/m-$p-$i.eml"
	done
done
# One sender sends all 80: lift the per-sender limit so each is read.
"$bin" --db "$db" set --server rate-limit 0 >/dev/null

start=$(date +%s%N)
for p in $(seq 1 8); do
	(
		for i in $(seq 1 10); do
			"$bin" --db "$db" submit "$work/m-$p-$i.eml" >/dev/null 2>"$work/err-$p-$i"
			echo $? >"$work/rc-$p-$i"
		done
	) &
done
"$bin" --db "$db" turn big >"$work/turn.out" 2>&1
turn_rc=$?
wait
end=$(date +%s%N)

[ "$turn_rc" = 0 ] || { echo "FAIL: the turn exited $turn_rc"; cat "$work/turn.out"; fail=1; }
bad=0
for f in "$work"/rc-*; do
	[ "$(cat "$f")" = 0 ] || { bad=$((bad + 1)); echo "FAIL: ${f##*/}: exit $(cat "$f"): $(cat "${f/rc-/err-}")"; }
done
[ "$bad" = 0 ] || fail=1
stored=$("$dbstate" "$db" | awk '/^== messages/ { m = 1; next } /^== / { m = 0 } m' | wc -l)
[ "$stored" = 80 ] || { echo "FAIL: $stored mails stored, not 80"; fail=1; }
"$bin" --db "$db" show big | grep -q "turn 1 of 3 (12:00), continental phase" || { echo "FAIL: the turn was not played once"; fail=1; }
echo "concurrency: 80 mails from 8 processes and a turn of the largest battle in $(( (end - start) / 1000000 )) ms; $bad submits not answered with 0"
[ "$fail" = 0 ] && echo "81 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
