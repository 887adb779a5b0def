#!/bin/bash
# lab.sh - a private Dovecot (IMAP, IMAPS, LMTP) and Postfix (SMTP into
# LMTP) on 127.0.0.1, for the mail tests: free ports, a folder of its own,
# users from a passwd-file, nothing relayed off the machine.
#
#   . tests/mail/lab.sh; lab_setup DIR; lab_start; ...; lab_stop
#
# After lab_setup: LAB_SMTP_PORT, LAB_IMAP_PORT, LAB_IMAPS_PORT, LAB_DIR,
# LAB_CERT (the self-signed certificate), and lab_maildir USER (a user's
# Maildir). Users: umpire, tarleton, morgan (passwords USERpw), domain
# example.test. Servers are stopped by the pids they wrote, never by name.
# lab_available says whether Dovecot and Postfix are installed (the
# tests skip, saying so, when they are not: lab_test_begin).

. "$(dirname "${BASH_SOURCE[0]}")/../need.sh"

lab_available() {
	command -v dovecot >/dev/null 2>&1 && command -v postfix >/dev/null 2>&1 &&
		command -v openssl >/dev/null 2>&1 && [ "$(id -u)" = 0 ]
}

# A port no socket on the machine uses, below the kernel's range for
# outgoing connections (a client socket there can take the port between
# our check and the server's bind), claimed with a file in /tmp so that
# two labs, or two ports of one lab, never pick the same one. Claims are
# dropped by lab_stop; any older than an hour are stale and swept.
LAB_CLAIMS=/tmp/despatch-lab-ports-$(id -u)
lab_port_used() {
	local hex
	hex=$(printf '%04X' "$1")
	cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
		awk -v h=":$hex" '$2 ~ h"$" { f = 1 } END { exit !f }'
}
# The claims folder is ours alone: made private, and not used if someone
# else made it or it is a link (then a folder of this lab's own, which
# keeps at least its own ports apart).  Called by lab_setup before it
# picks its ports.
lab_claims_dir() {
	mkdir -m 700 "$LAB_CLAIMS" 2>/dev/null
	if [ -L "$LAB_CLAIMS" ] || [ ! -d "$LAB_CLAIMS" ] || [ ! -O "$LAB_CLAIMS" ]; then
		LAB_CLAIMS=$(mktemp -d /tmp/despatch-lab-ports.XXXXXX) || return 1
	fi
	find "$LAB_CLAIMS" -maxdepth 1 -type f -mmin +60 -delete 2>/dev/null
	return 0
}
lab_free_port() {
	local p lo hi
	read -r lo _ < /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || lo=32768
	hi=$((lo - 1)); [ "$hi" -gt 20999 ] || hi=32767
	for _ in $(seq 400); do
		p=$((20000 + RANDOM % (hi - 20000)))
		lab_port_used "$p" && continue
		(set -o noclobber; : > "$LAB_CLAIMS/$p") 2>/dev/null || continue
		echo $p
		return 0
	done
	return 1
}
lab_release_ports() {
	local p
	for p in "$LAB_SMTP_PORT" "$LAB_IMAP_PORT" "$LAB_IMAPS_PORT" \
		"$LAB_LMTP_PORT" "$LAB_AUTH_PORT"; do
		[ -n "$p" ] && rm -f "$LAB_CLAIMS/$p"
	done
	return 0
}

