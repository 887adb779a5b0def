#!/bin/bash
# test_need.sh - tests/need.sh, the skip helper of the tests that need an
# optional tool: a missing tool is a skip (exit 77) that says why; under
# CI=true, a missing tool that .ci/run installs is a failure (exit 1)
# and one it does not install is still a skip.
#   test_need.sh SOURCE_DIR            the helper itself
#   test_need.sh SOURCE_DIR packages   every package a test names as one
#                                      CI installs is in .ci/run
set -u
src=$1
pass=0
fail=0
ok() { pass=$((pass + 1)); }
no() { fail=$((fail + 1)); echo "FAIL: $*"; }

if [ "${2:-}" = packages ]; then
	. "$src/tests/need.sh"
	# The literal package names after need_ci, skip_ci and lacks_ci in
	# every test script (lab.sh among them).
	# (need.sh and this file only describe them.)
	pkgs=$(grep -rhE --include='*.sh' --exclude=need.sh --exclude=test_need.sh \
		'\b(need_ci|skip_ci|lacks_ci) ' "$src/tests" | grep -v '^[[:space:]]*#' |
		grep -oE '\b(need_ci|skip_ci|lacks_ci) +[a-z0-9][a-z0-9.+-]+' | awk '{ print $2 }' | sort -u)
	[ -n "$pkgs" ] && ok || no "no test names a package CI installs: the grep is broken"
	for p in $pkgs; do
		ci_installs "$p" && ok || no "a test counts on CI to install $p, but .ci/run does not (add it to its apt-get line)"
	done
	echo "$pass passed, $fail failed ($(echo $pkgs))"
	[ "$fail" = 0 ]
	exit
fi

# run ENV... -- SHELL-CODE: the code run after sourcing need.sh in a
# clean bash; sets out (its stdout) and st (its exit status).
run() {
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	out=$(env -u CI "${envs[@]}" bash -c ". '$src/tests/need.sh'; $1; echo reached") 
	st=$?
}
missing=despatch-no-such-tool-$$

run -- "need some-pkg $missing"
[ "$st" = 77 ] && [ "$out" = "skipped: $missing is not installed (Debian package some-pkg)" ] && ok ||
	no "need, a missing tool: exit $st, said: $out"
run -- "need_ci some-pkg bash $missing"
[ "$st" = 77 ] && [ "$out" = "skipped: $missing is not installed (Debian package some-pkg)" ] && ok ||
	no "need_ci, a missing tool, CI unset: exit $st, said: $out"
run CI=true -- "need_ci some-pkg bash $missing"
[ "$st" = 1 ] && [ "$out" = "failed: skipped under CI=true: $missing is not installed (Debian package some-pkg) (.ci/run installs some-pkg; is its apt line missing?)" ] && ok ||
	no "need_ci, a missing tool, CI=true: exit $st, said: $out"
run CI=true -- "need some-pkg $missing"
[ "$st" = 77 ] && ok || no "need (a tool CI does not install), CI=true: exit $st, said: $out"
run CI=false -- "need_ci some-pkg $missing"
[ "$st" = 77 ] && ok || no "need_ci with CI=false: exit $st, said: $out"
run CI=true -- "need_ci some-pkg bash env"
[ "$st" = 0 ] && [ "$out" = reached ] && ok || no "need_ci, the tools there: exit $st, said: $out"
run -- "skip 'no browser here'"
[ "$st" = 77 ] && [ "$out" = "skipped: no browser here" ] && ok || no "skip: exit $st, said: $out"
run CI=true -- "skip_ci pkg 'why not'"
[ "$st" = 1 ] && [ "$out" = "failed: skipped under CI=true: why not (.ci/run installs pkg; is its apt line missing?)" ] && ok ||
	no "skip_ci, CI=true: exit $st, said: $out"
run -- "skip_ci pkg 'why not'"
[ "$st" = 77 ] && [ "$out" = "skipped: why not" ] && ok || no "skip_ci, CI unset: exit $st, said: $out"
run -- "lacks_ci pkg 'done another way' || exit 5"
[ "$st" = 0 ] && [ "$out" = "note: done another way
reached" ] && ok || no "lacks_ci, CI unset: exit $st, said: $out"
run CI=true -- "lacks_ci pkg 'done another way' || exit 5"
[ "$st" = 5 ] && [ "$out" = "failed: skipped under CI=true: done another way (.ci/run installs pkg; is its apt line missing?)" ] && ok ||
	no "lacks_ci, CI=true: exit $st, said: $out"
run CI=true -- "skip_ci_once_listed postfix 'why not'"
[ "$st" = 1 ] && ok || no "skip_ci_once_listed, a package .ci/run installs, CI=true: exit $st, said: $out"
run CI=true -- "skip_ci_once_listed $missing 'why not'"
[ "$st" = 77 ] && [ "$out" = "skipped: why not" ] && ok ||
	no "skip_ci_once_listed, a package .ci/run does not install, CI=true: exit $st, said: $out"
# What .ci/run installs, read from it (comments left out).
run -- "ci_installs postfix || exit 3; ci_installs $missing && exit 4; exit 0"
[ "$st" = 0 ] && ok || no "ci_installs: exit $st"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
