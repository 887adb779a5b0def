#!/bin/bash
# test_status.sh - despatch status as a monitoring check sees it (issue
# 23, problem 6): whether despatchd runs comes from its lock, not its pid;
# the exit code is 0 all well, 1 warnings, 2 no daemon, 3 unknown, the
# same for the text and --json; status never makes a database.
#   usage: test_status.sh DESPATCH DESPATCHD SOURCE_DIR
set -u
bin=$1
daemon=$2
src=$3
work=$(mktemp -d /tmp/despatch-status.XXXXXX)
pass=0
fail=0
holder=
dpid=
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; [ -n "$dpid" ] && kill "$dpid" 2>/dev/null; [ "$fail" = 0 ] && rm -rf "$work" || echo "kept $work"' EXIT
export DESPATCH_FROM="despatch <despatch@referee.example.org>"
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }
db=$work/s.db
lock=$db.despatchd.lock
scn=$src/campaign/cowpens-1781/cowpens.scenario

status() {  # status WANT NAME [--json]: stdout in $work/out
	local want=$1 name=$2
	shift 2
	"$bin" --db "$db" status "$@" >"$work/out" 2>"$work/err"
	local got=$?
	[ "$got" = "$want" ] && ok || no "$name: status $* exit $got, wanted $want: $(cat "$work/out" "$work/err")"
}
says() { grep -qF -- "$2" "$work/out" && ok || no "$1: no '$2' in: $(cat "$work/out")"; }
holds() {  # holds NAME EXPR: EXPR (Python; d the JSON of $work/out)
	python3 -c 'import json, re, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$work/out" "$2" 2>"$work/pyerr" && ok ||
	    no "$1: not $2: $(cat "$work/pyerr" "$work/out")"
}
# Holds the lock as despatchd does (flock(1) is flock(2), exclusive;
# -o: held by flock alone, not by the sleep it runs, so killing it frees
# the lock).
hold() {
	flock -o -x "$lock" sleep 60 &
	holder=$!
	for _ in $(seq 100); do flock -n -s "$lock" true 2>/dev/null || return 0; sleep 0.05; done
	no "the lock was not taken"
}
unhold() {
	local sleeper
	sleeper=$(ps -o pid= --ppid "$holder")
	kill "$holder" $sleeper 2>/dev/null
	wait "$holder" 2>/dev/null
	holder=
}

# No database: unknown, and none made.
status 3 "no database"
says "no database" "no such database"
[ ! -e "$db" ] && ok || no "status made a database"
status 3 "no database, JSON" --json
holds "no database, JSON" "d['status'] == 'unknown' and d['exit'] == 3 and 'no such database' in d['error']"
[ ! -e "$db" ] && ok || no "status --json made a database"

"$bin" --db "$db" new g "$scn" >/dev/null || no "new"
"$bin" --db "$db" player add g crown tarleton@crown.example.org >/dev/null
"$bin" --db "$db" player add g continental morgan@continental.example.org >/dev/null
"$bin" --db "$db" start g >/dev/null 2>&1 || no "start"

# No despatchd ever ran: 2.
status 2 "never ran"
says "never ran" "despatchd  never ran on this database"
says "never ran" "game       g                running, turn 1 of 6 (crown), step 1"
status 2 "never ran, JSON" --json
holds "never ran, JSON" "d['status'] == 'down' and d['daemon'] == {'state': 'never-ran', 'running': False, 'pid': None, 'as_of': None, 'detail': None} and d['outbox']['waiting'] == 2 and d['games'][0]['name'] == 'g' and d['games'][0]['phase'] == 'crown'"

# despatchd ran one round and stopped: 2.
mkdir -p "$work/Maildir/new" "$work/Maildir/cur" "$work/Maildir/tmp"
printf 'database = %s\n[maildir]\npath = %s\n' "$db" "$work/Maildir" >"$work/d.conf"
"$daemon" -c "$work/d.conf" --once 2>"$work/d.log" || no "despatchd --once: $(cat "$work/d.log")"
status 2 "stopped"
says "stopped" "despatchd  stopped (pid "
status 2 "stopped, JSON" --json
holds "stopped, JSON" "d['daemon']['state'] == 'stopped' and d['daemon']['running'] is False and isinstance(d['daemon']['pid'], int) and re.fullmatch(r'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ', d['daemon']['as_of'])"