lab_setup() {
	LAB_DIR=$1
	local dc=$LAB_DIR/dovecot pf=$LAB_DIR/postfix pfc=$LAB_DIR/postfix/etc
	lab_claims_dir || return 1
	LAB_SMTP_PORT=$(lab_free_port) LAB_IMAP_PORT=$(lab_free_port)
	LAB_IMAPS_PORT=$(lab_free_port) LAB_LMTP_PORT=$(lab_free_port)
	LAB_AUTH_PORT=$(lab_free_port)
	mkdir -p "$dc" "$pfc" "$pf/spool" "$pf/data" "$LAB_DIR/mail" "$LAB_DIR/tls"
	chmod 755 "$LAB_DIR"
	LAB_CERT=$LAB_DIR/tls/cert.pem
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
		-nodes -days 2 -subj /CN=localhost \
		-addext subjectAltName=IP:127.0.0.1,DNS:localhost \
		-keyout "$LAB_DIR/tls/key.pem" -out "$LAB_CERT" 2>/dev/null || return 1
	: >"$dc/users"
	for u in umpire tarleton morgan; do
		echo "$u:{PLAIN}${u}pw::::::" >>"$dc/users"
	done
	chown -R mail:mail "$LAB_DIR/mail"
	cat >"$dc/dovecot.conf" <<CONF
protocols = imap lmtp
listen = 127.0.0.1
base_dir = $dc/run
state_dir = $dc/state
instance_name = despatch-lab-$$
log_path = $dc/dovecot.log
ssl = yes
ssl_cert = <$LAB_CERT
ssl_key = <$LAB_DIR/tls/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_username_format = %Ln
passdb {
  driver = passwd-file
  args = scheme=PLAIN $dc/users
}
userdb {
  driver = static
  args = uid=mail gid=mail home=$LAB_DIR/mail/%n
}
first_valid_uid = 8
mail_location = maildir:~/Maildir
namespace inbox {
  inbox = yes
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = $LAB_IMAP_PORT
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = $LAB_IMAPS_PORT
    ssl = yes
  }
}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = $LAB_LMTP_PORT
  }
}
service auth {
  inet_listener {
    address = 127.0.0.1
    port = $LAB_AUTH_PORT
  }
}
protocol lmtp {
  postmaster_address = postmaster@example.test
}
CONF
	chown postfix "$pf/data"
	cat >"$pfc/main.cf" <<CONF
compatibility_level = 3.6
queue_directory = $pf/spool
data_directory = $pf/data
mail_owner = postfix
setgid_group = postdrop
maillog_file_prefixes = /var, /dev/stdout, /tmp
maillog_file = $pf/postfix.log
myhostname = mx.example.test
mydomain = example.test
myorigin = \$mydomain
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
smtpd_peername_lookup = no
virtual_mailbox_domains = example.test
virtual_mailbox_maps = texthash:$pfc/vmailbox
virtual_transport = lmtp:inet:127.0.0.1:$LAB_LMTP_PORT
default_transport = error:nothing leaves the test machine
relay_transport = error:nothing leaves the test machine
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
smtpd_sasl_auth_enable = yes
smtpd_sasl_type = dovecot
smtpd_sasl_path = inet:127.0.0.1:$LAB_AUTH_PORT
smtpd_tls_security_level = may
smtpd_tls_cert_file = $LAB_CERT
smtpd_tls_key_file = $LAB_DIR/tls/key.pem
CONF
	for u in umpire tarleton morgan; do echo "$u@example.test x"; done >"$pfc/vmailbox"
	cat >"$pfc/master.cf" <<CONF
