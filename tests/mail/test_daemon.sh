#!/bin/bash
# test_daemon.sh - despatchd on real servers: a player's mail goes in
# through Postfix to the umpire's mailbox (Dovecot), despatchd takes it in
# by itself (over IMAPS with IDLE, or from the Maildir), acknowledges it
# over SMTP into the player's own mailbox, where the test reads it over
# IMAP, and plays the phase once every order is in, with no 'despatch
# turn'; killed at the named crash points and restarted, it answers each
# mail once and plays each phase once; a deadline passes with a side
# silent, the reminder comes first and the phase is played; a second
# daemon on the same database is refused; SIGTERM stops it cleanly.
#   test_daemon.sh DESPATCH DESPATCHD SOURCE_DIR [imap|maildir]
# Exits 77 (skipped, saying why) when Dovecot, Postfix or curl is not
# installed; under CI=true, which installs them, that is a failure
# (lab_test_begin, tests/need.sh).
set -u
bin=$1
daemon=$2
src=$3
mode=${4:-maildir}
here=$(dirname "$0")
. "$here/lab.sh"
lab_test_begin daemon curl
wait_count() {  # wait_count USER N [SECONDS]: until USER's inbox holds N mails (10 s)
	for _ in $(seq $((${3:-10} * 20))); do [ "$(lab_count "$1")" -ge "$2" ] && return 0; sleep 0.05; done
	return 1
}

lab_setup "$work/lab" || { echo "FAIL: lab setup"; exit 1; }
lab_start || { echo "FAIL: the lab's servers did not start"; exit 1; }
# The umpire's Maildir exists once Dovecot has delivered to it.
printf 'Subject: hello\n\nfirst\n' | curl -s --url "smtp://127.0.0.1:$LAB_SMTP_PORT" \
	--mail-from postmaster@example.test --mail-rcpt umpire@example.test -T - || no "priming mail"
wait_count umpire 1 || no "the umpire's mailbox was not made"

if [ "$mode" = imap ]; then
	lab_umpire_conf "$work"
	printf 'umpirepw\n' >"$work/imap.pass"
	chmod 600 "$work/imap.pass"
	printf '[imap]\nurl = imaps://127.0.0.1:%s/INBOX\nuser = umpire\npassword-file = %s\nca-file = %s\npoll = 1s\n' \
		"$LAB_IMAPS_PORT" "$work/imap.pass" "$LAB_CERT" >>"$work/despatch.conf"
else
	lab_umpire_conf "$work" maildir
	printf '[maildir]\npoll = 1s\n' >>"$work/despatch.conf"
fi
d() { "$bin" -c "$work/despatch.conf" "$@"; }
d new cw "$src/campaign/cowpens-1781/cowpens.scenario" >/dev/null || { echo "FAIL: new"; exit 1; }
d player add cw crown tarleton@example.test --password scarlet-bugle-thistle-harbour >/dev/null
d player add cw continental morgan@example.test --password hickory-ember-cove-wren >/dev/null
d start cw >/dev/null 2>&1
# The phase is played as soon as its orders are in, as these checks
# expect (the settle time has tests of its own, test_clock).
d set cw settle 0 >/dev/null || no "set settle"

"$daemon" -c "$work/despatch.conf" -f 2>"$work/daemon.log" &
dpid=$!
# The welcomes go out by themselves.
wait_count tarleton 1 && wait_count morgan 1 && ok || no "welcomes: $(lab_count tarleton), $(lab_count morgan)"
"$daemon" -c "$work/despatch.conf" --once 2>"$work/second.log"
[ $? != 0 ] && grep -q "another despatchd" "$work/second.log" && ok || no "a second daemon was not refused: $(cat "$work/second.log")"

# A player mails orders through Postfix; the answer comes back by itself.
sed 's/GAME cowpens/GAME cw/; s/^From: .*/From: Tarleton <tarleton@example.test>/; s/^To: .*/To: umpire@example.test/' \
	"$src/campaign/cowpens-1781/orders/t01-crown.eml" >"$work/orders.eml"
