// SPDX-License-Identifier: GPL-2.0
/*
 * Move anonymous pages between NUMA nodes with move_pages(2), for
 * migrate.sh: "alloc_tramp_migrate PAGES ROUNDS" maps PAGES pages, touches
 * them, moves them all to node 1 and back to node 0 ROUNDS times, unmaps
 * them and prints how many page moves succeeded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/mempolicy.h>

static long move_all(void **pages, int *nodes, int *status, long n, int node)
{
	long i, moved = 0;

	for (i = 0; i < n; i++)
		nodes[i] = node;
	if (syscall(SYS_move_pages, 0, n, pages, nodes, status, MPOL_MF_MOVE)) {
		perror("move_pages");
		return -1;
	}
	for (i = 0; i < n; i++)
		moved += status[i] == node;
	return moved;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 256, rounds = argc > 2 ? atol(argv[2]) : 1;
	long psz = sysconf(_SC_PAGESIZE), i, r, moved = 0, m;
	void **pages = calloc(n, sizeof(*pages));
	int *nodes = calloc(n, sizeof(*nodes));
	int *status = calloc(n, sizeof(*status));
	char *mem;

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
