// SPDX-License-Identifier: GPL-2.0
/*
 * alloc_report: read allocation reports, show the top sites, and diff two
 * snapshots to see which sites grew: the leak-hunting workflow.
 *
 * It reads /sys/kernel/debug/allocations ("size calls file:line module:M
 * func:F", sizes in K, M, G...) and /proc/allocinfo ("bytes calls
 * file:line [module] func:F").
 *
 *   alloc_report [-n N] [-s bytes|calls] [FILE]   the top N sites
 *   alloc_report -d [-a] [-n N] OLD NEW           what grew from OLD to NEW
 *   alloc_report -q [FILTER...]                   the tags, through ioctl()
 *   alloc_report -t SECONDS [-i N] [-n N] [FILTER...]  a live top view
 *
 * FILE "-" or none is standard input.  -q asks /proc/allocinfo for the
 * tags a filter matches, one at a time (<linux/alloc_tag.h>, as later
 * kernels have it), and prints them as /proc/allocinfo does.  -t reads
 * them so every SECONDS and shows the top sites by size and by growth
 * since it started, each with its rate over the last interval.  Only
 * libc and the uapi headers are needed (-I include/uapi).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/alloc_tag.h>

struct site {
	char *key;		/* "file:line module:M func:F" */
	long long bytes;
	long long calls;
	long long old_bytes;
	long long old_calls;
	long long last_bytes;	/* -t: at the last refresh */
	long seen;		/* -t: the last refresh that saw it, from 1 */
};

struct report {
	struct site *sites;
	size_t nr;
	size_t alloc;
};

static int sort_by_calls;

static void die(const char *msg, const char *arg)
{
	fprintf(stderr, "alloc_report: %s%s%s\n", msg, arg ? ": " : "",
		arg ? arg : "");
	exit(2);
}

/* "512", "1.2K", "7.0M", "3G", "1.5KiB" */
static int parse_size(const char *s, long long *bytes)
{
	static const char units[] = "KMGTPE";
	double v;
	char *end;
	const char *u;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || v < 0)
		return -1;
	if (*end) {
		u = strchr(units, *end);
		if (!u || (end[1] && strcmp(end + 1, "iB") && strcmp(end + 1, "B")))
			return -1;
		for (; u >= units; u--)
			v *= 1024;
	}
	*bytes = (long long)(v + 0.5);
	return 0;
}

static void format_size(char *buf, size_t len, long long bytes)
{
	static const char units[] = "KMGTPE";
	unsigned long long b = bytes < 0 ? -bytes : bytes;
	const char *sign = bytes < 0 ? "-" : "";
	unsigned int i;

	if (b < 1024) {
		snprintf(buf, len, "%s%llu", sign, b);
		return;
	}
	for (i = 0; b >= 1024 * 1024 && i < sizeof(units) - 2; i++)
		b >>= 10;
	if (b < 10 * 1024)
		snprintf(buf, len, "%s%llu.%llu%c", sign, b / 1024,
			 (b % 1024) * 10 / 1024, units[i]);
	else
		snprintf(buf, len, "%s%llu%c", sign, b / 1024, units[i]);
}

static struct site *find(struct report *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->sites[i].key, key))
			return &r->sites[i];
	return NULL;
}

static struct site *add(struct report *r, const char *key)
{
	struct site *s = find(r, key);

	if (s)
		return s;
	if (r->nr == r->alloc) {
		r->alloc = r->alloc ? 2 * r->alloc : 256;
		r->sites = realloc(r->sites, r->alloc * sizeof(*r->sites));
		if (!r->sites)
			die("out of memory", NULL);
	}
	s = &r->sites[r->nr++];
	memset(s, 0, sizeof(*s));
	s->key = strdup(key);
	if (!s->key)
		die("out of memory", NULL);
	return s;
}

/*
 * One line of either format into "file:line module:M func:F".
 * Returns 0, or -1 for a line that is not a site (headers, comments).
 */