start=$(date +%s%N)
# Sent as a player's client would, with STARTTLS and a login: by swaks
# (a real SMTP client, as CI installs it).  Where swaks is missing or
# cannot do TLS (without libnet-ssleay-perl it stops at "TLS not
# available"), the same mail goes by curl, with STARTTLS and the same
# login, and the test says so: what is tested is despatchd's side, which
# is the same for either client, so the rest of the test still runs
# rather than the whole of it being skipped.  Under CI=true, which
# installs swaks and libnet-ssleay-perl, that is a failure
# (tests/need.sh).
if command -v swaks >/dev/null 2>&1 && swaks --support 2>&1 | grep -q '^=== TLS supported'; then
	swaks --server "127.0.0.1:$LAB_SMTP_PORT" --tls --tls-ca-path "$LAB_CERT" \
		--auth PLAIN --auth-user tarleton --auth-password tarletonpw \
		--from tarleton@example.test --to umpire@example.test \
		--data "@$work/orders.eml" >"$work/swaks.log" 2>&1 || no "sending the orders with swaks: $(tail -3 "$work/swaks.log")"
else
	if command -v swaks >/dev/null 2>&1; then
		lacks_ci libnet-ssleay-perl "swaks cannot do TLS (Debian package libnet-ssleay-perl): the orders go by curl, with STARTTLS and a login" ||
			no "swaks without TLS under CI=true"
	else
		lacks_ci swaks "swaks is not installed (Debian package swaks): the orders go by curl, with STARTTLS and a login" ||
			no "no swaks under CI=true"
	fi
	curl -s --ssl-reqd --cacert "$LAB_CERT" --user tarleton:tarletonpw \
		--url "smtp://127.0.0.1:$LAB_SMTP_PORT" --mail-from tarleton@example.test \
		--mail-rcpt umpire@example.test -T "$work/orders.eml" || no "sending the orders with curl"
fi
if wait_count tarleton 2; then
	end=$(date +%s%N)
	echo "acknowledgement in $(( (end - start) / 1000000 )) ms (SMTP in, $mode, despatchd, SMTP out, LMTP)"
	ok
else
	no "no acknowledgement; the daemon said: $(tail -5 "$work/daemon.log")"
fi
# Read over IMAP from the player's own mailbox: the acknowledgement.
curl -s --cacert "$LAB_CERT" -u tarleton:tarletonpw \
	"imaps://127.0.0.1:$LAB_IMAPS_PORT/INBOX;UID=2" >"$work/ack.eml" || no "reading the acknowledgement over IMAP"
grep -q "^Subject: Re: " "$work/ack.eml" && grep -q "Understood" "$work/ack.eml" && ok ||
	no "the acknowledgement read over IMAP: $(head -c 600 "$work/ack.eml")"
# Taken in and moved out of the inbox (IMAP: to Processed, with its
# INTERNALDATE as the time it came; Maildir: new/ to cur/).
if [ "$mode" = imap ]; then
	[ "$(lab_count umpire)" = 0 ] && ok || no "mail left in the umpire's inbox: $(lab_count umpire)"
	[ -n "$(ls "$(lab_maildir umpire)/.Processed/new" "$(lab_maildir umpire)/.Processed/cur" 2>/dev/null)" ] && ok ||
		no "nothing in Processed"
	grep -q "imap: connected to 127.0.0.1:$LAB_IMAPS_PORT, folder INBOX, IDLE" "$work/daemon.log" && ok ||
		no "not connected with IDLE: $(head -3 "$work/daemon.log")"
else
	[ -z "$(ls "$(lab_maildir umpire)/new")" ] && ok || no "mail left in new/: $(ls "$(lab_maildir umpire)/new")"
fi
# Every order of the phase is in: the phase is played without 'despatch
# turn', and both players get the report.
# (Each phase played sends every player one mail: its report, which
# carries the order sets' leaves; a game without nonces has no Close
# notice of its own.)
wait_count tarleton 3 && wait_count morgan 2 && ok || no "no report: $(lab_count tarleton), $(lab_count morgan); $(tail -3 "$work/daemon.log")"
d show cw | grep -q "continental phase" && ok || no "the phase was not played: $(d show cw | head -4)"
d status | grep -q "despatchd  running" && ok || no "status: $(d status)"
d status | grep -q "spool      0 taken from the mailbox and not yet read, 0 the intake failed on" && ok ||
	no "status does not show the spool empty: $(d status)"

