/* SPDX-License-Identifier: GPL-2.0 */
/* Per-site fault injection of the allocation trampolines: for lib/ only. */
#ifndef _LIB_ALLOC_TRAMP_FAIL_H
#define _LIB_ALLOC_TRAMP_FAIL_H

#include <linux/types.h>

struct alloc_tag;
struct alloc_tramp_query;

#ifdef CONFIG_ALLOC_TRAMP_FAULT_INJECTION

bool alloc_tramp_fail_target_ok(int target);
int alloc_tramp_fail_stage(struct alloc_tag *tag, const struct alloc_tramp_query *q);
void alloc_tramp_fail_publish(void);
void alloc_tramp_fail_drop(bool unstaged);
void alloc_tramp_fail_abort(void);
void alloc_tramp_fail_forget(struct alloc_tag *tags, unsigned int nr);

#else

static inline bool alloc_tramp_fail_target_ok(int target)
{
	return false;
}

static inline void alloc_tramp_fail_forget(struct alloc_tag *tags,
					   unsigned int nr) {}

#endif

#endif /* _LIB_ALLOC_TRAMP_FAIL_H */
