// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86-64 instructions of the allocation trampolines.
 */
#include <elf.h>
#include <objtool/alloc_tramp.h>

/*
 *	lea	tag(%rip), %r11
 *	jmp	__alloc_tramp_<target>
 *	int3 padding
 *
 * %r11 is caller-clobbered and never carries an argument, so the body
 * sees the caller's arguments, stack and return address untouched.
 */
static const unsigned char stub_bytes[16] = {
	0x4c, 0x8d, 0x1d, 0, 0, 0, 0,
	0xe9, 0, 0, 0, 0,
	0xcc, 0xcc, 0xcc, 0xcc,
};

const struct alloc_tramp_stub arch_alloc_tramp_stub = {
	.size	= sizeof(stub_bytes),
	.bytes	= stub_bytes,
	.tag	= { .offset = 3, .type = R_X86_64_PC32,  .addend = -4 },
	.body	= { .offset = 8, .type = R_X86_64_PLT32, .addend = -4 },
};

/*
 *	lea	tag(%rip), %r11
 *	call	__alloc_tramp_[tail_]wrapper_enter	(saves the old tag below
 *						 the return address, sets tag)
 *	call	wrapper
 *	jmp	__alloc_tramp_wrapper_leave	(puts the old tag back, returns)
 *	int3 padding
 *
 * Every call returns to where it was made from, so the return stack
 * buffer and call depth tracking stay right.  From the second call on,
 * the old tag is on the stack: the CFA is %rsp + 16.
 */
static const unsigned char wrapper_stub_bytes[32] = {
	0x4c, 0x8d, 0x1d, 0, 0, 0, 0,
	0xe8, 0, 0, 0, 0,
	0xe8, 0, 0, 0, 0,
	0xe9, 0, 0, 0, 0,
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
};

const struct alloc_tramp_stub arch_alloc_tramp_wrapper_stub = {
	.size	= sizeof(wrapper_stub_bytes),
	.bytes	= wrapper_stub_bytes,
	.tag	= { .offset = 3,  .type = R_X86_64_PC32,  .addend = -4 },
	.body	= { .offset = 8,  .type = R_X86_64_PLT32, .addend = -4 },
	.target	= { .offset = 13, .type = R_X86_64_PLT32, .addend = -4 },
	.leave	= { .offset = 18, .type = R_X86_64_PLT32, .addend = -4 },
	.saved_from = 12,
	.saved_to = 22,
};

int arch_alloc_tramp_rel32(const unsigned char *insn, unsigned int len)
{
	/* call rel32, jmp rel32 */
	if (len == 5 && (insn[0] == 0xe8 || insn[0] == 0xe9))
		return 1;

	/* jcc rel32 */
	if (len == 6 && insn[0] == 0x0f && (insn[1] & 0xf0) == 0x80)
		return 2;

	return -1;
}

bool arch_alloc_tramp_call_reloc(struct reloc *reloc, unsigned int size,
				 bool section_sym)
{
	return size == 4 && (section_sym || reloc_addend(reloc) == -4) &&
	       (reloc_type(reloc) == R_X86_64_PLT32 ||
		reloc_type(reloc) == R_X86_64_PC32);
}
