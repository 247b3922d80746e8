#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Print the head of the allocation report; used by "make run".
#
# alloc-tramp-variants: none

echo "TAP version 13"
echo "1..1"
for f in /sys/kernel/debug/allocations /proc/allocinfo; do
	if [ -r $f ]; then
		echo "# $f, top 20 by size:"
		# tools/mm/alloc_report sorts human sizes; sort -n reads bytes.
		if command -v alloc_report > /dev/null; then
			top=$(alloc_report -n 20 $f | grep -v '^#')
		else
			top=$(grep -E '^ *[0-9]' $f | sort -nr | head -n 20)
		fi
		echo "$top" | sed 's/^/#   /'
		[ -n "$top" ] && echo "ok 1 - $f read" ||
			echo "not ok 1 - $f has no site lines"
		exit 0
	fi
done
echo "not ok 1 - no allocation report in this kernel"
