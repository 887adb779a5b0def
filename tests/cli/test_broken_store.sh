#!/bin/bash
# test_broken_store.sh - a store that is missing, truncated, not a
# database, damaged or locked never makes the MTA bounce a player's
# orders: 'despatch submit' exits 75 (the MTA keeps the mail and retries)
# with one line that names no server path; and despatchd refuses a
# damaged database at its start, before it spools any mail into it.
# And a database another writer holds locked is a passing trouble for
# the daemon too: the mail waits in new/, never quarantined.
#   usage: test_broken_store.sh DESPATCH DESPATCHD SOURCE_DIR [HOLD_LOCK]
set -u
bin=$1
daemon=$2
src=$3
hold_lock=${4:-}
work=$(mktemp -d /tmp/despatch-broken.XXXXXX)
trap 'rm -rf "$work"' EXIT
export DESPATCH_FROM="despatch <despatch@referee.example.org>"
pass=0
fail=0
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }
mail=$src/campaign/cowpens-1781/orders/t01-crown.eml

db=$work/good.db
"$bin" --db "$db" new cowpens "$src/campaign/cowpens-1781/cowpens.scenario" >/dev/null || { no "new"; exit 1; }
"$bin" --db "$db" player add cowpens crown tarleton@crown.example.org --password scarlet-bugle-thistle-harbour >/dev/null
"$bin" --db "$db" player add cowpens continental morgan@continental.example.org >/dev/null
"$bin" --db "$db" start cowpens >/dev/null 2>&1
# A database big enough that some of its pages are tables' and indexes'.
size=$(stat -c %s "$db")
[ "$size" -ge 65536 ] && ok || no "the test database is only $size bytes"

# submit_to NAME DB: the pipe's way (stdin, stderr not a terminal).
submit_to() {
	"$bin" --db "$2" submit --sender tarleton@crown.example.org <"$mail" >"$work/out" 2>"$work/err"
	local got=$?
	[ "$got" = 75 ] && ok || no "$1: submit exited $got, not 75: $(cat "$work/err")"
	grep -q "not stored now" "$work/err" && ok || no "$1: stderr does not say the mail was not stored: $(cat "$work/err")"
	grep -q "$work" "$work/err" && no "$1: stderr names a server path: $(cat "$work/err")" || ok
	[ "$(wc -l <"$work/err")" = 1 ] && ok || no "$1: stderr is not one line: $(cat "$work/err")"
}
submit_to "a missing database" "$work/missing.db"
head -c 1000 "$db" >"$work/trunc.db"; chmod 600 "$work/trunc.db"
submit_to "a truncated database" "$work/trunc.db"
head -c 70000 /dev/urandom >"$work/noise.db"; chmod 600 "$work/noise.db"
submit_to "a file that is no database" "$work/noise.db"
cp -p "$db" "$work/zero.db"
# Zeroed pages in the middle: the header and schema stand, tables do not.
dd if=/dev/zero of="$work/zero.db" bs=4096 seek=4 count=8 conv=notrunc 2>/dev/null
cp -p "$db" "$work/world.db"; chmod 644 "$work/world.db"
submit_to "a database the world can read" "$work/world.db"
# The good database still takes the mail (and the test's mail is fine).
"$bin" --db "$db" submit --sender tarleton@crown.example.org <"$mail" >"$work/out" 2>&1 && ok ||
	no "the good database refused the mail: $(cat "$work/out")"

# despatchd refuses the damaged database at its start, spooling nothing.
mkdir -p "$work/md/new" "$work/md/cur" "$work/md/tmp"
cp "$mail" "$work/md/new/1700000001.M1P1.host"
printf 'database = %s\nfrom = despatch <despatch@referee.example.org>\n[maildir]\npath = %s/md\n' \
	"$work/zero.db" "$work" >"$work/d.conf"
before=$(md5sum <"$work/zero.db")
"$daemon" -c "$work/d.conf" --once 2>"$work/d.log"
got=$?
[ "$got" = 78 ] && ok || no "despatchd --once on a damaged database: exit $got, not 78 (EX_CONFIG)"
grep -q "the database is damaged" "$work/d.log" && ok || no "despatchd did not say the database is damaged: $(cat "$work/d.log")"
[ -e "$work/md/new/1700000001.M1P1.host" ] && [ -z "$(ls "$work/md/cur")" ] && ok ||
	no "despatchd took mail into a damaged database"
[ "$(md5sum <"$work/zero.db")" = "$before" ] && ok || no "despatchd wrote to the damaged database"
# And the same daemon serves the whole one.
sed -i "s|$work/zero.db|$db|" "$work/d.conf"
"$daemon" -c "$work/d.conf" --once 2>"$work/d.log" && ok || no "despatchd refused a whole database: $(cat "$work/d.log")"

# Locked by another writer: the daemon leaves the mail for later, then
# takes it once the lock is gone.
if [ -n "$hold_lock" ]; then
	rm -rf "$work/md"; mkdir -p "$work/md/new" "$work/md/cur" "$work/md/tmp"
	cp "$mail" "$work/md/new/1700000002.M2P1.host"
	rm -f "$work/locked.ready"
	"$hold_lock" "$db" 3000 "$work/locked.ready" &
	lpid=$!
	for _ in $(seq 100); do [ -e "$work/locked.ready" ] && break; sleep 0.05; done
	DESPATCH_BUSY_TIMEOUT=200 "$daemon" -c "$work/d.conf" --once 2>"$work/d.log"
	[ -e "$work/md/new/1700000002.M2P1.host" ] && ok || no "a mail was taken from new/ while the database was locked"
	[ -d "$work/md/.Quarantine" ] && no "a mail was quarantined because the database was locked: $(cat "$work/d.log")" || ok
	wait "$lpid"
	"$daemon" -c "$work/d.conf" --once 2>>"$work/d.log" || no "despatchd after the lock: $(cat "$work/d.log")"
	[ -z "$(ls "$work/md/new")" ] && [ -n "$(ls "$work/md/cur")" ] && ok || no "after the lock the mail was not taken in"
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
