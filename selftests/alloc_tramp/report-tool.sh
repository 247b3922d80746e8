#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The leak-hunting workflow with tools/mm/alloc_report on a real report:
# snapshot, allocate, snapshot again, and the diff names the site that
# grew, with its human size.
#
# alloc-tramp-variants: tramp

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..3"

. ../lib/tap.inc

report=/sys/kernel/debug/allocations
mod=alloc_tramp_test
line=$(awk '$1 == "kmalloc" { print $2 }' $mod.lines)

insmod alloc_tramp_holder.ko && insmod $mod.ko && echo 1 > /sys/kernel/mm/alloc_trampolines/enabled
cat $report > /tmp/before
echo alloc > /sys/kernel/debug/$mod
cat $report > /tmp/after
alloc_report -n 5 /tmp/after > /tmp/top
[ "$(grep -vc '^#' /tmp/top)" = 5 ] && grep -q '^# [0-9]* sites, ' /tmp/top
ok $? "top 5: $(head -n 1 /tmp/top)"
alloc_report -d -n 0 /tmp/before /tmp/after > /tmp/diff
h=$(human $((10 * $(kmalloc_size 128))))
# The third column is the new total: it may hold what an earlier load
# of the module left under the same line.
grep -qE "^\+$h +\+10 +[0-9.]+[KMG]? .*$mod\.c:$line module:$mod func:test_alloc\$" /tmp/diff
ok $? "the diff shows the 10 kmallocs of test_alloc: $(grep "$mod.c:$line " /tmp/diff)"
echo free > /sys/kernel/debug/$mod
alloc_report -d /tmp/after $report | grep -q "$mod.c"
[ $? = 1 ]
ok $? "freed: nothing of the module grew since"
echo 0 > /sys/kernel/mm/alloc_trampolines/enabled
rmmod $mod && rmmod alloc_tramp_holder
