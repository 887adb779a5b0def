#!/bin/bash
# m32.sh - the time parsing and formatting built and run as a 32-bit
# program (gcc -m32): long is 32 bits there, and time_t too unless the
# build asks for 64 (a Raspberry Pi on Debian 12), so a time that fits
# on x86-64 can wrap around.  tests/unit/m32_time.c says what is checked.
#   m32.sh SOURCE_DIR CC OUT_DIR [FLAG...]
# FLAGs are the project's own (its -D definitions and warnings, passed by
# tests/CMakeLists.txt), so this is built as the library is.
#
# How: the whole library cannot be built -m32 here: SQLite, libcurl,
# GnuTLS and the rest are installed for x86-64 only, and their i386
# packages would replace the 64-bit ones.  The files that hold the time
# code are compiled whole, with the project's flags, each function in a
# section of its own; the link keeps only what the driver reaches
# (--gc-sections), so the rest of each file, with its calls into the
# store and SQLite, is dropped.  Nothing is copied out of a source file
# nor stubbed: should a time function come to call the store, the link
# fails and says which symbol it needs.  The files:
#   src/config/config.c    config_duration_ms (poll = 2h)
#   src/referee/settings.c referee_parse_time (deadline, reminders,
#                          extend GAME TIME)
#   src/referee/clock.c    referee_clock_until ("in N days")
#   src/mail/compose.c     mail_date (a mail's Date, from a time_t)
#
# Skipped (exit 77, tests/need.sh), saying why, where gcc -m32 cannot
# link a program (Debian package gcc-multilib), or where a 32-bit program
# cannot run: this kernel runs none (no IA32 emulation) and qemu-i386
# (Debian package qemu-user) is not installed.  Under CI=true each is a
# failure once .ci/run installs that package.
set -u
src=$1
cc=$2
out=$3
shift 3
. "$src/tests/need.sh"
mkdir -p "$out"

# Can a 32-bit program be linked, and run, here?
printf 'int main(void) { return 0; }\n' >"$out/hello.c"
if ! "$cc" -m32 "$out/hello.c" -o "$out/hello" >"$out/hello.log" 2>&1; then
	said=$(head -1 "$out/hello.log")
	skip_ci_once_listed gcc-multilib "gcc-multilib not installed: $cc -m32 cannot link a program${said:+ ($said)}"
fi
run=()
if ! "$out/hello" 2>/dev/null; then
	if command -v qemu-i386 >/dev/null 2>&1 && qemu-i386 "$out/hello"; then
		run=(qemu-i386)
	else
		skip_ci_once_listed qemu-user "this kernel runs no 32-bit programs, and qemu-i386 is not installed or cannot run one (Debian package qemu-user)"
	fi
fi

objs=()
for f in config/config.c referee/settings.c referee/clock.c mail/compose.c; do
	o=$out/$(basename "$f" .c).o
	"$cc" -m32 -std=c17 "$@" -I"$src/src" -ffunction-sections -fdata-sections \
		-c "$src/src/$f" -o "$o" || { echo "FAIL: src/$f does not compile with -m32"; exit 1; }
	objs+=("$o")
done
"$cc" -m32 -std=c17 "$@" -I"$src/src" -c "$src/tests/unit/m32_time.c" -o "$out/m32_time.o" ||
	{ echo "FAIL: tests/unit/m32_time.c does not compile with -m32"; exit 1; }
"$cc" -m32 -Wl,--gc-sections "$out/m32_time.o" "${objs[@]}" -o "$out/m32_time" ||
	{ echo "FAIL: the time code does not link alone: it has come to need the rest of the library"; exit 1; }
echo "running $out/m32_time${run:+ under ${run[*]}}"
"${run[@]}" "$out/m32_time"
