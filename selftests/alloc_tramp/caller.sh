#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The allocators name their real caller, not the trampoline body, while
# a site is patched, as when it is not: the kmalloc and percpu
# tracepoints' call_site and /proc/vmallocinfo.  So do they for a task
# that slept in a body, in a slab constructor, while the sites were
# switched off: the kmem_cache_alloc tracepoint and SLUB's alloc_traces.
#
# alloc-tramp-variants: tramp debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..13"

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

# A task asleep in a body while the sites go off
en=/sys/kernel/mm/alloc_trampolines/enabled
sleepy=/sys/kernel/debug/slab/alloc_tramp_sleepy/alloc_traces
echo 1 > $en
: > $tr/trace
echo 1 > $tr/events/kmem/kmem_cache_alloc/enable
in0=$(dmesg | grep -c 'sleepy: in the constructor')
echo sleepy > $ctl &
i=0
while [ "$(dmesg | grep -c 'sleepy: in the constructor')" = "$in0" ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
grep -qE "(^|/)alloc_tramp_test\.c:$(test_line sleepy) test_sleepy " $d/enabled_sites &&
	[ $i -lt 300 ] && echo 0 > $en && echo 0 > $en &&
	grep -q '^0 (0 of [0-9]* sites patched)$' $en
ok $? "a task sleeps in the body of a patched site while the sites are switched off and patched back"
echo wake > $ctl
wait
echo 0 > $tr/events/kmem/kmem_cache_alloc/enable
t=$(grep ' kmem_cache_alloc: call_site=' $tr/trace | grep -o 'call_site=[^ ]*' | sort -u | tr '\n' ' ')
echo "$t" | grep -q 'call_site=test_sleepy+' && ! echo "$t" | grep -q 'call_site=__alloc_tramp'
ok $? "afterwards the kmem_cache_alloc tracepoint names test_sleepy: $t"
# The caller of each track, not the stacks below them
a=$(awk '$1 ~ /^[0-9]+$/ { print $2 }' $sleepy 2> /dev/null | tr '\n' ' ')
echo "$a" | grep -q '^test_sleepy+' && ! echo "$a" | grep -q 'alloc_tramp_'
ok $? "and so do SLUB's alloc_traces of its cache: ${a:-none}"
echo free > $ctl

echo 0 > $en
rmmod alloc_tramp_test && rmmod alloc_tramp_holder
ok $? "unload"
