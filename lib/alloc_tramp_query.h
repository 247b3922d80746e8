/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Site queries of the allocation trampolines: the lines written to
 * set_site_filter, set_site_notrace, allocations.ctx and fail_sites.  The parser and
 * the matcher know strings only, so that KUnit can test them alone.
 */
#ifndef _LIB_ALLOC_TRAMP_QUERY_H
#define _LIB_ALLOC_TRAMP_QUERY_H

#include <linux/list.h>
#include <linux/types.h>

/* The longest line, without its newline, and the largest write. */
#define ALLOC_TRAMP_QUERY_MAX	255
#define ALLOC_TRAMP_WRITE_MAX	4096

/* What a site is matched on: its tag's strings and its allocator. */
struct alloc_tramp_site_desc {
	const char *file;
	unsigned int line;
	const char *func;
	const char *module;
	const char *target;
};

enum alloc_tramp_query_kind {
	ALLOC_TRAMP_QUERY_FILTER,	/* set_site_filter, set_site_notrace */
	ALLOC_TRAMP_QUERY_CTX,		/* allocations.ctx */
	ALLOC_TRAMP_QUERY_FAIL,		/* alloc_trampolines/fail_sites */
};

enum alloc_tramp_action {
	ALLOC_TRAMP_ACTION_NONE,
	ALLOC_TRAMP_CTX_ENABLE,
	ALLOC_TRAMP_CTX_DISABLE,
	ALLOC_TRAMP_FAIL_ARM,
	ALLOC_TRAMP_FAIL_DISARM,
};

/**
 * struct alloc_tramp_query - one parsed query line
 * @list:       in its struct alloc_tramp_filter
 * @negate:     the line began with '!': it takes sites out
 * @func:       glob on the function, or NULL for any
 * @file:       glob on the file name or on a trailing part of its path
 * @module:     glob on the module name, "vmlinux" for the kernel
 * @target:     glob on the allocator the site calls
 * @first_line: lowest line matched
 * @last_line:  highest line matched
 * @action:     allocations.ctx and fail_sites: what to do at the sites
 * @every:      capture, or fail, one allocation in @every (1)
 * @times:      fail_sites: fail at most @times calls, 0 for no limit (0)
 * @probability: fail_sites: in percent, of the calls @every lets by (100)
 * @after:      fail_sites: fail none of the first @after calls (0)
 * @id:         a number no other line parsed has
 * @text:       the line as written, for reading back
 * @buf:        @text split into the strings above
 */
struct alloc_tramp_query {
	struct list_head list;
	bool negate;
	const char *func;
	const char *file;
	const char *module;
	const char *target;
	unsigned int first_line;
	unsigned int last_line;
	enum alloc_tramp_action action;
	unsigned long every;
	unsigned long times;
	unsigned long probability;
	unsigned long after;
	u64 id;
	char *text;
	char buf[];
};

/* A list of queries; a site is chosen by the positive lines minus the '!' ones. */
struct alloc_tramp_filter {
	struct list_head queries;
};

#define ALLOC_TRAMP_FILTER_INIT(name) { .queries = LIST_HEAD_INIT(name.queries) }

struct alloc_tramp_query *alloc_tramp_query_parse(const char *line, size_t len,
						  enum alloc_tramp_query_kind kind);
bool alloc_tramp_query_match(const struct alloc_tramp_query *q,
			     const struct alloc_tramp_site_desc *d);

typedef bool (*alloc_tramp_matches_fn)(const struct alloc_tramp_query *q,
				       void *arg);
int alloc_tramp_filter_update(struct alloc_tramp_filter *f, const char *buf,
			      size_t len, bool replace,
			      enum alloc_tramp_query_kind kind,
			      alloc_tramp_matches_fn matches, void *arg);
void alloc_tramp_filter_clear(struct alloc_tramp_filter *f);
bool alloc_tramp_filter_chosen(const struct alloc_tramp_filter *f,
			       const struct alloc_tramp_site_desc *d,
			       bool empty_means_all);

static inline bool alloc_tramp_filter_empty(const struct alloc_tramp_filter *f)
{
	return list_empty(&f->queries);
}

#endif /* _LIB_ALLOC_TRAMP_QUERY_H */
