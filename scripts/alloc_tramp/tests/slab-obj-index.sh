#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the arithmetic of slab_obj_index() (mm/slub.c, with
# CONFIG_ALLOC_TRAMPOLINES): with m = U64_MAX / size + 1, the high word
# of offset * m is offset / size, for every object size a slab can have
# (every size from 8, a word, to 4 KiB, then multiples of 8 to 64 KiB)
# and every offset in a slab of 4 MiB: an object's start plus less than
# its size (the red_left_pad of SLUB's debugging).  The debug kernel
# checks the function itself against obj_to_index() on every tagged
# allocation and free.

top=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/selftests/lib/tap.inc"

cat > "$tmp/idx.c" <<'C'
#include <stdint.h>
#include <stdio.h>

static unsigned int idx(uint64_t off, uint64_t m)
{
	return (uint64_t)(((unsigned __int128)off * m) >> 64);
}

int main(void)
{
	unsigned long checked = 0, wrong = 0;
	uint64_t size;

	for (size = 8; size <= 65536; size += size < 4096 ? 1 : 8) {
		uint64_t m = UINT64_MAX / size + 1;
		uint64_t pads[] = { 0, 1, 8, size / 2, size - 1 };
		uint64_t k, p;

		for (k = 0; k * size < (4 << 20); k++)
			for (p = 0; p < 5; p++) {
				if (pads[p] >= size)
					continue;
				checked++;
				if (idx(k * size + pads[p], m) != k) {
					if (!wrong++)
						printf("# size %llu offset %llu: %u, not %llu\n",
						       (unsigned long long)size,
						       (unsigned long long)(k * size + pads[p]),
						       idx(k * size + pads[p], m),
						       (unsigned long long)k);
				}
			}
	}
	printf("# %lu offsets checked, %lu wrong\n", checked, wrong);
	return wrong != 0 || checked < 1000000;
}
C
echo "TAP version 13"
echo "1..2"
gcc -O2 -o "$tmp/idx" "$tmp/idx.c"
ok $? "the check builds"
"$tmp/idx"
ok $? "the high word of offset * (U64_MAX / size + 1) is the index"
