#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Reading allocations.ctx at a hot site: capture at two lines of the test
# module, keep thousands of captures live at one ("hold", kmalloc(64)
# each) and make the other busy ("cycle_any 50" from two loops).  A read
# lists all those held, whole, and no more than were live when it began;
# reads while the loops allocate and free at the busy site list them all
# again, and the site never waits long for the reader: it holds the
# capture lock for a few captures at a time, never while it prints.
# Freeing the held objects frees their captures, none is left in memory,
# and unloading takes the capture state along; the log has no lockup,
# RCU stall or other splat (RCU's stall timeout is cut to 5 s meanwhile).
#
# alloc-tramp-variants: tramp debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..9"

. ../lib/tap.inc

ctx=/sys/kernel/debug/allocations.ctx
ctl=/sys/kernel/debug/alloc_tramp_test
en=/sys/kernel/mm/alloc_trampolines/enabled
stall=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
mod=alloc_tramp_test
out=/tmp/ctx-hot.out
stop=/tmp/ctx-hot.stop
go=/tmp/ctx-hot.go
res=/tmp/ctx-hot.res
held=4000
kasan && held=2000
mark=$(log_mark)
splats() { log_since "$mark" | grep -cE 'WARNING:|BUG:|KASAN:|Oops|INFO: |soft lockup|hard LOCKUP|rcu: .*[Ss]tall'; }
line() { awk -v k="$1" '$1 == k { print $2 }' $mod.lines; }
# block NAME [FILE]: the block of allocations.ctx (or of FILE, a copy of
# it) under the tag of a line of the test module
block() {
	awk -v l="$mod.c:$(line "$1")" '
		/^[^ ]/ { on = ($3 ~ l "$") } on' "${2:-$ctx}"
}
capture() { block "$1" | sed -n 's/^    capture: //p'; }
in_memory() { sed -n 's/^# captures in memory: \([0-9]*\),.*/\1/p' $ctx; }
# stats NAME FILE [FUNC]: "blocks live listed captured whole named sized
# report" of the blocks of line NAME in FILE, a copy of allocations.ctx:
# how many blocks (one), live and captured as the capture line says, the
# captures listed, "whole" if each has its size, pid, tgid, comm, ts and
# a call stack of at least one frame, how many stacks name FUNC in the
# test module, how many have the size of a kmalloc(64), and the last
# field of the report line (func:FUNCTION)
stats() {
	awk -v l="$mod.c:$(line "$1")" -v fn="$3" -v sz="$(kmalloc_size 64)" -v m="$mod" '
		/^[^ ]/ {
			on = ($3 ~ l "$")
			if (on) { blocks++; report = $NF }
			next
		}
		!on { next }
		$1 == "capture:" { live = $NF; captured = $(NF - 2); next }
		$1 == "size:" { listed++; sized += ($2 == sz); named_this = 0; next }
		$1 == "pid:" || $1 == "tgid:" || $1 == "comm:" || $1 == "ts:" { fields++; next }
		$1 == "call" && $2 == "stack:" { stacks++; want = 1; next }
		want { if (/^        [^ ]/) framed++; want = 0 }
		fn != "" && !named_this && index($0, "        " fn "+0x") == 1 &&
			$NF == "[" m "]" { named++; named_this = 1 }
		END {
			whole = listed == stacks && stacks == framed && fields == 4 * listed
			print blocks + 0, live + 0, listed + 0, captured + 0,
				whole ? "whole" : "broken", named + 0, sized + 0, report
		}' "$2"
}
# cs: the uptime in centiseconds, without a fork
cs() { read -r up _ < /proc/uptime; echo "${up%.*}${up#*.}"; }
# hot K: write "cycle_any 50" to the test module until told to stop,
# saying so in $go.K after the first; writes to $res.K how many writes it
# made, how many failed and the longest one took, in centiseconds
hot() {
	local i=0 bad=0 max=0 t0 t1
	while [ ! -e $stop ]; do
		read -r t0 _ < /proc/uptime
		echo "cycle_any 50" > $ctl || bad=$((bad + 1))
		read -r t1 _ < /proc/uptime
		t0=${t0%.*}${t0#*.} t1=${t1%.*}${t1#*.}
		[ $((t1 - t0)) -gt $max ] && max=$((t1 - t0))
		i=$((i + 1))
		[ $i = 1 ] && : > $go.$1
	done
	echo "$i $bad $max" > $res.$1
}

stall0=$(cat $stall 2> /dev/null)
[ -n "$stall0" ] && echo 5 > $stall
rm -f $stop $go.1 $go.2 $res.1 $res.2

insmod alloc_tramp_holder.ko && insmod $mod.ko && echo 1 > $en &&
	printf 'file %s.c line %s enable\nfile %s.c line %s enable\n' \
		$mod "$(line hold)" $mod "$(line cycle)" > $ctx &&
	[ "$(capture hold)" = "on every: 1 captured: 0 live: 0" ] &&
	[ "$(capture cycle)" = "on every: 1 captured: 0 live: 0" ]
ok $? "load the test module, trampolines on, capture at its hold and cycle lines"

echo "hold $held" > $ctl
[ "$(capture hold)" = "on every: 1 captured: $held live: $held" ]
ok $? "hold $held: '$(capture hold)'"

t0=$(cs)
cat $ctx > $out
rc=$?
t1=$(cs)
set -- $(stats hold $out test_hold)
live=$2 listed=$3 named=$6 sized=$7
[ $rc = 0 ] && [ "$1" = 1 ] && [ "$8" = func:test_hold ] && [ "$live" = $held ] &&
	[ "$listed" = $held ] && [ "$5" = whole ]
ok $? "a read lists them: $listed of $live live in $1 block of $8, $5, $(wc -c < $out) bytes in $((t1 - t0)) cs"
[ "$named" = $held ] && [ "$sized" = $held ]
ok $? "$named of the $held stacks name test_hold in $mod, $sized of size $(kmalloc_size 64)"

set -- $(stats cycle $out)
cycled=$4
for k in 1 2; do hot $k & done
i=0
while ! { [ -e $go.1 ] && [ -e $go.2 ]; } && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
bad= reads=0
for r in 1 2 3 4; do
	cat $ctx > $out || bad="$bad read $r failed;"
	set -- $(stats hold $out test_hold)
	[ "$1" = 1 ] && [ "$2" = $held ] && [ "$3" = $held ] && [ "$5" = whole ] ||
		bad="$bad read $r: $3 of $2 held, $5;"
	set -- $(stats cycle $out)
	[ "$1" = 1 ] && [ "$3" -le "$2" ] && [ "$4" -gt "$cycled" ] && [ "$5" = whole ] ||
		bad="$bad read $r: cycle $3 of $2 live, $4 captured, $5;"
	reads=$((reads + 1))
done
touch $stop
wait
read -r made1 bad1 max1 < $res.1
read -r made2 bad2 max2 < $res.2
[ "$max2" -gt "$max1" ] && max1=$max2
[ -z "$bad" ] && [ "$made1" -gt 0 ] && [ "$made2" -gt 0 ] && [ "$bad1" = 0 ] && [ "$bad2" = 0 ]
ok $? "$reads reads while $made1 + $made2 writes of cycle_any 50 ($bad1 + $bad2 failed) go on, the cycle tag captured $4 (from $cycled), list the $held held:${bad:- ok}"
echo "# the longest write at the busy site took $max1 cs"
[ "$max1" -lt 100 ]
ok $? "the site never waited a second for the reader: $max1 cs at most"

echo free > $ctl && cat $ctx > $out
set -- $(stats hold $out)
[ "$2" = 0 ] && [ "$3" = 0 ] && [ "$(capture cycle | sed 's/.* live: //')" = 0 ] && [ "$(in_memory)" = 0 ]
ok $? "freeing them frees their captures: $2 live, $3 listed, $(in_memory) captures in memory"

printf 'file %s.c line %s disable\nfile %s.c line %s disable\n' \
	$mod "$(line hold)" $mod "$(line cycle)" > $ctx &&
	[ "$(capture hold)" = "off every: 1 captured: $held live: 0" ] &&
	capture cycle | grep -q '^off every: 1 captured: [0-9]* live: 0$' &&
	echo 0 > $en && rmmod $mod && rmmod alloc_tramp_holder &&
	! grep -q " module:$mod " $ctx && [ "$(in_memory)" = 0 ]
ok $? "capture off at both lines, trampolines off, unloading takes the capture state along"

[ -n "$stall0" ] && echo "$stall0" > $stall
splats=$(splats)
[ -n "$mark" ] && [ "$splats" = 0 ]
ok $? "no lockup, stall or splat in the log since the test began ($splats)"
rm -f $out $stop $go.1 $go.2 $res.1 $res.2
