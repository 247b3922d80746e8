// SPDX-License-Identifier: GPL-2.0
/*
 * Site queries of the allocation trampolines, ftrace style: a bare word
 * is a glob on the function ("*xfs*"), a leading '!' takes the sites a
 * line matches out, and the codetag query keys narrow a line down:
 *
 *	[!][GLOB] [file F] [func F] [line N|N-M] [module M] [target T]
 *
 * allocations.ctx lines end in "enable [every N]" or "disable".
 */
#define pr_fmt(fmt) "alloc_tramp: " fmt

#include <linux/err.h>
#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "alloc_tramp_query.h"

static char *next_token(char **s)
{
	char *tok = *s + strspn(*s, " \t");
	size_t n = strcspn(tok, " \t");

	if (!*tok)
		return NULL;
	*s = tok + n;
	if (**s)
		*(*s)++ = '\0';
	return tok;
}

static int parse_lines(char *s, unsigned int *first, unsigned int *last)
{
	char *dash = strchr(s, '-');

	if (dash)
		*dash++ = '\0';
	if (kstrtouint(s, 10, first) ||
	    kstrtouint(dash ?: s, 10, last) || !*first || *first > *last)
		return -EINVAL;
	return 0;
}

/* Only printable ASCII, spaces and tabs: no control bytes, no UTF-8. */
static bool query_chars_ok(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((u8)s[i] < 0x20 && s[i] != '\t') || (u8)s[i] >= 0x7f)
			return false;
	return true;
}

/* The start of a refused line, with '?' for what is not printable ASCII */
static void query_warn(const char *why, const char *line, size_t len)
{
	char shown[65];
	size_t i;

	len = min(len, sizeof(shown) - 1);
	for (i = 0; i < len; i++)
		shown[i] = query_chars_ok(&line[i], 1) ? line[i] : '?';
	shown[len] = '\0';
	pr_warn("refused %s: \"%s\"\n", why, shown);
}

static int query_fill(struct alloc_tramp_query *q, bool ctx, const char **why)
{
	static const char * const keys[] = { "file", "func", "module", "target" };
	const char **vals[] = { &q->file, &q->func, &q->module, &q->target };
	char *s = q->buf, *tok, *val;
	bool any = false;
	unsigned int i;

	s += strspn(s, " \t");
	if (*s == '!') {
		*why = "'!' in a capture line";
		if (ctx)
			return -EINVAL;
		q->negate = true;
		s++;
	}

	while ((tok = next_token(&s))) {
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(tok, keys[i]))
				break;
		if (i < ARRAY_SIZE(keys) || !strcmp(tok, "line") ||
		    (ctx && !strcmp(tok, "every"))) {
			val = next_token(&s);
			*why = "a key without its value";
			if (!val)
				return -EINVAL;
		}

		if (i < ARRAY_SIZE(keys)) {
			*why = "a key given twice";
			if (*vals[i])
				return -EINVAL;
			*vals[i] = val;
			any = true;
		} else if (!strcmp(tok, "line")) {
			*why = "a bad line or line range";
			if (q->first_line || parse_lines(val, &q->first_line,
							 &q->last_line))
				return -EINVAL;
			any = true;
		} else if (ctx && !strcmp(tok, "every")) {
			*why = "a bad 'every N'";
			if (q->every || kstrtouint(val, 10, &q->every) ||
			    !q->every)
				return -EINVAL;
		} else if (ctx && (!strcmp(tok, "enable") ||
				   !strcmp(tok, "disable"))) {
			*why = "more than one of enable and disable";
			if (q->action)
				return -EINVAL;
			q->action = tok[0] == 'e' ? ALLOC_TRAMP_CTX_ENABLE :
						    ALLOC_TRAMP_CTX_DISABLE;
		} else {
			*why = "a second function glob";
			if (q->func)
				return -EINVAL;
			q->func = tok;
			any = true;
		}
	}

	*why = "'!' with nothing to match";
	if (q->negate && !any)
		return -EINVAL;
	*why = "a capture line without enable or disable";
	if (ctx && !q->action)
		return -EINVAL;
	*why = "'every' without enable";
	if (q->every && q->action != ALLOC_TRAMP_CTX_ENABLE)
		return -EINVAL;
	if (!q->first_line)
		q->last_line = UINT_MAX;
	if (!q->every)
		q->every = 1;
	return 0;
}

/**
 * alloc_tramp_query_parse - parse one query line
 * @line: the line, not NUL-terminated, without its newline
 * @len:  its length
 * @ctx:  an allocations.ctx line, which names an action
 *
 * Return: the query, to be freed with kfree(), or an ERR_PTR(): -EINVAL
 * for a malformed line, with the reason logged.
 */
struct alloc_tramp_query *alloc_tramp_query_parse(const char *line, size_t len,
						  bool ctx)
{
	struct alloc_tramp_query *q;
	const char *why = "a line too long";
	int ret = -EINVAL;

	if (len > ALLOC_TRAMP_QUERY_MAX)
		goto bad;
	why = "a byte that is not printable ASCII";
	if (!query_chars_ok(line, len))
		goto bad;

	q = kzalloc(struct_size(q, buf, 2 * (len + 1)), GFP_KERNEL);
	if (!q)
		return ERR_PTR(-ENOMEM);
	memcpy(q->buf, line, len);
	q->text = q->buf + len + 1;
	memcpy(q->text, line, len);
	q->text = strim(q->text);

	ret = query_fill(q, ctx, &why);
	if (!ret)
		return q;
	kfree(q);
bad:
	query_warn(why, line, len);
	return ERR_PTR(ret);
}
EXPORT_SYMBOL_IF_KUNIT(alloc_tramp_query_parse);

