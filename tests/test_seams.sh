#!/bin/bash
# test_seams.sh - the seams of issue 21 that have landed, held by grep:
# each check is one the issue lists, and a later slice adds its own.
#   usage: test_seams.sh SOURCE_DIR
set -u
src=$1
pass=0
fail=0
no() { fail=$((fail + 1)); echo "FAIL: $*"; }
ok() { pass=$((pass + 1)); }

# One step path: the ruleset's adjudicate is called from one place,
# ledger_play_step, which the referee and verify both call.
calls=$(grep -rnE '(->|\.)adjudicate\(' "$src/src" --include='*.c' | grep -v "^$src/src/rules/")
[ "$(printf '%s\n' "$calls" | grep -c .)" = 1 ] && printf '%s' "$calls" | grep -q "src/ledger/play.c" && ok ||
	no "adjudicate is called from elsewhere than ledger_play_step: $calls"
for f in src/referee/turn.c src/ledger/verify.c; do
	grep -q "ledger_play_step(" "$src/$f" && ok || no "$f does not play its step through ledger_play_step"
done
# Nothing of ours exported in jansson's namespace (a static helper is
# the file's own).
defs=$(find "$src/src" -name '*.c' -exec awk 'prev !~ /^static/ && /^json_[a-z_]+\(/ { print FILENAME ":" FNR ": " $0 } { prev = $0 }' {} +)
[ -z "$defs" ] && ok || no "functions named in jansson's json_ namespace: $defs"

# The store says a unique key clashed (ERR_CONFLICT): nobody reads it
# out of SQLite's message.
u=$(grep -rn '"UNIQUE"' "$src/src" --include='*.c')
[ -z "$u" ] && ok || no "a duplicate found by SQLite's message text: $u"

# One table of mail command words: the line pattern is made from it,
# and no first-letter switch can drop a new command.
grep -q 'HELP|STATUS' "$src/src/orders/orders.c" && no "orders.c spells the command words itself" || ok
grep -q "case 'c': case 'h':" "$src/src/orders/commands.c" && no "commands.c still has the first-letter switch" || ok

# Thin fronts: the CLI dispatches from its command table.
n=$(grep -c 'strcmp(argv\[0\], "' "$src/src/cli/main.c")
[ "$n" = 0 ] && ok || no "src/cli/main.c dispatches with $n strcmp branches"

# The environment is read by the fronts alone: the library's one use
# is the time-zone helper (glibc has no other way than TZ).
env=$(grep -rnE '\b(getenv|setenv|unsetenv)\(' "$src/src/referee" "$src/src/store" "$src/src/ledger" "$src/src/rules" "$src/src/core" --include='*.c' | grep -v 'src/referee/clock.c:.*"TZ"')
[ -z "$env" ] && ok || no "the library reads the environment: $env"
n=$(grep -cE '\b(getenv|setenv|unsetenv)\(' "$src/src/referee/clock.c")
[ "$n" -le 4 ] && ok || no "clock.c uses the environment beyond its TZ helper ($n calls)"

# The registry of rulesets is outside core: core names no ruleset.
r=$(grep -rniE 'ruleset_(vnb|bb7)' "$src/src/core" --include='*.[ch]')
[ -z "$r" ] && ok || no "core names a ruleset: $r"

# No ruleset's name or private field in shared code (issue 21): a unit's
# numbers of its ruleset's own are slots it names in its header, and the
# reports and the map ask its vocabulary table for its markers.
r=$(grep -rniE 'vnb|bb7|density|disruption|canister|roundshot|smoke' \
    "$src/src/core" "$src/src/referee" "$src/src/store" "$src/src/ledger" \
    "$src/src/orders" "$src/src/scenario" "$src/src/cli")
[ -z "$r" ] && ok || no "shared code names a ruleset or its own state: $r"

# The Fog of War cards are vnb-wing's optional rule: no shared module
# knows of a card, a deck or a hand (issue 21).  The one word left is
# the event kind "card", which archives since engine 3 carry.
r=$(grep -rniE 'fog of war|\bcards?\b|\bdecks?\b' \
    "$src/src/core" "$src/src/referee" "$src/src/store" "$src/src/ledger" \
    "$src/src/orders" "$src/src/scenario" "$src/src/cli" "$src/src/report" \
    "$src/src/map" "$src/src/daemon" "$src/src/mail" "$src/src/config" |
    grep -v 'src/core/events\.c:.*"card"')
[ -z "$r" ] && ok || no "shared code knows of the Fog of War cards: $r"

# A ruleset's data tables name each field (a field added to a struct
# cannot shift the others).
pos=$(grep -nE '^	(\[[A-Z0-9_]+\] = )?\{ [^.{ N]' "$src"/src/rules/*_data.c | grep -v '{ "[^"]*", "[^"]*" },')
[ -z "$pos" ] && ok || no "positional rows in a ruleset's data: $pos"

# The adjudicator's table and the report's vocabulary are apart: the
# reports and the map reach a ruleset's words through rs->words.
w=$(grep -rnE --include='*.c' -e '->(crib|situation|unit_fields|strength_word|stand_word|form_phrase|yards_per_foot|column_word|limbered_word|stand_markers|scale_note)\b' "$src/src" | grep -v 'words->')
[ -z "$w" ] && ok || no "report vocabulary read off the adjudicator's table: $w"

# A store interface: no SQL, and no SQL runner, outside src/store/; the
# runners are the SQLite backend's own (store/sqlite.h), and every
# operation is one line of store/ops.h.
sql=$(cd "$src" && grep -rnE 'store_(exec|query_int|query_text)|"(SELECT|INSERT|UPDATE|DELETE|CREATE) ' src --include='*.c' | grep -v '^src/store/')
[ -z "$sql" ] && ok || no "SQL outside src/store/: $sql"
grep -qE 'store_(exec|query_int|query_text)' "$src/src/store/store.h" && no "store.h offers the SQL runners" || ok
inc=$(grep -rln 'store/sqlite.h' "$src/src" | grep -v "^$src/src/store/")
[ -z "$inc" ] && ok || no "the SQLite backend's header used outside the store: $inc"

# Thin fronts: the CLI and the daemon reach the store only through the
# referee, whose public header names no store type, and struct referee
# is opaque outside src/referee/.
inc=$(grep -rn '#include "store/' "$src/src/cli" "$src/src/daemon" "$src/src/referee/referee.h")
[ -z "$inc" ] && ok || no "a front includes a store header: $inc"
calls=$(grep -rnE '\bstore_[a-z_]+\(' "$src/src/cli" "$src/src/daemon" --include='*.c')
[ -z "$calls" ] && ok || no "a front calls the store: $calls"
grep -q 'struct referee {' "$src/src/referee/referee.h" && no "struct referee is public" || ok

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
