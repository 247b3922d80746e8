// SPDX-License-Identifier: GPL-2.0
/*
 * Move anonymous pages between NUMA nodes with move_pages(2), for
 * migrate.sh: "alloc_tramp_migrate PAGES ROUNDS" maps PAGES pages, touches
 * them, moves them all to node 1 and back to node 0 ROUNDS times, unmaps
 * them and prints how many page moves succeeded.
 * "alloc_tramp_migrate compact PAGES" maps PAGES pages, touches them,
 * frees every other one and compacts memory (/proc/sys/vm/compact_memory)
 * while it holds the others, so that compaction has pages to move.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mempolicy.h>

/*
 * Move the n pages to node; a page that migration could not take this
 * time (-EBUSY, -EAGAIN: a reference held for a moment elsewhere) is
 * tried again, up to 10 times.  How many pages are on node at the end.
 */
static long move_all(void **pages, int *nodes, int *status, long n, int node)
{
	long i, moved = 0, try, left = n;
	int err = 0;
	void **todo = calloc(n, sizeof(*todo));

	if (!todo)
		return -1;
	memcpy(todo, pages, n * sizeof(*todo));
	for (i = 0; i < n; i++)
		nodes[i] = node;
	for (try = 0; try < 10 && left; try++) {
		if (syscall(SYS_move_pages, 0, left, todo, nodes, status, MPOL_MF_MOVE) < 0) {
			perror("move_pages");
			free(todo);
			return -1;
		}
		n = left;
		for (i = 0, left = 0; i < n; i++) {
			if (status[i] == node) {
				moved++;
				continue;
			}
			if (!left)
				err = status[i];
			todo[left++] = todo[i];
		}
		if (left)
			fprintf(stderr, "move_pages: %ld pages left, the first's status %d\n",
				left, err);
	}
	free(todo);
	return moved;
}

static int compact(long n)
{
	long psz = sysconf(_SC_PAGESIZE), i;
	char *mem;
	FILE *f;

	mem = mmap(NULL, n * psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	memset(mem, 0x5a, n * psz);
	for (i = 0; i < n; i += 2)
		madvise(mem + i * psz, psz, MADV_DONTNEED);
	f = fopen("/proc/sys/vm/compact_memory", "w");
	if (!f || fputs("1\n", f) == EOF || fclose(f)) {
		perror("compact_memory");
		return 1;
	}
	for (i = 1; i < n; i += 2)
		if (mem[i * psz] != 0x5a) {
			fprintf(stderr, "page %ld lost its contents\n", i);
			return 1;
		}
	munmap(mem, n * psz);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 256, rounds = argc > 2 ? atol(argv[2]) : 1;
	long psz = sysconf(_SC_PAGESIZE), i, r, moved = 0, m;
	void **pages = calloc(n, sizeof(*pages));
	int *nodes = calloc(n, sizeof(*nodes));
	int *status = calloc(n, sizeof(*status));
	char *mem;

	if (argc == 3 && !strcmp(argv[1], "compact"))
		return compact(atol(argv[2]));
	mem = mmap(NULL, n * psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || !pages || !nodes || !status) {
		perror("alloc_tramp_migrate");
		return 1;
	}
	memset(mem, 0x5a, n * psz);
	for (i = 0; i < n; i++)
		pages[i] = mem + i * psz;
	for (r = 0; r < rounds; r++) {
		for (i = 1; i >= 0; i--) {
			m = move_all(pages, nodes, status, n, i);
			if (m < 0)
				return 1;
			moved += m;
		}
	}
	for (i = 0; i < n * psz; i += psz)
		if (mem[i] != 0x5a) {
			fprintf(stderr, "page %ld lost its contents\n", i / psz);
			return 1;
		}
	munmap(mem, n * psz);
	printf("%ld\n", moved);
	return 0;
}