# Killed at the named crash points and restarted: every mail answered once,
# every phase played once, the one mail in flight sent again with its
# Message-ID.
kill -TERM "$dpid"; wait "$dpid"; dpid=
crash_at() {  # crash_at POINT: a daemon that must die there (10 s at most)
	DESPATCH_CRASH=$1 "$daemon" -c "$work/despatch.conf" -f 2>>"$work/daemon.log" &
	local p=$! st
	for _ in $(seq 200); do kill -0 "$p" 2>/dev/null || break; sleep 0.05; done
	if kill -0 "$p" 2>/dev/null; then
		kill -9 "$p"; wait "$p"
		no "the daemon did not reach $1"
		return
	fi
	wait "$p"
	st=$?
	[ "$st" = 137 ] && ok || no "the daemon at $1 exited $st"
}
t0=$(lab_count tarleton)
m0=$(lab_count morgan)
# The SET MAIL line is taken out: the counts below are one answer a mail.
sed '/^SET MAIL FULL$/d; s/GAME cowpens/GAME cw/; s/^From: .*/From: Morgan <morgan@example.test>/; s/^To: .*/To: umpire@example.test/' \
	"$src/campaign/cowpens-1781/orders/t01-continental.eml" >"$work/cont.eml"
# (With Maildir the first orders stay in cur/ and are counted: the mail
# has come once the count is past what it was before it was sent.)
u0=$(lab_count umpire)
curl -s --url "smtp://127.0.0.1:$LAB_SMTP_PORT" --mail-from morgan@example.test \
	--mail-rcpt umpire@example.test -T "$work/cont.eml" || no "sending continental's orders"
for _ in $(seq 200); do [ "$(lab_count umpire)" -gt "$u0" ] && break; sleep 0.05; done
[ "$(lab_count umpire)" -gt "$u0" ] && ok || no "continental's orders never reached the umpire's inbox"
# Fetched and killed before it was stored; spooled and killed before the
# batch committed; stored, then killed before the move; then killed after
# the SMTP server took the answer and before it was marked sent; then
# killed with the step played but not written; then killed right after
# the first mail of a round was marked sent (the one in flight, sent once
# more, never again); then a clean daemon: the mail is taken in once and
# answered once, but for the one answer in flight, sent again with its
# Message-ID; the step is played once and the reports sent once.
# A passing failure storing the fetched mail (DESPATCH_FAULT): it stays
# in the inbox, never moved to Processed unstored (IMAP and Maildir).
in0=$(lab_count umpire)
# (--once exits 1 for the round's warning, the mail not stored now.)
DESPATCH_FAULT=spool-add "$daemon" -c "$work/despatch.conf" --once 2>"$work/fault.log"
st=$?
cat "$work/fault.log" >>"$work/daemon.log"
[ "$st" = 1 ] && grep -q "not stored now, tried again later" "$work/fault.log" && ok ||
	no "the daemon with a passing fault exited $st: $(tail -3 "$work/fault.log")"
[ "$(lab_count umpire)" = "$in0" ] && [ "$in0" -ge 1 ] && ok ||
	no "a mail not stored was moved out of the inbox ($in0 before, $(lab_count umpire) after)"
[ "$mode" = imap ] && crash_at after-fetch
crash_at batch-spooled
crash_at after-store
crash_at after-send
crash_at mid-turn
crash_at after-mark
"$daemon" -c "$work/despatch.conf" -f 2>>"$work/daemon.log" &
dpid=$!
wait_count morgan $((m0 + 3)) && wait_count tarleton $((t0 + 1)) && ok || no "after the kills: tarleton $(lab_count tarleton), morgan $(lab_count morgan)"
sleep 1
[ "$(lab_count morgan)" = $((m0 + 3)) ] && [ "$(lab_count tarleton)" = $((t0 + 1)) ] && ok ||
	no "an answer or a report came twice: tarleton $(lab_count tarleton) (from $t0), morgan $(lab_count morgan) (from $m0)"
ids=$(find "$(lab_maildir morgan)/new" "$(lab_maildir morgan)/cur" -type f -newer "$work/cont.eml" \
	-exec grep -m1 -i "^Message-ID:" {} \; | sort)
[ "$(uniq -d <<<"$ids" | wc -l)" = 1 ] && [ "$(uniq <<<"$ids" | wc -l)" = 2 ] && ok ||
	no "the answer in flight was not sent again with its Message-ID: $ids"
d show cw | grep -q "turn 2 of 6 (07:15), crown phase" && ok || no "the step was not played once: $(d show cw | head -4)"

