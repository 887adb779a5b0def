#!/bin/bash
# test_full_disk.sh - despatchd on a disk that fills and is freed again
# (issue 19, 5).  A mail the SMTP server took (250) whose "sent" mark
# cannot be written is not sent again while the disk stays full; intake
# and sending wait, said once in the log; once the disk takes writes
# again the daemon resumes by itself, marks that mail, takes in what came
# meanwhile and answers it.  The full disk is the crash harness's
# preloaded library (CRASHPOINT_FULL): every write of the daemon to a
# regular file fails with ENOSPC while a file exists.
#   test_full_disk.sh DESPATCH DESPATCHD CRASHPOINT.so SOURCE_DIR
# Exits 77 (skipped) when Dovecot and Postfix are not installed.
set -u
bin=$1
daemon=$2
lib=$3
src=$4
here=$(dirname "$0")
. "$here/lab.sh"
lab_test_begin fulldisk
wait_count() {  # wait_count USER N: until USER's inbox holds N mails (10 s)
	for _ in $(seq 200); do [ "$(lab_count "$1")" -ge "$2" ] && return 0; sleep 0.05; done
	return 1
}

lab_setup "$work/lab" || { echo "FAIL: lab setup"; exit 1; }
lab_start || { echo "FAIL: the lab's servers did not start"; exit 1; }
box=$work/box
mkdir -p "$box/new" "$box/cur" "$box/tmp"
lab_umpire_conf "$work"
printf '[maildir]\npath = %s\npoll = 200ms\n' "$box" >>"$work/despatch.conf"
d() { "$bin" -c "$work/despatch.conf" "$@"; }
d new cw "$src/campaign/cowpens-1781/cowpens.scenario" >/dev/null || { no "new"; exit 1; }
d player add cw crown tarleton@example.test --password scarlet-bugle-thistle-harbour >/dev/null
d player add cw continental morgan@example.test --password hickory-ember-cove-wren >/dev/null
d start cw >/dev/null 2>&1

CRASHPOINT_FULL=$work/full LD_PRELOAD=$lib "$daemon" -c "$work/despatch.conf" -f 2>"$work/daemon.log" &
dpid=$!
wait_count tarleton 1 && wait_count morgan 1 && ok || no "the welcomes did not arrive"

# The disk fills.  A HELP stored by another process (the MTA's pipe, on
# a disk that still had room) waits with the rest: whether the daemon
# sent its answer before it met the full disk or not, never twice.
touch "$work/full"
printf 'From: Tarleton <tarleton@example.test>\nMessage-ID: <full-1@example.test>\n\nGAME cw SIDE crown PASSWORD scarlet-bugle-thistle-harbour\nHELP\n' >"$work/help.eml"
d submit "$work/help.eml" >/dev/null || no "submit"
# Mail that comes while the disk is full waits in the Maildir.
sed 's/GAME cowpens/GAME cw/; s/^From: .*/From: Tarleton <tarleton@example.test>/' \
	"$src/campaign/cowpens-1781/orders/t01-crown.eml" >"$box/new/1700000001.M1P1.host"
# Many rounds (every 200 ms) with the disk full.
sleep 3
[ "$(lab_count tarleton)" -le 2 ] && ok || no "with the disk full tarleton got $(lab_count tarleton) mails, more than 2"
[ -e "$box/new/1700000001.M1P1.host" ] && ok || no "a mail was taken in while the disk was full"
n=$(grep -c "the disk is full" "$work/daemon.log")
[ "$n" = 1 ] && ok || no "the full disk was said $n times, not once"
[ "$(wc -l <"$work/daemon.log")" -le 8 ] && ok || { no "the log floods while the disk is full:"; tail -5 "$work/daemon.log"; }
kill -0 "$dpid" 2>/dev/null && ok || no "despatchd died on the full disk"

# The disk is freed: the daemon resumes by itself, marks the answer (not
# sent again), takes in the orders and answers them.
rm -f "$work/full"
# (The orders complete the crown's phase: it is played and reported too.)
wait_count tarleton 3 && ok || no "after the disk was freed the orders were not answered"
sleep 1
helps=$(cat "$(lab_maildir tarleton)"/new/* "$(lab_maildir tarleton)"/cur/* 2>/dev/null | grep -c "^Subject: \[cw\] HELP")
[ "$helps" = 1 ] && ok || no "the answer to HELP came $helps times, not once"
grep -q "^Subject: Re: Cowpens turn 1 orders" "$(lab_maildir tarleton)"/new/* "$(lab_maildir tarleton)"/cur/* 2>/dev/null && ok ||
	no "the orders sent while the disk was full were not answered"
grep -q "can be written again" "$work/daemon.log" && ok || no "the daemon did not say it resumed"
[ -z "$(ls "$box/new")" ] && ok || no "mail left in new/ after the disk was freed"
ids=$(cat "$(lab_maildir tarleton)"/new/* "$(lab_maildir tarleton)"/cur/* 2>/dev/null | grep -i "^Message-ID:" | sort | uniq -d | wc -l)
[ "$ids" = 0 ] && ok || no "$ids Message-IDs came twice"
d outbox >"$work/outbox" 2>&1
grep -q "0 mails waiting" "$work/outbox" && ok || no "the outbox after the disk was freed: $(head -3 "$work/outbox")"

kill "$dpid"; wait "$dpid" 2>/dev/null; dpid=

# A mail the server took (250) whose sent mark cannot be written (here
# DESPATCH_FAULT=outbox-mark, so it happens every time): remembered, and
# not sent again round after round; after a restart at most once more.
printf 'From: Tarleton <tarleton@example.test>\nMessage-ID: <full-2@example.test>\n\nGAME cw SIDE crown PASSWORD scarlet-bugle-thistle-harbour\nSTATUS\n' >"$work/status.eml"
t0=$(lab_count tarleton)
d submit "$work/status.eml" >/dev/null || no "submit STATUS"
DESPATCH_FAULT=outbox-mark "$daemon" -c "$work/despatch.conf" -f 2>>"$work/daemon.log" &
dpid=$!
wait_count tarleton $((t0 + 1)) || no "the answer to STATUS did not arrive"
sleep 3
[ "$(lab_count tarleton)" = $((t0 + 1)) ] && ok || no "a mail whose mark failed was sent $(( $(lab_count tarleton) - t0 )) times over 15 rounds, not once"
kill "$dpid"; wait "$dpid" 2>/dev/null; dpid=
"$daemon" -c "$work/despatch.conf" --once 2>>"$work/daemon.log" || no "despatchd after the fault"
sleep 1
[ "$(lab_count tarleton)" -le $((t0 + 2)) ] && ok || no "after a restart the mail came $(( $(lab_count tarleton) - t0 )) times"
d outbox >"$work/outbox" 2>&1
grep -q "0 mails waiting" "$work/outbox" && ok || no "the outbox after the restart: $(head -3 "$work/outbox")"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
