#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Booted with sysctl.vm.mem_profiling=never, page_ext has no room for
# page tags: switching on is refused, with a message, and changes
# nothing.  Run by make check with that parameter.
#
# alloc-tramp-variants: none

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..5"

. ../lib/tap.inc

en=/sys/kernel/mm/alloc_trampolines/enabled
grep -qE '^0 \(0 of [1-9][0-9]* sites patched\)$' $en
ok $? "off, with sites: $(cat $en)"
! echo 1 > $en 2> /dev/null
ok $? "switching on is refused"
dmesg | grep -q 'alloc_tramp: not switched on: booted with sysctl.vm.mem_profiling=never'
ok $? "with a message"
grep -qE '^0 \(0 of [1-9][0-9]* sites patched\)$' $en
ok $? "and nothing is patched: $(cat $en)"
[ "$(cat /proc/sys/vm/mem_profiling)" = 0 ] && ! echo 1 > /proc/sys/vm/mem_profiling 2> /dev/null
ok $? "vm.mem_profiling reads 0 and cannot be written"
