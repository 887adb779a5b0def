#!/bin/bash
# test_config.sh - despatchd fails fast on a broken configuration and is
# honest about what it did (issue 23, problems 2 to 5), with no mail
# server: a Maildir is its mailbox.
#   - a configuration problem (a missing password file, Maildir or
#     database folder, a bad URL) is exit 78, one line a problem, and
#     nothing is started; a damaged database is 78 too;
#   - a password file 0640 owned by root and the daemon's group is taken,
#     0644 is not;
#   - --once exits non-zero when its round logged a warning or an error;
#   - SIGHUP refuses a broken file and keeps the running one, applies the
#     templates and the From, refuses a changed key, and says a changed
#     database takes a restart;
#   - with $JOURNAL_STREAM naming its stderr, each line has the journal's
#     priority (<3> for an error);
#   - the key: a despatchd given another key than the one the games being
#     played began with refuses to start (78).
#   usage: test_config.sh DESPATCH DESPATCHD SOURCE_DIR
set -u
bin=$1
daemon=$2
src=$3
work=$(mktemp -d /tmp/despatch-dconf.XXXXXX)
dpid=
trap '[ -n "$dpid" ] && kill "$dpid" 2>/dev/null; rm -rf "$work"' EXIT
export DESPATCH_CONFIG=/dev/null
unset DESPATCH_FROM DESPATCH_KEY DESPATCH_TEMPLATES
pass=0
fail=0
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }

db=$work/d.db
"$bin" --db "$db" new cowpens "$src/campaign/cowpens-1781/cowpens.scenario" >/dev/null || { no "new"; exit 1; }
"$bin" --db "$db" player add cowpens crown tarleton@crown.example.org >/dev/null
"$bin" --db "$db" player add cowpens continental morgan@continental.example.org >/dev/null
"$bin" --db "$db" start cowpens >/dev/null 2>&1 || no "start"
mkdir -p "$work/md/new" "$work/md/cur" "$work/md/tmp"
good() {
	printf 'database = %s\nfrom = despatch <umpire@club.example.org>\n[maildir]\npath = %s/md\n' "$db" "$work"
}
good >"$work/ok.conf"

# A whole configuration: one round, exit 0.
"$daemon" -c "$work/ok.conf" --once 2>"$work/log"
got=$?
[ "$got" = 0 ] && ok || no "a whole configuration: exit $got: $(cat "$work/log")"

# Each problem on a line of its own, and exit 78 before anything starts.
printf 'secret\n' >"$work/pass644"; chmod 644 "$work/pass644"
cat >"$work/bad.conf" <<CONF
database = $work/nowhere/d.db
[imap]
url = imap://:99999/INBOX
user = umpire
password-file = $work/missing.pass
[smtp]
url = smtps://
password-file = $work/pass644
[maildir]
path = $work/no-maildir
CONF
"$daemon" -c "$work/bad.conf" --once 2>"$work/log"
got=$?
[ "$got" = 78 ] && ok || no "a broken configuration: exit $got, not 78: $(cat "$work/log")"
for want in "database: $work/nowhere/d.db does not exist yet" "imap url imap://:99999/INBOX" \
	"$work/missing.pass: cannot read the password file" "[smtp] url smtps://" \
	"$work/pass644: the password file may be read by others" \
	"[maildir] path $work/no-maildir"; do
	grep -qF -- "$want" "$work/log" && ok || no "the log does not say \"$want\": $(cat "$work/log")"
done
[ "$(grep -c ' error: ' "$work/log")" = 6 ] && ok || no "not one error line a problem: $(cat "$work/log")"
[ ! -e "$work/nowhere" ] && [ ! -e "$work/no-maildir" ] && ok || no "the check made what it checked"
# 'despatch check' says the same, and exits 78 too.
"$bin" check -c "$work/bad.conf" >"$work/out" 2>&1
got=$?
[ "$got" = 78 ] && ok || no "despatch check: exit $got, not 78: $(cat "$work/out")"
grep -qF "[maildir] path $work/no-maildir" "$work/out" && ok || no "despatch check does not list the Maildir: $(cat "$work/out")"
"$bin" check -c "$work/ok.conf" >"$work/out" 2>&1 && ok || no "despatch check refused a whole file: $(cat "$work/out")"
grep -q "no problems" "$work/out" && ok || no "despatch check does not say it found nothing: $(cat "$work/out")"
# A Maildir missing is 78; an unreachable IMAP server is not (it is retried).
good | sed "s|$work/md|$work/gone|" >"$work/nomd.conf"
"$daemon" -c "$work/nomd.conf" --once 2>"$work/log"
[ $? = 78 ] && ok || no "a missing Maildir is not exit 78: $(cat "$work/log")"

