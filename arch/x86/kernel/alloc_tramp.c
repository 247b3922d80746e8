// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation trampolines, x86: redirect an allocator call site between
 * its allocator and its trampoline.  The site is a call, jmp or jcc with a
 * rel32; only the rel32 changes.  Sites are queued and written in one
 * batch with text_poke_queue()/text_poke_finish(), as ftrace does.
 *
 * With call depth tracking, callthunks rewrote the direct calls to go
 * through the call thunk in front of their target: such a call calls its
 * allocator too, and switching off puts the call to the thunk back, as
 * static_call does.  The trampoline's call entry accounts for the call.
 *
 * Booted with alloc_trampolines=on, the sites of vmlinux are patched
 * before the first allocation, with text_poke_early().
 */
#include <linux/alloc_tramp.h>
#include <linux/memory.h>
#include <linux/string.h>
#include <asm/alternative.h>
#include <asm/text-patching.h>

/* Offset of the rel32 in the site's instruction, or -EINVAL. */
static int site_rel32(const u8 *insn)
{
	if (insn[0] == 0xe8 || insn[0] == 0xe9)
		return 1;
	if (insn[0] == 0x0f && (insn[1] & 0xf0) == 0x80)
		return 2;
	return -EINVAL;
}

/* Where the call or jump at @insn, with its rel32 at @rel, leads. */
static void *site_dest(const u8 *insn, int rel)
{
	s32 rel32;

	memcpy(&rel32, insn + rel, 4);
	return (void *)insn + rel + 4 + rel32;
}

/* Where the site at @insn calls @target when it is off */
static void *site_off_dest(const u8 *insn, void *target)
{
	if (insn[0] != CALL_INSN_OPCODE)
		return target;
	return callthunks_translate_call_dest(target);
}

/* Does the site at @insn, leading to @dest, call @target? */
static bool site_calls_target(const u8 *insn, void *dest, void *target)
{
	return dest == target || dest == site_off_dest(insn, target);
}

/*
 * The instruction at @addr with its rel32 changed to lead to the site's
 * trampoline (@on) or allocator; its length, or -EINVAL if the site does
 * not lead to the other one of the two now.
 */
static int site_insn(const struct alloc_tramp_site *site, bool on, u8 *insn)
{
	u8 *addr = alloc_tramp_site_addr(site);
	void *target = alloc_tramp_site_target(site);
	void *tramp = alloc_tramp_site_tramp(site);
	int rel = site_rel32(addr);
	void *dest, *to;
	s32 rel32;

	if (rel < 0)
		return rel;
	dest = site_dest(addr, rel);
	if (on ? !site_calls_target(addr, dest, target) : dest != tramp)
		return -EINVAL;
	to = on ? tramp : site_off_dest(addr, target);

	memcpy(insn, addr, rel + 4);
	rel32 = (long)to - (long)(addr + rel + 4);
	memcpy(insn + rel, &rel32, 4);
	return rel + 4;
}

/**
 * arch_alloc_tramp_queue - queue the redirection of one call site
 * @site: the site
 * @on: call the trampoline (true) or the allocator (false)
 *
 * The site must call the other one of the two now; anything else (a site
 * that some other patching changed) is refused and left alone.  The caller
 * holds text_mutex and calls arch_alloc_tramp_finish() after the batch.
 *
 * Return: 0, or -EINVAL if the site is not as expected.
 */
int arch_alloc_tramp_queue(const struct alloc_tramp_site *site, bool on)
{
	u8 insn[6];
	int len;

	lockdep_assert_held(&text_mutex);

	len = site_insn(site, on, insn);
	if (len < 0)
		return len;
	text_poke_queue(alloc_tramp_site_addr(site), insn, len, NULL);
	return 0;
}

/**
 * arch_alloc_tramp_early - redirect a site of vmlinux to its trampoline
 * @site: the site
 *
 * As alternatives are applied: while one CPU runs, before the text is
 * read-only, with text_poke_early().  Call thunks are set up later and
 * leave the patched site alone (skip_addr()).
 *
 * Return: 0, or -EINVAL if the site is not as built.
 */
int __init arch_alloc_tramp_early(const struct alloc_tramp_site *site)
{
	u8 insn[6];
	int len;

	len = site_insn(site, true, insn);
	if (len < 0)
		return len;
	text_poke_early(alloc_tramp_site_addr(site), insn, len);
	return 0;
}

/**
 * arch_alloc_tramp_finish - write the queued sites
 *
 * Return: nothing; the sites are written when it returns.
 */
void arch_alloc_tramp_finish(void)
{
	lockdep_assert_held(&text_mutex);
	text_poke_finish();
}

/**
 * arch_alloc_tramp_calls - where a site's instruction leads now
 * @site: the site
 *
 * Return: the address the call or jump goes to, the site's target when
 * it goes through the target's call thunk.
 */
