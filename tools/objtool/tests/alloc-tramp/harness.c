// SPDX-License-Identifier: GPL-2.0
/*
 * Runs the stubs objtool made for sites.c in user space: every site table
 * entry must name its call instruction and target, and calling its
 * trampoline must reach the target with the site's tag and with all the
 * arguments, the ones on the stack too.  The tagged-call bodies here just
 * record %r11; the kernel's are in arch/x86/kernel/alloc_tramp_64.S.
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"

void *cur_tag;
static void *seen_tag;
static unsigned long seen[9];
static int tests, failed;

/* Bodies that only record the tag: no stack words to copy, they jump. */
#define ALLOC_TRAMP_TARGET(name, stack_words, ...)			\
	".globl __alloc_tramp_" #name "\n"				\
	"__alloc_tramp_" #name ":\n"					\
	".globl __alloc_tramp_tail_" #name "\n"			\
	"__alloc_tramp_tail_" #name ":\n"				\
	"	# " #stack_words " stack words\n"			\
	"	.weak " #name "\n"					\
	"	movq %r11, cur_tag(%rip)\n"				\
	"	jmp " #name "\n"
#define ALLOC_TRAMP_TARGET_IF(config, name, stack_words, ...)	\
	"	# " #config "\n"					\
	ALLOC_TRAMP_TARGET(name, stack_words, __VA_ARGS__)
#define ALLOC_TRAMP_TARGET_MEMINIT(name, stack_words, ...)		\
	ALLOC_TRAMP_TARGET(name, stack_words, __VA_ARGS__)
asm(".text\n"
#include "../../../../include/linux/alloc_tramp_targets.h"
);

/* The kernel's, with cur_tag for current->alloc_tag. */
asm(".text\n"
	".globl __alloc_tramp_wrapper_enter, __alloc_tramp_tail_wrapper_enter\n"
	"__alloc_tramp_wrapper_enter:\n"
	"__alloc_tramp_tail_wrapper_enter:\n"
	"	pushq cur_tag(%rip)\n"
	"	movq %r11, cur_tag(%rip)\n"
	"	movq (%rsp), %r10\n"
	"	movq 8(%rsp), %r11\n"
	"	movq %r11, (%rsp)\n"
	"	movq %r10, 8(%rsp)\n"
	"	ret\n"
	".globl __alloc_tramp_wrapper_leave\n"
	"__alloc_tramp_wrapper_leave:\n"
	"	popq cur_tag(%rip)\n"
	"	ret\n");

void use(void *p) { }
void *other_function(unsigned long size) { return NULL; }

void *__kmalloc_noprof(unsigned long size, unsigned int flags)
{
	seen_tag = cur_tag;
	seen[0] = size;
	seen[1] = flags;
	return &seen;
}

void *__kmalloc_cache_noprof(void *cache, unsigned int flags, unsigned long size)
{
	seen_tag = cur_tag;
	seen[0] = size;
	seen[1] = flags;
	return &seen;
}

unsigned long get_free_pages_noprof(unsigned int gfp, unsigned int order)
{
	seen_tag = cur_tag;
	seen[0] = order;
	seen[1] = gfp;
	return 4096;
}

void *__vmalloc_node_range_noprof(unsigned long a0, unsigned long a1,
				  unsigned long a2, unsigned long a3,
				  unsigned int a4, unsigned long a5,
				  unsigned long a6, int a7, const void *a8)
{
	unsigned long args[9] = { a0, a1, a2, a3, a4, a5, a6, a7,
				  (unsigned long)a8 };

	seen_tag = cur_tag;
	memcpy(seen, args, sizeof(seen));
	return &seen;
}

static void *rel(const __s32 *field)
{
	return (void *)field + *field;
}

static void ok(int cond, const char *what, const struct tag *tag)
{
	tests++;
	failed += !cond;
	printf("%sok %d - %s %s:%u\n", cond ? "" : "not ", tests, what,
	       tag ? tag->filename : "?", tag ? tag->lineno : 0);
}

int main(void)
{
	const struct alloc_tramp_site *site;
	unsigned long want[9], i;

	for (site = sites_begin; site < sites_end; site++) {
		const unsigned char *insn = rel(&site->addr);
		struct tag *tag = rel(&site->tag);
		void *target = rel(&site->target), *tramp = rel(&site->tramp);
		int rel = insn[0] == 0x0f ? 2 : 1;
		int rel32;

		memcpy(&rel32, insn + rel, 4);
		ok((insn[0] == 0xe8 || insn[0] == 0xe9 ||
		    (insn[0] == 0x0f && (insn[1] & 0xf0) == 0x80)) &&
		   insn + rel + 4 + rel32 == target,
		   "site is a call or jump to its target", tag);

		memset(seen, 0, sizeof(seen));
		seen_tag = NULL;
		for (i = 0; i < 9; i++)
			want[i] = 0x1000 + i;

		if (((unsigned char *)tramp)[12] == 0xe8) {
			/* A wrapper stub: kcalloc_noprof(n, 8) */
			cur_tag = NULL;
			ok(((void *(*)(unsigned long, unsigned long))tramp)
				(want[0], 8) == seen &&
			   seen[0] == want[0] * 8 && seen[1] == 7 && !cur_tag,
			   "the wrapper runs, and the tag is restored", tag);
		} else if (target == (void *)__vmalloc_node_range_noprof) {
			((void *(*)(unsigned long, unsigned long, unsigned long,
				    unsigned long, unsigned int, unsigned long,
				    unsigned long, int, const void *))tramp)
				(want[0], want[1], want[2], want[3], want[4],
				 want[5], want[6], want[7], (void *)want[8]);
			ok(!memcmp(seen, want, sizeof(want)),
			   "nine arguments reach the target", tag);
		} else if (target == (void *)get_free_pages_noprof) {
			ok(((unsigned long (*)(unsigned int, unsigned int))tramp)
				(want[1], want[0]) == 4096 &&
			   seen[0] == want[0] && seen[1] == want[1],
			   "arguments and return value pass", tag);
		} else if (target == (void *)__kmalloc_cache_noprof) {
			ok(((void *(*)(void *, unsigned int, unsigned long))tramp)
				(NULL, want[1], want[0]) == seen &&
			   seen[0] == want[0] && seen[1] == want[1],
			   "arguments and return value pass", tag);
		} else {
			ok(((void *(*)(unsigned long, unsigned int))tramp)
				(want[0], want[1]) == seen &&
			   seen[0] == want[0] && seen[1] == want[1],
			   "arguments and return value pass", tag);
		}
		ok(seen_tag == tag && tag->lineno &&
		   !strcmp(tag->filename, "sites.c") &&
		   tag->counters == counters_begin + 16 * (tag - tags_begin),
		   "the target runs under the site's tag", tag);
	}

	ok(sites_end - sites_begin == 9, "nine sites", NULL);
	printf("1..%d\n", tests);
	return failed != 0;
}
