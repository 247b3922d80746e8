// SPDX-License-Identifier: GPL-2.0
/*
 * The tags of pages in page->flags, for the allocation trampolines.
 *
 * Upstream keeps the tag of a page in its page_ext, and every free of a
 * page looks the page_ext up, under RCU, to find whether it holds a tag:
 * with the trampolines most pages hold none.  Where page->flags has
 * ALLOC_TAG_REF_WIDTH bits that nothing else uses, the tag is kept there
 * instead, as an index, as upstream does from 6.13 on: the free of an
 * untagged page tests bits of a word it reads anyway, and page_ext is not
 * allocated for the tags at all.
 *
 * Index 0 is no tag.  The tags of vmlinux, the alloc_tags section, are
 * 1 to N in their order.  The tags of a module get a range of indexes
 * after those while the module, or memory allocated from its tags, lives:
 * lib/alloc_tramp.c adds a range when a module with sites comes and
 * deletes it when it frees the module's table.  When no range is left, a
 * module's tags keep index 0: its pages are not counted, and it loads all
 * the same.  Each tag keeps its index
 * in the top bits of its codetag's flags, for the allocation hooks; the
 * free hooks find a module's tag from its index in a directory of chunks
 * of tag pointers.  Neither takes a lock: an index is set before a page
 * can hold it and cleared once none can.
 */
#define pr_fmt(fmt) "alloc_tramp: " fmt

#include <linux/alloc_tramp.h>
#include <linux/bitmap.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/pgalloc_tag.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

DEFINE_STATIC_KEY_TRUE(pgalloc_tag_flags_key);
unsigned int pgalloc_tag_vmlinux_nr __ro_after_init;

#define PGTAG_NR	BIT(ALLOC_TAG_REF_WIDTH)
#define PGTAG_CHUNK	256

/* All under pgtag_mutex */
static DEFINE_MUTEX(pgtag_mutex);
/* The indexes in use: 0 and those of vmlinux from the start */
static DECLARE_BITMAP(pgtag_used, PGTAG_NR);
/* The tag of each module index, in chunks made as ranges need them */
static struct alloc_tag **pgtag_dir[PGTAG_NR / PGTAG_CHUNK];

/*
 * alloc_tramp.page_tag_module_indexes: at most this many indexes for the
 * tags of modules, 0 for all there are.  For tests: a few make the ranges
 * run out after a few modules.
 */
static unsigned int pgtag_module_max;

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "alloc_tramp."
module_param_named(page_tag_module_indexes, pgtag_module_max, uint, 0600);

/* The indexes given to modules now; pgtag_mutex held */
static unsigned int pgtag_modules_used(void)
{
	unsigned int n = bitmap_weight(pgtag_used, PGTAG_NR);

	return n ? n - pgalloc_tag_vmlinux_nr - 1 : 0;
}

/* alloc_tramp.page_tag_indexes_used: pgtag_modules_used(), read-only */
static int pgtag_used_get(char *buf, const struct kernel_param *kp)
{
	unsigned int n;

	mutex_lock(&pgtag_mutex);
	n = pgtag_modules_used();
	mutex_unlock(&pgtag_mutex);
	return sysfs_emit(buf, "%u\n", n);
}

static const struct kernel_param_ops pgtag_used_ops = {
	.get	= pgtag_used_get,
};
module_param_cb(page_tag_indexes_used, &pgtag_used_ops, NULL, 0400);

static void tag_set_idx(struct alloc_tag *tag, unsigned int idx)
{
	unsigned int keep = BIT(CODETAG_PGTAG_SHIFT) - 1;

	WRITE_ONCE(tag->ct.flags, (tag->ct.flags & keep) | idx << CODETAG_PGTAG_SHIFT);
}

/**
 * alloc_tramp_pgtag_init - decide where the tags of pages go
 *
 * In page->flags if the layout left the bits and the tags of vmlinux fill
 * at most half of the indexes, leaving the rest to modules; in page_ext
 * otherwise.  Called before the first tagged page: by the switch at
 * boot, by the trampolines' early_initcall and by the page_ext setup,
 * whichever comes first.
 *
 * Return: true if the tags go in page->flags.
 */
