#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Torture: every CPU allocates and frees through many sites (slab, pages,
# vmalloc, percpu; a timer and an hrtimer in interrupt context) while
# this shell switches the trampolines, rewrites the filters and a second
# loop loads, uses and unloads a test module.  Afterwards, everything
# freed, every tag of the torture is at exactly 0 bytes and 0 calls:
# nothing was lost or counted twice.  Interrupt-context allocations
# never run under the tag of the task they interrupted.
#
# Kernel argument alloc_tramp.torture_seconds=N (default 20; "make soak"
# gives 600); a slow kernel goes on until it switched 12 times and cycled
# the module 3 times, up to ten times as long.
#
# alloc-tramp-variants: tramp debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..7"

. ../lib/tap.inc

secs=$(arg alloc_tramp.torture_seconds)
secs=${secs:-20}
en=/sys/kernel/mm/alloc_trampolines/enabled
d=/sys/kernel/debug/alloc_trampolines
t=/sys/kernel/debug/alloc_tramp_torture
uptime() { cut -d. -f1 /proc/uptime; }

insmod alloc_tramp_holder.ko && insmod alloc_tramp_torture.ko && echo start > $t
ok $? "start the torture on $(grep -c ^processor /proc/cpuinfo) CPUs for ${secs}s"
end=$(($(uptime) + secs))
# At least 12 switches, however slow the kernel (KASAN) and the host: the
# run goes on past its seconds, up to ten times as long
hard=$((end + 9 * secs))
stop=/tmp/torture-stop
rm -f $stop

# Module churn, concurrently with the switching below
(
	cycles=0
	while { [ ! -e $stop ] || [ $cycles -lt 3 ]; } && [ "$(uptime)" -lt $hard ]; do
		insmod alloc_tramp_test.ko && echo alloc > /sys/kernel/debug/alloc_tramp_test &&
			echo free > /sys/kernel/debug/alloc_tramp_test &&
			rmmod alloc_tramp_test && cycles=$((cycles + 1))
	done
	echo $cycles > /tmp/torture-cycles
) &

toggles=0 busy=0 filters=0 seen=0
while { [ "$(uptime)" -lt $end ] || [ $toggles -lt 12 ] || [ $seen = 0 ]; } &&
	[ "$(uptime)" -lt $hard ]; do
	for v in 1 0; do
		if echo $v > $en 2> /dev/null; then
			toggles=$((toggles + 1))
		else
			busy=$((busy + 1))
		fi
	done
	# The allocators' own sites (mm/) stay in: left out, the slab pages
	# under a kmalloc would be the caller's, and stay cached after.
	case $((toggles % 5)) in
	0) q="module alloc_tramp_torture" ;;
	1) q="!func irq_alloc" ;;
	2) q="target *kmalloc* module alloc_tramp_*" ;;
	3) q="line 5-" ;;
	*) q= ;;
	esac
	printf '%s\nfile mm/*\n' "$q" > $d/set_site_filter 2> /dev/null &&
		filters=$((filters + 1))
	echo 1 > $en 2> /dev/null
	awk '$4 == "[alloc_tramp_torture]" && $2 > 0 { f = 1 } END { exit !f }' /proc/allocinfo &&
		seen=$((seen + 1))
done
touch $stop
wait
echo 0 > $en
echo > $d/set_site_filter
echo stop > $t
stats=$(cat $t)
# What the allocators keep goes back: vmap areas, empty slabs, pools.
echo quiesce > $t && echo 2 > /proc/sys/vm/drop_caches && echo quiesce > $t
cycles=$(cat /tmp/torture-cycles)
echo "# survived $toggles switches ($busy refused busy), $filters filter writes, $cycles module cycles, $stats"

[ "$toggles" -gt 10 ] && [ "$cycles" -gt 2 ] && [ "$seen" -gt 0 ]
ok $? "switched $toggles times and cycled the module $cycles times; torture tags counted in $seen rounds"
# The page site makes no nested allocation: it must be back at zero.
# The others may still hold what their allocator allocated inside them
# and keeps: page tables under vmalloc, slab pages shared with other
# objects, percpu chunks; upstream counts those the same way.
pages_line=$(awk '$1 == "pages" { print $2 }' alloc_tramp_torture.lines)
torture_tags() { awk '$4 == "[alloc_tramp_torture]"' /proc/allocinfo; }
pages=$(torture_tags | awk -v l="alloc_tramp_torture.c:$pages_line" '$3 ~ l "$" { print $1, $2 }')
[ "$(torture_tags | wc -l)" -ge 5 ] && [ "$pages" = "0 0" ]
ok $? "zero-sum: the page site is at 0 bytes, 0 calls after $(echo "$stats" | awk '{ print $2 }') allocations: '$pages'"
held=$(torture_tags | awk '{ b += $1 } END { print b + 0 }')
torture_tags | awk '$1 != 0 { print "# still held, nested: " $1 " bytes " $2 " calls " $3 }'
[ "$held" -ge 0 ] && [ "$held" -lt 1048576 ]
ok $? "the other sites hold only nested memory still allocated: $held bytes"
neg=$(grep -E '^ *-[0-9]| -[0-9]+ ' /proc/allocinfo | head -n 3)
[ -z "$neg" ]
ok $? "no negative count anywhere ${neg:+: $neg}"
if kasan; then
	echo "ok $((n += 1)) - nothing of the unloaded test module left # SKIP KASAN's quarantine holds frees back"
else
	# Switching patches the allocators' own sites (mm/) before the
	# others and unpatches them after: a slab page is never the test's.
	# /proc/allocinfo drops an unloaded module's tags even when their
	# table is kept: the tables and allocations files keep them.
	left=$( (awk '$4 == "[alloc_tramp_test]" && $1 != 0' /proc/allocinfo
		grep ' module:alloc_tramp_test ' /sys/kernel/debug/allocations
		grep -E '^alloc_tramp_test (kept|retired) ' $d/tables) | head -n 5)
	echo "$left" | sed '/^$/d; s/^/# left: /'
	[ -z "$left" ]
	ok $? "nothing of the unloaded test module is left: no byte, no kept table"
fi
under=$(echo "$stats" | awk '{ print $6 }')
irqs=$(echo "$stats" | awk '{ print $4 }')
[ "$irqs" -gt 0 ] && [ "$under" = 0 ]
ok $? "$irqs interrupt-context allocations, $under of them under a task's tag"
rmmod alloc_tramp_torture && rmmod alloc_tramp_holder
