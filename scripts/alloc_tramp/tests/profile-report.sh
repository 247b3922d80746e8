#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host unit test of profile-report.py on a made-up QEMU exec log: each
# instruction goes to the loop whose own instructions surround it, by
# function, and what runs outside the loops is left out.

top=$(cd "$(dirname "$0")/../../.." && pwd)
report=$top/scripts/alloc_tramp/profile-report.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# ok STATUS DESCRIPTION, as the guest tests
. "$top/selftests/lib/tap.inc"

# A "vmlinux" with two functions and a module with the two loops and a
# function of its own, each 16 bytes (nm -n gives the addresses).
cat > "$tmp/vmlinux.c" <<'C'
__attribute__((aligned(16))) void vm_alloc(void) { asm volatile(".skip 16"); }
__attribute__((aligned(16))) void vm_free(void) { asm volatile(".skip 16"); }
C
cat > "$tmp/bench.c" <<'C'
__attribute__((aligned(16))) void kmalloc_loop(void) { asm volatile(".skip 16"); }
__attribute__((aligned(16))) void pages_loop(void) { asm volatile(".skip 16"); }
__attribute__((aligned(16))) void bench_write(void) { asm volatile(".skip 16"); }
C
gcc -c -O0 -o "$tmp/vmlinux" "$tmp/vmlinux.c" && gcc -c -O0 -o "$tmp/bench.ko" "$tmp/bench.c"
ok $? "build the made-up objects"

addr() { nm "$1" | awk -v s="$2" '$3 == s { print $1 }'; }
base=$((0x100000))
va=$(addr "$tmp/vmlinux" vm_alloc)
vf=$(addr "$tmp/vmlinux" vm_free)
kl=$(printf '%x' $((base + 0x$(addr "$tmp/bench.ko" kmalloc_loop))))
pl=$(printf '%x' $((base + 0x$(addr "$tmp/bench.ko" pages_loop))))
bw=$(printf '%x' $((base + 0x$(addr "$tmp/bench.ko" bench_write))))
st=$(printf '%x' $((base + 0x800)))	# no function: a trampoline stub
echo "alloc_bench 4096 0 - Live 0x$(printf '%x' $base) (O)" > "$tmp/modules"

# trace PC...: one QEMU "-d exec" line a PC
trace() { for pc; do echo "Trace 0: 0x7f00 [0000000000000000/$pc/10c0c2b0/ff000201] "; done; }
{
	trace "$va" "$vf"			# before the loops: left out
	for i in 1 2; do
		trace "$kl" "$st" "$va" "$va" "$va" "$kl" "$vf" "$vf" "$kl"
		trace "$bw" "$va"		# between the loops: left out
		trace "$pl" "$va" "$pl" "$vf" "$pl"
	done
	trace "$bw" "$vf" "$vf"			# after them: left out
} > "$tmp/exec.log"

out=$("$report" "$tmp/vmlinux" "$tmp/bench.ko" "$tmp/exec.log" "$tmp/modules" 1)
echo "$out" | sed 's/^/# /'
# Per op over 2 passes of 1 op: kmalloc 9 instructions, 3 of them its own
echo "$out" | grep -qx 'kmalloc: 9.0 instructions per op'
ok $? "kmalloc loop: every instruction between its own"
echo "$out" | sed -n '/^kmalloc/,/^pages/p' | grep -qx '     3.0  vm_alloc'
ok $? "kmalloc loop: by function"
echo "$out" | sed -n '/^kmalloc/,/^pages/p' | grep -qx '     1.0  \[alloc_bench stubs\]'
ok $? "kmalloc loop: the module's trampoline stubs"
echo "$out" | grep -qx 'pages: 5.0 instructions per op'
ok $? "pages loop: the module's other code and what follows left out"
echo "$out" | sed -n '/^pages/,$p' | grep -qx '     1.0  vm_free'
ok $? "pages loop: by function"

# With "all": every instruction, by function, per op: 37 in all, 11 of
# them vm_alloc's, 6 kmalloc_loop's, 2 the stub's
out=$("$report" "$tmp/vmlinux" "$tmp/bench.ko" "$tmp/exec.log" "$tmp/modules" 2 all)
echo "$out" | sed 's/^/# /'
echo "$out" | grep -qx 'all: 18.5 instructions per op'
ok $? "all: every instruction of the log, per op"
echo "$out" | grep -qx '     5.5  vm_alloc' && echo "$out" | grep -qx '     3.0  \[alloc_bench\] kmalloc_loop' &&
	echo "$out" | grep -qx '     1.0  \[alloc_bench stubs\]'
ok $? "all: by function, the module's named"
echo "1..$n"