# The lock held: a daemon runs, whatever its pid says (status never
# asks the pid: as another user kill(pid, 0) says EPERM).
hold
status 0 "running"
says "running" "despatchd  running (pid "
status 0 "running, JSON" --json
holds "running, JSON" "d['status'] == 'ok' and d['exit'] == 0 and d['warnings'] == [] and d['daemon']['state'] == 'running' and d['daemon']['running'] is True"

# A mail failed for good is a warning: 1.
if command -v sqlite3 >/dev/null; then
	sqlite3 "$db" "UPDATE outbox SET failed_at = 1, last_error = '550 5.1.1 no such user' WHERE id = (SELECT min(id) FROM outbox)" || no "sqlite3"
	status 1 "a failed mail"
	says "a failed mail" "warning    1 mail failed for good"
	status 1 "a failed mail, JSON" --json
	holds "a failed mail, JSON" "d['status'] == 'warning' and d['exit'] == 1 and d['outbox']['failed'] == 1 and d['warnings'] == [\"1 mail failed for good (see 'despatch outbox')\"]"
	sqlite3 "$db" "UPDATE outbox SET failed_at = NULL, last_error = NULL"
fi
# So is a game another rules engine played, waiting for its upgrade.
DESPATCH_TEST_ENGINE=3 "$bin" --db "$db" new old "$scn" >/dev/null
"$bin" --db "$db" player add old crown a@crown.example.org >/dev/null
"$bin" --db "$db" player add old continental b@continental.example.org >/dev/null
DESPATCH_TEST_ENGINE=3 "$bin" --db "$db" start old >/dev/null 2>&1
status 1 "a game waits"
says "a game waits" "WAITS: played by rules engine 3"
says "a game waits" "warning    game old waits: played by rules engine 3"
status 1 "a game waits, JSON" --json
holds "a game waits, JSON" "[g for g in d['games'] if g['name'] == 'old'][0]['waits'].startswith('played by rules engine 3')"
DESPATCH_TEST_ENGINE=3 "$bin" --db "$db" game remove old --yes >/dev/null 2>&1 ||
	"$bin" --db "$db" game upgrade old >/dev/null 2>&1 || no "the waiting game could not be put away"
unhold

# The lock free and the record saying running: the daemon is gone.
"$daemon" -c "$work/d.conf" -f 2>>"$work/d.log" &
dpid=$!
for _ in $(seq 100); do "$bin" --db "$db" status 2>/dev/null | grep -q "^despatchd  running" && break; sleep 0.05; done
status 0 "despatchd itself"
says "despatchd itself" "despatchd  running (pid $dpid)"
kill -9 "$dpid"
wait "$dpid" 2>/dev/null
dpid=
status 2 "gone"
says "gone" "despatchd  gone (it did not stop cleanly) (pid "
status 2 "gone, JSON" --json
holds "gone, JSON" "d['daemon']['state'] == 'gone' and d['daemon']['running'] is False"

# despatchd running with its IMAP server out of reach (nothing listens
# on port 9 of loopback): a warning, 1, whatever the detail's words.
printf 'secret\n' >"$work/imap.pass"; chmod 600 "$work/imap.pass"
printf 'database = %s\n[imap]\nurl = imap://127.0.0.1:9/INBOX\nuser = u\npassword-file = %s\n' \
	"$db" "$work/imap.pass" >"$work/i.conf"
"$daemon" -c "$work/i.conf" -f 2>>"$work/d.log" &
dpid=$!
for _ in $(seq 200); do "$bin" --db "$db" status >/dev/null 2>&1; [ $? = 1 ] && break; sleep 0.05; done
status 1 "the IMAP server out of reach"
says "the IMAP server out of reach" "warning    a mail server fails: imap: not connected"
status 1 "the IMAP server out of reach, JSON" --json
holds "the IMAP server out of reach, JSON" "d['status'] == 'warning' and d['daemon']['running'] is True and any(w.startswith('a mail server fails') for w in d['warnings'])"
kill "$dpid"
wait "$dpid" 2>/dev/null
dpid=

# A lock that cannot be opened: unknown, 3, saying why.
rm -f "$lock"
ln -s "$(basename "$lock")" "$lock"
status 3 "the lock unreadable"
says "the lock unreadable" "despatchd  unknown: cannot open $lock"
status 3 "the lock unreadable, JSON" --json
holds "the lock unreadable, JSON" "d['status'] == 'unknown' and d['daemon']['running'] is None and 'cannot open' in d['daemon']['lock']"
rm -f "$lock"

check_usage() { "$bin" --db "$db" status --frob >/dev/null 2>&1; [ $? = 2 ] && ok || no "status --frob is no usage error"; }
check_usage

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
