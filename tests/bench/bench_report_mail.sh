#!/bin/sh
# bench_report_mail.sh - what a long game's report mail weighs and costs
# (issue 25): a Cowpens of TURNS turns (default 50: 100 phases) played
# with the server's own commands, every side holding, and every mail
# written out; then the mail to one player summed, and the seconds the
# phases took.  A benchmark run by hand, not a test.
#
#   sh tests/bench/bench_report_mail.sh DESPATCH [TURNS] [FORMAT] [DIR]
#
# FORMAT (html by default; text, html or full) is what both players
# choose with SET MAIL.  With ORDERS=1 in the environment the phasing
# side's player mails a few HOLD orders before each phase, as a player
# would, and so gets the reply with its preview map too.  It prints the phases played, the seconds they
# took and a phase's mean, the count and bytes of the mail to the crown
# player, the largest mail and the largest inline map.  The target:
# 100 phases of HTML mail to one player under 10 MB.
set -eu
despatch=$1
turns=${2:-50}
format=${3:-html}
dir=${4:-$(mktemp -d /tmp/despatch-bench-mail.XXXXXX)}
src=$(cd "$(dirname "$0")/../.." && pwd)

mkdir -p "$dir/mail"
db="$dir/bench.db"
rm -f "$db"
sed "s/^turns 6 /turns $turns /" "$src/campaign/cowpens-1781/cowpens.scenario" \
    >"$dir/cowpens.scenario"
D() { "$despatch" --db "$db" "$@"; }
D new bench "$dir/cowpens.scenario" >/dev/null
D set --server rate-limit 0 >/dev/null   # a mail every phase, at once
D player add bench crown tarleton@example.org --password crown-secret >/dev/null
D player add bench continental morgan@example.org --password cont-secret >/dev/null
for who in crown:tarleton:crown-secret continental:morgan:cont-secret; do
	side=${who%%:*}
	rest=${who#*:}
	printf 'From: %s@example.org\r\nTo: despatch@example.org\r\nSubject: mail\r\nMessage-ID: <%s-format@example.org>\r\nDate: Wed, 17 Jan 2024 09:00:00 +0000\r\n\r\nGAME bench SIDE %s PASSWORD %s\r\nSET MAIL %s\r\n' \
	    "${rest%%:*}" "$side" "$side" "${rest#*:}" "$format" >"$dir/set-$side.eml"
done
D start bench >/dev/null
D submit "$dir/set-crown.eml" >/dev/null
D submit "$dir/set-continental.eml" >/dev/null
t0=$(date +%s.%N)
phases=0
orders() {
	state=$(D state bench --json)
	turn=$(printf '%s\n' "$state" | sed -n 's/^  "turn": \([0-9]*\),$/\1/p')
	phase=$(printf '%s\n' "$state" | sed -n 's/^  "phase": "\(.*\)",$/\1/p')
	case $phase in
	crown) who=tarleton pw=crown-secret lines='7th Foot: HOLD\r\n71st: HOLD\r\n' ;;
	continental) who=morgan pw=cont-secret lines='Maryland: HOLD\r\nDelaware: HOLD\r\n' ;;
	*) return 0 ;;
	esac
	printf "From: $who@example.org\r\nTo: despatch@example.org\r\nSubject: orders\r\nMessage-ID: <orders-$phases@example.org>\r\nDate: Wed, 17 Jan 2024 09:00:00 +0000\r\n\r\nGAME bench SIDE $phase TURN $turn PASSWORD $pw\r\n$lines" \
	    >"$dir/orders.eml"
	D submit "$dir/orders.eml" >/dev/null
}
while { [ "${ORDERS:-0}" = 0 ] || orders; } && D turn bench >/dev/null 2>&1; do
	phases=$((phases + 1))
	if D state bench --json | grep -q '"status": *"finished"'; then
		break
	fi
done
t1=$(date +%s.%N)
D outbox write "$dir/mail" >/dev/null
echo "phases played: $phases ($format mail)"
awk -v a="$t0" -v b="$t1" -v n="$phases" 'BEGIN { printf "seconds: %.2f, %.1f ms a phase\n", b - a, (b - a) * 1000 / (n > 0 ? n : 1) }'
ls "$dir/mail" | grep -c -- '-tarleton-' | sed 's/^/mails to the crown player: /'
cat "$dir/mail"/*-tarleton-* | wc -c | sed 's/^/bytes to the crown player: /'
cat "$dir/mail"/*-report-tarleton-* | wc -c | sed 's/^/  of which reports: /'
ls "$dir/mail" | grep -c -- '-reply-tarleton-' | sed 's/^/  replies: /'
ls -S "$dir/mail" | head -1 | while read -r f; do
	echo "largest mail: $f $(wc -c <"$dir/mail/$f") bytes"
done
echo "mail in $dir/mail"
