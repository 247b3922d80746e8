/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The allocator entry points whose direct callers get an allocation
 * trampoline: every out-of-line function that upstream's alloc_hooks()
 * wraps.  This list is the only one: objtool includes it to find call
 * sites, and arch code includes it to build one tagged-call body per
 * target.
 *
 * ALLOC_TRAMP_TARGET(name, stack_words, gfp, fails)
 * ALLOC_TRAMP_TARGET_IF(config, name, stack_words, gfp, fails)
 * ALLOC_TRAMP_TARGET_MEMINIT(name, stack_words, gfp, fails)
 *
 * stack_words is the number of argument words the x86-64 calling
 * convention passes on the stack (arguments past the sixth).  The _IF
 * form names the Kconfig symbol without which the function does not
 * exist (the API is then a static inline calling another target).  The
 * _MEMINIT form is for a __meminit function: init text unless
 * CONFIG_MEMORY_HOTPLUG.
 *
 * For fault injection (lib/alloc_tramp_fail.c): gfp is the index of the
 * gfp_t argument, from 0, B1 for the one after DECL_BUCKET_PARAMS(), or
 * NONE; fails is what a failed call returns, and when the real function
 * cannot fail for memory (checked against its 6.12 source):
 *   NULL     a null pointer, or 0
 *   SIZE0    NULL, but a size (argument 0) of 0 gives ZERO_SIZE_PTR
 *   SIZE1    the same with the size in argument 1: kmemdup()
 *   ENOMEM   -ENOMEM
 *   KREALLOC NULL, but a resize to 0 frees and one that fits ksize() is
 *            done in place: neither allocates
 *   VREALLOC the same for a vmalloc area: it fits the area's size
 *   KVREALLOC the one or the other, as the object is
 *   MEMPOOL  NULL, only when it may not sleep and the pool is empty
 *   NEVER    never for memory: a bulk page allocator, which has no
 *            failure to give, and rhashtable_init() and rhltable_init(),
 *            which retry with __GFP_NOFAIL.  These are not offered.
 *
 * No include guard: the includer defines the macros.
 */

/* mm/slub.c, mm/slab_common.c */
ALLOC_TRAMP_TARGET(kmem_cache_alloc_noprof, 0, 1, NULL)
ALLOC_TRAMP_TARGET(kmem_cache_alloc_lru_noprof, 0, 2, NULL)
ALLOC_TRAMP_TARGET(kmem_cache_alloc_node_noprof, 0, 1, NULL)
ALLOC_TRAMP_TARGET(kmem_cache_alloc_bulk_noprof, 0, 1, NULL)
ALLOC_TRAMP_TARGET(__kmalloc_noprof, 0, 1, SIZE0)
ALLOC_TRAMP_TARGET(__kmalloc_node_noprof, 0, B1, SIZE0)
ALLOC_TRAMP_TARGET(__kmalloc_cache_noprof, 0, 1, NULL)
ALLOC_TRAMP_TARGET(__kmalloc_cache_node_noprof, 0, 1, NULL)
ALLOC_TRAMP_TARGET(__kmalloc_large_noprof, 0, 1, NULL)
ALLOC_TRAMP_TARGET(__kmalloc_large_node_noprof, 0, 1, NULL)
ALLOC_TRAMP_TARGET(__kmalloc_node_track_caller_noprof, 0, B1, SIZE0)
ALLOC_TRAMP_TARGET(krealloc_noprof, 0, 2, KREALLOC)

/* mm/util.c */
ALLOC_TRAMP_TARGET(kmemdup_noprof, 0, 2, SIZE1)
ALLOC_TRAMP_TARGET(__kvmalloc_node_noprof, 0, B1, SIZE0)
ALLOC_TRAMP_TARGET(kvrealloc_noprof, 0, 2, KVREALLOC)
ALLOC_TRAMP_TARGET(__vmalloc_array_noprof, 0, 2, NULL)
ALLOC_TRAMP_TARGET(vmalloc_array_noprof, 0, NONE, NULL)
ALLOC_TRAMP_TARGET(__vcalloc_noprof, 0, 2, NULL)
ALLOC_TRAMP_TARGET(vcalloc_noprof, 0, NONE, NULL)

