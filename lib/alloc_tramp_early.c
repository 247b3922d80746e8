// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation trampolines from the first allocation.
 *
 * Booted with alloc_trampolines=on (or with
 * CONFIG_ALLOC_TRAMPOLINES_ENABLED_BY_DEFAULT), start_kernel() calls
 * alloc_tramp_init_early() just before mm_core_init() brings up the page
 * and slab allocators: every site of vmlinux is patched then, while one
 * CPU runs and the text is still writable, the way alternatives are
 * applied.  The tags of vmlinux need nothing allocated: objtool gave them
 * static per-CPU counters, as upstream's DEFINE_PER_CPU of each tag.  So
 * the tags count what upstream's count, from the same allocation on.
 *
 * lib/alloc_tramp.c takes over in its early_initcall: it finds the sites
 * patched and the trampolines on.  Booted otherwise, nothing here runs.
 */
#define pr_fmt(fmt) "alloc_tramp: " fmt

#include <linux/alloc_tag.h>
#include <linux/alloc_tramp.h>
#include <linux/init.h>
#include <linux/kstrtox.h>
#include <linux/memory.h>
#include <linux/pgalloc_tag.h>
#include <linux/printk.h>

#include "alloc_tramp_early.h"

bool alloc_tramp_boot_enabled __initdata =
	IS_ENABLED(CONFIG_ALLOC_TRAMPOLINES_ENABLED_BY_DEFAULT);
bool alloc_tramp_early_done __initdata;

/* An early parameter: it must be known before start_kernel() calls us. */
static int __init alloc_tramp_setup(char *str)
{
	return str ? kstrtobool(str, &alloc_tramp_boot_enabled) : -EINVAL;
}
early_param("alloc_trampolines", alloc_tramp_setup);

/**
 * __alloc_tramp_init_early - patch the sites of vmlinux at boot
 *
 * Before the first slab, page, percpu or vmalloc allocation; the caller,
 * alloc_tramp_init_early(), calls it only if booted with the trampolines
 * on.  Sites that are not as built are left alone and counted.
 */
void __init __alloc_tramp_init_early(void)
{
	struct alloc_tramp_site *site;
	unsigned int refused = 0;

	/* alloc_tramp_init() says why, once printk has a console. */
	if (!mem_alloc_profiling_supported())
		return;

	/* Before the first tagged page: page_ext is set up later. */
	alloc_tramp_pgtag_init();
	static_branch_enable(&mem_alloc_profiling_key);
	static_branch_enable(&alloc_tramp_tagging_key);

	/* For callthunks_translate_call_dest(): nothing else runs yet. */
	mutex_lock(&text_mutex);
	for (site = __start_alloc_tramp_sites; site < __stop_alloc_tramp_sites; site++)
		if (arch_alloc_tramp_early(site))
			refused++;
	mutex_unlock(&text_mutex);

	alloc_tramp_early_done = true;
	pr_info("%ld sites patched at boot, %u not as built\n",
		(long)(__stop_alloc_tramp_sites - __start_alloc_tramp_sites) - refused,
		refused);
}
