// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation trampoline torture: a thread per CPU allocates and frees
 * through several sites (slab, pages, vmalloc, percpu) while a timer and
 * an hrtimer allocate from softirq and hardirq context.
 *
 *   echo start > /sys/kernel/debug/alloc_tramp_torture
 *   echo stop > /sys/kernel/debug/alloc_tramp_torture   (frees everything)
 *   echo quiesce > /sys/kernel/debug/alloc_tramp_torture
 *	gives back what the allocators keep: lazily freed vmap areas and the
 *	empty slabs of the kmalloc caches.  A nested allocation (a slab page
 *	under a kmalloc) made while a switch is under way runs under the
 *	outer site's tag, and stays counted there while its cache keeps it.
 *   cat /sys/kernel/debug/alloc_tramp_torture
 *	allocations N irq_allocations N irq_under_task_tag N
 *
 * irq_under_task_tag counts the interrupt-context allocations that found
 * current->alloc_tag set (by the task they interrupted): those would be
 * accounted to the task's site, not their own.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/vmalloc.h>

#define RING	16

struct torture_ring {
	void *kmallocs[RING];
	struct page *pages[RING];
	void *vmallocs[RING];
	void __percpu *percpu[RING];
};

static DEFINE_MUTEX(torture_lock);
static struct task_struct *threads[NR_CPUS];
static struct dentry *torture_file;
static atomic_long_t allocations, irq_allocations, irq_under_task_tag;
static struct timer_list torture_timer;
static struct hrtimer torture_hrtimer;
static bool running;

/* One allocation in interrupt context: under its own site, or none. */
static noinline void irq_alloc(void)
{
	void *p;

#ifdef CONFIG_MEM_ALLOC_PROFILING
	if (current->alloc_tag)
		atomic_long_inc(&irq_under_task_tag);
#endif
	p = kmalloc(200, GFP_ATOMIC);
	if (p)
		atomic_long_inc(&irq_allocations);
	kfree(p);
}

static void torture_timer_fn(struct timer_list *t)
{
	irq_alloc();
	if (READ_ONCE(running))
		mod_timer(&torture_timer, jiffies + 1);
}

static enum hrtimer_restart torture_hrtimer_fn(struct hrtimer *t)
{
	irq_alloc();
	if (!READ_ONCE(running))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(300 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void ring_free(struct torture_ring *r, unsigned int i)
{
	kfree(r->kmallocs[i]);
	if (r->pages[i])
		__free_pages(r->pages[i], 1);
	vfree(r->vmallocs[i]);
	free_percpu(r->percpu[i]);
	r->kmallocs[i] = NULL;
	r->pages[i] = NULL;
	r->vmallocs[i] = NULL;
	r->percpu[i] = NULL;
}

static int torture_thread(void *data)
{
	struct torture_ring *r;
	unsigned long n = 0;
	unsigned int i;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	while (!kthread_should_stop()) {
		i = n % RING;
		ring_free(r, i);
		r->kmallocs[i] = kmalloc(8 + get_random_u32_below(1024), GFP_KERNEL);
		r->pages[i] = alloc_pages(GFP_KERNEL, 1);	/* line: pages */
		if (!(n % 8)) {
			r->vmallocs[i] = vmalloc(PAGE_SIZE * (1 + n % 3));
			r->percpu[i] = __alloc_percpu(64 + n % 64, 8);
		}
		atomic_long_add(4, &allocations);
		n++;
		cond_resched();
	}
	for (i = 0; i < RING; i++)
		ring_free(r, i);
	kfree(r);
	return 0;
}

static int torture_start(void)
{
	unsigned int cpu;

	if (running)
		return -EBUSY;
	WRITE_ONCE(running, true);
	for_each_online_cpu(cpu) {
		threads[cpu] = kthread_create_on_cpu(torture_thread, NULL, cpu,
						     "alloc_torture/%u");
		if (IS_ERR(threads[cpu]))
			threads[cpu] = NULL;
		else
			wake_up_process(threads[cpu]);
	}
	mod_timer(&torture_timer, jiffies + 1);
	hrtimer_start(&torture_hrtimer, ns_to_ktime(300 * NSEC_PER_USEC), HRTIMER_MODE_REL);
	return 0;
}

static void torture_stop(void)
{
	unsigned int cpu;

	if (!running)
		return;
	WRITE_ONCE(running, false);
	for_each_possible_cpu(cpu) {
		if (threads[cpu])
			kthread_stop(threads[cpu]);
		threads[cpu] = NULL;
	}
	timer_delete_sync(&torture_timer);
	hrtimer_cancel(&torture_hrtimer);
}

static void torture_quiesce(void)
{
	unsigned int type, i;

	vm_unmap_aliases();
	for (type = 0; type < NR_KMALLOC_TYPES; type++)
		for (i = 0; i < KMALLOC_SHIFT_HIGH + 1; i++)
			if (kmalloc_caches[type][i])
				kmem_cache_shrink(kmalloc_caches[type][i]);
}

static ssize_t torture_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	char cmd[16] = {};
	int ret = -EINVAL;

	if (count >= sizeof(cmd) || copy_from_user(cmd, buf, count))
		return -EINVAL;
	strim(cmd);
	mutex_lock(&torture_lock);
	if (!strcmp(cmd, "start"))
		ret = torture_start();
	else if (!strcmp(cmd, "stop"))
		torture_stop(), ret = 0;
	else if (!strcmp(cmd, "quiesce") && !running)
		torture_quiesce(), ret = 0;
	mutex_unlock(&torture_lock);
	return ret ? ret : count;
}

static ssize_t torture_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	char out[128];
	int len;

	len = scnprintf(out, sizeof(out),
			"allocations %ld irq_allocations %ld irq_under_task_tag %ld\n",
			atomic_long_read(&allocations), atomic_long_read(&irq_allocations),
			atomic_long_read(&irq_under_task_tag));
	return simple_read_from_buffer(buf, count, ppos, out, len);
}

static const struct file_operations torture_fops = {
	.read = torture_read,
	.write = torture_write,
};

static int __init torture_init(void)
{
	timer_setup(&torture_timer, torture_timer_fn, 0);
	hrtimer_init(&torture_hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	torture_hrtimer.function = torture_hrtimer_fn;
	torture_file = debugfs_create_file("alloc_tramp_torture", 0600, NULL, NULL,
					   &torture_fops);
	return 0;
}

static void __exit torture_exit(void)
{
	debugfs_remove(torture_file);
	mutex_lock(&torture_lock);
	torture_stop();
	mutex_unlock(&torture_lock);
}

module_init(torture_init);
module_exit(torture_exit);
MODULE_DESCRIPTION("Allocation trampoline torture");
MODULE_LICENSE("GPL");
