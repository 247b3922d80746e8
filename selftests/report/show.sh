#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What "make run" ends with: tools/mm/alloc_report's live view of the
# running kernel (alloc_report -t), two refreshes three seconds apart
# while a small workload (500 directories and files in a tmpfs) runs:
# the top sites by size, and by growth since the first refresh, with
# their rates.  Its lines are "# view: ...", which make run prints.
# A kernel without /proc/allocinfo shows its debugfs report instead.
#
# alloc-tramp-variants: none

echo "TAP version 13"
echo "1..1"
if [ -r /proc/allocinfo ]; then
	# Counting, whatever a test before switched (make run boots on)
	en=/sys/kernel/mm/alloc_trampolines/enabled
	[ -f $en ] && [ "$(cut -c1 $en)" = 0 ] && echo 1 > $en
	mkdir -p /tmp/view && mount -t tmpfs view /tmp/view
	alloc_report -t 3 -i 2 -n 12 > /tmp/view.txt 2>&1 &
	pid=$!
	sleep 1
	i=0
	while [ $i -lt 500 ]; do
		mkdir /tmp/view/d$i && echo $i > /tmp/view/d$i/f
		i=$((i + 1))
	done
	wait $pid
	rc=$?
	sed 's/^/# view: /' /tmp/view.txt
	# The second refresh: sites by size, and some that grew
	[ $rc = 0 ] && grep -q '^# alloc_report -t 3: refresh 2,' /tmp/view.txt &&
		[ "$(grep -c 'module:' /tmp/view.txt)" -gt 10 ] &&
		awk '/refresh 2,/ { r = 1 } r && /^# by growth/ { g = 1; next }
			g && !/^#/ { n++ } END { exit !(n > 0) }' /tmp/view.txt
	if [ $? = 0 ]; then
		echo "ok 1 - alloc_report -t: the top sites by size and by growth"
	else
		echo "not ok 1 - alloc_report -t: exit $rc, or no site grew"
	fi
	exit 0
fi
f=/sys/kernel/debug/allocations
if [ -r $f ]; then
	alloc_report -n 20 $f | sed 's/^/# view: /'
	echo "ok 1 - $f read"
	exit 0
fi
echo "not ok 1 - no allocation report in this kernel"
