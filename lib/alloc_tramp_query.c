// SPDX-License-Identifier: GPL-2.0
/*
 * Site queries of the allocation trampolines, ftrace style: a bare word
 * is a glob on the function ("*xfs*"), a leading '!' takes the sites a
 * line matches out, and the codetag query keys narrow a line down:
 *
 *	[!][GLOB] [file F] [func F] [line N|N-M] [module M] [target T]
 *
 * allocations.ctx lines end in "enable [every N]" or "disable", and
 * fail_sites lines in "fail [every N] [times N] [probability P]
 * [after N]" or "nofail".
 */
#define pr_fmt(fmt) "alloc_tramp: " fmt

#include <linux/atomic.h>
#include <linux/err.h>
#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "alloc_tramp_query.h"

/* Each line parsed gets a new id: fail_sites knows its lines by it. */
static atomic64_t query_ids = ATOMIC64_INIT(0);

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

/* The actions a line of each kind may end in, and their values */
static const struct {
	const char *word;
	enum alloc_tramp_query_kind kind;
	enum alloc_tramp_action action;
} actions[] = {
	{ "enable",	ALLOC_TRAMP_QUERY_CTX,	ALLOC_TRAMP_CTX_ENABLE },
	{ "disable",	ALLOC_TRAMP_QUERY_CTX,	ALLOC_TRAMP_CTX_DISABLE },
	{ "fail",	ALLOC_TRAMP_QUERY_FAIL,	ALLOC_TRAMP_FAIL_ARM },
	{ "nofail",	ALLOC_TRAMP_QUERY_FAIL,	ALLOC_TRAMP_FAIL_DISARM },
};

/*
 * The numbers that follow the action: "every N" of capture and fail
 * lines, "times N", "probability P" and "after N" of fail lines.
 * Each is at most UINT_MAX, and unset (ULONG_MAX) until given.
 */
static int query_number(struct alloc_tramp_query *q, const char *tok,
			const char *val, const char **why)
{
	static const char * const words[] = { "every", "times", "probability",
					       "after" };
	unsigned long *nums[] = { &q->every, &q->times, &q->probability,
				  &q->after };
	unsigned long v;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(tok, words[i]))
			break;
	*why = "a bad number";
	if (kstrtoul(val, 10, &v) || v > UINT_MAX)
		return -EINVAL;
	*why = "a number given twice";
	if (*nums[i] != ULONG_MAX)
		return -EINVAL;
	*why = "'every' or 'times' of 0";
	if (!v && nums[i] != &q->after && nums[i] != &q->probability)
		return -EINVAL;
	*why = "a probability over 100";
	if (nums[i] == &q->probability && v > 100)
		return -EINVAL;
	*nums[i] = v;
	return 0;
}

static bool query_number_word(const char *tok, enum alloc_tramp_query_kind kind)
{
	if (kind == ALLOC_TRAMP_QUERY_FILTER)
		return false;
	return !strcmp(tok, "every") ||
	       (kind == ALLOC_TRAMP_QUERY_FAIL &&
		(!strcmp(tok, "times") || !strcmp(tok, "probability") ||
		 !strcmp(tok, "after")));
}

static int query_fill(struct alloc_tramp_query *q,
		      enum alloc_tramp_query_kind kind, const char **why)
{
	static const char * const keys[] = { "file", "func", "module", "target" };
	const char **vals[] = { &q->file, &q->func, &q->module, &q->target };
	char *s = q->buf, *tok, *val;
	bool any = false, number = false;
	unsigned int i, a;
	int ret;

	q->every = ULONG_MAX;
	q->times = ULONG_MAX;
	q->probability = ULONG_MAX;
	q->after = ULONG_MAX;
	s += strspn(s, " \t");
	if (*s == '!') {
		*why = "'!' in a capture or fail line";
		if (kind != ALLOC_TRAMP_QUERY_FILTER)
			return -EINVAL;
		q->negate = true;
		s++;
	}

	while ((tok = next_token(&s))) {
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (!strcmp(tok, keys[i]))
				break;
		for (a = 0; a < ARRAY_SIZE(actions); a++)
			if (actions[a].kind == kind && !strcmp(tok, actions[a].word))
				break;
		if (i < ARRAY_SIZE(keys) || !strcmp(tok, "line") ||
		    query_number_word(tok, kind)) {
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
		} else if (query_number_word(tok, kind)) {
			ret = query_number(q, tok, val, why);
			if (ret)
				return ret;
			number = true;
		} else if (a < ARRAY_SIZE(actions)) {
			*why = "a second action";
			if (q->action)
				return -EINVAL;
			q->action = actions[a].action;
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
	if (kind == ALLOC_TRAMP_QUERY_CTX && !q->action)
		return -EINVAL;
	*why = "a fail line without fail or nofail";
	if (kind == ALLOC_TRAMP_QUERY_FAIL && !q->action)
		return -EINVAL;
	*why = "a number without enable or fail";
	if (number && q->action != ALLOC_TRAMP_CTX_ENABLE &&
	    q->action != ALLOC_TRAMP_FAIL_ARM)
		return -EINVAL;
	if (!q->first_line)
		q->last_line = UINT_MAX;
	if (q->every == ULONG_MAX)
		q->every = 1;
	if (q->times == ULONG_MAX)
		q->times = 0;
	if (q->probability == ULONG_MAX)
		q->probability = 100;
	if (q->after == ULONG_MAX)
		q->after = 0;
	return 0;
}

/**
 * alloc_tramp_query_parse - parse one query line
 * @line: the line, not NUL-terminated, without its newline
 * @len:  its length
 * @kind: a filter line, an allocations.ctx line or a fail_sites line,
 *        which name an action
 *
 * Return: the query, to be freed with kfree(), or an ERR_PTR(): -EINVAL
 * for a malformed line, with the reason logged.
 */
struct alloc_tramp_query *alloc_tramp_query_parse(const char *line, size_t len,
						  enum alloc_tramp_query_kind kind)
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

	ret = query_fill(q, kind, &why);
	if (!ret) {
		q->id = atomic64_inc_return(&query_ids);
		return q;
	}
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
 * @kind:    what the lines are (alloc_tramp_query_parse())
 * @matches: if not NULL, a line it returns false for is refused
 * @arg:     for @matches
 *
 * All or nothing: if a line is refused, @f is left as it was.
 *
 * Return: 0, -EINVAL for a malformed line or one that matches no site,
 * or -ENOMEM.
 */
int alloc_tramp_filter_update(struct alloc_tramp_filter *f, const char *buf,
			      size_t len, bool replace,
			      enum alloc_tramp_query_kind kind,
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
		q = alloc_tramp_query_parse(p, len, kind);
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
