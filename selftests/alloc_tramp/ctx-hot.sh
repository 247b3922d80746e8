#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Reading allocations.ctx at a hot site: capture at the dentry allocation
# of vmlinux (__d_alloc) and keep thousands of captures live, a tmpfs file
# each.  A read lists them all, whole, and no more than were live when it
# began; reads while two loops create and remove files at the site list
# them all again, and the site never waits long for the reader: it holds
# the capture lock for a few captures at a time, never while it prints.
# Removing the files frees their captures; the log has no lockup, RCU
# stall or other splat (RCU's stall timeout is cut to 5 s meanwhile).
#
# alloc-tramp-variants: tramp debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..8"

. ../lib/tap.inc

ctx=/sys/kernel/debug/allocations.ctx
en=/sys/kernel/mm/alloc_trampolines/enabled
stall=/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout
dir=/tmp/ctx-hot
out=/tmp/ctx-hot.out
stop=/tmp/ctx-hot.stop
files=4000
kasan && files=2000
splats() { dmesg | grep -cE 'WARNING:|BUG:|KASAN:|Oops|INFO: |soft lockup|hard LOCKUP|rcu: .*[Ss]tall'; }
# stats FILE: "live listed captured whole named" over the __d_alloc blocks:
# live and captured as their headers say, the captures listed, "whole"
# if each has a call stack of at least one frame, how many name d_alloc
stats() {
	awk '
		/^[^ ]/ { on = / func:__d_alloc$/; next }
		!on { next }
		$1 == "capture:" { live += $NF; captured += $(NF - 2) }
		$1 == "size:" { listed++; named_this = 0 }
		$1 == "call" && $2 == "stack:" { stacks++; want = 1; next }
		want { if (/^        [^ ]/) framed++; want = 0 }
		/ (__)?d_alloc\+0x/ && !named_this { named++; named_this = 1 }
		END {
			print live + 0, listed + 0, captured + 0,
				(listed == stacks && stacks == framed) ? "whole" : "broken", named + 0
		}' "$1"
}
# cs: the uptime in centiseconds, without a fork
cs() { read -r up _ < /proc/uptime; echo "${up%.*}${up#*.}"; }
# hot K: create and remove files until told to stop; writes how many it
# made and the longest a creation took, in centiseconds
hot() {
	local i=0 max=0 t0 t1
	while [ ! -e $stop ]; do
		read -r t0 _ < /proc/uptime
		: > $dir/hot$1.$i
		read -r t1 _ < /proc/uptime
		t0=${t0%.*}${t0#*.} t1=${t1%.*}${t1#*.}
		[ $((t1 - t0)) -gt $max ] && max=$((t1 - t0))
		rm -f $dir/hot$1.$i
		i=$((i + 1))
	done
	echo "$i $max" > /tmp/ctx-hot.$1
}

splats0=$(splats)
stall0=$(cat $stall 2> /dev/null)
[ -n "$stall0" ] && echo 5 > $stall

echo 1 > $en && echo "func __d_alloc enable" > $ctx
ok $? "trampolines on, capture at __d_alloc"

mkdir -p $dir && i=0 && while [ $i -lt $files ] && : > $dir/f$i; do i=$((i + 1)); done
[ $i = $files ]
ok $? "$i files made, a live dentry each"

t0=$(cs)
cat $ctx > $out
rc=$?
t1=$(cs)
set -- $(stats $out)
live=$1 listed=$2 captured=$3
[ $rc = 0 ] && [ "$listed" -ge $files ] && [ "$listed" -le "$live" ] && [ "$4" = whole ]
ok $? "a read lists them: $listed of $live live, $4, $(wc -c < $out) bytes in $((t1 - t0)) cs"
[ "$5" -ge $files ]
ok $? "$5 of the call stacks name d_alloc"

rm -f $stop
for k in 1 2; do hot $k & done
bad= reads=0
for r in 1 2 3 4; do
	cat $ctx > $out || bad="$bad read $r failed;"
	set -- $(stats $out)
	[ "$2" -ge $files ] && [ "$2" -le "$1" ] && [ "$4" = whole ] ||
		bad="$bad read $r: $2 of $1 live, $4;"
	reads=$((reads + 1))
done
touch $stop
wait
read -r made1 max1 < /tmp/ctx-hot.1
read -r made2 max2 < /tmp/ctx-hot.2
[ "$max2" -gt "$max1" ] && max1=$max2
[ -z "$bad" ] && [ "$3" -gt "$captured" ]
ok $? "$reads reads while $((made1 + made2)) files come and go list them all:${bad:- ok}"
echo "# the longest creation at the site took $max1 cs"
[ "$max1" -lt 100 ]
ok $? "the site never waited a second for the reader: $max1 cs at most"

rm -rf $dir
i=0
while [ $i -lt 20 ]; do
	cat $ctx > $out
	set -- $(stats $out)
	[ "$1" -lt $((live - files * 9 / 10)) ] && break
	sleep 1
	i=$((i + 1))
done
[ $i -lt 20 ]
ok $? "removing the files frees their captures: $1 live, of $live"

echo "func __d_alloc disable" > $ctx && echo 0 > $en
[ -n "$stall0" ] && echo "$stall0" > $stall
splats=$(($(splats) - splats0))
[ $splats = 0 ]
ok $? "no lockup, stall or splat in the log ($splats)"
rm -f $out $stop /tmp/ctx-hot.1 /tmp/ctx-hot.2
