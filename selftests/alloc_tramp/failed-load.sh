#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A module whose load fails after MODULE_STATE_COMING leaves no table
# behind: not when its init fails, nor when its parameters are refused
# (codetag unloads its tags either way).  A parameter setter that ran
# before the failure may have allocated memory that outlives the load:
# then the module's table and tags are kept until that memory is freed.
# Its init site counted and was freed, and a good load works after.
# A table "kept" by an earlier test of this boot (module.sh: memory that
# outlived the module; kept as upstream 6.12 keeps the module's data)
# stays as it was.
#
# alloc-tramp-variants: tramp debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..11"

. ../lib/tap.inc

tables=/sys/kernel/debug/alloc_trampolines/tables
test_tables() { grep -c '^alloc_tramp_test ' $tables; }
echo 1 > /sys/kernel/mm/alloc_trampolines/enabled
kept=$(grep -c '^alloc_tramp_test kept ' $tables)
grep -qE '^vmlinux live [1-9][0-9]* sites [1-9][0-9]* tags$' $tables &&
	[ "$(test_tables)" = "$kept" ]
ok $? "on, vmlinux has sites and the test module no table but $kept kept: $(head -n 1 $tables)"

insmod alloc_tramp_holder.ko
fails=0
for i in 1 2 3 4 5; do
	insmod alloc_tramp_test.ko init_error=19 2> /dev/null && fails=$((fails + 1))
	insmod alloc_tramp_test.ko init_error=x 2> /dev/null && fails=$((fails + 1))
done
[ $fails = 0 ] && ! grep -q '^alloc_tramp_test ' /proc/modules
ok $? "5 loads whose init fails and 5 with a refused parameter all fail"
e1=$(insmod alloc_tramp_test.ko init_error=19 2>&1)
e2=$(insmod alloc_tramp_test.ko init_error=x 2>&1)
echo "$e1" | grep -q 'No such device' && echo "$e2" | grep -q 'Invalid argument' &&
	dmesg | grep -q "alloc_tramp_test: .x' invalid for parameter .init_error'"
ok $? "for the reasons given: $e1; $e2"
[ "$(test_tables)" = "$kept" ]
ok $? "no table is left of them: $(test_tables) with $kept kept"
! grep -q 'alloc_tramp_test\.c' /proc/allocinfo
ok $? "nor tags"

insmod alloc_tramp_test.ko
grep -qE '^alloc_tramp_test live [1-9][0-9]* sites [1-9][0-9]* tags$' $tables
ok $? "a good load after them has its table: $(grep '^alloc_tramp_test ' $tables)"
[ "$(test_info init)" = "$(kmalloc_size 64) 1" ]
ok $? "and its init allocation counts: '$(test_info init)'"
rmmod alloc_tramp_test && [ "$(test_tables)" = "$kept" ]
ok $? "unloaded, its table goes"

# A setter allocates and hands the memory to the holder, the next fails.
churn=alloc_tramp_churn
mark=$(log_mark)
warns() { log_since "$mark" | grep -cE 'has no tag|WARNING:|BUG:|KASAN:'; }
e=$(insmod $churn.ko param_leave=1 refuse=1 2>&1)
[ $? != 0 ] && echo "$e" | grep -q 'Invalid argument' &&
	grep -q "^$churn kept " /sys/kernel/debug/alloc_trampolines/tables &&
	grep -q "$churn\.c" /sys/kernel/debug/allocations
ok $? "a load refused after a parameter allocated keeps its table and tags: $(grep "^$churn " $tables)"
echo release > /sys/kernel/debug/alloc_tramp_holder
insmod $churn.ko && rmmod $churn && ! grep -q "^$churn " $tables
ok $? "freed, the memory lets the kept table go at the next load"
[ "$(warns)" = 0 ]
ok $? "the free of that memory found its tags: no warning ($(warns))"
rmmod alloc_tramp_holder
echo 0 > /sys/kernel/mm/alloc_trampolines/enabled
