/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tagged-call bodies of the allocation trampolines, one per allocator
 * in <linux/alloc_tramp_targets.h>.  A patched call site calls its stub
 * (made by objtool), which loads the site's struct alloc_tag into %r11
 * and jumps here with the caller's arguments and stack untouched:
 *
 *	old = current->alloc_tag;
 *	current->alloc_tag = %r11;
 *	ret = target(args...);
 *	current->alloc_tag = old;
 *	return ret;
 *
 * %rbx keeps the old tag across the call.  Arguments past the sixth are
 * copied below the saved %rbx, and the stack keeps the 16-byte parity
 * the target had when called directly.
 */
#include <linux/export.h>
#include <linux/linkage.h>
#include <linux/kconfig.h>
#include <asm/asm-offsets.h>
#include <asm/percpu.h>

.macro ALLOC_TRAMP_BODY target:req stack_words:req export=1
	.set .Lpad, 8 * ((\stack_words) & 1)
SYM_FUNC_START(__alloc_tramp_\target)
	pushq	%rbx
	movq	PER_CPU_VAR(pcpu_hot + X86_current_task), %r10
	movq	TASK_alloc_tag(%r10), %rbx
	movq	%r11, TASK_alloc_tag(%r10)
	.if \stack_words
	subq	$.Lpad, %rsp
	.rept \stack_words
	pushq	(16 + .Lpad + 8 * ((\stack_words) - 1))(%rsp)
	.endr
	.endif
	call	\target
	.if \stack_words
	addq	$(.Lpad + 8 * (\stack_words)), %rsp
	.endif
	movq	PER_CPU_VAR(pcpu_hot + X86_current_task), %r10
	movq	%rbx, TASK_alloc_tag(%r10)
	popq	%rbx
	RET
SYM_FUNC_END(__alloc_tramp_\target)
	.if \export
EXPORT_SYMBOL(__alloc_tramp_\target)
	.endif
.endm

#define ALLOC_TRAMP_TARGET(name, stack_words)			\
	ALLOC_TRAMP_BODY name, stack_words
#define ALLOC_TRAMP_TARGET_IF(config, name, stack_words)	\
	.if IS_ENABLED(config) ; ALLOC_TRAMP_BODY name, stack_words ; .endif
#define ALLOC_TRAMP_TARGET_MEMINIT(name, stack_words)		\
	.if IS_ENABLED(CONFIG_MEMORY_HOTPLUG) ;				\
	ALLOC_TRAMP_BODY name, stack_words ;				\
	.else ;								\
	.pushsection .init.text, "ax" ;					\
	ALLOC_TRAMP_BODY name, stack_words, 0 ;				\
	.popsection ;							\
	.endif

	.text
#include <linux/alloc_tramp_targets.h>
