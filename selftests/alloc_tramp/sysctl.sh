#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm.mem_profiling switches the trampolines, which own the accounting
# key: memory allocated while on and freed after "0" is still subtracted,
# and memory allocated after "0" is not counted.
#
# alloc-tramp-variants: tramp

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..8"

. ../lib/tap.inc

en=/sys/kernel/mm/alloc_trampolines/enabled
sys=/proc/sys/vm/mem_profiling

[ "$(cat $sys)" = 0 ] && grep -q '^0 ' $en
ok $? "off: vm.mem_profiling reads 0"
insmod alloc_tramp_holder.ko && insmod alloc_tramp_test.ko
echo 1 > $sys && grep -qE '^1 \([1-9][0-9]* of ' $en && [ "$(cat $sys)" = 1 ]
ok $? "vm.mem_profiling=1 switches on: $(cat $en)"
echo alloc > /sys/kernel/debug/alloc_tramp_test
k=$(test_info kmalloc)
[ "${k#* }" = 10 ]
ok $? "allocations are counted: '$k'"
echo 0 > $sys && grep -q '^0 (0 of ' $en && [ "$(cat $sys)" = 0 ]
ok $? "vm.mem_profiling=0 switches off: $(cat $en)"
lines="kmalloc cache pages vmalloc percpu"
now() { for l in $lines; do echo "$l $(test_info $l);"; done; }
was=$(now)
echo free > /sys/kernel/debug/alloc_tramp_test
! now | grep -qv ' 0 0;$' && ! echo "$was" | grep -q ' 0 0;$'
ok $? "memory freed after off is subtracted: $(echo $was) -> $(now | tr -d '\n')"
echo alloc > /sys/kernel/debug/alloc_tramp_test
! now | grep -qv ' 0 0;$'
ok $? "memory allocated after off is not counted: $(now | tr -d '\n')"
echo free > /sys/kernel/debug/alloc_tramp_test
! now | grep -qv ' 0 0;$'
ok $? "and its free changes nothing: $(now | tr -d '\n')"
! echo 2 > $sys 2> /dev/null && [ "$(cat $sys)" = 0 ]
ok $? "vm.mem_profiling=2 is refused"
rmmod alloc_tramp_test && rmmod alloc_tramp_holder
