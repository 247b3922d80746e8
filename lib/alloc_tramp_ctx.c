// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation context capture for chosen allocation tags: for each live
 * allocation made under such a tag, who made it (pid, tgid, comm), when,
 * from where (a stack in the stack depot) and its size.  A capture is
 * found again by the codetag_ref of its allocation, so that the free
 * hook of upstream's accounting (alloc_tag_sub()) frees it with the
 * allocation.
 *
 * Tags flagged CODETAG_FLAG_CTX_CAPTURE take new captures; those flagged
 * CODETAG_FLAG_CTX_LIVE may have live ones.  Both flags are only looked
 * at once alloc_tramp_ctx_key is on, so tags that never captured pay
 * nothing.
 *
 * The hooks take ctx_lock, a raw spinlock, with interrupts off: a reader
 * of allocations.ctx holds it only to copy a few captures at a time, and
 * prints them without it.  A cursor in the tag's list keeps its place
 * while it prints, whatever is freed meanwhile.
 *
 * The file allocations.ctx, at the end, chooses the tags and reads them.
 */
#define pr_fmt(fmt) "alloc_tramp: " fmt

#include <linux/alloc_tag.h>
#include <linux/alloc_tramp.h>
#include <linux/debugfs.h>
#include <linux/hashtable.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stackdepot.h>
#include <linux/stacktrace.h>
#include <linux/timekeeping.h>

#include "alloc_tramp_core.h"
#include "alloc_tramp_ctx.h"

#define CTX_STACK_DEPTH	16
/* List entries a reader walks per hold of ctx_lock */
#define CTX_SHOW_CHUNK	16

/**
 * struct alloc_tramp_ctx_tag - capture state of one tag
 * @node:     in ctx_tags, hashed by @tag
 * @tag:      the tag
 * @every:    capture one allocation in @every
 * @seen:     allocations seen while capturing
 * @captured: captures taken
 * @live:     captures whose allocation is not freed
 * @ctxs:     those captures, oldest first, and the cursors of a reader
 */
struct alloc_tramp_ctx_tag {
	struct hlist_node node;
	struct alloc_tag *tag;
	unsigned int every;
	unsigned long seen;
	unsigned long captured;
	unsigned long live;
	struct list_head ctxs;
};

/**
 * struct ctx_snap - what a capture records, and a reader copies
 * @bytes: the allocation's size, as accounted
 * @ts_ns: when it was made, ktime_get_ns()
 * @pid:   by which thread
 * @tgid:  of which process
 * @comm:  with which name
 * @stack: from which stack
 */
struct ctx_snap {
	size_t bytes;
	u64 ts_ns;
	pid_t pid;
	pid_t tgid;
	char comm[TASK_COMM_LEN];
	depot_stack_handle_t stack;
};

/**
 * struct alloc_tramp_ctx - the context of one live allocation
 * @node:  in ctx_refs, hashed by @ref
 * @list:  in its @ct's list
 * @ct:    the tag's capture state
 * @ref:   the allocation's codetag_ref (slab, page or percpu extension);
 *         NULL in a cursor of a reader, which is in a tag's list only
 * @snap:  what it recorded
 */
struct alloc_tramp_ctx {
	struct hlist_node node;
	struct list_head list;
	struct alloc_tramp_ctx_tag *ct;
	union codetag_ref *ref;
	struct ctx_snap snap;
};

/**
 * struct ctx_reader - the reader's place in the captures of a tag
 * @cursor: after the last capture it copied
 * @end:    after the last capture that was live when it began
 * @snap:   the captures it copied and has yet to print
 */
struct ctx_reader {
	struct alloc_tramp_ctx cursor;
	struct alloc_tramp_ctx end;
	struct ctx_snap snap[CTX_SHOW_CHUNK];
};

DEFINE_STATIC_KEY_FALSE(alloc_tramp_ctx_key);
EXPORT_SYMBOL_GPL(alloc_tramp_ctx_key);

/* The hooks run in any context, allocations of their own included. */
static DEFINE_RAW_SPINLOCK(ctx_lock);
static DEFINE_HASHTABLE(ctx_tags, 6);
static DEFINE_HASHTABLE(ctx_refs, 10);
static struct kmem_cache *ctx_cache;
static atomic_long_t ctx_objects;
static atomic_long_t ctx_dropped;
/* Readers of allocations.ctx take turns with the one reader state. */
static DEFINE_MUTEX(ctx_reader_lock);
static struct ctx_reader ctx_reader;

