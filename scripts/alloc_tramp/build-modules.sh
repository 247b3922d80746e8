#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the test modules of the guest tests, selftests/<suite>/modules/,
# against a built kernel variant.  6.12 writes external module output into
# M=, so the sources are copied to build/modules-src/<variant>/<suite>/;
# the .ko files, and a <module>.lines file listing the "line: NAME"
# markers of each source, go to build/modules/<variant>/<suite>/, which
# the initramfs copies next to the suite's tests.
#
# Usage: build-modules.sh TOP BUILD VARIANT

set -eu

top=$1
build=$2
variant=$3
ksrc=$build/linux-source-6.12
obj=$build/obj/$variant

for dir in "$top"/selftests/*/modules; do
	[ -f "$dir/Kbuild" ] || continue
	suite=$(basename "$(dirname "$dir")")
	src=$build/modules-src/$variant/$suite
	dst=$build/modules/$variant/$suite
	mkdir -p "$src" "$dst"
	cp -a "$dir/." "$src/"
	make -s -C "$ksrc" O="$obj" CC="ccache gcc" M="$src" modules
	cp "$src"/*.ko "$dst/"
	for c in "$src"/*.c; do
		grep -n 'line: [a-z_]* ' "$c" |
			sed 's/^\([0-9]*\):.*line: \([a-z_]*\) .*/\2 \1/' \
			> "$dst/$(basename "$c" .c).lines"
	done
done

# Two allocations of start_kernel() before the initcalls, for
# alloc_tramp/early.sh: "FUNCTION FILE:LINE" of the call in this source.
early_line() {
	local l

	l=$(grep -nF "$3" "$ksrc/$2" | head -n 1 | cut -d: -f1)
	[ -n "$l" ] && echo "$1 $2:$l"
}
mkdir -p "$build/modules/$variant/alloc_tramp"
{
	early_line vmap_init_nodes mm/vmalloc.c 'vn = kmalloc_array(n, sizeof(*vn), GFP_NOWAIT | __GFP_NOWARN);'
	early_line alloc_large_system_hash mm/mm_init.c 'table = vmalloc_huge(size, gfp_flags);'
} > "$build/modules/$variant/alloc_tramp/early.lines"
