#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a kernel with an initramfs in QEMU, console on ttyS0 and test
# results on ttyS1, both written to files in LOGDIR.
#
# Usage: boot-guest.sh BZIMAGE INITRAMFS LOGDIR [KERNEL ARGS...]
#
# KVM is used when a probe boot under it works (cached in
# build/qemu-accel), TCG otherwise: single-threaded TCG, the mode in which
# QEMU runs cross-modifying code correctly (multi-threaded TCG now and
# then lets a vCPU run code another vCPU rewrote and synchronised).  The
# guest has two NUMA nodes of 512 MiB, the CPUs split between them.  Its
# kernel log (log_buf_len=4M) keeps the boot's messages, which tests read,
# through thousands of module loads.  The boot is bounded by
# GUEST_TIMEOUT seconds (default 900).  QEMU_EXTRA adds QEMU options,
# such as "-icount shift=0,sleep=off" (guest time counts instructions);
# QEMU_SMP sets the number of CPUs (default 2); QEMU_ACCEL replaces the
# accelerator options.

set -u

kernel=$1
initrd=$2
logdir=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$here/../.." && pwd)/build
cache=$build/qemu-accel
tcg="tcg -accel tcg,thread=single -cpu max"
smp=${QEMU_SMP:-2}
# One socket a node (a cache shared across nodes is a topology the kernel
# warns about); with one CPU, node 1 has memory only.
numa="-object memory-backend-ram,id=node0,size=512M
	-object memory-backend-ram,id=node1,size=512M"
if [ "$smp" -gt 1 ] && [ $((smp % 2)) = 0 ]; then
	topo="$smp,sockets=2,cores=$((smp / 2)),threads=1"
	numa="$numa -numa node,nodeid=0,memdev=node0
		-numa node,nodeid=1,memdev=node1
		-numa cpu,node-id=0,socket-id=0 -numa cpu,node-id=1,socket-id=1"
else
	topo="$smp,sockets=$smp,cores=1,threads=1"
	numa="$numa -numa node,nodeid=0,memdev=node0,cpus=0-$((smp - 1))
		-numa node,nodeid=1,memdev=node1"
fi

qemu() {
	local accel=$1 t=$2 log=$3
	shift 3
	rm -f "$log/console.log" "$log/results.log"
	timeout --foreground -k 5 "$t" qemu-system-x86_64 $accel ${QEMU_EXTRA:-} \
		-m 1G -smp "$topo" $numa -nodefaults -display none -no-reboot \
		-serial "file:$log/console.log" -serial "file:$log/results.log" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=6 log_buf_len=4M $*" \
		< /dev/null
}

# A cache of an older TCG mode is made again.
if [ -f "$cache" ] && grep -q '^tcg' "$cache" && [ "$(cat "$cache")" != "$tcg" ]; then
	rm -f "$cache"
fi
if [ ! -f "$cache" ]; then
	echo "$tcg" > "$cache"
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
# QEMU_ACCEL replaces it, e.g. "-accel tcg,thread=multi -cpu max".
[ -n "${QEMU_ACCEL:-}" ] && mode=override accel=$QEMU_ACCEL
echo "  QEMU    $mode ($accel), log in ${logdir#$build/../}"
qemu "$accel" "${GUEST_TIMEOUT:-900}" "$logdir" "$@"
rc=$?
if [ $rc -eq 124 ]; then
	echo "boot-guest: timed out after ${GUEST_TIMEOUT:-900}s" \
		>> "$logdir/results.log"
fi
exit 0
