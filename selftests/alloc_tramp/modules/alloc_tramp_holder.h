/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ALLOC_TRAMP_HOLDER_H
#define _ALLOC_TRAMP_HOLDER_H

int alloc_tramp_holder_keep(void *p);
int alloc_tramp_holder_keep_page(unsigned long addr);

#endif
