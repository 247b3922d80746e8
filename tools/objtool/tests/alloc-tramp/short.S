/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tail call reached with a 2-byte jmp: the assembler picks the short
 * form for a nearby local copy of an allocator wrapper.  Its rel8 cannot
 * reach a stub, so it is not a site, with a warning; the long call
 * beside it still is.
 */
	.text
	.type	kzalloc_noprof.constprop.0, @function
kzalloc_noprof.constprop.0:
	xorl	%eax, %eax
	ret
	.size	kzalloc_noprof.constprop.0, . - kzalloc_noprof.constprop.0

	.globl	short_tail
	.type	short_tail, @function
short_tail:
	call	kzalloc_noprof.constprop.0
	jmp	kzalloc_noprof.constprop.0
	.size	short_tail, . - short_tail
