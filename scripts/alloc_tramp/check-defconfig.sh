#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check-defconfig: the kernel a user runs.  Build x86_64_defconfig
# with the trampolines, DWARF and real modules, boot it and run our guest
# suite on it, then every module it built (loaded, switched, filtered,
# unloaded, reloaded), once more on an Intel model with call depth
# tracking.  Prints the sites of vmlinux and of the modules, the time of
# the objtool pass and of switching every site, and "N passed, N failed".
#
# Usage: check-defconfig.sh TOP BUILD

set -u

top=$1
build=$2
S=$top/scripts/alloc_tramp
obj=$build/obj/defconfig
out=$build/check-defconfig
mkdir -p "$out"

t0=$(date +%s)
"$S/build-kernel.sh" "$build" defconfig > "$out/build.log" 2>&1 || {
	tail -n 30 "$out/build.log"
	echo "check-defconfig: the build failed, see $out/build.log"
	echo "0 passed, 1 failed"
	exit 1
}
echo "  built in $(($(date +%s) - t0)) s: $(grep MODULES "$out/build.log")"

# The objtool pass on vmlinux.o, once with it and once without.
. "$S/vmlinux-o.inc"
relink_vmlinux_o "$out/vmlinux.o"
now() { date +%s.%N; }
for cmd in "$objtool_cmd" "${objtool_cmd/--alloc-trampolines/}"; do
	cp "$out/vmlinux.o" "$out/run.o"
	a=$(now)
	(cd "$obj" && $cmd "$out/run.o" > /dev/null 2>&1)
	echo "scale=1; ($(now) - $a) / 1" | bc
done > "$out/objtool.times"
rm -f "$out/run.o" "$out/vmlinux.o"
echo "  objtool on vmlinux.o: $(sed -n 1p "$out/objtool.times") s with the pass," \
	"$(sed -n 2p "$out/objtool.times") s without"

# Four times the sites of the tramp kernel: fewer switches under load,
# more time.
export GUEST_ROOT="$obj/modroot" GUEST_TIMEOUT=${GUEST_TIMEOUT:-3000}
RUN_NAME=defconfig GUEST_ARGS="alloc_tramp.toggles=200 alloc_tramp.test_timeout=1200" \
	"$S/run-guest-tests.sh" "$top" "$build" defconfig |
	tee "$out/results"
RUN_NAME=defconfig-stuff QEMU_EXTRA="-cpu Skylake-Client-v4" \
	GUEST_ARGS="retbleed=stuff alloc_tramp.toggles=200" "$S/run-guest-tests.sh" "$top" "$build" \
	defconfig alloc_tramp/calldepth.sh defconfig/modules.sh | tee -a "$out/results"
# Booted on, with call depth tracking: the sites of vmlinux are patched
# before the first allocation and before the call thunks.
RUN_NAME=defconfig-boot QEMU_EXTRA="-cpu Skylake-Client-v4" \
	GUEST_ARGS="retbleed=stuff alloc_trampolines=on" "$S/run-guest-tests.sh" "$top" "$build" \
	defconfig alloc_tramp/early.sh alloc_tramp/boot-on.sh alloc_tramp/calldepth.sh |
	tee -a "$out/results"
for l in defconfig defconfig-stuff; do
	grep -h '^# defconfig:' "$build/logs/$l/results.log" | tr -d '\r' | sed "s/^# defconfig:/  $l:/"
done
passed=$(grep -c '^ok' "$out/results")
failed=$(grep -c '^not ok' "$out/results")
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
