#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Booted with alloc_trampolines=on, the sites of vmlinux are patched
# before mm_core_init(): what start_kernel() allocates before the
# initcalls is counted, at the line of its call, and the tags that
# counted from the first allocation are not marked "accurate:no".  A
# switch off and on again marks them.  early.lines (made on the host
# from this kernel's source) names the line of two early allocations:
# vmap_init_nodes() in mm_core_init() (with more than one CPU) and
# alloc_large_system_hash() in vfs_caches_init().
#
# alloc-tramp-variants: none

cd "$(dirname "$0")"
# Run it first in its boot: the switches of other tests mark tags.
echo "TAP version 13"
echo "1..8"

. ../lib/tap.inc

en=/sys/kernel/mm/alloc_trampolines/enabled
report=/sys/kernel/debug/allocations

dmesg | grep -q 'alloc_tramp: [1-9][0-9]* sites patched at boot, 0 not as built'
ok $? "start_kernel() patched the sites: $(dmesg | grep -o 'alloc_tramp: [0-9]* sites patched at boot.*')"

head -n 1 /proc/allocinfo | grep -qx 'allocinfo - version: 2.0'
ok $? "/proc/allocinfo says version 2.0: $(head -n 1 /proc/allocinfo)"

[ "$(wc -l < early.lines)" = 2 ]
ok $? "early.lines names two early allocations"

# FUNC: "bytes file:line" of its line in the report (seed's format)
reported() {
	awk -v f="$1" '$5 == "func:" f && $4 == "module:vmlinux" { print $1, $3 }' $report
}
while read -r func line; do
	got=$(reported "$func")
	echo "# $func: expected $line, reported: $got"
	case " $got" in
	*" 0 $line"*|"") ok 1 "$func() before the initcalls is counted at $line" ;;
	*" $line"*) ok 0 "$func() before the initcalls is counted at $line" ;;
	*) ok 1 "$func() before the initcalls is counted at $line" ;;
	esac
done < early.lines

# Counted from the first allocation: nothing is marked but the sites that
# could not be patched (none, see above).
marked=$(grep -c ' accurate:no' /proc/allocinfo)
[ "$marked" = 0 ]
ok $? "no tag is marked accurate:no ($marked)"

# Off and on again: the tag of every site that was switched off missed
# allocations; the sites in init text are gone since boot and switched
# neither way, their tags miss nothing.
patched=$(sed -n 's/^1 (\([0-9]*\) of.*/\1/p' $en)
echo 0 > $en && echo 1 > $en
marked=$(grep -c ' accurate:no' /proc/allocinfo)
[ "$patched" -gt 1000 ] && [ "$marked" -gt 500 ] &&
	grep ' accurate:no' /proc/allocinfo | grep -q ' func:__d_alloc '
ok $? "switched off and on, $marked tags of $patched sites are marked accurate:no, __d_alloc's too"
! grep ' accurate:no' /proc/allocinfo | grep -q ' func:alloc_large_system_hash '
ok $? "the tag of a site in freed init text is not marked"
