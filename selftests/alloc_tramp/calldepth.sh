#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Call depth tracking (retbleed=stuff on an Intel CPU model): callthunks
# rewrote the direct calls to go through the call thunks, and the sites
# must still be patchable, count right and keep calls and returns
# accounted in pairs, through the fail entries of fault injection and
# the bodies of parked sites too.
# Run by make check booted that way, on the debug kernel too, which has
# the counters of CONFIG_CALL_THUNKS_DEBUG.  Booted with
# alloc_trampolines=on too, the sites called their stubs before the call
# thunks were set up: a site that callthunks sent to a thunk in front of
# its stub would not be "on" in the sites file.
#
# alloc-tramp-variants: none

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..11"

. ../lib/tap.inc

en=/sys/kernel/mm/alloc_trampolines/enabled
ctl=/sys/kernel/debug/alloc_tramp_test
# "calls - returns" accounted on all CPUs (CONFIG_CALL_THUNKS_DEBUG)
balance() {
	cat /sys/kernel/debug/callthunks/cpu* | tr -d , |
		awk '{ c += $2; r += $4 } END { print c - r }'
}

dmesg | grep -q 'Setting up call depth tracking' &&
	grep -q 'Mitigation: Stuffing' /sys/devices/system/cpu/vulnerabilities/retbleed
ok $? "call depth tracking is on: $(cat /sys/devices/system/cpu/vulnerabilities/retbleed)"

sites=/sys/kernel/debug/alloc_trampolines/sites
echo 1 > $en
patched=$(sed -n 's/^1 (\([0-9]*\) of [0-9]* sites patched)$/\1/p' $en)
live=$(grep -cv ' gone$' $sites)
[ "${patched:-0}" = "$live" ] && [ "$live" -gt 500 ] && ! grep -v ' gone$' $sites | grep -qv ' on$'
ok $? "every site whose text is live is patched: $(cat $en), $live live"
! dmesg | grep -q 'are not as built'
ok $? "none was refused"

insmod alloc_tramp_holder.ko && insmod alloc_tramp_test.ko && echo alloc > $ctl
k128=$(kmalloc_size 128)
[ "$(test_info kmalloc)" = "$((10 * k128)) 10" ]
ok $? "a module's allocations are counted: '$(test_info kmalloc)'"
echo free > $ctl

# cycle WHAT [STATE]: 20000 allocations at the test module's cycle site,
# and whether calls and returns moved apart by less than 2000 meanwhile,
# the site being in STATE in the sites file
cycle() {
	before=$(balance)
	echo "cycle_any 20000" > $ctl
	d=$(($(balance) - before))
	[ "${d#-}" -lt 2000 ] && { [ -z "$2" ] || [ "$(cycle_state)" = "$2" ]; }
	ok $? "20000 allocations at $1: calls - returns moved by $d"
}
# The states of the test module's live sites, if they have one
cycle_state() {
	grep '\[alloc_tramp_test\]' $sites | cut -d' ' -f4- | grep -v '^gone$' | sort -u
}
fail=/sys/kernel/debug/alloc_trampolines/fail_sites
arm_cycle() { echo "module alloc_tramp_test line $(test_line cycle) fail $1" > $fail; }
if [ -d /sys/kernel/debug/callthunks ]; then
	cycle "a patched site"
	# The fail entry, going on to the body, then failing every other call
	arm_cycle "probability 0"
	cycle "a patched site armed, going on to its body"
	arm_cycle "every 2"
	cycle "a patched site failing every other call"
	: > $fail
	echo 0 > $en
	cycle "the site switched off, parked: its body jumps to kmalloc" parked
	echo 0 > $en
	cycle "the site patched back as built" off
else
	for w in "calls and returns in pairs" "through the fail entry" \
		"with failing calls" "at the site parked" "as built"; do
		ok 0 "$w # SKIP no CONFIG_CALL_THUNKS_DEBUG"
	done
	echo 0 > $en
fi

echo 0 > $en
grep -q '^0 (0 of [0-9]* sites patched)$' $en
ok $? "switched off, and off again: $(cat $en)"
bad=$(grep -v ' gone$' $sites | grep -cv ' off$')
[ "$bad" = 0 ]
ok $? "every live site calls its allocator again, through its call thunk ($bad do not)"
rmmod alloc_tramp_test && rmmod alloc_tramp_holder
