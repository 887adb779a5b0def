#!/bin/bash
# bench_mail.sh - the mail loop measured on real servers (run by hand, not
# a test; needs Dovecot, Postfix and curl, as root, like the mail tests):
#   1. acknowledgement latency, p50 and p95, from Postfix accepting a
#      player's mail to the answer landing in the player's own mailbox,
#      through despatchd reading the umpire's INBOX over IMAPS, with IDLE
#      and then with fast polling (50 ms) on its kept connection;
#   2. durable ingest: mails/s despatchd takes in over IMAP (listed,
#      fetched, stored in its spool, moved to Processed), beside the raw
#      rate of fetching the same messages with a bare libetpan UID FETCH
#      BODY.PEEK[] loop (bench_imap_fetch), as a ratio; then the rate at
#      which the spooled mails are read and answered;
#   3. despatchd's resident memory with 100 games loaded.
#   bash tests/bench/bench_mail.sh [BUILD_DIR] [N]   (N latency mails, 20 N ingested)
# BENCH_WRAP="perf record -g -o /tmp/ingest.perf" profiles the ingest round;
# BENCH_MEM=1 prints SQLite's and malloc's figures of the daemon (gdb).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:-$top/build}
n=${2:-50}
bin=$build/despatch
daemon=$build/despatchd
. "$top/tests/mail/lab.sh"
lab_available && command -v curl >/dev/null || { echo "bench_mail: needs Dovecot, Postfix, curl and root"; exit 1; }
work=$(mktemp -d /tmp/despatch-bench.XXXXXX)
chmod 755 "$work"
dpid=
trap '[ -n "$dpid" ] && kill $dpid 2>/dev/null; lab_stop; rm -rf "$work"' EXIT
lab_setup "$work/lab" && lab_start || exit 1
lab_umpire_conf "$work"
printf 'umpirepw\n' >"$work/imap.pass"
chmod 600 "$work/imap.pass"
cp "$work/despatch.conf" "$work/base.conf"
imap_conf() {  # imap_conf IDLE POLL [nosmtp]
	if [ "${3:-}" = nosmtp ]; then
		grep -v '^\[smtp\]\|^url = smtp\|^user = umpire\|^password-file\|^ca-file' "$work/base.conf"
	else
		cat "$work/base.conf"
	fi >"$work/despatch.conf"
	printf '[imap]\nurl = imaps://127.0.0.1:%s/INBOX\nuser = umpire\npassword-file = %s\nca-file = %s\nidle = %s\npoll = %s\n' \
		"$LAB_IMAPS_PORT" "$work/imap.pass" "$LAB_CERT" "$1" "$2" >>"$work/despatch.conf"
}
imap_conf yes 30s
d() { "$bin" -c "$work/despatch.conf" "$@"; }
echo "bench_mail: $(nproc) cores; making 100 games..."
for g in $(seq 1 100); do
	d new "g$g" "$top/campaign/cowpens-1781/cowpens.scenario" >/dev/null
	d player add "g$g" crown tarleton@example.test --password scarlet-bugle-thistle-harbour >/dev/null
	d player add "g$g" continental morgan@example.test --password hickory-ember-cove-wren >/dev/null
	d start "g$g" >/dev/null 2>&1
done
d set --server rate-limit 0 >/dev/null
d outbox send >/dev/null     # the 200 welcomes, before the clock starts
sent=0

# latency TAG: N STATUS mails, one at a time, each waited for until its
# answer is in tarleton's mailbox; sets p50 and p95 (ms).
latency() {
	local lat=() i want t0 t1 sorted base
	base=$(lab_count tarleton)
	for i in $(seq 1 "$n"); do
		sent=$((sent + 1))
		printf 'From: T <tarleton@example.test>\nTo: umpire@example.test\nMessage-ID: <lat%d@example.test>\nSubject: s\n\nGAME g%d SIDE crown PASSWORD scarlet-bugle-thistle-harbour\nSTATUS\n' \
			"$sent" $(( (sent % 100) + 1 )) >"$work/m.eml"
		want=$((base + i))
		t0=$(date +%s%N)
		curl -s --url "smtp://127.0.0.1:$LAB_SMTP_PORT" --mail-from tarleton@example.test \
			--mail-rcpt umpire@example.test -T "$work/m.eml"
		while [ "$(lab_count tarleton)" -lt "$want" ]; do sleep 0.002; done
		t1=$(date +%s%N)
		lat+=($(( (t1 - t0) / 1000000 )))
	done
	sorted=$(printf '%s\n' "${lat[@]}" | sort -n)
	p50=$(sed -n "$(( (n + 1) / 2 ))p" <<<"$sorted")
	p95=$(sed -n "$(( (n * 95 + 99) / 100 ))p" <<<"$sorted")
}
start_daemon() {
	"$daemon" -c "$work/despatch.conf" 2>>"$work/daemon.log" &
	dpid=$!
	for _ in $(seq 200); do grep -q "imap: connected" "$work/daemon.log" && break; sleep 0.05; done
	sleep 0.3
}
stop_daemon() { kill -TERM $dpid; wait $dpid; dpid=; : >"$work/daemon.log"; }

