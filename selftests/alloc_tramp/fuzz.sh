#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Hostile input: random bytes and malformed lines, written whole in one
# write(2) each, to every control file.  Each write is refused and the
# state read back after it is the state before.
#
# Kernel argument alloc_tramp.fuzz_writes=N (default 200 per file).
#
# alloc-tramp-variants: tramp

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..6"

. ../lib/tap.inc

writes=$(arg alloc_tramp.fuzz_writes)
writes=${writes:-200}
en=/sys/kernel/mm/alloc_trampolines/enabled
d=/sys/kernel/debug/alloc_trampolines
ctx=/sys/kernel/debug/allocations.ctx

# A known state: on, a filter, a notrace line, capture on one site
first=$(awk '$3 == "vmlinux" { print $2; exit }' $d/available_sites)
second=$(awk -v f="$first" '$3 == "vmlinux" && $2 != f { print $2; exit }' $d/available_sites)
[ -n "$first" ] && [ -n "$second" ] &&
	echo "module vmlinux" > $d/set_site_filter &&
	echo "!func $second" >> $d/set_site_filter
ok $? "set up: filter 'module vmlinux' but $second, notrace $first, capture at $first"
echo "func $first" > $d/set_site_notrace
echo "func $first enable every 3" > $ctx
echo 1 > $en

state() {
	cat $en $d/set_site_filter $d/set_site_notrace
	cut -d' ' -f1-4 $d/enabled_sites
	grep -v '^ *\(size\|pid\|tgid\|comm\|ts\|call stack\):\|^        ' $ctx |
		sed 's/^[^ ]* [0-9]* //; s/captured: [0-9]* live: [0-9]*//'
}

# Malformed lines: each is refused by every file
cat > /tmp/bad-lines <<'T'
line
line 5-
line -5
line 7-3
line 0
line x
line 1-2-3
file
func
module
target
every 3
func a func b
a b c
!
enable disable
2
-1
1 1
0x1
T

# fuzz FILE: the number of writes taken
fuzz() {
	taken=0
	while read -r l; do
		printf '%s\n' "$l" | dd of="$1" bs=4096 count=1 2> /dev/null && taken=$((taken + 1))
	done < /tmp/bad-lines
	i=0
	while [ $i -lt "$writes" ]; do
		# Random bytes behind a byte no file takes, of 1 to 300 bytes
		head -c $((1 + i * 37 % 300)) /dev/urandom > /tmp/fz
		printf '\377' | cat - /tmp/fz | dd of="$1" bs=4096 count=1 2> /dev/null &&
			taken=$((taken + 1))
		i=$((i + 1))
	done
	echo $taken
}

before=$(state)
for f in $en $d/set_site_filter $d/set_site_notrace $ctx; do
	taken=$(fuzz $f)
	after=$(state)
	[ "$taken" = 0 ] && [ "$after" = "$before" ]
	ok $? "$(basename $f): $(($(wc -l < /tmp/bad-lines) + writes)) bad writes, $taken taken, state unchanged"
	[ "$after" = "$before" ] ||
		{ echo "$before" > /tmp/b; echo "$after" | diff /tmp/b - | head -n 6 | sed 's/^/# /'; }
done
dmesg | grep -c 'alloc_tramp: refused' > /tmp/refused
[ "$(cat /tmp/refused)" -gt 100 ]
ok $? "each refusal said why: $(cat /tmp/refused) messages"

echo "func $first disable" > $ctx
echo 0 > $en
echo > $d/set_site_filter
echo > $d/set_site_notrace
