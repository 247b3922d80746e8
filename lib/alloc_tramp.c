// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation trampolines: memory allocation profiling by patching the
 * allocator call sites that objtool found (see
 * Documentation/mm/allocation-trampolines.rst).
 *
 * Each site of vmlinux and of every module has a trampoline that calls
 * the allocator under the site's struct alloc_tag.  Switching on patches
 * the sites to call their trampolines; the accounting is upstream's
 * (CONFIG_MEM_ALLOC_PROFILING): slab, page, vmalloc and percpu hooks add
 * to current->alloc_tag and subtract on free.  Switching off leaves the
 * accounting armed, so that memory allocated while on is still subtracted
 * when it is freed: only the allocation hooks' test of a tag,
 * alloc_tramp_tagging_key, goes off.
 *
 * Switching off does not patch the sites back: it parks them.  Their
 * bodies go straight on to their allocators while alloc_tramp_parked is
 * set, and switching on again clears it: one store and the tagging key,
 * as upstream's switch is its key.  Writing 0 again while parked patches
 * the sites back as built.
 *
 * This file is the core: the sites and their tables, choosing and
 * patching, modules, switching.  Each interface is in the file of its
 * concern, on alloc_tramp_core.h: the reports in alloc_tramp_report.c,
 * the filter files in alloc_tramp_control.c, fail_sites in
 * alloc_tramp_fail.c, allocations.ctx in alloc_tramp_ctx.c.
 */
#define pr_fmt(fmt) "alloc_tramp: " fmt

#include <linux/alloc_tag.h>
#include <linux/alloc_tramp.h>
#include <linux/bitmap.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kobject.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pgalloc_tag.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <asm/sections.h>

#include "alloc_tramp_core.h"
#include "alloc_tramp_ctx.h"
#include "alloc_tramp_early.h"
#include "alloc_tramp_fail.h"

/* objtool writes struct alloc_tag from these numbers. */
static_assert(sizeof(struct alloc_tag) == ALLOC_TRAMP_TAG_SIZE);
static_assert(offsetof(struct alloc_tag, ct.lineno) == ALLOC_TRAMP_TAG_LINENO);
static_assert(offsetof(struct alloc_tag, ct.modname) == ALLOC_TRAMP_TAG_MODNAME);
static_assert(offsetof(struct alloc_tag, ct.function) == ALLOC_TRAMP_TAG_FUNCTION);
static_assert(offsetof(struct alloc_tag, ct.filename) == ALLOC_TRAMP_TAG_FILENAME);
static_assert(offsetof(struct alloc_tag, counters) == ALLOC_TRAMP_TAG_COUNTERS);
static_assert(sizeof(struct alloc_tag_counters) == ALLOC_TRAMP_COUNTERS_SIZE);

/* The counters of the tags of a module whose table could not be made */
static DEFINE_PER_CPU(struct alloc_tag_counters, alloc_tramp_no_counters);

/*
 * The per-CPU allocator refuses an allocation over PCPU_MIN_UNIT_SIZE
 * (32 KiB), and a large vmlinux has tens of thousands of tags: their
 * counters come in chunks of 16 KiB.
 */
#define ALLOC_TRAMP_CHUNK_TAGS	\
	(PCPU_MIN_UNIT_SIZE / 2 / sizeof(struct alloc_tag_counters))

/* Serializes switching, filters, module load and unload, and reports */
DEFINE_MUTEX(alloc_tramp_mutex);
LIST_HEAD(alloc_tramp_tables);
static struct alloc_tramp_table vmlinux_table;
bool alloc_tramp_enabled;
/* Set while the sites are parked: their bodies call their allocators */
u8 alloc_tramp_parked __read_mostly;
/* On while sites are switched on: see mem_alloc_profiling_tagged() */
DEFINE_STATIC_KEY_FALSE(alloc_tramp_tagging_key);
EXPORT_SYMBOL(alloc_tramp_tagging_key);

/* set_site_filter and set_site_notrace */
struct alloc_tramp_filter alloc_tramp_site_filter =
	ALLOC_TRAMP_FILTER_INIT(alloc_tramp_site_filter);
struct alloc_tramp_filter alloc_tramp_site_notrace =
	ALLOC_TRAMP_FILTER_INIT(alloc_tramp_site_notrace);
/* alloc_trampolines/fail_sites */
struct alloc_tramp_filter alloc_tramp_fail_lines =
	ALLOC_TRAMP_FILTER_INIT(alloc_tramp_fail_lines);

/* Tables of unloaded modules, until alloc_tramp_module_unload(). */
LIST_HEAD(alloc_tramp_retired);
/* ... and after it, of those whose memory outlives them. */
LIST_HEAD(alloc_tramp_kept);

/*
 * A site in init text that is gone can no longer be patched.  For vmlinux
 * that is all of [__init_begin, __init_end): .exit.text goes with it.
 */
