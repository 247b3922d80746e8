// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the allocation trampoline site queries: the parser, the
 * matcher and the all-or-nothing filter update; built in, also of the
 * page tag indexes.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/pgalloc_tag.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "alloc_tramp_query.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

KUNIT_DEFINE_ACTION_WRAPPER(kfree_action, kfree, const void *);

static const struct alloc_tramp_site_desc kmalloc_site = {
	.file = "mm/slab_common.c", .line = 63, .func = "kmem_cache_create",
	.module = "vmlinux", .target = "__kmalloc_noprof",
};

static const struct alloc_tramp_site_desc xfs_site = {
	.file = "/src/fs/xfs/xfs_buf.c", .line = 400, .func = "xfs_buf_alloc",
	.module = "xfs", .target = "kmem_cache_alloc_noprof",
};

#define FILTER	ALLOC_TRAMP_QUERY_FILTER
#define CTX	ALLOC_TRAMP_QUERY_CTX
#define FAIL	ALLOC_TRAMP_QUERY_FAIL

static struct alloc_tramp_query *parse(struct kunit *test, const char *s,
				       enum alloc_tramp_query_kind kind)
{
	struct alloc_tramp_query *q = alloc_tramp_query_parse(s, strlen(s), kind);

	if (!IS_ERR(q))
		kunit_add_action(test, kfree_action, q);
	return q;
}

static bool matches(struct kunit *test, const char *s,
		    const struct alloc_tramp_site_desc *d)
{
	struct alloc_tramp_query *q = parse(test, s, FILTER);

	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(q), "\"%s\" refused", s);
	return alloc_tramp_query_match(q, d);
}

