/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The types of the wrappers of wrapper-types.c, from a header as in the
 * kernel.  Built with -femit-struct-debug-baseonly, as
 * CONFIG_DEBUG_INFO_REDUCED builds, wrapper-types.c gets no size for a
 * struct defined here, nor for one of a system header: only for one
 * defined in a file of its own base name (wrapper-types.h would be).
 */
#ifndef _ALLOC_TRAMP_TEST_KERNEL_TYPES_H
#define _ALLOC_TRAMP_TEST_KERNEL_TYPES_H

#include <stddef.h>

/* As <linux/types.h> has it, without sparse */
#define __bitwise
typedef unsigned int __bitwise gfp_t;

struct kmem_cache;

enum node_kind {
	NODE_ANY = -1,
	NODE_LOCAL,
};

/*
 * 16 bytes, two registers: the DWARF of wrapper-types.c may not say so,
 * and objtool then counts it as 16 bytes.
 */
struct hdr_pair {
	unsigned long a, b;
};

void *__kmalloc_noprof(size_t size, gfp_t flags);
void *__kmalloc_node_noprof(struct kmem_cache **b, size_t size, gfp_t flags,
			    int node);
void use(void *p);

#endif
