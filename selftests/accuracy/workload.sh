#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The accuracy workload, the same on upstream's profiling and on ours,
# both booted on: the test module's known allocations, 200 files in a
# tmpfs, a walk of the stable file systems; then /proc/allocinfo as
# "# allocinfo" lines, which scripts/alloc_tramp/accuracy.py compares by
# file:line.  The module files, which differ between the two kernels,
# are deleted from the root before the dump, so that their page cache
# does not count.  make check runs it on the prof kernel and on ours.
#
# alloc-tramp-variants: none

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..3"

. ../lib/tap.inc

case "$(cat /proc/cmdline)" in
*alloc_trampolines=on*) ;;
*) [ -d /sys/kernel/mm/alloc_trampolines ] && { ok 1 "booted with alloc_trampolines=on"; exit 0; } ;;
esac
[ -f /proc/allocinfo ] && [ "$(cat /proc/sys/vm/mem_profiling)" = 1 ]
ok $? "profiling is on from boot"

(cd ../alloc_tramp && insmod alloc_tramp_holder.ko && insmod alloc_tramp_test.ko &&
	echo alloc > /sys/kernel/debug/alloc_tramp_test)
ok $? "the test module's allocations"

mkdir -p /mnt/acc && mount -t tmpfs acc /mnt/acc
i=0
while [ $i -lt 200 ]; do
	echo "file $i" > /mnt/acc/f$i
	i=$((i + 1))
done
# Not /proc/<pid>: how many kworkers there are is a matter of timing.
ls -R /bin /etc /mnt /sys /proc/sys > /dev/null 2>&1
find /selftests -name '*.ko' -exec rm -f {} +
sync
lines=$(grep -cE '^ *[0-9]+ +[0-9]+ ' /proc/allocinfo)
[ "$lines" -gt 500 ]
ok $? "$lines lines of /proc/allocinfo"
grep -E '^ *[0-9]+ +[0-9]+ ' /proc/allocinfo | sed 's/^/# allocinfo /'