static int parse_line(char *line, char *key, size_t len, long long *bytes,
		      long long *calls)
{
	char size[32], where[512], f4[512], f5[512], mod[512];
	char *end;
	int n;

	n = sscanf(line, "%31s %lld %511s %511s %511s", size, calls, where,
		   f4, f5);
	if (n < 4 || parse_size(size, bytes) || !strchr(where, ':'))
		return -1;
	strtoll(strrchr(where, ':') + 1, &end, 10);
	if (*end)
		return -1;

	if (!strncmp(f4, "module:", 7) && n == 5 && !strncmp(f5, "func:", 5)) {
		snprintf(key, len, "%s %s %s", where, f4, f5);
	} else if (f4[0] == '[' && n == 5 && !strncmp(f5, "func:", 5)) {
		snprintf(mod, sizeof(mod), "%.*s", (int)strlen(f4) - 2, f4 + 1);
		snprintf(key, len, "%s module:%s %s", where, mod, f5);
	} else if (!strncmp(f4, "func:", 5)) {
		snprintf(key, len, "%s module:vmlinux %s", where, f4);
	} else {
		return -1;
	}
	return 0;
}

static void read_report(struct report *r, const char *path, int old)
{
	char line[2048], key[2048];
	long long bytes, calls;
	FILE *f = stdin;
	struct site *s;

	if (path && strcmp(path, "-")) {
		f = fopen(path, "r");
		if (!f)
			die(strerror(errno), path);
	}
	while (fgets(line, sizeof(line), f)) {
		if (parse_line(line, key, sizeof(key), &bytes, &calls))
			continue;
		s = add(r, key);
		/* A tag listed twice (two modules' copies) adds up. */
		if (old) {
			s->old_bytes += bytes;
			s->old_calls += calls;
		} else {
			s->bytes += bytes;
			s->calls += calls;
		}
	}
	if (f != stdin)
		fclose(f);
}

static int cmp_top(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	long long d = sort_by_calls ? y->calls - x->calls : y->bytes - x->bytes;

	return d > 0 ? 1 : d < 0 ? -1 : strcmp(x->key, y->key);
}

static int cmp_growth(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	long long dx = sort_by_calls ? x->calls - x->old_calls : x->bytes - x->old_bytes;
	long long dy = sort_by_calls ? y->calls - y->old_calls : y->bytes - y->old_bytes;

	return dy > dx ? 1 : dy < dx ? -1 : strcmp(x->key, y->key);
}

static void help(void)
{
	fprintf(stderr,
		"usage: alloc_report [-n N] [-s bytes|calls] [FILE]\n"
		"       alloc_report -d [-a] [-n N] [-s bytes|calls] OLD NEW\n"
		"       alloc_report -q [-n N] [-p POS] [-M MODULE] [-f FUNC] [-F FILE]\n"
		"                      [-l LINE] [-A 0|1] [-b MIN] [-B MAX]\n"
		"       alloc_report -c\n"
		"       alloc_report -t SECONDS [-i N] [-n N] [-s bytes|calls] [FILTER...]\n"
		"  -n N  show N sites (default 20, 0: all)\n"
		"  -s    sort by bytes (default) or calls\n"
		"  -d    show what changed from snapshot OLD to NEW, growth first\n"
		"  -a    with -d, also the sites that shrank or went\n"
		"  -q    the tags of /proc/allocinfo the filter matches, from the\n"
		"        POS-th (0), in its order and format, through ioctl():\n"
		"        module (\"\" for the kernel), function, file, line, accurate:no\n"
		"        (1) or not (0), bytes at least MIN, at most MAX\n"
		"  -c    the content id of /proc/allocinfo: it changes when a\n"
		"        module with tags comes or goes\n"
		"  -t    every SECONDS, the top N sites (default 20) by size and by\n"
		"        growth since the start, with their rate over the last\n"
		"        interval; N times with -i (default: until killed)\n");
	exit(2);
}