# Password files: 0640 root:GROUP of the daemon is the Debian way.
if [ "$(id -u)" = 0 ] && getent group nogroup >/dev/null; then
	printf 'secret\n' >"$work/pass640"
	chown root:nogroup "$work/pass640"; chmod 640 "$work/pass640"
	chmod 755 "$work"
	{ printf 'user = nobody\n'; good; printf '[smtp]\nurl = smtp://127.0.0.1:9\npassword-file = %s/pass640\nuser = u\n' "$work"; } >"$work/p640.conf"
	chown -R nobody "$db" "$work/md"; chmod 777 "$work"
	"$bin" check -c "$work/p640.conf" >"$work/out" 2>&1
	grep -q "pass640" "$work/out" && no "a 0640 root:nogroup password file refused for user nobody: $(cat "$work/out")" || ok
	chmod 644 "$work/pass640"
	"$bin" check -c "$work/p640.conf" >"$work/out" 2>&1
	grep -q "pass640: the password file may be read by others" "$work/out" && ok || no "a 0644 password file taken: $(cat "$work/out")"
	chmod 640 "$work/pass640"
	# A lock a despatchd run as root left behind (the daemon now drops
	# root before it makes one): named with its mend, and despatchd
	# started as root for user nobody stops with 78, not a retry loop.
	: >"$db.despatchd.lock"; chown root:root "$db.despatchd.lock"; chmod 600 "$db.despatchd.lock"
	"$bin" check -c "$work/p640.conf" >"$work/out" 2>&1
	got=$?
	[ "$got" = 78 ] && grep -qF "$db.despatchd.lock cannot be read and written by this user" "$work/out" &&
		grep -qF "'chown nobody $db.despatchd.lock' mends it" "$work/out" && ok ||
		no "a root-owned lock is not named by check (exit $got): $(cat "$work/out")"
	"$daemon" -c "$work/p640.conf" --once 2>"$work/log"
	got=$?
	[ "$got" = 78 ] && grep -qF "$db.despatchd.lock" "$work/log" && ok ||
		no "despatchd with a root-owned lock: exit $got: $(cat "$work/log")"
	rm -f "$db.despatchd.lock"
	chown -R root "$db" "$work/md"; chmod 700 "$work"
else
	echo "skipped the 0640 password file part: not root"
fi

# Another daemon's lock: refused (exit 1, not 78: it is no configuration
# problem) once the second despatchd has waited out a status's look.
flock -o -x "$db.despatchd.lock" sleep 5 &
holder=$!
for _ in $(seq 100); do flock -n -s "$db.despatchd.lock" true 2>/dev/null || break; sleep 0.05; done
"$daemon" -c "$work/ok.conf" --once 2>"$work/log"
got=$?
[ "$got" = 1 ] && grep -q "another despatchd serves this database" "$work/log" && ok ||
	no "a second despatchd: exit $got: $(cat "$work/log")"
pkill -P "$holder" sleep 2>/dev/null; kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
# A lock held shared for an instant, as 'despatch status' does: waited out.
flock -o -s "$db.despatchd.lock" sleep 0.5 &
holder=$!
for _ in $(seq 100); do flock -n -x "$db.despatchd.lock" true 2>/dev/null || break; sleep 0.01; done
"$daemon" -c "$work/ok.conf" --once 2>"$work/log"
got=$?
[ "$got" = 0 ] && ok || no "despatchd gave up on a lock a status held for an instant: exit $got: $(cat "$work/log")"
wait "$holder" 2>/dev/null

# --once: a round that logged an error exits 1.  A mail the intake
# cannot read into a game is quarantined: an error of the round.
printf 'this is not a mail\n' >"$work/md/new/1700000001.M1P1.host"
chmod 000 "$work/md/new/1700000001.M1P1.host"
if [ "$(id -u)" != 0 ]; then
	"$daemon" -c "$work/ok.conf" --once 2>"$work/log"
	got=$?
	[ "$got" = 1 ] && ok || no "--once after an error in its round: exit $got, not 1: $(cat "$work/log")"
fi
chmod 644 "$work/md/new/1700000001.M1P1.host"
rm -f "$work/md/new/"*
# (As root a file cannot be made unreadable: a tick that fails does it.)
{ good; printf '[smtp]\nurl = smtp://127.0.0.1:9\n'; } >"$work/smtp.conf"
"$bin" --db "$db" outbox >/dev/null
"$daemon" -c "$work/smtp.conf" --once 2>"$work/log"
got=$?
if grep -q "outbox: .*put off" "$work/log"; then
	[ "$got" = 1 ] && ok || no "--once after the outbox was put off: exit $got, not 1: $(cat "$work/log")"