bool alloc_tramp_site_live(struct alloc_tramp_table *t,
			   const struct alloc_tramp_site *site)
{
	void *addr = alloc_tramp_site_addr(site);

	if (!t->mod)
		return !t->init_gone || !init_section_contains(addr, 1);

	/*
	 * within_module_init() is false once do_init_module() cleared the
	 * init ranges, before or after it freed them: the sites in init
	 * text were found at MODULE_STATE_COMING.
	 */
	return !t->init_gone || !test_bit(site - t->sites, t->init);
}

/*
 * The first site of @t from @i on whose text is still there: the
 * control files loop on these, by i = alloc_tramp_next_site(t, i + 1).
 */
unsigned int alloc_tramp_next_site(struct alloc_tramp_table *t, unsigned int i)
{
	while (i < t->nr_sites && !alloc_tramp_site_live(t, &t->sites[i]))
		i++;
	return i;
}

/* Sites in init text that was freed are no longer patched. */
void alloc_tramp_forget_gone(struct alloc_tramp_table *t)
{
	unsigned int i;

	for_each_set_bit(i, t->patched, t->nr_sites)
		if (!alloc_tramp_site_live(t, &t->sites[i])) {
			__clear_bit(i, t->patched);
			__clear_bit(i, t->profiled);
			__clear_bit(i, t->fail);
			__clear_bit(i, t->armed);
		}
}

/* What a site is matched and listed by; alloc_tramp_mutex held. */
void alloc_tramp_site_desc(const struct alloc_tramp_site *site,
			   struct alloc_tramp_site_desc *d)
{
	static char target[KSYM_NAME_LEN];
	struct alloc_tag *tag = alloc_tramp_site_tag(site);

	d->file = tag->ct.filename;
	d->line = tag->ct.lineno;
	d->func = tag->ct.function;
	d->module = tag->ct.modname ?: "vmlinux";
	snprintf(target, sizeof(target), "%ps", alloc_tramp_site_target(site));
	d->target = target;
}

static bool site_chosen(const struct alloc_tramp_site *site)
{
	struct alloc_tramp_site_desc d;

	alloc_tramp_site_desc(site, &d);
	return alloc_tramp_filter_chosen(&alloc_tramp_site_filter, &d, true) &&
	       !alloc_tramp_filter_chosen(&alloc_tramp_site_notrace, &d, false);
}

/* Which sites of @t the filters choose */
static void table_choose(struct alloc_tramp_table *t)
{
	unsigned int i;

	if (alloc_tramp_filter_empty(&alloc_tramp_site_filter) &&
	    alloc_tramp_filter_empty(&alloc_tramp_site_notrace)) {
		bitmap_fill(t->chosen, t->nr_sites);
		return;
	}
	for (i = 0; i < t->nr_sites; i++)
		__assign_bit(i, t->chosen, site_chosen(&t->sites[i]));
}

/*
 * A batch is written as jump labels are: with CPU hotplug held off
 * (text_poke_sync() interrupts every online CPU) and under text_mutex.
 */
static void patch_lock(void)
{
	cpus_read_lock();
	mutex_lock(&text_mutex);
}

static void patch_unlock(void)
{
	mutex_unlock(&text_mutex);
	cpus_read_unlock();
}

/*
 * Lead the stubs of the sites of @t that are to be armed to the fail
 * entry (@arm), or those that are to be disarmed back to their body.
 * A site armed for fault injection only goes on to its allocator
 * untagged, one that is profiled too to its body.  A site that is
 * patched already starts tagging with that, so it is led to its body
 * only @late, once the sites it nests in are on (see table_pass).
 */
static void table_patch_stubs(struct alloc_tramp_table *t, bool on, bool arm,
			      bool late)
{
	unsigned int i;

	if (!IS_ENABLED(CONFIG_ALLOC_TRAMP_FAULT_INJECTION))
		return;

	for (i = 0; i < t->nr_sites; i++) {
		const struct alloc_tramp_site *site = &t->sites[i];
		bool want = test_bit(i, t->fail);
		enum alloc_tramp_stub_to to = ALLOC_TRAMP_STUB_BODY;

		if (want != arm || (!want && !test_bit(i, t->armed)) ||
		    !alloc_tramp_site_live(t, site))
			continue;
		if (want)
			to = on && test_bit(i, t->chosen) ?
			     ALLOC_TRAMP_STUB_FAIL : ALLOC_TRAMP_STUB_FAIL_PLAIN;
		if (want && late != (to == ALLOC_TRAMP_STUB_FAIL &&
				     test_bit(i, t->patched)))
			continue;
		if (!WARN_ON_ONCE(arch_alloc_tramp_stub_queue(site, to)))
			__assign_bit(i, t->armed, want);
	}
	arch_alloc_tramp_finish();
}

/*
 * An allocation nested in that of a patched site, at a site that is not
 * patched, is accounted to the outer site: a slab page under a module's
 * kmalloc() line would keep the module's tags when it is unloaded.  The
 * sites nest in this order: those of modules in those of vmlinux, which
 * nest in the allocators' own, in mm/ and arch/x86/mm/ (slab pages,
 * vmalloc page tables and areas, percpu chunks).  Switching on patches
 * the inner ones first, switching off unpatches them last, in passes: a
 * site's pass is where it nests, and whether it ends up profiled.
 */
