#include "common/common.h"
#include "common/vfs.h"
#include "resolve/inline.h"
#include "resolve/demangle.h"
#include "resolve/dwarf-file.h"
#include "common/strpool.h"

#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>
#include <uthash.h>

/* Answers kept before the cache is emptied: bounds its memory (~100 B each). */
#define INLINE_CACHE_MAX (1u << 20)

/* A symbol binutils' addr2line may name a function after. */
struct a2l_sym {
	uint64_t value, size;   /* size 0 counts as 1, as binutils has it */
	size_t shndx;
	uint32_t order;         /* its index in the symbol table */
	const char *name;       /* in the ELF's string table (mapped while the file is open) */
};

/* An allocated section of the symbol file, for section_of(). */
struct a2l_section {
	uint64_t addr, size;
	size_t ndx;
};

/* What one object's lookups read: its DWARF and its symbol file's symbols. */
struct inline_obj {
	const struct obj_view *obj;      /* key */
	struct dwarf_file *dw;
	int fd;
	Elf *elf;                        /* the symbol file, for its symbols */
	struct a2l_sym *syms;            /* sorted by (shndx, value, order) */
	size_t nr_syms;
	struct a2l_section *secs;        /* SHF_ALLOC sections, in section order */
	size_t nr_secs;
	bool syms_read;
	UT_hash_handle hh;
};

struct inline_key {
	const struct obj_view *obj;
	uint64_t addr;
};

struct inline_entry {
	struct inline_key key;
	uint32_t nr;
	const char **names;              /* innermost first; NULL when nr is 0 */
	UT_hash_handle hh;
};

/* A raw DWARF or ELF name (a pointer into a file kept open) and what intern_name() made of it. */
struct name_memo {
	const char *raw;
	const char *name;
	UT_hash_handle hh;
};

/* The front (inline.h) first: inline__lookup() reads it through struct inline_cache_head. */
struct inline_cache {
	struct inline_cache_head head;
	struct strpool *pool;
	bool demangle;
	struct inline_obj *objs;
	struct inline_entry *entries;
	size_t nr_entries;
	struct name_memo *memo;          /* demangled names by raw pointer */
	const char *unknown;             /* binutils' "??" */
	struct inline_stats stats;
};

struct inline_cache *inline_cache__new(struct strpool *pool, bool demangle)
{
	struct inline_cache *c = xcalloc_written(1, sizeof(*c));

	c->pool = pool;
	c->demangle = demangle;
	c->unknown = strpool__intern(pool, "??");
	elf_version(EV_CURRENT);
	return c;
}

static void drop_entries(struct inline_cache *c)
{
	struct inline_entry *e, *tmp;
	struct name_memo *m, *mtmp;

	HASH_ITER(hh, c->entries, e, tmp) {
		HASH_DEL(c->entries, e);
		free(e->names);
		free(e);
	}
	c->nr_entries = 0;
	memset(c->head.front, 0, sizeof(c->head.front));
	HASH_ITER(hh, c->memo, m, mtmp) {
		HASH_DEL(c->memo, m);
		free(m);
	}
}

void inline_cache__delete(struct inline_cache *c)
{
	struct inline_obj *o, *tmp;

	if (!c)
		return;
	drop_entries(c);
	HASH_ITER(hh, c->objs, o, tmp) {
		HASH_DEL(c->objs, o);
		dwarf_file__delete(o->dw);
		if (o->elf)
			elf_end(o->elf);
		if (o->fd >= 0)
			close(o->fd);
		free(o->syms);
		free(o->secs);
		free(o);
	}
	free(c);
}

void inline_cache__stats(const struct inline_cache *c, struct inline_stats *out)
{
	*out = c->stats;
}

/* ---- the symbols binutils names functions after ------------------------- */

static int cmp_sym(const void *a, const void *b)
{
	const struct a2l_sym *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * Whether binutils takes sym for a function (bfd's maybe_function_sym):
 * not a section, file, object or TLS symbol, in a section, and not the
 * hidden local zero-sized untyped marks annobin leaves.
 */
static bool a2l_candidate(const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);

	if (type == STT_SECTION || type == STT_FILE || type == STT_OBJECT || type == STT_TLS ||
	    type == STT_COMMON)
		return false;
	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE)
		return false;
	return !(sym->st_size == 0 && GELF_ST_BIND(sym->st_info) == STB_LOCAL && type == STT_NOTYPE &&
		 GELF_ST_VISIBILITY(sym->st_other) == STV_HIDDEN);
}

/* The table addr2line reads: .symtab, else .dynsym. */
static Elf_Scn *symbol_table(Elf *elf, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr dshdr;

	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, shdr))
			continue;
		if (shdr->sh_type == SHT_SYMTAB && shdr->sh_entsize)
			return scn;
		if (shdr->sh_type == SHT_DYNSYM && shdr->sh_entsize && !dyn) {
			dyn = scn;
			dshdr = *shdr;
		}
	}
	if (dyn)
		*shdr = dshdr;
	return dyn;
}