static void query_keys(struct kunit *test)
{
	struct alloc_tramp_query *q;

	q = parse(test, "  kmem_* file mm/*.c\tline 10-70 module vmlinux target __kmalloc* ",
		  FILTER);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_FALSE(test, q->negate);
	KUNIT_EXPECT_STREQ(test, q->func, "kmem_*");
	KUNIT_EXPECT_STREQ(test, q->file, "mm/*.c");
	KUNIT_EXPECT_EQ(test, q->first_line, 10);
	KUNIT_EXPECT_EQ(test, q->last_line, 70);
	KUNIT_EXPECT_STREQ(test, q->module, "vmlinux");
	KUNIT_EXPECT_STREQ(test, q->target, "__kmalloc*");
	KUNIT_EXPECT_STREQ(test, q->text,
			   "kmem_* file mm/*.c\tline 10-70 module vmlinux target __kmalloc*");

	q = parse(test, "func xfs_* line 400", FILTER);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_STREQ(test, q->func, "xfs_*");
	KUNIT_EXPECT_EQ(test, q->first_line, 400);
	KUNIT_EXPECT_EQ(test, q->last_line, 400);
	KUNIT_EXPECT_NULL(test, q->file);

	q = parse(test, "!kmem_*", FILTER);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_TRUE(test, q->negate);
	KUNIT_EXPECT_STREQ(test, q->func, "kmem_*");

	q = parse(test, "file mm/foo.c line 63 enable every 10", CTX);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_EQ(test, q->action, ALLOC_TRAMP_CTX_ENABLE);
	KUNIT_EXPECT_EQ(test, q->every, 10);

	q = parse(test, "module xfs disable", CTX);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_EQ(test, q->action, ALLOC_TRAMP_CTX_DISABLE);
	KUNIT_EXPECT_EQ(test, q->every, 1);

	q = parse(test, "file mm/foo.c line 63 fail", FAIL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_EQ(test, q->action, ALLOC_TRAMP_FAIL_ARM);
	KUNIT_EXPECT_EQ(test, q->every, 1);
	KUNIT_EXPECT_EQ(test, q->times, 0);
	KUNIT_EXPECT_EQ(test, q->probability, 100);
	KUNIT_EXPECT_EQ(test, q->after, 0);

	q = parse(test, "module xfs fail after 0 probability 0 times 3 every 2", FAIL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_EQ(test, q->every, 2);
	KUNIT_EXPECT_EQ(test, q->times, 3);
	KUNIT_EXPECT_EQ(test, q->probability, 0);
	KUNIT_EXPECT_EQ(test, q->after, 0);

	q = parse(test, "xfs_* nofail", FAIL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_EQ(test, q->action, ALLOC_TRAMP_FAIL_DISARM);
	KUNIT_EXPECT_STREQ(test, q->func, "xfs_*");

	/* Outside allocations.ctx and fail_sites, these are function globs. */
	q = parse(test, "enable", FILTER);
	KUNIT_ASSERT_FALSE(test, IS_ERR(q));
	KUNIT_EXPECT_STREQ(test, q->func, "enable");
	q = parse(test, "fail", CTX);
	KUNIT_EXPECT_EQ(test, PTR_ERR(q), -EINVAL);

	/* Each line parsed has an id of its own. */
	KUNIT_EXPECT_NE(test, parse(test, "a", FILTER)->id, parse(test, "a", FILTER)->id);
}

static void query_match(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, matches(test, "*", &kmalloc_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "kmem_*", &kmalloc_site));
	KUNIT_EXPECT_FALSE(test, matches(test, "kmem_*", &xfs_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "*xfs*", &xfs_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "func xfs_buf_?lloc", &xfs_site));
	/* A file matches whole, or by a trailing part of its path. */
	KUNIT_EXPECT_TRUE(test, matches(test, "file mm/slab_common.c", &kmalloc_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "file slab_common.c", &kmalloc_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "file xfs/*", &xfs_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "file /src/fs/*", &xfs_site));
	KUNIT_EXPECT_FALSE(test, matches(test, "file common.c", &kmalloc_site));
	KUNIT_EXPECT_FALSE(test, matches(test, "file fs/*", &kmalloc_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "line 63", &kmalloc_site));
	KUNIT_EXPECT_FALSE(test, matches(test, "line 64", &kmalloc_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "line 63-63", &kmalloc_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "line 1-400", &xfs_site));
	KUNIT_EXPECT_FALSE(test, matches(test, "line 401-500", &xfs_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "module vmlinux", &kmalloc_site));
	KUNIT_EXPECT_FALSE(test, matches(test, "module vmlinux", &xfs_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "module x?s", &xfs_site));
	KUNIT_EXPECT_TRUE(test, matches(test, "target kmem_cache_*", &xfs_site));
	KUNIT_EXPECT_FALSE(test, matches(test, "target kmem_cache_*", &kmalloc_site));
	/* Keys on one line must all match. */
	KUNIT_EXPECT_TRUE(test, matches(test, "kmem_* line 60-70 module vmlinux", &kmalloc_site));
	KUNIT_EXPECT_FALSE(test, matches(test, "kmem_* line 60-70 module xfs", &kmalloc_site));
	/* The matcher ignores '!': the filter applies it. */
	KUNIT_EXPECT_TRUE(test, matches(test, "!kmem_*", &kmalloc_site));
}

static void query_malformed(struct kunit *test)
{
	static const char * const bad[] = {
		"file", "func", "module", "target", "line",	/* no value */
		"line 5-", "line -5", "line 7-3", "line 0", "line x",
		"line 1-2-3", "line 5 line 6", "func a func b", "a b",
		"fil mm/foo.c", "file a file b", "!", "  ! ",
		"caf\xc3\xa9", "\xff", "a\x01", "a\x7f",
	};
	static const char * const bad_ctx[] = {
		"file mm/foo.c", "enable disable", "enable enable",
		"every 10", "disable every 2", "enable every 0",
		"enable every", "enable every x", "!foo enable",
		"enable times 2", "enable after 1",
	};
	static const char * const bad_fail[] = {
		"file mm/foo.c", "fail nofail", "fail fail", "enable",
		"times 1", "nofail times 1", "nofail every 2", "fail every 0",
		"fail times 0", "fail probability 101", "fail probability -1",
		"fail every", "fail after x", "fail every 2 every 3",
		"fail times 4294967296", "!foo fail",
	};
	char *longline;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(parse(test, bad[i], FILTER)),
				    -EINVAL, "\"%s\"", bad[i]);
	for (i = 0; i < ARRAY_SIZE(bad_ctx); i++)
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(parse(test, bad_ctx[i], CTX)),
				    -EINVAL, "\"%s\"", bad_ctx[i]);
	for (i = 0; i < ARRAY_SIZE(bad_fail); i++)
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR(parse(test, bad_fail[i], FAIL)),
				    -EINVAL, "\"%s\"", bad_fail[i]);

	longline = kunit_kzalloc(test, ALLOC_TRAMP_QUERY_MAX + 2, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, longline);
	memset(longline, 'a', ALLOC_TRAMP_QUERY_MAX);
	KUNIT_EXPECT_FALSE(test, IS_ERR(parse(test, longline, FILTER)));
	longline[ALLOC_TRAMP_QUERY_MAX] = 'a';
	KUNIT_EXPECT_EQ(test, PTR_ERR(parse(test, longline, FILTER)), -EINVAL);

	/* A NUL inside the line */
	KUNIT_EXPECT_EQ(test, PTR_ERR(alloc_tramp_query_parse("a\0b", 3, FILTER)),
			-EINVAL);
}

