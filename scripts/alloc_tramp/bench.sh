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
#   BENCH_PARTS: what to measure again, of "loops accuracy profile objtool
#   sizes defconfig" (default all); the report takes the rest from the
#   last run, and says when each part was measured.  "defconfig" builds
#   x86_64_defconfig three times (ours, without profiling, upstream's):
#   bytes per site and switching on the kernel a user runs.

set -eu

top=$1
build=$2
here=$top/scripts/alloc_tramp
out=$build/bench
n=${BENCH_N:-200000}
reps=${BENCH_REPS:-11}
mkdir -p "$out"
parts=${BENCH_PARTS:-loops accuracy profile objtool sizes defconfig}
want() { [[ " $parts " == *" $1 "* ]]; }

# The baseline only for the loops, their profiles and the sizes
kernels="prof tramp"
want loops || want profile || want sizes && kernels="guest $kernels"
for v in $kernels; do
	"$here/build-kernel.sh" "$build" "$v"
done

# name variant [extra kernel args [test]]; QEMU_EXTRA as for boot-guest.sh
boot() {
	echo "  BENCH   $1"
	RUN_NAME=bench-$1 GUEST_ARGS="alloc_bench.n=$n alloc_bench.reps=$reps ${3:-}" \
		"$here/run-guest-tests.sh" "$top" "$build" "$2" "${4:-bench/run.sh}" |
		tee "$out/$1.tap"
	tr -d '\r' < "$build/logs/bench-$1/results.log" > "$out/$1.log"
}
# Wall time under TCG, then instructions: with -icount shift=0 the
# guest's clock advances 1 ns per instruction, free of the host's noise.
# One CPU: the icount clock counts the instructions of every CPU, and
# with a second one the first state measured in a boot came out up to
# x1.7 slower than with one (ours, off: 595 against 340 ns/op).
export QEMU_SMP=1
want loops && for mode in wall icount; do
	suffix=
	if [ $mode = icount ]; then
		suffix=-icount
		export QEMU_EXTRA="-icount shift=0,sleep=off"
	fi
	boot baseline$suffix guest
	boot upstream$suffix prof
	boot ours$suffix tramp
done
unset QEMU_EXTRA QEMU_SMP
# Accuracy: both on from boot, the same workload (make check tests it)
want accuracy && for p in "upstream prof" "ours tramp alloc_trampolines=on"; do
	set -- $p
	echo "  BENCH   accuracy-$1"
	RUN_NAME=bench-accuracy-$1 GUEST_ARGS="${3:-}" \
		"$here/run-guest-tests.sh" "$top" "$build" "$2" accuracy/workload.sh |
		tee "$out/accuracy-$1.tap"
	tr -d '\r' < "$build/logs/bench-accuracy-$1/results.log" > "$out/accuracy-$1.log"
done

# Where the instructions of one op go, by function
want profile && for p in "baseline guest boot" "upstream prof boot" "ours-all tramp on" "ours-one tramp one" \
	"ours-off-again tramp off-again"; do
	set -- $p
	echo "  BENCH   profile $1"
	"$here/profile.sh" "$top" "$build" "$2" "$3" > "$out/profile-$1.txt"
done

if want objtool; then
	echo "  BENCH   objtool"
	"$here/bench-objtool.sh" "$build" 3 > "$out/objtool.txt"
	# and on the kernel of make check-defconfig, if it was built
	[ -f "$build/obj/defconfig/vmlinux.o" ] &&
		"$here/bench-objtool.sh" "$build" 3 defconfig > "$out/objtool-defconfig.txt"
fi

# Code from vmlinux.o, whose sections are not yet padded as in vmlinux:
# .text, and all executable sections.  The rest from the symbols.
code() {
	local sum=0 s
	for s in $(readelf -SW "$build/obj/$1/vmlinux.o" | sed 's/^ *\[ *[0-9]*\] *//' |
		   awk -v sec="$2" '$7 ~ /X/ && (sec == "" || $1 == sec) { print $5 }'); do
		sum=$((sum + 0x$s))
	done
	echo $sum
}
sym() { nm "$build/obj/$1/vmlinux" | awk -v s="$2" '$3 == s { print $1 }'; }
span() {
	local a b
	a=$(sym "$1" "$2")
	b=$(sym "$1" "$3")
	[ -n "$a" ] && [ -n "$b" ] && echo $((0x$b - 0x$a)) || echo 0
}
want sizes && for v in guest prof tramp; do
	echo "$v $(code $v .text) $(code $v '') $(stat -c %s "$build/obj/$v/vmlinux")" \
		"$(stat -c %s "$build/obj/$v/arch/x86/boot/bzImage")"
