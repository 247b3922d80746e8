// SPDX-License-Identifier: GPL-2.0
/*
 * The reports of the allocation trampolines: /sys/kernel/debug/allocations
 * (the tags, as /proc/allocinfo without its header), and in
 * /sys/kernel/debug/alloc_trampolines the sites and their state, the
 * sites that can be patched, those patched now, and the tables.
 */
#include <linux/alloc_tag.h>
#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include "alloc_tramp_core.h"

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

/**
 * alloc_tramp_show_tag - a tag's line of the allocations report
 * @m: the report
 * @tag: the tag
 * @c: its counters, as read
 *
 * "size calls file:line module:M func:F", the size human-readable.
 */
void alloc_tramp_show_tag(struct seq_file *m, struct alloc_tag *tag,
			  struct alloc_tag_counters c)
{
	seq_human(m, c.bytes);
	seq_printf(m, " %llu %s:%u module:%s func:%s\n", c.calls,
		   tag->ct.filename, tag->ct.lineno,
		   tag->ct.modname ?: "vmlinux", tag->ct.function);
}

static void show_table(struct seq_file *m, struct alloc_tramp_table *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_tags; i++) {
		struct alloc_tag *tag = &t->tags[i];
		struct alloc_tag_counters c = alloc_tag_read(tag);

		WARN_ONCE(IS_ENABLED(CONFIG_ALLOC_TRAMP_DEBUG) &&
			  ((s64)c.bytes < 0 || (s64)c.calls < 0),
			  "alloc_tramp: negative count at %s:%u: %lld bytes, %lld calls\n",
			  tag->ct.filename, tag->ct.lineno, (s64)c.bytes, (s64)c.calls);
		if (c.calls)
			alloc_tramp_show_tag(m, tag, c);
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

/* Where the stub of a site jumps, read from the text, if not its body */
static const char *site_stub_state(const struct alloc_tramp_site *site)
{
	enum alloc_tramp_stub_to to = ALLOC_TRAMP_STUB_BODY;

	if (!IS_ENABLED(CONFIG_ALLOC_TRAMP_FAULT_INJECTION) ||
	    arch_alloc_tramp_target(site, &to) < 0)
		return "";
	return to == ALLOC_TRAMP_STUB_FAIL ? " armed" :
	       to == ALLOC_TRAMP_STUB_FAIL_PLAIN ? " armed-plain" : "";
}

/*
 * /sys/kernel/debug/alloc_trampolines/sites: each site, its allocator and
 * what its instruction calls now, read from the text: "off" (the
 * allocator, as built), "on" (the trampoline), "parked" (the trampoline,
 * whose body goes straight on to the allocator) or "gone" (freed init
 * text), then "armed" if its stub leads to a fail entry that goes on to
 * the body, "armed-plain" if to the allocator (fault injection, not
 * profiled).
 */
static int sites_show(struct seq_file *m, void *v)
{
	struct alloc_tramp_table *t;
	unsigned int i;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list) {
		for (i = 0; i < t->nr_sites; i++) {
			const struct alloc_tramp_site *site = &t->sites[i];
			bool live = alloc_tramp_site_live(t, site);
			void *calls = live ? arch_alloc_tramp_calls(site) : NULL;
			const char *stub = live ? site_stub_state(site) : "";
			const char *state;

			if (!live)
				state = "gone";
			else if (calls == alloc_tramp_site_target(site))
				state = "off";
			else if (calls != alloc_tramp_site_tramp(site))
				state = "?";
			else if (alloc_tramp_parked && !*stub)
				state = "parked";
			else
				state = "on";
			seq_printf(m, "%pS %ps %s%s\n", alloc_tramp_site_addr(site),
				   alloc_tramp_site_target(site), state, stub);
		}
	}
	mutex_unlock(&alloc_tramp_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sites);

/**
 * alloc_tramp_show_site - the description of a site, as the files list it
 * @m: the file
 * @site: the site
 *
 * "file:line func module target", without a newline.
 */
void alloc_tramp_show_site(struct seq_file *m,
			   const struct alloc_tramp_site *site)
{
	struct alloc_tramp_site_desc d;

	alloc_tramp_site_desc(site, &d);
	seq_printf(m, "%s:%u %s %s %s", d.file, d.line, d.func, d.module,
		   d.target);
}

/* alloc_trampolines/available_sites: every site that can be patched */
static int available_sites_show(struct seq_file *m, void *v)
{
	struct alloc_tramp_table *t;
	unsigned int i;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list)
		for (i = alloc_tramp_next_site(t, 0); i < t->nr_sites;
		     i = alloc_tramp_next_site(t, i + 1)) {
			alloc_tramp_show_site(m, &t->sites[i]);
			seq_putc(m, '\n');
		}
	mutex_unlock(&alloc_tramp_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(available_sites);

/* alloc_trampolines/enabled_sites: the sites patched now, "bytes calls" */
static int enabled_sites_show(struct seq_file *m, void *v)
{
	struct alloc_tramp_table *t;
	unsigned int i;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list) {
		alloc_tramp_forget_gone(t);
		for_each_set_bit(i, t->profiled, t->nr_sites) {
			struct alloc_tag *tag = alloc_tramp_site_tag(&t->sites[i]);
			struct alloc_tag_counters c = alloc_tag_read(tag);

			alloc_tramp_show_site(m, &t->sites[i]);
			seq_printf(m, " %llu %llu\n", c.bytes, c.calls);
		}
	}
	mutex_unlock(&alloc_tramp_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(enabled_sites);

/*
 * /sys/kernel/debug/alloc_trampolines/tables: each table, "vmlinux" or
 * its module's name, its state and its size.  A module's table is "live"
 * while the module is, "retired" between its end and the unload of its
 * tags, and "kept" while memory from its tags outlives it.
 */
static void table_show_line(struct seq_file *m, struct alloc_tramp_table *t,
			    const char *state)
{
	seq_printf(m, "%s %s %u sites %u tags\n", t->name, state, t->nr_sites,
		   t->nr_tags);
}

static int tables_show(struct seq_file *m, void *v)
{
	struct alloc_tramp_table *t;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(t, &alloc_tramp_tables, list)
		table_show_line(m, t, "live");
	list_for_each_entry(t, &alloc_tramp_retired, retired)
		table_show_line(m, t, "retired");
	list_for_each_entry(t, &alloc_tramp_kept, retired)
		table_show_line(m, t, "kept");
	mutex_unlock(&alloc_tramp_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tables);

/**
 * alloc_tramp_report_init - make the reports
 * @dir: /sys/kernel/debug/alloc_trampolines
 */
void __init alloc_tramp_report_init(struct dentry *dir)
{
	debugfs_create_file("allocations", 0400, NULL, NULL, &allocations_fops);
	debugfs_create_file("sites", 0400, dir, NULL, &sites_fops);
	debugfs_create_file("tables", 0400, dir, NULL, &tables_fops);
	debugfs_create_file("available_sites", 0400, dir, NULL,
			    &available_sites_fops);
	debugfs_create_file("enabled_sites", 0400, dir, NULL,
			    &enabled_sites_fops);
}
