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
 */
#include <linux/alloc_tramp.h>
#include <linux/init.h>
#include <linux/kdebug.h>
#include <linux/memory.h>
#include <linux/ptrace.h>
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
	u8 *addr = alloc_tramp_site_addr(site);
	void *target = alloc_tramp_site_target(site);
	void *tramp = alloc_tramp_site_tramp(site);
	int rel = site_rel32(addr), len;
	void *dest, *to;
	u8 insn[6];
	s32 rel32;

	lockdep_assert_held(&text_mutex);

	if (rel < 0)
		return rel;
	dest = site_dest(addr, rel);
	if (on ? !site_calls_target(addr, dest, target) : dest != tramp)
		return -EINVAL;
	to = on ? tramp : site_off_dest(addr, target);

	len = rel + 4;
	memcpy(insn, addr, len);

	rel32 = (long)to - (long)(addr + len);
	memcpy(insn + rel, &rel32, 4);
	text_poke_queue(addr, insn, len, NULL);
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

/*
 * A CPU that traps on a site's INT3 after the batch put the first byte
 * back can only be running code it fetched before: hardware cannot, after
 * text_poke_sync(), but QEMU's TCG now and then does under a storm of
 * switches.  Do what the text says now rather than oops.
 */
static int alloc_tramp_int3_notify(struct notifier_block *nb,
				   unsigned long val, void *data)
{
	struct die_args *args = data;
	struct pt_regs *regs = args->regs;
	unsigned long dest;
	int rel;
	u8 *ip;

	if (val != DIE_INT3 || !regs || user_mode(regs))
		return NOTIFY_DONE;

	ip = (u8 *)regs->ip - INT3_INSN_SIZE;
	if (!alloc_tramp_is_site(ip))
		return NOTIFY_DONE;

	/*
	 * Its first byte is an INT3 again: the next batch is under way, and
	 * poke_int3_handler() will know the site when it traps again.
	 */
	if (*ip == INT3_INSN_OPCODE) {
		regs->ip = (unsigned long)ip;
		return NOTIFY_STOP;
	}

	rel = site_rel32(ip);
	if (rel < 0)
		return NOTIFY_DONE;
	dest = (unsigned long)site_dest(ip, rel);

	if (ip[0] == CALL_INSN_OPCODE)
		int3_emulate_call(regs, dest);
	else if (ip[0] == JMP32_INSN_OPCODE)
		int3_emulate_jmp(regs, dest);
	else
		int3_emulate_jcc(regs, ip[1] & 0x0f, (unsigned long)ip + 6,
				 dest - ((unsigned long)ip + 6));
	return NOTIFY_STOP;
}

static struct notifier_block alloc_tramp_int3_nb = {
	.notifier_call = alloc_tramp_int3_notify,
};

static int __init alloc_tramp_arch_init(void)
{
	return register_die_notifier(&alloc_tramp_int3_nb);
}
early_initcall(alloc_tramp_arch_init);
