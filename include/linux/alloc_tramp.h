/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation trampolines: per-call-site allocation tags set by patching
 * the allocator call sites objtool found.  See
 * Documentation/mm/allocation-trampolines.rst.
 */
#ifndef _LINUX_ALLOC_TRAMP_H
#define _LINUX_ALLOC_TRAMP_H

#include <linux/alloc_tramp_types.h>
#include <linux/types.h>

struct alloc_tag;

#ifdef CONFIG_ALLOC_TRAMPOLINES

int alloc_tramp_set_enabled(bool on);
bool alloc_tramp_is_enabled(void);
bool alloc_tramp_is_site(void *addr);
void alloc_tramp_module_unload(struct alloc_tag *first_tag, bool unused);
/* lib/alloc_tag.c */
bool mem_alloc_profiling_supported(void);

/* arch */
int arch_alloc_tramp_queue(const struct alloc_tramp_site *site, bool on);
void arch_alloc_tramp_finish(void);
void *arch_alloc_tramp_calls(const struct alloc_tramp_site *site);

#else

static inline void alloc_tramp_module_unload(struct alloc_tag *first_tag,
					     bool unused) {}

#endif

extern struct alloc_tramp_site __start_alloc_tramp_sites[];
extern struct alloc_tramp_site __stop_alloc_tramp_sites[];

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