static void set_str(char *field, const char *arg)
{
	if (strlen(arg) >= ALLOCINFO_STR_SIZE)
		arg += strlen(arg) - (ALLOCINFO_STR_SIZE - 1);
	snprintf(field, ALLOCINFO_STR_SIZE, "%s", arg);
}

static unsigned long long number(const char *arg)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 0);
	if (!*arg || *end || errno)
		help();
	return v;
}

static void print_tag(const struct allocinfo_tag_data *d)
{
	printf("%12lld %8llu %s:%llu", (long long)d->counter.bytes,
	       (unsigned long long)d->counter.calls, d->tag.filename,
	       (unsigned long long)d->tag.lineno);
	if (d->tag.modname[0])
		printf(" [%s]", d->tag.modname);
	printf(" func:%s%s\n", d->tag.function,
	       d->counter.accurate ? "" : " accurate:no");
}

static int open_allocinfo(void)
{
	int fd = open("/proc/allocinfo", O_RDONLY);

	if (fd < 0)
		die(strerror(errno), "/proc/allocinfo");
	return fd;
}

/*
 * Each tag the filter matches, from at->pos, until @fn returns non-zero:
 * 0, or 1 if none matches.
 */
static int walk(int fd, struct allocinfo_get_at *at,
		int (*fn)(const struct allocinfo_tag_data *d, void *arg), void *arg)
{
	struct allocinfo_tag_data d;

	if (ioctl(fd, ALLOCINFO_IOC_GET_AT, at)) {
		if (errno == ENOENT)
			return 1;
		die(strerror(errno), "ALLOCINFO_IOC_GET_AT");
	}
	d = at->data;
	while (!fn(&d, arg)) {
		if (ioctl(fd, ALLOCINFO_IOC_GET_NEXT, &d)) {
			if (errno != ENOENT)
				die(strerror(errno), "ALLOCINFO_IOC_GET_NEXT");
			break;
		}
	}
	return 0;
}

/* @v with its sign: "+0" for none */
static void format_delta(char *buf, size_t len, long long v)
{
	buf[0] = '+';
	format_size(buf + (v >= 0), len - 1, v);
}

struct top {
	struct report r;
	long round;		/* refreshes, from 1 */
	size_t next;		/* where the walk's next tag was last time */
};

/* A tag of this refresh: the walk's order repeats, so look there first */
static int top_tag(const struct allocinfo_tag_data *d, void *arg)
{
	struct top *t = arg;
	char key[256];
	struct site *s;

	snprintf(key, sizeof(key), "%s:%llu module:%s func:%s", d->tag.filename,
		 (unsigned long long)d->tag.lineno,
		 d->tag.modname[0] ? d->tag.modname : "vmlinux", d->tag.function);
	if (t->next < t->r.nr && !strcmp(t->r.sites[t->next].key, key))
		s = &t->r.sites[t->next];
	else
		s = add(&t->r, key);
	t->next = s - t->r.sites + 1;
	if (!s->seen) {
		/* Growth counts from the start: a later tag from nothing */
		s->old_bytes = t->round == 1 ? (long long)d->counter.bytes : 0;
		s->last_bytes = s->old_bytes;
	} else if (s->seen != t->round) {
		/* Back after a refresh without it (its module came again) */
		s->last_bytes = s->seen == t->round - 1 ? s->bytes : 0;
	}
	if (s->seen != t->round) {
		s->bytes = 0;
		s->calls = 0;
	}
	s->bytes += d->counter.bytes;
	s->calls += d->counter.calls;
	s->seen = t->round;
	return 0;
}

static int cmp_ptr_top(const void *a, const void *b)
{
	return cmp_top(*(struct site * const *)a, *(struct site * const *)b);
}

static int cmp_ptr_growth(const void *a, const void *b)
{
	return cmp_growth(*(struct site * const *)a, *(struct site * const *)b);
}

