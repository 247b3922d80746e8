#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Known allocations from known lines of a test module are reported with
# exactly their bytes and calls, in /sys/kernel/debug/allocations and
# /proc/allocinfo; frees take them back out; memory that outlives the
# module stays reported and is subtracted when freed later.
#
# alloc-tramp-variants: tramp debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..29"

. ../lib/tap.inc

report=/sys/kernel/debug/allocations
line() { test_line "$1"; }
# "bytes calls" of a line of the test module, from /proc/allocinfo
info() { test_info "$1"; }
want() { [ "$(info "$1")" = "$2" ]; ok $? "$1: '$(info "$1")', want '$2'"; }

# Where the layout leaves the bits, page tags are in page->flags
# (lib/alloc_tramp_pgtag.c): the page tests below then cover that path.
dmesg | grep -q "alloc_tramp: page tags in page->flags, bits "
ok $? "page tags are kept in page->flags: $(dmesg | grep -o 'page tags in .*' | head -1)"

echo 1 > /sys/kernel/mm/alloc_trampolines/enabled
insmod alloc_tramp_holder.ko && insmod alloc_tramp_test.ko
ok $? "load the test modules"
ctl=/sys/kernel/debug/alloc_tramp_test
# What a kmalloc(128) accounts: 128, more under KASAN
k128=$(kmalloc_size 128)
possible=$(awk -F- '{ print $NF + 1 }' /sys/devices/system/cpu/possible)

# The init text is freed once the module is live: its sites are gone.
d=/sys/kernel/debug/alloc_trampolines
init_site="(^|/)alloc_tramp_test\.c:$(line init) test_init alloc_tramp_test "
ours="(^|/)alloc_tramp_test\.c:[0-9]+ [a-z_]+ alloc_tramp_test "
want init "$(kmalloc_size 64) 1"
! grep -qE "$init_site" $d/available_sites && grep -qE "$ours" $d/available_sites
ok $? "an init site is not available once the init text is freed"
! grep -qE "$init_site" $d/enabled_sites && grep -qE "$ours" $d/enabled_sites
ok $? "nor patched"
echo 0 > /sys/kernel/mm/alloc_trampolines/enabled && echo 1 > /sys/kernel/mm/alloc_trampolines/enabled
ok $? "switching off and on leaves the freed init text alone"
! echo "module alloc_tramp_test line $(line init)" > $d/set_site_filter 2> /dev/null
ok $? "a filter naming only the init site is refused"
grep -q '^#### all sites ####' $d/set_site_filter
ok $? "and changes nothing"

echo alloc > $ctl
want kmalloc "$((10 * k128)) 10"
want pages "49152 3"
vm=$(info vmalloc)
[ "${vm% *}" -ge 16384 ] && [ "${vm#* }" -ge 2 ]
ok $? "vmalloc: '$vm', want >= 16384 bytes, >= 2 calls"
pc=$(info percpu)
# With memcg, each 4-byte unit also pays an obj_cgroup pointer (pcpu_obj_full_size())
memcg=0
grep -q '^memory' /proc/cgroups 2> /dev/null && memcg=$((4096 / 4 * 8))
[ "${pc#* }" -ge 1 ] && [ "${pc% *}" = "$((${pc#* } * (4096 * possible + memcg)))" ]
ok $? "percpu: '$pc', want calls x (4096 x $possible CPUs + $memcg memcg) (not from the first chunk)"
want mempool_alloc "$((2 * $(kmalloc_size 256))) 2"
grep -q "alloc_tramp_test.c:$(line kmalloc) module:alloc_tramp_test func:test_alloc\$" $report &&
	grep "alloc_tramp_test.c:$(line kmalloc) " $report | grep -q "^$(human $((10 * k128))) 10 "
ok $? "debugfs report: size calls file:line module:M func:F"

echo free > $ctl
for l in kmalloc pages vmalloc percpu mempool_create mempool_alloc; do
	want $l "0 0"
done
if kasan; then
	echo "ok $((n += 1)) - a freed site leaves the report # SKIP KASAN's quarantine holds frees back"
else
	! grep -q "alloc_tramp_test.c:$(line kmalloc) " $report
	ok $? "a freed site leaves the report"
fi

echo leak > $ctl
rmmod alloc_tramp_test
ok $? "unload with 64 bytes still allocated"
! grep -q "alloc_tramp_test.c:$(line init) " $report
ok $? "the init site's memory was freed by the exit"
grep -q "^$(human $(kmalloc_size 64)) 1 .*alloc_tramp_test.c:$(line leak) module:alloc_tramp_test func:test_leak\$" $report
ok $? "memory that outlives its module is still reported"
grep -q "^$(human 4096) 1 .*alloc_tramp_test.c:$(line leak_page) module:alloc_tramp_test func:test_leak\$" $report
ok $? "a page too: its tag is found from page->flags after the unload"
echo release > /sys/kernel/debug/alloc_tramp_holder
! grep -q "alloc_tramp_test.c:$(line leak) " $report
ok $? "and freeing it later subtracts it"
! grep -q "alloc_tramp_test.c:$(line leak_page) " $report
ok $? "the page too"

insmod alloc_tramp_test.ko && echo alloc > $ctl
want kmalloc "$((10 * k128)) 10"
echo free > $ctl
rmmod alloc_tramp_test && rmmod alloc_tramp_holder
ok $? "reload, allocate, free, unload"
echo 0 > /sys/kernel/mm/alloc_trampolines/enabled
