#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Per-site fault injection (alloc_trampolines/fail_sites) with the sites
# of alloc_tramp_fault.ko: an armed site fails that exact call and no
# other, "times", "every", "after", "probability" and fail-nth behave as
# documented, the calls that may not fail never do, a module's init fails
# at each of its sites in turn and unwinds without a leak, disarming puts
# the text back as built, and arming, disarming and module churn under
# load leave no splat.
#
# alloc-tramp-variants: tramp debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..23"

. ../lib/tap.inc

mod=alloc_tramp_fault
f=/sys/kernel/debug/alloc_trampolines/fail_sites
sites=/sys/kernel/debug/alloc_trampolines/sites
tables=/sys/kernel/debug/alloc_trampolines/tables
enabled=/sys/kernel/mm/alloc_trampolines/enabled
ctl=/sys/kernel/debug/$mod
line() { awk -v k="$1" '$1 == k { print $2 }' $mod.lines; }
# arm NAME [SETTINGS]: arm that one site of the module, and only it
arm() { echo "module $mod line $(line "$1") fail $2" > $f; }
# run: one run of the module's run_* allocations; prints what failed
run() { echo run > $ctl && cat $ctl; }
# runs N: the results of N runs, one word a run ("none" or what failed)
runs() {
	local i=0
	while [ $i -lt "$1" ]; do run | tr ' ' '+'; i=$((i + 1)); done | tr '\n' ' '
}
# the fail_sites line of the site NAME
armed_line() { grep "$mod\.c:$(line "$1") " $f; }
# the module's lines of the sites file that mention "armed"
armed_sites() { grep "\[$mod\]" $sites | grep -c armed; }
splats() { dmesg | grep -cE 'WARNING:|BUG:|KASAN:|Oops|INFO: possible'; }
runs_all="run_kmalloc run_kzalloc run_krealloc run_kmemdup run_kvmalloc run_vzalloc run_pages run_free_pages run_pool_nowait"
# The calls the real functions satisfy, or fail, without asking for
# memory: a resize to 0 or that fits in place, a mempool_alloc() that may
# sleep or has an element in reserve, __GFP_NOFAIL, a kmalloc() of 0.
never="run_krealloc_fits run_krealloc_zero run_kvrealloc_fits run_kvrealloc_vfits run_pool_reserve run_pool_wait run_nofail run_kmalloc_zero"
inits="init_kmalloc init_cache_alloc init_vmalloc init_pages init_percpu init_mempool"
splats0=$(splats)
# With failslab or fail_page_alloc built in (the debug kernel), their
# fault points count for fail-nth too, the allocations of KASAN's stack
# depot among them: the N-th call is not the N-th at an armed site.
failslab=
for d in failslab fail_page_alloc; do
	[ -d /sys/kernel/debug/$d ] && failslab=$d
done

# 1-2: what the tests need is there, and nothing is armed
n_lines=0
for s in $runs_all $never $inits init_nofail run_rhashtable; do
	[ -n "$(line $s)" ] && n_lines=$((n_lines + 1))
done
[ -f $f ] && [ ! -s $f ] && [ $n_lines = 25 ]
ok $? "fail_sites is there and empty; 25 markers in $mod.lines ($n_lines)"
# The 7 sites of its init are gone once it is loaded; the compiler may
# have made two calls of one line.
insmod $mod.ko && [ "$(run)" = none ] &&
	[ "$(grep -c "\[$mod\]" $sites)" -ge 12 ] && [ "$(armed_sites)" = 0 ]
ok $? "the module loads, runs with no failure, has $(grep -c "\[$mod\]" $sites) sites, none armed"

# 3: refused input changes nothing
arm run_kmalloc
before=$(cat $f)
bad=0
for l in "module $mod fail every 0" "module $mod fail probability 101" \
	"module $mod fail times" "func no_such_function_at_all fail" \
	"!module $mod fail" "module $mod" "module $mod fail nofail" \
	"module $mod enable" "$(printf 'module %s fail\001' $mod)"; do
	echo "$l" > $f 2> /dev/null && bad=$((bad + 1))
	echo "$l" >> $f 2> /dev/null && bad=$((bad + 1))
done
[ $bad = 0 ] && [ "$(cat $f)" = "$before" ] && [ "$(run)" = run_kmalloc ]
ok $? "9 bad lines are refused, written or appended, and change nothing ($bad taken)"

# 4-7: each site fails alone when armed
wrong=
for s in $runs_all; do
	arm $s
	r=$(run)
	[ "$r" = "$s" ] && armed_line $s | grep -q ' calls 1 failed 1$' &&
		[ "$(grep -vc '^#' $f)" = 1 ] || wrong="$wrong $s:$r"
