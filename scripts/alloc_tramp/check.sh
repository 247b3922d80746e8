#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make check": host unit tests, kernel builds, guest boot tests. Every
# result is one TAP line in build/check/results.tap; the run ends with
# "N passed, N failed" and fails when anything failed.
#
# Usage: check.sh TOP BUILD

set -u

top=$1
build=$2
here=$top/scripts/alloc_tramp
out=$build/check
res=$out/results.tap
mkdir -p "$out"
: > "$res"

emit() { tee -a "$res"; }

# 1. The kernel tree: the host tests of objtool build it from there.
"$here/prepare-tree.sh" "$top" "$build" > "$out/prepare.log" 2>&1 ||
	{ echo "not ok - prepare kernel tree # see $out/prepare.log" | emit; }

# 2. Host unit tests: fast, each prints TAP.
for t in "$here"/tests/*.sh; do
	name=host:${t#$top/}
	log=$out/$(basename "$t").log
	if "$t" > "$log" 2>&1; then rc=0; else rc=$?; fi
	grep -E '^(not )?ok ' "$log" | sed "s|^\(\(not \)\?ok\) [0-9]* *-\? *|\1 - $name: |" | emit
	grep -q '^ok ' "$log" || echo "not ok - $name: no ok line" | emit
	[ $rc -eq 0 ] || echo "not ok - $name: exit status $rc (log: $log)" | emit
done

# 3. Kernel builds, then checks of the image and guest tests on each
# kernel that built.
for v in guest prof tramp debug; do
	log=$out/build-$v.log
	if "$here/build-kernel.sh" "$build" "$v" > "$log" 2>&1; then
		echo "ok - build $v kernel" | emit
		[ "$v" = tramp ] &&
			"$here/check-vmlinux-sites.sh" "$build" "$v" 2>&1 |
			grep -E '^(not )?ok |^#' | emit
		if [ "$v" = debug ]; then
			# KASAN and lockdep under TCG: fewer rounds, more time
			GUEST_TIMEOUT=2400 GUEST_ARGS="alloc_tramp.toggles=100 alloc_tramp.fuzz_writes=40" \
			"$here/run-guest-tests.sh" "$top" "$build" "$v" 2>&1 | emit
		else
			"$here/run-guest-tests.sh" "$top" "$build" "$v" 2>&1 | emit
		fi
		[ "$v" = tramp ] &&
			RUN_NAME=tramp-boot GUEST_ARGS=alloc_trampolines=on \
			"$here/run-guest-tests.sh" "$top" "$build" "$v" \
			alloc_tramp/boot-on.sh 2>&1 | emit
		# Call depth tracking needs an Intel model: TCG emulates one.
		case $v in tramp) stuff="alloc_tramp/toggle.sh" ;; *) stuff= ;; esac
		[ "$v" = tramp ] || [ "$v" = debug ] &&
			RUN_NAME=$v-stuff QEMU_EXTRA="-cpu Skylake-Client-v4" \
			GUEST_ARGS="retbleed=stuff alloc_tramp.toggles=200" GUEST_TIMEOUT=1800 \
			"$here/run-guest-tests.sh" "$top" "$build" "$v" \
			alloc_tramp/calldepth.sh $stuff 2>&1 | emit
		[ "$v" = tramp ] &&
			RUN_NAME=tramp-never GUEST_ARGS=sysctl.vm.mem_profiling=never \
			"$here/run-guest-tests.sh" "$top" "$build" "$v" \
			alloc_tramp/never.sh 2>&1 | emit
	else
		echo "not ok - build $v kernel # see $log" | emit
		tail -n 20 "$log"
	fi
done

pass=$(grep -c '^ok ' "$res")
fail=$(grep -c '^not ok ' "$res")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
