#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The allocators name their real caller, not the trampoline body, while
# a site is patched, as when it is not: the kmalloc and percpu
# tracepoints' call_site and /proc/vmallocinfo.
#
# alloc-tramp-variants: tramp debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..10"

. ../lib/tap.inc

tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr
d=/sys/kernel/debug/alloc_trampolines
ctl=/sys/kernel/debug/alloc_tramp_test
traces=/sys/kernel/debug/slab/kmalloc-128/alloc_traces
insmod alloc_tramp_holder.ko
insmod alloc_tramp_test.ko
[ -d $tr/events/kmem/kmalloc ] && [ -d $tr/events/percpu/percpu_alloc_percpu ] &&
	[ -w $ctl ]
ok $? "the kmalloc and percpu tracepoints and the test module are there"

# run STATE: allocate with the sites on or off, "kmalloc percpu vmalloc"
# counts of the allocations that name test_alloc, and of any that name a
# body in bad.
run() {
	echo "$1" > /sys/kernel/mm/alloc_trampolines/enabled
	: > $tr/trace
	echo 1 > $tr/events/kmem/kmalloc/enable
	echo 1 > $tr/events/percpu/percpu_alloc_percpu/enable
	echo alloc > $ctl
	echo 0 > $tr/events/kmem/kmalloc/enable
	echo 0 > $tr/events/percpu/percpu_alloc_percpu/enable
	cat $traces > /tmp/traces 2> /dev/null
	echo "$(grep -c ' kmalloc: call_site=test_alloc+' $tr/trace)" \
		"$(grep -c ' percpu_alloc_percpu: call_site=test_alloc+' $tr/trace)" \
		"$(grep -c ' test_alloc+0x[0-9a-f]*/0x[0-9a-f]* \[alloc_tramp_test\]' /proc/vmallocinfo)" \
		"$(awk '$2 ~ /^test_alloc\+/ { n += $1 } END { print n + 0 }' /tmp/traces)"
	bad=$( (grep -E 'call_site=(__)?alloc_tramp' $tr/trace; grep alloc_tramp_ /proc/vmallocinfo
		grep alloc_tramp_ /tmp/traces) | head -n 2)
	echo free > $ctl
}

off=$(run 0)
set -- $off
[ "$1" -ge 10 ] && [ "$2" -ge 1 ] && [ "$3" -ge 2 ] && [ -z "$bad" ]
ok $? "off: kmalloc, percpu, vmalloc name test_alloc: $off"

on=$(run 1)
grep -qE "(^|/)alloc_tramp_test\.c:$(test_line kmalloc) test_alloc " $d/enabled_sites &&
	grep -qE "(^|/)alloc_tramp_test\.c:$(test_line vmalloc) test_alloc " $d/enabled_sites &&
	grep -qE "(^|/)alloc_tramp_test\.c:$(test_line percpu) test_alloc " $d/enabled_sites
ok $? "on: the kmalloc, vmalloc and percpu sites are patched"
set -- $on
[ "$1" -ge 10 ]
ok $? "on: the kmalloc tracepoint names test_alloc: $1"
[ "$2" -ge 1 ]
ok $? "on: the percpu tracepoint names test_alloc: $2"
[ "$3" -ge 2 ]
ok $? "on: /proc/vmallocinfo names test_alloc: $3"
if tr ' ' '\n' < /proc/cmdline | grep -q '^slab_debug=U,kmalloc-128$'; then
	[ "$4" -ge 10 ]
	ok $? "on: SLUB's alloc_traces of kmalloc-128 name test_alloc: $4"
else
	echo "ok $((n += 1)) - SLUB's alloc_traces # SKIP not booted with slab_debug=U,kmalloc-128"
fi
[ -z "$bad" ]
ok $? "on: none names a trampoline body: $bad"
[ "$on" = "$off" ]
ok $? "the same as off: $on, $off"
echo 0 > /sys/kernel/mm/alloc_trampolines/enabled
rmmod alloc_tramp_test && rmmod alloc_tramp_holder
ok $? "unload"
