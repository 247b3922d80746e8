/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bounds of the site table, linked first (BEGIN) and last (END); the
 * starts of the tags and of their static counters.
 */
	.section .alloc_tramp.sites, "a"
#ifdef BEGIN
	.globl sites_begin
sites_begin:
	.section alloc_tags, "aw"
	.globl tags_begin
tags_begin:
	.section .data..percpu..alloc_tramp, "aw"
	.globl counters_begin
counters_begin:
#else
	.globl sites_end
sites_end:
#endif

	.section .note.GNU-stack, "", @progbits
