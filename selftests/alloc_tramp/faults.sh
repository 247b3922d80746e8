#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fault injection: with failslab and fail_page_alloc failing every
# allocation of one task, the failed allocations through trampolines
# count nothing, and no tag is left behind in current.
#
# alloc-tramp-variants: debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..6"

. ../lib/tap.inc

mod=alloc_tramp_test
ctl=/sys/kernel/debug/$mod
line() { awk -v k="$1" '$1 == k { print $2 }' $mod.lines; }
info() {
	awk -v l="$mod.c:$(line "$1")" '$3 ~ l "$" { print $1, $2 }' /proc/allocinfo
}

insmod alloc_tramp_holder.ko && insmod $mod.ko && echo 1 > /sys/kernel/mm/alloc_trampolines/enabled
ok $? "load the test module, trampolines on"
for f in failslab fail_page_alloc; do
	echo N > /sys/kernel/debug/$f/ignore-gfp-wait
	echo 1 > /sys/kernel/debug/$f/task-filter
	echo 100 > /sys/kernel/debug/$f/probability
	echo -1 > /sys/kernel/debug/$f/times
	echo 0 > /sys/kernel/debug/$f/verbose
done
echo 0 > /sys/kernel/debug/fail_page_alloc/min-order

# The files are open before the task is made to fail: the writes
# themselves allocate nothing.
said=$(dmesg | grep -c 'fail: 0 of 10 kmallocs, 0 of 3 page blocks')
sh -c "exec 3> $ctl 4> /proc/self/make-it-fail; echo 1 >&4; echo fail >&3; r=\$?; echo 0 >&4; exit \$r"
ok $? "the failing task's command returns with no tag left in current"
[ "$(dmesg | grep -c 'fail: 0 of 10 kmallocs, 0 of 3 page blocks')" -gt "$said" ]
ok $? "all of its 10 kmallocs and 3 page allocations failed"
[ -z "$(info fail_kmalloc)" ] || [ "$(info fail_kmalloc)" = "0 0" ]
ok $? "the failed kmallocs count nothing: '$(info fail_kmalloc)'"
[ -z "$(info fail_pages)" ] || [ "$(info fail_pages)" = "0 0" ]
ok $? "the failed page allocations count nothing: '$(info fail_pages)'"

for f in failslab fail_page_alloc; do
	echo 0 > /sys/kernel/debug/$f/probability
done
echo fail > $ctl
[ "$(info fail_kmalloc)" = "$((10 * $(kmalloc_size 128))) 10" ] &&
	[ "$(info fail_pages)" = "49152 3" ]
ok $? "without faults the same lines account: '$(info fail_kmalloc)', '$(info fail_pages)'"
echo free > $ctl
echo 0 > /sys/kernel/mm/alloc_trampolines/enabled
rmmod $mod && rmmod alloc_tramp_holder
