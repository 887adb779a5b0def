#!/bin/bash
# daemon_kill.sh - despatchd killed (SIGKILL) at random moments while it
# takes in a Maildir of mixed mail, restarted each time, ends with exactly
# the database and outbox of one daemon that ran undisturbed on the same
# mail: every mail stored once, answered once, none lost, none left in
# new/, none quarantined.  No mail server is needed: the Maildir is a
# directory and the outbox is only queued.
#   daemon_kill.sh DESPATCH DESPATCHD DBSTATE SOURCE_DIR [SEED]
# The kill times come from SEED (default: the process id); a failure
# prints it, and passing it again replays the same times.
set -u
bin=$1
daemon=$2
dbstate=$3
src=$4
seed=${5:-$$}
RANDOM=$seed
work=$(mktemp -d /tmp/despatch-kill.XXXXXX)
fail=0
dpid=
cleanup() { [ -n "$dpid" ] && kill -9 "$dpid" 2>/dev/null; [ "$fail" = 0 ] && rm -rf "$work" || echo "kept $work"; }
trap cleanup EXIT
no() { fail=1; echo "FAIL: $* (seed $seed)"; }
N=${DESPATCH_KILL_MAILS:-400}

# Two identical set-ups: 'calm' (one undisturbed daemon) and 'kill'.
for run in calm kill; do
	mkdir -p "$work/$run/mail/new" "$work/$run/mail/cur" "$work/$run/mail/tmp"
	cat >"$work/$run/despatch.conf" <<CONF
database = $work/$run/d.db
from = despatch <despatch@referee.example.org>
[maildir]
path = $work/$run/mail
CONF
	d() { "$bin" -c "$work/$run/despatch.conf" "$@" >/dev/null; }
	d new cowpens "$src/campaign/cowpens-1781/cowpens.scenario" || { no "new"; exit 1; }
	d player add cowpens crown tarleton@crown.example.org --password scarlet-bugle-thistle-harbour
	d player add cowpens continental morgan@continental.example.org --password hickory-ember-cove-wren
	d start cowpens 2>/dev/null
	# Nothing is played while the mail comes in (the phase would
	# otherwise be played after whichever round completed it), and no
	# sender reaches the hourly limit.
	d set cowpens fixed-deadlines on
	d set --server rate-limit 100000
done

# The mail: orders from both sides (each later set replaces the one
# before), a question, strangers' mail, and a duplicate delivered twice.
crown=$src/campaign/cowpens-1781/orders/t01-crown.eml
cont=$src/campaign/cowpens-1781/orders/t01-continental.eml
for i in $(seq -w 1 "$N"); do
	f="$work/calm/mail/new/17000${i}.M${i}P1.host"
	case $((10#$i % 10)) in
	0)	printf 'From: Stranger %s <s%s@elsewhere.example>\nTo: despatch@referee.example.org\nSubject: offer %s\nMessage-ID: <junk-%s@elsewhere.example>\n\nA great offer, number %s.\n' \
			"$i" "$i" "$i" "$i" "$i" >"$f" ;;
	3|7)	sed "s/^Message-I[Dd]: [^\r]*/Message-Id: <kill-$i@continental.example.org>/; s/^Subject: [^\r]*/Subject: orders $i/" \
			"$cont" >"$f"
		printf '\n# set %s\n' "$i" >>"$f" ;;
	5)	printf 'From: Banastre Tarleton <tarleton@crown.example.org>\nTo: despatch@referee.example.org\nSubject: question %s\nMessage-ID: <q-%s@crown.example.org>\n\nGAME cowpens SIDE crown PASSWORD scarlet-bugle-thistle-harbour\nSTATUS\n' \
			"$i" "$i" >"$f" ;;
	*)	sed "s/^Message-ID: .*/Message-ID: <kill-$i@crown.example.org>/; s/^Subject: .*/Subject: orders $i/; s/^Light Infantry: ADVANCE 8/Light Infantry: ADVANCE $((10#$i % 8 + 1))/" \
			"$crown" >"$f" ;;
	esac
done
cp "$work/calm/mail/new/17000$(seq -w 1 "$N" | sed -n 2p).M$(seq -w 1 "$N" | sed -n 2p)P1.host" \
	"$work/calm/mail/new/1799999999.again.host"
cp "$work/calm/mail/new/"* "$work/kill/mail/new/"

# The undisturbed daemon.
"$daemon" -c "$work/calm/despatch.conf" --once 2>"$work/calm/daemon.log" || no "the calm daemon failed"

# The disturbed one: started, killed 5-120 ms later, until new/ is empty
# (at most 200 times), then one last clean round.
kills=0
for _ in $(seq 200); do
	[ -z "$(ls "$work/kill/mail/new")" ] && break
	"$daemon" -c "$work/kill/despatch.conf" -f 2>>"$work/kill/daemon.log" &
	dpid=$!
	sleep "0.$(printf '%03d' $((RANDOM % 115 + 5)))"
	kill -9 "$dpid" 2>/dev/null && kills=$((kills + 1))
	wait "$dpid" 2>/dev/null
	dpid=
done
"$daemon" -c "$work/kill/despatch.conf" --once 2>>"$work/kill/daemon.log" || no "the last daemon failed"
# How many mails a kill caught between their batch's commit and their
# move (seen again and found stored), less the one delivered twice.
again=$(($(grep -c ": duplicate:" "$work/kill/daemon.log") - 1))
echo "$N mails, $kills kills, $again mails found stored again after a kill (seed $seed)"

for run in calm kill; do
	[ -z "$(ls "$work/$run/mail/new")" ] || no "$run: mail left in new/"
	[ -d "$work/$run/mail/.Quarantine" ] && no "$run: quarantined: $(ls "$work/$run/mail/.Quarantine/cur")"
	[ "$(ls "$work/$run/mail/cur" | wc -l)" = $((N + 1)) ] || no "$run: $(ls "$work/$run/mail/cur" | wc -l) mails in cur/, not $((N + 1))"
	"$dbstate" "$work/$run/d.db" >"$work/$run.state" || no "$run: dbstate"
done
sed -n '/^== integrity/,/^== foreign/p' "$work/kill.state" | grep -qx ok || no "integrity: $(head -3 "$work/kill.state")"
# One message row per distinct mail; one answer per mail that has one.
stored=$(sed -n '/^== messages/,/^== orders/p' "$work/kill.state" | grep -vc '^==')
[ "$stored" = "$N" ] || no "$stored messages stored, not $N"
if ! cmp -s "$work/calm.state" "$work/kill.state"; then
	no "the killed daemon's database differs from the calm one's:"
	diff "$work/calm.state" "$work/kill.state" | head -20
fi
[ "$fail" = 0 ] && echo "ok: the same database as an undisturbed run"
[ "$fail" = 0 ]
