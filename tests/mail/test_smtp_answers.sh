#!/bin/bash
# test_smtp_answers.sh - 'despatch outbox send' takes each kind of SMTP
# answer for what it is: a 4xx (greylisting) puts the mail off to be
# tried again, a 5xx marks it failed for good, a 250 sent.  The server is
# tests/mail/fake_smtp.py on loopback, which answers by recipient.
#   usage: test_smtp_answers.sh DESPATCH SOURCE_DIR
# Exits 77 (skipped, saying why) without python3; under CI=true, which
# installs it, that is a failure (tests/need.sh).
set -u
bin=$1
src=$2
. "$src/tests/need.sh"
need_ci python3 python3
work=$(mktemp -d /tmp/despatch-smtp.XXXXXX)
spid=
pass=0
fail=0
trap '[ -n "$spid" ] && kill "$spid" 2>/dev/null; [ "$fail" = 0 ] && rm -rf "$work" || echo "kept $work"' EXIT
export PYTHONDONTWRITEBYTECODE=1
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }

python3 "$src/tests/mail/fake_smtp.py" "$work/port" "$work/smtp.log" 60 &
spid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.05; done
port=$(cat "$work/port")
printf 'database = %s/d.db\nfrom = despatch <umpire@example.test>\n[smtp]\nurl = smtp://127.0.0.1:%s\n' \
	"$work" "$port" >"$work/despatch.conf"
d() { "$bin" -c "$work/despatch.conf" "$@"; }
d new cw "$src/campaign/cowpens-1781/cowpens.scenario" >/dev/null || { no "new"; exit 1; }
d player add cw crown greylisted@example.test >/dev/null
d player add cw continental gone@example.test >/dev/null
d player add cw observer watcher@example.test >/dev/null
d start cw >/dev/null 2>&1

out=$(d outbox send 2>&1)
grep -q "1 sent, 1 put off, 1 failed" <<<"$out" && ok || no "first send: $out"
grep -qx "accepted watcher@example.test" "$work/smtp.log" && ok || no "the observer's welcome was not accepted: $(cat "$work/smtp.log" 2>/dev/null)"
d outbox >"$work/outbox" 2>&1
grep -q "1 mail waiting" "$work/outbox" && ok || no "the greylisted welcome is not waiting: $(head -3 "$work/outbox")"
grep -q "1 failed for good" "$work/outbox" && ok || no "the refused welcome is not failed for good: $(head -3 "$work/outbox")"
grep -A3 "greylisted@example.test" "$work/outbox" | grep -q "1 attempt" && ok || no "the greylisted welcome shows no attempt: $(cat "$work/outbox")"
# Tried again (now, as an operator would): put off again, never failed.
out=$(d outbox send --now 2>&1)
grep -q "0 sent, 1 put off, 0 failed" <<<"$out" && ok || no "the retry: $out"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
