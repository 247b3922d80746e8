/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _OBJTOOL_ALLOC_TRAMP_H
#define _OBJTOOL_ALLOC_TRAMP_H

#include <linux/types.h>
#include <objtool/objtool.h>
#include <objtool/elf.h>

/**
 * struct alloc_tramp_reloc - a relocation inside the per-site stub
 * @offset: where it applies, from the start of the stub
 * @type:   its ELF relocation type
 * @addend: added to the symbol's address
 */
struct alloc_tramp_reloc {
	unsigned int offset;
	unsigned int type;
	s64 addend;
};

/**
 * struct alloc_tramp_stub - a per-site stub of an architecture
 * @size:   bytes per stub, a power of two
 * @bytes:  the instructions, with the relocated fields zero
 * @tag:    the relocation that gives the stub its tag
 * @body:   the relocation to the tagged-call body
 * @target: for a wrapper stub, the relocation to the wrapper
 * @leave:  for a wrapper stub, the relocation to the tag restorer
 * @saved_from: for a wrapper stub, the first byte where a saved tag is
 *              on the stack below the return address
 * @saved_to: and the byte after the last
 *
 * The stub unwinds as a function entry wherever it is interrupted, but
 * for one word more on the stack in [@saved_from, @saved_to).
 */
struct alloc_tramp_stub {
	unsigned int size;
	const unsigned char *bytes;
	struct alloc_tramp_reloc tag;
	struct alloc_tramp_reloc body;
	struct alloc_tramp_reloc target;
	struct alloc_tramp_reloc leave;
	unsigned int saved_from, saved_to;
};

/* Calls an allocator: jumps to the allocator's own body. */
extern const struct alloc_tramp_stub arch_alloc_tramp_stub;

/*
 * Calls an out-of-line copy of a static inline allocator wrapper
 * (kzalloc_noprof.constprop.0, ...), which has no body of its own: calls
 * the common wrapper entry, which saves the old tag on the stack and sets
 * the site's, calls the wrapper, and jumps to the common exit, which
 * restores the old tag and returns to the site's caller.
 */
extern const struct alloc_tramp_stub arch_alloc_tramp_wrapper_stub;

/*
 * Offset of the rel32 field in a call or jump the runtime can redirect,
 * or -1 if the instruction is of another form.
 */
int arch_alloc_tramp_rel32(const unsigned char *insn, unsigned int len);

/*
 * Is @reloc the PC-relative relocation of a @size byte rel32 field?  For
 * a section symbol, the target's offset is in the addend.
 */
bool arch_alloc_tramp_call_reloc(struct reloc *reloc, unsigned int size,
				 bool section_sym);

int create_alloc_tramp_sections(struct objtool_file *file);

#endif /* _OBJTOOL_ALLOC_TRAMP_H */
