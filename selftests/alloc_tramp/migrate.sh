#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Page migration keeps the page counts exact: a migrated page keeps the
# tag of its allocation, and the target page's own allocation (the
# migration target's site in mm/migrate.c) is subtracted, in bytes, when
# the old page is freed.  move_pages(2) moves anonymous pages between the
# two NUMA nodes of the guest; afterwards mm/migrate.c holds what it held
# before, and so does the site of the anonymous faults once unmapped.
# Compaction's targets, which no site allocates, have a tag of their own
# (mm/compaction.c, compaction_alloc), as upstream's alloc_hooks() gives
# them, and it is back at zero after compacting.
#
# alloc-tramp-variants: tramp debug defconfig

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..6"

. ../lib/tap.inc

enabled=/sys/kernel/mm/alloc_trampolines/enabled
es=/sys/kernel/debug/alloc_trampolines/enabled_sites
pages=1024
rounds=2
# bytes FILE: the bytes /proc/allocinfo has under the lines of FILE
bytes() { awk -v f="$1:" 'index($3, f) == 1 { b += $1 } END { print b + 0 }' /proc/allocinfo; }

echo 1 > $enabled
[ -d /sys/devices/system/node/node1 ] &&
	grep -q '^mm/migrate\.c:[0-9]* alloc_migration_target vmlinux ' $es
ok $? "two NUMA nodes, and the site of the migration target is patched: $(grep '^mm/migrate\.c:[0-9]* alloc_migration_target ' $es | head -n 1)"

m0=$(bytes mm/migrate.c)
a0=$(bytes mm/memory.c)
moved=$(alloc_tramp_migrate $pages $rounds)
m1=$(bytes mm/migrate.c)
a1=$(bytes mm/memory.c)
[ "$moved" = $((pages * rounds * 2)) ]
ok $? "move_pages() moved $pages pages to node 1 and back $rounds times: $moved moves"
# Before the fix each move left a page less one byte under mm/migrate.c.
d=$((m1 - m0))
[ $d -gt -65536 ] && [ $d -lt 65536 ]
ok $? "mm/migrate.c holds what it held ($m0 then $m1 bytes, $((pages * rounds * 2)) targets allocated and freed)"
d=$((a1 - a0))
[ $d -gt -262144 ] && [ $d -lt 262144 ]
ok $? "the anonymous faults' lines hold what they held once unmapped ($a0 then $a1 bytes)"

compaction() { awk '$3 ~ /^mm\/compaction\.c:/ && $4 == "func:compaction_alloc" { print $1, $2 }' /proc/allocinfo; }
c0=$(compaction)
[ -n "$c0" ]
ok $? "compaction's targets have a tag of their own: '$c0'"
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr
ev=$tr/events/compaction/mm_compaction_migratepages
if [ -w /proc/sys/vm/compact_memory ] && [ -d $ev ]; then
	# How many pages it moved, from its tracepoint: it must have moved
	# some, from memory made sparse for it (up to 3 tries)
	moved=0
	for i in 1 2 3; do
		: > $tr/trace
		echo 1 > $ev/enable
		alloc_tramp_migrate compact 8192
		echo 0 > $ev/enable
		moved=$(sed -n 's/.*nr_migrated=\([0-9]*\).*/\1/p' $tr/trace |
			awk '{ n += $1 } END { print n + 0 }')
		[ "$moved" -gt 0 ] && break
	done
	[ "$moved" -gt 0 ] && [ "$(compaction)" = "0 0" ]
	ok $? "after compacting $moved pages, it is back at zero: '$(compaction)'"
else
	ok 0 "compaction # SKIP no CONFIG_COMPACTION or its tracepoints"
fi
echo 0 > $enabled