/* mm/page_alloc.c */
ALLOC_TRAMP_TARGET(__alloc_pages_noprof, 0, 0, NULL)
ALLOC_TRAMP_TARGET(__folio_alloc_noprof, 0, 0, NULL)
ALLOC_TRAMP_TARGET(alloc_pages_bulk_noprof, 0, 0, NEVER)
ALLOC_TRAMP_TARGET(get_free_pages_noprof, 0, 0, NULL)
ALLOC_TRAMP_TARGET(get_zeroed_page_noprof, 0, 0, NULL)
ALLOC_TRAMP_TARGET(alloc_pages_exact_noprof, 0, 1, NULL)
ALLOC_TRAMP_TARGET_MEMINIT(alloc_pages_exact_nid_noprof, 0, 2, NULL)
ALLOC_TRAMP_TARGET_IF(CONFIG_CONTIG_ALLOC, alloc_contig_range_noprof, 0, 3, ENOMEM)
ALLOC_TRAMP_TARGET_IF(CONFIG_CONTIG_ALLOC, alloc_contig_pages_noprof, 0, 1, NULL)

/* mm/mempolicy.c, mm/filemap.c */
ALLOC_TRAMP_TARGET_IF(CONFIG_NUMA, alloc_pages_noprof, 0, 0, NULL)
ALLOC_TRAMP_TARGET_IF(CONFIG_NUMA, alloc_pages_mpol_noprof, 0, 0, NULL)
ALLOC_TRAMP_TARGET_IF(CONFIG_NUMA, folio_alloc_noprof, 0, 0, NULL)
ALLOC_TRAMP_TARGET_IF(CONFIG_NUMA, folio_alloc_mpol_noprof, 0, 0, NULL)
ALLOC_TRAMP_TARGET_IF(CONFIG_NUMA, vma_alloc_folio_noprof, 0, 0, NULL)
ALLOC_TRAMP_TARGET_IF(CONFIG_NUMA, alloc_pages_bulk_array_mempolicy_noprof, 0, 0, NEVER)
ALLOC_TRAMP_TARGET_IF(CONFIG_NUMA, filemap_alloc_folio_noprof, 0, 0, NULL)

/* mm/vmalloc.c */
ALLOC_TRAMP_TARGET(__vmalloc_node_range_noprof, 3, 4, NULL)
ALLOC_TRAMP_TARGET(__vmalloc_node_noprof, 0, 2, NULL)
ALLOC_TRAMP_TARGET(__vmalloc_noprof, 0, 1, NULL)
ALLOC_TRAMP_TARGET(vmalloc_noprof, 0, NONE, NULL)
ALLOC_TRAMP_TARGET(vmalloc_huge_noprof, 0, 1, NULL)
ALLOC_TRAMP_TARGET(vzalloc_noprof, 0, NONE, NULL)
ALLOC_TRAMP_TARGET(vmalloc_user_noprof, 0, NONE, NULL)
ALLOC_TRAMP_TARGET(vmalloc_node_noprof, 0, NONE, NULL)
ALLOC_TRAMP_TARGET(vzalloc_node_noprof, 0, NONE, NULL)
ALLOC_TRAMP_TARGET(vmalloc_32_noprof, 0, NONE, NULL)
ALLOC_TRAMP_TARGET(vmalloc_32_user_noprof, 0, NONE, NULL)
ALLOC_TRAMP_TARGET(vrealloc_noprof, 0, 2, VREALLOC)

/* mm/percpu.c, mm/mempool.c, lib/rhashtable.c */
ALLOC_TRAMP_TARGET(pcpu_alloc_noprof, 0, 3, NULL)
ALLOC_TRAMP_TARGET(mempool_alloc_noprof, 0, 1, MEMPOOL)
ALLOC_TRAMP_TARGET(mempool_create_node_noprof, 0, 4, NULL)
ALLOC_TRAMP_TARGET(mempool_init_noprof, 0, NONE, ENOMEM)
ALLOC_TRAMP_TARGET(rhashtable_init_noprof, 0, NONE, NEVER)
ALLOC_TRAMP_TARGET(rhltable_init_noprof, 0, NONE, NEVER)
