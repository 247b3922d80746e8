#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Upstream's profiling: vm.mem_profiling switches its static keys (jump
# labels, patched with INT3 as our sites are) while every CPU allocates
# and frees, with no workaround in the way; the counters stay sane.
#
# alloc-tramp-variants: prof

echo "TAP version 13"
echo "1..4"

. "$(dirname "$0")/../lib/tap.inc"

sys=/proc/sys/vm/mem_profiling
ncpu=$(grep -c '^processor' /proc/cpuinfo)
[ "$(cat $sys)" = 1 ] && [ "$ncpu" -ge 2 ] &&
	grep -q ' arch_jump_label_transform_queue$' /proc/kallsyms
ok $? "vm.mem_profiling is 1, $ncpu CPUs, jump labels built in"

toggles=$(arg alloc_tramp.toggles)
toggles=${toggles:-1000}
flip() { echo 0 > $sys && echo 1 > $sys; }
i=$(storm "$toggles" flip)
[ $i = "$toggles" ] && [ "$(cat $sys)" = 1 ]
ok $? "switched off and on $i times under load"
neg=$(tail -n +3 /proc/allocinfo | awk '$1 < 0 || $2 < 0 || $1 > 1e15 || $2 > 1e15' | head -n 3)
[ -z "$neg" ]
ok $? "no negative counts in /proc/allocinfo $neg"
! dmesg | grep -E 'int3|WARNING:|BUG:|Oops' > /tmp/bad
ok $? "no trap or warning in the kernel log: $(head -n 2 /tmp/bad | tr '\n' ' ')"
