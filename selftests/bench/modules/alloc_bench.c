// SPDX-License-Identifier: GPL-2.0
/*
 * The allocation profiling benchmark, after the seed's: kmalloc/kfree
 * pairs of 8 to 240 bytes and __get_free_page/free_page pairs, on one
 * CPU, timed with ktime, repeated; the median of the repeats is kept.
 *
 *   echo "run N REPS" > /sys/kernel/debug/alloc_bench
 *   cat /sys/kernel/debug/alloc_bench
 *	kmalloc 123.4 ns/op (median of REPS x N; 120.1-130.2)
 *	pages 456.7 ns/op (...)
 *
 * With CONFIG_ALLOC_TRAMPOLINES, "toggle REPS" times switching all sites
 * on and off: "enable 1.2 ms ... disable 1.1 ms ...".
 */
#include <linux/alloc_tramp.h>
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/sort.h>

#define MAX_REPS	101

static DEFINE_MUTEX(bench_lock);
static char result[512];
static u64 samples[MAX_REPS];
static struct dentry *bench_file;

static noinline u64 kmalloc_loop(unsigned int n)
{
	u64 t0 = ktime_get_ns();
	unsigned int i;
	void *p;

	for (i = 0; i < n; i++) {
		p = kmalloc(8 + (i % 30) * 8, GFP_KERNEL);
		kfree(p);
	}
	return ktime_get_ns() - t0;
}

static noinline u64 pages_loop(unsigned int n)
{
	u64 t0 = ktime_get_ns();
	unsigned long addr;
	unsigned int i;

	for (i = 0; i < n; i++) {
		addr = __get_free_page(GFP_KERNEL);
		free_page(addr);
	}
	return ktime_get_ns() - t0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* "NAME median ns/op (...)": samples[] in ns for @per ops, sorted here */
static size_t show(char *buf, size_t len, const char *name, unsigned int reps,
		   u64 per, const char *unit, u64 scale)
{
	u64 med, lo, hi;

	sort(samples, reps, sizeof(samples[0]), cmp_u64, NULL);
	med = samples[reps / 2] * 10 / per / scale;
	lo = samples[0] * 10 / per / scale;
	hi = samples[reps - 1] * 10 / per / scale;
	return scnprintf(buf, len, "%s %llu.%llu %s (median of %u x %llu; %llu.%llu-%llu.%llu)\n",
			 name, med / 10, med % 10, unit, reps, per, lo / 10, lo % 10,
			 hi / 10, hi % 10);
}

static int bench_run(unsigned int n, unsigned int reps)
{
	size_t len = 0;
	unsigned int r;

	if (!n || !reps || reps > MAX_REPS)
		return -EINVAL;

	/* One CPU for the whole run; it may still sleep. */
	migrate_disable();
	kmalloc_loop(n);	/* warm the caches */
	for (r = 0; r < reps; r++)
		samples[r] = kmalloc_loop(n);
	len += show(result + len, sizeof(result) - len, "kmalloc", reps, n, "ns/op", 1);
	pages_loop(n);
	for (r = 0; r < reps; r++)
		samples[r] = pages_loop(n);
	len += show(result + len, sizeof(result) - len, "pages", reps, n, "ns/op", 1);
	migrate_enable();
	return 0;
}

static int bench_toggle(unsigned int reps)
{
#ifdef CONFIG_ALLOC_TRAMPOLINES
	static u64 off[MAX_REPS];
	size_t len = 0;
	unsigned int r;
	u64 t0, first;
	int ret;

	if (!reps || reps > MAX_REPS)
		return -EINVAL;
	/*
	 * From the sites as built: off parks them, off again patches them
	 * back.  The first switch on patches them all, the others find them
	 * parked.
	 */
	ret = alloc_tramp_set_enabled(false) ?: alloc_tramp_set_enabled(false);
	if (ret)
		return ret;
	for (r = 0; r < reps; r++) {
		t0 = ktime_get_ns();
		ret = alloc_tramp_set_enabled(true);
		samples[r] = ktime_get_ns() - t0;
		t0 = ktime_get_ns();
		ret = ret ?: alloc_tramp_set_enabled(false);
		off[r] = ktime_get_ns() - t0;
		if (ret)
			return ret;
	}
	first = samples[0];
	len += show(result + len, sizeof(result) - len, "enable", reps, 1, "ms", 1000000);
	memcpy(samples, off, sizeof(off));
	len += show(result + len, sizeof(result) - len, "disable", reps, 1, "ms", 1000000);
	t0 = ktime_get_ns();
	ret = alloc_tramp_set_enabled(false);
	samples[0] = ktime_get_ns() - t0;
	len += show(result + len, sizeof(result) - len, "unpark", 1, 1, "ms", 1000000);
	samples[0] = first;
	len += show(result + len, sizeof(result) - len, "first-enable", 1, 1, "ms", 1000000);
	return ret;
#else
	return -EOPNOTSUPP;
#endif
}

static ssize_t bench_write(struct file *file, const char __user *buf,
			   size_t count, loff_t *ppos)
{
	unsigned int n, reps;
	char cmd[32] = {};
	int ret = -EINVAL;

	if (count >= sizeof(cmd) || copy_from_user(cmd, buf, count))
		return -EINVAL;

	mutex_lock(&bench_lock);
	result[0] = '\0';
	if (sscanf(cmd, "run %u %u", &n, &reps) == 2)
		ret = bench_run(n, reps);
	else if (sscanf(cmd, "toggle %u", &reps) == 1)
		ret = bench_toggle(reps);
	mutex_unlock(&bench_lock);
	return ret ? ret : count;
}

static ssize_t bench_read(struct file *file, char __user *buf, size_t count,
			  loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&bench_lock);
	ret = simple_read_from_buffer(buf, count, ppos, result, strlen(result));
	mutex_unlock(&bench_lock);
	return ret;
}

static const struct file_operations bench_fops = {
	.read = bench_read,
	.write = bench_write,
};

static int __init bench_init(void)
{
	bench_file = debugfs_create_file("alloc_bench", 0600, NULL, NULL, &bench_fops);
	return 0;
}

static void __exit bench_exit(void)
{
	debugfs_remove(bench_file);
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_DESCRIPTION("Allocation profiling benchmark: kmalloc and page loops");
MODULE_LICENSE("GPL");