else
	no "no mail was put off with the SMTP server unreachable: $(cat "$work/log")"
fi

# The journal's priorities when stderr is its stream.
"$daemon" -c "$work/bad.conf" --once 2>"$work/jlog"
JOURNAL_STREAM=$(stat -c '%d:%i' "$work/jlog") "$daemon" -c "$work/bad.conf" --once 2>>"$work/jlog"
grep -q '^<3>error: ' "$work/jlog" && ok || no "no <3> before an error line under the journal: $(cat "$work/jlog")"
grep -q '^<2>fatal: ' "$work/jlog" && ok || no "no <2> before the fatal line: $(cat "$work/jlog")"
grep -q '^despatchd: error: ' "$work/jlog" && ok || no "without the journal the lines lost their name"
# log = syslog is a setting despatch check accepts; log = other is not.
{ printf 'log = syslog\n'; good; } >"$work/sys.conf"
"$bin" check -c "$work/sys.conf" >/dev/null 2>&1 && ok || no "log = syslog refused"
{ printf 'log = file\n'; good; } >"$work/badlog.conf"
"$bin" check -c "$work/badlog.conf" >"$work/out" 2>&1
[ $? = 78 ] && grep -q "log takes stderr" "$work/out" && ok || no "log = file taken: $(cat "$work/out")"

# SIGHUP.
mkdir -p "$work/tpl"
cp "$src/templates/"*.txt "$work/tpl/"
good >"$work/run.conf"
"$daemon" -c "$work/run.conf" -f 2>"$work/dlog" &
dpid=$!
waitlog() {
	local i
	for i in $(seq 100); do grep -qF -- "$1" "$work/dlog" && return 0; sleep 0.1; done
	return 1
}
waitlog "serving" || no "the daemon did not start: $(cat "$work/dlog")"
# A broken file: refused, the old kept, the daemon still there.
printf 'database = %s\n[maildir]\npath = %s/nowhere\n' "$db" "$work" >"$work/run.conf"
kill -HUP "$dpid"
waitlog "reload refused" && ok || no "a broken file at reload: not refused: $(cat "$work/dlog")"
kill -0 "$dpid" 2>/dev/null && ok || no "the daemon stopped on a broken reload"
# Templates and From: applied.
# (templates is a top-level key: it goes before the first section.)
{ printf 'templates = %s/tpl\n' "$work"; good | sed 's|umpire@club.example.org|referee@club.example.org|'; } >"$work/run.conf"
kill -HUP "$dpid"
waitlog "reloaded" && ok || no "a good reload not said: $(cat "$work/dlog")"
grep -qF "templates $work/tpl" "$work/dlog" && ok || no "the reload does not say the templates it took: $(cat "$work/dlog")"
grep -qF "referee@club.example.org> for games made from now on" "$work/dlog" && ok || no "the reload does not say the new From: $(cat "$work/dlog")"
# A template with a mistake: refused.
f=$(ls "$work/tpl/"*.txt | head -1)
printf '\n{{#unclosed\n' >>"$f"
kill -HUP "$dpid"
sleep 0.5
n=$(grep -c "reload refused" "$work/dlog")
[ "$n" = 2 ] && ok || no "a template with a mistake was taken at reload ($n refusals): $(cat "$work/dlog")"
cp "$src/templates/"*.txt "$work/tpl/"
# A changed key: refused; a changed database: said to need a restart.
{ printf 'key = %s/other.key\n' "$work"; good; } >"$work/run.conf"
kill -HUP "$dpid"
waitlog "key changed" && ok || no "a changed key at reload: not refused: $(cat "$work/dlog")"
{ good | sed "s|^database = .*|database = $work/other.db|"; } >"$work/run.conf"
: >"$work/other.db"
kill -HUP "$dpid"
waitlog "that takes a restart" && ok || no "a changed database at reload: not said: $(cat "$work/dlog")"
kill -TERM "$dpid"; wait "$dpid"; dpid=

# Another key than the games began with: refused at start.
"$bin" --db "$db" turn cowpens >/dev/null 2>&1
{ printf 'key = %s/other.key\n' "$work"; good; } >"$work/key.conf"
"$daemon" -c "$work/key.conf" --once 2>"$work/log"
got=$?
[ "$got" = 78 ] && grep -q "not the one these games were begun with: cowpens" "$work/log" && ok ||
	no "another key at start: exit $got: $(cat "$work/log")"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
