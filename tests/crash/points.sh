#!/bin/bash
# points.sh - despatch and despatchd killed at each named crash point
# (src/core/crash.h), at every commit boundary of the intake, the daemon's
# batch, the spool, a step and the outbox, then run again: each ends in
# exactly the database of a run that was never killed, nothing lost,
# doubled or half applied.  Where a random kill (daemon_kill.sh) would
# hardly ever land, these land every time.  And at every kill of the
# daemon: no mail is in cur/ that the database does not hold.
#   points.sh DESPATCH DESPATCHD DBSTATE SOURCE_DIR
set -u
bin=$1
daemon=$2
dbstate=$3
src=$4
work=$(mktemp -d /tmp/despatch-points.XXXXXX)
fail=0
pass=0
trap '[ "$fail" = 0 ] && rm -rf "$work" || echo "kept $work"' EXIT
export DESPATCH_FROM="despatch <despatch@referee.example.org>"
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }
N=12

# A started game, kept as a template: each run starts from a copy.
mkdir -p "$work/tpl"
t() { "$bin" --db "$work/tpl/d.db" "$@" >/dev/null; }
t new cowpens "$src/campaign/cowpens-1781/cowpens.scenario" || { no "new"; exit 1; }
t player add cowpens crown tarleton@crown.example.org --password scarlet-bugle-thistle-harbour
t player add cowpens continental morgan@continental.example.org --password hickory-ember-cove-wren
t start cowpens 2>/dev/null
t set cowpens fixed-deadlines on
t set --server rate-limit 100000
t key show

# The mail: orders from both sides, a question, a stranger's.
crown=$src/campaign/cowpens-1781/orders/t01-crown.eml
cont=$src/campaign/cowpens-1781/orders/t01-continental.eml
mkdir -p "$work/mail"
for i in $(seq -w 1 $N); do
	f="$work/mail/17000${i}.M${i}P1.host"
	case $((10#$i % 4)) in
	0)	printf 'From: Stranger <s%s@elsewhere.example>\nTo: despatch@referee.example.org\nSubject: offer\nMessage-ID: <pt-%s@elsewhere.example>\n\nAn offer.\n' "$i" "$i" >"$f" ;;
	1)	sed "s/^Message-I[Dd]: [^\r]*/Message-Id: <pt-$i@continental.example.org>/" "$cont" >"$f"
		printf '\n# set %s\n' "$i" >>"$f" ;;
	2)	printf 'From: Banastre Tarleton <tarleton@crown.example.org>\nTo: despatch@referee.example.org\nSubject: question\nMessage-ID: <pt-%s@crown.example.org>\n\nGAME cowpens SIDE crown PASSWORD scarlet-bugle-thistle-harbour\nSTATUS\n' "$i" "$i" >"$f" ;;
	*)	sed "s/^Message-ID: .*/Message-ID: <pt-$i@crown.example.org>/; s/^Light Infantry: ADVANCE 8/Light Infantry: ADVANCE $((10#$i % 8 + 1))/" "$crown" >"$f" ;;
	esac
done

# fresh NAME: a copy of the template (database and key) with the mail in
# its Maildir's new/.
fresh() {
	local d=$work/$1
	rm -rf "$d"
	mkdir -p "$d/mail/new" "$d/mail/cur" "$d/mail/tmp"
	cp -p "$work/tpl/d.db" "$work/tpl/d.db.key" "$work/tpl/d.db.key.secrets" "$d/"
	cp "$work"/mail/* "$d/mail/new/"
	printf 'database = %s/d.db\nfrom = despatch <despatch@referee.example.org>\n[maildir]\npath = %s/mail\n' \
		"$d" "$d" >"$d/despatch.conf"
}

# Every mail in cur/ must be one the database holds.
cur_is_stored() {  # cur_is_stored NAME POINT
	local d=$work/$1 f id
	for f in "$d"/mail/cur/*; do
		[ -e "$f" ] || continue
		id=$(sed -n 's/^Message-I[Dd]: *<\([^>]*\)>.*/\1/p' "$f" | head -1)
		"$dbstate" "$d/d.db" --has "$id" || { no "$2: $(basename "$f") is in cur/ but not in the database"; return; }
	done
	ok
}