static void top_lines(struct site **v, size_t nr, long n, double secs, int growth)
{
	char sz[32], gr[32], rate[32];
	size_t i;

	printf("# %s\n#    size   growth       rate  site\n",
	       growth ? "by growth since the start" : "by size");
	for (i = 0; i < nr && (!n || i < (size_t)n); i++) {
		struct site *s = v[i];

		if (growth && s->bytes <= s->old_bytes)
			break;
		format_size(sz, sizeof(sz), s->bytes);
		format_delta(gr, sizeof(gr), s->bytes - s->old_bytes);
		format_delta(rate, sizeof(rate) - 2,
			     (long long)((s->bytes - s->last_bytes) / secs));
		strcat(rate, "/s");
		printf("%9s %8s %10s  %s\n", sz, gr, rate, s->key);
	}
}

/* -t: every @secs, @iters times (0: until killed) */
static int top(struct allocinfo_get_at *at, long n, double secs, long iters)
{
	struct timespec ts = { (time_t)secs, (long)((secs - (time_t)secs) * 1e9) };
	long long total, total_old;
	struct top t = { 0 };
	char sz[32], gr[32];
	struct site **v;
	size_t i, nr;
	int fd = open_allocinfo();

	for (t.round = 1; !iters || t.round <= iters; t.round++) {
		if (t.round > 1)
			nanosleep(&ts, NULL);
		t.next = 0;
		walk(fd, at, top_tag, &t);
		v = calloc(t.r.nr + 1, sizeof(*v));
		if (!v)
			die("out of memory", NULL);
		total = 0;
		total_old = 0;
		for (i = nr = 0; i < t.r.nr; i++) {
			if (t.r.sites[i].seen != t.round)
				continue;	/* its module went */
			v[nr++] = &t.r.sites[i];
			total += t.r.sites[i].bytes;
			total_old += t.r.sites[i].old_bytes;
		}
		if (isatty(1))
			printf("\033[H\033[J");
		format_size(sz, sizeof(sz), total);
		format_delta(gr, sizeof(gr), total - total_old);
		printf("# alloc_report -t %g: refresh %ld, %zu sites, ", secs,
		       t.round, nr);
		printf("%s in all, %s since the start\n", sz, gr);
		qsort(v, nr, sizeof(*v), cmp_ptr_top);
		top_lines(v, nr, n, secs, 0);
		qsort(v, nr, sizeof(*v), cmp_ptr_growth);
		top_lines(v, nr, n, secs, 1);
		fflush(stdout);
		free(v);
	}
	close(fd);
	return 0;
}

/* -q: @n tags at most (0: all) */
struct query {
	long n;
	long shown;
};

static int query_tag(const struct allocinfo_tag_data *d, void *arg)
{
	struct query *q = arg;

	print_tag(d);
	return q->n && ++q->shown >= q->n;
}

/* -q: the tags of the filter, 1 if none; -c: CONTENT_ID */
static int query(struct allocinfo_get_at *at, long n, int content_id)
{
	struct allocinfo_content_id id;
	struct query q = { n, 0 };
	int fd, ret = 0;

	fd = open_allocinfo();
	if (content_id) {
		if (ioctl(fd, ALLOCINFO_IOC_CONTENT_ID, &id))
			die(strerror(errno), "ALLOCINFO_IOC_CONTENT_ID");
		printf("%llu\n", (unsigned long long)id.id);
	} else {
		ret = walk(fd, at, query_tag, &q);
	}
	close(fd);
	return ret;
}