void *arch_alloc_tramp_calls(const struct alloc_tramp_site *site)
{
	u8 *addr = alloc_tramp_site_addr(site);
	void *target = alloc_tramp_site_target(site);
	int rel = site_rel32(addr);
	void *dest;

	if (rel < 0)
		return NULL;
	dest = site_dest(addr, rel);
	mutex_lock(&text_mutex);
	if (site_calls_target(addr, dest, target))
		dest = target;
	mutex_unlock(&text_mutex);
	return dest;
}

#ifdef CONFIG_ALLOC_TRAMP_FAULT_INJECTION
/*
 * Fault injection changes where a site's stub jumps: its body, as built,
 * or one of the target's fail entries.  A stub is "lea tag(%rip), %r11;
 * jmp rel32": only the jump's rel32 changes.  The stub of a call of an
 * out-of-line wrapper copy calls its wrapper, which has no fail entry.
 */
#define STUB_JMP	7

#define ALLOC_TRAMP_ENTRIES(on, name) {					\
	{ (on) ? __alloc_tramp_##name : NULL,				\
	  (on) ? __alloc_tramp_fail_##name : NULL,			\
	  (on) ? __alloc_tramp_fail_plain_##name : NULL },		\
	{ (on) ? __alloc_tramp_tail_##name : NULL,			\
	  (on) ? __alloc_tramp_tail_fail_##name : NULL,			\
	  (on) ? __alloc_tramp_tail_fail_plain_##name : NULL } },
#define ALLOC_TRAMP_TARGET(name, ...)	ALLOC_TRAMP_ENTRIES(1, name)
#define ALLOC_TRAMP_TARGET_IF(config, name, ...)			\
	ALLOC_TRAMP_ENTRIES(IS_ENABLED(config), name)
#define ALLOC_TRAMP_TARGET_MEMINIT(name, ...)	ALLOC_TRAMP_ENTRIES(1, name)
/* [target][call, tail][enum alloc_tramp_stub_to] */
static void (* const stub_entries[][2][ALLOC_TRAMP_STUB_NR])(void) = {
#include <linux/alloc_tramp_targets.h>
};

#undef ALLOC_TRAMP_TARGET
#undef ALLOC_TRAMP_TARGET_IF
#undef ALLOC_TRAMP_TARGET_MEMINIT

/*
 * The target, call or tail entry and state of the jump of a site's stub;
 * the target's index, or -EOPNOTSUPP for a stub that does not jump to a
 * body or fail entry.
 */
static int stub_decode(const struct alloc_tramp_site *site, int *tail,
		       enum alloc_tramp_stub_to *to)
{
	const u8 *jmp = (u8 *)alloc_tramp_site_tramp(site) + STUB_JMP;
	void *dest;
	int i, k, s;

	if (jmp[0] != JMP32_INSN_OPCODE)
		return -EOPNOTSUPP;
	dest = site_dest(jmp, 1);
	for (i = 0; i < ARRAY_SIZE(stub_entries); i++)
		for (k = 0; k < 2; k++)
			for (s = 0; s < ALLOC_TRAMP_STUB_NR; s++)
				if (stub_entries[i][k][s] &&
				    dest == stub_entries[i][k][s]) {
					*tail = k;
					*to = s;
					return i;
				}
	return -EOPNOTSUPP;
}

/**
 * arch_alloc_tramp_target - the allocator of a site, for fault injection
 * @site: the site
 * @to:   if not NULL, set to where its stub jumps now, read from the text
 *
 * Return: the index of the site's allocator in <linux/alloc_tramp_targets.h>,
 * or -EOPNOTSUPP if its stub has no fail entry (it calls a wrapper).
 */
int arch_alloc_tramp_target(const struct alloc_tramp_site *site,
			    enum alloc_tramp_stub_to *to)
{
	enum alloc_tramp_stub_to now;
	int tail;

	return stub_decode(site, &tail, to ?: &now);
}

/**
 * arch_alloc_tramp_stub_queue - queue a change of where a stub jumps
 * @site: the site
 * @to:   its body, or one of its target's fail entries
 *
 * Like arch_alloc_tramp_queue(): under text_mutex, written by
 * arch_alloc_tramp_finish().  A stub that already leads to @to is left
 * as it is.
 *
 * Return: 0, or -EOPNOTSUPP if the stub has no fail entries.
 */
int arch_alloc_tramp_stub_queue(const struct alloc_tramp_site *site,
				enum alloc_tramp_stub_to to)
{
	u8 *jmp = (u8 *)alloc_tramp_site_tramp(site) + STUB_JMP;
	enum alloc_tramp_stub_to now;
	int i, tail;
	u8 insn[JMP32_INSN_SIZE];

	lockdep_assert_held(&text_mutex);

	i = stub_decode(site, &tail, &now);
	if (i < 0)
		return i;
	if (now == to)
		return 0;
	memcpy(insn, text_gen_insn(JMP32_INSN_OPCODE, jmp,
				   stub_entries[i][tail][to]), JMP32_INSN_SIZE);
	text_poke_queue(jmp, insn, JMP32_INSN_SIZE, NULL);
	return 0;
}
#endif /* CONFIG_ALLOC_TRAMP_FAULT_INJECTION */