# The deadline: crown owes orders for the open phase and sends none.  The
# reminder comes first, then the phase is played by itself (the NMR
# policy), and both players get the report, though Postfix is away when
# the reports are queued: they are put off, and every one arrives, once,
# when it is back.
t0=$(lab_count tarleton)
m0=$(lab_count morgan)
d set --server retry 1s >/dev/null || no "set retry"
d set cw reminders 5s >/dev/null || no "set reminders"
d set cw deadline 8s >/dev/null || no "set deadline"
for _ in $(seq 100); do [ "$(lab_count tarleton)" -gt "$t0" ] && break; sleep 0.05; done
if [ "$(lab_count tarleton)" = $((t0 + 1)) ] && [ "$(lab_count morgan)" = "$m0" ] &&
	! d show cw | grep -q "continental phase"; then
	grep -l -i "^Subject:.*remind" $(find "$(lab_maildir tarleton)" -type f -newer "$work/cont.eml") >/dev/null 2>&1 && ok ||
		no "the first mail after the deadline was set is not a reminder"
else
	no "no reminder before the deadline: tarleton $(lab_count tarleton) (from $t0), morgan $(lab_count morgan) (from $m0)"
fi
lab_stop_postfix
for _ in $(seq 200); do d show cw | grep -q "continental phase" && break; sleep 0.05; done
d show cw | grep -q "turn 2 of 6 (07:15), continental phase" && ok || no "the phase was not played at the deadline: $(d show cw | head -4)"
for _ in $(seq 100); do grep -q "outbox: 0 sent, [1-9][0-9]* put off" "$work/daemon.log" && break; sleep 0.05; done
grep -q "outbox: 0 sent, [1-9][0-9]* put off" "$work/daemon.log" && ok || no "the reports were not put off with Postfix away: $(grep outbox "$work/daemon.log" | tail -2)"
[ "$(lab_count tarleton)" = $((t0 + 1)) ] && [ "$(lab_count morgan)" = "$m0" ] && ok || no "a report arrived with Postfix away"
lab_start_postfix || no "postfix restart"
# The queue goes when the server's own backoff (1 s doubling with each
# failed round, 64 s at most) ends: a slow machine fails more rounds.
wait_count tarleton $((t0 + 2)) 70 && wait_count morgan $((m0 + 1)) 70 && ok || no "no report after the deadline: $(tail -3 "$work/daemon.log")"
sleep 2
# (The next phase is open with its own deadline by now, so more mail may
# come: a reminder to morgan.  Count the report itself.)
reports() { grep -l "^Subject: \[cw\] Turn 2, crown phase (" "$(lab_maildir "$1")"/new/* "$(lab_maildir "$1")"/cur/* 2>/dev/null | wc -l; }
[ "$(reports tarleton)" = 1 ] && [ "$(reports morgan)" = 1 ] && ok ||
	no "the report came other than once: tarleton $(reports tarleton), morgan $(reports morgan)"
# ... and in order: no mail to a player delivered before an older one to
# them, however many rounds each was put off in.
if command -v sqlite3 >/dev/null; then
	late=$(sqlite3 "$work/d.db" "SELECT count(*) FROM outbox a JOIN outbox b ON a.recipient = b.recipient AND a.id < b.id WHERE a.delivered_at > b.delivered_at OR (a.delivered_at IS NULL AND b.delivered_at IS NOT NULL)")
	[ "$late" = 0 ] && ok || no "$late mails went out before an older one to the same player: $(sqlite3 "$work/d.db" "SELECT id, recipient, subject, delivered_at, attempts FROM outbox WHERE id > 12")"
fi
grep -q "deadline passed" "$work/daemon.log" && ok || no "the log does not say the deadline played it: $(grep clock "$work/daemon.log")"
grep -q "game cw: reminded 1 player(s), the deadline 5s away" "$work/daemon.log" && ok ||
	no "the log does not say who was reminded: $(grep clock "$work/daemon.log")"

kill -TERM "$dpid"
for _ in $(seq 100); do kill -0 "$dpid" 2>/dev/null || break; sleep 0.05; done
wait "$dpid"
st=$?
dpid=
[ "$st" = 0 ] && ok || no "despatchd exited $st on SIGTERM"
d status | grep -q "despatchd  stopped" && ok || no "status after stop: $(d status)"
grep -q "secret\|hickory\|scarlet" "$work/daemon.log" && no "a secret in the log" || ok

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
