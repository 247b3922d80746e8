// SPDX-License-Identifier: GPL-2.0
/*
 * Out-of-line allocator wrappers by the number of their argument words.
 * A wrapper stub keeps the old tag on the stack while the wrapper runs,
 * so a wrapper that takes arguments on the stack must not be a site: on
 * x86-64 the first six words go in registers, a struct of more than 16
 * bytes goes on the stack, and one of 9 to 16 bytes takes two registers
 * or, if two are not left, the stack.  run.sh checks which calls are
 * sites.
 */
#include "alloc.h"

struct pair {
	unsigned long a, b;
};

struct triple {
	unsigned long a, b, c;
};

/* Six words, all in registers: a site. */
static noinline void *kmalloc_six_noprof(size_t a, size_t b, size_t c,
					 size_t d, size_t e, size_t f)
{
	return __kmalloc_noprof(a + b + c + d + e + f, 1);
}

/* Seven words: the seventh on the stack. */
static noinline void *kmalloc_seven_noprof(size_t a, size_t b, size_t c,
					   size_t d, size_t e, size_t f,
					   size_t g)
{
	return __kmalloc_noprof(a + b + c + d + e + f + g, 2);
}

/* One argument of 24 bytes: all three words on the stack. */
static noinline void *kmalloc_triple_noprof(struct triple t)
{
	return __kmalloc_noprof(t.a + t.b + t.c, 3);
}

/* Four words and a pair: six words in registers, a site. */
static noinline void *kmalloc_pair4_noprof(size_t a, size_t b, size_t c,
					   size_t d, struct pair p)
{
	return __kmalloc_noprof(a + b + c + d + p.a + p.b, 4);
}

/* Five words and a pair: one register left, the pair on the stack. */
static noinline void *kmalloc_pair5_noprof(size_t a, size_t b, size_t c,
					   size_t d, size_t e, struct pair p)
{
	return __kmalloc_noprof(a + b + c + d + e + p.a + p.b, 5);
}

#define kmalloc_six(...)	kmalloc_six_noprof(__VA_ARGS__)
#define kmalloc_seven(...)	kmalloc_seven_noprof(__VA_ARGS__)
#define kmalloc_triple(...)	kmalloc_triple_noprof(__VA_ARGS__)
#define kmalloc_pair4(...)	kmalloc_pair4_noprof(__VA_ARGS__)
#define kmalloc_pair5(...)	kmalloc_pair5_noprof(__VA_ARGS__)

void six_args(size_t n)
{
	use(kmalloc_six(n, n, n, n, n, n));
}

void seven_args(size_t n)
{
	use(kmalloc_seven(n, n, n, n, n, n, n));
}

void triple_arg(size_t n)
{
	struct triple t = { n, n + 1, n + 2 };

	use(kmalloc_triple(t));
}

void pair4_args(size_t n)
{
	struct pair p = { n, n + 1 };

	use(kmalloc_pair4(n, n, n, n, p));
}

void pair5_args(size_t n)
{
	struct pair p = { n, n + 1 };

	use(kmalloc_pair5(n, n, n, n, n, p));
}
