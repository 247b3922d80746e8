#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suite of the site queries ran at boot: one TAP line per case,
# read from its KTAP output in the kernel log.
#
# alloc-tramp-variants: tramp

echo "TAP version 13"
echo "1..2"

. "$(dirname "$0")/../lib/tap.inc"

suite=alloc_tramp_query
ktap=$(dmesg | sed 's/^\[[^]]*\] //' |
	sed -n "/^ *# Subtest: $suite\$/,/^ *\(not \)\{0,1\}ok [0-9]* $suite\$/p")
cases=$(echo "$ktap" | grep -cE '^ +ok [0-9]+ ')
failed=$(echo "$ktap" | grep -E '^ +not ok [0-9]+ ' | awk '{ print $4 }' | tr '\n' ' ')
[ "$cases" -ge 5 ] && [ -z "$failed" ]
ok $? "$suite: $cases cases passed${failed:+, failed: $failed}"
echo "$ktap" | grep -qE "^ok [0-9]+ $suite\$"
ok $? "$suite: the suite passed"
[ -n "$failed" ] && echo "$ktap" | grep -E '^ +#' | head -n 20
exit 0
