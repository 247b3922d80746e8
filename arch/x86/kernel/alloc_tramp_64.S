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
 * The allocator's _RET_IP_ is then the body: the body leaves the site's
 * return address in current->alloc_tramp_ret_ip, where alloc_tramp_caller()
 * finds it, so that tracepoints, SLUB's alloc_traces and vmallocinfo name
 * the real caller.
 *
 * Switched off after they were on, the sites stay patched, "parked"
 * (lib/alloc_tramp.c): while alloc_tramp_parked is set, a body jumps to
 * its target at once, with the caller's arguments, stack and return
 * address, and the target runs as if the site had called it.  With call
 * depth tracking, the call entry has accounted for the target's return.
 *
 * %rbx keeps current across the call, and the old tag and return address
 * are pushed and popped back in place.  Arguments past the sixth are
 * copied below them, and the stack keeps the 16-byte parity the target
 * had when called directly.  With frame pointers, the body has a frame of
 * its own, as C functions do.
 *
 * A call site enters at __alloc_tramp_<target>, a tail call (jmp, jcc)
 * at __alloc_tramp_tail_<target>.  With call depth tracking, the call of
 * a patched site no longer goes through the target's call thunk, and the
 * body's return must be accounted for: the call entry does it.  The
 * body's own call of the target is a direct call, which the call thunks
 * account for as any other.
 */
#include <linux/alloc_tramp_types.h>
#include <linux/export.h>
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <linux/kconfig.h>
#include <asm/asm-offsets.h>
#include <asm/frame.h>
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#include <asm/percpu.h>
#include <asm/unwind_hints.h>

.macro ALLOC_TRAMP_BODY target:req stack_words:req export=1
	/*
	 * Words above the copied arguments: the return address, %rbp, %rbx
	 * and the task's previous alloc_tag and alloc_tramp_ret_ip.
	 */
	.set .Lsaved, 4 + IS_ENABLED(CONFIG_FRAME_POINTER)
	.set .Lpad, 8 * (((\stack_words) + .Lsaved) & 1)
SYM_FUNC_START(__alloc_tramp_\target)
	CALL_DEPTH_ACCOUNT
