#!/bin/bash
# test_backup.sh - 'despatch backup DIR' taken while despatchd takes in
# mail and plays a step (issue 19, 4): the folder and files are private,
# MANIFEST names each file's origin and hash, and the copy put back by
# hand is a database that 'despatch ledger' and 'despatch verify' accept.
#   usage: test_backup.sh DESPATCH DESPATCHD SOURCE_DIR
set -u
bin=$1
daemon=$2
src=$3
work=$(mktemp -d /tmp/despatch-backup.XXXXXX)
dpid=
pass=0
fail=0
trap '[ -n "$dpid" ] && kill "$dpid" 2>/dev/null; [ "$fail" = 0 ] && rm -rf "$work" || echo "kept $work"' EXIT
export DESPATCH_FROM="despatch <despatch@referee.example.org>"
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }
mode_is() { [ "$(stat -c %a "$2")" = "$3" ] && ok || no "$1: $2 is mode $(stat -c %a "$2"), not $3"; }

mkdir -p "$work/mail/new" "$work/mail/cur" "$work/mail/tmp"
printf 'database = %s/d.db\nfrom = despatch <despatch@referee.example.org>\n[maildir]\npath = %s/mail\npoll = 100ms\n' \
	"$work" "$work" >"$work/despatch.conf"
d() { "$bin" -c "$work/despatch.conf" "$@"; }
d new cowpens "$src/campaign/cowpens-1781/cowpens.scenario" >/dev/null || { no "new"; exit 1; }
d player add cowpens crown tarleton@crown.example.org --password scarlet-bugle-thistle-harbour >/dev/null
d player add cowpens continental morgan@continental.example.org --password hickory-ember-cove-wren >/dev/null
d start cowpens >/dev/null 2>&1
d set --server rate-limit 100000 >/dev/null

"$daemon" -c "$work/despatch.conf" -f 2>"$work/daemon.log" &
dpid=$!
# Mail goes on arriving, and completes the crown's phase, while backups
# are taken.
crown=$src/campaign/cowpens-1781/orders/t01-crown.eml
for i in $(seq 1 30); do
	sed "s/^Message-ID: .*/Message-ID: <bk-$i@crown.example.org>/; s/^Light Infantry: ADVANCE 8/Light Infantry: ADVANCE $((i % 8 + 1))/" \
		"$crown" >"$work/mail/tmp/m$i"
	mv "$work/mail/tmp/m$i" "$work/mail/new/17000$i.M${i}P1.host"
	if [ $((i % 10)) = 5 ]; then
		d backup "$work/bk$i" >"$work/bk$i.out" 2>&1 || no "backup $i: $(cat "$work/bk$i.out")"
	fi
	sleep 0.05
done
for _ in $(seq 100); do [ -z "$(ls "$work/mail/new")" ] && break; sleep 0.1; done
for _ in $(seq 100); do d show cowpens | grep -q "continental phase" && break; sleep 0.1; done
d show cowpens | grep -q "turn 1 of 6 (07:00), continental phase" && ok || no "the crown's phase was not played: $(d show cowpens | head -3)"
d backup "$work/bk-last" >"$work/bk.out" 2>&1 && ok || no "the last backup: $(cat "$work/bk.out")"
grep -q "backed up $work/d.db" "$work/bk.out" && ok || no "backup says: $(cat "$work/bk.out")"
kill "$dpid"; wait "$dpid" 2>/dev/null; dpid=

# Private, and as the manifest says.
for b in "$work"/bk5 "$work"/bk15 "$work"/bk25 "$work"/bk-last; do
	mode_is "backup folder" "$b" 700
	for f in d.db d.db.key d.db.key.secrets MANIFEST; do
		[ -e "$b/$f" ] && mode_is "backup file" "$b/$f" 600 || no "$b/$f missing"
	done
	while read -r what name from sum; do
		case $what in '#'*|taken) continue ;; esac
		[ "$(sha256sum "$b/$name" | cut -d' ' -f1)" = "$sum" ] && ok || no "$b: $name does not match its SHA-256 in MANIFEST"
		[ -e "$from" ] && ok || no "$b: $what came from $from, which is not there"
	done <"$b/MANIFEST"
