# checks.sh - what the CLI test scripts check with, sourced by them
# after they set $work (a scratch folder) and pass=0 fail=0.
#   check NAME STATUS COMMAND...  the command exits STATUS; its output
#                                 (stdout and stderr) goes to $work/out
#   says NAME TEXT                $work/out contains TEXT
#   lacks NAME TEXT               $work/out does not contain TEXT

check() {
	local name=$1 want=$2
	shift 2
	"$@" >"$work/out" 2>&1
	local got=$?
	if [ "$got" = "$want" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $name: exit $got, wanted $want"
		sed 's/^/    /' "$work/out" | head -20
	fi
}

says() {
	if grep -qF -- "$2" "$work/out"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: $1: output lacks '$2'"
		sed 's/^/    /' "$work/out" | head -20
	fi
}

lacks() {
	if grep -qF -- "$2" "$work/out"; then
		fail=$((fail + 1))
		echo "FAIL: $1: output has '$2'"
	else
		pass=$((pass + 1))
	fi
}