static void filter_free(void *f)
{
	alloc_tramp_filter_clear(f);
}

static struct alloc_tramp_filter *new_filter(struct kunit *test)
{
	struct alloc_tramp_filter *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, f);
	INIT_LIST_HEAD(&f->queries);
	kunit_add_action(test, filter_free, f);
	return f;
}

static int update(struct alloc_tramp_filter *f, const char *s, bool replace)
{
	return alloc_tramp_filter_update(f, s, strlen(s), replace, FILTER,
					 NULL, NULL);
}

/* The filter's lines, joined by '|' */
static const char *lines(struct kunit *test, struct alloc_tramp_filter *f)
{
	char *buf = kunit_kzalloc(test, 1024, GFP_KERNEL);
	struct alloc_tramp_query *q;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	list_for_each_entry(q, &f->queries, list) {
		if (*buf)
			strlcat(buf, "|", 1024);
		strlcat(buf, q->text, 1024);
	}
	return buf;
}

static bool refuse_xfs(const struct alloc_tramp_query *q, void *arg)
{
	return !alloc_tramp_query_match(q, &xfs_site);
}

static void filter_update(struct kunit *test)
{
	struct alloc_tramp_filter *f = new_filter(test);
	char *big;

	/* Blank lines, of spaces too, are skipped. */
	KUNIT_EXPECT_EQ(test, update(f, "kmem_*\n\nmodule xfs\n  ", true), 0);
	KUNIT_EXPECT_STREQ(test, lines(test, f), "kmem_*|module xfs");
	KUNIT_EXPECT_EQ(test, update(f, "line 5", false), 0);
	KUNIT_EXPECT_STREQ(test, lines(test, f), "kmem_*|module xfs|line 5");

	/* A bad line anywhere refuses the whole write, appending or not. */
	KUNIT_EXPECT_EQ(test, update(f, "a\nline 5-\n", false), -EINVAL);
	KUNIT_EXPECT_EQ(test, update(f, "a\nline 5-\n", true), -EINVAL);
	KUNIT_EXPECT_EQ(test, update(f, "b\n\xfe\n", true), -EINVAL);
	KUNIT_EXPECT_STREQ(test, lines(test, f), "kmem_*|module xfs|line 5");

	/* So does a line that matches no site. */
	KUNIT_EXPECT_EQ(test, alloc_tramp_filter_update(f, "kmem_*\n*xfs*", 12,
							true, FILTER, refuse_xfs,
							NULL), -EINVAL);
	KUNIT_EXPECT_STREQ(test, lines(test, f), "kmem_*|module xfs|line 5");

	big = kunit_kzalloc(test, ALLOC_TRAMP_WRITE_MAX + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, big);
	memset(big, '\n', ALLOC_TRAMP_WRITE_MAX + 1);
	KUNIT_EXPECT_EQ(test, alloc_tramp_filter_update(f, big, ALLOC_TRAMP_WRITE_MAX + 1,
							true, FILTER, NULL, NULL),
			-EINVAL);
	KUNIT_EXPECT_STREQ(test, lines(test, f), "kmem_*|module xfs|line 5");

	KUNIT_EXPECT_EQ(test, update(f, "!foo", true), 0);
	KUNIT_EXPECT_STREQ(test, lines(test, f), "!foo");
	/* An empty write that replaces clears. */
	KUNIT_EXPECT_EQ(test, update(f, "\n", true), 0);
	KUNIT_EXPECT_TRUE(test, alloc_tramp_filter_empty(f));
}

