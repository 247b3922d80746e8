// SPDX-License-Identifier: GPL-2.0
/*
 * The macro workload of make bench: what profiling costs a whole system,
 * not a loop.  "files": create, write, read and delete N files in a
 * tmpfs; "forks": N fork/exit/wait pairs.  Each runs REPS times and the
 * median is printed as "<name> <ns> ns/op", from CLOCK_MONOTONIC (under
 * QEMU -icount, guest time counts instructions).
 *
 * "switch FILE REPS" times writing 1 and 0 to FILE, vm.mem_profiling say,
 * the same way on upstream's kernel (its key) and on ours (every site):
 * "switch-on <ms> ms" and "switch-off <ms> ms", medians.
 *
 * Usage: alloc_bench_macro DIR FILES FORKS REPS
 *        alloc_bench_macro switch FILE REPS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int files(const char *dir, int n)
{
	char path[4096], buf[64];
	int i, fd, len;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		len = snprintf(buf, sizeof(buf), "file %d\n", i);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0 || write(fd, buf, len) != len || close(fd))
			return -1;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		fd = open(path, O_RDONLY);
		if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0 || close(fd))
			return -1;
	}
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%d", dir, i);
		if (unlink(path))
			return -1;
	}
	return 0;
}

static int forks(int n)
{
	int i, status;
	pid_t pid;

	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0)
			return -1;
		if (!pid)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid || status)
			return -1;
	}
	return 0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, val, strlen(val)) != (ssize_t)strlen(val) || close(fd))
		return -1;
	return 0;
}

static int switch_times(const char *path, int reps)
{
	double t[2][64], a;
	int r, w;

	for (r = 0; r < reps; r++) {
		for (w = 0; w < 2; w++) {
			a = now_ns();
			if (write_file(path, w ? "0\n" : "1\n")) {
				perror(path);
				return 1;
			}
			t[w][r] = (now_ns() - a) / 1e6;
		}
	}
	for (w = 0; w < 2; w++)
		qsort(t[w], reps, sizeof(double), cmp);
	printf("switch-on %.2f ms\nswitch-off %.2f ms\n", t[0][reps / 2], t[1][reps / 2]);
	return 0;
}

int main(int argc, char **argv)
{
	int nfiles, nforks, reps, r, w;
	double t[2][64];

	if (argc == 4 && !strcmp(argv[1], "switch")) {
		reps = atoi(argv[3]);
		if (reps <= 0 || reps > 64) {
			fprintf(stderr, "%s: bad count\n", argv[0]);
			return 2;
		}
		return switch_times(argv[2], reps);
	}

	if (argc != 5) {
		fprintf(stderr, "usage: %s DIR FILES FORKS REPS\n", argv[0]);
		return 2;
	}
	nfiles = atoi(argv[2]);
	nforks = atoi(argv[3]);
	reps = atoi(argv[4]);
	if (nfiles <= 0 || nforks <= 0 || reps <= 0 || reps > 64) {
		fprintf(stderr, "%s: bad counts\n", argv[0]);
		return 2;
	}

	for (r = 0; r < reps; r++) {
		double a = now_ns();

		if (files(argv[1], nfiles)) {
			perror("files");
			return 1;
		}
		t[0][r] = (now_ns() - a) / nfiles;
		a = now_ns();
		if (forks(nforks)) {
			perror("forks");
			return 1;
		}
		t[1][r] = (now_ns() - a) / nforks;
	}
	for (w = 0; w < 2; w++)
		qsort(t[w], reps, sizeof(double), cmp);
	printf("files %.1f ns/op\nforks %.1f ns/op\n", t[0][reps / 2], t[1][reps / 2]);
	return 0;
}