enum table_pass {
	TABLE_PASS_MODULE_OFF,	/* sites of modules that end up not profiled */
	TABLE_PASS_VMLINUX_OFF,	/* other sites of vmlinux, the same */
	TABLE_PASS_MM,		/* the allocators' own sites */
	TABLE_PASS_VMLINUX_ON,	/* other sites of vmlinux that end up profiled */
	TABLE_PASS_MODULE_ON,	/* sites of modules, the same */
	TABLE_PASSES,
};

static bool site_is_mm(const struct alloc_tramp_site *site)
{
	const char *file = alloc_tramp_site_tag(site)->ct.filename;

	return file && (str_has_prefix(file, "mm/") || strstr(file, "/mm/"));
}

static enum table_pass site_pass(struct alloc_tramp_table *t, unsigned int i,
				 bool prof)
{
	if (t->mod)
		return prof ? TABLE_PASS_MODULE_ON : TABLE_PASS_MODULE_OFF;
	if (test_bit(i, t->mm))
		return TABLE_PASS_MM;
	return prof ? TABLE_PASS_VMLINUX_ON : TABLE_PASS_VMLINUX_OFF;
}

/*
 * Patch the sites of @t that @pass takes as they are to be: the chosen
 * ones if @on, none otherwise, and those armed for fault injection; with
 * @park, those patched and not armed stay so, parked.  Under patch_lock(),
 * between the two table_patch_stubs().
 *
 * The tag of a site that is switched off, or on after its code may have
 * run (@fresh is false), or that cannot be patched, misses allocations
 * or frees: it is marked as such ("accurate:no" in /proc/allocinfo).
 */
static void table_patch_pass(struct alloc_tramp_table *t, bool on, bool fresh,
			     bool park, enum table_pass pass)
{
	const struct alloc_tramp_site *refused = NULL;
	unsigned int i, nr_refused = 0;

	for (i = 0; i < t->nr_sites; i++) {
		const struct alloc_tramp_site *site = &t->sites[i];
		bool prof = on && test_bit(i, t->chosen);
		bool want = prof || test_bit(i, t->fail) ||
			    (park && test_bit(i, t->patched) &&
			     !test_bit(i, t->armed));

		if (site_pass(t, i, prof) != pass || !alloc_tramp_site_live(t, site))
			continue;
		if (test_bit(i, t->profiled) != prof && (!prof || !fresh))
			alloc_tag_set_inaccurate(alloc_tramp_site_tag(site));
		if (test_bit(i, t->patched) != want &&
		    arch_alloc_tramp_queue(site, want)) {
			alloc_tag_set_inaccurate(alloc_tramp_site_tag(site));
			refused = refused ?: site;
			nr_refused++;
			continue;
		}
		__assign_bit(i, t->patched, want);
		__assign_bit(i, t->profiled, prof);
	}
	if (nr_refused)
		pr_warn("%u sites of %s are not as built, left alone: the first is %pS\n",
			nr_refused, t->name,
			alloc_tramp_site_addr(refused));
}

/*
 * Patch the sites of every table, or of @only, as table_patch_pass() says;
 * switching off all tables while they are parked leaves the patched
 * sites as they are (@park): their calls are no longer tagged.
 * The stubs of sites to arm lead to their fail entry before the sites
 * are patched (those of patched sites that start tagging, after them),
 * those of sites to disarm go back to their body after: no call of a
 * site is tagged that is not profiled.  A coming module's code
 * has not run: its tags miss nothing (@fresh).
 *
 * Switching all off turns alloc_tramp_tagging_key off once the outer
 * sites are off, before the allocators' own (when parking, before any),
 * and switching on turns it on once the allocators' own are on, before
 * the outer ones: a task still in the body of an outer site (asleep in
 * reclaim, say) tags nothing while the allocators' own sites are off.
 */
static void tables_patch(struct alloc_tramp_table *only, bool on, bool fresh)
{
	bool park = !on && !only && READ_ONCE(alloc_tramp_parked);
	struct alloc_tramp_table *t;
	int pass;

	patch_lock();
	list_for_each_entry(t, &alloc_tramp_tables, list) {
		if (only && t != only)
			continue;
		alloc_tramp_forget_gone(t);
		table_patch_stubs(t, on, true, false);
	}
	for (pass = 0; pass < TABLE_PASSES; pass++) {
		if (!only && on != static_key_enabled(&alloc_tramp_tagging_key) &&
		    pass == (on ? TABLE_PASS_VMLINUX_ON : TABLE_PASS_MM)) {
			/* It patches text under text_mutex too */
			patch_unlock();
			if (on)
				static_branch_enable(&alloc_tramp_tagging_key);
			else
				static_branch_disable(&alloc_tramp_tagging_key);
			patch_lock();
		}
		list_for_each_entry(t, &alloc_tramp_tables, list)
			if (!only || t == only)
				table_patch_pass(t, on, fresh, park, pass);
		arch_alloc_tramp_finish();
	}
	list_for_each_entry(t, &alloc_tramp_tables, list) {
		if (only && t != only)
			continue;
		table_patch_stubs(t, on, true, true);
		table_patch_stubs(t, on, false, false);
	}
	patch_unlock();
}

