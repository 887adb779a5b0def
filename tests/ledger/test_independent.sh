#!/bin/bash
# test_independent.sh - the demo's archive checked by check_archive.py, a
# checker written from docs/ledger.md and despatch-archive(5) alone: the
# documentation must be enough to recompute every hash.
#   usage: test_independent.sh PATH/TO/despatch SOURCE_DIR
set -u
bin=$1
src=$2
command -v python3 >/dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
work=$(mktemp -d /tmp/despatch-indep.XXXXXX)
trap 'rm -rf "$work"' EXIT
export PYTHONDONTWRITEBYTECODE=1
"$bin" demo "$work/d" >/dev/null || { echo "FAIL: the demo"; exit 1; }
fail=0
python3 "$src/tests/ledger/check_archive.py" "$work/d/archive.jsonl" ||
	{ echo "FAIL: the independent checker rejects the demo archive"; fail=1; }
# One hex digit of step 3's record changed: the checker must see it.
sed '5s/"record":"\(.\{200\}\)\([0-9a-f]\)/"record":"\1X\2/; 5s/X0/1/; 5s/X\([1-9a-f]\)/0/' \
	"$work/d/archive.jsonl" >"$work/bad.jsonl"
if cmp -s "$work/bad.jsonl" "$work/d/archive.jsonl"; then
	echo "FAIL: the test did not change the archive"; fail=1
elif python3 "$src/tests/ledger/check_archive.py" "$work/bad.jsonl" >/dev/null; then
	echo "FAIL: the independent checker accepts a changed record"; fail=1
fi
[ "$fail" = 0 ] && echo "ok: the independent checker agrees with despatch"
exit $fail
