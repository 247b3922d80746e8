#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel with an initramfs in QEMU, console on ttyS0 and test
# results on ttyS1, both written to files in LOGDIR.
#
# Usage: boot-guest.sh BZIMAGE INITRAMFS LOGDIR [KERNEL ARGS...]
#
# KVM is used when a probe boot under it works (cached in
# build/qemu-accel), TCG otherwise. The boot is bounded by
# GUEST_TIMEOUT seconds (default 900).  QEMU_EXTRA adds QEMU options,
# such as "-icount shift=0,sleep=off" (guest time counts instructions);
# QEMU_SMP sets the number of CPUs (default 2).

set -u

kernel=$1
initrd=$2
logdir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$here/../.." && pwd)/build
cache=$build/qemu-accel

mkdir -p "$logdir"

qemu() {
	local accel=$1 t=$2 log=$3
	shift 3
	rm -f "$log/console.log" "$log/results.log"
	timeout --foreground -k 5 "$t" qemu-system-x86_64 $accel ${QEMU_EXTRA:-} \
		-m 1G -smp "${QEMU_SMP:-2}" -nodefaults -display none -no-reboot \
		-serial "file:$log/console.log" -serial "file:$log/results.log" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=6 $*" \
		< /dev/null
}

if [ ! -f "$cache" ]; then
	echo "tcg -accel tcg -cpu max" > "$cache"
	if [ -w /dev/kvm ]; then
		for cpu in host,-arch-capabilities host max; do
			probe=$logdir/kvm-probe
			mkdir -p "$probe"
			qemu "-accel kvm -cpu $cpu" 20 "$probe" alloc_tramp.probe \
				>/dev/null 2>&1
			if grep -q ALLOC_TRAMP_GUEST_END "$probe/results.log" 2>/dev/null; then
				echo "kvm -accel kvm -cpu $cpu" > "$cache"
				break
			fi
		done
	fi
fi
read -r mode accel < "$cache"
echo "  QEMU    $mode ($accel), log in ${logdir#$build/../}"
qemu "$accel" "${GUEST_TIMEOUT:-900}" "$logdir" "$@"
rc=$?
if [ $rc -eq 124 ]; then
	echo "boot-guest: timed out after ${GUEST_TIMEOUT:-900}s" \
		>> "$logdir/results.log"
fi
exit 0