done > "$out/sizes.txt"
# The functions of each kernel, and those of KUnit, which our kernel
# carries for its tests only.
want sizes && for v in guest prof tramp; do
	nm -S --defined-only "$build/obj/$v/vmlinux.o" > "$out/nm-$v.txt"
done
want sizes && { nm -S --defined-only "$build"/obj/tramp/lib/kunit/*.o \
	"$build/obj/tramp/lib/alloc_tramp_kunit.o" > "$out/nm-kunit.txt" 2>/dev/null || true; }
# Code and data: every allocated section of vmlinux.o (.bss too)
alloc_bytes() {
	readelf -SW "$build/obj/$1/vmlinux.o" | sed 's/^ *\[ *[0-9]*\] *//' |
		awk '$7 ~ /A/ && $1 !~ /^\.rela/ { print $5 }' |
		{ sum=0; while read -r x; do sum=$((sum + 0x$x)); done; echo $sum; }
}
want sizes && for v in guest prof tramp; do
	echo "$v alloc $(alloc_bytes $v)"
done > "$out/alloc-bytes.txt"
# The same of KUnit and our KUnit suite, which only our kernel carries
want sizes && readelf -SW "$build"/obj/tramp/lib/kunit/*.o \
	"$build/obj/tramp/lib/alloc_tramp_kunit.o" 2>/dev/null |
	sed -n 's/^ *\[ *[0-9]*\] *//p' | awk '$7 ~ /A/ && $1 !~ /^\.rela/ { print $5 }' |
	{ sum=0; while read -r x; do sum=$((sum + 0x$x)); done; echo "kunit alloc $sum"; } \
	>> "$out/alloc-bytes.txt"
want sizes && for v in prof tramp; do
	echo "$v tags $(span $v __start_alloc_tags __stop_alloc_tags)"
	echo "$v stubs $(span $v __alloc_tramp_text_start __alloc_tramp_text_end)"
	echo "$v sites $(span $v __start_alloc_tramp_sites __stop_alloc_tramp_sites)"
done > "$out/sections.txt"

# x86_64_defconfig: what ours adds per site against what upstream adds
# per tag, counted as above, and switching every site against
# upstream's key, on the same config
if want defconfig; then
	for v in defconfig defconfig-base defconfig-prof; do
		"$here/build-kernel.sh" "$build" "$v" > "$out/build-$v.log" 2>&1 || {
			tail -n 20 "$out/build-$v.log"
			exit 1
		}
	done
	for v in defconfig-base defconfig-prof defconfig; do
		echo "$v alloc $(alloc_bytes $v)"
	done > "$out/alloc-bytes-defconfig.txt"
	readelf -SW "$build"/obj/defconfig/lib/kunit/*.o \
		"$build/obj/defconfig/lib/alloc_tramp_kunit.o" 2>/dev/null |
		sed -n 's/^ *\[ *[0-9]*\] *//p' | awk '$7 ~ /A/ && $1 !~ /^\.rela/ { print $5 }' |
		{ sum=0; while read -r x; do sum=$((sum + 0x$x)); done; echo "kunit alloc $sum"; } \
		>> "$out/alloc-bytes-defconfig.txt"
	{
		echo "defconfig-prof tags $(span defconfig-prof __start_alloc_tags __stop_alloc_tags)"
		echo "defconfig sites $(span defconfig __start_alloc_tramp_sites __stop_alloc_tramp_sites)"
	} > "$out/sections-defconfig.txt"
	export QEMU_SMP=1
	boot switch-upstream-defconfig defconfig-prof "" bench/switch.sh
	boot switch-ours-defconfig defconfig "" bench/switch.sh
	unset QEMU_SMP
fi

read -r mode accel < "$build/qemu-accel"
python3 "$here/bench-report.py" "$out" "$mode ($accel)" "$n" "$reps" > "$top/BENCHMARKS.md"
if command -v gnuplot > /dev/null; then
	gnuplot "$out/chart.gp" && cp "$out/chart.png" "$top/BENCHMARKS.png"
fi
echo "  BENCH   wrote BENCHMARKS.md"
