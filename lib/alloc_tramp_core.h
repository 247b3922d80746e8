/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The core of the allocation trampolines, lib/alloc_tramp.c (the sites,
 * their tables, patching, modules, switching), as the files of its
 * interfaces see it: the reports (alloc_tramp_report.c), the filter files
 * (alloc_tramp_control.c), fault injection (alloc_tramp_fail.c) and
 * context capture (alloc_tramp_ctx.c).  For lib/ only.
 */
#ifndef _LIB_ALLOC_TRAMP_CORE_H
#define _LIB_ALLOC_TRAMP_CORE_H

#include <linux/alloc_tramp.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>

#include "alloc_tramp_query.h"

struct dentry;
struct seq_file;

/**
 * struct alloc_tramp_table - the sites and tags of vmlinux or of a module
 * @list:     in alloc_tramp_tables (RCU: read by the debug checks)
 * @retired:  in alloc_tramp_retired, once its module went
 * @mod:      the module, NULL for vmlinux
 * @sites:    its site table
 * @nr_sites: entries in @sites
 * @tags:     its tags, contiguous
 * @nr_tags:  entries in @tags
 * @chosen:   bitmap of the sites chosen by the filters
 * @patched:  bitmap of the sites that call their trampolines
 * @profiled: bitmap of the sites whose calls are tagged: patched, and
 *            not only armed for fault injection
 * @fail:     bitmap of the sites the fail_sites lines arm
 * @armed:    bitmap of the sites whose stub leads to a fail entry
 * @init:     bitmap of the sites in the module's init text
 * @mm:       bitmap of the allocators' own sites (vmlinux): see table_pass
 * @init_gone: the init text is to be freed: that of the module at
 *            MODULE_STATE_LIVE, that of vmlinux before free_initmem()
 * @codetag:  codetag knows its tags, and will unload them
 * @name:     "vmlinux" or the module's name
 * @counters: a module's per-CPU counters of @tags, ALLOC_TRAMP_CHUNK_TAGS a
 *            chunk; those of vmlinux are static (objtool)
 */
struct alloc_tramp_table {
	struct list_head list;
	struct list_head retired;
	struct module *mod;
	struct alloc_tramp_site *sites;
	unsigned int nr_sites;
	struct alloc_tag *tags;
	unsigned int nr_tags;
	unsigned long *chosen;
	unsigned long *patched;
	unsigned long *profiled;
	unsigned long *fail;
	unsigned long *armed;
	unsigned long *init;
	unsigned long *mm;
	bool init_gone;
	bool codetag;
	char name[MODULE_NAME_LEN];
	struct alloc_tag_counters __percpu **counters;
};

/*
 * alloc_tramp_mutex serializes switching, the filters, module load and
 * unload, and the reports: everything below is read or changed under it.
 */
extern struct mutex alloc_tramp_mutex;
/* The tables of vmlinux and of the loaded modules */
extern struct list_head alloc_tramp_tables;
/* Tables of unloaded modules, until their tags are unloaded... */
extern struct list_head alloc_tramp_retired;
/* ... and after it, of those whose memory outlives them. */
extern struct list_head alloc_tramp_kept;
extern bool alloc_tramp_enabled;

/* set_site_filter, set_site_notrace, and the lines of fail_sites */
extern struct alloc_tramp_filter alloc_tramp_site_filter;
extern struct alloc_tramp_filter alloc_tramp_site_notrace;
extern struct alloc_tramp_filter alloc_tramp_fail_lines;

bool alloc_tramp_site_live(struct alloc_tramp_table *t,
			   const struct alloc_tramp_site *site);
unsigned int alloc_tramp_next_site(struct alloc_tramp_table *t, unsigned int i);
void alloc_tramp_forget_gone(struct alloc_tramp_table *t);
void alloc_tramp_site_desc(const struct alloc_tramp_site *site,
			   struct alloc_tramp_site_desc *d);
void alloc_tramp_rechoose(void);
int alloc_tramp_fail_apply(void);

/* alloc_tramp_report.c */
void alloc_tramp_show_tag(struct seq_file *m, struct alloc_tag *tag,
			  struct alloc_tag_counters c);
void alloc_tramp_show_site(struct seq_file *m,
			   const struct alloc_tramp_site *site);
void alloc_tramp_report_init(struct dentry *dir);

/*
 * alloc_tramp_control.c: a file of query lines, as set_ftrace_filter:
 * @show reads it, @set takes a write whole or refuses it whole, and an
 * open with O_TRUNC replaces the lines (one with no write clears them).
 * The file's private data is its struct alloc_tramp_query_file.  A file
 * whose lines act once instead of staying (allocations.ctx) has no
 * @filter, and its @set ignores @replace.
 */
struct alloc_tramp_query_file {
	struct alloc_tramp_filter *filter;
	int (*show)(struct seq_file *m, void *v);
	int (*set)(struct alloc_tramp_filter *f, const char *buf, size_t len,
		   bool replace);
};

extern const struct file_operations alloc_tramp_query_fops;
bool alloc_tramp_matches_a_site(const struct alloc_tramp_query *q, void *arg);
void alloc_tramp_control_init(struct dentry *dir);

/* alloc_tramp_fail.c and alloc_tramp_ctx.c */
#ifdef CONFIG_ALLOC_TRAMP_FAULT_INJECTION
void alloc_tramp_fail_init(struct dentry *dir);
#else
static inline void alloc_tramp_fail_init(struct dentry *dir) {}
#endif
void alloc_tramp_ctx_init(void);

#endif /* _LIB_ALLOC_TRAMP_CORE_H */
