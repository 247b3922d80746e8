#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot one kernel variant with the guest tests meant for it and print one
# TAP line per test (see tap-summary.sh).
#
# Usage: run-guest-tests.sh TOP BUILD VARIANT [TEST...]
#   Without TEST, every selftests/*/*.sh whose "alloc-tramp-variants:"
#   line names VARIANT (or that has no such line) runs. Tests marked
#   "alloc-tramp-expect: fail" must fail.
#   SHOW=1 prints the tests' output as well; GUEST_ARGS adds to the kernel
#   command line; RUN_NAME names the run (logs, results) instead of VARIANT;
#   GUEST_ROOT is a folder copied into the guest's root (modules).

set -eu

top=$1
build=$2
variant=$3
shift 3
obj=$build/obj/$variant
name=${RUN_NAME:-$variant}
sel=$variant
# The defconfig kernel runs our whole suite and its own tests.
[ "$variant" = defconfig ] && sel="tramp defconfig"
logdir=$build/logs/$name
here=$top/scripts/alloc_tramp

cd "$top/selftests"
if [ $# -gt 0 ]; then
	tests="$*"
else
	tests=
	for t in */*.sh; do
		v=$(sed -n 's/^# alloc-tramp-variants: *//p' "$t")
		for s in $sel; do
			case " ${v:-$variant} " in *" $s "*) tests="$tests $t"; break ;; esac
		done
	done
fi
xfail=
for t in $tests; do
	grep -q '^# alloc-tramp-expect: fail' "$t" && xfail="$xfail $t"
done

mkdir -p "$logdir"
"$here/build-modules.sh" "$top" "$build" "$variant" > "$logdir/modules.log" 2>&1 ||
	echo "not ok - $name: build the test modules # see $logdir/modules.log"
# User-space tools of the tree, static, for /bin of the guest
mkdir -p "$build/tools"
gcc -static -O2 -Wall -I"$top/include/uapi" -o "$build/tools/alloc_report" \
	"$top/tools/mm/alloc_report.c" ||
	echo "not ok - $name: build tools/mm/alloc_report"
# and the macro workload of make bench
gcc -static -O2 -Wall -o "$build/tools/alloc_bench_macro" "$top/selftests/bench/macro.c" ||
	echo "not ok - $name: build selftests/bench/macro.c"
gcc -static -O2 -Wall -o "$build/tools/alloc_tramp_migrate" "$top/selftests/alloc_tramp/migrate.c" ||
	echo "not ok - $name: build selftests/alloc_tramp/migrate.c"
gcc -static -O2 -Wall -I"$top/include/uapi" -o "$build/tools/alloc_tramp_allocinfo" \
	"$top/selftests/alloc_tramp/allocinfo_ioctl.c" ||
	echo "not ok - $name: build selftests/alloc_tramp/allocinfo_ioctl.c"
GUEST_TOOLS="$build/tools/alloc_report $build/tools/alloc_bench_macro $build/tools/alloc_tramp_migrate
	$build/tools/alloc_tramp_allocinfo" \
MODULES_DIR=$build/modules/$variant "$here/mkinitramfs.sh" "$top" \
	"$logdir/initramfs.cpio" $tests
"$here/boot-guest.sh" "$obj/arch/x86/boot/bzImage" "$logdir/initramfs.cpio" \
	"$logdir" ${GUEST_ARGS:-} >&2
[ "${SHOW:-0}" = 1 ] && tr -d '\r' < "$logdir/results.log" >&2
"$here/tap-summary.sh" "$logdir/console.log" "$logdir/results.log" \
	"$name" $xfail