bool __init alloc_tramp_pgtag_init(void)
{
	static bool done __initdata;
	unsigned long i, nr = __stop_alloc_tags - __start_alloc_tags;
	int offs = ALLOC_TAG_REF_PGOFF;

	BUILD_BUG_ON(CODETAG_PGTAG_SHIFT + ALLOC_TAG_REF_WIDTH !=
		     BITS_PER_TYPE(__start_alloc_tags->ct.flags));
	if (done)
		return pgalloc_tag_in_flags();
	done = true;
	if (!pgalloc_tag_flags_fit() || nr >= PGTAG_NR / 2) {
		static_branch_disable(&pgalloc_tag_flags_key);
		pr_info("page tags in page_ext: %lu tags, %d bits free in page->flags\n",
			nr, (int)LRU_REFS_PGOFF - NR_PAGEFLAGS);
		return false;
	}
	for (i = 0; i < nr; i++)
		tag_set_idx(&__start_alloc_tags[i], i + 1);
	pgalloc_tag_vmlinux_nr = nr;
	bitmap_set(pgtag_used, 0, nr + 1);
	pr_info("page tags in page->flags, bits %d-%d: %lu of %lu indexes for vmlinux\n",
		offs, offs + ALLOC_TAG_REF_WIDTH - 1, nr, PGTAG_NR - 1);
	return true;
}

/* Chunks of the directory for [first, first + nr); pgtag_mutex held */
static int pgtag_dir_fill(unsigned int first, unsigned int nr)
{
	unsigned int c;

	for (c = first / PGTAG_CHUNK; c <= (first + nr - 1) / PGTAG_CHUNK; c++) {
		if (pgtag_dir[c])
			continue;
		pgtag_dir[c] = kcalloc(PGTAG_CHUNK, sizeof(*pgtag_dir[c]), GFP_KERNEL);
		if (!pgtag_dir[c])
			return -ENOMEM;
	}
	return 0;
}

/**
 * alloc_tramp_pgtag_add - give the tags of a module page tag indexes
 * @tags: its first tag
 * @nr:   how many
 *
 * Return: 0, or -ENOSPC if the indexes ran out, -ENOMEM.  On failure
 * the tags keep index 0, and pages allocated under them hold no tag.
 */
int alloc_tramp_pgtag_add(struct alloc_tag *tags, unsigned int nr)
{
	unsigned long first;
	unsigned int i;
	int ret;

	if (!pgalloc_tag_in_flags() || !nr)
		return 0;

	mutex_lock(&pgtag_mutex);
	first = bitmap_find_next_zero_area(pgtag_used, PGTAG_NR, 1, nr, 0);
	if (pgtag_module_max && pgtag_modules_used() + nr > pgtag_module_max)
		first = PGTAG_NR;
	ret = first < PGTAG_NR ? pgtag_dir_fill(first, nr) : -ENOSPC;
	if (ret) {
		mutex_unlock(&pgtag_mutex);
		return ret;
	}
	bitmap_set(pgtag_used, first, nr);
	for (i = 0; i < nr; i++) {
		tag_set_idx(&tags[i], first + i);
		WRITE_ONCE(pgtag_dir[(first + i) / PGTAG_CHUNK][(first + i) % PGTAG_CHUNK],
			   &tags[i]);
	}
	mutex_unlock(&pgtag_mutex);
	return 0;
}

/**
 * alloc_tramp_pgtag_del - a module's tags are gone
 * @tags: its first tag
 * @nr:   how many, as given to alloc_tramp_pgtag_add()
 *
 * No page holds one of them: their indexes, from that of @tags on, may
 * be given again.  Tags that got no indexes have nothing to give back.
 */
void alloc_tramp_pgtag_del(struct alloc_tag *tags, unsigned int nr)
{
	unsigned int i, idx, first;

	if (!pgalloc_tag_in_flags() || !nr)
		return;

	first = pgalloc_tag_idx(tags);
	if (!first)
		return;
	mutex_lock(&pgtag_mutex);
	for (i = 0; i < nr; i++) {
		idx = first + i;
		WRITE_ONCE(pgtag_dir[idx / PGTAG_CHUNK][idx % PGTAG_CHUNK], NULL);
	}
	bitmap_clear(pgtag_used, first, nr);
	mutex_unlock(&pgtag_mutex);
}

/**
 * __alloc_tramp_pgtag_tag - the module tag of a page tag index
 * @idx: the index, above those of vmlinux
 *
 * Return: the tag, or NULL for an index no range holds.
 */
struct alloc_tag *__alloc_tramp_pgtag_tag(unsigned int idx)
{
	struct alloc_tag **chunk = NULL, *tag = NULL;

	if (idx < PGTAG_NR)
		chunk = READ_ONCE(pgtag_dir[idx / PGTAG_CHUNK]);
	if (chunk)
		tag = READ_ONCE(chunk[idx % PGTAG_CHUNK]);
	WARN_ONCE(!tag, "alloc_tramp: page tag index %u has no tag\n", idx);
	return tag;
}
