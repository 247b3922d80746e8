#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The sysfs toggle: switching on patches every site to its trampoline and
# the report fills; switching off parks the sites, and switching on again
# finds them so; off again puts back the instructions as built; bad
# writes are refused and change nothing; switching 1000 times while
# every CPU allocates leaves no splat and no negative count.
#
# alloc-tramp-variants: tramp

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..16"

. ../lib/tap.inc

f=/sys/kernel/mm/alloc_trampolines/enabled
sites=/sys/kernel/debug/alloc_trampolines/sites
report=/sys/kernel/debug/allocations
ctl=/sys/kernel/debug/alloc_tramp_test
state() { cut -d' ' -f1 $f; }
# Sites in a state; those of modules have "[module]" before their allocator
count() {
	awk -v s="$1" '{ t = $2 ~ /^\[/ ? $4 : $3 } t == s { n++ } END { print n + 0 }' $sites
}

echo 0 > $f && echo 0 > $f
[ "$(state)" = 0 ] && [ "$(count off)" -gt 0 ] && [ "$(count on)" = 0 ] &&
	[ "$(count parked)" = 0 ] && [ "$(count '?')" = 0 ]
ok $? "off, and off again: $(count off) sites call their allocator as built, $(count gone) in freed init text"

echo 1 > $f
insmod alloc_tramp_holder.ko && insmod alloc_tramp_test.ko
total=$(wc -l < $sites)
[ "$(state)" = 1 ] && [ "$(count off)" = 0 ] && [ "$(count on)" -gt 0 ] && [ "$(count '?')" = 0 ]
ok $? "on, the test module loaded: $(count on) sites call their trampoline"
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
np=$(count on)
echo 0 > $f
[ "$(state)" = 0 ] && [ "$(count parked)" = "$np" ] && [ "$(count on)" = 0 ] &&
	grep -q "^0 (0 of $total sites patched, $np parked)\$" $f
ok $? "off parks the $np sites: their text stays, their bodies call the allocators: $(cat $f)"
for v in 2 abc "" 99999999999999999999; do echo "$v" > $f 2>/dev/null; done
[ "$(state)" = 0 ] && [ "$(count on)" = 0 ] && [ "$(count parked)" = "$np" ]
ok $? "bad writes also change nothing when off"
# ctor_tag: the tag the constructor of a new cache finds in
# current->alloc_tag, inside a kmem_cache_alloc() of the test module
ctor_tag() {
	echo ctor_tag > $ctl && dmesg | sed -n 's/.*alloc_tramp_test: ctor_tag: //p' | tail -n 1
}
# The test module, loaded while on: parked, its site tags nothing, and
# its body sets no tag
echo alloc > $ctl && parked=$(test_info kmalloc) && echo free > $ctl
parked_tag=$(ctor_tag)
echo 1 > $f
[ "$(state)" = 1 ] && [ "$(count on)" = "$np" ] && [ "$(count parked)" = 0 ] &&
	grep -q "^1 ($np of $total sites patched)\$" $f
ok $? "on again from parked: $(cat $f)"
echo alloc > $ctl && on=$(test_info kmalloc) && echo free > $ctl
[ "$parked" = "0 0" ] && [ "$on" = "$((10 * $(kmalloc_size 128))) 10" ]
ok $? "a module's 10 allocations: parked '$parked', on again '$on'"
on_tag=$(ctor_tag)
[ "$parked_tag" = none ] && echo "$on_tag" | grep -q "alloc_tramp_test\.c:$(test_line ctor_tag)\$"
ok $? "the tag inside a kmem_cache_alloc(): parked '$parked_tag', on '$on_tag'"

# Every CPU allocates and frees while the toggle flips 1000 times
# (alloc_tramp.toggles=N on the kernel command line: fewer on the debug
# kernel).
toggles=$(arg alloc_tramp.toggles)
toggles=${toggles:-1000}
# on, parked, and patched back as built: every flip writes the text twice
flip() { echo 1 > $f && echo 0 > $f && echo 0 > $f; }
i=$(storm "$toggles" flip)
[ $i = "$toggles" ]
ok $? "switched on, off and off again $i times under load"
[ "$(state)" = 0 ] && [ "$(count off)" -gt 0 ] && [ "$(count on)" = 0 ] &&
	[ "$(count parked)" = 0 ] && [ "$(count '?')" = 0 ]
ok $? "and every site is as built again"

neg=$(tail -n +3 /proc/allocinfo | awk '$1 < 0 || $2 < 0 || $1 > 1e15 || $2 > 1e15' | head -n 3)
[ -z "$neg" ]
ok $? "no negative counts in /proc/allocinfo $neg"
echo 1 > $f
ls -R / > /dev/null 2>&1
[ "$(count on)" -gt 0 ] && [ "$(wc -l < $report)" -gt 10 ]
ok $? "on again after the storm"
echo 0 > $f
rmmod alloc_tramp_test && rmmod alloc_tramp_holder
