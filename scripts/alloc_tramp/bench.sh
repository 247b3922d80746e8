#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make bench": build the baseline, upstream-profiling and trampoline
# kernels from the same source and config base, boot each in QEMU with
# the benchmark module (selftests/bench/run.sh), time the objtool pass,
# and write BENCHMARKS.md and a chart of the overheads.
#
# Usage: bench.sh TOP BUILD
#   BENCH_N (ops per repeat, default 200000), BENCH_REPS (default 11).

set -eu

top=$1
build=$2
here=$top/scripts/alloc_tramp
out=$build/bench
n=${BENCH_N:-200000}
reps=${BENCH_REPS:-11}
mkdir -p "$out"

for v in guest prof tramp; do
	"$here/build-kernel.sh" "$build" "$v"
done

# name variant extra-kernel-args
boot() {
	echo "  BENCH   $1"
	RUN_NAME=bench-$1 GUEST_ARGS="alloc_bench.n=$n alloc_bench.reps=$reps ${3:-}" \
		"$here/run-guest-tests.sh" "$top" "$build" "$2" bench/run.sh |
		tee "$out/$1.tap"
	tr -d '\r' < "$build/logs/bench-$1/results.log" > "$out/$1.log"
}
boot baseline guest
boot upstream prof
boot ours tramp
boot ours-boot tramp alloc_trampolines=on

echo "  BENCH   objtool"
"$here/bench-objtool.sh" "$build" 3 > "$out/objtool.txt"

for v in guest prof tramp; do
	vm=$build/obj/$v/vmlinux
	echo "$v $(size -A "$vm" | awk '$1 == ".text" { print $2 }') $(stat -c %s "$vm")" \
		"$(stat -c %s "$build/obj/$v/arch/x86/boot/bzImage")"
done > "$out/sizes.txt"
for s in alloc_tags .alloc_tramp.text .alloc_tramp.sites .rodata.alloc_tramp; do
	for v in prof tramp; do
		size -A "$build/obj/$v/vmlinux" | awk -v s="$s" -v v="$v" \
			'$1 == s { print v, s, $2 }'
	done
done > "$out/sections.txt"

read -r mode accel < "$build/qemu-accel"
python3 "$here/bench-report.py" "$out" "$mode ($accel)" "$n" "$reps" > "$top/BENCHMARKS.md"
if command -v gnuplot > /dev/null; then
	gnuplot "$out/chart.gp" && cp "$out/chart.png" "$top/BENCHMARKS.png"
fi
echo "  BENCH   wrote BENCHMARKS.md"
