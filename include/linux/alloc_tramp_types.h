/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What objtool writes for allocation trampolines and the kernel reads:
 * section names, the site table entry and the layout of the tags.
 * objtool includes this file too, so it must only need <linux/types.h>,
 * and the trampoline bodies in assembly do.
 */
#ifndef _LINUX_ALLOC_TRAMP_TYPES_H
#define _LINUX_ALLOC_TRAMP_TYPES_H

#include <linux/types.h>

#define ALLOC_TRAMP_TEXT_SECTION	".alloc_tramp.text"
#define ALLOC_TRAMP_SITES_SECTION	".alloc_tramp.sites"
#define ALLOC_TRAMP_TAGS_SECTION	"alloc_tags"
#define ALLOC_TRAMP_STR_SECTION		".rodata.alloc_tramp"
/* vmlinux only: static per-CPU counters, there before the first allocation */
#define ALLOC_TRAMP_COUNTERS_SECTION	".data..percpu..alloc_tramp"

/*
 * The tagged-call body of each target, in arch code, is
 * ALLOC_TRAMP_BODY_PREFIX "<target>" for a call site and
 * ALLOC_TRAMP_TAIL_PREFIX "<target>" for a tail call (no call to account
 * for with call depth tracking).  A wrapper stub calls the
 * ALLOC_TRAMP_WRAPPER_ENTER body the same way, and ends with a jump to
 * ALLOC_TRAMP_WRAPPER_LEAVE.
 */
#define ALLOC_TRAMP_BODY_PREFIX		"__alloc_tramp_"
#define ALLOC_TRAMP_TAIL_PREFIX		"__alloc_tramp_tail_"
#define ALLOC_TRAMP_WRAPPER_ENTER	"wrapper_enter"
#define ALLOC_TRAMP_WRAPPER_LEAVE	"__alloc_tramp_wrapper_leave"

/*
 * struct alloc_tag as objtool lays it out: struct codetag, then the
 * counters pointer.  A tag of vmlinux points at its struct
 * alloc_tag_counters in ALLOC_TRAMP_COUNTERS_SECTION, as upstream's
 * DEFINE_PER_CPU of each tag does; the kernel fills in a module's.
 * lib/alloc_tramp.c checks these against the real structures.
 */
#define ALLOC_TRAMP_TAG_SIZE		40
#define ALLOC_TRAMP_TAG_LINENO		4
#define ALLOC_TRAMP_TAG_MODNAME		8
#define ALLOC_TRAMP_TAG_FUNCTION	16
#define ALLOC_TRAMP_TAG_FILENAME	24
#define ALLOC_TRAMP_TAG_COUNTERS	32
#define ALLOC_TRAMP_COUNTERS_SIZE	16

/*
 * What __alloc_tramp_should_fail() returns for a call of an armed site
 * that goes on to its allocator: a failure returns NULL or -ENOMEM.
 */
#define ALLOC_TRAMP_FAIL_CALL		1

#ifndef __ASSEMBLY__
/**
 * struct alloc_tramp_site - one direct call or tail call of an allocator
 * @addr:   the call or jump instruction
 * @target: the allocator it calls
 * @tramp:  the trampoline that calls @target under @tag
 * @tag:    the site's struct alloc_tag
 *
 * Each field is relative to its own address, as in struct static_call_site.
 */
struct alloc_tramp_site {
	__s32 addr;
	__s32 target;
	__s32 tramp;
	__s32 tag;
};
#endif

#endif /* _LINUX_ALLOC_TRAMP_TYPES_H */