static void ctx_free(struct alloc_tramp_ctx *ctx)
{
	kmem_cache_free(ctx_cache, ctx);
	atomic_long_dec(&ctx_objects);
}

static struct alloc_tramp_ctx_tag *ctx_tag_find(struct alloc_tag *tag)
{
	struct alloc_tramp_ctx_tag *ct;

	hash_for_each_possible(ctx_tags, ct, node, (unsigned long)tag)
		if (ct->tag == tag)
			return ct;
	return NULL;
}

static struct alloc_tramp_ctx *ctx_find(union codetag_ref *ref)
{
	struct alloc_tramp_ctx *ctx;

	hash_for_each_possible(ctx_refs, ctx, node, (unsigned long)ref)
		if (ctx->ref == ref)
			return ctx;
	return NULL;
}

static bool ctx_is_cursor(const struct alloc_tramp_ctx *ctx)
{
	return !ctx->ref;
}

static void ctx_unlink(struct alloc_tramp_ctx *ctx)
{
	hash_del(&ctx->node);
	list_del(&ctx->list);
	ctx->ct->live--;
}

/* Is this allocation one to capture?  Counts it for "every N". */
static bool ctx_take(struct alloc_tag *tag)
{
	struct alloc_tramp_ctx_tag *ct;
	unsigned long flags;
	bool take;

	raw_spin_lock_irqsave(&ctx_lock, flags);
	ct = ctx_tag_find(tag);
	take = ct && !(ct->seen++ % ct->every);
	raw_spin_unlock_irqrestore(&ctx_lock, flags);
	return take;
}

/**
 * __alloc_tramp_ctx_add - capture the context of an allocation
 * @ref:   its codetag_ref, just set to @tag
 * @tag:   a tag flagged CODETAG_FLAG_CTX_CAPTURE
 * @bytes: its size
 *
 * Called by alloc_tag_add().  Never fails the allocation: if there is no
 * memory for the capture, it is counted as dropped.
 */
void __alloc_tramp_ctx_add(union codetag_ref *ref, struct alloc_tag *tag,
			   size_t bytes)
{
	unsigned long entries[CTX_STACK_DEPTH];
	struct alloc_tramp_ctx *ctx, *stale;
	struct alloc_tramp_ctx_tag *ct;
	struct alloc_tag *saved;
	unsigned long flags;
	unsigned int nr;

	if (!ctx_take(tag))
		return;

	/* Our own allocations are not accounted, nor captured. */
	saved = alloc_tag_save(NULL);
	ctx = kmem_cache_alloc(ctx_cache, GFP_NOWAIT | __GFP_NOWARN);
	if (ctx) {
		nr = stack_trace_save(entries, ARRAY_SIZE(entries), 1);
		ctx->snap.stack = stack_depot_save(entries, nr,
						   GFP_NOWAIT | __GFP_NOWARN);
	}
	alloc_tag_restore(NULL, saved);
	if (!ctx) {
		atomic_long_inc(&ctx_dropped);
		return;
	}
	atomic_long_inc(&ctx_objects);

	ctx->ref = ref;
	ctx->snap.bytes = bytes;
	ctx->snap.ts_ns = ktime_get_ns();
	ctx->snap.pid = current->pid;
	ctx->snap.tgid = current->tgid;
	get_task_comm(ctx->snap.comm, current);

	raw_spin_lock_irqsave(&ctx_lock, flags);
	/* A ref reused without a free (a page migrated, say) */
	stale = ctx_find(ref);
	if (stale)
		ctx_unlink(stale);
	ct = ctx_tag_find(tag);
	if (ct) {
		ctx->ct = ct;
		hash_add(ctx_refs, &ctx->node, (unsigned long)ref);
		list_add_tail(&ctx->list, &ct->ctxs);
		ct->captured++;
		ct->live++;
	}
	raw_spin_unlock_irqrestore(&ctx_lock, flags);

	if (stale)
		ctx_free(stale);
	if (!ct)
		ctx_free(ctx);
}
EXPORT_SYMBOL_GPL(__alloc_tramp_ctx_add);

/**
 * __alloc_tramp_ctx_sub - free the capture of an allocation being freed
 * @ref: its codetag_ref, of a tag flagged CODETAG_FLAG_CTX_LIVE
 *
 * Called by alloc_tag_sub().
 */
