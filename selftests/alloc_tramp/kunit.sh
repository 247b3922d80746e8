#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suites of the site queries and of the page tag indexes ran
# at boot: two TAP lines a suite, read from their KTAP output in the
# kernel log.
#
# alloc-tramp-variants: tramp

echo "TAP version 13"
echo "1..4"

. "$(dirname "$0")/../lib/tap.inc"

# suite, the fewest cases it has
for s in "alloc_tramp_query 5" "alloc_tramp_pgtag 1"; do
	set -- $s
	suite=$1
	ktap=$(dmesg | sed 's/^\[[^]]*\] //' |
		sed -n "/^ *# Subtest: $suite\$/,/^ *\(not \)\{0,1\}ok [0-9]* $suite\$/p")
	# A skipped case (page tags not in page->flags) does not pass.
	cases=$(echo "$ktap" | grep -E '^ +ok [0-9]+ ' | grep -cv '# SKIP')
	failed=$(echo "$ktap" | grep -E '^ +not ok [0-9]+ |# SKIP' |
		sed -E 's/^ +(not )?ok [0-9]+ ([^ ]+).*/\2/' | tr '\n' ' ')
	[ "$cases" -ge "$2" ] && [ -z "$failed" ]
	ok $? "$suite: $cases cases passed${failed:+, failed or skipped: $failed}"
	echo "$ktap" | grep -qE "^ok [0-9]+ $suite\$"
	ok $? "$suite: the suite passed"
	[ -n "$failed" ] && echo "$ktap" | grep -E '^ +#' | head -n 20
done
exit 0