static unsigned int table_nr_chunks(struct alloc_tramp_table *t)
{
	return DIV_ROUND_UP(t->nr_tags, ALLOC_TRAMP_CHUNK_TAGS);
}

static void table_free_counters(struct alloc_tramp_table *t)
{
	unsigned int i;

	for (i = 0; t->counters && i < table_nr_chunks(t); i++)
		free_percpu(t->counters[i]);
	kfree(t->counters);
	t->counters = NULL;
}

static void table_free_bitmaps(struct alloc_tramp_table *t)
{
	bitmap_free(t->chosen);
	bitmap_free(t->patched);
	bitmap_free(t->profiled);
	bitmap_free(t->fail);
	bitmap_free(t->armed);
	bitmap_free(t->init);
	bitmap_free(t->mm);
	t->chosen = NULL;
	t->patched = NULL;
	t->profiled = NULL;
	t->fail = NULL;
	t->armed = NULL;
	t->init = NULL;
	t->mm = NULL;
}

/*
 * Counters for every tag of a module, in chunks that the per-CPU
 * allocator gives.  Those of vmlinux are static.
 */
static int table_alloc_counters(struct alloc_tramp_table *t)
{
	unsigned int i, n;

	if (!t->mod)
		return 0;

	t->counters = kcalloc(max(table_nr_chunks(t), 1U), sizeof(*t->counters),
			      GFP_KERNEL);
	if (!t->counters)
		return -ENOMEM;

	for (i = 0; i < table_nr_chunks(t); i++) {
		n = min_t(unsigned int, t->nr_tags - i * ALLOC_TRAMP_CHUNK_TAGS,
			  ALLOC_TRAMP_CHUNK_TAGS);
		t->counters[i] = __alloc_percpu(n * sizeof(**t->counters),
						__alignof__(**t->counters));
		if (!t->counters[i]) {
			table_free_counters(t);
			return -ENOMEM;
		}
	}

	for (i = 0; i < t->nr_tags; i++)
		t->tags[i].counters = t->counters[i / ALLOC_TRAMP_CHUNK_TAGS] +
				      i % ALLOC_TRAMP_CHUNK_TAGS;
	return 0;
}

/* The tags of a table are those its sites name, contiguous. */
static int table_init(struct alloc_tramp_table *t, struct module *mod,
		      struct alloc_tramp_site *sites, unsigned int nr_sites)
{
	struct alloc_tag *lo = NULL, *hi = NULL;
	unsigned int i;

	t->mod = mod;
	strscpy(t->name, mod ? mod->name : "vmlinux");
	t->sites = sites;
	t->nr_sites = nr_sites;
	for (i = 0; i < nr_sites; i++) {
		struct alloc_tag *tag = alloc_tramp_site_tag(&sites[i]);

		if (!lo || tag < lo)
			lo = tag;
		if (!hi || tag > hi)
			hi = tag;
	}
	t->tags = lo;
	t->nr_tags = nr_sites ? hi - lo + 1 : 0;

	t->chosen = bitmap_zalloc(nr_sites, GFP_KERNEL);
	t->patched = bitmap_zalloc(nr_sites, GFP_KERNEL);
	t->profiled = bitmap_zalloc(nr_sites, GFP_KERNEL);
	t->fail = bitmap_zalloc(nr_sites, GFP_KERNEL);
	t->armed = bitmap_zalloc(nr_sites, GFP_KERNEL);
	t->init = bitmap_zalloc(nr_sites, GFP_KERNEL);
	t->mm = bitmap_zalloc(nr_sites, GFP_KERNEL);
	if (!t->chosen || !t->patched || !t->profiled || !t->fail ||
	    !t->armed || !t->init || !t->mm || table_alloc_counters(t)) {
		table_free_bitmaps(t);
		pr_err("no memory for the counters of %u tags of %s: its sites stay off\n",
		       t->nr_tags, t->name);
		return -ENOMEM;
	}

	for (i = 0; !mod && i < nr_sites; i++)
		__assign_bit(i, t->mm, site_is_mm(&sites[i]));
	/* Only now does within_module_init() know the init text. */
	for (i = 0; mod && i < nr_sites; i++)
		if (within_module_init((unsigned long)alloc_tramp_site_addr(&sites[i]),
				       mod))
			__set_bit(i, t->init);
	return 0;
}

#ifdef CONFIG_ALLOC_TRAMP_FAULT_INJECTION
/* The last fail_sites line that matches a site, if it arms the site */
static const struct alloc_tramp_query *site_fail_line(const struct alloc_tramp_site *site)
{
	const struct alloc_tramp_query *q, *last = NULL;
	struct alloc_tramp_site_desc d;

	if (alloc_tramp_filter_empty(&alloc_tramp_fail_lines) ||
	    !alloc_tramp_fail_target_ok(arch_alloc_tramp_target(site, NULL)))
		return NULL;
	alloc_tramp_site_desc(site, &d);
	list_for_each_entry(q, &alloc_tramp_fail_lines.queries, list)
		if (alloc_tramp_query_match(q, &d))
			last = q;
	return last && last->action == ALLOC_TRAMP_FAIL_ARM ? last : NULL;
}

