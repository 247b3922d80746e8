#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of scripts/alloc_tramp/profile.sh: put the kernel in the
# state named by alloc_bench.state (boot: as booted; off: upstream's
# vm.mem_profiling=0; on, one, off-again: all sites, one site, all then
# none of the trampolines), then run the benchmark loops once between two
# markers, while the host logs every instruction executed.  With
# "switch", switch all sites on and off again between the markers
# instead; with alloc_bench.loop=forks, run N fork/exit/wait pairs of the
# macro workload (N = alloc_bench.n).
#
# alloc-tramp-variants: none

cd "$(dirname "$0")"
echo "1..1"
. ../lib/tap.inc

en=/sys/kernel/mm/alloc_trampolines/enabled
d=/sys/kernel/debug/alloc_trampolines
state=$(arg alloc_bench.state)
insmod alloc_bench.ko
case $state in
off)	[ -f /proc/sys/vm/mem_profiling ] && echo 0 > /proc/sys/vm/mem_profiling ;;
on)	echo 1 > $en ;;
one)	one_site_query > $d/set_site_filter && echo 1 > $en ;;	# as run.sh
off-again) echo 1 > $en && echo 0 > $en ;;
esac
grep alloc_bench /proc/modules | sed 's/^/# module /'
if [ "$state" = switch ]; then
	# Nothing forks between the markers: the shell waits on a FIFO
	# and uses its builtins, so that the log holds the switch.
	mkfifo /tmp/profile-wait && exec 3<> /tmp/profile-wait
	echo "# PROFILE-START"
	read -t 2 _ <&3
	echo 1 > $en && read -r s < $en && echo 0 > $en
	r=$?
	echo "# PROFILE-END"
	case $s in "1 ("[1-9]*) ;; *) r=1 ;; esac
	echo "# switched on: $s"
elif [ "$(arg alloc_bench.loop)" = forks ]; then
	# As run.sh: no randomization; warm, as the first forks cost more
	echo 0 > /proc/sys/kernel/randomize_va_space
	mkdir -p /tmp/macro && alloc_bench_macro /tmp/macro 1 100 1 > /dev/null
	echo "# PROFILE-START"
	sleep 2
	alloc_bench_macro /tmp/macro 1 "$(arg alloc_bench.n)" 1 > /dev/null
	r=$?
	echo "# PROFILE-END"
else
	echo "# PROFILE-START"
	sleep 2
	echo "run $(arg alloc_bench.n) 1" > /sys/kernel/debug/alloc_bench
	r=$?
	echo "# PROFILE-END"
fi
sleep 2
ok $r "profiled run"
