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
 * to current->alloc_tag and subtract on free.  Switching off patches the
 * sites back; the accounting stays armed, so that memory allocated while
 * on is still subtracted when it is freed.
 */
#define pr_fmt(fmt) "alloc_tramp: " fmt

#include <linux/alloc_tag.h>
#include <linux/alloc_tramp.h>
#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kallsyms.h>
#include <linux/kobject.h>
#include <linux/memory.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <asm/sections.h>

/* objtool writes struct alloc_tag from these numbers. */
static_assert(sizeof(struct alloc_tag) == ALLOC_TRAMP_TAG_SIZE);
static_assert(offsetof(struct alloc_tag, ct.lineno) == ALLOC_TRAMP_TAG_LINENO);
static_assert(offsetof(struct alloc_tag, ct.modname) == ALLOC_TRAMP_TAG_MODNAME);
static_assert(offsetof(struct alloc_tag, ct.function) == ALLOC_TRAMP_TAG_FUNCTION);
static_assert(offsetof(struct alloc_tag, ct.filename) == ALLOC_TRAMP_TAG_FILENAME);

/**
 * struct alloc_tramp_table - the sites and tags of vmlinux or of a module
 * @list:     in alloc_tramp_tables (RCU: read by alloc_tramp_is_site())
 * @retired:  in alloc_tramp_retired, once its module went
 * @mod:      the module, NULL for vmlinux
 * @sites:    its site table
 * @nr_sites: entries in @sites
 * @tags:     its tags, contiguous
 * @nr_tags:  entries in @tags
 * @patched:  bitmap of the sites that call their trampolines
 * @counters: the per-CPU counters of @tags
 */
struct alloc_tramp_table {
	struct list_head list;
	struct list_head retired;
	struct module *mod;
	struct alloc_tramp_site *sites;
	unsigned int nr_sites;
	struct alloc_tag *tags;
	unsigned int nr_tags;
	unsigned long *patched;
	struct alloc_tag_counters __percpu *counters;
};

/* Serializes switching, module load and unload, and the report. */
static DEFINE_MUTEX(alloc_tramp_mutex);
static LIST_HEAD(alloc_tramp_tables);
static struct alloc_tramp_table vmlinux_table;
static bool alloc_tramp_enabled;
static bool alloc_tramp_boot_enabled __initdata;

/* Tables of unloaded modules, until alloc_tramp_module_unload(). */
static LIST_HEAD(alloc_tramp_retired);
/* ... and after it, of those whose memory outlives them. */
static LIST_HEAD(alloc_tramp_kept);

static int __init alloc_tramp_setup(char *str)
{
	return kstrtobool(str, &alloc_tramp_boot_enabled) == 0;
}
__setup("alloc_trampolines=", alloc_tramp_setup);

/*
 * A site in init text that is gone can no longer be patched.  For vmlinux
 * that is all of [__init_begin, __init_end): .exit.text goes with it.
 */
static bool site_text_live(struct alloc_tramp_table *t,
			   const struct alloc_tramp_site *site)
{
	void *addr = alloc_tramp_site_addr(site);

	if (!t->mod)
		return !init_section_contains(addr, 1) ||
		       system_state < SYSTEM_FREEING_INITMEM;

	return !within_module_init((unsigned long)addr, t->mod) ||
	       t->mod->state == MODULE_STATE_COMING;
}

/* Sites in init text that was freed are no longer patched. */
static void table_forget_gone(struct alloc_tramp_table *t)
{
	unsigned int i;

	for_each_set_bit(i, t->patched, t->nr_sites)
		if (!site_text_live(t, &t->sites[i]))
			__clear_bit(i, t->patched);
}

/* Patch or unpatch the sites of @t; text_mutex held. */
static void table_patch(struct alloc_tramp_table *t, bool on)
{
	unsigned int i;
	int ret;

	table_forget_gone(t);
	for (i = 0; i < t->nr_sites; i++) {
		const struct alloc_tramp_site *site = &t->sites[i];

		if (test_bit(i, t->patched) == on || !site_text_live(t, site))
			continue;

		ret = arch_alloc_tramp_queue(site, on);
		if (ret) {
			pr_warn_once("site %pS is not as built, left alone\n",
				     alloc_tramp_site_addr(site));
			continue;
		}
		__assign_bit(i, t->patched, on);
	}
	arch_alloc_tramp_finish();
}

/* The tags of a table are those its sites name, contiguous. */
static int table_init(struct alloc_tramp_table *t, struct module *mod,
		      struct alloc_tramp_site *sites, unsigned int nr_sites)
{
	struct alloc_tag *lo = NULL, *hi = NULL;
	unsigned int i;

