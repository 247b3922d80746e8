// SPDX-License-Identifier: GPL-2.0
/*
 * Per-site allocation fault injection: make the allocator calls of chosen
 * sites fail, by their source line, function, module or allocator.
 *
 * An armed site calls its trampoline, whose stub jumps to a fail entry of
 * its allocator (arch code) instead of the tagged-call body.  The fail
 * entry asks __alloc_tramp_should_fail(): a call that fails returns what
 * its allocator returns on failure, without calling it; any other goes
 * on, tagged if the site is profiled.  Sites that are not armed run as
 * before, patched or not: nothing here costs them anything.
 *
 * The state of an armed site is kept per tag, hashed by the tag: the
 * sites of one source line share it.  The fail_sites file, here too, keeps
 * the lines; alloc_tramp.c decides from them which sites are armed, under
 * alloc_tramp_mutex, which every function here but
 * __alloc_tramp_should_fail() is called with.
 */
#define pr_fmt(fmt) "alloc_tramp: " fmt

#include <linux/alloc_tag.h>
#include <linux/alloc_tramp.h>
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/errno.h>
#include <linux/gfp.h>
#include <linux/glob.h>
#include <linux/hashtable.h>
#include <linux/mempool.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "alloc_tramp_core.h"
#include "alloc_tramp_fail.h"

/* The gfp column of <linux/alloc_tramp_targets.h> */
#define ALLOC_TRAMP_GFP_0	0
#define ALLOC_TRAMP_GFP_1	1
#define ALLOC_TRAMP_GFP_2	2
#define ALLOC_TRAMP_GFP_3	3
#define ALLOC_TRAMP_GFP_4	4
#define ALLOC_TRAMP_GFP_5	5
#define ALLOC_TRAMP_GFP_B1	(1 + IS_ENABLED(CONFIG_SLAB_BUCKETS))
#define ALLOC_TRAMP_GFP_NONE	(-1)

/* ... and its fails column */
enum alloc_tramp_fails {
	ALLOC_TRAMP_FAILS_NULL,
	ALLOC_TRAMP_FAILS_SIZE0,
	ALLOC_TRAMP_FAILS_SIZE1,
	ALLOC_TRAMP_FAILS_ENOMEM,
	ALLOC_TRAMP_FAILS_KREALLOC,
	ALLOC_TRAMP_FAILS_VREALLOC,
	ALLOC_TRAMP_FAILS_KVREALLOC,
	ALLOC_TRAMP_FAILS_MEMPOOL,
	ALLOC_TRAMP_FAILS_NEVER,
};

struct alloc_tramp_fail_target {
	s8 gfp;
	u8 fails;
};

/*
 * Indexed as the fail entries count them: in the list's order.  The
 * columns are pasted here, not passed on: NULL and ENOMEM are macros.
 */
