#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of objtool --alloc-trampolines on small objects built with the
# x86-64 kernel's code generation flags.  Prints TAP.
#
# Usage: run.sh OBJTOOL OUTDIR

set -u

objtool=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
export srctree=$here

# The flags of a 6.12 x86-64 kernel object (tinyconfig, -Os, DWARF).
kflags="-std=gnu11 -fno-common -fno-PIE -fno-strict-aliasing -mno-sse
	-mno-mmx -mno-sse2 -mno-avx -mno-80387 -fcf-protection=branch
	-fno-jump-tables -m64 -mpreferred-stack-boundary=3 -mskip-rax-setup
	-mno-red-zone -mcmodel=kernel -fno-asynchronous-unwind-tables -Os
	-fno-stack-protector -fomit-frame-pointer -falign-functions=16
	-g -fno-var-tracking -femit-struct-debug-baseonly"
kdefs=(-D"__always_inline=inline __attribute__((__always_inline__))"
       -D"noinline=__attribute__((__noinline__))")

n=0
fails=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fails=$((fails + 1))
	fi
}
check() { local what=$1; shift; "$@" > /dev/null 2>&1; ok $? "$what"; }

rm -rf "$out"
mkdir -p "$out"
cd "$out"

# The line a "site: NAME" comment of sites.c is on.
line() { grep -n "site: $1 " "$here/sites.c" | cut -d: -f1; }
text() { objcopy -O binary -j .text "$1" "$1.text" && readelf -rW "$1" |
	 sed -n '/\.rela\.text/,/^$/p' | tail -n +2 | awk '{ $2 = ""; print }' > "$1.rela" &&
	 cat "$1.text" "$1.rela"; }
secsize() { printf '%d' "0x$(readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' |
	 awk -v s="$2" '$1 == s { print $5 }')"; }
nrelocs() { readelf -rW "$1" |
	    sed -n "s/^Relocation section '\.rela$2' .* contains \([0-9]*\) .*/\1/p"; }

gcc $kflags "${kdefs[@]}" -c "$here/sites.c" -o sites.o || { echo "not ok 1 - compile"; exit 1; }
cp sites.o orig.o
"$objtool" --alloc-trampolines --alloc-tramp-list --orc --stats sites.o > list 2> err
ok $? "objtool --alloc-trampolines --orc runs"
grep -v -e '^[a-z_]*: ' -e '^nr_' -e '^jl' -e '^short' -e '^long' list > sites
grep -v '^- ' sites > tagged
sed -n 's/^alloc_tramp: \([0-9]*\) sites, \([0-9]*\) tags.*/\1 \2/p' list > counts
read -r nsites ntags < counts

# The dump: addr target file:line func
expect() {
	local name=$1 target=$2 func=$3 count=${4:-1}
	[ "$(grep -c " $target sites.c:$(line "$name") $func\$" tagged)" = "$count" ]
}
check "plain call is a site at its line" expect plain_call __kmalloc_noprof plain_call
check "tail call is a site at its line" expect tail_call __kmalloc_noprof tail_call
check "the tail call is a jmp" grep -q jmp <(objdump -d --no-show-raw-insn orig.o |
	awk '/<tail_call>:/ { f = 1; next } /^$/ { f = 0 } f')
check "call in two inlined wrappers gets the outer caller's line" \
	expect inlined_helper __kmalloc_noprof inlined_helper
check "call in a constant-size wrapper gets the caller's line" \
	expect inlined_const __kmalloc_cache_noprof inlined_helper
check "two sites on one line are two sites" expect same_line __kmalloc_noprof same_line 2
check "a target with stack arguments is a site" \
	expect stack_args __vmalloc_node_range_noprof stack_args
check "page allocator call is a site" expect pages get_free_pages_noprof pages
check "a call of an out-of-line wrapper is a site" bash -c \
	"grep -q ' kcalloc_noprof[.a-z0-9]* sites.c:$(line wrapper_call) wrapper_call\$' sites"
check "the call inside the wrapper is not" bash -c "! grep -q '^kcalloc_noprof' sites"
check "a non-allocator call is not a site" bash -c "! grep -q other_function sites"
check "a call inside an allocator is not a site" bash -c "! grep -q kmemdup_noprof sites"
check "a call written kmalloc_noprof() is listed untagged, not a site" \
	grep -q '^- explicit_noprof+0x[0-9a-f]* __kmalloc_noprof sites.c:[0-9]* explicit_noprof$' \
	sites
check "nine sites, eight tags (one line, one tag)" test "$nsites $ntags" = "9 8"
check "no warnings" test ! -s err