/* The allocated sections, once: section_of() runs for every address looked up. */
static void read_sections(struct inline_obj *o)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	size_t alloc = 0;

	while ((scn = elf_nextscn(o->elf, scn))) {
		if (!gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
			continue;
		ALLOC_GROW(o->secs, o->nr_secs + 1, alloc);
		o->secs[o->nr_secs++] = (struct a2l_section){
			.addr = shdr.sh_addr, .size = shdr.sh_size, .ndx = elf_ndxscn(scn),
		};
	}
}

static void read_syms(struct inline_obj *o)
{
	char vbuf[VFS_PATH_BUF];
	const char *path = o->obj->symfile ? o->obj->symfile : o->obj->file;
	size_t alloc = 0, i, nr;
	Elf_Data *data;
	GElf_Shdr shdr;
	Elf_Scn *scn;

	o->syms_read = true;
	if (!path || (o->fd = open(vfs_path(path, VFS_ELF, vbuf), O_RDONLY | O_CLOEXEC)) < 0)
		return;
	o->elf = elf_begin(o->fd, ELF_C_READ_MMAP, NULL);
	if (!o->elf || elf_kind(o->elf) != ELF_K_ELF)
		return;
	read_sections(o);
	if (!(scn = symbol_table(o->elf, &shdr)) || !(data = elf_getdata(scn, NULL)))
		return;
	nr = shdr.sh_size / shdr.sh_entsize;
	for (i = 1; i < nr; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym) || !a2l_candidate(&sym) ||
		    !(name = elf_strptr(o->elf, shdr.sh_link, sym.st_name)))
			continue;
		ALLOC_GROW(o->syms, o->nr_syms + 1, alloc);
		o->syms[o->nr_syms++] = (struct a2l_sym){
			.value = sym.st_value, .size = sym.st_size ? sym.st_size : 1,
			.shndx = sym.st_shndx, .order = (uint32_t)i, .name = name,
		};
	}
	if (o->nr_syms)
		qsort(o->syms, o->nr_syms, sizeof(*o->syms), cmp_sym);
}

/* The index of the first allocated section holding addr, or 0. */
static size_t section_of(const struct inline_obj *o, uint64_t addr)
{
	size_t i;

	for (i = 0; i < o->nr_secs; i++)
		if (addr >= o->secs[i].addr && addr - o->secs[i].addr < o->secs[i].size)
			return o->secs[i].ndx;
	return 0;
}

/*
 * The symbol binutils names addr after (bfd's _bfd_elf_find_function):
 * in addr's section, of the symbols starting at or before addr, one
 * starting last; of those, the first in the table, unless a later one is
 * larger. NULL when none.
 */
static const struct a2l_sym *a2l_symbol(struct inline_obj *o, uint64_t addr)
{
	size_t sec, lo = 0, hi, best;

	if (!o->syms_read)
		read_syms(o);
	if (!o->nr_syms || !(sec = section_of(o, addr)))
		return NULL;
	/* the last symbol of sec starting at or before addr */
	hi = o->nr_syms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct a2l_sym *s = &o->syms[mid];

		if (s->shndx < sec || (s->shndx == sec && s->value <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || o->syms[lo - 1].shndx != sec)
		return NULL;
	/* back to the first starting there, then the first of the largest */
	best = lo - 1;
	while (best > 0 && o->syms[best - 1].shndx == sec &&
	       o->syms[best - 1].value == o->syms[lo - 1].value)
		best--;
	for (hi = best + 1; hi < lo; hi++)
		if (o->syms[hi].size > o->syms[best].size)
			best = hi;
	return &o->syms[best];
}

/* ---- names of DWARF functions ------------------------------------------- */

/* Whether binutils takes a unit's DW_AT_name for a function's full name (no mangling). */
static bool lang_unmangled(int lang)
{
	switch (lang) {
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_Cobol74:
	case DW_LANG_Cobol85:
	case DW_LANG_Fortran77:
	case DW_LANG_Pascal83:
	case DW_LANG_PLI:
	case DW_LANG_C99:
	case DW_LANG_UPC:
	case DW_LANG_C11:
	case DW_LANG_Mips_Assembler:
		return true;
	default:
		return false;
	}
}

/*
 * name (a pointer into a file the cache keeps open: the same pointer is
 * the same name) demangled and interned. A mangled name is demangled once:
 * the many addresses of one function ask for it again.
 */
static const char *intern_name(struct inline_cache *c, const char *name)
{
	struct name_memo *m;
	char *demangled;

	if (!c->demangle)
		return strpool__intern(c->pool, name);
	if (!demangle__is_costly(name)) {
		demangled = demangle__name(name, 0);
		if (!demangled)
			return strpool__intern(c->pool, name);
		name = strpool__intern(c->pool, demangled);
		free(demangled);
		return name;
	}
	HASH_FIND_PTR(c->memo, &name, m);
	if (m)
		return m->name;
	m = xcalloc(1, sizeof(*m));
	m->raw = name;
	demangled = demangle__name(name, 0);
	if (demangled) {
		m->name = strpool__intern(c->pool, demangled);
		free(demangled);
	} else {
		m->name = strpool__intern(c->pool, name);
	}
	HASH_ADD_PTR(c->memo, raw, m);
	return m->name;
}

/*
 * A function DIE's name as binutils keeps it: the linkage name (through
 * abstract origins and specifications) when there is one, else
 * DW_AT_name; *linkage: binutils takes it as final (a linkage name, or a
 * language without mangling). NULL when it has neither.
 */
static const char *die_name(Dwarf_Die *die, bool unmangled, bool *linkage)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));

	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
	*linkage = name || unmangled;
	if (!name)
		name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	return name;
}

