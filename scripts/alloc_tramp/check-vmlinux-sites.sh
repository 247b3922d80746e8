#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check the site table of a CONFIG_ALLOC_TRAMPOLINES vmlinux against its
# code: every direct call or tail call of an allocator in objdump -d is a
# site (or a listed exception), every site is such a call, and the stack
# argument counts of <linux/alloc_tramp_targets.h> match the prototypes.
# Prints TAP.
#
# Usage: check-vmlinux-sites.sh BUILD VARIANT

set -u

build=$1
variant=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
obj=$build/obj/$variant
out=$build/check/sites-$variant
targets_h=$top/include/linux/alloc_tramp_targets.h
exceptions=$here/vmlinux-site-exceptions
mkdir -p "$out"

n=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $variant vmlinux: $2"
	else
		echo "not ok $n - $variant vmlinux: $2"
	fi
}

sed -n 's/^ALLOC_TRAMP_TARGET[A-Z_]*(\(CONFIG_[A-Z_]*, \)\?\([a-z_0-9]*\), \([0-9]*\), \([0-9A-Z]*\), \([A-Z0-9]*\))$/\2 \3 \4 \5/p' \
	"$targets_h" > "$out/targets"

"$here/sites.py" "$obj/vmlinux" > "$out/sites"
ok $? "read the site table"
echo "# $(wc -l < "$out/sites") sites," \
	"$(awk '{ print $4 }' "$out/sites" | sort -u | wc -l) file:line," \
	"$(wc -l < "$out/targets") targets"

# Direct calls and jumps to a target, outside the allocators and bodies.
# Calls of an out-of-line copy of a static inline wrapper (a local
# *_noprof function) are sites too, and a global *_noprof function that
# is not a target is reported as missed.
nm "$obj/vmlinux" | awk '$2 == "T" { print $3 }' | sort > "$out/global-funcs"
awk '{ print $1 }' "$out/targets" | sort | comm -12 - "$out/global-funcs" > "$out/allocators"
objdump -d --no-show-raw-insn "$obj/vmlinux" |
awk -v gf="$out/global-funcs" -v af="$out/allocators" '
	BEGIN {
		while ((getline l < gf) > 0) global[l] = 1
		while ((getline l < af) > 0) alloc[l] = 1
	}
	function wrapper(f, b) {
		b = f; sub(/\..*/, "", b)
		return b ~ /_noprof$/ && !(f in global)
	}
	function hex(h, i, v, c) {
		v = 0
		for (i = 1; i <= length(h); i++)
			v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
		return v
	}
	/^[0-9a-f]+ <.*>:$/ {
		f = $2; gsub(/[<>:]/, "", f); start = hex(substr($1, 9))
		skip = (f in alloc) || wrapper(f) || f ~ /^__alloc_tramp_/
		next
	}
	!skip && $2 ~ /^(call|jmp|j[a-z]+)$/ && $NF ~ /^<[a-z_0-9.]+>$/ {
		d = $NF; gsub(/[<>]/, "", d)
		if (d !~ /^__alloc_tramp_/ && ((d in alloc) || wrapper(d) ||
		    (d ~ /_noprof$/ && (d in global)))) {
			at = $1; sub(/:$/, "", at)
			printf "%s %s %s+0x%x\n", at, d, f, hex(substr(at, 9)) - start
		}
	}' | sort > "$out/calls"
awk '{ print $1, $3 }' "$out/sites" | sort > "$out/site-addrs"

# Calls written with a *_noprof name are not sites (upstream does not tag
# them either): objtool lists them with a "-" on vmlinux.o linked again.
. "$here/vmlinux-o.inc"
relink_vmlinux_o "$out/vmlinux.o"
(cd "$obj" && ./tools/objtool/objtool --alloc-tramp-list --dry-run --link \
	"$out/vmlinux.o" 2>/dev/null) | sed -n 's/^- \([^ ]*\) .*/\1/p' | sort -u > "$out/untagged"
echo "# $(wc -l < "$out/untagged") calls written with a _noprof name are not sites"
sed -i '1i -' "$out/untagged"

awk '{ print $1, $2 }' "$out/calls" | comm -23 - "$out/site-addrs" > "$out/missed-addrs"
awk 'NR == FNR { m[$1] = 1; next } ($1 in m) { print $1, $2, $3 }' \
	"$out/missed-addrs" "$out/calls" |
	awk 'NR == FNR { u[$1] = 1; next } !($3 in u)' "$out/untagged" - > "$out/missed"
{ echo "^-$"; grep -v -e '^#' -e '^$' "$exceptions" 2>/dev/null |
	awk '{ print "^" $1 " " }'; } > "$out/exceptions"
grep -v -f "$out/exceptions" "$out/missed" |
	while read -r addr t fo; do
		echo "$addr $t $fo"
	done > "$out/missed-named"
ok "$(test ! -s "$out/missed-named"; echo $?)" \
	"every call of an allocator is a site ($(wc -l < "$out/calls") calls)"