/*
 * Which sites of @t the fail_sites lines arm: first (@stage) make the
 * state of each armed tag, which may fail and then changes nothing, then
 * mark the sites.
 */
static int table_fail_choose(struct alloc_tramp_table *t, bool stage)
{
	const struct alloc_tramp_query *q;
	unsigned int i;
	int ret;

	for (i = alloc_tramp_next_site(t, 0); i < t->nr_sites;
	     i = alloc_tramp_next_site(t, i + 1)) {
		q = site_fail_line(&t->sites[i]);
		if (!stage) {
			__assign_bit(i, t->fail, q);
			continue;
		}
		ret = q ? alloc_tramp_fail_stage(alloc_tramp_site_tag(&t->sites[i]), q) : 0;
		if (ret)
			return ret;
	}
	return 0;
}

/* A new table: arm what the fail_sites lines name in it. */
static void table_fail_add(struct alloc_tramp_table *t)
{
	if (alloc_tramp_filter_empty(&alloc_tramp_fail_lines))
		return;
	if (table_fail_choose(t, true)) {
		alloc_tramp_fail_abort();
		pr_warn("no memory to arm the sites of %s\n", t->name);
		return;
	}
	alloc_tramp_fail_publish();
	table_fail_choose(t, false);
}

static void table_fail_added(void)
{
	alloc_tramp_fail_drop(false);
}
#else
static void table_fail_add(struct alloc_tramp_table *t) {}
static void table_fail_added(void) {}
#endif

static void table_add(struct alloc_tramp_table *t)
{
	table_choose(t);
	table_fail_add(t);
	list_add_tail_rcu(&t->list, &alloc_tramp_tables);
	if (alloc_tramp_enabled || !bitmap_empty(t->fail, t->nr_sites))
		tables_patch(t, alloc_tramp_enabled, !!t->mod);
	table_fail_added();
}

/*
 * Profiling bookkeeping never fails a module load: a module whose table
 * cannot be made loads with its sites off, one whose tags get no page tag
 * indexes with its pages uncounted (its tags say "accurate:no").
 */
static void alloc_tramp_module_coming(struct module *mod)
{
	struct alloc_tramp_table *t;
	unsigned int i;
	int ret;

	if (!mod->num_alloc_tramp_sites)
		return;

	/*
	 * Without a table its sites stay off (the allocator or table_init()
	 * says why), and codetag reads the counters of its tags: ones that
	 * stay 0.
	 */
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t || table_init(t, mod, mod->alloc_tramp_sites,
			     mod->num_alloc_tramp_sites)) {
		kfree(t);
		for (i = 0; i < mod->num_alloc_tramp_sites; i++)
			alloc_tramp_site_tag(&mod->alloc_tramp_sites[i])->counters =
				&alloc_tramp_no_counters;
		return;
	}
	ret = alloc_tramp_pgtag_add(t->tags, t->nr_tags);
	if (ret) {
		pr_warn("%s: no page tag indexes for its %u tags (%d): its pages are not counted\n",
			mod->name, t->nr_tags, ret);
		for (i = 0; i < t->nr_tags; i++)
			alloc_tag_set_inaccurate(&t->tags[i]);
	}
	table_add(t);
}

/* The table of @mod, NULL if it has no sites; alloc_tramp_mutex held. */
static struct alloc_tramp_table *module_table(struct module *mod)
{
	struct alloc_tramp_table *t;

	list_for_each_entry(t, &alloc_tramp_tables, list)
		if (t->mod == mod)
			return t;
	return NULL;
}

/*
 * do_init_module() frees the init text after MODULE_STATE_LIVE: its sites
 * are forgotten while it is still there, so that no later switch, filter
 * or read of the sites file touches freed text.
 */
static void alloc_tramp_module_live(struct module *mod)
{
	struct alloc_tramp_table *t = module_table(mod);

	if (!t)
		return;
	t->init_gone = true;
	alloc_tramp_forget_gone(t);
}

/**
 * alloc_tramp_free_init_mem - forget the sites in the init text of vmlinux
 *
 * Called by kernel_init() before free_initmem(), as ftrace_free_init_mem()
 * is: once it returns, no switch, filter write or report touches the
 * init text, which is about to be freed.
 */
void alloc_tramp_free_init_mem(void)
{
	struct alloc_tramp_table *t = &vmlinux_table;
	unsigned int before;

	mutex_lock(&alloc_tramp_mutex);
	t->init_gone = true;
	/* Its table is made, unless it had no memory for it */
	if (t->patched) {
		before = bitmap_weight(t->patched, t->nr_sites);
		alloc_tramp_forget_gone(t);
		pr_info("init text to be freed: %u of its sites were patched\n",
			before - bitmap_weight(t->patched, t->nr_sites));
	}
	mutex_unlock(&alloc_tramp_mutex);
}

