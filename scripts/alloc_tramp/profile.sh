#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where the instructions of the benchmark loops go: boot VARIANT with
# QEMU executing one instruction per block, log every block executed
# while the guest runs the loops once (selftests/bench/profile.sh), and
# print instructions per op by function.
#
# Usage: profile.sh TOP BUILD VARIANT [STATE [OPS]]
#   STATE: boot (default, as booted), off (upstream's vm.mem_profiling=0),
#   on, one, off-again (all sites, one site, all then none: trampolines),
#   switch (the trampolines: every instruction of one switch on and one
#   off, per switch, instead of the loops)
#   OPS: loop iterations (default 300).  The log, about 1 GB per 1000
#   ops, is deleted after the report unless KEEP_TRACE is set.
#   PROFILE_LOOP=forks: OPS fork/exit/wait pairs of the macro workload
#   instead of the loops, every instruction counted (50 is plenty).

set -eu

top=$1
build=$2
variant=$3
state=${4:-boot}
ops=${5:-300}
loop=${PROFILE_LOOP:-loops}
name=profile-$variant-$state
[ "$loop" = forks ] && name=$name-forks
logdir=$build/logs/$name
sock=$logdir/monitor.sock
trace=$logdir/exec.log
here=$top/scripts/alloc_tramp

mkdir -p "$logdir"
rm -f "$trace" "$sock" "$logdir/results.log"
# One CPU, its clock counting instructions (no timer storm while it runs
# slowly), the log off until the monitor turns it on.
mon="-monitor unix:$sock,server=on,wait=off"
QEMU_SMP=1 QEMU_EXTRA="-icount shift=0,sleep=on -singlestep -D $trace $mon" \
RUN_NAME=$name GUEST_ARGS="alloc_bench.n=$ops alloc_bench.state=$state alloc_bench.loop=$loop" \
	"$here/run-guest-tests.sh" "$top" "$build" "$variant" bench/profile.sh \
	> "$logdir/run.tap" 2>&1 &
qemu=$!

monitor() {
	python3 - "$sock" "$1" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall((sys.argv[2] + "\n").encode())
time.sleep(0.5)
s.close()
PY
}
# wait MARKER: until the guest printed it
wait_for() {
	until grep -q "$1" "$logdir/results.log" 2>/dev/null; do
		kill -0 $qemu 2>/dev/null || { echo "profile: guest ended early" >&2; exit 1; }
		sleep 0.2
	done
}
sleep 1
wait_for PROFILE-START
monitor "log exec,nochain"
wait_for PROFILE-END
monitor "log none"
wait $qemu || true
if grep -q '^not ok' "$logdir/run.tap"; then
	cat "$logdir/run.tap" >&2
	exit 1
fi

tr -d '\r' < "$logdir/results.log" | sed -n 's/^# module //p' > "$logdir/modules.txt"
if [ "$state" = switch ]; then
	report="2 all"
elif [ "$loop" = forks ]; then
	report="$ops all"
else
	report=$ops
fi
python3 "$here/profile-report.py" "$build/obj/$variant/vmlinux" \
	"$build/modules/$variant/bench/alloc_bench.ko" "$trace" \
	"$logdir/modules.txt" $report
[ -n "${KEEP_TRACE:-}" ] || rm -f "$trace"
