#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The sysfs toggle: switching on patches every site to its trampoline and
# the report fills; switching off puts back the instructions as built;
# bad writes are refused and change nothing; switching 1000 times while
# every CPU allocates leaves no splat and no negative count.
#
# alloc-tramp-variants: tramp

echo "TAP version 13"
echo "1..12"

. "$(dirname "$0")/../lib/tap.inc"

f=/sys/kernel/mm/alloc_trampolines/enabled
sites=/sys/kernel/debug/alloc_trampolines/sites
report=/sys/kernel/debug/allocations
state() { cut -d' ' -f1 $f; }
count() { awk -v s="$1" '$3 == s { n++ } END { print n + 0 }' $sites; }
total=$(wc -l < $sites)

echo 0 > $f
[ "$(state)" = 0 ] && [ "$(count off)" -gt 0 ] &&
	[ "$(count on)" = 0 ] && [ "$(count '?')" = 0 ]
ok $? "off: $(count off) sites call their allocator as built, $(count gone) in freed init text"

echo 1 > $f
[ "$(state)" = 1 ] && [ "$(count off)" = 0 ] && [ "$(count on)" -gt 0 ] && [ "$(count '?')" = 0 ]
ok $? "on: $(count on) sites call their trampoline"
grep -q "^1 ($(count on) of $total sites patched)\$" $f
ok $? "reading says the state and the patched sites: $(cat $f)"

ls -R / > /dev/null 2>&1
[ "$(wc -l < $report)" -gt 10 ]
ok $? "the report has $(wc -l < $report) sites with live allocations"
bad=$(grep -vE '^[0-9.]+[KMGTPE]? [0-9]+ [^ ]+:[0-9]+ module:[^ ]+ func:[^ ]+$' $report | head -n 3)
[ -z "$bad" ]
ok $? "report lines are 'size calls file:line module:M func:F' $bad"
# Sizes as sort -h reads them: bytes below 1024, then K, M, G.
bad=$(awk '{ s = $1; u = substr(s, length(s)); n = s + 0
	if (u ~ /[0-9]/ ? n >= 1024 : (u !~ /[KMGTPE]/ || n >= 1024)) print }' $report | head -n 3)
[ -z "$bad" ] && grep -qE '^[0-9.]+[KM] ' $report
ok $? "sizes are human readable, for sort -hr $bad"

for v in 2 abc "" 99999999999999999999 "1 1" -1; do
	if echo "$v" > $f 2>/dev/null; then echo "# '$v' accepted"; fi
done
[ "$(state)" = 1 ] && [ "$(count on)" -gt 0 ]
ok $? "bad writes are refused and change nothing"
echo 0 > $f
for v in 2 abc "" 99999999999999999999; do echo "$v" > $f 2>/dev/null; done
[ "$(state)" = 0 ] && [ "$(count on)" = 0 ]
ok $? "also when off"

# Every CPU allocates and frees while the toggle flips 1000 times
# (alloc_tramp.toggles=N on the kernel command line: fewer on the debug
# kernel).
toggles=$(arg alloc_tramp.toggles)
toggles=${toggles:-1000}
flip() { echo 1 > $f && echo 0 > $f; }
i=$(storm "$toggles" flip)
[ $i = "$toggles" ]
ok $? "switched on and off $i times under load"
[ "$(state)" = 0 ] && [ "$(count on)" = 0 ] && [ "$(count '?')" = 0 ]
ok $? "and every site is as built again"

neg=$(tail -n +3 /proc/allocinfo | awk '$1 < 0 || $2 < 0 || $1 > 1e15 || $2 > 1e15' | head -n 3)
[ -z "$neg" ]
ok $? "no negative counts in /proc/allocinfo $neg"
echo 1 > $f
ls -R / > /dev/null 2>&1
[ "$(count on)" -gt 0 ] && [ "$(wc -l < $report)" -gt 10 ]
ok $? "on again after the storm"
echo 0 > $f