static void filter_chosen(struct kunit *test)
{
	struct alloc_tramp_filter *f = new_filter(test);

	/* Empty: all, or none */
	KUNIT_EXPECT_TRUE(test, alloc_tramp_filter_chosen(f, &kmalloc_site, true));
	KUNIT_EXPECT_FALSE(test, alloc_tramp_filter_chosen(f, &kmalloc_site, false));

	/* Positive lines add up. */
	KUNIT_ASSERT_EQ(test, update(f, "kmem_*", true), 0);
	KUNIT_EXPECT_TRUE(test, alloc_tramp_filter_chosen(f, &kmalloc_site, true));
	KUNIT_EXPECT_FALSE(test, alloc_tramp_filter_chosen(f, &xfs_site, true));
	KUNIT_ASSERT_EQ(test, update(f, "module xfs", false), 0);
	KUNIT_EXPECT_TRUE(test, alloc_tramp_filter_chosen(f, &xfs_site, true));

	/* '!' lines take out, whatever their order. */
	KUNIT_ASSERT_EQ(test, update(f, "!line 1-100", false), 0);
	KUNIT_EXPECT_FALSE(test, alloc_tramp_filter_chosen(f, &kmalloc_site, true));
	KUNIT_EXPECT_TRUE(test, alloc_tramp_filter_chosen(f, &xfs_site, true));
	KUNIT_ASSERT_EQ(test, update(f, "!line 1-100\nkmem_*", true), 0);
	KUNIT_EXPECT_FALSE(test, alloc_tramp_filter_chosen(f, &kmalloc_site, true));

	/* Only '!' lines: all but those. */
	KUNIT_ASSERT_EQ(test, update(f, "!kmem_*", true), 0);
	KUNIT_EXPECT_FALSE(test, alloc_tramp_filter_chosen(f, &kmalloc_site, true));
	KUNIT_EXPECT_TRUE(test, alloc_tramp_filter_chosen(f, &xfs_site, true));
	KUNIT_EXPECT_FALSE(test, alloc_tramp_filter_chosen(f, &xfs_site, false));
}

static struct kunit_case alloc_tramp_query_cases[] = {
	KUNIT_CASE(query_keys),
	KUNIT_CASE(query_match),
	KUNIT_CASE(query_malformed),
	KUNIT_CASE(filter_update),
	KUNIT_CASE(filter_chosen),
	{}
};

static struct kunit_suite alloc_tramp_query_suite = {
	.name = "alloc_tramp_query",
	.test_cases = alloc_tramp_query_cases,
};

