#!/bin/bash
# test_imap_failures.sh - despatchd when the IMAP server will not serve it:
# a wrong password, the server down, a certificate it must not trust.  Each
# gives a clear log line, no crash, and tries again (1, 2, 4 ... s apart);
# once the fault is mended it connects by itself and takes the mail in.
# An untrusted server never sees the login.
#   test_imap_failures.sh DESPATCH DESPATCHD SOURCE_DIR
# Exits 77 (skipped) when Dovecot and Postfix are not installed.
set -u
bin=$1
daemon=$2
src=$3
here=$(dirname "$0")
. "$here/lab.sh"
lab_test_begin imapfail curl
# until_log TEXT N: until the daemon's log holds TEXT N times (15 s)
until_log() {
	for _ in $(seq 300); do
		[ "$(grep -c -- "$1" "$work/daemon.log")" -ge "${2:-1}" ] && return 0
		sleep 0.05
	done
	return 1
}
alive() { kill -0 "$dpid" 2>/dev/null; }
send() {  # send N: a mail from tarleton to the umpire
	printf 'From: tarleton@example.test\nTo: umpire@example.test\nSubject: question %s\n\nWhen is the next turn?\n' "$1" |
		curl -s --url "smtp://127.0.0.1:$LAB_SMTP_PORT" --mail-from tarleton@example.test \
			--mail-rcpt umpire@example.test -T - || no "sending mail $1"
}
start_daemon() {
	touch "$work/daemon.log"
	"$daemon" -c "$work/despatch.conf" -f 2>>"$work/daemon.log" &
	dpid=$!
}
stop_daemon() {
	kill -TERM "$dpid"
	wait "$dpid"
	[ $? = 0 ] && ok || no "despatchd did not stop cleanly"
	dpid=
}

lab_setup "$work/lab" || { echo "FAIL: lab setup"; exit 1; }
lab_start || { echo "FAIL: the lab's servers did not start"; exit 1; }
lab_umpire_conf "$work"
cp "$work/despatch.conf" "$work/base.conf"
"$bin" -c "$work/despatch.conf" new cw "$src/campaign/cowpens-1781/cowpens.scenario" >/dev/null ||
	{ echo "FAIL: new"; exit 1; }
imap_conf() {  # imap_conf URL [CA-FILE LINE]
	cp "$work/base.conf" "$work/despatch.conf"
	printf '[imap]\nurl = %s\nuser = umpire\npassword-file = %s/imap.pass\n%s\npoll = 1s\n' \
		"$1" "$work" "${2:-}" >>"$work/despatch.conf"
}

# A wrong password: refused, said so, tried again; mended, it connects.
printf 'not-the-password\n' >"$work/imap.pass"
chmod 600 "$work/imap.pass"
imap_conf "imaps://127.0.0.1:$LAB_IMAPS_PORT/INBOX" "ca-file = $LAB_CERT"
send 1
start_daemon
until_log "refused the login of user umpire" 2 && ok || no "no clear line for a wrong password: $(cat "$work/daemon.log")"
grep -q "check user and password-file in \[imap\]" "$work/daemon.log" && ok || no "the line does not say what to mend"
alive && ok || no "despatchd died on a wrong password"
printf 'umpirepw\n' >"$work/imap.pass"
until_log "imap uid 1: " && ok || no "not taken in once the password was mended: $(tail -3 "$work/daemon.log")"
grep -q "not-the-password\|umpirepw" "$work/daemon.log" && no "a password in the log" || ok

# The server goes away and comes back: the daemon waits for it.
lab_stop_dovecot
until_log "imap: cannot connect to" 1 && ok || no "no line for the server going away: $(tail -3 "$work/daemon.log")"
alive && ok || no "despatchd died when the server went away"
grep -q "imap: cannot connect to 127.0.0.1:$LAB_IMAPS_PORT: the connection was refused" "$work/daemon.log" && ok ||
	no "the line does not say the connection was refused: $(grep imap: "$work/daemon.log" | tail -2)"
n=$(grep -c "imap: connected" "$work/daemon.log")
lab_start_dovecot || no "dovecot restart"
until_log "imap: connected" $((n + 1)) && ok || no "no reconnection: $(tail -3 "$work/daemon.log")"
send 2
until_log "imap uid 2: " && ok || no "mail after the reconnection not taken in: $(tail -3 "$work/daemon.log")"
stop_daemon

# A certificate the system does not trust (no ca-file): refused before the
# login, said so, tried again.
logins=$(grep -c "Login: user=<umpire>" "$LAB_DIR/dovecot/dovecot.log")
imap_conf "imaps://127.0.0.1:$LAB_IMAPS_PORT/INBOX"
send 3
: >"$work/daemon.log"
start_daemon
until_log "is not trusted" 2 && ok || no "no clear line for an untrusted certificate: $(cat "$work/daemon.log")"
grep -q "name the CA that signed it with ca-file" "$work/daemon.log" && ok || no "the line does not say what to mend"
alive && ok || no "despatchd died on an untrusted certificate"
grep -q "imap uid 3" "$work/daemon.log" && no "mail taken from an untrusted server" || ok
[ "$(grep -c "Login: user=<umpire>" "$LAB_DIR/dovecot/dovecot.log")" = "$logins" ] && ok ||
	no "the password was sent to a server not trusted"
stop_daemon
# The same over STARTTLS on the plain port.
imap_conf "imap://127.0.0.1:$LAB_IMAP_PORT/INBOX"
: >"$work/daemon.log"
start_daemon
until_log "is not trusted" 1 && ok || no "STARTTLS: no line for an untrusted certificate: $(cat "$work/daemon.log")"
stop_daemon
# Trusted through ca-file, over STARTTLS: it connects and takes mail 3.
imap_conf "imap://127.0.0.1:$LAB_IMAP_PORT/INBOX" "ca-file = $LAB_CERT"
: >"$work/daemon.log"
start_daemon
until_log "imap uid 3: " && ok || no "STARTTLS with ca-file: $(cat "$work/daemon.log")"
# A mail past the 4 MB limit: fetched only up to it, answered with the
# limit, and moved out of the way like any other.
{
	printf 'From: tarleton@example.test\nTo: umpire@example.test\nSubject: big\n\n'
	head -c 3900000 /dev/zero | base64 -w 76
} >"$work/big.eml"
curl -s --url "smtp://127.0.0.1:$LAB_SMTP_PORT" --mail-from tarleton@example.test \
	--mail-rcpt umpire@example.test -T "$work/big.eml" || no "sending the large mail"
until_log "imap uid 4: " && ok || no "the large mail was not taken in: $(tail -3 "$work/daemon.log")"
for _ in $(seq 100); do grep -rqs "longer than the limit of 4194304 bytes" "$(lab_maildir tarleton)" && break; sleep 0.05; done
grep -rqs "longer than the limit of 4194304 bytes" "$(lab_maildir tarleton)" && ok || no "no answer naming the limit"
[ "$(lab_count umpire)" = 0 ] && ok || no "the large mail stayed in the inbox"
stop_daemon
"$bin" -c "$work/despatch.conf" status | grep -q "despatchd  stopped" && ok || no "status: $("$bin" -c "$work/despatch.conf" status)"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