/* Free the counters and the table of a module that went. */
static void table_free(struct alloc_tramp_table *t)
{
	alloc_tramp_pgtag_del(t->tags, t->nr_tags);
	alloc_tramp_ctx_forget(t->tags, t->nr_tags);
	table_free_counters(t);
	/* Free after the RCU readers of alloc_tramp_tables. */
	kfree_rcu_mightsleep(t);
}

static void alloc_tramp_module_going(struct module *mod)
{
	struct alloc_tramp_table *t = module_table(mod);

	if (!t)
		return;
	/* Its text goes away: nothing to unpatch, just forget it. */
	list_del_rcu(&t->list);
	alloc_tramp_fail_forget(t->tags, t->nr_tags);
	table_free_bitmaps(t);
	t->mod = NULL;
	/*
	 * A load that failed before codetag_load_module() (another COMING
	 * notifier, say) ran none of the module's code.  Once codetag
	 * knows the module, even if its parameters or its init fail, the
	 * unload of its tags decides from their counters.
	 */
	if (!t->codetag) {
		table_free(t);
		return;
	}
	list_add_rcu(&t->retired, &alloc_tramp_retired);
}

/* Is memory allocated under one of the tags of @t still live? */
static bool table_in_use(struct alloc_tramp_table *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_tags; i++) {
		struct alloc_tag_counters c = alloc_tag_read(&t->tags[i]);

		if (c.bytes || c.calls)
			return true;
	}
	return false;
}

/*
 * The kept tables whose memory has all been freed since give back their
 * counters and page tag indexes (upstream 6.13 frees such a module's
 * area at the next load).  Nothing allocates under their tags, and the
 * last free has subtracted its call: no one touches them any longer.
 */
static void alloc_tramp_reclaim_kept(void)
{
	struct alloc_tramp_table *t, *tmp;
	bool idle = false;

	/*
	 * The per-CPU sums are read while frees, and splits of high-order
	 * pages, may move them on other CPUs: only a table read idle twice,
	 * a grace period apart, goes.
	 */
	list_for_each_entry(t, &alloc_tramp_kept, retired)
		idle = idle || !table_in_use(t);
	if (!idle)
		return;
	synchronize_rcu();
	list_for_each_entry_safe(t, tmp, &alloc_tramp_kept, retired) {
		if (table_in_use(t))
			continue;
		list_del_rcu(&t->retired);
		pr_info("the memory of %u tags of %s was freed: their table goes\n",
			t->nr_tags, t->name);
		table_free(t);
	}
}

/**
 * alloc_tramp_module_load - codetag knows the tags of a loading module
 * @first_tag: its first tag
 *
 * Called by the codetag load of alloc_tag, before the module's init runs.
 * From then on, the module's end, whether its init failed or it was
 * unloaded, ends in alloc_tramp_module_unload().
 */
void alloc_tramp_module_load(struct alloc_tag *first_tag)
{
	struct alloc_tramp_table *t;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list)
		if (t->mod && t->tags == first_tag)
			t->codetag = true;
	mutex_unlock(&alloc_tramp_mutex);
}

/**
 * alloc_tramp_module_unload - the tags of an unloaded module are checked
 * @first_tag: its first tag
 * @unused: no memory allocated from its tags is left
 *
 * Called by the codetag unload of alloc_tag after the module went.  An
 * unused module's tags go away with it, so their counters can be freed.
 * A used one keeps its tags (upstream keeps the module's data) and they
 * keep their counters, so that freeing the memory later subtracts it.
 */
void alloc_tramp_module_unload(struct alloc_tag *first_tag, bool unused)
{
	struct alloc_tramp_table *t;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_retired, retired) {
		if (t->tags != first_tag)
			continue;

		list_del_rcu(&t->retired);
		if (!unused) {
			pr_info("memory from %u tags outlives %s\n", t->nr_tags,
				t->name);
			/* No lockless walker of retired may follow it to kept. */
			synchronize_rcu();
			list_add_rcu(&t->retired, &alloc_tramp_kept);
			break;
		}
		table_free(t);
		break;
	}
	mutex_unlock(&alloc_tramp_mutex);
}

#ifdef CONFIG_ALLOC_TRAMP_DEBUG
/* Is @tag one of ours?  Lockless: for the allocation and free hooks. */
static bool tag_known(struct alloc_tag *tag)
{
	struct alloc_tramp_table *t;
	bool found = false;

	/* Those of vmlinux count from before alloc_tramp_init() */
	if (tag >= __start_alloc_tags && tag < __stop_alloc_tags)
		return true;

	rcu_read_lock();
	list_for_each_entry_rcu(t, &alloc_tramp_tables, list)
		found = found || (tag >= t->tags && tag < t->tags + t->nr_tags);
	list_for_each_entry_rcu(t, &alloc_tramp_retired, retired)
		found = found || (tag >= t->tags && tag < t->tags + t->nr_tags);
	list_for_each_entry_rcu(t, &alloc_tramp_kept, retired)
		found = found || (tag >= t->tags && tag < t->tags + t->nr_tags);
	rcu_read_unlock();
	return found;
}