done
[ -z "$wrong" ]
ok $? "each of the 9 sites that can fail fails that call, and no other:${wrong:- all right}"
wrong=
for s in $never; do
	arm $s
	r=$(run)
	[ "$r" = none ] && armed_line $s | grep -q ' calls 0 failed 0$' || wrong="$wrong $s:$r"
done
[ -z "$wrong" ]
ok $? "the 8 calls satisfied without memory (resizes to 0 and in place, a mempool with a reserve or that may sleep, __GFP_NOFAIL, kmalloc(0)) never fail, nor count:${wrong:- none did}"
# rhashtable_init() retries with __GFP_NOFAIL: it is not offered.
arm run_kmalloc
before=$(cat $f)
! arm run_rhashtable 2> /dev/null && ! grep -q "$mod\.c:$(line run_rhashtable) " $f &&
	[ "$(cat $f)" = "$before" ] && echo "module $mod func run fail probability 0" > $f &&
	armed_line run_kmalloc | grep -q ' fail ' &&
	! grep -q "$mod\.c:$(line run_rhashtable) " $f && [ "$(run)" = none ]
ok $? "a line that would arm only rhashtable_init() is refused; a line of its function arms the others, not it"
arm run_kmalloc
[ "$(armed_sites)" = 1 ] && grep "\[$mod\]" $sites | grep -q ' on armed-plain$'
ok $? "the armed site calls its trampoline, whose stub leads to the plain fail entry"

# 8-11: times, every, after, probability
arm run_kmalloc "times 2"
r=$(runs 4)
[ "$r" = "run_kmalloc run_kmalloc none none " ] && armed_line run_kmalloc | grep -q ' calls 4 failed 2$'
ok $? "times 2: '$r'"
arm run_kzalloc "every 3"
r=$(runs 6)
[ "$r" = "none none run_kzalloc none none run_kzalloc " ]
ok $? "every 3: '$r'"
arm run_vzalloc "after 2 times 1"
r=$(runs 4)
[ "$r" = "none none run_vzalloc none " ]
ok $? "after 2 times 1: '$r'"
arm run_pages "probability 50"
r=$(runs 100 | tr ' ' '\n' | grep -c run_pages)
arm run_pages "probability 0"
r0=$(runs 20 | tr ' ' '\n' | grep -c run_pages)
[ "$r" -ge 20 ] && [ "$r" -le 80 ] && [ "$r0" = 0 ]
ok $? "probability 50: $r of 100 runs failed; probability 0: $r0 of 20"

# 12-13: fail-nth: the N-th call of the task at an armed site fails
echo "module $mod fail probability 0" > $f
wrong=
nth=1
for s in $runs_all -; do
	[ -n "$failslab" ] && break
	r=$(sh -c "exec 3> $ctl; echo $nth > /proc/self/fail-nth; echo run >&3; read left < /proc/self/fail-nth; echo \$left")
	got=$(cat $ctl)
	if [ "$s" = - ]; then
		[ "$got" = none ] && [ "$r" = 1 ] || wrong="$wrong $nth:$got:$r"
	else
		[ "$got" = "$s" ] && [ "$r" = 0 ] || wrong="$wrong $nth:$got:$r"
	fi
	nth=$((nth + 1))
done
if [ -n "$failslab" ]; then
	ok 0 "fail-nth steps through the sites # SKIP $failslab's fault points count too"
else
	[ -z "$wrong" ]
	ok $? "fail-nth 1 to 9 fail the 9 sites in turn, 10 none (one count left):${wrong:- as expected}"
fi
[ "$(run)" = none ] && [ "$(grep -vc '^#' $f)" -ge 12 ]
ok $? "without fail-nth, probability 0 fails nothing at the $(grep -vc '^#' $f) armed sites"

# 14-15: disarming puts the text back as built
: > $f
[ ! -s $f ] && [ "$(armed_sites)" = 0 ] && ! grep "\[$mod\]" $sites | grep -qv ' off$' &&
	[ "$(run)" = none ]
ok $? "cleared: no site armed, every site of the module calls its allocator again"
arm run_kmalloc
echo "module $mod line $(line run_kmalloc) nofail" >> $f
[ "$(armed_sites)" = 0 ] && [ "$(run)" = none ] && [ "$(grep -c '^#' $f)" = 2 ]
ok $? "a later nofail line disarms what an earlier line armed"

# 16-17: profiling and fault injection on one site
echo 1 > $enabled
arm run_kmalloc "times 1"
grep "\[$mod\]" $sites | grep -q ' on armed$' && [ "$(run)" = run_kmalloc ] && [ "$(run)" = none ]
ok $? "profiled and armed: the stub leads to the fail entry that goes on to the body"
rmmod $mod
arm init_kmalloc "probability 0"
insmod $mod.ko
l=$(awk -v l="$mod.c:$(line init_kmalloc)" '$3 ~ l "$" { print $1, $2 }' /proc/allocinfo)
[ "$l" = "$(kmalloc_size 128) 1" ]
ok $? "a line armed before the load arms the init's site, which is profiled too: '$l'"
rmmod $mod

