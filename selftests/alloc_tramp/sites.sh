#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A CONFIG_ALLOC_TRAMPOLINES kernel boots with the sites and tags objtool
# made, and /proc/allocinfo lists the tags in upstream's format.
#
# alloc-tramp-variants: tramp

echo "TAP version 13"
echo "1..3"

line=$(dmesg | grep -o 'alloc_tramp: [0-9]* sites, [0-9]* tags' | tail -n 1)
sites=$(echo "$line" | awk '{ print $2 }')
tags=$(echo "$line" | awk '{ print $4 }')
if [ "${sites:-0}" -gt 500 ] && [ "${tags:-0}" -gt 500 ]; then
	echo "ok 1 - $sites sites, $tags tags registered"
else
	echo "not ok 1 - sites and tags registered: '$line'"
fi

f=/proc/allocinfo
re='^ *[0-9]+ +[0-9]+ [A-Za-z0-9_][^ ]*:[0-9]+( \[[^ ]+\])? func:[A-Za-z0-9_]+( accurate:no)? *$'
n=$(tail -n +3 $f | grep -cE "$re")
bad=$(tail -n +3 $f | grep -vE "$re" | head -n 3)
if [ "$n" -ge "${tags:-x}" ] && [ -z "$bad" ]; then
	echo "ok 2 - /proc/allocinfo lists the $n tags, in upstream's format"
else
	echo "not ok 2 - /proc/allocinfo: $n lines for $tags tags"
	echo "$bad" | sed 's/^/# bad: /'
fi

# The tags name the caller's source line, not the allocator headers.
hdr=$(tail -n +3 $f | grep -cE ' include/linux/(slab|gfp|vmalloc|percpu|mempool)\.h:')
if [ "$hdr" -eq 0 ]; then
	echo "ok 3 - no tag is in an allocator header"
else
	echo "not ok 3 - $hdr tags are in allocator headers"
fi
