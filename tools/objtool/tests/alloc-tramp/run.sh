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
check "without DWARF: the call of a wrapper copy is still a site" \
	grep -q ' kcalloc_noprof[.a-z0-9]* nodwarf.o:0 wrapper_call$' nodwarf

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
	test "$(grep -v '^- ' short.list)" = \
	     "short_tail+0x0 kzalloc_noprof.constprop.0 short.o:0 short_tail"

# A wrapper stub keeps the old tag on the stack: a wrapper that takes
# arguments on the stack is not a site, with a warning; one that takes
# six words in registers still is.
gcc $kflags "${kdefs[@]}" -c "$here/stack-args.c" -o stack-args.o
"$objtool" --alloc-trampolines --alloc-tramp-list stack-args.o > stack-args.list 2> stack-args.err
check "a wrapper with stack arguments does not fail the build" test $? -eq 0
# refused OBJ FUNC WRAPPER WHY: the warning on the call in FUNC, in OBJ.err
refused() {
	local at="^$1.o: warning: objtool: $2+0x[0-9a-f]*: alloc-tramp: "

	grep -q "${at}call to $3[.a-z0-9]* is not a site: $4\$" "$1.err"
}
check "seven argument words: refused, one on the stack" \
	refused stack-args seven_args kmalloc_seven_noprof "1 stack argument word(s)"
check "a 24-byte struct by value: refused, three words on the stack" \
	refused stack-args triple_arg kmalloc_triple_noprof "3 stack argument word(s)"
check "a 16-byte struct after five words: refused, two words on the stack" \
	refused stack-args pair5_args kmalloc_pair5_noprof "2 stack argument word(s)"
check "three warnings" test "$(grep -c 'alloc-tramp: ' stack-args.err)" = 3
check "six words, and a 16-byte struct after four, are sites" test \
	"$(sed 's/^\([^ ]*\)+0x[0-9a-f]* \([a-z0-9_]*\)[^ ]* .*/\1 \2/' stack-args.list)" = \
	"$(printf '%s\n' 'six_args kmalloc_six_noprof' 'pair4_args kmalloc_pair4_noprof')"
check "only they get wrapper stubs" \
	test "$(secsize stack-args.o .alloc_tramp.text)" = 64 -a \
	     "$(secsize stack-args.o .alloc_tramp.sites)" = 32
objdump -dr -j .alloc_tramp.text stack-args.o > stack-args.stubs 2>&1
check "the stubs call the six-word wrappers, not a refused one" bash -c \
	"grep -q 'PLT32.*kmalloc_six_noprof' stack-args.stubs &&
	 grep -q 'PLT32.*kmalloc_pair4_noprof' stack-args.stubs &&
	 ! grep -q -e kmalloc_seven -e kmalloc_triple -e kmalloc_pair5 stack-args.stubs"

# Wrapper copies whose arguments are counted through typedefs.  The 6.12
# wrappers' parameter types (pointers, size_t, the gfp_t typedef, int, an
# enum) are a site.  With -femit-struct-debug-baseonly
# (CONFIG_DEBUG_INFO_REDUCED), a struct of a header has no size in the
# DWARF: it counts as 16 bytes, as sockptr_t and bpfptr_t, the by-value
# structs of the 6.12 wrappers, whose sites are kept so.  Without it, the
# size is in the DWARF.  A variadic wrapper is refused either way.
gcc $kflags "${kdefs[@]}" -c "$here/wrapper-types.c" -o wrapper-types.o
gcc ${kflags/-femit-struct-debug-baseonly/} "${kdefs[@]}" -c "$here/wrapper-types.c" \
	-o wrapper-full.o
cp wrapper-types.o wrapper-types-orig.o
cp wrapper-full.o wrapper-full-orig.o
"$objtool" --alloc-trampolines --alloc-tramp-list wrapper-types.o > wrapper-types.list \
	2> wrapper-types.err
check "wrappers with structs of unknown size do not fail the build" test $? -eq 0
"$objtool" --alloc-trampolines --alloc-tramp-list wrapper-full.o > wrapper-full.list \
	2> wrapper-full.err
check "nor do those of known size" test $? -eq 0
check "baseonly: the header's struct has no size in the DWARF" \
	bash -c "readelf --debug-dump=info wrapper-types-orig.o |
		 grep -A2 'DW_AT_name *:.* hdr_pair\$' | grep -q DW_AT_declaration"
