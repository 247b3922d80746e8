#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of make bench's rows on x86_64_defconfig: how long
# switching every site takes through vm.mem_profiling, on upstream's
# kernel (its key) and on ours (every site, parked after the first
# switch, as run.sh measures it on the bench kernel), and how many sites
# or tags there are.  Prints "# bench ..." lines.
#
# alloc-tramp-variants: none

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..2"

. ../lib/tap.inc

en=/sys/kernel/mm/alloc_trampolines/enabled
sysctl=/proc/sys/vm/mem_profiling
[ -f $sysctl ]
ok $? "vm.mem_profiling is there: the kernel profiles"
if [ -f $en ]; then
	# From as built to on, then parked: switching from then on
	echo 1 > $en && echo 0 > $en &&
		echo "# bench sites $(wc -l < /sys/kernel/debug/alloc_trampolines/available_sites)" &&
		echo "# bench parked $(cat $en)" &&
		alloc_bench_macro switch $sysctl 5 | sed 's/^/# bench ours /'
else
	echo "# bench tags $(wc -l < /proc/allocinfo)" &&
		alloc_bench_macro switch $sysctl 5 | sed 's/^/# bench upstream /'
fi
ok $? "switched 5 times each way"
