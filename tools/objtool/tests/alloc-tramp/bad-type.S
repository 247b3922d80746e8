/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A call with a relocation type that is not a PC-relative 32-bit one:
 * objtool must refuse the object rather than guess.
 */
	.text
	.globl	bad_type
	.type	bad_type, @function
bad_type:
	.byte	0xe8
	.reloc	., R_X86_64_32, __kmalloc_noprof
	.long	0
	ret
	.size	bad_type, . - bad_type