void __alloc_tramp_ctx_sub(union codetag_ref *ref)
{
	struct alloc_tramp_ctx *ctx;
	unsigned long flags;

	raw_spin_lock_irqsave(&ctx_lock, flags);
	ctx = ctx_find(ref);
	if (ctx)
		ctx_unlink(ctx);
	raw_spin_unlock_irqrestore(&ctx_lock, flags);

	if (ctx)
		ctx_free(ctx);
}
EXPORT_SYMBOL_GPL(__alloc_tramp_ctx_sub);

static int ctx_init(void)
{
	if (ctx_cache)
		return 0;
	if (stack_depot_init())
		return -ENOMEM;
	/* SLAB_NOLEAKTRACE: no slab extension, captures are not accounted. */
	ctx_cache = kmem_cache_create("alloc_tramp_ctx", sizeof(struct alloc_tramp_ctx),
				      0, SLAB_NOLEAKTRACE, NULL);
	if (!ctx_cache)
		return -ENOMEM;
	static_branch_enable(&alloc_tramp_ctx_key);
	return 0;
}

/**
 * alloc_tramp_ctx_prepare - make a tag ready to capture
 * @tag: the tag
 *
 * The first half of alloc_tramp_ctx_set(), the one that can fail: a
 * prepared tag does not capture yet.  Sleeps; the caller holds the
 * lock that serializes the control files.
 *
 * Return: 0 or -ENOMEM.
 */
static int alloc_tramp_ctx_prepare(struct alloc_tag *tag)
{
	struct alloc_tramp_ctx_tag *ct;
	unsigned long flags;
	int ret;

	ret = ctx_init();
	if (ret)
		return ret;
	if (ctx_tag_find(tag))
		return 0;

	ct = kzalloc(sizeof(*ct), GFP_KERNEL);
	if (!ct)
		return -ENOMEM;
	ct->tag = tag;
	ct->every = 1;
	INIT_LIST_HEAD(&ct->ctxs);
	raw_spin_lock_irqsave(&ctx_lock, flags);
	hash_add(ctx_tags, &ct->node, (unsigned long)tag);
	raw_spin_unlock_irqrestore(&ctx_lock, flags);
	return 0;
}

/**
 * alloc_tramp_ctx_set - start or stop capturing under a tag
 * @tag:   the tag, prepared if @q enables
 * @q:     the allocations.ctx line: "enable [every N]" or "disable"
 *
 * Disabling keeps the captures taken; they go with their allocations.
 */
static void alloc_tramp_ctx_set(struct alloc_tag *tag, const struct alloc_tramp_query *q)
{
	struct alloc_tramp_ctx_tag *ct;
	unsigned long flags;

	if (q->action == ALLOC_TRAMP_CTX_DISABLE) {
		WRITE_ONCE(tag->ct.flags, tag->ct.flags & ~CODETAG_FLAG_CTX_CAPTURE);
		return;
	}

	raw_spin_lock_irqsave(&ctx_lock, flags);
	ct = ctx_tag_find(tag);
	if (ct) {
		ct->every = q->every;
		ct->seen = 0;
	}
	raw_spin_unlock_irqrestore(&ctx_lock, flags);
	if (WARN_ON_ONCE(!ct))
		return;
	WRITE_ONCE(tag->ct.flags, tag->ct.flags | CODETAG_FLAG_CTX_LIVE |
				  CODETAG_FLAG_CTX_CAPTURE);
}

/**
 * alloc_tramp_ctx_forget - the tags of a module are about to go
 * @tags: its first tag
 * @nr:   how many
 *
 * Drops their capture state; they have no live allocation left, so no
 * live capture either, but for a stale one.
 */