/**
 * alloc_tramp_check_set - check a tag about to be set on an allocation
 * @ref: the allocation's codetag_ref
 * @tag: the tag, if any
 *
 * With CONFIG_ALLOC_TRAMP_DEBUG, alloc_tag_add() warns, once, of a ref
 * that still holds a tag (set twice, or never cleared by a free) and of
 * a tag that is not one of a site's.
 */
void alloc_tramp_check_set(union codetag_ref *ref, struct alloc_tag *tag)
{
	if (!ref || !tag)
		return;
	WARN_ONCE(ref->ct, "alloc_tramp: tag of %s:%u set over %s:%u\n",
		  tag->ct.filename, tag->ct.lineno, ref->ct->filename,
		  ref->ct->lineno);
	WARN_ONCE(!tag_known(tag), "alloc_tramp: allocation under %p, not a site's tag\n",
		  tag);
}
EXPORT_SYMBOL_GPL(alloc_tramp_check_set);

/**
 * alloc_tramp_check_clear - check the tag of an allocation being freed
 * @ref: the allocation's codetag_ref, which holds a tag
 *
 * With CONFIG_ALLOC_TRAMP_DEBUG, alloc_tag_sub() warns, once, of a free
 * that would be accounted to what is not a site's tag.
 */
void alloc_tramp_check_clear(union codetag_ref *ref)
{
	WARN_ONCE(!tag_known(ct_to_alloc_tag(ref->ct)),
		  "alloc_tramp: free accounted to %p, not a site's tag\n", ref->ct);
}
EXPORT_SYMBOL_GPL(alloc_tramp_check_clear);
#endif

static int alloc_tramp_module_notify(struct notifier_block *nb,
				     unsigned long action, void *data)
{
	mutex_lock(&alloc_tramp_mutex);
	if (action == MODULE_STATE_COMING) {
		alloc_tramp_reclaim_kept();
		alloc_tramp_module_coming(data);
	} else if (action == MODULE_STATE_LIVE) {
		alloc_tramp_module_live(data);
	} else if (action == MODULE_STATE_GOING) {
		alloc_tramp_module_going(data);
	}
	mutex_unlock(&alloc_tramp_mutex);

	return NOTIFY_OK;
}

static struct notifier_block alloc_tramp_module_nb = {
	.notifier_call = alloc_tramp_module_notify,
};

static int __alloc_tramp_set(bool on)
{
	lockdep_assert_held(&alloc_tramp_mutex);

	/* Profiling not supported: page_ext, say, has no room for page tags. */
	if (on && !mem_alloc_profiling_supported()) {
		pr_err("not switched on: booted with sysctl.vm.mem_profiling=never\n");
		return -EOPNOTSUPP;
	}

	/*
	 * The accounting goes on first and stays on: see the top.  The
	 * allocation hooks look for tags only while sites are on.
	 */
	if (on && !static_key_enabled(&mem_alloc_profiling_key))
		static_branch_enable(&mem_alloc_profiling_key);

	/*
	 * Switching off parks the sites: no allocation is tagged once the
	 * key is off, whatever body a task is in, and only then do the
	 * bodies go straight on.  Switching on, or off again while parked,
	 * lets the bodies tag before the key is on, and patches what
	 * changed; tables_patch() turns the key on or off on the way.
	 */
	if (!on && alloc_tramp_enabled) {
		static_branch_disable(&alloc_tramp_tagging_key);
		WRITE_ONCE(alloc_tramp_parked, 1);
	} else {
		WRITE_ONCE(alloc_tramp_parked, 0);
	}
	tables_patch(NULL, on, false);
	WRITE_ONCE(alloc_tramp_enabled, on);
	return 0;
}

/**
 * alloc_tramp_set_enabled - switch the allocation trampolines on or off
 * @on: patch the chosen call sites to their trampolines, or park them
 *
 * Switching off parks the sites (see the top of this file); switching off
 * again while parked patches them back as built.
 *
 * Return: 0, -EBUSY while another switch is under way, or -EOPNOTSUPP
 * when booted with sysctl.vm.mem_profiling=never.
 */
