/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation trampolines: per-call-site allocation tags set by patching
 * the allocator call sites objtool found.  See
 * Documentation/mm/allocation-trampolines.rst.
 */
#ifndef _LINUX_ALLOC_TRAMP_H
#define _LINUX_ALLOC_TRAMP_H

#include <linux/alloc_tramp_types.h>

struct alloc_tag;

extern struct alloc_tramp_site __start_alloc_tramp_sites[];
extern struct alloc_tramp_site __stop_alloc_tramp_sites[];
extern struct alloc_tag __start_alloc_tags[], __stop_alloc_tags[];

static inline void *alloc_tramp_site_addr(const struct alloc_tramp_site *site)
{
	return (void *)&site->addr + site->addr;
}

static inline void *alloc_tramp_site_target(const struct alloc_tramp_site *site)
{
	return (void *)&site->target + site->target;
}

static inline void *alloc_tramp_site_tramp(const struct alloc_tramp_site *site)
{
	return (void *)&site->tramp + site->tramp;
}

static inline struct alloc_tag *alloc_tramp_site_tag(const struct alloc_tramp_site *site)
{
	return (void *)&site->tag + site->tag;
}

#endif /* _LINUX_ALLOC_TRAMP_H */