	t->mod = mod;
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

	t->patched = bitmap_zalloc(nr_sites, GFP_KERNEL);
	t->counters = __alloc_percpu(max(t->nr_tags, 1U) * sizeof(*t->counters),
				     __alignof__(*t->counters));
	if (!t->patched || !t->counters) {
		bitmap_free(t->patched);
		free_percpu(t->counters);
		return -ENOMEM;
	}

	for (i = 0; i < t->nr_tags; i++)
		t->tags[i].counters = t->counters + i;
	return 0;
}

static void table_add(struct alloc_tramp_table *t)
{
	list_add_tail_rcu(&t->list, &alloc_tramp_tables);
	if (alloc_tramp_enabled) {
		mutex_lock(&text_mutex);
		table_patch(t, true);
		mutex_unlock(&text_mutex);
	}
}

static int alloc_tramp_module_coming(struct module *mod)
{
	struct alloc_tramp_table *t;
	int ret;

	if (!mod->num_alloc_tramp_sites)
		return 0;

	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	ret = table_init(t, mod, mod->alloc_tramp_sites,
			 mod->num_alloc_tramp_sites);
	if (ret) {
		kfree(t);
		return ret;
	}
	table_add(t);
	return 0;
}

static void alloc_tramp_module_going(struct module *mod)
{
	struct alloc_tramp_table *t;

	list_for_each_entry(t, &alloc_tramp_tables, list) {
		if (t->mod != mod)
			continue;

		/* Its text goes away: nothing to unpatch, just forget it. */
		list_del_rcu(&t->list);
		bitmap_free(t->patched);
		t->patched = NULL;
		t->mod = NULL;
		list_add(&t->retired, &alloc_tramp_retired);
		return;
	}
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

		list_del(&t->retired);
		if (!unused) {
			pr_info("memory from %u tags outlives its module\n",
				t->nr_tags);
			list_add(&t->retired, &alloc_tramp_kept);
			break;
		}
		free_percpu(t->counters);
		/* Free after the RCU readers of alloc_tramp_tables. */
		kfree_rcu_mightsleep(t);
		break;
	}
	mutex_unlock(&alloc_tramp_mutex);
}

/**
 * alloc_tramp_is_site - is @addr an allocator call site?
 * @addr: an instruction address
 *
 * Lockless: fit for the INT3 handler.
 *
 * Return: true if @addr is the instruction of a known site.
 */
bool alloc_tramp_is_site(void *addr)
{
	struct alloc_tramp_table *t;
	bool found = false;
	unsigned int i;

	rcu_read_lock();
	list_for_each_entry_rcu(t, &alloc_tramp_tables, list) {
		for (i = 0; i < t->nr_sites && !found; i++)
			found = alloc_tramp_site_addr(&t->sites[i]) == addr;
		if (found)
			break;
	}
	rcu_read_unlock();
	return found;
}

static int alloc_tramp_module_notify(struct notifier_block *nb,
				     unsigned long action, void *data)
{
	int ret = 0;

	mutex_lock(&alloc_tramp_mutex);
	if (action == MODULE_STATE_COMING)
		ret = alloc_tramp_module_coming(data);
	else if (action == MODULE_STATE_GOING)
		alloc_tramp_module_going(data);
	mutex_unlock(&alloc_tramp_mutex);

	return notifier_from_errno(ret);
}

static struct notifier_block alloc_tramp_module_nb = {
	.notifier_call = alloc_tramp_module_notify,
};

static void __alloc_tramp_set(bool on)
{
	struct alloc_tramp_table *t;

	lockdep_assert_held(&alloc_tramp_mutex);

	/* The accounting goes on first and stays on: see the top. */
	if (on && !static_key_enabled(&mem_alloc_profiling_key))
		static_branch_enable(&mem_alloc_profiling_key);

	mutex_lock(&text_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list)
		table_patch(t, on);
	mutex_unlock(&text_mutex);
	alloc_tramp_enabled = on;
}

/**
 * alloc_tramp_set_enabled - switch the allocation trampolines on or off
 * @on: patch every call site to its trampoline, or back
 *
 * Return: 0, or -EBUSY while another switch is under way.
 */
