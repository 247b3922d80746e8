// SPDX-License-Identifier: GPL-2.0
/*
 * Known allocations from known lines, for the allocation trampoline
 * tests.  "echo CMD > /sys/kernel/debug/alloc_tramp_test" with CMD:
 *   alloc  the allocations below
 *   free   free them
 *   leak   one kmalloc(64) and one page handed to alloc_tramp_holder,
 *          to outlive us
 *   cycle N  N kmalloc(64)/kfree pairs
 *   cycle_any N  the same, going on past a kmalloc() that failed
 *   hold N  N kmalloc(64), N <= 100000, kept until "free" (a later
 *          "hold" frees them first); a failed one stops it with -ENOMEM,
 *          keeping those it got
 *   sleepy one kmem_cache_alloc() from a new cache with SLAB_STORE_USER,
 *          whose constructor says "sleepy: in the constructor" in the
 *          kernel log and sleeps until "wake" (or 60 s); the object and
 *          its cache are kept until "free"
 *   wake   wake the constructor
 *   ctor_tag  one kmem_cache_alloc() from a new cache whose constructor,
 *          which runs inside that call, logs the tag it finds in
 *          current->alloc_tag: "ctor_tag: FILE:LINE", or "ctor_tag: none"
 *   fail   10 kmalloc(128) and 3 order-2 page allocations, kept until
 *          "free" and counted in the kernel log: for fault injection,
 *          which makes them fail
 * A command that returns with current->alloc_tag still set fails with
 * -EUCLEAN: a trampoline left its tag behind.
 * Its init keeps one kmalloc(64) until unload, from a site in init text.
 * With init_error=N (a positive errno), its init frees it again and fails
 * with -N: a module whose init fails.
 * A "line: NAME" comment marks each allocation; the build writes them to
 * alloc_tramp_test.lines for the test script.
 */
#include <linux/alloc_tag.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/mempool.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "alloc_tramp_holder.h"

#define NR_KMALLOC	10
#define NR_PAGES	3
#define PAGES_ORDER	2
#define NR_VMALLOC	2
#define NR_MEMPOOL	2
#define NR_PERCPU	16
#define NR_CACHE	4
#define HOLD_MAX	100000

static DEFINE_MUTEX(test_lock);
static void *kmallocs[NR_KMALLOC];
static struct page *pages[NR_PAGES];
static void *vmallocs[NR_VMALLOC];
/*
 * The first percpu chunk is not accounted (upstream's rule): ask for
 * enough to need a new chunk.
 */
struct test_percpu {
	u8 v[4096];
};

static struct test_percpu __percpu *percpu[NR_PERCPU];
/* Objects of a cache of our own, freed with kmem_cache_free() */
static struct kmem_cache *cache;
static void *cached[NR_CACHE];
static mempool_t *pool;
static void *pooled[NR_MEMPOOL];
static struct dentry *test_file;
/* The objects of "hold", in an array from kvcalloc() */
static void **held_objs;
static unsigned int nr_held;

static struct kmem_cache *sleepy_cache;
static void *sleepy_obj;
static DECLARE_COMPLETION(sleepy_go);
static atomic_t sleepy_wait = ATOMIC_INIT(0);

/* Called for each object of a new slab: the first one sleeps. */
static void sleepy_ctor(void *obj)
{
	if (atomic_xchg(&sleepy_wait, 0)) {
		pr_info("alloc_tramp_test: sleepy: in the constructor\n");
		wait_for_completion_timeout(&sleepy_go, 60 * HZ);
	}
}

static void sleepy_free(void)
{
	if (sleepy_obj)
		kmem_cache_free(sleepy_cache, sleepy_obj);
	sleepy_obj = NULL;
	kmem_cache_destroy(sleepy_cache);
	sleepy_cache = NULL;
}

static noinline int test_sleepy(void)
{
	sleepy_free();
	sleepy_cache = kmem_cache_create("alloc_tramp_sleepy", 64, 0,
					 SLAB_STORE_USER, sleepy_ctor);
	if (!sleepy_cache)
		return -ENOMEM;
	reinit_completion(&sleepy_go);
	atomic_set(&sleepy_wait, 1);
	sleepy_obj = kmem_cache_alloc(sleepy_cache, GFP_KERNEL);	/* line: sleepy */
	return sleepy_obj ? 0 : -ENOMEM;
}

#ifdef CONFIG_MEM_ALLOC_PROFILING
static struct alloc_tag *ctor_tag_seen;

static void ctor_tag_ctor(void *obj)
{
	ctor_tag_seen = current->alloc_tag;
}

