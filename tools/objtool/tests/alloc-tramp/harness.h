/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ALLOC_TRAMP_TEST_HARNESS_H
#define _ALLOC_TRAMP_TEST_HARNESS_H

#include "../../../../include/linux/alloc_tramp_types.h"

/* From markers.S, around the site table of sites.c */
extern const struct alloc_tramp_site sites_begin[], sites_end[];

#endif