check "baseonly: no warning for a size it does not know" \
	bash -c "! grep -q 'unknown size' wrapper-types.err"
check "baseonly: a struct of unknown size after five words: refused, counted two words" \
	refused wrapper-types hdr5_args kmalloc_hdr5_noprof "2 stack argument word(s)"
check "baseonly: a 24-byte struct of known size: refused, on the stack" \
	refused wrapper-types local_arg kmalloc_local_noprof "3 stack argument word(s)"
check "baseonly: a variadic wrapper: refused" \
	refused wrapper-types variadic kasprintf_args_noprof "variadic"
check "baseonly: three warnings" test "$(grep -c 'alloc-tramp: ' wrapper-types.err)" = 3
# The sites of a list, as "FUNC WRAPPER"
site_names() { sed 's/^\([^ ]*\)+0x[0-9a-f]* \([a-z0-9_]*\)[^ ]* .*/\1 \2/' "$1"; }
# fd_set is 128 bytes: counted as 16, it is a site there (the limit of
# the rule; no 6.12 wrapper takes a larger struct by value).
check "baseonly: the 6.12 parameter types, and structs of unknown size in and out: sites" \
	test "$(site_names wrapper-types.list)" = "$(printf '%s\n' \
	'node_args kmalloc_node_args_noprof' 'lldiv_arg kmalloc_lldiv_noprof' \
	'fdset_arg kmalloc_fdset_noprof' 'hdr_arg kmalloc_hdr_noprof' \
	'hdr_ret kmalloc_hdr_ret_noprof')"
check "full DWARF: a 128-byte struct through a typedef: refused, on the stack" \
	refused wrapper-full fdset_arg kmalloc_fdset_noprof "16 stack argument word(s)"
check "full DWARF: the header's struct after five words: refused, two words on the stack" \
	refused wrapper-full hdr5_args kmalloc_hdr5_noprof "2 stack argument word(s)"
check "full DWARF: a 24-byte struct: refused, on the stack" \
	refused wrapper-full local_arg kmalloc_local_noprof "3 stack argument word(s)"
check "full DWARF: a variadic wrapper: refused" \
	refused wrapper-full variadic kasprintf_args_noprof "variadic"
check "full DWARF: four warnings" test "$(grep -c 'alloc-tramp: ' wrapper-full.err)" = 4
check "full DWARF: a struct through a const typedef, the header's struct in and out: sites" \
	test "$(site_names wrapper-full.list)" = "$(printf '%s\n' \
	'node_args kmalloc_node_args_noprof' 'lldiv_arg kmalloc_lldiv_noprof' \
	'hdr_arg kmalloc_hdr_noprof' 'hdr_ret kmalloc_hdr_ret_noprof')"

# Without .debug_aranges (clang emits none by default), a wrapper's DWARF
# is still found.
objcopy --remove-section .debug_aranges --remove-section .rela.debug_aranges \
	wrapper-full-orig.o wrapper-noaranges.o
"$objtool" --alloc-tramp-list wrapper-noaranges.o > wrapper-noaranges.list \
	2> wrapper-noaranges.err
check "without .debug_aranges: the same sites and refusals" bash -c \
	"test \"\$(sed 's/^wrapper-noaranges/wrapper-full/' wrapper-noaranges.err)\" = \
	      \"\$(cat wrapper-full.err)\" &&
	 cmp <(cut -d' ' -f1-2 wrapper-noaranges.list) <(cut -d' ' -f1-2 wrapper-full.list)"

# A wrapper copy without DWARF is a site in an object without DWARF
# (short.o, and nodwarf.o above), not in one with DWARF elsewhere.
gcc -c "$here/short.S" -o short-plain.o
ld -r -z noexecstack -o mixed.o short-plain.o wrapper-types-orig.o 2> /dev/null
"$objtool" --alloc-trampolines --alloc-tramp-list --link mixed.o > mixed.list 2> mixed.err
check "a wrapper copy without DWARF, in an object with DWARF, does not fail the build" \
	test $? -eq 0
check "it is refused" refused mixed short_tail kzalloc_noprof "no DWARF for it"
check "the wrappers with DWARF beside it are as in their own object" \
	test "$(site_names mixed.list)" = "$(site_names wrapper-types.list)"

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
