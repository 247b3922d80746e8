// SPDX-License-Identifier: GPL-2.0
/*
 * Out-of-line allocator wrappers whose argument words objtool counts
 * through typedefs, or without the size of a struct: a wrapper copy is a
 * site only if it takes no stack arguments, counted so.  A struct or union
 * of unknown size counts as 16 bytes, as sockptr_t and bpfptr_t, the
 * by-value structs of the 6.12 wrappers.  A variadic wrapper is refused.
 * run.sh builds this with and without -femit-struct-debug-baseonly
 * (CONFIG_DEBUG_INFO_REDUCED) and checks which calls are sites.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <sys/select.h>
#include "kernel-types.h"

/* Defined here, in the base file: its size is in the DWARF either way. */
struct local_triple {
	unsigned long a, b, c;
};

/*
 * The parameter types of the 6.12 wrappers: pointers (kmem_buckets *),
 * size_t and gfp_t typedefs of integers, int, an enum.  A site.
 */
static noinline void *kmalloc_node_args_noprof(struct kmem_cache **b,
					       size_t size, gfp_t flags,
					       int node, enum node_kind kind,
					       const struct hdr_pair *hint)
{
	return __kmalloc_node_noprof(b, size + hint->a, flags | kind, node);
}

/*
 * lldiv_t: a const typedef of an unnamed 16-byte struct of a header, as
 * sockptr_t.  Two registers after four words: a site, with its size in
 * the DWARF or counted as 16 bytes without.
 */
static noinline void *kmalloc_lldiv_noprof(size_t a, size_t b, size_t c,
					   size_t d, const lldiv_t p)
{
	return __kmalloc_noprof(a + b + c + d + p.quot + p.rem, 1);
}

/*
 * fd_set: a typedef of a 128-byte struct, sixteen words on the stack.
 * Refused if the DWARF has its size; without, counted short, as 16 bytes.
 */
static noinline void *kmalloc_fdset_noprof(fd_set s)
{
	return __kmalloc_noprof(FD_ISSET(0, &s) + FD_ISSET(1023, &s), 2);
}

/* A struct of the header by value: 16 bytes, known or counted so. */
static noinline void *kmalloc_hdr_noprof(struct hdr_pair p)
{
	return __kmalloc_noprof(p.a + p.b, 3);
}

/* A struct of the header returned: in two registers, known or counted so. */
static noinline struct hdr_pair kmalloc_hdr_ret_noprof(size_t size)
{
	struct hdr_pair p = { (unsigned long)__kmalloc_noprof(size, 4), size };

	return p;
}

/*
 * Five words and a struct of the header: one register left, the struct
 * on the stack, two words, known or counted so.
 */
static noinline void *kmalloc_hdr5_noprof(size_t a, size_t b, size_t c,
					  size_t d, size_t e, struct hdr_pair p)
{
	return __kmalloc_noprof(a + b + c + d + e + p.a + p.b, 5);
}

/* A struct of 24 bytes whose size is known: three words on the stack. */
static noinline void *kmalloc_local_noprof(struct local_triple t)
{
	return __kmalloc_noprof(t.a + t.b + t.c, 6);
}

/* Variadic: the words after fmt are not known. */
static noinline void *kasprintf_args_noprof(gfp_t gfp, const char *fmt, ...)
{
	va_list ap;
	size_t size;

	va_start(ap, fmt);
	size = va_arg(ap, size_t);
	va_end(ap);
	return __kmalloc_noprof(size + *fmt, gfp);
}

#define kmalloc_node_args(...)	kmalloc_node_args_noprof(__VA_ARGS__)
#define kmalloc_lldiv(...)	kmalloc_lldiv_noprof(__VA_ARGS__)
#define kmalloc_fdset(...)	kmalloc_fdset_noprof(__VA_ARGS__)
#define kmalloc_hdr(...)	kmalloc_hdr_noprof(__VA_ARGS__)
#define kmalloc_hdr_ret(...)	kmalloc_hdr_ret_noprof(__VA_ARGS__)
#define kmalloc_hdr5(...)	kmalloc_hdr5_noprof(__VA_ARGS__)
#define kmalloc_local(...)	kmalloc_local_noprof(__VA_ARGS__)
#define kasprintf_args(...)	kasprintf_args_noprof(__VA_ARGS__)

void node_args(struct kmem_cache **b, size_t n, const struct hdr_pair *hint)
{
	use(kmalloc_node_args(b, n, 0x10, -1, NODE_LOCAL, hint));
}

void lldiv_arg(size_t n)
{
	lldiv_t p = { n, n + 1 };

	use(kmalloc_lldiv(n, n, n, n, p));
}

void fdset_arg(const fd_set *s)
{
	use(kmalloc_fdset(*s));
}

void hdr_arg(size_t n)
{
	struct hdr_pair p = { n, n + 1 };

	use(kmalloc_hdr(p));
}

void hdr_ret(size_t n)
{
	use((void *)kmalloc_hdr_ret(n).a);
}

void hdr5_args(size_t n)
{
	struct hdr_pair p = { n, n + 1 };

	use(kmalloc_hdr5(n, n, n, n, n, p));
}

void local_arg(size_t n)
{
	struct local_triple t = { n, n + 1, n + 2 };

	use(kmalloc_local(t));
}

void variadic(size_t n)
{
	use(kasprintf_args(0x10, "%zu", n));
}