done
check_back() {  # check_back BACKUP: put back as another database, checked
	local b=$1 r=$work/restored
	rm -rf "$r"; mkdir -p "$r"
	cp -p "$b/d.db" "$r/d.db"; cp -p "$b/d.db.key" "$r/d.db.key"; cp -p "$b/d.db.key.secrets" "$r/d.db.key.secrets"
	"$bin" --db "$r/d.db" ledger cowpens >"$work/ledger.out" 2>&1 && ok || no "$b: despatch ledger refuses the copy: $(tail -3 "$work/ledger.out")"
	"$bin" --db "$r/d.db" export cowpens "$r/a.jsonl" >"$work/export.out" 2>&1 && ok || no "$b: export: $(cat "$work/export.out")"
	"$bin" verify "$r/a.jsonl" >"$work/verify.out" 2>&1 && ok || no "$b: verify refuses its archive: $(tail -3 "$work/verify.out")"
	# The secrets still check: a STATUS from the crown is taken as the crown's.
	printf 'From: Tarleton <tarleton@crown.example.org>\nMessage-ID: <bk-status@crown.example.org>\n\nGAME cowpens SIDE crown PASSWORD scarlet-bugle-thistle-harbour\nSTATUS\n' |
		"$bin" --db "$r/d.db" submit >"$work/submit.out" 2>&1
	grep -q "commands" "$work/submit.out" && ok || no "$b: the secret no longer checks in the copy: $(cat "$work/submit.out")"
}
check_back "$work/bk15"
check_back "$work/bk-last"
"$bin" --db "$work/restored/d.db" show cowpens | grep -q "continental phase" && ok || no "the last backup lacks the step played"
# despatch restore (issue 19, 4).  The store as it is now (the continental
# phase open) is backed up; the phase is played; then the backup is put
# back: refused while despatchd runs and over a key not the backup's,
# then done, recorded in the chain, told to the players, and the phase
# played again ends in an archive verify accepts.
"$bin" -c "$work/despatch.conf" backup "$work/bk-r" >/dev/null || no "the backup to restore"
cont=$src/campaign/cowpens-1781/orders/t01-continental.eml
d submit "$cont" >/dev/null && d turn cowpens >/dev/null || no "playing the continental phase"
d show cowpens | grep -q "turn 2 of 6" && ok || no "the continental phase was not played"
"$daemon" -c "$work/despatch.conf" -f 2>>"$work/daemon.log" &
dpid=$!
for _ in $(seq 100); do d status 2>/dev/null | grep -q "running" && break; sleep 0.05; done
d restore "$work/bk-r" >"$work/out" 2>&1
[ $? = 1 ] && grep -q "despatchd serves" "$work/out" && ok || no "restore while despatchd runs: $(cat "$work/out")"
kill "$dpid"; wait "$dpid" 2>/dev/null; dpid=
cp -p "$work/d.db.key" "$work/key.saved"
"$bin" --db "$work/other.db" new x "$src/campaign/cowpens-1781/cowpens.scenario" >/dev/null
"$bin" --db "$work/other.db" key show >/dev/null
cp -p "$work/other.db.key" "$work/d.db.key"
d restore "$work/bk-r" >"$work/out" 2>&1
[ $? = 1 ] && grep -q "is not the backup's ledger key" "$work/out" && ok || no "restore over another key: $(cat "$work/out")"
d show cowpens | grep -q "turn 2 of 6" && ok || no "a refused restore changed the store"
cp -p "$work/key.saved" "$work/d.db.key"
d restore "$work/bk-r" >"$work/out" 2>&1 && ok || no "restore: $(cat "$work/out")"
grep -q "1 game told of it" "$work/out" && ok || no "restore says: $(cat "$work/out")"
d show cowpens | grep -q "turn 1 of 6 (07:00), continental phase" && ok || no "restored, the game is not back at the continental phase: $(d show cowpens | head -3)"
d ledger cowpens >"$work/ledger.out" 2>&1 && ok || no "the restored ledger: $(tail -3 "$work/ledger.out")"
grep -q "restore" "$work/ledger.out" && ok || no "the ledger shows no restore act: $(cat "$work/ledger.out")"
d outbox >"$work/outbox" 2>&1
[ "$(grep -c "The server was restored from a backup" "$work/outbox")" = 2 ] && ok || no "the players were not both told: $(grep -c restored "$work/outbox")"
d submit "$cont" >/dev/null && d turn cowpens >/dev/null || no "playing the continental phase again"
d export cowpens "$work/again.jsonl" >/dev/null 2>&1 && "$bin" verify "$work/again.jsonl" >"$work/verify.out" 2>&1 && ok ||
	no "the archive after the restore does not verify: $(tail -3 "$work/verify.out")"
[ -e "$work/d.db-wal" ] && [ "$(stat -c %a "$work/d.db")" != 600 ] && no "the restored database is not private"
mode_is "the restored database" "$work/d.db" 600

# An existing folder is never written into.
d backup "$work/bk-last" >"$work/out" 2>&1
[ $? = 1 ] && grep -q "exists already" "$work/out" && ok || no "a backup into an existing folder: $(cat "$work/out")"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
