// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation sites for the fault injection tests (fail_sites, fail.sh).
 * Each allocation is one call site with a "line: NAME" comment, which the
 * build writes to alloc_tramp_fault.lines.
 *
 * Its init makes the init_* allocations and keeps them until unload.  If
 * one fails, it frees those made before, says "init failed at NAME" and
 * fails with -ENOMEM: a module whose error path unwinds.
 *
 * "echo run > /sys/kernel/debug/alloc_tramp_fault" makes the run_*
 * allocations, in this order, and frees them all again; reading the file
 * gives the names of those that failed in the last run, or "none".  A run
 * that returns with current->alloc_tag still set fails with -EUCLEAN.
 */
#include <linux/alloc_tag.h>
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/mempool.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rhashtable.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

struct fault_percpu {
	u64 v[8];
};

static struct kmem_cache *cache;
static void *init_obj, *init_cached, *init_vmem, *init_nofail_obj;
static struct page *init_page;
static struct fault_percpu __percpu *init_pcpu;
/* pool keeps 2 elements in reserve, pool0 none */
static mempool_t *pool, *pool0;
static struct dentry *ctl;
/* A size the compiler cannot see: kmalloc(0) is ZERO_SIZE_PTR. */
static size_t zero_size;

static const struct rhashtable_params rht_params = {
	.key_len	= sizeof(u32),
	.key_offset	= 0,
	.head_offset	= sizeof(u32),
};

static DEFINE_MUTEX(run_lock);
static char failed[256];

static void note(const char *name, bool ok)
{
	if (ok)
		return;
	if (*failed)
		strlcat(failed, " ", sizeof(failed));
	strlcat(failed, name, sizeof(failed));
}

static int run(void)
{
	static const char src[64] = "alloc_tramp_fault";
	void *a, *a1, *b, *c, *c0, *d, *e, *e1, *f, *f1, *h, *h1, *i, *j, *z;
	struct rhashtable rht;
	unsigned long g;
	struct page *p;
	int r;

	*failed = '\0';
	a = kmalloc(100, GFP_KERNEL);			/* line: run_kmalloc */
	note("run_kmalloc", a);
	/* A resize that fits the object is done in place: it never fails. */
	a1 = krealloc(a, 120, GFP_KERNEL);		/* line: run_krealloc_fits */
	note("run_krealloc_fits", a1);
	if (a1)
		a = a1;
	b = kzalloc(200, GFP_KERNEL);			/* line: run_kzalloc */
	note("run_kzalloc", b);
	c = krealloc(NULL, 300, GFP_KERNEL);		/* line: run_krealloc */
	note("run_krealloc", c);
	/* A resize to 0 frees: it never fails. */
	c0 = krealloc(c, 0, GFP_KERNEL);		/* line: run_krealloc_zero */
	note("run_krealloc_zero", c0);
	if (!c0)
		kfree(c);
	d = kmemdup(src, sizeof(src), GFP_KERNEL);	/* line: run_kmemdup */
	note("run_kmemdup", d);
	e = kvmalloc(5000, GFP_KERNEL);			/* line: run_kvmalloc */
	note("run_kvmalloc", e);
	e1 = kvrealloc(e, 6000, GFP_KERNEL);		/* line: run_kvrealloc_fits */
	note("run_kvrealloc_fits", e1);
	if (e1)
		e = e1;
	f = vzalloc(3 * PAGE_SIZE);			/* line: run_vzalloc */
	note("run_vzalloc", f);
	/* vrealloc() is not exported: kvrealloc() of a vmalloc area is it */
	f1 = kvrealloc(f, 2 * PAGE_SIZE, GFP_KERNEL);	/* line: run_kvrealloc_vfits */
	note("run_kvrealloc_vfits", f1);
	if (f1)
		f = f1;
	p = alloc_pages(GFP_KERNEL, 1);			/* line: run_pages */
	note("run_pages", p);
	g = __get_free_pages(GFP_KERNEL, 0);		/* line: run_free_pages */
	note("run_free_pages", g);
	/* Fails only with no element in reserve, as pool0 has none. */
	h = mempool_alloc(pool0, GFP_NOWAIT);		/* line: run_pool_nowait */
	note("run_pool_nowait", h);
	h1 = mempool_alloc(pool, GFP_NOWAIT);		/* line: run_pool_reserve */
	note("run_pool_reserve", h1);
	/* A mempool_alloc() that may sleep never fails, nor __GFP_NOFAIL. */
	i = mempool_alloc(pool, GFP_KERNEL);		/* line: run_pool_wait */
	note("run_pool_wait", i);
	j = kmalloc(64, GFP_KERNEL | __GFP_NOFAIL);	/* line: run_nofail */
	note("run_nofail", j);
	z = kmalloc(READ_ONCE(zero_size), GFP_KERNEL);	/* line: run_kmalloc_zero */
	note("run_kmalloc_zero", z);
	/* It retries with __GFP_NOFAIL: no memory failure to inject. */
	r = rhashtable_init(&rht, &rht_params);		/* line: run_rhashtable */
	note("run_rhashtable", !r);
	if (!r)
		rhashtable_destroy(&rht);

	kfree(z);
	kfree(j);
	if (i)
		mempool_free(i, pool);
	if (h1)
		mempool_free(h1, pool);
	if (h)
		mempool_free(h, pool0);
	free_pages(g, 0);
	if (p)
		__free_pages(p, 1);
	/* kvrealloc(NULL, ...) of a failed vzalloc() is a kmalloc() */
	kvfree(f);
	kvfree(e);
	kfree(d);
	kfree(c0);
	kfree(b);
	kfree(a);
	if (!*failed)
		strscpy(failed, "none");
	return 0;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	char cmd[8];
	int ret;

	if (count >= sizeof(cmd) || copy_from_user(cmd, ubuf, count))
		return -EINVAL;
	cmd[count] = '\0';
	if (strcmp(strim(cmd), "run"))
		return -EINVAL;
	mutex_lock(&run_lock);
	ret = run();
	mutex_unlock(&run_lock);
#ifdef CONFIG_MEM_ALLOC_PROFILING
	/* A trampoline left its tag behind */
	if (!ret && current->alloc_tag)
		ret = -EUCLEAN;
#endif
	return ret ? ret : count;
}

