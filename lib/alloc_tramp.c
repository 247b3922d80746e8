// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation trampolines: the site table and tags objtool emitted.
 */
#include <linux/alloc_tag.h>
#include <linux/alloc_tramp.h>
#include <linux/init.h>
#include <linux/percpu.h>
#include <linux/printk.h>

/* objtool writes struct alloc_tag from these numbers. */
static_assert(sizeof(struct alloc_tag) == ALLOC_TRAMP_TAG_SIZE);
static_assert(offsetof(struct alloc_tag, ct.lineno) == ALLOC_TRAMP_TAG_LINENO);
static_assert(offsetof(struct alloc_tag, ct.modname) == ALLOC_TRAMP_TAG_MODNAME);
static_assert(offsetof(struct alloc_tag, ct.function) == ALLOC_TRAMP_TAG_FUNCTION);
static_assert(offsetof(struct alloc_tag, ct.filename) == ALLOC_TRAMP_TAG_FILENAME);

/* objtool cannot make per-CPU data: give the tags their counters. */
static int __init alloc_tramp_init(void)
{
	size_t nr = __stop_alloc_tags - __start_alloc_tags, i;
	struct alloc_tag_counters __percpu *counters;

	counters = __alloc_percpu(nr * sizeof(*counters), __alignof__(*counters));
	if (!counters)
		return -ENOMEM;

	for (i = 0; i < nr; i++)
		if (!__start_alloc_tags[i].counters)
			__start_alloc_tags[i].counters = counters + i;

	pr_info("alloc_tramp: %td sites, %zu tags\n",
		__stop_alloc_tramp_sites - __start_alloc_tramp_sites, nr);
	return 0;
}
core_initcall(alloc_tramp_init);