void alloc_tramp_ctx_forget(struct alloc_tag *tags, unsigned int nr)
{
	struct alloc_tramp_ctx *ctx, *tmp;
	struct alloc_tramp_ctx_tag *ct;
	struct hlist_node *next;
	HLIST_HEAD(gone_tags);
	LIST_HEAD(gone_ctxs);
	unsigned long flags;
	int bkt;

	raw_spin_lock_irqsave(&ctx_lock, flags);
	hash_for_each_safe(ctx_tags, bkt, next, ct, node) {
		if (ct->tag < tags || ct->tag >= tags + nr)
			continue;
		list_for_each_entry_safe(ctx, tmp, &ct->ctxs, list) {
			/* A reader finds its cursor unlinked and stops. */
			if (ctx_is_cursor(ctx)) {
				list_del_init(&ctx->list);
				continue;
			}
			ctx_unlink(ctx);
			list_add(&ctx->list, &gone_ctxs);
		}
		hash_del(&ct->node);
		hlist_add_head(&ct->node, &gone_tags);
	}
	raw_spin_unlock_irqrestore(&ctx_lock, flags);

	list_for_each_entry_safe(ctx, tmp, &gone_ctxs, list)
		ctx_free(ctx);
	hlist_for_each_entry_safe(ct, next, &gone_tags, node)
		kfree(ct);
}

/*
 * Copy up to CTX_SHOW_CHUNK captures after the reader's cursor, up to its
 * end, and move the cursor past them.  Returns how many it copied and,
 * in *@more, whether any are left.
 */
static unsigned int ctx_snap_chunk(struct ctx_reader *r, bool *more)
{
	struct alloc_tramp_ctx *pos = &r->cursor, *next;
	unsigned int nr = 0;

	lockdep_assert_held(&ctx_lock);
	*more = false;
	/* Unlinked by alloc_tramp_ctx_forget(): the tag went. */
	if (list_empty(&r->cursor.list))
		return 0;
	while (nr < CTX_SHOW_CHUNK) {
		next = list_next_entry(pos, list);
		if (next == &r->end)
			break;
		pos = next;
		r->snap[nr++] = pos->snap;
	}
	if (pos != &r->cursor)
		list_move(&r->cursor.list, &pos->list);
	*more = list_next_entry(&r->cursor, list) != &r->end;
	return nr;
}

static void ctx_snap_show(struct seq_file *m, const struct ctx_snap *snap)
{
	unsigned long *entries;
	unsigned int i, nr;

	seq_printf(m, "    size: %zu\n    pid: %d\n    tgid: %d\n    comm: %s\n    ts: %llu\n",
		   snap->bytes, snap->pid, snap->tgid, snap->comm, snap->ts_ns);
	seq_puts(m, "    call stack:\n");
	/* The depot keeps what it saved without a reference for good. */
	nr = snap->stack ? stack_depot_fetch(snap->stack, &entries) : 0;
	for (i = 0; i < nr; i++)
		seq_printf(m, "        %pS\n", (void *)entries[i]);
}

/**
 * alloc_tramp_ctx_show - print the captures of a tag
 * @m:   the allocations.ctx file
 * @tag: a tag flagged CODETAG_FLAG_CTX_LIVE
 *
 * Prints the captures live when it starts, but for those freed before it
 * gets to them.  It holds ctx_lock, with interrupts off, only to copy
 * CTX_SHOW_CHUNK of them at a time: the hooks at a busy site wait for a
 * few copies, never for the printing of a long list.  Stops early once
 * @m overflowed, since seq_file shows it all again in a larger buffer.
 *
 * Context: Process context, may sleep.  Readers take turns.
 */
static void alloc_tramp_ctx_show(struct seq_file *m, struct alloc_tag *tag)
{
	struct ctx_reader *r = &ctx_reader;
	unsigned long captured, live, flags;
	struct alloc_tramp_ctx_tag *ct;
	unsigned int every, i, nr;
	bool more = true;

	mutex_lock(&ctx_reader_lock);
	raw_spin_lock_irqsave(&ctx_lock, flags);
	ct = ctx_tag_find(tag);
	if (!ct) {
		raw_spin_unlock_irqrestore(&ctx_lock, flags);
		goto out;
	}
	every = ct->every;
	captured = ct->captured;
	live = ct->live;
	list_add(&r->cursor.list, &ct->ctxs);
	list_add_tail(&r->end.list, &ct->ctxs);
	raw_spin_unlock_irqrestore(&ctx_lock, flags);

	seq_printf(m, "    capture: %s every: %u captured: %lu live: %lu\n",
		   READ_ONCE(tag->ct.flags) & CODETAG_FLAG_CTX_CAPTURE ? "on" : "off",
		   every, captured, live);
	while (more && !seq_has_overflowed(m)) {
		raw_spin_lock_irqsave(&ctx_lock, flags);
		nr = ctx_snap_chunk(r, &more);
		raw_spin_unlock_irqrestore(&ctx_lock, flags);

		for (i = 0; i < nr; i++)
			ctx_snap_show(m, &r->snap[i]);
		cond_resched();
	}

	raw_spin_lock_irqsave(&ctx_lock, flags);
	list_del(&r->cursor.list);
	list_del(&r->end.list);
	raw_spin_unlock_irqrestore(&ctx_lock, flags);
out:
	mutex_unlock(&ctx_reader_lock);
}

