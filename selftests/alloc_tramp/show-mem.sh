#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# show_mem(), as on OOM, prints the top users among the trampoline tags:
# sysrq-m lists "Memory allocations:" with upstream's lines.
#
# alloc-tramp-variants: tramp

echo "TAP version 13"
echo "1..2"

. "$(dirname "$0")/../lib/tap.inc"

echo 1 > /sys/kernel/mm/alloc_trampolines/enabled
ls -R / > /dev/null 2>&1
echo m > /proc/sysrq-trigger
top=$(dmesg | sed 's/^\[[^]]*\] //' | sed -n '/^Memory allocations:$/,$p' |
	sed -n '2,11p' | grep -E '^ *[0-9.]+ [KMGTPE]?i?B +[0-9]+ [^ ]+:[0-9]+ (\[[^ ]+\] )?func:')
[ -n "$top" ]
ok $? "sysrq-m prints the top allocation sites"
[ "$(echo "$top" | wc -l)" -eq 10 ]
ok $? "ten of them: $(echo "$top" | head -n 1)"
echo 0 > /sys/kernel/mm/alloc_trampolines/enabled
