/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation trampolines: per-call-site allocation tags set by patching
 * the allocator call sites objtool found.  See
 * Documentation/mm/allocation-trampolines.rst.
 */
#ifndef _LINUX_ALLOC_TRAMP_H
#define _LINUX_ALLOC_TRAMP_H

#include <linux/alloc_tag.h>
#include <linux/alloc_tramp_types.h>
#include <linux/instruction_pointer.h>
#include <linux/sched.h>
#include <linux/types.h>

#ifdef CONFIG_ALLOC_TRAMPOLINES

int alloc_tramp_set_enabled(bool on);
bool alloc_tramp_is_enabled(void);
void alloc_tramp_module_load(struct alloc_tag *first_tag);
void alloc_tramp_module_unload(struct alloc_tag *first_tag, bool unused);
void alloc_tramp_free_init_mem(void);
/* lib/alloc_tag.c */
bool mem_alloc_profiling_supported(void);
/* Read by the bodies: set while the sites are switched off but patched */
extern u8 alloc_tramp_parked;

/* arch */
int arch_alloc_tramp_queue(const struct alloc_tramp_site *site, bool on);
void arch_alloc_tramp_finish(void);
void *arch_alloc_tramp_calls(const struct alloc_tramp_site *site);
int arch_alloc_tramp_early(const struct alloc_tramp_site *site);

/*
 * Where the stub of an armed site leads (CONFIG_ALLOC_TRAMP_FAULT_INJECTION):
 * the body, as built; a fail entry that goes on to the body; one that
 * goes on to the allocator itself, for a site that is not profiled.
 */
enum alloc_tramp_stub_to {
	ALLOC_TRAMP_STUB_BODY,
	ALLOC_TRAMP_STUB_FAIL,
	ALLOC_TRAMP_STUB_FAIL_PLAIN,
	ALLOC_TRAMP_STUB_NR,
};

int arch_alloc_tramp_target(const struct alloc_tramp_site *site,
			    enum alloc_tramp_stub_to *to);
int arch_alloc_tramp_stub_queue(const struct alloc_tramp_site *site,
				enum alloc_tramp_stub_to to);
/* lib/alloc_tramp_fail.c, called by the fail entries */
long __alloc_tramp_should_fail(struct alloc_tag *tag, const unsigned long *args,
			       unsigned int target);

/* lib/alloc_tramp_early.c */
extern bool alloc_tramp_boot_enabled __initdata;
void __alloc_tramp_init_early(void);

/**
 * alloc_tramp_init_early - switch on before the first allocation
 *
 * Called by start_kernel() before mm_core_init(), and inlined there, as
 * it reads __initdata.  Booted without
 * alloc_trampolines=on, reading the parameter is all it does.
 */
static __always_inline void alloc_tramp_init_early(void)
{
	if (alloc_tramp_boot_enabled)
		__alloc_tramp_init_early();
}

/*
 * The bodies in assembly, not called from C: declared for the CRCs that
 * MODVERSIONS makes of their exports (asm/asm-prototypes.h).
 */
#define ALLOC_TRAMP_TARGET(name, ...)					\
	void __alloc_tramp_##name(void);				\
	void __alloc_tramp_tail_##name(void);				\
	void __alloc_tramp_fail_##name(void);				\
	void __alloc_tramp_tail_fail_##name(void);			\
	void __alloc_tramp_fail_plain_##name(void);			\
	void __alloc_tramp_tail_fail_plain_##name(void);
#define ALLOC_TRAMP_TARGET_IF(config, name, ...)			\
	ALLOC_TRAMP_TARGET(name)
#define ALLOC_TRAMP_TARGET_MEMINIT(name, ...)				\
	ALLOC_TRAMP_TARGET(name)
#include <linux/alloc_tramp_targets.h>
#undef ALLOC_TRAMP_TARGET
#undef ALLOC_TRAMP_TARGET_IF
#undef ALLOC_TRAMP_TARGET_MEMINIT
void __alloc_tramp_wrapper_enter(void);
void __alloc_tramp_tail_wrapper_enter(void);
void __alloc_tramp_wrapper_leave(void);

extern const u8 __alloc_tramp_bodies_start[], __alloc_tramp_bodies_end[];
/* The stubs objtool made, in vmlinux */
extern const u8 __alloc_tramp_text_start[], __alloc_tramp_text_end[];

/**
 * alloc_tramp_caller - the caller of an allocator entry point
 * @ip: the entry point's return address, its _RET_IP_
 *
 * A patched call site calls its allocator from a trampoline body, which
 * left the site's return address in current->alloc_tramp_ret_ip.  Whether
 * the sites are on now does not tell: a task that slept in a body (in
 * reclaim, say) while they were switched off is still in it.  For the
 * slow paths that name the caller (tracepoints, SLUB's alloc_traces, the
 * choice of a random kmalloc cache, vmalloc and percpu): two compares.
 *
 * Return: @ip, or the site's return address if @ip is in a body.
 */
static __always_inline unsigned long alloc_tramp_caller(unsigned long ip)
{
	if (ip >= (unsigned long)__alloc_tramp_bodies_start &&
	    ip < (unsigned long)__alloc_tramp_bodies_end)
		return current->alloc_tramp_ret_ip;
	return ip;
}

#else

static inline void alloc_tramp_init_early(void) {}
static inline void alloc_tramp_free_init_mem(void) {}

static __always_inline unsigned long alloc_tramp_caller(unsigned long ip)
{
	return ip;
}

static inline void alloc_tramp_module_load(struct alloc_tag *first_tag) {}
static inline void alloc_tramp_module_unload(struct alloc_tag *first_tag,
					     bool unused) {}

#endif

/* _RET_IP_ of an allocator entry point, the same with or without trampolines */
#define _ALLOC_RET_IP_	alloc_tramp_caller(_RET_IP_)

extern struct alloc_tramp_site __start_alloc_tramp_sites[];
extern struct alloc_tramp_site __stop_alloc_tramp_sites[];

static inline void *alloc_tramp_site_addr(const struct alloc_tramp_site *site)
{
	return (void *)&site->addr + site->addr;
}

static inline void *alloc_tramp_site_target(const struct alloc_tramp_site *site)
{
	return (void *)&site->target + site->target;
}

static inline void *alloc_tramp_site_tramp(const struct alloc_tramp_site *site)
{
	return (void *)&site->tramp + site->tramp;
}

static inline struct alloc_tag *alloc_tramp_site_tag(const struct alloc_tramp_site *site)
{
	return (void *)&site->tag + site->tag;
}

#endif /* _LINUX_ALLOC_TRAMP_H */
