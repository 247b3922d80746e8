#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Allocation context capture: capturing at one site records the pid,
# tgid, comm and size of the allocations a test process makes there and
# a stack that names the test module's function; disabling keeps what
# was captured; freeing the allocations frees their captures, also over
# 10000 alloc/free cycles; "every N" samples; bad lines are refused.
#
# alloc-tramp-variants: tramp debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..15"

. ../lib/tap.inc

ctx=/sys/kernel/debug/allocations.ctx
ctl=/sys/kernel/debug/alloc_tramp_test
mod=alloc_tramp_test
line() { awk -v k="$1" '$1 == k { print $2 }' $mod.lines; }
# The block of allocations.ctx under the tag of a line of the test module
block() {
	awk -v l="$mod.c:$(line "$1")" '
		/^[^ ]/ { on = ($3 ~ l "$") } on' $ctx
}
field() { block "$1" | awk -v k="$2:" '$1 == k { print $2 }'; }
capture() { block "$1" | sed -n 's/^    capture: //p'; }
in_memory() { sed -n 's/^# captures in memory: \([0-9]*\),.*/\1/p' $ctx; }

insmod alloc_tramp_holder.ko && insmod $mod.ko && echo 1 > /sys/kernel/mm/alloc_trampolines/enabled
ok $? "load the test module, trampolines on"

printf 'file %s.c line %s enable\nfile %s.c line %s enable\n' \
	$mod "$(line kmalloc)" $mod "$(line pages)" > $ctx
ok $? "enable capture at two lines in one write"

sh -c 'echo $$ > /tmp/ctx-pid; echo alloc > '$ctl
pid=$(cat /tmp/ctx-pid)
[ "$(capture kmalloc)" = "on every: 1 captured: 10 live: 10" ]
ok $? "10 kmallocs captured: '$(capture kmalloc)'"
[ "$(field kmalloc pid | sort -u)" = "$pid" ] && [ "$(field kmalloc tgid | sort -u)" = "$pid" ] &&
	[ "$(field kmalloc comm | sort -u)" = sh ]
ok $? "by the test process: pid $pid, tgid, comm sh"
[ "$(field kmalloc size | sort -u)" = "$(kmalloc_size 128)" ] && [ "$(field pages size | sort -u)" = 16384 ] &&
	[ "$(field pages size | wc -l)" = 3 ]
ok $? "sizes: kmalloc $(kmalloc_size 128), 3 order-2 page blocks of 16384"
[ "$(block kmalloc | grep -c "test_alloc+0x[0-9a-f]*/0x[0-9a-f]* \[$mod\]")" = 10 ]
ok $? "each stack names test_alloc in $mod"
[ "$(field kmalloc ts | sort -u | wc -l)" -ge 2 ]
ok $? "timestamps: $(field kmalloc ts | head -n 1) ..."
[ "$(block mempool_alloc | wc -l)" = 0 ]
ok $? "sites not asked for are not captured"

echo "file $mod.c line $(line kmalloc) disable" > $ctx
[ "$(capture kmalloc)" = "off every: 1 captured: 10 live: 10" ] &&
	[ "$(field kmalloc size | wc -l)" = 10 ]
ok $? "disable keeps the captures: '$(capture kmalloc)'"

echo free > $ctl
[ "$(capture kmalloc)" = "off every: 1 captured: 10 live: 0" ] &&
	[ "$(field kmalloc size | wc -l)" = 0 ] && [ "$(capture pages)" = "on every: 1 captured: 3 live: 0" ]
ok $? "freeing frees the captures: '$(capture kmalloc)', '$(capture pages)'"

echo "file $mod.c line $(line cycle) enable" > $ctx && echo "cycle 10000" > $ctl
[ "$(capture cycle)" = "on every: 1 captured: 10000 live: 0" ] && [ "$(in_memory)" = 0 ]
ok $? "10000 alloc/free cycles: '$(capture cycle)', $(in_memory) captures in memory"

echo "file $mod.c line $(line cycle) enable every 100" > $ctx && echo "cycle 1000" > $ctl
[ "$(capture cycle)" = "on every: 100 captured: 10010 live: 0" ]
ok $? "every 100: 10 more of 1000: '$(capture cycle)'"

before=$(cat $ctx)
fails=0
for q in "file $mod.c line $(line kmalloc)" "line 5- enable" "enable disable" \
	"!test_alloc enable" "func no_such_function_xyz enable" "enable every 0"; do
	echo "$q" > $ctx 2> /dev/null && fails=$((fails + 1))
done
[ "$fails" = 0 ] && [ "$(cat $ctx)" = "$before" ]
ok $? "bad lines are refused ($fails taken) and change nothing"

echo "module $mod disable" > $ctx && echo 0 > /sys/kernel/mm/alloc_trampolines/enabled
rmmod $mod && insmod $mod.ko && echo alloc > $ctl && echo free > $ctl
ok $? "unload with capture state, reload, allocate"
[ "$(block kmalloc | wc -l)" = 0 ] && [ "$(in_memory)" = 0 ]
ok $? "the unloaded module's capture state went with it"
rmmod $mod && rmmod alloc_tramp_holder