#define ALLOC_TRAMP_TARGET(name, stack_words, gfp, fails)		\
	{ ALLOC_TRAMP_GFP_##gfp, ALLOC_TRAMP_FAILS_##fails },
#define ALLOC_TRAMP_TARGET_IF(config, name, stack_words, gfp, fails)	\
	{ ALLOC_TRAMP_GFP_##gfp, ALLOC_TRAMP_FAILS_##fails },
#define ALLOC_TRAMP_TARGET_MEMINIT(name, stack_words, gfp, fails)	\
	{ ALLOC_TRAMP_GFP_##gfp, ALLOC_TRAMP_FAILS_##fails },
static const struct alloc_tramp_fail_target fail_targets[] = {
#include <linux/alloc_tramp_targets.h>
};

#undef ALLOC_TRAMP_TARGET
#undef ALLOC_TRAMP_TARGET_IF
#undef ALLOC_TRAMP_TARGET_MEMINIT

/**
 * struct alloc_tramp_fail - the fault injection state of an armed tag
 * @node:        in fail_tags, hashed by @tag (RCU)
 * @snode:       in fail_staged, until published
 * @tag:         the tag
 * @line:        the id of the fail_sites line that armed it
 * @every:       fail one call in @every ...
 * @times:       ... at most @times times, 0 for no limit ...
 * @probability: ... each with this probability, in percent ...
 * @after:       ... none of the first @after calls
 * @calls:       calls seen while armed
 * @failed:      calls failed
 * @kept:        its line still arms it (while fail_sites changes)
 * @rcu:         to free it after the fail entries that may read it
 */
struct alloc_tramp_fail {
	struct hlist_node node;
	struct hlist_node snode;
	struct alloc_tag *tag;
	u64 line;
	unsigned long every;
	unsigned long times;
	unsigned long probability;
	unsigned long after;
	atomic_long_t calls;
	atomic_long_t failed;
	bool kept;
	struct rcu_head rcu;
};

static DEFINE_HASHTABLE(fail_tags, 6);
static DEFINE_HASHTABLE(fail_staged, 6);

static struct alloc_tramp_fail *fail_find(struct alloc_tag *tag)
{
	struct alloc_tramp_fail *f;

	/* The fail entries read under RCU, the rest under the mutex */
	hash_for_each_possible_rcu(fail_tags, f, node, (unsigned long)tag,
				   lockdep_is_held(&alloc_tramp_mutex))
		if (f->tag == tag)
			return f;
	return NULL;
}

/*
 * fail-nth (Documentation/fault-injection/fault-injection.rst): the task
 * fails its N-th call of an armed site, as upstream's fault points count.
 * Return: 1 to fail now, 0 not yet, -1 if the task has no count.
 */
static int fail_nth(void)
{
	unsigned int nth;

	if (!in_task())
		return -1;
	nth = READ_ONCE(current->fail_nth);
	if (!nth)
		return -1;
	WRITE_ONCE(current->fail_nth, --nth);
	return !nth;
}

static bool fail_now(struct alloc_tramp_fail *f)
{
	unsigned long n = atomic_long_inc_return(&f->calls);

	switch (fail_nth()) {
	case 0:
		return false;
	case 1:
		atomic_long_inc(&f->failed);
		return true;
	}

	if (n <= f->after || (n - f->after) % f->every)
		return false;
	if (f->probability < 100 &&
	    get_random_u32_below(100) >= f->probability)
		return false;
	if (!f->times) {
		atomic_long_inc(&f->failed);
		return true;
	}
	return atomic_long_add_unless(&f->failed, 1, f->times);
}

/* Does krealloc(@p, @size) free @p, or keep it where it is (__do_krealloc())? */
static bool krealloc_no_alloc(const void *p, size_t size)
{
	return !size || (!ZERO_OR_NULL_PTR(p) && ksize(p) >= size);
}

/* Does vrealloc(@p, @size) free @p, or fit the area it has? */
static bool vrealloc_no_alloc(const void *p, size_t size)
{
	struct vm_struct *vm;

	if (!size)
		return true;
	vm = p ? find_vm_area(p) : NULL;
	return vm && size <= get_vm_area_size(vm);
}

/*
 * Would the real function satisfy the call, or fail it, without asking
 * for memory?  Then a failure injected there is one it cannot produce.
 */
static bool fail_impossible(const struct alloc_tramp_fail_target *ft,
			    const unsigned long *args, gfp_t gfp)
{
	const void *p = (const void *)args[0];

	if (gfp & __GFP_NOFAIL)
		return true;
	switch (ft->fails) {
	case ALLOC_TRAMP_FAILS_NEVER:
		return true;
	case ALLOC_TRAMP_FAILS_SIZE0:
		return !args[0];
	case ALLOC_TRAMP_FAILS_SIZE1:
		return !args[1];
	case ALLOC_TRAMP_FAILS_KREALLOC:
		return krealloc_no_alloc(p, args[1]);
	case ALLOC_TRAMP_FAILS_VREALLOC:
		return vrealloc_no_alloc(p, args[1]);
	case ALLOC_TRAMP_FAILS_KVREALLOC:
		return is_vmalloc_addr(p) ? vrealloc_no_alloc(p, args[1]) :
					    krealloc_no_alloc(p, args[1]);
	case ALLOC_TRAMP_FAILS_MEMPOOL:
		/* It may sleep for an element, or has one to give */
		return gfpflags_allow_blocking(gfp) ||
		       READ_ONCE(((mempool_t *)args[0])->curr_nr);
	}
	return false;
}

/**
 * __alloc_tramp_should_fail - does a call of an armed site fail?
 * @tag:    the site's tag
 * @args:   the call's register arguments, as the fail entry saved them
 * @target: the index of its allocator in <linux/alloc_tramp_targets.h>
 *
 * Called by the fail entries of the arch code, in the allocator's
 * context.  A call that the real function would not fail for memory
 * (__GFP_NOFAIL, a mempool_alloc() that may sleep or has an element, a
 * resize to 0 or in place, a size of 0) always goes on, and counts for
 * nothing.
 *
 * Return: %ALLOC_TRAMP_FAIL_CALL to call the allocator, or what the
 * failed call returns: 0 (NULL), or -ENOMEM for an allocator that returns
 * an error.
 */
long __alloc_tramp_should_fail(struct alloc_tag *tag, const unsigned long *args,
			       unsigned int target)
{
	const struct alloc_tramp_fail_target *ft = &fail_targets[target];
	gfp_t gfp = ft->gfp < 0 ? GFP_KERNEL : (gfp_t)args[ft->gfp];
	long ret = ALLOC_TRAMP_FAIL_CALL;
	struct alloc_tramp_fail *f;

	if (fail_impossible(ft, args, gfp))
		return ret;

	rcu_read_lock();
	f = fail_find(tag);
	if (f && fail_now(f))
		ret = ft->fails == ALLOC_TRAMP_FAILS_ENOMEM ? -ENOMEM : 0;
	rcu_read_unlock();
	return ret;
}

/**
 * alloc_tramp_fail_target_ok - can the calls of an allocator be failed?
 * @target: its index, or the error arch_alloc_tramp_target() returned
 *
 * Return: false for a site whose stub has no fail entry and for an
 * allocator that never fails for memory, true for the others.
 */
bool alloc_tramp_fail_target_ok(int target)
{
	return target >= 0 && target < ARRAY_SIZE(fail_targets) &&
	       fail_targets[target].fails != ALLOC_TRAMP_FAILS_NEVER;
}

/**
 * alloc_tramp_fail_stage - a tag is to be armed by a fail_sites line
 * @tag: the tag
 * @q:   the last line that matches one of its sites
 *
 * A tag already armed by @q keeps its state and counts.  Otherwise a new
 * state is made, to be published by alloc_tramp_fail_publish() or freed
 * by alloc_tramp_fail_abort().
 *
 * Return: 0 or -ENOMEM.
 */
int alloc_tramp_fail_stage(struct alloc_tag *tag, const struct alloc_tramp_query *q)
{
	struct alloc_tramp_fail *f = fail_find(tag);

	if (f && f->line == q->id) {
		f->kept = true;
		return 0;
	}
	hash_for_each_possible(fail_staged, f, snode, (unsigned long)tag)
		if (f->tag == tag)
			return 0;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->tag = tag;
	f->line = q->id;
	f->every = q->every;
	f->times = q->times;
	f->probability = q->probability;
	f->after = q->after;
	hash_add(fail_staged, &f->snode, (unsigned long)tag);
	return 0;
}

/**
 * alloc_tramp_fail_publish - the staged states replace those of their tags
 *
 * Before the sites are patched: an armed stub finds its state.
 */
void alloc_tramp_fail_publish(void)
{
	struct alloc_tramp_fail *f, *old;
	struct hlist_node *tmp;
	int bkt;

	hash_for_each_safe(fail_staged, bkt, tmp, f, snode) {
		hash_del(&f->snode);
		f->kept = true;
		old = fail_find(f->tag);
		if (!old) {
			hash_add_rcu(fail_tags, &f->node, (unsigned long)f->tag);
			continue;
		}
		hlist_replace_rcu(&old->node, &f->node);
		kfree_rcu(old, rcu);
	}
}

/**
 * alloc_tramp_fail_drop - forget the states no line arms any longer
 * @unstaged: drop the states that were neither kept nor staged, after the
 *            sites were patched: only a change of every site decides
 */
void alloc_tramp_fail_drop(bool unstaged)
{
	struct alloc_tramp_fail *f;
	struct hlist_node *tmp;
	int bkt;

	hash_for_each_safe(fail_tags, bkt, tmp, f, node) {
		if (unstaged && !f->kept) {
			hash_del_rcu(&f->node);
			kfree_rcu(f, rcu);
			continue;
		}
		f->kept = false;
	}
}

/**
 * alloc_tramp_fail_abort - free what was staged, change nothing
 */
void alloc_tramp_fail_abort(void)
{
	struct alloc_tramp_fail *f;
	struct hlist_node *tmp;
	int bkt;

	hash_for_each_safe(fail_staged, bkt, tmp, f, snode) {
		hash_del(&f->snode);
		kfree(f);
	}
	hash_for_each(fail_tags, bkt, f, node)
		f->kept = false;
}

/**
 * alloc_tramp_fail_forget - the tags of a module that went
 * @tags: its tags
 * @nr:   how many
 *
 * Its text is gone: nothing calls its sites any longer.
 */
void alloc_tramp_fail_forget(struct alloc_tag *tags, unsigned int nr)
{
	struct alloc_tramp_fail *f;
	struct hlist_node *tmp;
	int bkt;

	hash_for_each_safe(fail_tags, bkt, tmp, f, node) {
		if (f->tag < tags || f->tag >= tags + nr)
			continue;
		hash_del_rcu(&f->node);
		kfree_rcu(f, rcu);
	}
}

/* The settings and counts of an armed tag, in fail_sites */
static void fail_show(struct seq_file *m, struct alloc_tag *tag)
{
	struct alloc_tramp_fail *f = fail_find(tag);

	if (!f)
		return;
	seq_printf(m, " fail every %lu times %lu probability %lu after %lu calls %ld failed %ld",
		   f->every, f->times, f->probability, f->after,
		   atomic_long_read(&f->calls), atomic_long_read(&f->failed));
}

/*
 * alloc_trampolines/fail_sites, written as the filter files are: each line
 * "QUERY fail [every N] [times N] [probability P] [after N]" or "QUERY
 * nofail"; the last line that matches a site decides.  Read: the lines as
 * comments, then each armed site, its settings and counts.
 */
static int fail_sites_show(struct seq_file *m, void *v)
{
	struct alloc_tramp_query *q;
	struct alloc_tramp_table *t;
	unsigned int i;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(q, &alloc_tramp_fail_lines.queries, list)
		seq_printf(m, "# %s\n", q->text);
	list_for_each_entry(t, &alloc_tramp_tables, list) {
		alloc_tramp_forget_gone(t);
		for_each_set_bit(i, t->armed, t->nr_sites) {
			alloc_tramp_show_site(m, &t->sites[i]);
			fail_show(m, alloc_tramp_site_tag(&t->sites[i]));
			seq_putc(m, '\n');
		}
	}
	mutex_unlock(&alloc_tramp_mutex);
	return 0;
}

/*
 * A line must match a site it can arm or disarm now, unless it names a
 * module that is not loaded: that module may come later, and its sites
 * are armed before its init runs.
 */
static bool fail_line_matches(const struct alloc_tramp_query *q, void *arg)
{
	struct alloc_tramp_site_desc d;
	struct alloc_tramp_table *t;
	bool loaded = false;
	unsigned int i;

	list_for_each_entry(t, &alloc_tramp_tables, list)
		loaded = loaded || (q->module && glob_match(q->module, t->name));
	if (q->module && !loaded)
		return true;
	list_for_each_entry(t, &alloc_tramp_tables, list)
		for (i = alloc_tramp_next_site(t, 0); i < t->nr_sites;
		     i = alloc_tramp_next_site(t, i + 1)) {
			const struct alloc_tramp_site *site = &t->sites[i];

			if (!alloc_tramp_fail_target_ok(arch_alloc_tramp_target(site, NULL)))
				continue;
			alloc_tramp_site_desc(site, &d);
			if (alloc_tramp_query_match(q, &d))
				return true;
		}
	return false;
}

/* At most this many lines: ">" replaces them. */
#define ALLOC_TRAMP_FAIL_LINES	64

static int fail_set(struct alloc_tramp_filter *f, const char *buf, size_t len,
		    bool replace)
{
	struct alloc_tramp_filter lines = ALLOC_TRAMP_FILTER_INIT(lines);
	struct alloc_tramp_filter old = ALLOC_TRAMP_FILTER_INIT(old);
	struct list_head *last;
	int ret;

	ret = alloc_tramp_filter_update(&lines, buf, len, true,
					ALLOC_TRAMP_QUERY_FAIL,
					fail_line_matches, NULL);
	if (ret)
		return ret;
	if (replace)
		list_splice_init(&alloc_tramp_fail_lines.queries, &old.queries);
	last = alloc_tramp_fail_lines.queries.prev;
	list_splice_tail_init(&lines.queries, &alloc_tramp_fail_lines.queries);
	ret = list_count_nodes(&alloc_tramp_fail_lines.queries) > ALLOC_TRAMP_FAIL_LINES ?
	      -ENOSPC : alloc_tramp_fail_apply();
	if (ret) {
		if (ret == -ENOSPC)
			pr_warn("refused a write: fail_sites keeps %d lines at most\n",
				ALLOC_TRAMP_FAIL_LINES);
		while (alloc_tramp_fail_lines.queries.prev != last)
			list_move(alloc_tramp_fail_lines.queries.prev, &lines.queries);
		list_splice(&old.queries, &alloc_tramp_fail_lines.queries);
		alloc_tramp_filter_clear(&lines);
		return ret;
	}
	alloc_tramp_filter_clear(&old);
	return 0;
}

static const struct alloc_tramp_query_file fail_sites_file = {
	.filter	= &alloc_tramp_fail_lines,
	.show	= fail_sites_show,
	.set	= fail_set,
};

/**
 * alloc_tramp_fail_init - make fail_sites
 * @dir: /sys/kernel/debug/alloc_trampolines
 */
void __init alloc_tramp_fail_init(struct dentry *dir)
{
	debugfs_create_file("fail_sites", 0600, dir, (void *)&fail_sites_file,
			    &alloc_tramp_query_fops);
}
