#!/bin/bash
# harness.sh - kills despatch at every write, fsync and rename of a
# 'submit' and of a 'turn', and fills the disk at some of them, and checks
# after each that the database is whole: integrity_check and foreign keys
# clean, the work either wholly done or not at all, and a rerun ending in
# exactly the state of a run that was never interrupted (no mail both
# stored and lost, no step played twice).
#
#   harness.sh DESPATCH CRASHPOINT.so DBSTATE SOURCE_DIR [STRIDE]
#
# STRIDE 1 (the default) kills at every point; CI runs it so. A larger
# stride samples. Prints the counts and exits non-zero on any partial
# state.
set -u
bin=$1
lib=$2
dbstate=$3
src=$4
stride=${5:-1}
work=$(mktemp -d /tmp/despatch-crash.XXXXXX)
trap 'rm -rf "$work"' EXIT
export DESPATCH_FROM="despatch <umpire@club.example>"
fail=0
points=0
applied=0
notapplied=0
partial=0

db() { echo "$work/$1.db"; }
# A copy is the database and the keyed-hash keys beside it (the players'
# secrets are hashed with them).
copydb() {
	rm -f "$(db "$2")" "$(db "$2")-wal" "$(db "$2")-shm"
	cp -p "$(db "$1")" "$(db "$2")"
	cp -p "$(db "$1").key.secrets" "$(db "$2").key.secrets"
}

# The game: Cowpens, two players, started; then the same with turn-1
# orders in for both sides.
base=$(db base)
"$bin" --db "$base" new cw "$src/campaign/cowpens-1781/cowpens.scenario" >/dev/null || exit 1
"$bin" --db "$base" player add cw crown tarleton@crown.example.org --password scarlet-bugle-thistle-harbour >/dev/null || exit 1
"$bin" --db "$base" player add cw continental morgan@continental.example.org --password hickory-ember-cove-wren >/dev/null || exit 1
"$bin" --db "$base" start cw >/dev/null 2>&1 || exit 1
sed 's/GAME cowpens/GAME cw/' "$src/campaign/cowpens-1781/orders/t01-crown.eml" >"$work/crown.eml"
sed 's/GAME cowpens/GAME cw/' "$src/campaign/cowpens-1781/orders/t01-continental.eml" >"$work/cont.eml"
copydb base withorders
"$bin" --db "$(db withorders)" submit "$work/crown.eml" "$work/cont.eml" >/dev/null || exit 1

# run NAME BASE-DB COMMAND...: kill COMMAND at every point in turn.
run() {
	local name=$1 from=$2 rerun_done=$3
	shift 3
	local before after n k got st
	copydb "$from" clean
	CRASHPOINT_COUNT="$work/count" LD_PRELOAD="$lib" "$@" "$(db clean)" >/dev/null 2>&1 || { echo "FAIL: $name: the clean run failed"; fail=1; return; }
	n=$(cat "$work/count")
	"$dbstate" "$(db "$from")" >"$work/before" || { fail=1; return; }
	"$dbstate" "$(db clean)" >"$work/after" || { fail=1; return; }
	cmp -s "$work/before" "$work/after" && { echo "FAIL: $name: the clean run changed nothing"; fail=1; return; }
	for ((k = 1; k <= n; k += stride)); do
		copydb "$from" k
		CRASHPOINT_KILL_AT=$k LD_PRELOAD="$lib" "$@" "$(db k)" >/dev/null 2>&1
		got=$?
		points=$((points + 1))
		"$dbstate" "$(db k)" >"$work/state" 2>&1
		if ! grep -qx ok "$work/state"; then
			echo "FAIL: $name: killed at $k of $n: the database is damaged"
			partial=$((partial + 1)); fail=1; continue
		fi
		if cmp -s "$work/state" "$work/before"; then
			notapplied=$((notapplied + 1))
		elif cmp -s "$work/state" "$work/after"; then
			applied=$((applied + 1))
			# A turn that got through is not played again (a rerun
			# would play the next step); a mail is fed again, as an
			# MTA would, and must be seen as a duplicate.
			[ "$rerun_done" = yes ] && continue
		else
			echo "FAIL: $name: killed at $k of $n (exit $got): partly done"
			diff "$work/before" "$work/state" | head -5
			partial=$((partial + 1)); fail=1; continue
		fi
		# Done again, it ends where an uninterrupted run ends.
		"$@" "$(db k)" >/dev/null 2>&1
		st=$?
		if [ "$st" != 0 ]; then
			echo "FAIL: $name: the rerun after a kill at $k exited $st"; fail=1
		fi
		"$dbstate" "$(db k)" >"$work/state" 2>&1
		if ! cmp -s "$work/state" "$work/after"; then
			echo "FAIL: $name: after a kill at $k and a rerun, not the clean result"
			diff "$work/after" "$work/state" | head -5
			fail=1
		fi
	done
	# A full disk from point k on: exit 75, then stored once space returns.
	for k in 1 $((n / 2)) $n; do
		[ "$k" -ge 1 ] || continue
		copydb "$from" k
		CRASHPOINT_ENOSPC_AT=$k LD_PRELOAD="$lib" "$@" "$(db k)" >/dev/null 2>&1
		got=$?
		"$dbstate" "$(db k)" >"$work/state" 2>&1
		if ! cmp -s "$work/state" "$work/before" && ! cmp -s "$work/state" "$work/after"; then
			echo "FAIL: $name: disk full at $k of $n: partly done"; fail=1
		fi
		if [ "$got" != 75 ] && ! cmp -s "$work/state" "$work/after"; then
			echo "FAIL: $name: disk full at $k of $n: exit $got, not 75"; fail=1
		fi
		if ! cmp -s "$work/state" "$work/after" || [ "$rerun_done" = no ]; then
			"$@" "$(db k)" >/dev/null 2>&1
		fi
		"$dbstate" "$(db k)" >"$work/state" 2>&1
		cmp -s "$work/state" "$work/after" || { echo "FAIL: $name: after a full disk at $k, not the clean result"; fail=1; }
	done
	echo "crash harness: $name: $n write points"
}

submit_to() { "$bin" --db "$2" submit "$1"; }
turn_on() { "$bin" --db "$1" turn cw; }
run "submit" base no submit_to "$work/crown.eml"
run "turn" withorders yes turn_on
echo "crash harness: $points kill points: $applied applied, $notapplied not applied, $partial partial"
[ "$fail" = 0 ] && echo "$((applied + notapplied)) passed, $partial failed" || echo "0 passed, 1 failed"
exit $fail