sed 's/^/#   missed: /' "$out/missed-named" | head -20

awk '{ print $1, $2 }' "$out/calls" | comm -13 - "$out/site-addrs" > "$out/not-calls"
ok "$(test ! -s "$out/not-calls"; echo $?)" "every site is a call of its target"
sed 's/^/#   not a call: /' "$out/not-calls" | head -20

! grep -q ' [^ ]*:0 ' "$out/sites"
ok $? "sites have source lines"
grep -E ' include/linux/(slab|gfp|vmalloc|percpu|mempool)\.h:' "$out/sites" > "$out/in-headers"
echo "# $(wc -l < "$out/in-headers") sites in out-of-line copies of allocator wrappers"

# The pass leaves the code alone: vmlinux.o linked again and run through
# objtool with and without --alloc-trampolines has the same code bytes.
code() {
	readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\]//' |
		awk '$7 ~ /X/ && $1 != ".alloc_tramp.text" { print $1 }' |
		while read -r sec; do
			echo "$sec"
			objcopy -O binary -j "$sec" "$1" /dev/stdout | md5sum
		done
}
(cd "$obj" && cp "$out/vmlinux.o" "$out/plain.o" &&
	${objtool_cmd/--alloc-trampolines/} "$out/plain.o" > /dev/null 2>&1 &&
	$objtool_cmd "$out/vmlinux.o" > /dev/null 2>&1) &&
	code "$out/plain.o" > "$out/code-plain" &&
	code "$out/vmlinux.o" > "$out/code-tramp" &&
	cmp -s "$out/code-plain" "$out/code-tramp"
ok $? "the pass changes no code byte ($(($(wc -l < "$out/code-plain") / 2)) code sections)"
rm -f "$out/vmlinux.o" "$out/plain.o"

# Stack words: arguments past the sixth, from the prototypes in DWARF
# (whatis: ptype spreads a returned struct over many lines).
# (-ex, not -x: gdb stops a command file at a target this config lacks.)
gdb_args=()
# The gfp column too: the index of the one gfp_t argument, B1 for the
# one after DECL_BUCKET_PARAMS() (two arguments with SLAB_BUCKETS), NONE.
buckets=0
grep -q '^CONFIG_SLAB_BUCKETS=y' "$obj/.config" && buckets=1
while read -r name words gfp fails; do
	gdb_args+=(-ex "echo @$name $words $gfp\n" -ex "whatis $name")
done < "$out/targets"
gdb -batch -nx "${gdb_args[@]}" "$obj/vmlinux" 2>&1 | awk -v cf="$out/checked" -v b="$buckets" '
	/^@/ { name = substr($1, 2); want = $2; gfp = $3; next }
	/^type = / && name != "" {
		s = $0; sub(/^[^(]*\(/, "", s); sub(/\)$/, "", s)
		n = split(s, a, ","); got = n > 6 ? n - 6 : 0; checked++
		if (got != want) print name, "has", n, "arguments, header says", want
		at = 0
		for (i = 1; i <= n; i++) {
			gsub(/^ +| +$/, "", a[i])
			if (a[i] == "gfp_t") at = at ? -1 : i
		}
		w = gfp == "NONE" ? 0 : gfp == "B1" ? 2 + b + 0 : gfp + 1
		if (at != w) print name, "has its gfp_t at", at - 1, "header says", gfp
		name = ""
	}
	END { print checked + 0 > cf }' > "$out/bad-words"
ok "$(test "$(cat "$out/checked")" -gt 0 && test ! -s "$out/bad-words"; echo $?)" \
	"stack words and gfp_t argument of every target match its prototype ($(cat "$out/checked") checked)"
sed 's/^/#   /' "$out/bad-words"

# Booted off, start_kernel() only reads alloc_trampolines= before
# mm_core_init(): the one call of the early patching is reached only
# through a jump on a test of it (the compiler moves the call out of line,
# or jumps over it).
objdump -d --no-show-raw-insn "$obj/vmlinux" |
	awk '/^[0-9a-f]+ <start_kernel>:/ { f = 1; next } /^$/ { f = 0 } f' > "$out/start_kernel"
call=$(sed -n 's/^ *\([0-9a-f]*\):[[:space:]]*call .*<__alloc_tramp_init_early>$/\1/p' \
	"$out/start_kernel")
grep -A2 'cmpb *$0x0,.*<alloc_tramp_boot_enabled>' "$out/start_kernel" > "$out/early-test"
ok "$(test "$(echo "$call" | wc -w)" = 1 && test "$(wc -l < "$out/early-test")" = 3 &&
	{ sed -n 2p "$out/early-test" | grep -qE "jne +$call " ||
	  { sed -n 2p "$out/early-test" | grep -qE 'je ' &&
	    sed -n 3p "$out/early-test" | grep -q "^ *$call:"; }; }; echo $?)" \
	"start_kernel() calls the early patching only if alloc_trampolines=on"
sed 's/^/#   /' "$out/early-test"

echo "1..$n"
