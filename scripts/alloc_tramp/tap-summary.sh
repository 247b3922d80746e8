#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Turn one guest boot into one TAP line per test.
#
# Usage: tap-summary.sh CONSOLE RESULTS NAME XFAIL...
#   CONSOLE  kernel console log (ttyS0)
#   RESULTS  test output (ttyS1): "# RUN t", TAP lines, "# EXIT t rc secs"
#   NAME     prefix of the reported names (the kernel variant)
#   XFAIL    tests that must fail: they pass when the harness sees them fail
#
# A test passes when it exited 0, printed at least one "ok" and no
# "not ok", and its plan (1..N), if any, matches. The boot itself is a
# test: it fails when the guest did not reach the end marker (panic, hang,
# timeout) or the console shows a WARN, BUG, oops or panic.

console=$1
results=$2
name=$3
shift 3

tr -d '\r' < "$results" 2>/dev/null | awk -v name="$name" -v xfail=" $* " '
function report(t, ok, why,   x) {
	x = index(xfail, " " t " ") > 0
	if (x) {
		ok = !ok
		why = ok ? "expected failure seen" : "expected failure not seen"
	}
	printf "%s - %s: %s%s\n", ok ? "ok" : "not ok", name, t,
		why == "" ? "" : " # " why
}
/^ALLOC_TRAMP_GUEST_BEGIN/ { begun = 1 }
/^ALLOC_TRAMP_GUEST_END/ { ended = 1 }
/^# RUN / { t = $3; oks = 0; bad = 0; plan = -1; n = 0; running = 1; next }
/^# EXIT / && running {
	why = ""
	if ($4 != 0) why = "exit status " $4 ($5 != "" ? " after " $5 " s" : "")
	else if (bad) why = bad " not ok"
	else if (!oks) why = "no ok line"
	else if (plan >= 0 && plan != n) why = "planned " plan ", ran " n
	report(t, why == "", why)
	running = 0
	next
}
running && /^1\.\.[0-9]+/ { plan = substr($1, 4) + 0 }
running && /^ok / { oks++; n++ }
running && /^not ok / { bad++; n++ }
END {
	if (running) report(t, 0, "did not finish")
	if (!begun || !ended)
		printf "not ok - %s: guest ran to the end marker # %s\n", name,
			begun ? "stopped early" : "no output"
	else
		printf "ok - %s: guest ran to the end marker\n", name
}'

splat=$(tr -d '\r' < "$console" 2>/dev/null |
	grep -m1 -E 'WARNING:|BUG:|Oops|Kernel panic|general protection|Call Trace:|UBSAN:|KASAN:')
if [ -n "$splat" ]; then
	echo "not ok - $name: kernel log clean # $splat"
else
	echo "ok - $name: kernel log clean"
fi
