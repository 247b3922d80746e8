#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark of the objtool pass on a kernel's vmlinux.o: the time
# objtool takes with and without --alloc-trampolines (median of RUNS),
# next to the whole vmlinux link, and the bytes the pass adds per site.
#
# Usage: bench-objtool.sh BUILD [RUNS [VARIANT]]
#   VARIANT: the kernel, tramp by default (make check-defconfig: defconfig)

set -eu

build=$1
runs=${2:-5}
variant=${3:-tramp}
obj=$build/obj/$variant
ksrc=$build/linux-source-6.12
tmp=$build/bench/objtool-$variant
mkdir -p "$tmp"

[ -f "$obj/vmlinux.o" ] || { echo "bench-objtool: build the $variant kernel first" >&2; exit 1; }

. "$(dirname "$0")/vmlinux-o.inc"
plain_cmd=${objtool_cmd/--alloc-trampolines/}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
now() { date +%s.%N; }

relink_vmlinux_o "$tmp/vmlinux.o"

time_objtool() {
	local i t0 t1
	for i in $(seq "$runs"); do
		cp "$tmp/vmlinux.o" "$tmp/run.o"
		t0=$(now)
		(cd "$obj" && $1 "$tmp/run.o" > /dev/null 2>&1)
		t1=$(now)
		echo "scale=3; ($t1 - $t0) / 1" | bc
	done | median
}

with=$(time_objtool "$objtool_cmd")
without=$(time_objtool "$plain_cmd")
pass=$(echo "scale=3; $with - $without" | bc)

# The whole link: vmlinux.o, modpost, kallsyms passes, final link.
t0=$(now)
rm -f "$obj/vmlinux.o"
make -s -C "$ksrc" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" vmlinux > /dev/null
t1=$(now)
link=$(echo "scale=2; ($t1 - $t0) / 1" | bc)

# The bytes of the sections named $1: alloc_tags has objtool's and those
# that C code defines (compaction_alloc()'s)
hex() { readelf -SW "$obj/vmlinux.o" | sed 's/^ *\[ *[0-9]*\]//' |
	awk -v s="$1" '$1 == s { print $5 }' |
	while read -r h; do printf '%d\n' "0x$h"; done | awk '{ s += $1 } END { print s + 0 }'; }

stubs=$(hex .alloc_tramp.text)
table=$(hex .alloc_tramp.sites)
tags=$(hex alloc_tags)
strs=$(hex .rodata.alloc_tramp)
bodies=$(nm -S "$obj/vmlinux" | awk '$4 ~ /^__alloc_tramp_/ { print $2 }' |
	 while read -r h; do printf '%d\n' "0x$h"; done | awk '{ s += $1 } END { print s + 0 }')
nsites=$((table / 16))
ntags=$((tags / 40))
ncpus=$(nproc)

pc() { echo "scale=1; $1" | bc; }
cat <<EOT
objtool --alloc-trampolines on vmlinux.o ($nsites sites, $ntags tags), median of $runs:
  objtool with the pass     ${with} s
  objtool without it        ${without} s
  the pass                  ${pass} s
  whole vmlinux link        ${link} s
  the pass, of the link     $(echo "scale=1; 100 * $pass / $link" | bc)%

bytes added              total   per site
  stubs (.text)     $(printf %9d "$stubs")  $(printf %9s "$(pc "$stubs / $nsites")")
  site table        $(printf %9d "$table")  $(printf %9s "$(pc "$table / $nsites")")
  tags (alloc_tags) $(printf %9d "$tags")  $(printf %9s "$(pc "$tags / $nsites")")
  tag strings       $(printf %9d "$strs")  $(printf %9s "$(pc "$strs / $nsites")")
  bodies (shared)   $(printf %9d "$bodies")  $(printf %9s "$(pc "$bodies / $nsites")")
  counters, per CPU $(printf %9d $((ntags * 16)))  $(printf %9s "$(pc "$ntags * 16 / $nsites")")
    (static per-CPU data of vmlinux, as upstream's: once per CPU, $ncpus here)
EOT
