#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One short iteration of the benchmark module and of the macro workload
# on each kernel, so that "make bench" cannot rot: they run and report.
#
# alloc-tramp-variants: guest prof tramp

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..5"

. ../lib/tap.inc

f=/sys/kernel/debug/alloc_bench
insmod alloc_bench.ko
ok $? "load the benchmark module"
echo "run 1000 3" > $f && out=$(cat $f)
echo "$out" | grep -qE '^kmalloc [0-9]+\.[0-9] ns/op \(median of 3 x 1000; ' &&
	echo "$out" | grep -qE '^pages [0-9]+\.[0-9] ns/op \(median of 3 x 1000; '
ok $? "kmalloc and pages loops: $(echo $out)"
if [ -d /sys/kernel/mm/alloc_trampolines ]; then
	echo "toggle 1" > $f && cat $f | grep -qE '^enable [0-9]+\.[0-9] ms' &&
		[ "$(cut -c1 /sys/kernel/mm/alloc_trampolines/enabled)" = 0 ]
	ok $? "toggle timing: $(cat $f | tr '\n' ' ')"
else
	echo "toggle 1" > $f 2> /dev/null
	[ $? != 0 ]
	ok $? "no toggle timing without trampolines"
fi
rmmod alloc_bench

# The macro workload and the switch timing of make bench (macro.c)
mkdir -p /mnt/smoke && mount -t tmpfs smoke /mnt/smoke
out=$(alloc_bench_macro /mnt/smoke 100 10 1)
echo "$out" | grep -qE '^files [0-9]+\.[0-9] ns/op$' && echo "$out" | grep -qE '^forks [0-9]+\.[0-9] ns/op$' &&
	[ -z "$(ls /mnt/smoke)" ]
ok $? "macro workload: $(echo $out)"
if [ -f /proc/sys/vm/mem_profiling ]; then
	before=$(cat /proc/sys/vm/mem_profiling)
	out=$(alloc_bench_macro switch /proc/sys/vm/mem_profiling 1)
	echo "$out" | grep -qE '^switch-on [0-9]+\.[0-9]+ ms$' &&
		[ "$(cat /proc/sys/vm/mem_profiling)" = 0 ]
	ok $? "switch timing: $(echo $out)"
	echo "$before" > /proc/sys/vm/mem_profiling
else
	alloc_bench_macro switch /proc/sys/vm/mem_profiling 1 > /dev/null 2>&1
	[ $? = 1 ]
	ok $? "no switch timing without vm.mem_profiling"
fi