static bool glob_ok(const char *pat, const char *s)
{
	return !pat || (s && glob_match(pat, s));
}

/* "slub.c" and "mm/slub.c" match "mm/slub.c" and "/src/mm/slub.c" */
static bool file_ok(const char *pat, const char *file)
{
	const char *p;

	if (!pat)
		return true;
	if (!file)
		return false;
	if (glob_match(pat, file))
		return true;
	for (p = strchr(file, '/'); p; p = strchr(p + 1, '/'))
		if (glob_match(pat, p + 1))
			return true;
	return false;
}

/**
 * alloc_tramp_query_match - does a site match every key of a query?
 * @q: the query
 * @d: the site
 *
 * The '!' of @q is not applied here: see alloc_tramp_filter_chosen().
 *
 * Return: true if @d matches @q.
 */
bool alloc_tramp_query_match(const struct alloc_tramp_query *q,
			     const struct alloc_tramp_site_desc *d)
{
	return glob_ok(q->func, d->func) && file_ok(q->file, d->file) &&
	       glob_ok(q->module, d->module) && glob_ok(q->target, d->target) &&
	       d->line >= q->first_line && d->line <= q->last_line;
}
EXPORT_SYMBOL_IF_KUNIT(alloc_tramp_query_match);

static void free_queries(struct list_head *head)
{
	struct alloc_tramp_query *q, *tmp;

	list_for_each_entry_safe(q, tmp, head, list)
		kfree(q);
	INIT_LIST_HEAD(head);
}

/**
 * alloc_tramp_filter_clear - drop every query of a filter
 * @f: the filter
 */
void alloc_tramp_filter_clear(struct alloc_tramp_filter *f)
{
	free_queries(&f->queries);
}
EXPORT_SYMBOL_IF_KUNIT(alloc_tramp_filter_clear);

static bool blank(const char *s, size_t len)
{
	return strspn(s, " \t") >= len;
}

/**
 * alloc_tramp_filter_update - add the query lines of a write to a filter
 * @f:       the filter
 * @buf:     the lines written, not NUL-terminated
 * @len:     their length, at most %ALLOC_TRAMP_WRITE_MAX
 * @replace: the lines replace those of @f instead of adding to them
 * @ctx:     allocations.ctx lines
 * @matches: if not NULL, a line it returns false for is refused
 * @arg:     for @matches
 *
 * All or nothing: if a line is refused, @f is left as it was.
 *
 * Return: 0, -EINVAL for a malformed line or one that matches no site,
 * or -ENOMEM.
 */
int alloc_tramp_filter_update(struct alloc_tramp_filter *f, const char *buf,
			      size_t len, bool replace, bool ctx,
			      alloc_tramp_matches_fn matches, void *arg)
{
	const char *p = buf, *end = buf + len;
	struct alloc_tramp_query *q;
	LIST_HEAD(queries);

	if (len > ALLOC_TRAMP_WRITE_MAX) {
		pr_warn("refused a write of over %d bytes\n",
			ALLOC_TRAMP_WRITE_MAX);
		return -EINVAL;
	}

	for (; p < end; p += len + 1) {
		const char *nl = memchr(p, '\n', end - p);

		len = (nl ?: end) - p;
		if (blank(p, len))
			continue;
		q = alloc_tramp_query_parse(p, len, ctx);
		if (IS_ERR(q)) {
			free_queries(&queries);
			return PTR_ERR(q);
		}
		list_add_tail(&q->list, &queries);
		if (matches && !matches(q, arg)) {
			pr_warn("refused \"%s\": it matches no site\n",
				q->text);
			free_queries(&queries);
			return -EINVAL;
		}
	}

	if (replace)
		alloc_tramp_filter_clear(f);
	list_splice_tail(&queries, &f->queries);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(alloc_tramp_filter_update);

/**
 * alloc_tramp_filter_chosen - is a site chosen by a filter?
 * @f:               the filter
 * @d:               the site
 * @empty_means_all: what a filter without positive lines chooses
 *
 * A site is chosen if a positive line matches it and no '!' line does.
 *
 * Return: true if @f chooses @d.
 */
bool alloc_tramp_filter_chosen(const struct alloc_tramp_filter *f,
			       const struct alloc_tramp_site_desc *d,
			       bool empty_means_all)
{
	const struct alloc_tramp_query *q;
	bool positive = false, chosen = false;

	list_for_each_entry(q, &f->queries, list) {
		if (q->negate) {
			if (alloc_tramp_query_match(q, d))
				return false;
			continue;
		}
		positive = true;
		chosen = chosen || alloc_tramp_query_match(q, d);
	}
	return positive ? chosen : empty_means_all;
}
EXPORT_SYMBOL_IF_KUNIT(alloc_tramp_filter_chosen);
