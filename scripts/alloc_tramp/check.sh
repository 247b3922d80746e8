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

# 2b. make export: the series applies to a pristine tree with git am and
# gives the prepared tree (a minute or two: git add of the whole tree).
"$here/test-export.sh" "$top" "$build" > "$out/export.log" 2>&1
grep -E '^(not )?ok ' "$out/export.log" |
	sed "s|^\(\(not \)\?ok\) [0-9]* *-\? *|\1 - export: |" | emit
grep -q '^ok ' "$out/export.log" || echo "not ok - export: no ok line" | emit

# 3. Kernel builds, then checks of the image and guest tests on each
# kernel that built.
# The kernels with profiling: upstream's, ours and our debug kernel (the
# baseline without profiling is for make bench).  Each builds while the
# guests of the one before run: a TCG guest runs on one host thread.
variants="prof tramp debug"
rm -f "$out"/build-*.rc
# The builds yield to the guests, whose tests have time limits.
(
	for v in $variants; do
		nice -n 10 "$here/build-kernel.sh" "$build" "$v" > "$out/build-$v.log" 2>&1
		echo $? > "$out/build-$v.rc"
	done
) &
builder=$!
export GUEST_TIMEOUT=${GUEST_TIMEOUT:-1500}
# The slow boots (KASAN, call thunks) give a test 1200 s, not 600
slow=alloc_tramp.test_timeout=1200
for v in $variants; do
	log=$out/build-$v.log
	while [ ! -f "$out/build-$v.rc" ]; do sleep 5; done
	if [ "$(cat "$out/build-$v.rc")" = 0 ]; then
		echo "ok - build $v kernel" | emit
		# No objtool or modpost warning; MODVERSIONS gave the exported
		# bodies their CRCs (from their prototypes).
		if [ "$v" = tramp ] || [ "$v" = debug ]; then
			warn=$(grep -E 'warning: objtool:|^WARNING: modpost|version generation failed' "$log" | head -n 3)
			crcs=$(awk '$2 ~ /^__alloc_tramp_/ { n++; if ($1 == "0x00000000") z++ }
				END { print n + 0, z + 0 }' "$build/obj/$v/Module.symvers")
			[ -z "$warn" ] && [ "${crcs% *}" -gt 10 ] && [ "${crcs#* }" = 0 ] &&
				echo "ok - $v build: no objtool or modpost warning, ${crcs% *} bodies with CRCs" | emit ||
				echo "not ok - $v build: warnings '$warn', bodies and zero CRCs: $crcs" | emit
		fi
		[ "$v" = tramp ] &&
			"$here/check-vmlinux-sites.sh" "$build" "$v" 2>&1 |
			grep -E '^(not )?ok |^#' | emit
		if [ "$v" = debug ]; then
			# KASAN and lockdep under TCG: fewer rounds, more time
			GUEST_TIMEOUT=2400 \
			GUEST_ARGS="alloc_tramp.toggles=100 alloc_tramp.fuzz_writes=40 $slow" \
			"$here/run-guest-tests.sh" "$top" "$build" "$v" 2>&1 | emit
		else
			# 200 switches under load, as in the other boots: 1000,
			# and once 500, took over the 600 s a guest test has
			# while the next kernel built beside it.
			GUEST_ARGS="alloc_tramp.toggles=200" \
			"$here/run-guest-tests.sh" "$top" "$build" "$v" 2>&1 | emit
		fi
		[ "$v" = tramp ] &&
			RUN_NAME=tramp-boot GUEST_ARGS="alloc_trampolines=on slab_debug=U,kmalloc-128" \
			"$here/run-guest-tests.sh" "$top" "$build" "$v" \
			alloc_tramp/early.sh alloc_tramp/boot-on.sh report/show.sh \
			alloc_tramp/caller.sh 2>&1 | emit
		# Accuracy: the same workload on upstream's profiling and on
		# ours, both on from boot, compared by file:line.
		[ "$v" = prof ] &&
			RUN_NAME=prof-accuracy "$here/run-guest-tests.sh" "$top" "$build" "$v" \
			accuracy/workload.sh 2>&1 | emit
		if [ "$v" = tramp ]; then
			RUN_NAME=tramp-accuracy GUEST_ARGS=alloc_trampolines=on \
			"$here/run-guest-tests.sh" "$top" "$build" "$v" accuracy/workload.sh 2>&1 | emit
			"$here/accuracy.py" "$build/logs/prof-accuracy/results.log" \
				"$build/logs/tramp-accuracy/results.log" > "$out/accuracy.tap" 2>&1
			grep -E '^(not )?ok ' "$out/accuracy.tap" |
				sed "s|^\(\(not \)\?ok\) [0-9]* *-\? *|\1 - accuracy: |" | emit
			grep -q '^ok ' "$out/accuracy.tap" || echo "not ok - accuracy: no ok line" | emit
		fi
		# Call depth tracking needs an Intel model: TCG emulates one.
		# The tramp kernel switches on at run time, after the call
		# thunks were set up; the debug kernel (lockdep, KASAN, the
		# call thunks' counters) is booted on: its sites are patched
		# before them.  The fail entries of fault injection account
		# for the calls of armed sites as the bodies do.  Beside a
		# build, the storm's 200 switches took 206 s here (90 s
		# without call thunks).
		case $v in
		tramp) stuff="alloc_tramp/calldepth.sh alloc_tramp/toggle.sh alloc_tramp/fail.sh"
		   boot= ;;
		*) stuff="alloc_tramp/early.sh alloc_tramp/boot-on.sh alloc_tramp/calldepth.sh"
		   boot=alloc_trampolines=on ;;
		esac
		[ "$v" = tramp ] || [ "$v" = debug ] &&
			RUN_NAME=$v-stuff QEMU_EXTRA="-cpu Skylake-Client-v4" \
			GUEST_ARGS="retbleed=stuff alloc_tramp.toggles=200 $slow $boot" \
			GUEST_TIMEOUT=1800 \
			"$here/run-guest-tests.sh" "$top" "$build" "$v" \
			$stuff 2>&1 | emit
		[ "$v" = tramp ] &&
			RUN_NAME=tramp-never GUEST_ARGS=sysctl.vm.mem_profiling=never \
			"$here/run-guest-tests.sh" "$top" "$build" "$v" \
			alloc_tramp/never.sh 2>&1 | emit
	else
		echo "not ok - build $v kernel # see $log" | emit
		tail -n 20 "$log"
	fi
done
wait $builder

pass=$(grep -c '^ok ' "$res")
fail=$(grep -c '^not ok ' "$res")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