# 18-20: the module's init fails at each site in turn and unwinds
wrong=
for s in $inits; do
	arm $s
	e=$(insmod $mod.ko 2>&1) && { wrong="$wrong $s:loaded"; rmmod $mod; continue; }
	echo "$e" | grep -q 'Cannot allocate memory' &&
		dmesg | tail -n 20 | grep -q "alloc_tramp_fault: init failed at $s\$" &&
		! grep -q "^$mod " $tables || wrong="$wrong $s"
done
[ -z "$wrong" ]
ok $? "armed at each of its 6 sites, the init fails there with -ENOMEM:${wrong:- all}"
# /proc/allocinfo drops a module's tags even when their table is kept
! grep -q "^$mod " $tables && ! grep -q " module:$mod " /sys/kernel/debug/allocations &&
	! awk -v m="$mod.c" '$3 ~ m && $1 != 0' /proc/allocinfo | grep -q .
ok $? "and frees what it allocated before: no table is kept, no byte is left under its lines"
arm init_nofail
insmod $mod.ko && [ "$(run)" = none ] && rmmod $mod
ok $? "a __GFP_NOFAIL allocation of the init is never failed: the module loads"

# 21-23: torture: arming, disarming and module churn under load, with
# switching, then with profiling on throughout: nothing of the module
# may outlive it either way.
# torture SWITCH: 40 loads (15 under KASAN); prints "loaded failed armings"
torture() {
	local stop=/tmp/stop-fail armed=/tmp/armings loads=0 fails=0 i=0 nr=40

	kasan && nr=15
	rm -f $stop $armed
	( while [ ! -e $stop ]; do ls -R /sys/kernel > /dev/null 2>&1; done ) &
	( while [ ! -e $stop ]; do
		echo "module $mod fail probability 30" > $f && echo >> $armed
		echo "module $mod func fault_init nofail" >> $f
		echo "module $mod fail every 2" > $f
		: > $f
	done 2> /dev/null ) &
	[ "$1" = 1 ] &&
		( while [ ! -e $stop ]; do echo 1 > $enabled; echo 0 > $enabled; done 2> /dev/null ) &
	( while [ ! -e $stop ]; do echo run > $ctl; done 2> /dev/null ) &
	while [ $i -lt $nr ]; do
		if insmod $mod.ko 2> /dev/null; then
			loads=$((loads + 1))
			echo run > $ctl 2> /dev/null
			# The run loop may hold the module's file open.
			until rmmod $mod 2> /dev/null; do sleep 0.1; done
		else
			fails=$((fails + 1))
		fi
		i=$((i + 1))
	done
	touch $stop
	wait
	: > $f
	echo "$loads $fails $(wc -l < $armed 2> /dev/null || echo 0)"
}
: > $f
# the lines of the module, of its live table and of kept ones, that hold
# memory (allocations lists only those)
mod_bytes() {
	awk -v m="module:$mod" '$4 == m { n++ } END { print n + 0 }' /sys/kernel/debug/allocations
}
r1=$(torture 1)
echo 1 > $enabled
b1=$(mod_bytes)
r2=$(torture 0)
b2=$(mod_bytes)
echo 0 > $enabled
set -- $r1 $r2
# Whether a load fails depends on the timing: that the arming went on
# while the module came and went does not.
[ "$1" -gt 0 ] && [ "$3" -gt 0 ] && [ "$4" -gt 0 ] && [ "$6" -gt 0 ]
ok $? "loads under arming ($3, then $6 times), disarming and switching, then with profiling on: $1 and $4 loaded, $2 and $5 failed their init"
[ "$(splats)" = "$splats0" ]
ok $? "no warning, bug or KASAN report ($(splats) splats, $splats0 before)"
# Switching patches the allocators' own sites (mm/) before the module's
# and unpatches them after: no slab page is ever the module's, and no
# table of it is kept.  KASAN's quarantine holds frees back.
if kasan; then
	! grep -q "^$mod live" $tables && [ ! -s $f ] && ! grep -q ' armed' $sites
	ok $? "nothing is left: no live table of the module, no line, no armed site # SKIP memory: KASAN's quarantine holds frees back"
else
	! grep -q "^$mod " $tables && [ ! -s $f ] && ! grep -q ' armed' $sites &&
		[ "$b1" = 0 ] && [ "$b2" = 0 ]
	ok $? "nothing is left: no table of the module, no line, no armed site, no line holding memory after the churn with switching ($b1) and profiled throughout ($b2)$(grep " module:$mod " /sys/kernel/debug/allocations | head -n 3 | tr '\n' ';')"
fi
