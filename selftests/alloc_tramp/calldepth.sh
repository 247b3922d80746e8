#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Call depth tracking (retbleed=stuff on an Intel CPU model): callthunks
# rewrote the direct calls to go through the call thunks, and the sites
# must still be patchable, count right and keep calls and returns
# accounted in pairs.  Run by make check booted that way.
#
# alloc-tramp-variants: none

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..8"

. ../lib/tap.inc

en=/sys/kernel/mm/alloc_trampolines/enabled
ctl=/sys/kernel/debug/alloc_tramp_test
line() { awk -v k="$1" '$1 == k { print $2 }' alloc_tramp_test.lines; }
info() {
	awk -v l="alloc_tramp_test.c:$(line "$1")" \
		'$3 ~ l "$" && $4 == "[alloc_tramp_test]" { print $1, $2 }' /proc/allocinfo
}
# "calls - returns" accounted on all CPUs (CONFIG_CALL_THUNKS_DEBUG)
balance() {
	cat /sys/kernel/debug/callthunks/cpu* | tr -d , |
		awk '{ c += $2; r += $4 } END { print c - r }'
}

dmesg | grep -q 'Setting up call depth tracking' &&
	grep -q 'Retbleed: Mitigation: Stuffing' /sys/devices/system/cpu/vulnerabilities/retbleed
ok $? "call depth tracking is on: $(cat /sys/devices/system/cpu/vulnerabilities/retbleed)"

echo 1 > $en
total=$(sed -n 's/^1 (\([0-9]*\) of \([0-9]*\) sites patched)$/\1 \2/p' $en)
[ -n "$total" ] && [ "${total% *}" = "${total#* }" ] && [ "${total% *}" -gt 500 ]
ok $? "every site is patched: $(cat $en)"
! dmesg | grep -q 'not as built'
ok $? "none was refused"

insmod alloc_tramp_holder.ko && insmod alloc_tramp_test.ko && echo alloc > $ctl
k128=$(kmalloc_size 128)
[ "$(info kmalloc)" = "$((10 * k128)) 10" ]
ok $? "a module's allocations are counted: '$(info kmalloc)'"
echo free > $ctl

if [ -d /sys/kernel/debug/callthunks ]; then
	before=$(balance)
	echo "cycle 20000" > $ctl
	after=$(balance)
	d=$((after - before))
	[ "${d#-}" -lt 2000 ]
	ok $? "20000 allocations at a patched site: calls - returns moved by $d"
	echo 0 > $en
	before=$(balance)
	echo "cycle 20000" > $ctl
	after=$(balance)
	d=$((after - before))
	[ "${d#-}" -lt 2000 ]
	ok $? "and at the site switched off: by $d"
else
	ok 0 "calls and returns in pairs # SKIP no CONFIG_CALL_THUNKS_DEBUG"
	ok 0 "and at the site switched off # SKIP no CONFIG_CALL_THUNKS_DEBUG"
	echo 0 > $en
fi

grep -q '^0 (0 of ' $en
ok $? "switched off: $(cat $en)"
bad=$(grep -cv ' off$' /sys/kernel/debug/alloc_trampolines/sites | grep -v '^0$')
! grep -v ' gone$' /sys/kernel/debug/alloc_trampolines/sites | grep -qv ' off$'
ok $? "every live site calls its allocator again ${bad:+($bad not)}"
rmmod alloc_tramp_test && rmmod alloc_tramp_holder
