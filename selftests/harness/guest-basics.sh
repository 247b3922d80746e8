#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest has what the other tests rely on.

echo "TAP version 13"
echo "1..4"
n=$(grep -c ^processor /proc/cpuinfo)
[ "$n" -ge 2 ] && echo "ok 1 - $n CPUs online" || echo "not ok 1 - $n CPUs online, want 2"
[ -d /sys/kernel/debug/bdi ] || [ "$(ls /sys/kernel/debug | wc -l)" -gt 0 ] &&
	echo "ok 2 - debugfs mounted" || echo "not ok 2 - debugfs mounted"
[ -r /proc/modules ] && echo "ok 3 - modules supported" || echo "not ok 3 - modules supported"
grep -q ' T __kmalloc_noprof$' /proc/kallsyms &&
	echo "ok 4 - kallsyms lists the allocator" ||
	echo "not ok 4 - kallsyms lists the allocator"
