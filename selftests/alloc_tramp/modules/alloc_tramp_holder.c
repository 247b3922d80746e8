// SPDX-License-Identifier: GPL-2.0
/*
 * Holds memory that another module allocated, so that it can outlive
 * that module: "echo release > /sys/kernel/debug/alloc_tramp_holder"
 * frees it.  Slab objects and pages are held apart.
 */
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "alloc_tramp_holder.h"

#define HOLDER_MAX 16

static void *held[HOLDER_MAX];
static void *held_pages[HOLDER_MAX];
static DEFINE_SPINLOCK(held_lock);
static struct dentry *holder_file;

/* Keep @p in a free slot of @slots; -ENOSPC if there is none. */
static int keep(void **slots, void *p)
{
	int i, ret = -ENOSPC;

	spin_lock(&held_lock);
	for (i = 0; i < HOLDER_MAX; i++) {
		if (!slots[i]) {
			slots[i] = p;
			ret = 0;
			break;
		}
	}
	spin_unlock(&held_lock);
	return ret;
}

/**
 * alloc_tramp_holder_keep - keep @p until released
 * @p: kmalloc()ed memory
 *
 * Return: 0, or -ENOSPC when full (@p is not taken).
 */
int alloc_tramp_holder_keep(void *p)
{
	return keep(held, p);
}
EXPORT_SYMBOL_GPL(alloc_tramp_holder_keep);

/**
 * alloc_tramp_holder_keep_page - keep the page at @addr until released
 * @addr: from __get_free_page()
 *
 * Return: 0, or -ENOSPC when full (the page is not taken).
 */
int alloc_tramp_holder_keep_page(unsigned long addr)
{
	return keep(held_pages, (void *)addr);
}
EXPORT_SYMBOL_GPL(alloc_tramp_holder_keep_page);

static void release_all(void)
{
	void *p[HOLDER_MAX], *pages[HOLDER_MAX];
	int i;

	spin_lock(&held_lock);
	memcpy(p, held, sizeof(p));
	memset(held, 0, sizeof(held));
	memcpy(pages, held_pages, sizeof(pages));
	memset(held_pages, 0, sizeof(held_pages));
	spin_unlock(&held_lock);
	for (i = 0; i < HOLDER_MAX; i++) {
		kfree(p[i]);
		if (pages[i])
			free_page((unsigned long)pages[i]);
	}
}

static ssize_t holder_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	char cmd[16] = {};

	if (count >= sizeof(cmd) || copy_from_user(cmd, buf, count))
		return -EINVAL;
	if (strcmp(strim(cmd), "release"))
		return -EINVAL;
	release_all();
	return count;
}

static const struct file_operations holder_fops = {
	.write = holder_write,
};

static int __init holder_init(void)
{
	holder_file = debugfs_create_file("alloc_tramp_holder", 0200, NULL,
					  NULL, &holder_fops);
	return 0;
}

static void __exit holder_exit(void)
{
	debugfs_remove(holder_file);
	release_all();
}

module_init(holder_init);
module_exit(holder_exit);
MODULE_DESCRIPTION("Keeps memory of another module for the alloc_tramp tests");
MODULE_LICENSE("GPL");
