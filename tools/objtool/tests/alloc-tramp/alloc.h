/* SPDX-License-Identifier: GPL-2.0 */
/* The shape of the 6.12 allocator API: inline *_noprof wrappers. */
#ifndef _ALLOC_TRAMP_TEST_ALLOC_H
#define _ALLOC_TRAMP_TEST_ALLOC_H

#include <stddef.h>

/* run.sh defines __always_inline and noinline as the kernel does. */
#define gfp_t		unsigned int

void *__kmalloc_noprof(size_t size, gfp_t flags);
void *__kmalloc_cache_noprof(void *cache, gfp_t flags, size_t size);
void *kmemdup_noprof(const void *src, size_t len, gfp_t gfp);
void *__vmalloc_node_range_noprof(unsigned long size, unsigned long align,
				  unsigned long start, unsigned long end,
				  gfp_t gfp_mask, unsigned long prot,
				  unsigned long vm_flags, int node,
				  const void *caller);
unsigned long get_free_pages_noprof(gfp_t gfp_mask, unsigned int order);
void use(void *p);
void *other_function(size_t size);

extern void *kmalloc_caches[4];

static __always_inline void *kmalloc_noprof(size_t size, gfp_t flags)
{
	if (__builtin_constant_p(size) && size <= 64)
		return __kmalloc_cache_noprof(kmalloc_caches[size / 16], flags, size);
	return __kmalloc_noprof(size, flags);
}

static __always_inline void *kzalloc_noprof(size_t size, gfp_t flags)
{
	return kmalloc_noprof(size, flags | 0x100);
}

/* The API names, as 6.12 defines them with alloc_hooks() compiled out */
#define kmalloc(...)		kmalloc_noprof(__VA_ARGS__)
#define kzalloc(...)		kzalloc_noprof(__VA_ARGS__)
#define __kmalloc(...)		__kmalloc_noprof(__VA_ARGS__)
#define __vmalloc_node_range(...) __vmalloc_node_range_noprof(__VA_ARGS__)
#define __get_free_pages(...)	get_free_pages_noprof(__VA_ARGS__)

#endif