/* A cache with a constructor is never merged: the alloc makes a slab. */
static noinline int test_ctor_tag(void)
{
	struct kmem_cache *c;
	void *p;

	c = kmem_cache_create("alloc_tramp_ctor_tag", 64, 0, 0, ctor_tag_ctor);
	if (!c)
		return -ENOMEM;
	ctor_tag_seen = NULL;
	p = kmem_cache_alloc(c, GFP_KERNEL);	/* line: ctor_tag */
	if (p)
		kmem_cache_free(c, p);
	kmem_cache_destroy(c);
	if (ctor_tag_seen)
		pr_info("alloc_tramp_test: ctor_tag: %s:%u\n",
			ctor_tag_seen->ct.filename, ctor_tag_seen->ct.lineno);
	else
		pr_info("alloc_tramp_test: ctor_tag: none\n");
	return p ? 0 : -ENOMEM;
}
#else
static int test_ctor_tag(void)
{
	return -EOPNOTSUPP;
}
#endif

static void test_hold_free(void)
{
	unsigned int i;

	for (i = 0; i < nr_held; i++)
		kfree(held_objs[i]);
	kvfree(held_objs);
	held_objs = NULL;
	nr_held = 0;
}

/* Keeps @n kmalloc(64) until "free"; a failed one stops it. */
static noinline int test_hold(unsigned int n)
{
	void *p;

	if (n > HOLD_MAX)
		return -EINVAL;
	test_hold_free();
	if (!n)
		return 0;
	held_objs = kvcalloc(n, sizeof(*held_objs), GFP_KERNEL);
	if (!held_objs)
		return -ENOMEM;
	while (nr_held < n) {
		p = kmalloc(64, GFP_KERNEL);			/* line: hold */
		if (!p)
			return -ENOMEM;
		held_objs[nr_held++] = p;
		cond_resched();
	}
	return 0;
}

static void test_free(void)
{
	int i;

	sleepy_free();
	test_hold_free();

	for (i = 0; i < NR_KMALLOC; i++)
		kfree(kmallocs[i]);
	for (i = 0; i < NR_PAGES; i++)
		if (pages[i])
			__free_pages(pages[i], PAGES_ORDER);
	for (i = 0; i < NR_VMALLOC; i++)
		vfree(vmallocs[i]);
	for (i = 0; i < NR_PERCPU; i++)
		free_percpu(percpu[i]);
	for (i = 0; i < NR_CACHE; i++)
		if (cached[i])
			kmem_cache_free(cache, cached[i]);
	for (i = 0; i < NR_MEMPOOL; i++)
		if (pooled[i])
			mempool_free(pooled[i], pool);
	mempool_destroy(pool);

	memset(kmallocs, 0, sizeof(kmallocs));
	memset(pages, 0, sizeof(pages));
	memset(vmallocs, 0, sizeof(vmallocs));
	memset(pooled, 0, sizeof(pooled));
	memset(percpu, 0, sizeof(percpu));
	memset(cached, 0, sizeof(cached));
	pool = NULL;
}

static noinline int test_alloc(void)
{
	int i;

	if (pool)
		return -EBUSY;

	for (i = 0; i < NR_KMALLOC; i++)
		kmallocs[i] = kmalloc(128, GFP_KERNEL);		/* line: kmalloc */
	for (i = 0; i < NR_PAGES; i++)
		pages[i] = alloc_pages(GFP_KERNEL, PAGES_ORDER);	/* line: pages */
	for (i = 0; i < NR_VMALLOC; i++)
		vmallocs[i] = vmalloc(8192);			/* line: vmalloc */
	for (i = 0; i < NR_PERCPU; i++)
		percpu[i] = alloc_percpu(struct test_percpu);	/* line: percpu */
	for (i = 0; i < NR_CACHE; i++)
		cached[i] = kmem_cache_alloc(cache, GFP_KERNEL);	/* line: cache */
	pool = mempool_create_kmalloc_pool(4, 256);		/* line: mempool_create */
	if (pool)
		for (i = 0; i < NR_MEMPOOL; i++)
			pooled[i] = mempool_alloc(pool, GFP_KERNEL); /* line: mempool_alloc */
	return 0;
}

static int test_leak(void)
{
	void *p = kmalloc(64, GFP_KERNEL);			/* line: leak */
	unsigned long page;
	int ret;

	if (!p)
		return -ENOMEM;
	ret = alloc_tramp_holder_keep(p);
	if (ret) {
		kfree(p);
		return ret;
	}
	page = __get_free_page(GFP_KERNEL);			/* line: leak_page */
	if (!page)
		return -ENOMEM;
	ret = alloc_tramp_holder_keep_page(page);
	if (ret)
		free_page(page);
	return ret;
}

