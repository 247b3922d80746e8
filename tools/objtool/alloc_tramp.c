// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocation trampolines: find every direct call and tail call of an
 * allocator entry point and emit, for each, a stub that makes the call
 * under the site's allocation tag, the tag itself and a site table entry.
 * The call sites are left as they are; the kernel redirects them at run
 * time.
 *
 * The tag's file:line is that of the allocator API call in the source:
 * the inline chain of the allocator wrappers (the *_noprof inlines of
 * slab.h, gfp.h, ...) is walked out with DWARF.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/hashtable.h>
#include <linux/kernel.h>
#include <linux/objtool_types.h>

#include <objtool/alloc_tramp.h>
#include <objtool/arch.h>
#include <objtool/builtin.h>
#include <objtool/check.h>
#include <objtool/elf.h>
#include <objtool/warn.h>
#include <arch/elf.h>

#ifdef HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#endif

#include "../../include/linux/alloc_tramp_types.h"

struct alloc_target {
	const char *name;
	const char *config;
	unsigned int stack_words;
};

/* The gfp and fails columns are the kernel's, for fault injection. */
#define ALLOC_TRAMP_TARGET_IF(_config, _name, _stack_words, ...) \
	{ .name = #_name, .config = #_config, .stack_words = _stack_words },
#define ALLOC_TRAMP_TARGET(name, stack_words, ...) \
	ALLOC_TRAMP_TARGET_IF(, name, stack_words, __VA_ARGS__)
#define ALLOC_TRAMP_TARGET_MEMINIT(name, stack_words, ...) \
	ALLOC_TRAMP_TARGET(name, stack_words, __VA_ARGS__)
static const struct alloc_target targets[] = {
#include "../../include/linux/alloc_tramp_targets.h"
};

#undef ALLOC_TRAMP_TARGET
#undef ALLOC_TRAMP_TARGET_IF
#undef ALLOC_TRAMP_TARGET_MEMINIT

struct alloc_site {
	struct instruction *insn;
	struct symbol *target;
	void *scopes;		/* struct site_scopes, with DWARF */
	bool wrapper;
	bool untagged;
	unsigned char refused;		/* of a wrapper: enum wrapper_refusal */
	unsigned int stack_words;	/* of a wrapper refused for them */
	unsigned long stub_off;
	const char *file;
	const char *func;
	unsigned int line;
	unsigned int tag;
};

/* Why a call of a wrapper copy is not a site: see check_wrappers() */
enum wrapper_refusal {
	WRAPPER_OK,
	WRAPPER_STACK_ARGS,
	WRAPPER_VARIADIC,
	WRAPPER_NO_DIE,
	WRAPPER_NO_DWARF_READ,
};

struct alloc_tag_rec {
	unsigned int file, func, line;
};

/*
 * The pass is linear in the number of sites: strings, tags and source
 * files are found through hash tables, never by a rescan.  A table is an
 * array of chain heads; entry i of the chain array holds the next index
 * of the chain (or -1), in the order the entries were added.
 */
#define CHAIN_BITS	16

struct chains {
	int head[1 << CHAIN_BITS];
	int *next;
	size_t cap;
};

static unsigned int hash_bytes(const void *p, size_t len, unsigned int h)
{
	const unsigned char *c = p;

	/* FNV-1a */
	for (h = h ?: 2166136261u; len--; c++)
		h = (h ^ *c) * 16777619u;
	return h;
}

static unsigned int hash_str(const char *str)
{
	return hash_bytes(str, strlen(str), 0) & ((1 << CHAIN_BITS) - 1);
}

/* Entry @idx goes at the head of chain @bucket. */
static int chain_add(struct chains *c, unsigned int bucket, int idx)
{
	if ((size_t)idx >= c->cap) {
		c->cap = c->cap ? c->cap * 2 : 1024;
		c->next = realloc(c->next, c->cap * sizeof(*c->next));
		if (!c->next) {
			perror("realloc");
			return -1;
		}
	}
	c->next[idx] = c->head[bucket];
	c->head[bucket] = idx;
	return 0;
}

static struct chains *chains_new(void)
{
	struct chains *c = calloc(1, sizeof(*c));

	if (!c) {
		perror("calloc");
		exit(1);
	}
	memset(c->head, -1, sizeof(c->head));
	return c;
}

static void chains_free(struct chains *c)
{
	if (c)
		free(c->next);
	free(c);
}

struct strtab {
	char *buf;
	size_t len, cap;
	/* offsets of the strings, and their chains */
	unsigned int *offs;
	int nr;
	struct chains *hash;
};

/* Every call instruction asks: a hash table of the target names */
static bool is_target_name(const char *name)
{
	static struct chains *hash;
	unsigned int i;
	int t;

	if (!hash) {
		hash = chains_new();
		for (i = 0; i < ARRAY_SIZE(targets); i++)
			if (chain_add(hash, hash_str(targets[i].name), i))
				exit(1);
	}
	for (t = hash->head[hash_str(name)]; t >= 0; t = hash->next[t])
		if (!strcmp(name, targets[t].name))
			return true;
	return false;
}

/*
 * An out-of-line copy of a static inline allocator wrapper: a local
 * function named like the 6.12 wrappers, kzalloc_noprof.constprop.0 say.
 */
static bool is_wrapper_func(struct symbol *sym)
{
	const char *dot = strchr(sym->name, '.');
	size_t len = dot ? (size_t)(dot - sym->name) : strlen(sym->name);

	return sym->type == STT_FUNC && sym->bind == STB_LOCAL &&
	       len > 7 && !strncmp(sym->name + len - 7, "_noprof", 7);
}

static bool is_target(struct symbol *sym)
{
	return sym->bind != STB_LOCAL && is_target_name(sym->name);
}

/*
 * Calls inside an allocator, an allocator wrapper or a tagged-call body
 * are not sites: they run under their caller's tag.
 */
static bool in_allocator(struct instruction *insn)
{
	struct symbol *func = insn_func(insn);

	if (!func)
		return false;
	if (func->pfunc)
		func = func->pfunc;

	return is_target(func) || is_wrapper_func(func) ||
	       !strncmp(func->name, ALLOC_TRAMP_BODY_PREFIX,
			strlen(ALLOC_TRAMP_BODY_PREFIX));
}

static struct symbol *site_target(struct instruction *insn)
{
	struct symbol *dest;

	if (insn->type != INSN_CALL &&
	    insn->type != INSN_JUMP_UNCONDITIONAL &&
	    insn->type != INSN_JUMP_CONDITIONAL)
		return NULL;

	/* Set for calls, and by add_jump_destinations() for tail calls. */
	dest = insn->_call_dest;
	if (!dest || !(is_target(dest) || is_wrapper_func(dest)))
		return NULL;

	return dest;
}

/*
 * The runtime rewrites the rel32 of the instruction, so it must be of a
 * known form with a PC-relative relocation against the target.
 */
static int check_site_insn(struct objtool_file *file, struct instruction *insn,
			   struct symbol *target)
{
	const unsigned char *bytes = insn->sec->data->d_buf + insn->offset;
	int rel = arch_alloc_tramp_rel32(bytes, insn->len);
	struct reloc *reloc;

	if (rel < 0) {
		WARN_INSN(insn, "alloc-tramp: call to %s: unknown instruction form",
			  target->name);
		return -1;
	}

	/* A call within its own section may have been resolved by the assembler. */
	reloc = find_reloc_by_dest(file->elf, insn->sec, insn->offset + rel);
	if (!reloc) {
		s32 rel32;

		memcpy(&rel32, bytes + rel, sizeof(rel32));
		if (target->sec == insn->sec &&
		    insn->offset + insn->len + rel32 == target->offset)
			return 0;
	}
	if (!reloc ||
	    !(reloc->sym == target ||
	      (reloc->sym->type == STT_SECTION && reloc->sym->sec == target->sec &&
	       reloc_addend(reloc) + 4 == (s64)target->offset)) ||
	    !arch_alloc_tramp_call_reloc(reloc, insn->len - rel, reloc->sym != target)) {
		WARN_INSN(insn, "alloc-tramp: call to %s: unexpected relocation",
			  target->name);
		return -1;
	}

	return 0;
}

static int find_sites(struct objtool_file *file, struct alloc_site **sitesp)
{
	struct alloc_site *sites = NULL;
	struct instruction *insn;
	struct section *sec;
	int nr = 0, cap = 0;

	for_each_sec(file, sec) {
		if (!sec->text)
			continue;

		sec_for_each_insn(file, sec, insn) {
			struct symbol *target = site_target(insn);

			if (!target || in_allocator(insn))
				continue;

			/*
			 * The assembler may reach a nearby target (a local
			 * wrapper copy) with a short jump, whose rel8 cannot
			 * reach a stub: not a site.
			 */
			if (insn->type != INSN_CALL &&
			    arch_alloc_tramp_rel32(insn->sec->data->d_buf + insn->offset,
						   insn->len) < 0 &&
			    insn->len < 5) {
				WARN_INSN(insn, "alloc-tramp: short jump to %s is not a site",
					  target->name);
				continue;
			}

			if (check_site_insn(file, insn, target))
				return -1;

			if (nr == cap) {
				cap = cap ? cap * 2 : 256;
				sites = realloc(sites, cap * sizeof(*sites));
				if (!sites) {
					perror("realloc");
					return -1;
				}
			}
			memset(&sites[nr], 0, sizeof(sites[nr]));
			sites[nr].insn = insn;
			sites[nr].target = target;
			sites[nr].wrapper = is_wrapper_func(target);
			nr++;
		}
	}

	*sitesp = sites;
	return nr;
}

/* Strip compiler suffixes: foo.cold, foo.isra.0, foo.constprop.0 */
static const char *func_name(struct symbol *func)
{
	char *dot;

	if (!func)
		return "?";
	if (func->pfunc)
		func = func->pfunc;

	dot = strchr(func->name, '.');
	return dot ? strndup(func->name, dot - func->name) : func->name;
}

/* Lexical normalization: our tree has symlinks, don't resolve them. */
static char *normalize(const char *path)
{
	char *out = malloc(strlen(path) + 2), *q;
	const char *p;
	size_t n;

	if (!out)
		return NULL;
	q = out;
	for (p = path; *p; p += n) {
		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 1 && p[0] == '.')
			continue;
		if (n == 2 && p[0] == '.' && p[1] == '.' && q > out) {
			while (q > out && *--q != '/')
				;
			continue;
		}
		if (n) {
			if (q > out || path[0] == '/')
				*q++ = '/';
			memcpy(q, p, n);
			q += n;
		}
	}
	*q = 0;
	return out;
}

