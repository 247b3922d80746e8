/* SPDX-License-Identifier: GPL-2.0 */
/* Allocation context capture of the allocation trampolines: for lib/ only. */
#ifndef _LIB_ALLOC_TRAMP_CTX_H
#define _LIB_ALLOC_TRAMP_CTX_H

struct alloc_tag;
struct alloc_tramp_query;
struct seq_file;

int alloc_tramp_ctx_prepare(struct alloc_tag *tag);
void alloc_tramp_ctx_set(struct alloc_tag *tag, const struct alloc_tramp_query *q);
void alloc_tramp_ctx_forget(struct alloc_tag *tags, unsigned int nr);
void alloc_tramp_ctx_show(struct seq_file *m, struct alloc_tag *tag);
void alloc_tramp_ctx_show_totals(struct seq_file *m);

#endif /* _LIB_ALLOC_TRAMP_CTX_H */
