#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Module churn over months, in minutes: alloc_tramp_churn.ko is loaded and
# unloaded many times (alloc_tramp.churn_cycles=; 300 unless set, 100
# under KASAN; make soak gives 3000), leaving
# memory behind with alloc_tramp_holder that is freed every few cycles,
# while profiling is switched on and off and the module's sites are armed
# for fault injection, with page tag indexes made scarce.  Every load must
# succeed (a module without indexes loads with its pages uncounted, and
# says so), a kept table must go once its memory is freed, and at the end
# no table, index or byte of the module is left, and the log is clean.
#
# alloc-tramp-variants: tramp debug defconfig

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..6"

. ../lib/tap.inc

mod=alloc_tramp_churn
tables=/sys/kernel/debug/alloc_trampolines/tables
f=/sys/kernel/debug/alloc_trampolines/fail_sites
enabled=/sys/kernel/mm/alloc_trampolines/enabled
params=/sys/module/alloc_tramp/parameters
holder=/sys/kernel/debug/alloc_tramp_holder
cycles=$(arg alloc_tramp.churn_cycles)
if [ -z "$cycles" ]; then
	cycles=300
	kasan && cycles=100
fi
mark=$(log_mark)
splats() { log_since "$mark" | grep -cE 'WARNING:|BUG:|KASAN:|Oops|INFO: |has no tag'; }
kept() { grep -c "^$mod kept " $tables; }

# A load first lets the kept tables of earlier tests whose memory is
# freed go: what is used then is what the churn must come back to.
insmod alloc_tramp_holder.ko && insmod $mod.ko && tags=$(awk -v m=$mod '$1 == m { print $5 }' $tables) &&
	rmmod $mod && [ "$tags" -gt 0 ] && [ -f $params/page_tag_module_indexes ]
ok $? "the module has ${tags:-no} tags; the index knob is there"
used0=$(cat $params/page_tag_indexes_used)

# Room for the ranges of the tables there are and one of the module:
# while a kept table of it holds a range, the next load gets none.
echo $((used0 + tags)) > $params/page_tag_module_indexes
stop=/tmp/stop-churn
rm -f $stop
( while [ ! -e $stop ]; do echo 1 > $enabled; sleep 0.2; echo 0 > $enabled; done 2> /dev/null ) &
( while [ ! -e $stop ]; do
	echo "module $mod fail probability 20" > $f
	sleep 0.3
	: > $f
done 2> /dev/null ) &
i=0 loads=0 max=0
while [ $i -lt "$cycles" ]; do
	insmod $mod.ko leave=1 && loads=$((loads + 1))
	rmmod $mod 2> /dev/null
	k=$(kept)
	[ "$k" -gt $max ] && max=$k
	i=$((i + 1))
	[ $((i % 4)) = 0 ] && echo release > $holder
done
touch $stop
wait
: > $f
echo 0 > $enabled
[ $loads = "$cycles" ]
ok $? "$loads of $cycles loads succeeded, switched on and off and armed meanwhile"
fallback=$(log_since "$mark" | grep -c "$mod: no page tag indexes")
# Without room in page->flags the tags of pages are in page_ext: no index
if dmesg | grep -q 'page tags in page_ext'; then
	[ "$max" -gt 0 ] && [ "$max" -le 8 ]
	ok $? "at most $max kept tables at once (8 allowed); page tags in page_ext, no index to run out"
else
	[ "$fallback" -gt 0 ] && [ "$max" -gt 0 ] && [ "$max" -le 8 ]
	ok $? "indexes ran out $fallback times, and the load said so; at most $max kept tables at once (8 allowed)"
fi

# Freed, the memory of the kept tables lets them go at the next load.
echo release > $holder
insmod $mod.ko && rmmod $mod
echo 0 > $params/page_tag_module_indexes
[ "$(grep -c "^$mod " $tables)" = 0 ] && [ "$(cat $params/page_tag_indexes_used)" = "$used0" ]
ok $? "no table of the module is left, nor an index range: $(cat $params/page_tag_indexes_used) indexes used by modules ($used0 before)"
! grep -q "$mod\\.c" /proc/allocinfo && ! grep -q "$mod\\.c" /sys/kernel/debug/allocations
ok $? "no line of the module is left in /proc/allocinfo or allocations"
rmmod alloc_tramp_holder
[ "$(splats)" = 0 ]
ok $? "the log is clean: $(splats) warnings"