# The undisturbed run.
fresh calm
"$daemon" -c "$work/calm/despatch.conf" --once 2>"$work/calm.log" || no "the calm daemon failed"
"$dbstate" "$work/calm/d.db" >"$work/calm.state" || no "dbstate calm"
[ "$(ls "$work/calm/mail/cur" | wc -l)" = $N ] || no "calm: not every mail in cur/"

# The daemon, killed once at each point, then run again.
for point in batch-spooled after-store after-move after-move:5 intake-stored \
    intake-committed intake-committed:7 batch-committed:2 after-read; do
	name=k-${point/:/-}
	fresh "$name"
	{ DESPATCH_CRASH=$point "$daemon" -c "$work/$name/despatch.conf" --once 2>"$work/$name.log"; got=$?; } 2>/dev/null
	[ "$got" = 137 ] && ok || { no "$point: despatchd was not killed there (exit $got)"; continue; }
	cur_is_stored "$name" "$point"
	case $point in
	batch-spooled)  # nothing is moved before its batch commits
		[ -z "$(ls "$work/$name/mail/cur")" ] && ok || no "$point: mail in cur/ before the batch committed" ;;
	after-store)   # committed: every mail held, none moved yet
		[ "$(ls "$work/$name/mail/new" | wc -l)" = $N ] && ok || no "$point: mail moved before the point" ;;
	batch-committed:2)  # the replies are in, held for maps never drawn
		held=$("$dbstate" "$work/$name/d.db" --held | tail -1)
		[ "$held" -gt 0 ] && ok || no "$point: no reply held for its map ($held)" ;;
	esac
	"$daemon" -c "$work/$name/despatch.conf" --once 2>>"$work/$name.log" || no "$point: the daemon after the kill failed"
	# A reply held for a map the killed daemon never drew goes at once,
	# not after the hold's ten minutes (issue 19, 6).
	held=$("$dbstate" "$work/$name/d.db" --held | tail -1)
	[ "$held" = 0 ] && ok || no "$point: $held replies still held for their map after the restart"
	[ -z "$(ls "$work/$name/mail/new")" ] && ok || no "$point: mail left in new/"
	[ "$(ls "$work/$name/mail/cur" | wc -l)" = $N ] && ok || no "$point: $(ls "$work/$name/mail/cur" | wc -l) mails in cur/, not $N"
	[ -d "$work/$name/mail/.Quarantine" ] && no "$point: mail quarantined"
	"$dbstate" "$work/$name/d.db" >"$work/$name.state" || no "$point: dbstate"
	if cmp -s "$work/calm.state" "$work/$name.state"; then
		ok
	else
		no "$point: the database differs from the undisturbed run's:"
		diff "$work/calm.state" "$work/$name.state" | head -10
	fi
done

# A passing failure of one mail in the middle of a batch (DESPATCH_FAULT,
# core/crash.h): the mails before it are stored and moved; it and the
# ones after stay in new/, none moved unstored; the next round takes them.
fresh fault
# --once says its round did not all go through: exit 1.
DESPATCH_FAULT=spool-add:5 "$daemon" -c "$work/fault/despatch.conf" --once 2>"$work/fault.log"
got=$?
[ "$got" = 1 ] && ok || no "the daemon with a passing fault: exit $got, not 1"
cur_is_stored fault "a passing fault"
[ "$(ls "$work/fault/mail/cur" | wc -l)" = 4 ] && ok || no "a passing fault: $(ls "$work/fault/mail/cur" | wc -l) mails in cur/, not the 4 before it"
[ "$(ls "$work/fault/mail/new" | wc -l)" = $((N - 4)) ] && ok || no "a passing fault: $(ls "$work/fault/mail/new" | wc -l) mails left in new/, not $((N - 4))"
[ -d "$work/fault/mail/.Quarantine" ] && no "a passing fault quarantined a mail"
"$daemon" -c "$work/fault/despatch.conf" --once 2>>"$work/fault.log" || no "the daemon after the fault failed"
"$dbstate" "$work/fault/d.db" >"$work/fault.state"
cmp -s "$work/calm.state" "$work/fault.state" && ok || { no "after a passing fault the database differs from the undisturbed run's:"; diff "$work/calm.state" "$work/fault.state" | head -6; }