int main(int argc, char **argv)
{
	struct report r = { 0 };
	struct allocinfo_get_at at = { 0 };
	long long db, dc, total = 0, total_old = 0;
	int diff = 0, all = 0, q = 0, content_id = 0, n_set = 0, c;
	double secs = 0;
	long iters = 0;
	char sz[32], osz[32], dcalls[32];
	long n = 20;
	size_t i, shown = 0;
	char *end;

	while ((c = getopt(argc, argv, "acdqn:s:p:M:f:F:l:A:b:B:t:i:")) != -1) {
		switch (c) {
		case 'a':
			all = 1;
			break;
		case 'c':
			content_id = 1;
			break;
		case 'd':
			diff = 1;
			break;
		case 'q':
			q = 1;
			break;
		case 'n':
			n = strtol(optarg, &end, 10);
			if (*end || n < 0)
				help();
			n_set = 1;
			break;
		case 's':
			if (!strcmp(optarg, "calls"))
				sort_by_calls = 1;
			else if (strcmp(optarg, "bytes"))
				help();
			break;
		case 'p':
			at.pos = number(optarg);
			break;
		case 't':
			secs = strtod(optarg, &end);
			if (*end || !(secs > 0) || secs > 86400)
				help();
			break;
		case 'i':
			iters = number(optarg);
			break;
		case 'M':
			at.filter.mask |= ALLOCINFO_FILTER_MASK_MODNAME;
			set_str(at.filter.fields.modname, optarg);
			break;
		case 'f':
			at.filter.mask |= ALLOCINFO_FILTER_MASK_FUNCTION;
			set_str(at.filter.fields.function, optarg);
			break;
		case 'F':
			at.filter.mask |= ALLOCINFO_FILTER_MASK_FILENAME;
			set_str(at.filter.fields.filename, optarg);
			break;
		case 'l':
			at.filter.mask |= ALLOCINFO_FILTER_MASK_LINENO;
			at.filter.fields.lineno = number(optarg);
			break;
		case 'A':
			at.filter.mask |= ALLOCINFO_FILTER_MASK_INACCURATE;
			at.filter.inaccurate = number(optarg);
			break;
		case 'b':
			at.filter.mask |= ALLOCINFO_FILTER_MASK_MIN_SIZE;
			at.filter.min_size = number(optarg);
			break;
		case 'B':
			at.filter.mask |= ALLOCINFO_FILTER_MASK_MAX_SIZE;
			at.filter.max_size = number(optarg);
			break;
		default:
			help();
		}
	}
	if (secs) {
		if (optind != argc || diff || all || q || content_id || at.pos)
			help();
		return top(&at, n, secs, iters);
	}
	if (q || content_id) {
		if (optind != argc || diff || all || sort_by_calls || iters)
			help();
		return query(&at, n_set ? n : 0, content_id);
	}
	if (at.pos || at.filter.mask || iters)
		help();
	if (diff ? argc - optind != 2 : argc - optind > 1)
		help();

	if (diff)
		read_report(&r, argv[optind++], 1);
	read_report(&r, argv[optind], 0);
	qsort(r.sites, r.nr, sizeof(*r.sites), diff ? cmp_growth : cmp_top);

	for (i = 0; i < r.nr; i++) {
		struct site *s = &r.sites[i];

		total += s->bytes;
		total_old += s->old_bytes;
		db = s->bytes - s->old_bytes;
		dc = s->calls - s->old_calls;
		if (diff && (db == 0 && dc == 0))
			continue;
		if (diff && !all && db <= 0 && (sort_by_calls ? dc <= 0 : 1))
			continue;
		if (n && shown >= (size_t)n)
			continue;
		shown++;
		if (diff) {
			sz[0] = '+';
			format_size(sz + (db > 0), sizeof(sz) - 1, db);
			snprintf(dcalls, sizeof(dcalls), "%+lld", dc);
			format_size(osz, sizeof(osz), s->bytes);
			printf("%-8s %-7s %7s %s\n", sz, dcalls, osz, s->key);
		} else {
			format_size(sz, sizeof(sz), s->bytes);
			printf("%7s %8lld %s\n", sz, s->calls, s->key);
		}
	}
	format_size(sz, sizeof(sz), total);
	if (diff) {
		format_size(osz, sizeof(osz), total - total_old);
		printf("# %zu sites, %s in all, %s%s since the old snapshot\n",
		       r.nr, sz, total >= total_old ? "+" : "", osz);
	} else {
		printf("# %zu sites, %s in all\n", r.nr, sz);
	}
	return 0;
}