/* @path as DWARF has it, made absolute with the CU's directory */
static char *full_path(const char *path, const char *comp_dir)
{
	char *full, *out;

	if (path[0] == '/' || !comp_dir)
		return normalize(path);
	if (asprintf(&full, "%s/%s", comp_dir, path) < 0)
		return NULL;
	out = normalize(full);
	free(full);
	return out;
}

/* Make a full path relative to the source tree. */
static const char *source_path(const char *full)
{
	static char *root;
	char *joined;
	size_t n;

	if (!root) {
		const char *srctree = getenv("srctree") ?: ".";
		char cwd[4096];

		if (srctree[0] == '/')
			root = normalize(srctree);
		else if (getcwd(cwd, sizeof(cwd)) &&
			 asprintf(&joined, "%s/%s", cwd, srctree) >= 0)
			root = normalize(joined);
		if (!root)
			return full;
	}

	n = strlen(root);
	if (!strncmp(full, root, n) && full[n] == '/')
		return full + n + 1;
	return full;
}

#ifdef HAVE_LIBDW

struct dwarf_ctx {
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;
};

static int dwarf_open(struct dwarf_ctx *dw, const char *name)
{
	static const Dwfl_Callbacks callbacks = {
		.find_debuginfo		= dwfl_standard_find_debuginfo,
		.section_address	= dwfl_offline_section_address,
	};
	GElf_Addr bias;

	dw->dwfl = dwfl_begin(&callbacks);
	if (!dw->dwfl)
		return -1;

	dw->mod = dwfl_report_offline(dw->dwfl, name, name, -1);
	dwfl_report_end(dw->dwfl, NULL, NULL);
	if (!dw->mod || !dwfl_module_getdwarf(dw->mod, &bias)) {
		dwfl_end(dw->dwfl);
		return -1;
	}

	dw->elf = dwfl_module_getelf(dw->mod, &bias);
	return dw->elf ? 0 : -1;
}

