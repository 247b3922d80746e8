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
 * 1 to N in their order (include/linux/pgalloc_tag.h).  The tags of a
 * module get a range of indexes after those while the module, or memory
 * allocated from its tags, lives: lib/alloc_tramp.c adds a range when a
 * module with sites comes and deletes it when it frees the module's
 * table.  The hooks find a module tag's range under RCU.
 */
#define pr_fmt(fmt) "alloc_tramp: " fmt

#include <linux/alloc_tramp.h>
#include <linux/bitmap.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/mutex.h>
#include <linux/pgalloc_tag.h>
#include <linux/rculist.h>
#include <linux/slab.h>

DEFINE_STATIC_KEY_TRUE(pgalloc_tag_flags_key);

#define PGTAG_NR	BIT(ALLOC_TAG_REF_WIDTH)

/**
 * struct pgtag_range - the page tag indexes of a module's tags
 * @list:  in pgtag_ranges
 * @tags:  the first tag
 * @first: the index of @tags
 * @nr:    how many tags
 * @rcu:   freed after the readers of pgtag_ranges
 */
struct pgtag_range {
	struct list_head list;
	struct alloc_tag *tags;
	unsigned int first;
	unsigned int nr;
	struct rcu_head rcu;
};

static LIST_HEAD(pgtag_ranges);
static DEFINE_MUTEX(pgtag_mutex);
/* The indexes in use: 0 and those of vmlinux from the start */
static DECLARE_BITMAP(pgtag_used, PGTAG_NR);

/**
 * alloc_tramp_pgtag_init - decide where the tags of pages go
 *
 * In page->flags if the layout left the bits and the tags of vmlinux fill
 * at most half of the indexes, leaving the rest to modules; in page_ext
 * otherwise.  Called before the first tagged page: by the page_ext setup
 * and by the switch at boot, whichever comes first.
 *
 * Return: true if the tags go in page->flags.
 */
bool __init alloc_tramp_pgtag_init(void)
{
	static bool done __initdata;
	unsigned long nr = __stop_alloc_tags - __start_alloc_tags;
	int offs = ALLOC_TAG_REF_PGOFF;

	if (done)
		return pgalloc_tag_in_flags();
	done = true;
	if (!pgalloc_tag_flags_fit() || nr >= PGTAG_NR / 2) {
		static_branch_disable(&pgalloc_tag_flags_key);
		pr_info("page tags in page_ext: %lu tags, %d bits free in page->flags\n",
			nr, offs - NR_PAGEFLAGS + ALLOC_TAG_REF_WIDTH);
		return false;
	}
	bitmap_set(pgtag_used, 0, nr + 1);
	pr_info("page tags in page->flags, bits %d-%d: %lu of %lu indexes for vmlinux\n",
		offs, offs + ALLOC_TAG_REF_WIDTH - 1, nr, PGTAG_NR - 1);
	return true;
}

/**
 * alloc_tramp_pgtag_add - give the tags of a module page tag indexes
 * @tags: its first tag
 * @nr:   how many
 *
 * Return: 0, or -ENOSPC if the indexes ran out, -ENOMEM.
 */
int alloc_tramp_pgtag_add(struct alloc_tag *tags, unsigned int nr)
{
	struct pgtag_range *r;
	unsigned long first;

	if (!pgalloc_tag_in_flags() || !nr)
		return 0;
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;

	mutex_lock(&pgtag_mutex);
	first = bitmap_find_next_zero_area(pgtag_used, PGTAG_NR, 1, nr, 0);
	if (first >= PGTAG_NR) {
		mutex_unlock(&pgtag_mutex);
		kfree(r);
		pr_err("no page tag indexes left for %u tags\n", nr);
		return -ENOSPC;
	}
	bitmap_set(pgtag_used, first, nr);
	r->tags = tags;
	r->first = first;
	r->nr = nr;
	list_add_rcu(&r->list, &pgtag_ranges);
	mutex_unlock(&pgtag_mutex);
	return 0;
}

/**
 * alloc_tramp_pgtag_del - a module's tags are gone
 * @tags: its first tag
 *
 * No page holds one of them: their indexes may be given again.
 */
void alloc_tramp_pgtag_del(struct alloc_tag *tags)
{
	struct pgtag_range *r;

	mutex_lock(&pgtag_mutex);
	list_for_each_entry(r, &pgtag_ranges, list) {
		if (r->tags != tags)
			continue;
		list_del_rcu(&r->list);
		bitmap_clear(pgtag_used, r->first, r->nr);
		kfree_rcu(r, rcu);
		break;
	}
	mutex_unlock(&pgtag_mutex);
}

/**
 * __alloc_tramp_pgtag_idx - the page tag index of a module's tag
 * @tag: the tag
 *
 * Return: its index, or 0 for a tag that has none.
 */
unsigned int __alloc_tramp_pgtag_idx(struct alloc_tag *tag)
{
	struct pgtag_range *r;
	unsigned int idx = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(r, &pgtag_ranges, list) {
		if (tag >= r->tags && tag < r->tags + r->nr) {
			idx = r->first + (tag - r->tags);
			break;
		}
	}
	rcu_read_unlock();
	WARN_ONCE(!idx, "alloc_tramp: tag %p has no page tag index\n", tag);
	return idx;
}

/**
 * __alloc_tramp_pgtag_tag - the module tag of a page tag index
 * @idx: the index, above those of vmlinux
 *
 * Return: the tag, or NULL for an index no range holds.
 */
struct alloc_tag *__alloc_tramp_pgtag_tag(unsigned int idx)
{
	struct alloc_tag *tag = NULL;
	struct pgtag_range *r;

	rcu_read_lock();
	list_for_each_entry_rcu(r, &pgtag_ranges, list) {
		if (idx - r->first < r->nr) {
			tag = r->tags + (idx - r->first);
			break;
		}
	}
	rcu_read_unlock();
	WARN_ONCE(!tag, "alloc_tramp: page tag index %u has no tag\n", idx);
	return tag;
}
