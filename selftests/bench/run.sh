#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of "make bench" (scripts/alloc_tramp/bench.sh): measure
# the states this kernel offers and print them as "# bench STATE ..."
# lines.  The accuracy workload is accuracy/workload.sh.
#
# Kernel arguments: alloc_bench.n=OPS alloc_bench.reps=REPS.
#
# alloc-tramp-variants: none

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..2"

. ../lib/tap.inc

ops=$(arg alloc_bench.n)
reps=$(arg alloc_bench.reps)
f=/sys/kernel/debug/alloc_bench
en=/sys/kernel/mm/alloc_trampolines/enabled
d=/sys/kernel/debug/alloc_trampolines

# The loops of the module, then the macro workload: 10000 files in a
# tmpfs, 1000 fork/exit pairs
measure() {
	echo "run ${ops:-100000} ${reps:-11}" > $f && sed "s/^/# bench $1 /" $f &&
		alloc_bench_macro /mnt/macro 10000 1000 5 | sed "s/^/# bench $1 /"
}
mkdir -p /mnt/macro && mount -t tmpfs macro /mnt/macro
# No address space randomization: where the stack and the mappings of
# the forking process fall decides how many page tables each fork copies
# and clears, which moved the forks by up to 3% between identical states
echo 0 > /proc/sys/kernel/randomize_va_space
# Warm-up, unmeasured, in every kernel: the first forks and files of a
# boot cost more (caches and slabs to grow), and would weigh on the
# state measured first
alloc_bench_macro /mnt/macro 2000 200 1 > /dev/null

meminfo() {
	grep -E '^(MemFree|Slab|Percpu|SUnreclaim):' /proc/meminfo |
		awk '{ printf "# bench meminfo %s %s\n", $1, $2 }'
	# None where no user needs page_ext (our page tags in page->flags)
	pe=$(dmesg | grep -o 'allocated [0-9]* bytes of page_ext')
	echo "# bench ${pe:-allocated 0 bytes of page_ext}"
}

meminfo
insmod alloc_bench.ko
ok $? "load the benchmark module"
if [ -d /sys/kernel/mm/alloc_trampolines ]; then
	echo "# bench sites $(wc -l < $d/available_sites)"
	measure ours-off
	# One site, not in the loops: what the accounting costs by itself,
	# and first what arming it for fault injection costs the others
	one_site_query > /tmp/one
	if [ -f $d/fail_sites ]; then
		echo "$(cat /tmp/one) fail probability 0" > $d/fail_sites &&
			echo "# bench armed $(grep -vc '^#' $d/fail_sites)"
		measure ours-armed
		: > $d/fail_sites
	fi
	cat /tmp/one > $d/set_site_filter && echo 1 > $en
	echo "# bench one-site $(cat /tmp/one) -> $(cat $en)"
	measure ours-one
	echo > $d/set_site_filter
	measure ours-all
	echo "# bench all-sites $(cat $en)"
	echo 0 > $en
	measure ours-off-again
	echo "# bench parked $(cat $en)"
	echo 0 > $en
	measure ours-off-built
	echo "toggle 5" > $f && sed 's/^/# bench toggle /' $f
	alloc_bench_macro switch /proc/sys/vm/mem_profiling 5 | sed 's/^/# bench ours /'
elif [ -f /proc/sys/vm/mem_profiling ]; then
	measure upstream-on
	alloc_bench_macro switch /proc/sys/vm/mem_profiling 5 | sed 's/^/# bench upstream /'
	echo 0 > /proc/sys/vm/mem_profiling
	measure upstream-off
else
	measure baseline
fi
ok $? "measured"
