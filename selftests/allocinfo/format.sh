#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /proc/allocinfo exists and its lines have upstream's format:
#   <bytes> <calls> <file>:<line> [<module>] func:<function> [accurate:no]
# where <file> is relative to the source tree (mm/slub.c, not ../mm/slub.c).
#
# alloc-tramp-variants: prof tramp

echo "TAP version 13"
echo "1..4"

f=/proc/allocinfo
if [ -r $f ]; then
	echo "ok 1 - $f is readable"
else
	echo "not ok 1 - $f is readable"
	exit 0
fi

# Upstream 6.12 prints 1.0; ours prints 2.0, whose lines may end in
# " accurate:no", as from 6.18.
version=1.0
[ -d /sys/kernel/mm/alloc_trampolines ] && version=2.0
head -n 1 $f | grep -qx "allocinfo - version: $version" &&
	echo "ok 2 - header says version $version" ||
	echo "not ok 2 - header says version $version: $(head -n 1 $f)"

re='^ *[0-9]+ +[0-9]+ [A-Za-z0-9_][^ ]*:[0-9]+( \[[^ ]+\])? func:[A-Za-z0-9_.]+( accurate:no)? *$'
lines=$(tail -n +3 $f | wc -l)
bad=$(tail -n +3 $f | grep -Ev "$re" | head -n 3)
if [ "$lines" -gt 100 ] && [ -z "$bad" ]; then
	echo "ok 3 - $lines site lines have the format"
else
	echo "not ok 3 - $lines site lines have the format"
	echo "$bad" | sed 's/^/# bad: /'
fi

# Something in the kernel holds memory from a known allocator site: ours
# counts once switched on.
if [ $version = 2.0 ]; then
	echo 1 > /sys/kernel/mm/alloc_trampolines/enabled
	ls -R /sys/kernel > /dev/null 2>&1
fi
live=$(tail -n +3 $f | awk '$1 > 0 { n++ } END { print n + 0 }')
if [ "$live" -gt 10 ]; then
	echo "ok 4 - $live sites hold live memory"
else
	echo "not ok 4 - $live sites hold live memory"
fi
head -n 12 $f | sed 's/^/# /'
