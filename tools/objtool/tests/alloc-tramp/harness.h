/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ALLOC_TRAMP_TEST_HARNESS_H
#define _ALLOC_TRAMP_TEST_HARNESS_H

#include "../../../../include/linux/alloc_tramp_types.h"

/* The kernel's struct alloc_tag, as objtool writes it */
struct tag {
	unsigned int flags, lineno;
	const char *modname, *function, *filename;
	void *counters;
};

/* From markers.S, around the site table of sites.c */
extern const struct alloc_tramp_site sites_begin[], sites_end[];
/* and at the tags of sites.c and their counters, 16 bytes a tag */
extern struct tag tags_begin[];
extern char counters_begin[];

#endif
