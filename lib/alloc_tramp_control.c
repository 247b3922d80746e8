// SPDX-License-Identifier: GPL-2.0
/*
 * The filter files of the allocation trampolines, in
 * /sys/kernel/debug/alloc_trampolines: set_site_filter and
 * set_site_notrace choose the sites that switching on patches, as
 * set_ftrace_filter and set_ftrace_notrace choose functions.  Their file
 * operations, alloc_tramp_query_fops, serve fail_sites too
 * (alloc_tramp_fail.c).
 */
#define pr_fmt(fmt) "alloc_tramp: " fmt

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "alloc_tramp_core.h"

/**
 * alloc_tramp_matches_a_site - does a query match a site that can be patched?
 * @q: the query of a line being written
 * @arg: unused
 *
 * Called with alloc_tramp_mutex held, for the writes: a line that matches
 * no site is refused.
 *
 * Return: true if some site whose text is there matches @q.
 */
bool alloc_tramp_matches_a_site(const struct alloc_tramp_query *q, void *arg)
{
	struct alloc_tramp_site_desc d;
	struct alloc_tramp_table *t;
	unsigned int i;

	list_for_each_entry(t, &alloc_tramp_tables, list)
		for (i = alloc_tramp_next_site(t, 0); i < t->nr_sites;
		     i = alloc_tramp_next_site(t, i + 1)) {
			alloc_tramp_site_desc(&t->sites[i], &d);
			if (alloc_tramp_query_match(q, &d))
				return true;
		}
	return false;
}

/*
 * An open file of query lines, as set_ftrace_filter: ">" (an open with
 * O_TRUNC) replaces the lines, ">>" adds to them, and an open with
 * O_TRUNC and no write clears them.  A write is taken whole or refused
 * whole.
 */
struct query_open {
	const struct alloc_tramp_query_file *qf;
	bool replace;
	bool written;
};

static struct query_open *query_open(struct file *file)
{
	if (file->f_mode & FMODE_READ)
		return ((struct seq_file *)file->private_data)->private;
	return file->private_data;
}

static int query_file_open(struct inode *inode, struct file *file)
{
	struct query_open *qo;
	int ret;

	qo = kzalloc(sizeof(*qo), GFP_KERNEL);
	if (!qo)
		return -ENOMEM;
	qo->qf = inode->i_private;
	qo->replace = (file->f_mode & FMODE_WRITE) && (file->f_flags & O_TRUNC);
	if (!(file->f_mode & FMODE_READ)) {
		file->private_data = qo;
		return 0;
	}
	ret = single_open(file, qo->qf->show, qo);
	if (ret)
		kfree(qo);
	return ret;
}

static ssize_t query_file_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct query_open *qo = query_open(file);
	bool replace = qo->replace && !qo->written;
	char *buf;
	int ret;

	/* Even a refused write makes the close not clear the lines. */
	qo->written = true;
	if (count > ALLOC_TRAMP_WRITE_MAX) {
		pr_warn("refused a write of over %d bytes\n", ALLOC_TRAMP_WRITE_MAX);
		return -EINVAL;
	}
	buf = memdup_user(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	ret = -EBUSY;
	if (mutex_trylock(&alloc_tramp_mutex)) {
		ret = qo->qf->set(qo->qf->filter, buf, count, replace);
		mutex_unlock(&alloc_tramp_mutex);
	}
	kfree(buf);
	return ret ? ret : count;
}

static int query_file_release(struct inode *inode, struct file *file)
{
	struct query_open *qo = query_open(file);

	/* ": > set_site_filter" */
	if (qo->replace && !qo->written) {
		mutex_lock(&alloc_tramp_mutex);
		qo->qf->set(qo->qf->filter, "", 0, true);
		mutex_unlock(&alloc_tramp_mutex);
	}
	if (file->f_mode & FMODE_READ)
		single_release(inode, file);
	kfree(qo);
	return 0;
}

const struct file_operations alloc_tramp_query_fops = {
	.open		= query_file_open,
	.read		= seq_read,
	.write		= query_file_write,
	.llseek		= seq_lseek,
	.release	= query_file_release,
};

/* set_site_filter, set_site_notrace: the lines as comments, then the sites. */
static int filter_show(struct seq_file *m, void *v)
{
	struct alloc_tramp_filter *f = ((struct query_open *)m->private)->qf->filter;
	bool all = f == &alloc_tramp_site_filter;
	struct alloc_tramp_site_desc d;
	struct alloc_tramp_query *q;
	struct alloc_tramp_table *t;
	unsigned int i;

	mutex_lock(&alloc_tramp_mutex);
	list_for_each_entry(q, &f->queries, list)
		seq_printf(m, "# %s\n", q->text);
	if (all && alloc_tramp_filter_empty(f))
		seq_puts(m, "#### all sites ####\n");
	if (alloc_tramp_filter_empty(f))
		goto out;
	list_for_each_entry(t, &alloc_tramp_tables, list)
		for (i = alloc_tramp_next_site(t, 0); i < t->nr_sites;
		     i = alloc_tramp_next_site(t, i + 1)) {
			alloc_tramp_site_desc(&t->sites[i], &d);
			if (!alloc_tramp_filter_chosen(f, &d, all))
				continue;
			alloc_tramp_show_site(m, &t->sites[i]);
			seq_putc(m, '\n');
		}
out:
	mutex_unlock(&alloc_tramp_mutex);
	return 0;
}

static int filter_set(struct alloc_tramp_filter *f, const char *buf,
		      size_t len, bool replace)
{
	int ret;

	ret = alloc_tramp_filter_update(f, buf, len, replace,
					ALLOC_TRAMP_QUERY_FILTER,
					alloc_tramp_matches_a_site, NULL);
	if (!ret)
		alloc_tramp_rechoose();
	return ret;
}

static const struct alloc_tramp_query_file site_filter_file = {
	.filter	= &alloc_tramp_site_filter,
	.show	= filter_show,
	.set	= filter_set,
};

static const struct alloc_tramp_query_file site_notrace_file = {
	.filter	= &alloc_tramp_site_notrace,
	.show	= filter_show,
	.set	= filter_set,
};

/**
 * alloc_tramp_control_init - make the filter files
 * @dir: /sys/kernel/debug/alloc_trampolines
 */
void __init alloc_tramp_control_init(struct dentry *dir)
{
	/* debugfs keeps i_private as a void *: the files only read it */
	debugfs_create_file("set_site_filter", 0600, dir,
			    (void *)&site_filter_file, &alloc_tramp_query_fops);
	debugfs_create_file("set_site_notrace", 0600, dir,
			    (void *)&site_notrace_file, &alloc_tramp_query_fops);
}
