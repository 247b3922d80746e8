/* SPDX-License-Identifier: GPL-2.0 */
/* What lib/alloc_tramp_early.c tells lib/alloc_tramp.c */
#ifndef _LIB_ALLOC_TRAMP_EARLY_H
#define _LIB_ALLOC_TRAMP_EARLY_H

#include <linux/init.h>

/* The sites of vmlinux were patched before the first allocation. */
extern bool alloc_tramp_early_done __initdata;

#endif
