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
#include <linux/objtool.h>
#include <linux/kconfig.h>
#include <asm/asm-offsets.h>
#include <asm/ibt.h>
#include <asm/percpu.h>
#include <asm/unwind_hints.h>

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

/*
 * A call of an out-of-line copy of a static inline allocator wrapper
 * (kzalloc_noprof.constprop.0, ...) has no body of its own.  Its stub is
 *
 *	lea	tag(%rip), %r11
 *	call	__alloc_tramp_wrapper
 *	jmp	wrapper
 *
 * __alloc_tramp_wrapper sets the tag and returns into the stub's jmp with
 * the stack the wrapper expects, except that its return address leads to
 * __alloc_tramp_wrapper_exit, which puts the old tag back.  While the
 * wrapper runs the stack is: exit, old tag, %rbx, pad, caller's return.
 * The wrappers take no stack arguments.
 */
SYM_CODE_START(__alloc_tramp_wrapper)
	UNWIND_HINT_FUNC
	ENDBR
	popq	%r10
	UNWIND_HINT_FUNC
	subq	$8, %rsp
	pushq	%rbx
	movq	PER_CPU_VAR(pcpu_hot + X86_current_task), %rbx
	pushq	TASK_alloc_tag(%rbx)
	movq	%r11, TASK_alloc_tag(%rbx)
	movq	8(%rsp), %rbx
	leaq	__alloc_tramp_wrapper_exit(%rip), %r11
	pushq	%r11
	pushq	%r10
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(__alloc_tramp_wrapper)
EXPORT_SYMBOL(__alloc_tramp_wrapper)

SYM_CODE_START_LOCAL(__alloc_tramp_wrapper_ret)
	/* The unwinder looks up the return address - 1: cover it too. */
	UNWIND_HINT type=UNWIND_HINT_TYPE_CALL sp_reg=ORC_REG_SP sp_offset=32
	nop
SYM_INNER_LABEL(__alloc_tramp_wrapper_exit, SYM_L_LOCAL)
	ANNOTATE_NOENDBR
	movq	PER_CPU_VAR(pcpu_hot + X86_current_task), %r10
	popq	TASK_alloc_tag(%r10)
	popq	%rbx
	addq	$8, %rsp
	RET
SYM_CODE_END(__alloc_tramp_wrapper_ret)