/* With @any, a failed kmalloc() (fault injection) does not stop it. */
static int test_cycle(unsigned int n, bool any)
{
	void *p;

	while (n--) {
		p = kmalloc(64, GFP_KERNEL);			/* line: cycle */
		if (!p && !any)
			return -ENOMEM;
		kfree(p);
	}
	return 0;
}

static void *fail_kmallocs[NR_KMALLOC];
static struct page *fail_pages[NR_PAGES];

static void test_fail_free(void)
{
	int i;

	for (i = 0; i < NR_KMALLOC; i++)
		kfree(fail_kmallocs[i]);
	for (i = 0; i < NR_PAGES; i++)
		if (fail_pages[i])
			__free_pages(fail_pages[i], PAGES_ORDER);
	memset(fail_kmallocs, 0, sizeof(fail_kmallocs));
	memset(fail_pages, 0, sizeof(fail_pages));
}

static noinline int test_fail(void)
{
	const gfp_t gfp = GFP_KERNEL | __GFP_NOWARN;
	int i, nk = 0, np = 0;

	test_fail_free();
	for (i = 0; i < NR_KMALLOC; i++) {
		fail_kmallocs[i] = kmalloc(128, gfp);		/* line: fail_kmalloc */
		nk += !!fail_kmallocs[i];
	}
	for (i = 0; i < NR_PAGES; i++) {
		fail_pages[i] = alloc_pages(gfp, PAGES_ORDER);	/* line: fail_pages */
		np += !!fail_pages[i];
	}
	pr_info("alloc_tramp_test: fail: %d of %d kmallocs, %d of %d page blocks\n",
		nk, NR_KMALLOC, np, NR_PAGES);
	return 0;
}

static ssize_t test_write(struct file *file, const char __user *buf,
			  size_t count, loff_t *ppos)
{
	char cmd[24] = {};
	int ret = -EINVAL;
	unsigned int n;

	if (count >= sizeof(cmd) || copy_from_user(cmd, buf, count))
		return -EINVAL;
	strim(cmd);

	/* Not under test_lock, which "sleepy" holds */
	if (!strcmp(cmd, "wake")) {
		complete(&sleepy_go);
		return count;
	}
	mutex_lock(&test_lock);
	if (!strcmp(cmd, "alloc"))
		ret = test_alloc();
	else if (!strcmp(cmd, "free"))
		test_free(), test_fail_free(), ret = 0;
	else if (!strcmp(cmd, "leak"))
		ret = test_leak();
	else if (sscanf(cmd, "cycle %u", &n) == 1)
		ret = test_cycle(n, false);
	else if (sscanf(cmd, "cycle_any %u", &n) == 1)
		ret = test_cycle(n, true);
	else if (sscanf(cmd, "hold %u", &n) == 1)
		ret = test_hold(n);
	else if (!strcmp(cmd, "fail"))
		ret = test_fail();
	else if (!strcmp(cmd, "sleepy"))
		ret = test_sleepy();
	else if (!strcmp(cmd, "ctor_tag"))
		ret = test_ctor_tag();
	mutex_unlock(&test_lock);

#ifdef CONFIG_MEM_ALLOC_PROFILING
	if (current->alloc_tag) {
		pr_err("alloc_tramp_test: %s: current->alloc_tag left at %s:%u\n",
		       cmd, current->alloc_tag->ct.filename,
		       current->alloc_tag->ct.lineno);
		ret = -EUCLEAN;
	}
#endif

	return ret ? ret : count;
}

static const struct file_operations test_fops = {
	.write = test_write,
};

/* Allocated from init text, which is freed once the module is live */
static void *init_buf;

static int init_error;
module_param(init_error, int, 0400);
MODULE_PARM_DESC(init_error, "fail the init with this errno (0: do not)");

static int __init test_init(void)
{
	int ret = 0;

	cache = kmem_cache_create("alloc_tramp_test", 96, 0, 0, NULL);
	if (!cache)
		return -ENOMEM;
	init_buf = kmalloc(64, GFP_KERNEL);			/* line: init */
	if (!init_buf)
		ret = -ENOMEM;
	else if (init_error > 0)
		ret = -init_error;
	if (ret) {
		kfree(init_buf);
		kmem_cache_destroy(cache);
		return ret;
	}
	test_file = debugfs_create_file("alloc_tramp_test", 0200, NULL, NULL,
					&test_fops);
	return 0;
}

static void __exit test_exit(void)
{
	kfree(init_buf);
	debugfs_remove(test_file);
	test_free();
	test_fail_free();
	kmem_cache_destroy(cache);
}

module_init(test_init);
module_exit(test_exit);
MODULE_DESCRIPTION("Known allocations for the alloc_tramp tests");
MODULE_LICENSE("GPL");