int alloc_tramp_set_enabled(bool on)
{
	int ret;

	if (!mutex_trylock(&alloc_tramp_mutex))
		return -EBUSY;
	ret = __alloc_tramp_set(on);
	mutex_unlock(&alloc_tramp_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(alloc_tramp_set_enabled);

/**
 * alloc_tramp_is_enabled - are the allocation trampolines switched on?
 *
 * Return: true between a switch on and a switch off.
 */
bool alloc_tramp_is_enabled(void)
{
	return READ_ONCE(alloc_tramp_enabled);
}

/*
 * The sites of vmlinux that __alloc_tramp_init_early() patched: they are
 * on from the first allocation.
 */
static void __init table_early_patched(struct alloc_tramp_table *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_sites; i++)
		__assign_bit(i, t->patched,
			     arch_alloc_tramp_calls(&t->sites[i]) ==
			     alloc_tramp_site_tramp(&t->sites[i]));
	bitmap_copy(t->profiled, t->patched, t->nr_sites);
	alloc_tramp_enabled = true;
}

static int __init alloc_tramp_init(void)
{
	int ret;

	/* Before the first tagged page; page_ext is set up later. */
	alloc_tramp_pgtag_init();
	/* Modules are profiled even if vmlinux cannot be. */
	register_module_notifier(&alloc_tramp_module_nb);

	ret = table_init(&vmlinux_table, NULL, __start_alloc_tramp_sites,
			 __stop_alloc_tramp_sites - __start_alloc_tramp_sites);

	mutex_lock(&alloc_tramp_mutex);
	if (!ret && alloc_tramp_early_done)
		table_early_patched(&vmlinux_table);
	if (!ret)
		table_add(&vmlinux_table);
	/* Not patched early: the tags missed the allocations until now. */
	if (alloc_tramp_boot_enabled)
		ret = __alloc_tramp_set(true) ?: ret;
	mutex_unlock(&alloc_tramp_mutex);

	pr_info("%u sites, %u tags%s\n", vmlinux_table.nr_sites,
		vmlinux_table.nr_tags, alloc_tramp_enabled ? ", on" : "");
	return ret;
}
early_initcall(alloc_tramp_init);

/* /sys/kernel/mm/alloc_trampolines/enabled */

static ssize_t enabled_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	unsigned long patched = 0, parked = 0, sites = 0;
	struct alloc_tramp_table *t;
	ssize_t len;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list) {
		alloc_tramp_forget_gone(t);
		patched += bitmap_weight(t->profiled, t->nr_sites);
		if (alloc_tramp_parked)
			parked += bitmap_weight_andnot(t->patched, t->armed,
						       t->nr_sites);
		sites += t->nr_sites;
	}
	len = sysfs_emit(buf, "%d (%lu of %lu sites patched",
			 alloc_tramp_enabled, patched, sites);
	if (parked)
		len += sysfs_emit_at(buf, len, ", %lu parked", parked);
	len += sysfs_emit_at(buf, len, ")\n");
	mutex_unlock(&alloc_tramp_mutex);
	return len;
}

static ssize_t enabled_store(struct kobject *kobj, struct kobj_attribute *attr,
			     const char *buf, size_t count)
{
	unsigned int on;
	int ret;

	/* "0" or "1", and a newline: anything else is refused. */
	if (!count || count > 2 || kstrtouint(buf, 10, &on) || on > 1)
		return -EINVAL;

	ret = alloc_tramp_set_enabled(on);
	return ret ? ret : count;
}

static struct kobj_attribute enabled_attr = __ATTR_RW(enabled);

static struct attribute *alloc_tramp_attrs[] = {
	&enabled_attr.attr,
	NULL,
};

static const struct attribute_group alloc_tramp_attr_group = {
	.attrs = alloc_tramp_attrs,
};

/**
 * alloc_tramp_rechoose - the filters changed: choose the sites again
 *
 * Called with alloc_tramp_mutex held; while on, patches what is chosen now.
 */
void alloc_tramp_rechoose(void)
{
	struct alloc_tramp_table *t;

	lockdep_assert_held(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list)
		table_choose(t);
	if (alloc_tramp_enabled)
		tables_patch(NULL, true, false);
}

#ifdef CONFIG_ALLOC_TRAMP_FAULT_INJECTION
/**
 * alloc_tramp_fail_apply - arm and disarm every site as the lines say now
 *
 * Called with alloc_tramp_mutex held, after alloc_tramp_fail_lines changed.
 *
 * Return: 0, or the error of making the state of an armed tag; then
 * nothing changed.
 */
int alloc_tramp_fail_apply(void)
{
	struct alloc_tramp_table *t;
	int ret;

	lockdep_assert_held(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list) {
		ret = table_fail_choose(t, true);
		if (ret) {
			alloc_tramp_fail_abort();
			return ret;
		}
	}
	alloc_tramp_fail_publish();
	list_for_each_entry(t, &alloc_tramp_tables, list)
		table_fail_choose(t, false);
	tables_patch(NULL, alloc_tramp_enabled, false);
	alloc_tramp_fail_drop(true);
	return 0;
}
#endif

/*
 * The switch is /sys/kernel/mm/alloc_trampolines/enabled; the reports and
 * control files are in /sys/kernel/debug/alloc_trampolines, each made by
 * the file of its concern.
 */
static int __init alloc_tramp_interfaces_init(void)
{
	struct dentry *dir;
	struct kobject *kobj;

	kobj = kobject_create_and_add("alloc_trampolines", mm_kobj);
	if (!kobj || sysfs_create_group(kobj, &alloc_tramp_attr_group))
		pr_err("cannot create /sys/kernel/mm/alloc_trampolines\n");

	dir = debugfs_create_dir("alloc_trampolines", NULL);
	alloc_tramp_report_init(dir);
	alloc_tramp_control_init(dir);
	alloc_tramp_fail_init(dir);
	alloc_tramp_ctx_init();
	return 0;
}
late_initcall(alloc_tramp_interfaces_init);
