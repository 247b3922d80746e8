// SPDX-License-Identifier: GPL-2.0
/*
 * The edges of the ioctl() of /proc/allocinfo that alloc_report -q does
 * not reach, for allocinfo-ioctl.sh: one line "CHECK RESULT" each.
 *
 *   layout     the sizes of later kernels' structures
 *   bad-mask   a filter bit no kernel knows: EINVAL
 *   min-max    a minimum above the maximum: EINVAL
 *   unknown    a command the file does not have: ENOTTY
 *   past-end   GET_AT past the last tag: ENOENT
 *   wrap       GET_NEXT after the last tag: ENOENT, then the first again
 *   sticky     GET_NEXT goes on with the filter of GET_AT: the tags of
 *              function FUNC (the argument), and how many
 *   first      GET_NEXT on a fresh open: the first tag
 *
 * Usage: alloc_tramp_allocinfo FUNC
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/alloc_tag.h>

static const char *err(int ret)
{
	return !ret ? "0" : errno == EINVAL ? "EINVAL" : errno == ENOENT ? "ENOENT" :
	       errno == ENOTTY ? "ENOTTY" : strerror(errno);
}

static int same(const struct allocinfo_tag_data *a, const struct allocinfo_tag_data *b)
{
	return !memcmp(&a->tag, &b->tag, sizeof(a->tag));
}

int main(int argc, char **argv)
{
	struct allocinfo_tag_data first, d;
	struct allocinfo_get_at at;
	int fd, n, ok;
	__u64 word;

	if (argc != 2 || strlen(argv[1]) >= ALLOCINFO_STR_SIZE) {
		fprintf(stderr, "usage: alloc_tramp_allocinfo FUNC\n");
		return 2;
	}

	printf("layout %s\n", sizeof(struct allocinfo_tag) == 200 &&
	       sizeof(struct allocinfo_counter) == 24 &&
	       sizeof(struct allocinfo_tag_data) == 224 &&
	       sizeof(struct allocinfo_filter) == 232 &&
	       sizeof(struct allocinfo_get_at) == 464 &&
	       ALLOCINFO_IOC_GET_AT == 0xC1D0A601 ? "ok" : "bad");

	fd = open("/proc/allocinfo", O_RDONLY);
	if (fd < 0) {
		perror("/proc/allocinfo");
		return 1;
	}
	if (ioctl(fd, ALLOCINFO_IOC_GET_NEXT, &first)) {
		perror("ALLOCINFO_IOC_GET_NEXT");
		return 1;
	}
	memset(&at, 0, sizeof(at));
	printf("first %s\n", !ioctl(fd, ALLOCINFO_IOC_GET_AT, &at) &&
	       same(&at.data, &first) ? "ok" : "bad");

	at.filter.mask = 1 << 7;
	printf("bad-mask %s\n", err(ioctl(fd, ALLOCINFO_IOC_GET_AT, &at)));
	at.filter.mask = ALLOCINFO_FILTER_MASK_MIN_SIZE | ALLOCINFO_FILTER_MASK_MAX_SIZE;
	at.filter.min_size = 2;
	at.filter.max_size = 1;
	printf("min-max %s\n", err(ioctl(fd, ALLOCINFO_IOC_GET_AT, &at)));
	printf("unknown %s\n", err(ioctl(fd, _IOR(ALLOCINFO_IOC_BASE, 9, __u64), &word)));
	memset(&at, 0, sizeof(at));
	at.pos = 1ULL << 40;
	printf("past-end %s\n", err(ioctl(fd, ALLOCINFO_IOC_GET_AT, &at)));

	/* From the first tag to the last, and then the first again */
	memset(&at, 0, sizeof(at));
	n = !ioctl(fd, ALLOCINFO_IOC_GET_AT, &at);
	while (!ioctl(fd, ALLOCINFO_IOC_GET_NEXT, &d))
		n++;
	ok = errno == ENOENT && !ioctl(fd, ALLOCINFO_IOC_GET_NEXT, &d) &&
	     same(&d, &first) && n > 1;
	printf("wrap %s %d\n", ok ? "ok" : "bad", n);

	/* The tags of FUNC only, however many others follow them */
	memset(&at, 0, sizeof(at));
	at.filter.mask = ALLOCINFO_FILTER_MASK_FUNCTION;
	snprintf(at.filter.fields.function, ALLOCINFO_STR_SIZE, "%s", argv[1]);
	ok = !ioctl(fd, ALLOCINFO_IOC_GET_AT, &at) &&
	     !strcmp(at.data.tag.function, argv[1]);
	for (n = 1; ok && !ioctl(fd, ALLOCINFO_IOC_GET_NEXT, &d); n++)
		ok = !strcmp(d.tag.function, argv[1]);
	printf("sticky %s %d\n", ok && errno == ENOENT ? "ok" : "bad", n);
	return 0;
}
