/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Filtered reads of /proc/allocinfo through ioctl(): the interface of
 * later kernels, on which tools written for them rely, with the same
 * numbers and layouts.
 */
#ifndef _UAPI_LINUX_ALLOC_TAG_H
#define _UAPI_LINUX_ALLOC_TAG_H

#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * The strings of a tag: a longer one keeps its last
 * ALLOCINFO_STR_SIZE - 1 characters (paths and names share their
 * beginnings), and a filter compares that form.
 */
#define ALLOCINFO_STR_SIZE	64

/* Changes when a module with tags comes or goes */
struct allocinfo_content_id {
	__u64 id;
};

/* The line of a tag; modname is "" for the kernel's own tags */
struct allocinfo_tag {
	char modname[ALLOCINFO_STR_SIZE];
	char function[ALLOCINFO_STR_SIZE];
	char filename[ALLOCINFO_STR_SIZE];
	__u64 lineno;
};

/* Aligned, so that 32-bit callers see the same layout */
struct allocinfo_counter {
	__u64 bytes;
	__u64 calls;
	__u8 accurate;	/* 0: the line says "accurate:no" */
} __attribute__((aligned(8)));

struct allocinfo_tag_data {
	struct allocinfo_tag tag;
	struct allocinfo_counter counter;
};

enum {
	ALLOCINFO_FILTER_MODNAME,
	ALLOCINFO_FILTER_FUNCTION,
	ALLOCINFO_FILTER_FILENAME,
	ALLOCINFO_FILTER_LINENO,
	ALLOCINFO_FILTER_INACCURATE,
	ALLOCINFO_FILTER_MIN_SIZE,
	ALLOCINFO_FILTER_MAX_SIZE,
	__ALLOCINFO_FILTER_LAST = ALLOCINFO_FILTER_MAX_SIZE
};

#define ALLOCINFO_FILTER_MASK_MODNAME		(1 << ALLOCINFO_FILTER_MODNAME)
#define ALLOCINFO_FILTER_MASK_FUNCTION		(1 << ALLOCINFO_FILTER_FUNCTION)
#define ALLOCINFO_FILTER_MASK_FILENAME		(1 << ALLOCINFO_FILTER_FILENAME)
#define ALLOCINFO_FILTER_MASK_LINENO		(1 << ALLOCINFO_FILTER_LINENO)
#define ALLOCINFO_FILTER_MASK_INACCURATE	(1 << ALLOCINFO_FILTER_INACCURATE)
#define ALLOCINFO_FILTER_MASK_MIN_SIZE		(1 << ALLOCINFO_FILTER_MIN_SIZE)
#define ALLOCINFO_FILTER_MASK_MAX_SIZE		(1 << ALLOCINFO_FILTER_MAX_SIZE)

#define ALLOCINFO_FILTER_MASKS	((1 << (__ALLOCINFO_FILTER_LAST + 1)) - 1)

/*
 * The fields of @mask must all match: the strings and the line exactly,
 * the bytes within [min_size, max_size], and the accuracy (inaccurate:
 * 0 for the accurate tags, anything else for the others).
 */
struct allocinfo_filter {
	__u64 mask;
	struct allocinfo_tag fields;
	__u64 min_size;
	__u64 max_size;
	__u64 inaccurate;
};

/* The pos-th tag (from 0) of those the filter matches */
struct allocinfo_get_at {
	__u64 pos;				/* in */
	struct allocinfo_filter filter;		/* in */
	struct allocinfo_tag_data data;		/* out */
};

#define _ALLOCINFO_IOC_CONTENT_ID	0
#define _ALLOCINFO_IOC_GET_AT		1
#define _ALLOCINFO_IOC_GET_NEXT		2

#define ALLOCINFO_IOC_BASE		0xA6
/* The id of the content, to read before and after a walk */
#define ALLOCINFO_IOC_CONTENT_ID	_IOR(ALLOCINFO_IOC_BASE, _ALLOCINFO_IOC_CONTENT_ID, \
					     struct allocinfo_content_id)
/* A tag, by its position; the filter stays for GET_NEXT */
#define ALLOCINFO_IOC_GET_AT		_IOWR(ALLOCINFO_IOC_BASE, _ALLOCINFO_IOC_GET_AT, \
					      struct allocinfo_get_at)
/* The next tag the filter matches; -ENOENT after the last */
#define ALLOCINFO_IOC_GET_NEXT		_IOR(ALLOCINFO_IOC_BASE, _ALLOCINFO_IOC_GET_NEXT, \
					     struct allocinfo_tag_data)

#endif /* _UAPI_LINUX_ALLOC_TAG_H */
