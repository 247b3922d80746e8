/* SPDX-License-Identifier: GPL-2.0 */
/* Allocation context capture of the allocation trampolines: for lib/ only. */
#ifndef _LIB_ALLOC_TRAMP_CTX_H
#define _LIB_ALLOC_TRAMP_CTX_H

struct alloc_tag;

void alloc_tramp_ctx_forget(struct alloc_tag *tags, unsigned int nr);

#endif /* _LIB_ALLOC_TRAMP_CTX_H */
