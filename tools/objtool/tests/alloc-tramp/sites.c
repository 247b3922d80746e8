// SPDX-License-Identifier: GPL-2.0
/*
 * Call sites for the objtool allocation-trampoline test.  A comment
 * "site: NAME" marks the line each site must be attributed to; run.sh
 * reads them.
 */
#include "alloc.h"

void *kmalloc_caches[4];

void plain_call(size_t n)
{
	void *p = __kmalloc(n, 1);	/* site: plain_call */

	use(p);
}

void *tail_call(size_t n)
{
	return __kmalloc(n, 2);			/* site: tail_call */
}

void inlined_helper(size_t n)
{
	use(kzalloc(n, 3));			/* site: inlined_helper */
	use(kmalloc(32, 4));			/* site: inlined_const */
}

void same_line(size_t n)
{
	use(__kmalloc(n, 5)); use(__kmalloc(n, 6));	/* site: same_line */
}

void stack_args(unsigned long n)
{
	use(__vmalloc_node_range(n, 1, 2, 3, 4, 5, 6, 7, (void *)8)); /* site: stack_args */
}

void not_a_site(size_t n)
{
	use(other_function(n));
}

/* An allocator calling another: not a site. */
void *kmemdup_noprof(const void *src, size_t len, gfp_t gfp)
{
	void *p = __kmalloc_noprof(len, gfp);

	if (p)
		__builtin_memcpy(p, src, len);
	return p;
}

/* An out-of-line copy of a static inline wrapper, as gcc -Os makes them. */
static noinline void *kcalloc_noprof(size_t n, size_t size)
{
	return __kmalloc_noprof(n * size, 7);
}

#define kcalloc(...)	kcalloc_noprof(__VA_ARGS__)

void wrapper_call(size_t n)
{
	use(kcalloc(n, 8));			/* site: wrapper_call */
}

/* Written with the _noprof name: its caller's tag, not a site. */
void *explicit_noprof(size_t n)
{
	return kmalloc_noprof(n, 8);
}

unsigned long pages(void)
{
	return __get_free_pages(0, 2) + 1;	/* site: pages */
}