# The command line: a submit, a step and the outbox, each killed at its
# points.  cli NAME: the template with both sides' turn-1 orders.
d() { local n=$1; shift; "$bin" --db "$work/$n/d.db" "$@"; }
cli() {
	rm -rf "$work/$1"; mkdir -p "$work/$1"
	cp -p "$work/tpl/d.db" "$work/tpl/d.db.key" "$work/tpl/d.db.key.secrets" "$work/$1/"
}
"$dbstate" "$work/tpl/d.db" >"$work/c-start.state"
cli c-calm
d c-calm submit "$crown" >/dev/null || no "calm submit"
"$dbstate" "$work/c-calm/d.db" >"$work/c-submitted.state"
d c-calm submit "$cont" >/dev/null || no "calm submit"
"$dbstate" "$work/c-calm/d.db" >"$work/c-ready.state"
d c-calm turn cowpens >/dev/null || no "calm turn"
"$dbstate" "$work/c-calm/d.db" >"$work/c-played.state"
d c-calm outbox write "$work/c-calm/out" >/dev/null || no "calm outbox write"
"$dbstate" "$work/c-calm/d.db" >"$work/c-written.state"
same() {  # same WHAT NAME STATE-FILE
	"$dbstate" "$work/$2/d.db" >"$work/$2.now"
	if cmp -s "$3" "$work/$2.now"; then ok; else no "$1: not the state wanted:"; diff "$3" "$work/$2.now" | head -8; fi
}
killed() {  # killed WHAT POINT COMMAND...: COMMAND dies at POINT
	local what=$1 point=$2
	shift 2
	local got
	{ DESPATCH_CRASH=$point "$@" >/dev/null 2>&1; got=$?; } 2>/dev/null
	[ "$got" = 137 ] && ok || no "$what: not killed at $point (exit $got)"
}
for point in intake-stored intake-committed; do
	cli "c-$point"
	killed "submit" "$point" d "c-$point" submit "$crown"
	if [ "$point" = intake-stored ]; then
		same "submit killed before its commit stores nothing" "c-$point" "$work/c-start.state"
	fi
	d "c-$point" submit "$crown" >/dev/null || no "$point: submit again"
	same "submit killed at $point, then again" "c-$point" "$work/c-submitted.state"
done
for point in mid-turn turn-written turn-committed; do
	cli "c-$point"
	d "c-$point" submit "$crown" "$cont" >/dev/null
	killed "turn" "$point" d "c-$point" turn cowpens
	if [ "$point" = turn-committed ]; then
		same "a step killed after its commit is played" "c-$point" "$work/c-played.state"
		d "c-$point" tick >/dev/null || no "tick after a kill at $point"
	else
		same "a step killed before its commit leaves nothing" "c-$point" "$work/c-ready.state"
		d "c-$point" turn cowpens >/dev/null || no "$point: turn again"
	fi
	same "a step killed at $point, then again" "c-$point" "$work/c-played.state"
done
nmail=$(ls "$work/c-calm/out" | wc -l)
[ "$nmail" -gt 2 ] && ok || no "the calm outbox wrote $nmail mails"
for point in after-write:2 after-mark:2; do
	name=c-${point/:/-}
	cli "$name"
	d "$name" submit "$crown" "$cont" >/dev/null
	d "$name" turn cowpens >/dev/null
	killed "outbox write" "$point" d "$name" outbox write "$work/$name/out"
	[ "$(ls "$work/$name/out" | wc -l)" = 2 ] && ok || no "$point: $(ls "$work/$name/out" | wc -l) files before the kill, not 2"
	d "$name" outbox write "$work/$name/out" >/dev/null || no "$point: outbox write again"
	[ "$(ls "$work/$name/out" | wc -l)" = "$nmail" ] && ok || no "$point: $(ls "$work/$name/out" | wc -l) mails written in all, not $nmail"
	same "outbox write killed at $point, then again" "$name" "$work/c-written.state"
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