#if IS_BUILTIN(CONFIG_ALLOC_TRAMP_KUNIT_TEST)
/* The index of a tag in page->flags, and back (lib/alloc_tramp_pgtag.c) */
static void pgtag_ranges(struct kunit *test)
{
	static struct alloc_tag a[3], b[2], none[2];
	unsigned long nr = __stop_alloc_tags - __start_alloc_tags;
	unsigned int ia, ib;

	if (!pgalloc_tag_in_flags())
		kunit_skip(test, "page tags are in page_ext");

	KUNIT_EXPECT_EQ(test, pgalloc_tag_idx(&__start_alloc_tags[0]), 1);
	KUNIT_EXPECT_EQ(test, pgalloc_tag_idx(&__stop_alloc_tags[-1]), nr);
	KUNIT_EXPECT_PTR_EQ(test, pgalloc_idx_tag(1), &__start_alloc_tags[0]);
	KUNIT_EXPECT_PTR_EQ(test, pgalloc_idx_tag(nr), &__stop_alloc_tags[-1]);

	KUNIT_ASSERT_EQ(test, alloc_tramp_pgtag_add(a, ARRAY_SIZE(a)), 0);
	KUNIT_ASSERT_EQ(test, alloc_tramp_pgtag_add(b, ARRAY_SIZE(b)), 0);
	ia = pgalloc_tag_idx(&a[0]);
	ib = pgalloc_tag_idx(&b[0]);
	KUNIT_EXPECT_GT(test, ia, nr);
	KUNIT_EXPECT_GT(test, ib, nr);
	KUNIT_EXPECT_TRUE(test, ib >= ia + 3 || ib + 2 <= ia);
	KUNIT_EXPECT_EQ(test, pgalloc_tag_idx(&a[2]), ia + 2);
	KUNIT_EXPECT_PTR_EQ(test, pgalloc_idx_tag(ia + 1), &a[1]);
	KUNIT_EXPECT_PTR_EQ(test, pgalloc_idx_tag(ib + 1), &b[1]);

	/* More than there are: refused, and nothing taken */
	KUNIT_EXPECT_EQ(test, alloc_tramp_pgtag_add(a, BIT(ALLOC_TAG_REF_WIDTH)),
			-ENOSPC);
	KUNIT_EXPECT_PTR_EQ(test, pgalloc_idx_tag(ia), &a[0]);

	/* Deleted, the indexes are given again */
	alloc_tramp_pgtag_del(a, ARRAY_SIZE(a));
	KUNIT_ASSERT_EQ(test, alloc_tramp_pgtag_add(a, ARRAY_SIZE(a)), 0);
	KUNIT_EXPECT_EQ(test, pgalloc_tag_idx(&a[0]), ia);
	alloc_tramp_pgtag_del(a, ARRAY_SIZE(a));
	alloc_tramp_pgtag_del(b, ARRAY_SIZE(b));

	/* Tags that got no range (index 0) give nothing back */
	alloc_tramp_pgtag_del(none, ARRAY_SIZE(none));
	KUNIT_EXPECT_PTR_EQ(test, pgalloc_idx_tag(1), &__start_alloc_tags[0]);
	KUNIT_ASSERT_EQ(test, alloc_tramp_pgtag_add(a, ARRAY_SIZE(a)), 0);
	KUNIT_EXPECT_EQ(test, pgalloc_tag_idx(&a[0]), ia);
	alloc_tramp_pgtag_del(a, ARRAY_SIZE(a));
}

static struct kunit_case alloc_tramp_pgtag_cases[] = {
	KUNIT_CASE(pgtag_ranges),
	{}
};

static struct kunit_suite alloc_tramp_pgtag_suite = {
	.name = "alloc_tramp_pgtag",
	.test_cases = alloc_tramp_pgtag_cases,
};

kunit_test_suites(&alloc_tramp_query_suite, &alloc_tramp_pgtag_suite);
#else
kunit_test_suite(alloc_tramp_query_suite);
#endif

MODULE_DESCRIPTION("KUnit tests of the allocation trampoline site queries");
MODULE_LICENSE("GPL");
