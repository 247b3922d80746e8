#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A module with 2500 allocation tags: their counters (40 KiB per CPU) do
# not fit one per-CPU allocation (32 KiB at most).  It loads, each of its
# sites is counted, and it unloads cleanly.
#
# alloc-tramp-variants: tramp

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..5"

. ../lib/tap.inc

en=/sys/kernel/mm/alloc_trampolines/enabled
echo 1 > $en
insmod alloc_tramp_many.ko
ok $? "load a module with 2500 tags while on"
lines=$(awk '$4 == "[alloc_tramp_many]" && $3 ~ /alloc_tramp_many\.c:[0-9]+$/ { n++ }
	END { print n + 0 }' /proc/allocinfo)
[ "$lines" = 2500 ]
ok $? "/proc/allocinfo has its 2500 tags: $lines"
counted=$(awk '$4 == "[alloc_tramp_many]" && $2 == 1 { n++ } END { print n + 0 }' /proc/allocinfo)
[ "$counted" = 2500 ]
ok $? "each of its 2500 sites counted its one allocation: $counted"
! dmesg | grep -q 'no memory for the counters'
ok $? "no refused counters"
rmmod alloc_tramp_many && ! grep -q 'alloc_tramp_many' /sys/kernel/debug/allocations
ok $? "unload: its memory was freed, its lines are gone"
echo 0 > $en
