#!/bin/bash
# bench_mail.sh - the mail loop measured on real servers (run by hand, not
# a test; needs Dovecot, Postfix and curl, as root, like the mail tests):
#   1. acknowledgement latency, p50 and p95, from Postfix accepting a
#      player's mail to the answer landing in the player's own mailbox,
#      through despatchd (Maildir intake woken by inotify, SMTP out);
#   2. durable ingest: mails/s despatchd takes in from a Maildir, beside
#      the raw rate of reading the same files, as a ratio;
#   3. despatchd's resident memory with 100 games loaded.
#   bash tests/bench/bench_mail.sh [BUILD_DIR] [N]
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
printf 'Subject: hello\n\nfirst\n' | curl -s --url "smtp://127.0.0.1:$LAB_SMTP_PORT" \
	--mail-from postmaster@example.test --mail-rcpt umpire@example.test -T -
for _ in $(seq 200); do [ "$(lab_count umpire)" -ge 1 ] && break; sleep 0.05; done
lab_umpire_conf "$work" maildir
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
base=$(lab_count tarleton)

"$daemon" -c "$work/despatch.conf" 2>"$work/daemon.log" &
dpid=$!
sleep 1
rss=$(awk '/VmRSS/ { print $2 }' /proc/$dpid/status)

# 1. Latency: one STATUS mail at a time, each answered.
lat=()
for i in $(seq 1 "$n"); do
	printf 'From: T <tarleton@example.test>\nTo: umpire@example.test\nMessage-ID: <lat%d@example.test>\nSubject: s\n\nGAME g%d SIDE crown PASSWORD scarlet-bugle-thistle-harbour\nSTATUS\n' \
		"$i" $(( (i % 100) + 1 )) >"$work/m.eml"
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

# 2. Ingest: N*4 mails put straight into new/ while the daemon is
# stopped, then one round.
kill -TERM $dpid; wait $dpid; dpid=
m=$((n * 4))
newdir="$(lab_maildir umpire)/new"
for i in $(seq 1 "$m"); do
	printf 'From: T <tarleton@example.test>\nTo: umpire@example.test\nMessage-ID: <in%d@example.test>\nSubject: o\n\nGAME g%d SIDE crown PASSWORD scarlet-bugle-thistle-harbour\n7th Foot: ADVANCE %d\n' \
		"$i" $(( (i % 100) + 1 )) $(( (i % 8) + 1 )) >"$newdir/17960$i.bench$i.example"
done
t0=$(date +%s%N); cat "$newdir"/* >/dev/null; t1=$(date +%s%N)
raw_ms=$(( (t1 - t0) / 1000000 + 1 ))
# Intake alone (store and queue the answers), then the answers' sending.
grep -v '^\[smtp\]\|^url = smtp\|^user = umpire\|^password-file\|^ca-file' \
	"$work/despatch.conf" >"$work/nosmtp.conf"
t0=$(date +%s%N)
"$daemon" -c "$work/nosmtp.conf" --once 2>>"$work/daemon.log"
t1=$(date +%s%N)
in_ms=$(( (t1 - t0) / 1000000 + 1 ))
t0=$(date +%s%N)
d outbox send >/dev/null
t1=$(date +%s%N)
out_ms=$(( (t1 - t0) / 1000000 + 1 ))

echo "1 acknowledgement latency   p50 ${p50} ms, p95 ${p95} ms over $n mails (Maildir intake woken by inotify; target with IMAP IDLE: p95 < 1000 ms)"
echo "2 durable ingest            $(( m * 1000 / in_ms )) mails/s ($m order mails from a Maildir, each stored and its answer queued, one round)"
echo "  raw read of the same files $(( m * 1000 / raw_ms )) mails/s; ratio $(awk -v a=$raw_ms -v b=$in_ms 'BEGIN { printf "%.4f", a / b }') (the issue's denominator, raw IMAP fetch, waits for the IMAP intake)"
echo "  their answers sent         $(( m * 1000 / out_ms )) mails/s over one SMTP connection (STARTTLS, login)"
echo "3 despatchd resident memory ${rss} KB with 100 games (target < 20480 KB)"
