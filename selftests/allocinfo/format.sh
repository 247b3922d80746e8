#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /proc/allocinfo exists and its lines have upstream's format:
#   <bytes> <calls> <file>:<line> [<module>] func:<function>
# where <file> is relative to the source tree (mm/slub.c, not ../mm/slub.c).
#
# alloc-tramp-variants: prof

echo "TAP version 13"
echo "1..4"

f=/proc/allocinfo
if [ -r $f ]; then
	echo "ok 1 - $f is readable"
else
	echo "not ok 1 - $f is readable"
	exit 0
fi

head -n 1 $f | grep -q '^allocinfo - version: 1\.0$' &&
	echo "ok 2 - header says version 1.0" ||
	echo "not ok 2 - header says version 1.0: $(head -n 1 $f)"

re='^ *[0-9]+ +[0-9]+ [A-Za-z0-9_][^ ]*:[0-9]+( \[[^ ]+\])? func:[A-Za-z0-9_.]+ *$'
lines=$(tail -n +3 $f | wc -l)
bad=$(tail -n +3 $f | grep -Ev "$re" | head -n 3)
if [ "$lines" -gt 100 ] && [ -z "$bad" ]; then
	echo "ok 3 - $lines site lines have the format"
else
	echo "not ok 3 - $lines site lines have the format"
	echo "$bad" | sed 's/^/# bad: /'
fi

# Something in the kernel holds memory from a known allocator site.
live=$(tail -n +3 $f | awk '$1 > 0 { n++ } END { print n + 0 }')
if [ "$live" -gt 10 ]; then
	echo "ok 4 - $live sites hold live memory"
else
	echo "not ok 4 - $live sites hold live memory"
fi
head -n 12 $f | sed 's/^/# /'
