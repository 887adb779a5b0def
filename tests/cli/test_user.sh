#!/bin/bash
# test_user.sh - despatch run as root with a configured 'user' becomes
# that user before it opens the store, so that what it makes is the
# daemon's (issue 23, problem 7); a user that does not exist is refused
# by name; demo never changes user.  Needs root: skipped (77) otherwise.
# The user is 'nobody', which every Debian has.
#   usage: test_user.sh DESPATCH SOURCE_DIR
set -u
bin=$1
src=$2
if [ "$(id -u)" != 0 ]; then
	echo "skipped: becoming the configured user needs root (this runs as $(id -un))"
	exit 77
fi
if ! id nobody >/dev/null 2>&1; then
	echo "skipped: there is no user 'nobody' to become"
	exit 77
fi
# A folder every user may write in (nobody makes its database here) and
# a copy of the scenario nobody can read, wherever the tree is.
work=$(mktemp -d /tmp/despatch-user.XXXXXX)
chmod 0777 "$work"
pass=0
fail=0
trap '[ "$fail" = 0 ] && rm -rf "$work" || echo "kept $work"' EXIT
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }
cp "$src/campaign/cowpens-1781/cowpens.scenario" "$work/"
chmod 0644 "$work/cowpens.scenario"
printf 'database = %s/u.db\nuser = nobody\n' "$work" >"$work/u.conf"

"$bin" -c "$work/u.conf" new g "$work/cowpens.scenario" >"$work/out" 2>&1 || no "new as root with user nobody: $(cat "$work/out")"
[ "$(stat -c %U "$work/u.db" 2>/dev/null)" = nobody ] && ok || no "the database is not nobody's: $(ls -l "$work")"
"$bin" -c "$work/u.conf" player add g crown tarleton@crown.example.org >/dev/null 2>&1 || no "player add"
"$bin" -c "$work/u.conf" player add g continental morgan@continental.example.org >/dev/null 2>&1 || no "player add 2"
DESPATCH_FROM="despatch <d@referee.example.org>" "$bin" -c "$work/u.conf" start g >/dev/null 2>&1 || no "start"
[ "$(stat -c %U "$work/u.db.key" 2>/dev/null)" = nobody ] && ok || no "the signing key is not nobody's: $(ls -l "$work")"
# status reads the daemon's 0600 database as the daemon's user: it never
# ran, so 2, not 3 (unknown).
"$bin" -c "$work/u.conf" status >"$work/out" 2>&1
[ $? = 2 ] && ok || no "status as root with user nobody: $(cat "$work/out")"
grep -q "never ran on this database" "$work/out" && ok || no "status: $(cat "$work/out")"
# Without the configuration root stays root (and may read nobody's file).
"$bin" --db "$work/u.db" games >"$work/out" 2>&1 && ok || no "games as root: $(cat "$work/out")"

# A user that does not exist is refused, naming it and the file; no
# database is made.
printf 'database = %s/x.db\nuser = no-such-despatch-user\n' "$work" >"$work/x.conf"
"$bin" -c "$work/x.conf" new g "$work/cowpens.scenario" >"$work/out" 2>&1
[ $? = 1 ] && ok || no "a missing user was not refused: $(cat "$work/out")"
grep -q 'x.conf: user "no-such-despatch-user" does not exist' "$work/out" && ok || no "the refusal: $(cat "$work/out")"
[ ! -e "$work/x.db" ] && ok || no "a database was made for a missing user"

# demo reads no configuration and stays root: it writes into a folder
# only root may enter.
mkdir -m 0700 "$work/rootonly"
DESPATCH_CONFIG="$work/x.conf" "$bin" demo "$work/rootonly/d" >"$work/out" 2>&1 && ok || no "demo with a configured user: $(tail -3 "$work/out")"
[ "$(stat -c %U "$work/rootonly/d/demo.db" 2>/dev/null)" = root ] && ok || no "the demo's database is not root's"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
