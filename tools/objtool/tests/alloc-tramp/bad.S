/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A call whose relocation does not say "the target": the rel32 is
 * aimed 4 bytes off.  objtool must refuse the object, not make a
 * trampoline that the runtime would patch in wrongly.
 */
	.text
	.globl	bad_call
	.type	bad_call, @function
bad_call:
	.byte	0xe8
	.long	__kmalloc_noprof - . - 8
	ret
	.size	bad_call, . - bad_call