/* A source file, read once, with the offset of each of its lines */
struct src_file {
	char *path;
	char *text;
	size_t len;
	unsigned int *lines;	/* lines[n - 1]: offset of line n */
	unsigned int nr_lines;
	struct src_file *next;
};

static struct src_file *src_read(const char *path)
{
	static struct src_file *files[1 << CHAIN_BITS];
	unsigned int h = hash_str(path), n = 0;
	struct src_file *f;
	size_t cap = 0, i;
	FILE *fp;

	for (f = files[h]; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;

	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->path = strdup(path);
	fp = fopen(path, "r");
	if (fp) {
		f->len = getdelim(&f->text, &cap, 0, fp) > 0 ? strlen(f->text) : 0;
		fclose(fp);
	}
	for (i = 0; f->text && i <= f->len; i++) {
		if (i && f->text[i - 1] != '\n')
			continue;
		if (n == f->nr_lines) {
			f->nr_lines = f->nr_lines ? f->nr_lines * 2 : 256;
			f->lines = realloc(f->lines, f->nr_lines * sizeof(*f->lines));
			if (!f->lines)
				return NULL;
		}
		f->lines[n++] = i;
	}
	f->nr_lines = n;
	f->next = files[h];
	files[h] = f;
	return f;
}

/*
 * Upstream tags a call written with an API name (kmalloc(...)), not one
 * written with a *_noprof name (kmalloc_noprof(...)): that one belongs to
 * its caller's tag, as in mempool_kmalloc().  Both compile to the same
 * code, so read the source line the call is attributed to.
 */
static bool written_noprof(const char *path, unsigned int lineno)
{
	struct src_file *f;
	const char *p, *end;

	if (!lineno)
		return false;

	f = src_read(path);
	if (!f || !f->text || lineno > f->nr_lines)
		return false;

	p = f->text + f->lines[lineno - 1];
	end = strchr(p, '\n') ?: f->text + f->len;
	for (; p + 7 < end; p++)
		if (!strncmp(p, "_noprof(", 8))
			return true;
	return false;
}

static bool is_wrapper(Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	size_t len = name ? strlen(name) : 0;

	return len > 7 && !strcmp(name + len - 7, "_noprof");
}

/* The concrete subprogram and inlined scopes around a site, innermost first */
struct site_scopes {
	int nr;
	Dwarf_Die die[];
};

struct site_addr {
	Dwarf_Addr addr;
	struct alloc_site *site;
};

#define MAX_SCOPES	64

static int site_addr_cmp(const void *a, const void *b)
{
	const struct site_addr *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The first of the sorted @sa at or after @addr */
static size_t site_addr_find(struct site_addr *sa, size_t n, Dwarf_Addr addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (sa[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* @stack[0..@depth) and @die, innermost first, become the scopes of @site. */
static void site_set_scopes(struct alloc_site *site, Dwarf_Die *stack, int depth,
			    Dwarf_Die *die)
{
	struct site_scopes *sc = realloc(site->scopes, sizeof(*sc) +
					 (depth + 1) * sizeof(Dwarf_Die));
	int i;

	if (!sc) {
		perror("realloc");
		exit(1);
	}
	sc->nr = depth + 1;
	sc->die[0] = *die;
	for (i = 0; i < depth; i++)
		sc->die[i + 1] = stack[depth - 1 - i];
	site->scopes = sc;
}

/*
 * One walk of a CU's DIE tree gives each of its sites the chain of
 * concrete scopes around it: a scope's sites are found by binary search,
 * and a scope without sites is not entered.  (dwarf_getscopes() walks the
 * tree again for each site: the pass would be quadratic in a CU's size.)
 * The walk goes outside in, so the innermost scope of a site comes last.
 */
static void scopes_walk(Dwarf_Die *parent, Dwarf_Addr bias, Dwarf_Die *stack,
			int depth, struct site_addr *sa, size_t n)
{
	Dwarf_Die die;

	if (dwarf_child(parent, &die))
		return;
	do {
		int tag = dwarf_tag(&die);
		bool scope = tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;
		bool found = false;
		size_t i;

		if (!scope && tag != DW_TAG_lexical_block)
			continue;
		while ((off = dwarf_ranges(&die, off, &base, &lo, &hi)) > 0) {
			for (i = site_addr_find(sa, n, lo + bias);
			     i < n && sa[i].addr < hi + bias; i++) {
				found = true;
				if (scope)
					site_set_scopes(sa[i].site, stack, depth, &die);
			}
		}
		if (!found || depth == MAX_SCOPES)
			continue;
		if (scope)
			stack[depth] = die;
		scopes_walk(&die, bias, stack, depth + scope, sa, n);
	} while (!dwarf_siblingof(&die, &die));
}

/* The scopes of every site, one walk of each CU */
static int find_scopes(struct dwarf_ctx *dw, struct alloc_site *sites, int nr)
{
	struct site_addr *sa = calloc(nr, sizeof(*sa));
	Dwarf_Die stack[MAX_SCOPES], *cu = NULL;
	Dwarf_Addr bias;
	GElf_Shdr shdr;
	int i;

	if (!sa) {
		perror("calloc");
		return -1;
	}
	for (i = 0; i < nr; i++) {
		struct instruction *insn = sites[i].insn;

		if (!gelf_getshdr(elf_getscn(dw->elf, insn->sec->idx), &shdr)) {
			free(sa);
			return -1;
		}
		sa[i].addr = shdr.sh_addr + insn->offset;
		sa[i].site = &sites[i];
	}
	qsort(sa, nr, sizeof(*sa), site_addr_cmp);

	while ((cu = dwfl_module_nextcu(dw->mod, cu, &bias)))
		scopes_walk(cu, bias, stack, 0, sa, nr);
	free(sa);
	return 0;
}

/*
 * The line table names the wrapper's line in a header.  Each inlined
 * wrapper frame was called from the frame around it: go out while the
 * frame is a wrapper, and take the first caller that is not one.
 */
static int dwarf_resolve(struct dwarf_ctx *dw, struct alloc_site *site)
{
	struct instruction *insn = site->insn;
	struct site_scopes *sc = site->scopes;
	const char *file = NULL, *comp_dir;
	char *full;
	Dwarf_Die *cu, cu_die;
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Addr addr, bias;
	Dwarf_Word word;
	size_t nfiles;
	GElf_Shdr shdr;
	Dwfl_Line *line;
	int lineno = 0, i;

	if (!gelf_getshdr(elf_getscn(dw->elf, insn->sec->idx), &shdr))
		return -1;
	addr = shdr.sh_addr + insn->offset;

	cu = dwfl_module_addrdie(dw->mod, addr, &bias);
	line = dwfl_module_getsrc(dw->mod, addr);
	if (!cu || !line)
		return -1;
	cu_die = *cu;
	file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	comp_dir = dwarf_formstring(dwarf_attr(&cu_die, DW_AT_comp_dir, &attr));

	/* The concrete callers, from find_scopes() */
	for (i = 0; sc && i < sc->nr; i++) {
		Dwarf_Die *scope = &sc->die[i];

		if (dwarf_tag(scope) == DW_TAG_subprogram || !is_wrapper(scope)) {
			site->func = dwarf_diename(scope);
			if (site->func)
				site->func = strdup(site->func);
			break;
		}

		if (dwarf_formudata(dwarf_attr(scope, DW_AT_call_file, &attr), &word) ||
		    dwarf_getsrcfiles(&cu_die, &files, &nfiles) || word >= nfiles)
			break;
		file = dwarf_filesrc(files, word, NULL, NULL);
		if (dwarf_formudata(dwarf_attr(scope, DW_AT_call_line, &attr), &word))
			break;
		lineno = word;
	}
	free(sc);
	site->scopes = NULL;

	if (!file)
		return -1;
	full = full_path(file, comp_dir);
	if (!full)
		return -1;
	site->untagged = written_noprof(full, lineno);
	site->file = source_path(full);
	site->line = lineno;
	return 0;
}

/*
 * A wrapper stub keeps the old tag on the stack below the return address
 * while the wrapper runs: a wrapper that takes arguments on the stack
 * would read the tag and the return address in their place.  On x86-64,
 * the first six argument words go in registers.
 */
#define ALLOC_TRAMP_REG_WORDS	6

/*
 * The size of an argument or return value of a struct or union type whose
 * size the DWARF does not have: a declaration, a struct defined in a
 * header, in a CU built with -femit-struct-debug-baseonly
 * (CONFIG_DEBUG_INFO_REDUCED).
 */
#define ALLOC_TRAMP_UNKNOWN_SIZE	16

/*
 * The byte size of the type of @die.  A struct or union of unknown size
 * counts as 16 bytes, two register words: the only structs the 6.12
 * wrappers take by value are sockptr_t and bpfptr_t (memdup_sockptr_noprof,
 * memdup_sockptr_nul_noprof, kvmemdup_bpfptr_noprof), 16 bytes, and none
 * returns one.  Refusing them instead would drop those sites and warn in
 * every CONFIG_DEBUG_INFO_REDUCED build; a larger struct of a header, by
 * value, would be counted short there.  Other types count as a word if
 * their size is missing: pointers, integers and enums, which always have
 * one.  No type (void): 0.
 */
static Dwarf_Word type_size(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die type, base;
	Dwarf_Word size;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr))
		return 0;
	if (!dwarf_formref_die(&attr, &type))
		return ALLOC_TRAMP_UNKNOWN_SIZE;
	if (!dwarf_aggregate_size(&type, &size))
		return size;

	/* Typedefs and qualifiers: what is under them */
	if (dwarf_peel_type(&type, &base))
		return ALLOC_TRAMP_UNKNOWN_SIZE;
	switch (dwarf_tag(&base)) {
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		return ALLOC_TRAMP_UNKNOWN_SIZE;
	}
	return 8;
}

/* The subprogram DIE at @addr among the children of @cu */
static bool cu_func_die(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *die)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off;

	if (dwarf_child(cu, die))
		return false;
	do {
		if (dwarf_tag(die) != DW_TAG_subprogram)
			continue;
		off = 0;
		while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
			if (lo == addr)
				return true;
	} while (!dwarf_siblingof(die, die));
	return false;
}

/*
 * The subprogram DIE of the out-of-line function @func.  libdw finds its
 * CU through .debug_aranges, which clang does not emit by default: if
 * that fails, try each CU that covers the address.
 */
static bool func_die(struct dwarf_ctx *dw, struct symbol *func, Dwarf_Die *die)
{
	Dwarf_Addr addr, bias;
	Dwarf_Die *cu;
	GElf_Shdr shdr;

	if (!gelf_getshdr(elf_getscn(dw->elf, func->sec->idx), &shdr))
		return false;
	addr = shdr.sh_addr + func->offset;

	cu = dwfl_module_addrdie(dw->mod, addr, &bias);
	if (cu && cu_func_die(cu, addr - bias, die))
		return true;

	cu = NULL;
	while ((cu = dwfl_module_nextcu(dw->mod, cu, &bias)))
		if (dwarf_haspc(cu, addr - bias) > 0 &&
		    cu_func_die(cu, addr - bias, die))
			return true;
	return false;
}

/*
 * Whether the wrapper copy @func can be a site.  A wrapper stub passes
 * the arguments in registers only: count the argument words @func takes
 * on the stack (*@stack_words), by the x86-64 psABI for integer
 * arguments: an argument of more than 16 bytes goes on the stack, one of
 * more than 8 takes two registers, or the stack if two are not left.
 * The parameters are those of the source: a clone that dropped some
 * (.constprop, .isra) is counted as written, which refuses more, not
 * less.  A struct or union of unknown size counts as 16 bytes (see
 * type_size()).  What cannot be counted is refused: a variadic wrapper, a
 * wrapper without DWARF (the object has some, else this is not called).
 */
static enum wrapper_refusal wrapper_check(struct dwarf_ctx *dw, struct symbol *func,
					  unsigned int *stack_words)
{
	unsigned int regs = 0, stack = 0, words, depth = 0;
	Dwarf_Die die, origin, param;
	Dwarf_Attribute attr;
	Dwarf_Word size;

	*stack_words = 0;
	if (!func_die(dw, func, &die))
		return WRAPPER_NO_DIE;

	/* A concrete copy (a clone): the parameters are in the abstract one */
	while (depth++ < 8 &&
	       dwarf_formref_die(dwarf_attr(&die, DW_AT_abstract_origin, &attr), &origin))
		die = origin;

	/* A return value of more than 16 bytes: its address is an argument */
	if (type_size(&die) > 16)
		regs = 1;

	if (dwarf_child(&die, &param))
		return WRAPPER_OK;
	do {
		switch (dwarf_tag(&param)) {
		case DW_TAG_unspecified_parameters:
			return WRAPPER_VARIADIC;
		case DW_TAG_formal_parameter:
			break;
		default:
			continue;
		}
		size = type_size(&param);
		words = DIV_ROUND_UP(size, 8) ?: 1;
		if (size <= 16 && regs + words <= ALLOC_TRAMP_REG_WORDS)
			regs += words;
		else
			stack += words;
	} while (!dwarf_siblingof(&param, &param));

	*stack_words = stack;
	return stack ? WRAPPER_STACK_ARGS : WRAPPER_OK;
}

static int site_target_cmp(const void *a, const void *b)
{
	const struct alloc_site *x = *(const struct alloc_site **)a;
	const struct alloc_site *y = *(const struct alloc_site **)b;

	return x->target->idx < y->target->idx ? -1 : x->target->idx > y->target->idx;
}

/*
 * Refuse a wrapper site whose wrapper takes stack arguments, or may: not
 * a site, its allocation goes untagged.  Each wrapper is looked up once.
 */
static int check_wrappers(struct dwarf_ctx *dw, struct alloc_site *sites, int nr)
{
	struct alloc_site **ws = calloc(nr, sizeof(*ws));
	int i, n = 0;

	if (!ws) {
		perror("calloc");
		return -1;
	}
	for (i = 0; i < nr; i++)
		if (sites[i].wrapper)
			ws[n++] = &sites[i];
	qsort(ws, n, sizeof(*ws), site_target_cmp);
	for (i = 0; i < n; i++) {
		if (i && ws[i]->target == ws[i - 1]->target) {
			ws[i]->refused = ws[i - 1]->refused;
			ws[i]->stack_words = ws[i - 1]->stack_words;
			continue;
		}
		ws[i]->refused = wrapper_check(dw, ws[i]->target,
					       &ws[i]->stack_words);
	}
	free(ws);
	return 0;
}

#endif /* HAVE_LIBDW */

/* The warning for each refused wrapper site */
static void warn_refused(struct alloc_site *sites, int nr)
{
	static const char * const why[] = {
		[WRAPPER_OK]		= "",
		[WRAPPER_STACK_ARGS]	= "stack arguments",
		[WRAPPER_VARIADIC]	= "variadic",
		[WRAPPER_NO_DIE]	= "no DWARF for it",
		[WRAPPER_NO_DWARF_READ]	= "DWARF not read",
	};
	int i;

	/* Each site by itself: WARN_INSN() says one thing a function. */
	for (i = 0; i < nr; i++) {
		struct alloc_site *site = &sites[i];
		const char *reason = why[site->refused];
		char words[40];

		if (!site->refused)
			continue;
		if (site->refused == WRAPPER_STACK_ARGS) {
			snprintf(words, sizeof(words), "%u stack argument word(s)",
				 site->stack_words);
			reason = words;
		}
		WARN_FUNC("alloc-tramp: call to %s is not a site: %s",
			  site->insn->sec, site->insn->offset, site->target->name,
			  reason);
	}
}

/*
 * The file:line and function of each site, from DWARF, and which wrapper
 * sites are refused.  A wrapper copy is a site in an object without
 * DWARF (assembly), not in one whose DWARF could not be read.
 */
static int resolve_lines(struct objtool_file *file, struct alloc_site *sites,
			 int nr)
{
	bool dwarf = false, checked = false;
	int i;

#ifdef HAVE_LIBDW
	struct dwarf_ctx dw;

	dwarf = !dwarf_open(&dw, objname);
	if (dwarf && check_wrappers(&dw, sites, nr)) {
		dwfl_end(dw.dwfl);
		return -1;
	}
	checked = dwarf;
	if (dwarf && find_scopes(&dw, sites, nr)) {
		dwfl_end(dw.dwfl);
		dwarf = false;
	}
#endif
	if (!dwarf)
		WARN("alloc-tramp: no DWARF, tags get the function name and line 0");
	if (!checked && find_section_by_name(file->elf, ".debug_info"))
		for (i = 0; i < nr; i++)
			if (sites[i].wrapper)
				sites[i].refused = WRAPPER_NO_DWARF_READ;
	warn_refused(sites, nr);

	for (i = 0; i < nr; i++) {
		struct alloc_site *site = &sites[i];

#ifdef HAVE_LIBDW
		if (dwarf && dwarf_resolve(&dw, site))
			site->file = NULL;
#endif
		if (!site->file) {
			site->file = objname;
			site->line = 0;
		}
		if (!site->func)
			site->func = func_name(insn_func(site->insn));
	}

#ifdef HAVE_LIBDW
	if (dwarf)
		dwfl_end(dw.dwfl);
#endif
	return 0;
}

static unsigned int strtab_add(struct strtab *tab, const char *str)
{
	size_t len = strlen(str) + 1, off;
	unsigned int h = hash_str(str);
	int i;

	if (!tab->hash)
		tab->hash = chains_new();
	for (i = tab->hash->head[h]; i >= 0; i = tab->hash->next[i])
		if (!strcmp(tab->buf + tab->offs[i], str))
			return tab->offs[i];

	if (tab->len + len > tab->cap) {
		tab->cap = (tab->cap + len) * 2;
		tab->buf = realloc(tab->buf, tab->cap);
		if (!tab->buf) {
			perror("realloc");
			exit(1);
		}
	}
	memcpy(tab->buf + tab->len, str, len);
	off = tab->len;
	tab->len += len;

	if (chain_add(tab->hash, h, tab->nr))
		exit(1);
	tab->offs = realloc(tab->offs, tab->hash->cap * sizeof(*tab->offs));
	if (!tab->offs) {
		perror("realloc");
		exit(1);
	}
	tab->offs[tab->nr++] = off;
	return off;
}

/* One tag per file:line:function, as upstream has one per expansion. */
static int assign_tags(struct alloc_site *sites, int nr, struct strtab *strs,
		       struct alloc_tag_rec **tagsp)
{
	struct alloc_tag_rec *tags = calloc(nr, sizeof(*tags));
	struct chains *hash = chains_new();
	int i, t, ntags = 0;
	unsigned int h;

	if (!tags) {
		perror("calloc");
		return -1;
	}

	for (i = 0; i < nr; i++) {
		struct alloc_tag_rec rec = {
			.file = strtab_add(strs, sites[i].file),
			.func = strtab_add(strs, sites[i].func),
			.line = sites[i].line,
		};

		h = hash_bytes(&rec, sizeof(rec), 0) & ((1 << CHAIN_BITS) - 1);
		for (t = hash->head[h]; t >= 0; t = hash->next[t])
			if (!memcmp(&tags[t], &rec, sizeof(rec)))
				break;
		if (t < 0) {
			t = ntags++;
			tags[t] = rec;
			if (chain_add(hash, h, t))
				return -1;
		}
		sites[i].tag = t;
	}

	chains_free(hash);
	*tagsp = tags;
	return ntags;
}

static struct section *create_sec(struct objtool_file *file, const char *name,
				  size_t entsize, unsigned int nr,
				  unsigned int nr_relocs, unsigned long flags,
				  unsigned int align)
{
	struct section *sec;

	if (nr_relocs)
		sec = elf_create_section_pair(file->elf, name, entsize, nr, nr_relocs);
	else
		sec = elf_create_section(file->elf, name, entsize, nr);
	if (!sec)
		return NULL;

	sec->sh.sh_flags = flags;
	sec->sh.sh_addralign = align;
	sec->data->d_align = align;
	return sec;
}

static struct symbol *get_symbol(struct objtool_file *file, const char *name)
{
	struct symbol *sym = find_symbol_by_name(file->elf, name);

	return sym ?: elf_create_undef_symbol(file->elf, name);
}

/* A tail call has no call of its own for the body to account for. */
static bool is_tail_site(struct alloc_site *site)
{
	return site->insn->type != INSN_CALL;
}

static struct symbol *body_symbol(struct objtool_file *file,
				  struct alloc_site *site)
{
	struct symbol *sym;
	char *name;

	if (asprintf(&name, "%s%s",
		     is_tail_site(site) ? ALLOC_TRAMP_TAIL_PREFIX : ALLOC_TRAMP_BODY_PREFIX,
		     site->wrapper ? ALLOC_TRAMP_WRAPPER_ENTER : site->target->name) < 0)
		return NULL;

	sym = get_symbol(file, name);
	free(name);
	return sym;
}

static const struct alloc_tramp_stub *site_stub(struct alloc_site *site)
{
	return site->wrapper ? &arch_alloc_tramp_wrapper_stub :
			       &arch_alloc_tramp_stub;
}

/*
 * The stubs are code that objtool has not seen: give them instructions
 * with the CFI of a function entry (one word deeper where a wrapper stub
 * keeps the old tag on the stack), so that orc_create() covers them.
 */
static int add_stub_insns(struct objtool_file *file, struct section *sec,
			  struct alloc_site *sites, int nr)
{
	static struct cfi_state cfi, saved_cfi;
	struct cfi_init_state init;
	struct instruction *insns = NULL, *insn;
	unsigned long offset, end;
	unsigned int idx = 0;
	int i;

	arch_initial_func_cfi_state(&init);
	cfi.cfa = init.cfa;
	memcpy(cfi.regs, init.regs, sizeof(cfi.regs));
	cfi.stack_size = init.cfa.offset;
	cfi.type = UNWIND_HINT_TYPE_CALL;
	saved_cfi = cfi;
	saved_cfi.cfa.offset += 8;
	saved_cfi.stack_size += 8;

	for (i = 0; i < nr; i++) {
		const struct alloc_tramp_stub *stub = site_stub(&sites[i]);

		end = sites[i].stub_off + stub->size;
		for (offset = sites[i].stub_off; offset < end; offset += insn->len) {
			unsigned long in_stub = offset - sites[i].stub_off;

			if (!insns || idx == INSN_CHUNK_MAX) {
				insns = calloc(INSN_CHUNK_SIZE, sizeof(*insn));
				if (!insns) {
					perror("calloc");
					return -1;
				}
				idx = 0;
			} else {
				idx++;
			}
			insn = &insns[idx];
			insn->idx = idx;
			INIT_LIST_HEAD(&insn->call_node);
			insn->sec = sec;
			insn->offset = offset;
			if (arch_decode_instruction(file, sec, offset, end - offset, insn))
				return -1;
			insn->cfi = in_stub >= stub->saved_from && in_stub < stub->saved_to ?
				    &saved_cfi : &cfi;
			hash_add(file->insn_hash, &insn->hash, sec_offset_hash(sec, offset));
		}
	}

	sec->text = true;
	return 0;
}

static int emit_stub(struct objtool_file *file, struct section *sec,
		     unsigned int *r, struct symbol *tag_sym,
		     struct alloc_site *site)
{
	const struct alloc_tramp_stub *stub = site_stub(site);
	unsigned long off = site->stub_off;
	unsigned long tag_off = site->tag * ALLOC_TRAMP_TAG_SIZE;
	struct symbol *body = body_symbol(file, site), *leave;

	memcpy(sec->data->d_buf + off, stub->bytes, stub->size);

	if (!body ||
	    !elf_init_reloc(file->elf, sec->rsec, (*r)++, off + stub->tag.offset,
			    tag_sym, tag_off + stub->tag.addend, stub->tag.type) ||
	    !elf_init_reloc(file->elf, sec->rsec, (*r)++, off + stub->body.offset,
			    body, stub->body.addend, stub->body.type))
		return -1;

	if (!site->wrapper)
		return 0;

	leave = get_symbol(file, ALLOC_TRAMP_WRAPPER_LEAVE);
	if (!leave ||
	    !elf_init_reloc(file->elf, sec->rsec, (*r)++, off + stub->target.offset,
			    site->target, stub->target.addend, stub->target.type) ||
	    !elf_init_reloc(file->elf, sec->rsec, (*r)++, off + stub->leave.offset,
			    leave, stub->leave.addend, stub->leave.type))
		return -1;

	return 0;
}

static int emit_sections(struct objtool_file *file, struct alloc_site *sites,
			 int nr, struct alloc_tag_rec *tags, int ntags,
			 struct strtab *strs)
{
	struct section *str_sec, *tag_sec, *text_sec, *site_sec, *ctr_sec = NULL;
	unsigned int mod = 0, nr_text_relocs = 0, r = 0;
	unsigned long text_size = 0;
	struct symbol *str_sym, *tag_sym, *ctr_sym = NULL;
	int i;

	/*
	 * Three relocations a tag: its function, its file, and either its
	 * module's name or, in vmlinux, its static per-CPU counters (a
	 * module's are allocated when it loads).
	 */
	if (opts.alloc_tramp_module)
		mod = strtab_add(strs, opts.alloc_tramp_module);

	for (i = 0; i < nr; i++) {
		sites[i].stub_off = text_size;
		text_size += site_stub(&sites[i])->size;
		nr_text_relocs += sites[i].wrapper ? 4 : 2;
	}

	str_sec = create_sec(file, ALLOC_TRAMP_STR_SECTION, 1, strs->len, 0,
			     SHF_ALLOC, 1);
	tag_sec = create_sec(file, ALLOC_TRAMP_TAGS_SECTION, ALLOC_TRAMP_TAG_SIZE,
			     ntags, ntags * 3,
			     SHF_ALLOC | SHF_WRITE, 8);
	text_sec = create_sec(file, ALLOC_TRAMP_TEXT_SECTION, 1, text_size,
			      nr_text_relocs, SHF_ALLOC | SHF_EXECINSTR,
			      arch_alloc_tramp_stub.size);
	site_sec = create_sec(file, ALLOC_TRAMP_SITES_SECTION,
			      sizeof(struct alloc_tramp_site), nr, nr * 4,
			      SHF_ALLOC, 4);
	if (!str_sec || !tag_sec || !text_sec || !site_sec)
		return -1;
	if (!opts.alloc_tramp_module) {
		ctr_sec = create_sec(file, ALLOC_TRAMP_COUNTERS_SECTION,
				     ALLOC_TRAMP_COUNTERS_SIZE, ntags, 0,
				     SHF_ALLOC | SHF_WRITE, 8);
		if (!ctr_sec)
			return -1;
		ctr_sym = elf_create_section_symbol(file->elf, ctr_sec);
		if (!ctr_sym)
			return -1;
	}

	memcpy(str_sec->data->d_buf, strs->buf, strs->len);
	str_sym = elf_create_section_symbol(file->elf, str_sec);
	tag_sym = elf_create_section_symbol(file->elf, tag_sec);
	if (!str_sym || !tag_sym)
		return -1;

	for (i = 0; i < ntags; i++) {
		unsigned long off = i * ALLOC_TRAMP_TAG_SIZE;
		unsigned int lineno = tags[i].line;

		memcpy(tag_sec->data->d_buf + off + ALLOC_TRAMP_TAG_LINENO,
		       &lineno, sizeof(lineno));
		if (!elf_init_reloc(file->elf, tag_sec->rsec, r++,
				    off + ALLOC_TRAMP_TAG_FUNCTION, str_sym,
				    tags[i].func, R_ABS64) ||
		    !elf_init_reloc(file->elf, tag_sec->rsec, r++,
				    off + ALLOC_TRAMP_TAG_FILENAME, str_sym,
				    tags[i].file, R_ABS64))
			return -1;
		if (opts.alloc_tramp_module ?
		    !elf_init_reloc(file->elf, tag_sec->rsec, r++,
				    off + ALLOC_TRAMP_TAG_MODNAME, str_sym,
				    mod, R_ABS64) :
		    !elf_init_reloc(file->elf, tag_sec->rsec, r++,
				    off + ALLOC_TRAMP_TAG_COUNTERS, ctr_sym,
				    i * ALLOC_TRAMP_COUNTERS_SIZE, R_ABS64))
			return -1;
	}

	for (i = 0, r = 0; i < nr; i++)
		if (emit_stub(file, text_sec, &r, tag_sym, &sites[i]))
			return -1;

	for (i = 0; i < nr; i++) {
		unsigned long off = i * sizeof(struct alloc_tramp_site);

		if (!elf_init_reloc_text_sym(file->elf, site_sec, off, i * 4,
					     sites[i].insn->sec,
					     sites[i].insn->offset) ||
		    !elf_init_reloc(file->elf, site_sec->rsec, i * 4 + 1, off + 4,
				    sites[i].target, 0,
				    elf_data_rela_type(file->elf)) ||
		    !elf_init_reloc_text_sym(file->elf, site_sec, off + 8,
					     i * 4 + 2, text_sec,
					     sites[i].stub_off) ||
		    !elf_init_reloc_data_sym(file->elf, site_sec, off + 12,
					     i * 4 + 3, tag_sym,
					     sites[i].tag * ALLOC_TRAMP_TAG_SIZE))
			return -1;
	}

	return add_stub_insns(file, text_sec, sites, nr);
}

/*
 * Calls written with a *_noprof name are listed with a "-", not sites;
 * refused wrapper sites are neither.
 */
static int drop_untagged(struct alloc_site *sites, int nr)
{
	int i, n = 0;

	for (i = 0; i < nr; i++)
		if (!sites[i].untagged && !sites[i].refused)
			sites[n++] = sites[i];
	return n;
}

static void list_sites(struct alloc_site *sites, int nr)
{
	int i;

	for (i = 0; i < nr; i++) {
		struct instruction *insn = sites[i].insn;
		struct symbol *sym = insn->sym;

		if (sites[i].refused)
			continue;
		if (sites[i].untagged)
			printf("- ");
		if (sym)
			printf("%s+0x%lx", sym->name, insn->offset - sym->offset);
		else
			printf("%s+0x%lx", insn->sec->name, insn->offset);
		printf(" %s %s:%u %s\n", sites[i].target->name, sites[i].file,
		       sites[i].line, sites[i].func);
	}
}

int create_alloc_tramp_sections(struct objtool_file *file)
{
	struct alloc_site *sites = NULL;
	struct alloc_tag_rec *tags = NULL;
	struct strtab strs = {};
	int nr, ntags = 0, ret = 0;

	if (find_section_by_name(file->elf, ALLOC_TRAMP_SITES_SECTION)) {
		WARN("file already has %s section, skipping",
		     ALLOC_TRAMP_SITES_SECTION);
		return 0;
	}

	nr = find_sites(file, &sites);
	if (nr <= 0)
		return nr;

	if (resolve_lines(file, sites, nr)) {
		ret = -1;
		goto out;
	}

	if (opts.alloc_tramp_list)
		list_sites(sites, nr);
	nr = drop_untagged(sites, nr);
	if (!nr)
		goto out;

	if (opts.alloc_tramp) {
		ntags = assign_tags(sites, nr, &strs, &tags);
		if (ntags < 0 ||
		    emit_sections(file, sites, nr, tags, ntags, &strs))
			ret = -1;
	}

	if (opts.stats)
		printf("alloc_tramp: %d sites, %d tags, %zu string bytes\n",
		       nr, ntags, strs.len);

out:
	free(sites);
	free(tags);
	free(strs.buf);
	free(strs.offs);
	chains_free(strs.hash);
	return ret;
}