check ".text bytes and relocations unchanged" cmp <(text orig.o) <(text sites.o)
check "16-byte stub per site, 32 for the wrapper" \
	test "$(secsize sites.o .alloc_tramp.text)" = $((16 * nsites + 16))
check "16-byte site entry per site" test "$(secsize sites.o .alloc_tramp.sites)" = $((16 * nsites))
check "40-byte alloc_tag per tag" test "$(secsize sites.o alloc_tags)" = $((40 * ntags))
check "two relocations per stub, four for the wrapper" \
	test "$(nrelocs sites.o .alloc_tramp.text)" = $((2 * nsites + 2))
check "a tail call's stub jumps to the tail body" bash -c \
	"objdump -dr -j .alloc_tramp.text sites.o |
	 grep -q 'R_X86_64_PLT32.*__alloc_tramp_tail___kmalloc_noprof-0x4'"
check "the wrapper stub calls enter and the wrapper, then jumps to leave" bash -c \
	"objdump -dr -j .alloc_tramp.text sites.o | grep -A6 'wrapper_enter-0x4' |
	 grep -A3 'R_X86_64_PLT32.*kcalloc_noprof' | grep -q '__alloc_tramp_wrapper_leave-0x4'"
check "four relocations per site entry" \
	test "$(nrelocs sites.o .alloc_tramp.sites)" = $((4 * nsites))
check "built-in tags: function, file and counters, no module" \
	test "$(nrelocs sites.o alloc_tags)" = $((3 * ntags))
check "built-in tags: 16 bytes of static per-CPU counters each" \
	test "$(secsize sites.o .data..percpu..alloc_tramp)" = $((16 * ntags))
# Offset and addend of each relocation to the counters, in tag order
ctr_relocs() { readelf -rW sites.o | sed -n '/^Relocation section .\.relaalloc_tags/,/^$/p' |
	       awk '$5 == ".data..percpu..alloc_tramp" { print $1, $7 }'; }
