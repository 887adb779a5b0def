#!/bin/bash
# need.sh - what a test does when a tool it needs is not installed: it is
# skipped (exit 77, which tests/CMakeLists.txt gives every such test as
# its SKIP_RETURN_CODE), saying why on one line, and never fails.  But
# under CI=true a skip for a tool that .ci/run installs is a failure
# (exit 1): CI would otherwise show green for a test it never ran, and a
# forgotten apt line in .ci/run would pass unseen.
#
#   . "$src/tests/need.sh"
#   skip WHY             skipped: WHY.  For what CI does not install
#                        (Chromium, PostgreSQL, a kernel that runs
#                        32-bit programs).
#   skip_ci PKG WHY      skipped: WHY; under CI=true a failure, .ci/run
#                        installing the Debian package PKG.
#   need PKG CMD...      skip unless every CMD is on PATH.
#   need_ci PKG CMD...   skip_ci unless every CMD is on PATH.
#   lacks_ci PKG WHY     for a part of a test done another way (the test
#                        says so and goes on): prints "note: WHY" and
#                        returns 0; under CI=true prints the failure and
#                        returns 1, for the test to count as failed.
#   skip_ci_once_listed PKG WHY
#                        skip_ci when .ci/run installs PKG, else skip: for
#                        a package not yet on .ci/run's apt line.
#   ci_installs PKG      true when .ci/run (or contrib/bootstrap, which
#                        it runs) names the package PKG.
#
# Every PKG a test names with skip_ci, need_ci or lacks_ci is checked to
# be installed by .ci/run by tests/test_need.sh, so the apt line cannot
# be forgotten there either.

need_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

need_under_ci() {
	[ "${CI:-}" = true ]
}

skip() {
	echo "skipped: $*"
	exit 77
}

# The failure under CI=true, with what to look at.
need_ci_failure() {  # need_ci_failure PKG WHY
	echo "failed: skipped under CI=true: $2 (.ci/run installs $1; is its apt line missing?)"
}

skip_ci() {
	if need_under_ci; then
		need_ci_failure "$1" "$2"
		exit 1
	fi
	skip "$2"
}

need_missing() {  # the first CMD of those given not on PATH, if any
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || { echo "$c"; return 0; }
	done
	return 1
}

need() {
	local pkg=$1 c
	shift
	c=$(need_missing "$@") && skip "$c is not installed (Debian package $pkg)"
	return 0
}

need_ci() {
	local pkg=$1 c
	shift
	c=$(need_missing "$@") && skip_ci "$pkg" "$c is not installed (Debian package $pkg)"
	return 0
}

lacks_ci() {
	if need_under_ci; then
		need_ci_failure "$1" "$2"
		return 1
	fi
	echo "note: $2"
	return 0
}

ci_installs() {
	cat "$need_root/.ci/run" "$need_root/contrib/bootstrap" 2>/dev/null |
		grep -v '^[[:space:]]*#' | grep -qw -- "$1"
}

skip_ci_once_listed() {
	ci_installs "$1" && skip_ci "$1" "$2"
	skip "$2"
}