/**
 * alloc_tramp_ctx_show_totals - print how many captures are in memory
 * @m: the allocations.ctx file
 *
 * And how many were dropped, since boot, for want of memory.
 */
static void alloc_tramp_ctx_show_totals(struct seq_file *m)
{
	seq_printf(m, "# captures in memory: %ld, dropped for want of memory: %ld\n",
		   atomic_long_read(&ctx_objects), atomic_long_read(&ctx_dropped));
}

/*
 * /sys/kernel/debug/allocations.ctx: "QUERY enable [every N]" or "QUERY
 * disable" starts or stops the capture of allocation contexts at the
 * sites QUERY matches; reading lists the captured tags, each with its
 * report line and its live captures.
 */
static void ctx_show_table(struct seq_file *m, struct alloc_tramp_table *t)
{
	unsigned int i;

	for (i = 0; i < t->nr_tags; i++) {
		struct alloc_tag *tag = &t->tags[i];

		if (!(READ_ONCE(tag->ct.flags) & CODETAG_FLAG_CTX_LIVE))
			continue;
		alloc_tramp_show_tag(m, tag, alloc_tag_read(tag));
		alloc_tramp_ctx_show(m, tag);
	}
}

static int allocations_ctx_show(struct seq_file *m, void *v)
{
	struct alloc_tramp_table *t;

	mutex_lock(&alloc_tramp_mutex);
	alloc_tramp_ctx_show_totals(m);
	list_for_each_entry(t, &alloc_tramp_tables, list)
		ctx_show_table(m, t);
	list_for_each_entry(t, &alloc_tramp_kept, retired)
		ctx_show_table(m, t);
	mutex_unlock(&alloc_tramp_mutex);
	return 0;
}

/* Prepare every tag first, so that a failure changes nothing. */
static int ctx_apply(struct alloc_tramp_filter *lines, bool prepare)
{
	struct alloc_tramp_site_desc d;
	struct alloc_tramp_query *q;
	struct alloc_tramp_table *t;
	unsigned int i;
	int ret;

	list_for_each_entry(q, &lines->queries, list) {
		list_for_each_entry(t, &alloc_tramp_tables, list)
			for (i = alloc_tramp_next_site(t, 0); i < t->nr_sites;
			     i = alloc_tramp_next_site(t, i + 1)) {
				struct alloc_tag *tag = alloc_tramp_site_tag(&t->sites[i]);

				alloc_tramp_site_desc(&t->sites[i], &d);
				if (!alloc_tramp_query_match(q, &d))
					continue;
				if (!prepare) {
					alloc_tramp_ctx_set(tag, q);
					continue;
				}
				if (q->action != ALLOC_TRAMP_CTX_ENABLE)
					continue;
				ret = alloc_tramp_ctx_prepare(tag);
				if (ret)
					return ret;
			}
	}
	return 0;
}

/* Lines are applied, not kept: @f and @replace have nothing to keep */
static int ctx_set(struct alloc_tramp_filter *f, const char *buf, size_t len,
		   bool replace)
{
	struct alloc_tramp_filter lines = ALLOC_TRAMP_FILTER_INIT(lines);
	int ret;

	ret = alloc_tramp_filter_update(&lines, buf, len, true,
					ALLOC_TRAMP_QUERY_CTX,
					alloc_tramp_matches_a_site, NULL);
	if (!ret)
		ret = ctx_apply(&lines, true);
	if (!ret)
		ctx_apply(&lines, false);
	alloc_tramp_filter_clear(&lines);
	return ret;
}

static const struct alloc_tramp_query_file allocations_ctx_file = {
	.show	= allocations_ctx_show,
	.set	= ctx_set,
};

/**
 * alloc_tramp_ctx_init - make allocations.ctx
 */
void __init alloc_tramp_ctx_init(void)
{
	debugfs_create_file("allocations.ctx", 0600, NULL,
			    (void *)&allocations_ctx_file, &alloc_tramp_query_fops);
}
