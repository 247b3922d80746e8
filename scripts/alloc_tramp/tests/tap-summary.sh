#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host unit test of the guest result parser, tap-summary.sh, on made-up
# console and result logs.

summary=$(dirname "$0")/../tap-summary.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# expect NAME PATTERN: the parser output on $tmp/{c,r} has a line matching
expect() {
	n=$((n + 1))
	if "$summary" "$tmp/c" "$tmp/r" v $XF | grep -qE "$2"; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1"
		"$summary" "$tmp/c" "$tmp/r" v $XF | sed 's/^/# /'
	fi
}

# results TEST STATUS LINE...: a whole boot that ran TEST
results() {
	local t=$1 rc=$2

	shift 2
	{
		echo ALLOC_TRAMP_GUEST_BEGIN
		echo "# RUN $t"
		printf '%s\n' "$@"
		echo "# EXIT $t $rc"
		echo ALLOC_TRAMP_GUEST_END
	} > "$tmp/r"
}

echo "TAP version 13"
echo "1..12"

XF=
echo "booted" > "$tmp/c"
results a/p.sh 0 "1..2" "ok 1" "ok 2"
sed -i 's/$/\r/' "$tmp/r"	# the serial port adds CRs
expect "passing test passes" '^ok - v: a/p.sh$'
expect "complete boot passes" '^ok - v: guest ran to the end marker$'
expect "clean console passes" '^ok - v: kernel log clean$'

results a/f.sh 0 "ok 1" "not ok 2"
expect "a not ok line fails the test" '^not ok - v: a/f.sh # 1 not ok$'
XF=a/f.sh
expect "an expected failure that fails passes" '^ok - v: a/f.sh # expected failure seen$'
results a/f.sh 0 "ok 1"
expect "an expected failure that passes fails" '^not ok - v: a/f.sh # expected failure not seen$'
XF=

results a/p.sh 0 "1..3" "ok 1"
expect "a short plan fails" '^not ok - v: a/p.sh # planned 3, ran 1$'
results a/p.sh 137 "ok 1"
expect "a killed test fails" '^not ok - v: a/p.sh # exit status 137$'
results a/p.sh "137 600" "ok 1"
expect "and says how long it ran" '^not ok - v: a/p.sh # exit status 137 after 600 s$'

printf 'ALLOC_TRAMP_GUEST_BEGIN\n# RUN a/p.sh\nok 1\n' > "$tmp/r"
expect "a test cut short fails" '^not ok - v: a/p.sh # did not finish$'
expect "a boot cut short fails" '^not ok - v: guest ran to the end marker # stopped early$'

printf '[ 1.0] WARNING: CPU: 0 PID: 1 at mm/slub.c:1 foo\n' > "$tmp/c"
expect "a WARN on the console fails" '^not ok - v: kernel log clean # .*WARNING: CPU'