static ssize_t ctl_read(struct file *file, char __user *ubuf, size_t count,
			loff_t *ppos)
{
	char buf[sizeof(failed) + 1];
	int len;

	mutex_lock(&run_lock);
	len = scnprintf(buf, sizeof(buf), "%s\n", *failed ? failed : "none");
	mutex_unlock(&run_lock);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/*
 * No .owner: fail.sh opens the file while the module goes, and debugfs
 * warns of an owner that is going; debugfs_remove() waits for the calls
 * under way instead.
 */
static const struct file_operations ctl_fops = {
	.read	= ctl_read,
	.write	= ctl_write,
};

static void free_init(void)
{
	kfree(init_nofail_obj);
	mempool_destroy(pool0);
	mempool_destroy(pool);
	free_percpu(init_pcpu);
	if (init_page)
		__free_pages(init_page, 0);
	vfree(init_vmem);
	if (init_cached)
		kmem_cache_free(cache, init_cached);
	kmem_cache_destroy(cache);
	kfree(init_obj);
}

static int __init fault_init(void)
{
	const char *at;

	at = "init_kmalloc";
	init_obj = kmalloc(128, GFP_KERNEL);		/* line: init_kmalloc */
	if (!init_obj)
		goto fail;
	at = "init_cache";
	cache = kmem_cache_create("alloc_tramp_fault", 96, 0, 0, NULL);
	if (!cache)
		goto fail;
	init_cached = kmem_cache_alloc(cache, GFP_KERNEL);	/* line: init_cache_alloc */
	at = "init_cache_alloc";
	if (!init_cached)
		goto fail;
	at = "init_vmalloc";
	init_vmem = vmalloc(2 * PAGE_SIZE);		/* line: init_vmalloc */
	if (!init_vmem)
		goto fail;
	at = "init_pages";
	init_page = alloc_pages(GFP_KERNEL, 0);		/* line: init_pages */
	if (!init_page)
		goto fail;
	at = "init_percpu";
	init_pcpu = alloc_percpu(struct fault_percpu);	/* line: init_percpu */
	if (!init_pcpu)
		goto fail;
	at = "init_mempool";
	pool = mempool_create_kmalloc_pool(2, 64);	/* line: init_mempool */
	if (!pool)
		goto fail;
	pool0 = mempool_create_kmalloc_pool(0, 64);
	if (!pool0)
		goto fail;
	init_nofail_obj = kmalloc(32, GFP_KERNEL | __GFP_NOFAIL);	/* line: init_nofail */

	ctl = debugfs_create_file("alloc_tramp_fault", 0600, NULL, NULL,
				  &ctl_fops);
	return 0;
fail:
	pr_info("alloc_tramp_fault: init failed at %s\n", at);
	free_init();
	return -ENOMEM;
}

static void __exit fault_exit(void)
{
	debugfs_remove(ctl);
	free_init();
}

module_init(fault_init);
module_exit(fault_exit);
MODULE_DESCRIPTION("Allocation sites for the per-site fault injection tests");
MODULE_LICENSE("GPL");