SYM_INNER_LABEL(__alloc_tramp_tail_\target, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* Parked: the target, as if the site called it */
	cmpb	$0, alloc_tramp_parked(%rip)
	jne	\target
	FRAME_BEGIN
	pushq	%rbx
	movq	PER_CPU_VAR(pcpu_hot + X86_current_task), %rbx
	pushq	TASK_alloc_tag(%rbx)
	pushq	TASK_alloc_tramp_ret_ip(%rbx)
	movq	%r11, TASK_alloc_tag(%rbx)
	movq	(8 * (.Lsaved - 1))(%rsp), %r11
	movq	%r11, TASK_alloc_tramp_ret_ip(%rbx)
	.if .Lpad
	subq	$.Lpad, %rsp
	.endif
	.rept \stack_words
	pushq	(8 * .Lsaved + .Lpad + 8 * ((\stack_words) - 1))(%rsp)
	.endr
	call	\target
	.if .Lpad + (\stack_words)
	addq	$(.Lpad + 8 * (\stack_words)), %rsp
	.endif
	popq	TASK_alloc_tramp_ret_ip(%rbx)
	popq	TASK_alloc_tag(%rbx)
	popq	%rbx
	FRAME_END
	RET
SYM_FUNC_END(__alloc_tramp_\target)
	.if \export
EXPORT_SYMBOL(__alloc_tramp_\target)
EXPORT_SYMBOL(__alloc_tramp_tail_\target)
	.endif
.endm

/*
 * Fault injection (lib/alloc_tramp_fail.c): the stub of an armed site
 * jumps to __alloc_tramp_fail_<target> instead of the body, or to
 * __alloc_tramp_fail_plain_<target> when the site is not profiled.  With
 * the arguments saved, __alloc_tramp_should_fail(tag, args, index) says
 * what to do: ALLOC_TRAMP_FAIL_CALL goes on to the body, or straight to
 * the target, with the arguments and stack as the stub left them; any
 * other value is returned as the failed call's.  index is the target's
 * place in <linux/alloc_tramp_targets.h>.
 */
.macro ALLOC_TRAMP_FAIL name:req to:req index:req export
	.set .Lfp, IS_ENABLED(CONFIG_FRAME_POINTER)
SYM_FUNC_START(__alloc_tramp_\name)
	CALL_DEPTH_ACCOUNT
SYM_INNER_LABEL(__alloc_tramp_tail_\name, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	FRAME_BEGIN
	pushq	%r9
	pushq	%r8
	pushq	%rcx
	pushq	%rdx
	pushq	%rsi
	pushq	%rdi
	pushq	%r11
	/* The call needs a 16-byte aligned stack. */
	.if .Lfp
	subq	$8, %rsp
	.endif
	movq	%r11, %rdi
	leaq	(8 + 8 * .Lfp)(%rsp), %rsi
	movl	$(\index), %edx
	call	__alloc_tramp_should_fail
	cmpq	$ALLOC_TRAMP_FAIL_CALL, %rax
	/* Neither lea nor pop changes the flags. */
	.if .Lfp
	leaq	8(%rsp), %rsp
	.endif
	popq	%r11
	popq	%rdi
	popq	%rsi
	popq	%rdx
	popq	%rcx
	popq	%r8
	popq	%r9
	FRAME_END
	/*
	 * A sibling call: @PLT keeps the relocation that the assembler would
	 * resolve for a body of this file, so that objtool sees one.
	 */
	je	\to@PLT
	RET
SYM_FUNC_END(__alloc_tramp_\name)
	.if \export
EXPORT_SYMBOL(__alloc_tramp_\name)
EXPORT_SYMBOL(__alloc_tramp_tail_\name)
	.endif
.endm

.macro ALLOC_TRAMP_FAILS target:req export=1
#ifdef CONFIG_ALLOC_TRAMP_FAULT_INJECTION
	ALLOC_TRAMP_FAIL fail_\target, __alloc_tramp_tail_\target, .Lindex, \export
	ALLOC_TRAMP_FAIL fail_plain_\target, \target, .Lindex, \export
#endif
.endm

/* Every target counts for the index, those this config lacks too. */
#define ALLOC_TRAMP_TARGET(name, stack_words, ...)			\
	ALLOC_TRAMP_BODY name, stack_words ;				\
	ALLOC_TRAMP_FAILS name ;					\
	.set .Lindex, .Lindex + 1
#define ALLOC_TRAMP_TARGET_IF(config, name, stack_words, ...)		\
	.if IS_ENABLED(config) ;					\
	ALLOC_TRAMP_BODY name, stack_words ;				\
	ALLOC_TRAMP_FAILS name ;					\
	.endif ;							\
	.set .Lindex, .Lindex + 1
#define ALLOC_TRAMP_TARGET_MEMINIT(name, stack_words, ...)		\
	.if IS_ENABLED(CONFIG_MEMORY_HOTPLUG) ;				\
	ALLOC_TRAMP_BODY name, stack_words ;				\
	ALLOC_TRAMP_FAILS name ;					\
	.else ;								\
	.pushsection .init.text, "ax" ;					\
	ALLOC_TRAMP_BODY name, stack_words, 0 ;				\
	ALLOC_TRAMP_FAILS name, 0 ;					\
	.popsection ;							\
	.endif ;							\
	.set .Lindex, .Lindex + 1

	.text
	.set .Lindex, 0
/*
 * alloc_tramp_caller() knows a call from a body by its return address:
 * it compares with these, which are never jumped to.
 */
	.globl	__alloc_tramp_bodies_start
__alloc_tramp_bodies_start:
	ANNOTATE_NOENDBR
#include <linux/alloc_tramp_targets.h>
	.globl	__alloc_tramp_bodies_end
__alloc_tramp_bodies_end:
	ANNOTATE_NOENDBR

/*
 * A call of an out-of-line copy of a static inline allocator wrapper
 * (kzalloc_noprof.constprop.0, ...) has no body of its own.  Its stub is
 *
 *	lea	tag(%rip), %r11
 *	call	__alloc_tramp_wrapper_enter	(__alloc_tramp_tail_... for a jmp)
 *	call	wrapper
 *	jmp	__alloc_tramp_wrapper_leave
 *
 * The enter saves the old tag below its return address and sets the
 * site's: while the wrapper runs, the stub's frame is the old tag and the
 * caller's return address.  The leave puts the old tag back and returns
 * to the caller.  Every call returns where it came from.  The wrappers
 * take no stack arguments.
 *
 * With call depth tracking, none of the stub's calls goes through a call
 * thunk: the enter accounts for its own return and the wrapper's, and,
 * for a call site, for the leave's return to the caller.
 */
.macro ALLOC_TRAMP_WRAPPER_ENTRY name:req calls:req
SYM_CODE_START(\name)
	UNWIND_HINT_FUNC
	ENDBR
	CALL_DEPTH_ACCOUNT
	CALL_DEPTH_ACCOUNT
	.if \calls == 3
	CALL_DEPTH_ACCOUNT
	.endif
	movq	PER_CPU_VAR(pcpu_hot + X86_current_task), %r10
	pushq	TASK_alloc_tag(%r10)
	/* Parked: the wrapper runs under the tag it would have had */
	cmpb	$0, alloc_tramp_parked(%rip)
	jne	.Lparked_\@
	movq	%r11, TASK_alloc_tag(%r10)
.Lparked_\@:
	/* The old tag and the return address change places. */
	movq	(%rsp), %r10
	movq	8(%rsp), %r11
	movq	%r11, (%rsp)
	movq	%r10, 8(%rsp)
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(\name)
EXPORT_SYMBOL(\name)
.endm

ALLOC_TRAMP_WRAPPER_ENTRY __alloc_tramp_wrapper_enter, 3
ALLOC_TRAMP_WRAPPER_ENTRY __alloc_tramp_tail_wrapper_enter, 2

SYM_CODE_START(__alloc_tramp_wrapper_leave)
	UNWIND_HINT type=UNWIND_HINT_TYPE_CALL sp_reg=ORC_REG_SP sp_offset=16
	ANNOTATE_NOENDBR
	movq	PER_CPU_VAR(pcpu_hot + X86_current_task), %r10
	popq	TASK_alloc_tag(%r10)
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(__alloc_tramp_wrapper_leave)
EXPORT_SYMBOL(__alloc_tramp_wrapper_leave)
