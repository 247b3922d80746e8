#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Booted with alloc_trampolines=on, the sites of vmlinux in init text were
# patched, and are forgotten under the trampolines' lock by a hook that
# runs before free_initmem(), as ftrace_free_init_mem() does, not judged
# from system_state: no switch or filter write racing with the free can
# patch freed text.  After it, they are "gone", and switching leaves
# them alone.  (early.sh covers the patching before the first
# allocation.)  Run by make check with that parameter.
#
# alloc-tramp-variants: none

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..4"

. ../lib/tap.inc

f=/sys/kernel/mm/alloc_trampolines/enabled
sites=/sys/kernel/debug/alloc_trampolines/sites

grep -qE '^1 \([1-9][0-9]* of [0-9]+ sites patched\)$' $f
ok $? "on at boot: $(cat $f)"

hook=$(dmesg | grep -o 'alloc_tramp: init text to be freed: [0-9]* of its sites were patched')
forgot=$(echo "$hook" | sed -n 's/.*freed: \([0-9]*\) of.*/\1/p')
[ "${forgot:-0}" -gt 0 ]
ok $? "the hook before free_initmem() forgot ${forgot:-no} patched sites: ${hook:-no message}"

# The hook's line comes before the kernel's own "Freeing unused" line.
first=$(dmesg | grep -nE 'init text to be freed|Freeing unused kernel image' | head -n 1)
echo "$first" | grep -q 'init text to be freed'
ok $? "and ran before the init memory was freed: $first"

gone=$(grep -c ' gone$' $sites)
echo 0 > $f && echo 1 > $f && [ "$(grep -c ' gone$' $sites)" = "$gone" ] &&
	[ "$gone" -ge "${forgot:-1}" ]
ok $? "$gone sites are gone, and stay so through a switch off and on"
