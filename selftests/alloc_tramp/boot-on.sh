#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Booted with alloc_trampolines=on, the sites are patched before the
# initcalls: the report holds the memory of the boot itself.  Run by
# make check with that parameter (not on the plain variants).
#
# alloc-tramp-variants: none

echo "TAP version 13"
echo "1..3"

f=/sys/kernel/mm/alloc_trampolines/enabled
report=/sys/kernel/debug/allocations
grep -qE '^1 \([1-9][0-9]* of [0-9]+ sites patched\)$' $f &&
	echo "ok 1 - on at boot: $(cat $f)" || echo "not ok 1 - on at boot: $(cat $f)"

# The init task's children and the kthreads were forked after the patch.
grep -q ' kernel/fork\.c:[0-9]* module:vmlinux func:' $report &&
	echo "ok 2 - boot-time allocations are reported ($(wc -l < $report) lines)" ||
	echo "not ok 2 - boot-time allocations are reported ($(wc -l < $report) lines)"

# Memory of early initcalls: sites in init text were patched too.
grep -q '^ *[1-9][0-9]* *[1-9][0-9]* [^ ]*:[0-9]* func:' /proc/allocinfo &&
	echo "ok 3 - /proc/allocinfo counts it" || echo "not ok 3 - /proc/allocinfo counts it"