127.0.0.1:$LAB_SMTP_PORT inet n - n - - smtpd
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
CONF
	# Postfix waits when main.cf is younger than two seconds.
	touch -d '-1 min' "$pfc"/*
}

lab_wait_port() {
	for _ in $(seq 200); do
		(exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null && return 0
		sleep 0.05
	done
	echo "lab: port $1 did not open" >&2
	return 1
}

lab_start_dovecot() {
	# Dovecot keeps its caller's stderr open: never hand it a pipe.
	dovecot -c "$LAB_DIR/dovecot/dovecot.conf" </dev/null >>"$LAB_DIR/dovecot/stderr.log" 2>&1 ||
		{ cat "$LAB_DIR/dovecot/stderr.log" >&2; return 1; }
	lab_wait_port "$LAB_IMAP_PORT" && lab_wait_port "$LAB_LMTP_PORT" &&
		lab_wait_port "$LAB_AUTH_PORT"
}

lab_start_postfix() {
	postfix -c "$LAB_DIR/postfix/etc" start </dev/null >>"$LAB_DIR/postfix/start.log" 2>&1 ||
		{ tail -5 "$LAB_DIR/postfix/postfix.log" >&2; return 1; }
	lab_wait_port "$LAB_SMTP_PORT"
}

lab_start() {
	lab_start_dovecot && lab_start_postfix
}

lab_alive() {
	[ -n "$1" ] && [ -e "/proc/$1" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$1/stat" 2>/dev/null
}

# Stops a server by the pid file it wrote, waiting until it is gone.
lab_kill_pidfile() {
	local pid
	[ -s "$1" ] || return 0
	pid=$(cat "$1")
	kill "$pid" 2>/dev/null
	for _ in $(seq 100); do lab_alive "$pid" || return 0; sleep 0.05; done
	kill -9 "$pid" 2>/dev/null
}

lab_stop_postfix() {
	postfix -c "$LAB_DIR/postfix/etc" stop </dev/null >/dev/null 2>&1
	lab_kill_pidfile "$LAB_DIR/postfix/spool/pid/master.pid"
}

# The pids whose parent is PID (from /proc: procps may not be installed).
lab_children() {
	local parent=$1 f rest
	for f in /proc/[0-9]*/stat; do
		# Past the command name, which may hold spaces: state, then ppid.
		rest=$(sed 's/^.*) //' "$f" 2>/dev/null) || continue
		set -- $rest
		[ "${2:-}" = "$parent" ] && { f=${f#/proc/}; echo "${f%/stat}"; }
	done
	return 0
}

# Stops Dovecot and the processes its master started: killed alone, the
# master leaves its imap processes serving the connections they have.
lab_stop_dovecot() {
	local pid kids
	pid=$(cat "$LAB_DIR/dovecot/run/master.pid" 2>/dev/null) || return 0
	kids=$(lab_children "$pid")
	lab_kill_pidfile "$LAB_DIR/dovecot/run/master.pid"
	[ -n "$kids" ] && kill $kids 2>/dev/null
	return 0
}

lab_stop() {
	lab_stop_postfix
	lab_stop_dovecot
	lab_release_ports
}

lab_maildir() {
	echo "$LAB_DIR/mail/$1/Maildir"
}

# Files delivered to USER's inbox (new and cur).
lab_count() {
	find "$(lab_maildir "$1")/new" "$(lab_maildir "$1")/cur" -type f 2>/dev/null | wc -l
}

# lab_umpire_conf DIR [maildir]: writes DIR/despatch.conf for the umpire
# account (database DIR/d.db, SMTP through the lab's Postfix with the
# password in DIR/smtp.pass), with the umpire's Maildir as [maildir] when
# asked.  Callers may append further sections.
lab_umpire_conf() {
	printf 'umpirepw\n' >"$1/smtp.pass"
	chmod 600 "$1/smtp.pass"
	{
		printf 'database = %s/d.db\nfrom = despatch <umpire@example.test>\n' "$1"
		[ "${2:-}" = maildir ] && printf '[maildir]\npath = %s\n' "$(lab_maildir umpire)"
		printf '[smtp]\nurl = smtp://127.0.0.1:%s\nuser = umpire\n' "$LAB_SMTP_PORT"
		printf 'password-file = %s/smtp.pass\nca-file = %s\n' "$1" "$LAB_CERT"
	} >"$1/despatch.conf"
}

# lab_test_begin NAME [curl]: the start every mail test shares.  Exits 77
# (skipped, saying why: tests/need.sh) without root, Dovecot (with its
# IMAP and LMTP servers), Postfix and openssl, and curl when the test
# sends with it; under CI=true, which installs them all and runs as
# root, any of these missing is a failure instead.  Else makes $work
# (kept when a check failed), sets pass, fail, ok and no, and stops the
# servers and the daemon in $dpid (if any) on exit.
lab_test_begin() {
	if [ "$(id -u)" != 0 ]; then
		need_under_ci && {
			echo "failed: skipped under CI=true: the lab's servers need root, and this is uid $(id -u) (CI runs the tests as root)"
			exit 1
		}
		skip "the lab's Dovecot and Postfix need root (this is uid $(id -u))"
	fi
	need_ci dovecot-core dovecot
	need_ci postfix postfix
	need_ci openssl openssl
	# Debian's place for Dovecot's servers; elsewhere Dovecot says so itself.
	if [ -d /usr/lib/dovecot ]; then
		[ -x /usr/lib/dovecot/imap ] ||
			skip_ci dovecot-imapd "Dovecot's IMAP server is not installed (Debian package dovecot-imapd)"
		[ -x /usr/lib/dovecot/lmtp ] ||
			skip_ci dovecot-lmtpd "Dovecot's LMTP server is not installed (Debian package dovecot-lmtpd)"
	fi
	[ "${2:-}" = curl ] && need_ci curl curl
	work=$(mktemp -d "/tmp/despatch-$1.XXXXXX")
	chmod 755 "$work"   # the servers run as their own users
	dpid=
	pass=0
	fail=0
	trap lab_test_end EXIT
}
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
lab_test_end() {
	[ -n "${dpid:-}" ] && kill "$dpid" 2>/dev/null
	lab_stop
	if [ "$fail" = 0 ]; then rm -rf "$work"; else echo "kept $work"; fi
}
