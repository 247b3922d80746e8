#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One short iteration of the benchmark module on each kernel, so that
# "make bench" cannot rot: it loads, runs both loops and reports.
#
# alloc-tramp-variants: guest prof tramp

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..3"

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
