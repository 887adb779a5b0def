#!/bin/bash
# test_outbox_send.sh - 'despatch outbox send' against a real Postfix
# delivering into a real Dovecot, on loopback: every welcome arrives,
# nothing twice; with Postfix stopped the mail is put off and arrives
# when it is back; a crash after the server's 250 and before the record
# resends that one mail with the same Message-ID; a wrong password is a
# clear message and a retry, not a crash.
#   test_outbox_send.sh DESPATCH SOURCE_DIR
# Exits 77 (skipped) when Dovecot and Postfix are not installed.
set -u
bin=$1
src=$2
here=$(dirname "$0")
. "$here/lab.sh"
lab_test_begin mail

lab_setup "$work/lab" || { echo "FAIL: lab setup"; exit 1; }
lab_start || { echo "FAIL: the lab's servers did not start"; exit 1; }

lab_umpire_conf "$work"
d() { "$bin" -c "$work/despatch.conf" "$@"; }
d new cw "$src/campaign/cowpens-1781/cowpens.scenario" >/dev/null || { echo "FAIL: new"; exit 1; }
d player add cw crown tarleton@example.test --password scarlet-bugle-thistle-harbour >/dev/null
d player add cw continental morgan@example.test --password hickory-ember-cove-wren >/dev/null
d start cw >/dev/null 2>&1

# Both welcomes arrive; a second run sends nothing.
out=$(d outbox send 2>&1) && grep -q "2 sent, 0 put off, 0 failed" <<<"$out" && ok || no "first send: $out"
for _ in $(seq 100); do [ "$(lab_count tarleton)" = 1 ] && [ "$(lab_count morgan)" = 1 ] && break; sleep 0.05; done
[ "$(lab_count tarleton)" = 1 ] && [ "$(lab_count morgan)" = 1 ] && ok || no "welcomes delivered: $(lab_count tarleton) and $(lab_count morgan)"
cat "$(lab_maildir tarleton)"/new/* "$(lab_maildir tarleton)"/cur/* 2>/dev/null | grep -q "Your secret: scarlet-bugle-thistle-harbour" && ok || no "the welcome's text in tarleton's mailbox"
out=$(d outbox send 2>&1) && grep -q "0 sent" <<<"$out" && ok || no "second send: $out"

# Postfix away: the mail is put off, then sent once it is back.
sed 's/GAME cowpens/GAME cw/; s/^From: .*/From: Tarleton <tarleton@example.test>/' \
	"$src/campaign/cowpens-1781/orders/t01-crown.eml" >"$work/orders.eml"
d submit "$work/orders.eml" >/dev/null || no "submit"
lab_stop_postfix
out=$(d outbox send 2>&1) && grep -q "0 sent, 1 put off" <<<"$out" && ok || no "send with postfix down: $out"
d outbox | grep -q "1 attempt" && ok || no "the outbox shows the attempt"
lab_start_postfix || no "postfix restart"
# The retry is a minute off; the operator who mended the server sends now.
out=$(d outbox send 2>&1) && grep -q "0 sent" <<<"$out" && ok || no "the retry waits: $out"
out=$(d outbox send --now 2>&1) && grep -q "1 sent" <<<"$out" && ok || no "send --now after postfix is back: $out"
for _ in $(seq 100); do [ "$(lab_count tarleton)" = 2 ] && break; sleep 0.05; done
[ "$(lab_count tarleton)" = 2 ] && ok || no "the reply arrived once: $(lab_count tarleton)"

# A crash after the 250 and before the record: sent again, same Message-ID.
d submit "$work/orders.eml" >/dev/null   # a duplicate: no new mail
printf 'From: Tarleton <tarleton@example.test>\nMessage-ID: <help-1@example.test>\n\nGAME cw SIDE crown PASSWORD scarlet-bugle-thistle-harbour\nHELP\n' >"$work/help.eml"
d submit "$work/help.eml" >/dev/null
DESPATCH_CRASH=after-send d outbox send >/dev/null 2>&1
[ $? = 137 ] && ok || no "the crash point did not kill the sender"
out=$(d outbox send 2>&1) && grep -q "1 sent" <<<"$out" && ok || no "send after the crash: $out"
for _ in $(seq 100); do [ "$(lab_count tarleton)" = 4 ] && break; sleep 0.05; done
ids=$(cat "$(lab_maildir tarleton)"/new/* "$(lab_maildir tarleton)"/cur/* 2>/dev/null | grep "^Message-ID: <cw.reply" | sort | uniq -c | awk '$1 == 2' | wc -l)
[ "$(lab_count tarleton)" = 4 ] && [ "$ids" = 1 ] && ok || no "the one mail in flight came twice with one Message-ID ($(lab_count tarleton) mails, $ids doubled)"

# A wrong password: a clear message and a retry, never a crash.
printf 'wrongpw\n' >"$work/smtp.pass"
d submit "$work/help.eml" >/dev/null 2>&1
printf 'From: Tarleton <tarleton@example.test>\nMessage-ID: <help-2@example.test>\n\nGAME cw SIDE crown PASSWORD scarlet-bugle-thistle-harbour\nSTATUS\n' >"$work/status.eml"
d submit "$work/status.eml" >/dev/null
out=$(d outbox send 2>&1)
st=$?
echo "wrong password: $out" | head -2
[ $st = 0 ] && grep -qi "put off" <<<"$out" && grep -qi "login\|auth" <<<"$out" && ok || no "wrong password: exit $st: $out"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
