/* SPDX-License-Identifier: GPL-2.0 */
/* Per-site fault injection of the allocation trampolines: for lib/ only. */
#ifndef _LIB_ALLOC_TRAMP_FAIL_H
#define _LIB_ALLOC_TRAMP_FAIL_H

#include <linux/types.h>

struct alloc_tag;
struct alloc_tramp_query;
struct mutex;
struct seq_file;

/* lib/alloc_tramp.c: serializes everything here but the fail entries */
extern struct mutex alloc_tramp_mutex;

#ifdef CONFIG_ALLOC_TRAMP_FAULT_INJECTION

bool alloc_tramp_fail_target_ok(int target);
int alloc_tramp_fail_stage(struct alloc_tag *tag, const struct alloc_tramp_query *q);
void alloc_tramp_fail_publish(void);
void alloc_tramp_fail_drop(bool unstaged);
void alloc_tramp_fail_abort(void);
void alloc_tramp_fail_forget(struct alloc_tag *tags, unsigned int nr);
void alloc_tramp_fail_show(struct seq_file *m, struct alloc_tag *tag);

#else

static inline bool alloc_tramp_fail_target_ok(int target)
{
	return false;
}

static inline void alloc_tramp_fail_forget(struct alloc_tag *tags,
					   unsigned int nr) {}

#endif

#endif /* _LIB_ALLOC_TRAMP_FAIL_H */