# 1. Latency with IDLE, then with polling every 50 ms.
: >"$work/daemon.log"
start_daemon
rss0=$(awk '/VmRSS/ { print $2 }' /proc/$dpid/status)
[ -n "${BENCH_STATUS:-}" ] && d status | head -2
latency
idle50=$p50 idle95=$p95
rss=$(awk '/VmRSS/ { print $2 }' /proc/$dpid/status)
if [ -n "${BENCH_MEM:-}" ]; then
	gdb -p $dpid -batch -ex "call (long long)sqlite3_memory_used()" \
		-ex "call (long long)sqlite3_memory_highwater(0)" -ex "call (void)malloc_stats()" >"$work/gdb.out" 2>&1
	grep '^\$' "$work/gdb.out"; grep -A3 "^Arena 0\|^Total" "$work/daemon.log"
fi
stop_daemon
imap_conf no 50ms
start_daemon
latency
poll50=$p50 poll95=$p95
[ -n "${BENCH_STATUS:-}" ] && d status | head -1
stop_daemon

# 2. Ingest: 20 N order mails delivered into the umpire's INBOX while the
# daemon is stopped; the raw fetch of them (best of three passes), then
# one despatchd round over IMAP that stores them all and queues their
# answers (connecting and logging in included).
m=$((n * 20))
newdir="$(lab_maildir umpire)/new"
for i in $(seq 1 "$m"); do
	printf 'From: T <tarleton@example.test>\nTo: umpire@example.test\nMessage-ID: <in%d@example.test>\nSubject: o\n\nGAME g%d SIDE crown PASSWORD scarlet-bugle-thistle-harbour\n7th Foot: ADVANCE %d\n' \
		"$i" $(( (i % 100) + 1 )) $(( (i % 8) + 1 )) >"$newdir/17960$i.bench$i.example"
done
chown mail:mail "$newdir"/*
read -r rawn rawbytes raw_us < <("$build/tests/bench/bench_imap_fetch" 127.0.0.1 "$LAB_IMAPS_PORT" umpire "$work/imap.pass")
imap_conf yes 30s nosmtp
# Intake alone: no phase is played in this round (every crown mail would
# otherwise complete its game's phase, and the round would time 100
# adjudications too).
d set --server fixed-deadlines on >/dev/null
t0=$(date +%s%N)
${BENCH_WRAP:-} "$daemon" -c "$work/despatch.conf" --once 2>>"$work/daemon.log"
t1=$(date +%s%N)
round_us=$(( (t1 - t0) / 1000 + 1 ))
# From the daemon's own log: the intake (list, fetch, spool, move) and the
# reading after it, each timed inside the round.
in_line=$(grep "mails stored in the spool and moved" "$work/daemon.log" | tail -1)
taken=$(awk '{ print $4 }' <<<"$in_line")
in_us=$(sed 's/.* in \([0-9]*\) us$/\1/' <<<"$in_line")
read_line=$(grep "spool: .* mails read and answered" "$work/daemon.log" | tail -1)
readn=$(awk '{ print $4 }' <<<"$read_line")
read_ms=$(sed 's/.* in \([0-9]*\) ms$/\1/' <<<"$read_line")
imap_conf yes 30s
t0=$(date +%s%N)
d outbox send >/dev/null
t1=$(date +%s%N)
out_ms=$(( (t1 - t0) / 1000000 + 1 ))

met() { [ "$1" = 1 ] && echo "met" || echo "NOT met"; }
echo "1 acknowledgement latency, IMAP IDLE     p50 ${idle50} ms, p95 ${idle95} ms over $n mails; target p95 < 1000 ms: $(met $((idle95 < 1000)))"
echo "  acknowledgement latency, polling 50 ms p50 ${poll50} ms, p95 ${poll95} ms over $n mails; target p95 < 250 ms: $(met $((poll95 < 250)))"
echo "2 durable IMAP ingest        $(( taken * 1000000 / in_us )) mails/s ($taken of $m order mails listed, fetched, spooled in the database with one sync a batch of 256, and moved to Processed)"
echo "  raw libetpan fetch of them $(( rawn * 1000000 / raw_us )) mails/s ($rawn mails, $rawbytes bytes, UID FETCH BODY.PEEK[])"
ratio=$(awk -v a=$raw_us -v b=$in_us -v t=$taken -v r=$rawn 'BEGIN { printf "%.4f", (t / b) / (r / a) }')
echo "  ratio $ratio; target >= 0.1: $(met $(awk -v x=$ratio 'BEGIN { print (x >= 0.1) }'))"
echo "  then read and answered     $(( readn * 1000 / (read_ms + 1) )) mails/s ($readn mails parsed, their orders stored and answers queued); the whole round $(( m * 1000000 / round_us )) mails/s"
echo "  their answers sent         $(( m * 1000 / out_ms )) mails/s over one SMTP connection (STARTTLS, login)"
echo "3 despatchd resident memory ${rss} KB with 100 games after the latency mails, ${rss0} KB before (target < 20480 KB): $(met $((rss < 20480)))"
