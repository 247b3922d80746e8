// SPDX-License-Identifier: GPL-2.0
/*
 * A small module for the module churn tests (churn.sh, failed-load.sh):
 * loaded and unloaded thousands of times, it may leave memory behind with
 * alloc_tramp_holder, so that its tags outlive it.
 *
 *   leave=1        its init hands a kmalloc(64) and a page to the holder
 *   param_leave=1  so does this parameter's setter, which runs before
 *                  the init, while the load may still fail
 *   refuse=1       this parameter's setter fails: the load fails, after
 *                  the setters named before it ran
 *
 * An allocation that fails (fault injection) is skipped: the load never
 * fails for it.
 */
#include <linux/gfp.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include "alloc_tramp_holder.h"

/* Hand a kmalloc(64) and a page to the holder, or free them if it is full. */
static void leave_memory(void)
{
	void *p = kmalloc(64, GFP_KERNEL);			/* line: leave */
	unsigned long page = __get_free_page(GFP_KERNEL);	/* line: leave_page */

	if (p && alloc_tramp_holder_keep(p))
		kfree(p);
	if (page && alloc_tramp_holder_keep_page(page))
		free_page(page);
}

static int param_leave_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (!ret && on)
		leave_memory();
	return ret;
}

static const struct kernel_param_ops param_leave_ops = {
	.set	= param_leave_set,
};
module_param_cb(param_leave, &param_leave_ops, NULL, 0);
MODULE_PARM_DESC(param_leave, "leave memory from the parameter's setter");

static int refuse_set(const char *val, const struct kernel_param *kp)
{
	return -EINVAL;
}

static const struct kernel_param_ops refuse_ops = {
	.set	= refuse_set,
};
module_param_cb(refuse, &refuse_ops, NULL, 0);
MODULE_PARM_DESC(refuse, "fail the load from this parameter's setter");

static bool leave;
module_param(leave, bool, 0);
MODULE_PARM_DESC(leave, "leave memory from the init");

static void *init_buf;

static int __init churn_init(void)
{
	init_buf = kmalloc(32, GFP_KERNEL);			/* line: init */
	if (leave)
		leave_memory();
	return 0;
}

static void __exit churn_exit(void)
{
	kfree(init_buf);
}

module_init(churn_init);
module_exit(churn_exit);
MODULE_DESCRIPTION("Module churn for the alloc_tramp tests");
MODULE_LICENSE("GPL");