int alloc_tramp_set_enabled(bool on)
{
	if (!mutex_trylock(&alloc_tramp_mutex))
		return -EBUSY;
	__alloc_tramp_set(on);
	mutex_unlock(&alloc_tramp_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(alloc_tramp_set_enabled);

static int __init alloc_tramp_init(void)
{
	int ret;

	ret = table_init(&vmlinux_table, NULL, __start_alloc_tramp_sites,
			 __stop_alloc_tramp_sites - __start_alloc_tramp_sites);
	if (ret)
		return ret;

	mutex_lock(&alloc_tramp_mutex);
	table_add(&vmlinux_table);
	if (alloc_tramp_boot_enabled)
		__alloc_tramp_set(true);
	mutex_unlock(&alloc_tramp_mutex);

	register_module_notifier(&alloc_tramp_module_nb);
	pr_info("%u sites, %u tags%s\n", vmlinux_table.nr_sites,
		vmlinux_table.nr_tags, alloc_tramp_enabled ? ", on" : "");
	return 0;
}
early_initcall(alloc_tramp_init);

/* /sys/kernel/mm/alloc_trampolines/enabled */

static ssize_t enabled_show(struct kobject *kobj, struct kobj_attribute *attr,
			    char *buf)
{
	unsigned long patched = 0, sites = 0;
	struct alloc_tramp_table *t;
	ssize_t len;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list) {
		table_forget_gone(t);
		patched += bitmap_weight(t->patched, t->nr_sites);
		sites += t->nr_sites;
	}
	len = sysfs_emit(buf, "%d (%lu of %lu sites patched)\n",
			 alloc_tramp_enabled, patched, sites);
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

/* /sys/kernel/debug/allocations: size calls file:line module:M func:F */

static void seq_human(struct seq_file *m, u64 bytes)
{
	static const char units[] = "KMGTPE";
	unsigned int i;
	u64 frac;

	if (bytes < 1024) {
		seq_printf(m, "%llu", bytes);
		return;
	}
	for (i = 0; bytes >= 1024 * 1024 && i < sizeof(units) - 2; i++)
		bytes >>= 10;
	frac = (bytes % 1024) * 10 / 1024;
	bytes /= 1024;
	if (bytes < 10)
		seq_printf(m, "%llu.%llu%c", bytes, frac, units[i]);
	else
		seq_printf(m, "%llu%c", bytes, units[i]);
}

static void show_table(struct seq_file *m, struct alloc_tramp_table *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_tags; i++) {
		struct alloc_tag *tag = &t->tags[i];
		struct alloc_tag_counters c = alloc_tag_read(tag);

		if (!c.calls)
			continue;
		seq_human(m, c.bytes);
		seq_printf(m, " %llu %s:%u module:%s func:%s\n", c.calls,
			   tag->ct.filename, tag->ct.lineno,
			   tag->ct.modname ?: "vmlinux", tag->ct.function);
	}
}

static int allocations_show(struct seq_file *m, void *v)
{
	struct alloc_tramp_table *t;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list)
		show_table(m, t);
	/* Unloaded modules whose memory is still allocated */
	list_for_each_entry(t, &alloc_tramp_kept, retired)
		show_table(m, t);
	mutex_unlock(&alloc_tramp_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(allocations);

/*
 * /sys/kernel/debug/alloc_trampolines/sites: each site, its allocator and
 * what its instruction calls now, read from the text: "off" (the
 * allocator, as built), "on" (the trampoline) or "gone" (freed init text).
 */
static int sites_show(struct seq_file *m, void *v)
{
	struct alloc_tramp_table *t;
	unsigned int i;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list) {
		for (i = 0; i < t->nr_sites; i++) {
			const struct alloc_tramp_site *site = &t->sites[i];
			bool live = site_text_live(t, site);
			void *calls = live ? arch_alloc_tramp_calls(site) : NULL;
			const char *state;

			if (!live)
				state = "gone";
			else if (calls == alloc_tramp_site_target(site))
				state = "off";
			else if (calls == alloc_tramp_site_tramp(site))
				state = "on";
			else
				state = "?";
			seq_printf(m, "%pS %ps %s\n", alloc_tramp_site_addr(site),
				   alloc_tramp_site_target(site), state);
		}
	}
	mutex_unlock(&alloc_tramp_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sites);

static int __init alloc_tramp_interfaces_init(void)
{
	struct dentry *dir;
	struct kobject *kobj;

	kobj = kobject_create_and_add("alloc_trampolines", mm_kobj);
	if (!kobj || sysfs_create_group(kobj, &alloc_tramp_attr_group))
		pr_err("cannot create /sys/kernel/mm/alloc_trampolines\n");

	debugfs_create_file("allocations", 0400, NULL, NULL, &allocations_fops);
	dir = debugfs_create_dir("alloc_trampolines", NULL);
	debugfs_create_file("sites", 0400, dir, NULL, &sites_fops);
	return 0;
}
late_initcall(alloc_tramp_interfaces_init);