/* Where binutils says a function starts: its low pc, else its first range. */
static bool die_low(Dwarf_Die *die, uint64_t *low)
{
	Dwarf_Addr base, lo, hi;

	if (dwarf_lowpc(die, &lo) == 0 || dwarf_ranges(die, 0, &base, &lo, &hi) > 0) {
		*low = lo;
		return true;
	}
	return false;
}

/* ---- the lookup --------------------------------------------------------- */

static struct inline_obj *find_obj(struct inline_cache *c, const struct obj_view *obj)
{
	struct inline_obj *o;

	HASH_FIND_PTR(c->objs, &obj, o);
	if (o)
		return o;
	o = xcalloc(1, sizeof(*o));
	o->obj = obj;
	o->fd = -1;
	o->dw = dwarf_file__open(obj, false);
	HASH_ADD_PTR(c->objs, obj, o);
	c->stats.files++;
	c->stats.files_dwarf += o->dw->dw != NULL;
	return o;
}

/* Into names (innermost first, at most INLINE_MAX_DEPTH): the count. */
static size_t lookup(struct inline_cache *c, struct inline_obj *o, uint64_t addr,
		     const char **names)
{
	Dwarf_Die chain[INLINE_MAX_DEPTH], cu;
	const struct a2l_sym *sym;
	const char *name;
	size_t nr = 0, n = 0, i;
	bool unmangled, linkage;
	uint64_t low;

	if (dwarf_file__find_cu(o->dw, addr, &cu))
		nr = dwarf_file__scopes(o->dw, &cu, addr, chain, INLINE_MAX_DEPTH);
	if (!nr) {
		/* no DWARF function here: the symbol, or nothing found at all */
		sym = a2l_symbol(o, addr);
		if (!sym)
			return 0;
		/* binutils prints an empty name as "??", which perf takes for a name */
		names[0] = sym->name[0] ? intern_name(c, sym->name) : c->unknown;
		return 1;
	}
	unmangled = lang_unmangled(dwarf_srclang(&cu));
	/* the innermost, chain[nr - 1], then the callers while they were inlined */
	for (i = nr; i-- > 0;) {
		Dwarf_Die *die = &chain[i];

		name = die_name(die, unmangled, &linkage);
		if (!linkage && i == nr - 1 && (sym = a2l_symbol(o, addr)) && die_low(die, &low) &&
		    sym->value == low)
			name = sym->name;
		names[n++] = name && name[0] ? intern_name(c, name) : c->unknown;
		if (dwarf_tag(die) != DW_TAG_inlined_subroutine)
			break;
	}
	return n;
}

/* The answer for f when the front cache has none, kept in f's slot of it. */
size_t inline__lookup_slow(struct inline_cache *c, const struct frame *f,
			   const char *const **names)
{
	const char *found[INLINE_MAX_DEPTH];
	struct inline_front *slot;
	struct inline_key key;
	struct inline_entry *e;

	if ((f->kind != FRAME_NATIVE && f->kind != FRAME_KERNEL) || !f->obj || !f->sym)
		return 0;
	/*
	 * perf asks addr2line of no "[vdso]"-like object, nor of a perf map;
	 * a kernel frame here has a vmlinux (inline__lookup())
	 */
	if (f->kind == FRAME_NATIVE && (!f->obj->path || f->obj->path[0] == '[' ||
					 !strncmp(f->obj->path, "/tmp/perf-", 10)))
		return 0;
	memset(&key, 0, sizeof(key));
	key.obj = f->obj;
	key.addr = f->elf_addr;
	HASH_FIND(hh, c->entries, &key, sizeof(key), e);
	if (!e) {
		if (c->nr_entries >= INLINE_CACHE_MAX) {
			drop_entries(c);
			c->stats.flushes++;
		}
		e = xcalloc(1, sizeof(*e));
		e->key = key;
		e->nr = (uint32_t)lookup(c, find_obj(c, f->obj), f->elf_addr, found);
		if (e->nr) {
			e->names = xcalloc(e->nr, sizeof(*e->names));
			memcpy(e->names, found, e->nr * sizeof(*found));
		}
		HASH_ADD(hh, c->entries, key, sizeof(e->key), e);
		c->nr_entries++;
		c->stats.addrs++;
		c->stats.addrs_inlined += e->nr > 1;
	}
	slot = inline__front_slot(c, f);
	slot->obj = f->obj;
	slot->addr = f->elf_addr;
	slot->names = (const char *const *)e->names;
	slot->nr = e->nr;
	*names = slot->names;
	return slot->nr;
}
