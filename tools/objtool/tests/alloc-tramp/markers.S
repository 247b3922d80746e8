/* SPDX-License-Identifier: GPL-2.0 */
/* Bounds of the site table, linked first (BEGIN) and last (END). */
	.section .alloc_tramp.sites, "a"
#ifdef BEGIN
	.globl sites_begin
sites_begin:
#else
	.globl sites_end
sites_end:
#endif

	.section .note.GNU-stack, "", @progbits