ctr_ok() {
	local n=0 off add
	while read -r off add; do
		[ $((16#$off)) = $((40 * n + 32)) ] && [ $((16#$add)) = $((16 * n)) ] || return 1
		n=$((n + 1))
	done < <(ctr_relocs)
	[ $n = "$ntags" ]
}
check "built-in tag i points at counters + 16 * i" ctr_ok
check "stubs are lea tag(%rip),%r11; jmp body" bash -c \
	"objdump -dr -j .alloc_tramp.text sites.o |
	 grep -q 'R_X86_64_PLT32.*__alloc_tramp___vmalloc_node_range_noprof-0x4'"
"$objtool" --dump=orc sites.o > orc 2>&1
check "stubs unwind as a function entry (ORC)" \
	grep -q '^\.alloc_tramp\.text+0:type:call sp:sp+8 ' orc
check "the wrapper stub unwinds one word deeper from its second call" \
	grep -q '^\.alloc_tramp\.text+[0-9a-f]*:type:call sp:sp+16 ' orc
end=$(printf %x $((16 * nsites + 16)))
check "ORC ends after the stubs" grep -q "^\.alloc_tramp\.text+$end:type:(und)" orc

cp orig.o again.o
"$objtool" --alloc-trampolines again.o > /dev/null 2>&1
"$objtool" --alloc-trampolines again.o > again.out 2>&1
check "a second run adds nothing" bash -c "grep -q 'already has' again.out &&
	test \$(readelf -SW again.o | grep -c ' \.alloc_tramp\.sites ') = 1"

# A module object: the targets are undefined, tags carry the module name.
cp orig.o mod.o
"$objtool" --alloc-trampolines --module --alloc-tramp-module=testmod mod.o > /dev/null 2>&1
ok $? "module object"
check "module tags point at the module name, not at counters" \
	test "$(nrelocs mod.o alloc_tags)" = $((3 * ntags))
check "a module has no static counters: the loader allocates them" \
	bash -c "! readelf -SW mod.o | grep -q '\.data\.\.percpu\.\.alloc_tramp'"
check "module name string" \
	grep -q testmod <(objcopy -O binary -j .rodata.alloc_tramp mod.o /dev/stdout)
check "targets and bodies are undefined symbols" bash -c \
	"readelf -sW mod.o | grep -q ' UND __kmalloc_noprof\$' &&
	 readelf -sW mod.o | grep -q ' UND __alloc_tramp___kmalloc_noprof\$'"

# No DWARF: function name, line 0, one warning.
gcc ${kflags/-g /} -g0 "${kdefs[@]}" -c "$here/sites.c" -o nodwarf.o
"$objtool" --alloc-trampolines --alloc-tramp-list nodwarf.o > nodwarf 2> nodwarf.err
check "without DWARF: tags get function and line 0" \
	grep -q ' __kmalloc_noprof nodwarf.o:0 plain_call$' nodwarf
check "without DWARF: one warning" test "$(grep -c 'no DWARF' nodwarf.err)" = 1

# An instruction the runtime could not patch is refused.
gcc -c "$here/bad.S" -o bad.o
cp bad.o bad-orig.o
"$objtool" --alloc-trampolines bad.o > bad.out 2>&1
check "an unexpected relocation is refused" test $? -ne 0
check "with a message" grep -q 'bad_call.*unexpected relocation' bad.out
gcc -c "$here/bad-type.S" -o bad-type.o
"$objtool" --alloc-trampolines bad-type.o > bad-type.out 2>&1
check "a relocation type it does not know is refused" test $? -ne 0
check "with a message" grep -q 'bad_type.*unexpected relocation' bad-type.out
check "and the object is untouched" cmp bad.o bad-orig.o

# A short jump to a nearby wrapper copy is skipped, with a warning.
gcc -c "$here/short.S" -o short.o
"$objtool" --alloc-trampolines --alloc-tramp-list short.o > short.list 2> short.err
check "a short tail jump does not fail the build" test $? -eq 0
check "it is named in a warning" grep -q 'short_tail+0x5: .*short jump to kzalloc_noprof' short.err
check "and only the long call is a site" \
	test "$(grep -v '^- ' short.list)" = "short_tail+0x0 kzalloc_noprof.constprop.0 short.o:0 short_tail"

# Run the stubs: the same source with the small code model, in user space.
gcc ${kflags/-mcmodel=kernel/-mcmodel=small} "${kdefs[@]}" -c "$here/sites.c" -o small.o &&
	"$objtool" --alloc-trampolines small.o > /dev/null 2>&1 &&
	gcc -c -DBEGIN "$here/markers.S" -o begin.o &&
	gcc -c "$here/markers.S" -o end.o &&
	gcc -O2 -c "$here/harness.c" -o harness.o &&
	gcc -no-pie begin.o small.o harness.o end.o -o harness
ok $? "link the user-space harness"
./harness > harness.tap
ok $? "user-space harness runs the stubs"
sed -n 's/^\(not \)\?ok [0-9]* - /# harness: &/p' harness.tap | head -3
check "harness: every check passed" \
	bash -c "! grep -q '^not ok' harness.tap && grep -q '^1\\.\\.2[0-9]' harness.tap"

# Scale: a generated object of N functions, each calling an allocator on
# a line of its own (a site and a tag each).  The pass finds strings, tags
# and source lines through hash tables and walks each CU's DWARF once: 8
# times the sites take about 8 times as long, where one rescan per site
# would take 64 times.
gen() {
	awk -v n="$1" 'BEGIN {
		print "\t.text"
		for (i = 0; i < n; i++)
			printf "\t.globl f%d\n\t.type f%d, @function\nf%d:\n" \
			       "\tcall __kmalloc_noprof\n\tret\n\t.size f%d, .-f%d\n", i, i, i, i, i
		print "\t.section .note.GNU-stack, \"\", @progbits"
	}' > "scale$1.S" && gcc -g -c "scale$1.S" -o "scale$1.o"
}
# scale N: objtool's user time (s) on the N-site object; its stats in scaleN.out
scale() {
	local TIMEFORMAT=%U

	{ time "$objtool" --alloc-trampolines --alloc-tramp-list --stats "scale$1.o" \
		> "scale$1.out" 2>&1; } 2>&1
}
gen 7500 && gen 60000
ok $? "generate objects of 7500 and 60000 sites"
t1=$(scale 7500)
t8=$(scale 60000)
check "60000 sites, 60000 tags, each at the line of its call" bash -c \
	"grep -q '^alloc_tramp: 60000 sites, 60000 tags' scale60000.out &&
	 grep -qx 'f0+0x0 __kmalloc_noprof .*/scale60000.S:5 f0' scale60000.out &&
	 grep -qx 'f59999+0x0 __kmalloc_noprof .*/scale60000.S:359999 f59999' scale60000.out"
echo "# objtool user time: 7500 sites $t1 s, 60000 sites $t8 s"
check "8 times the sites, at most 16 times the time (linear, not quadratic)" \
	awk -v a="$t1" -v b="$t8" 'BEGIN { exit !(b <= 16 * (a > 0.01 ? a : 0.01)) }'

echo "1..$n"
[ $fails -eq 0 ]
