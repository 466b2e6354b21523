/*
 * Reading a DSO's symbols from ELF into a symbol table, as perf 6.1 reads
 * them, and its PLT as perf 6.12 does: see elf-symbols.h.
 */
#include "common/common.h"
#include "resolve/elf-symbols.h"
#include "resolve/elf-image.h"
#include "resolve/symtab.h"

#include <limits.h>
#include <sys/mman.h>

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

/* The ELF symbols perf keeps: functions, objects and labels (see dso.h). */
static bool elf_sym__wanted(const GElf_Sym *sym, bool *is_label)
{
	int type = GELF_ST_TYPE(sym->st_info);
	int vis = GELF_ST_VISIBILITY(sym->st_other);

	if (!sym->st_name || sym->st_shndx == SHN_UNDEF || sym->st_shndx == SHN_ABS ||
	    sym->st_shndx >= SHN_LORESERVE)
		return false;
	*is_label = type == STT_NOTYPE && vis != STV_HIDDEN && vis != STV_INTERNAL;
	return *is_label || type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT;
}

/* ARM "mapping symbols" ($a, $d, $t, $x) mark code/data runs, not functions. */
static bool arm_mapping_symbol(const GElf_Ehdr *eh, const char *name)
{
	return (eh->e_machine == EM_ARM || eh->e_machine == EM_AARCH64) &&
	       name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
	       (name[2] == '\0' || name[2] == '.');
}

/* What symbols need to know of their section, looked up once per section. */
enum sec_flags {
	SEC_KNOWN = 1 << 0,
	SEC_ALLOC = 1 << 1,             /* SHF_ALLOC: loaded */
	SEC_TEXT_OR_DATA = 1 << 2,      /* named like text or data: labels count */
};

static uint8_t elf_image__sec_flags(struct elf_image *img, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(elf_image__elf(img), shndx);
	GElf_Shdr shdr;
	const char *name;
	uint8_t f = SEC_KNOWN;

	if (!scn || !gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
		return f;
	name = elf_image__section_name(img, &shdr);
	f |= SEC_ALLOC;
	if (strstr(name, "text") || strstr(name, "data"))
		f |= SEC_TEXT_OR_DATA;
	return f;
}

/*
 * Check one ELF symbol against its section. cache has one slot per section
 * index below SHN_LORESERVE (all a wanted symbol can have), zero at first.
 */
static bool elf_sym__in_alloc_section(struct elf_image *img, const GElf_Sym *sym,
				      bool is_label, uint8_t *cache)
{
	uint8_t *f = &cache[sym->st_shndx];

	if (!*f)
		*f = elf_image__sec_flags(img, sym->st_shndx);
	return (*f & SEC_ALLOC) && (!is_label || (*f & SEC_TEXT_OR_DATA));
}


/* Add the wanted symbols of img's first section of this type; returns how many. */
/*
 * The string table strscn (its data strdata) kept by st: the file's bytes
 * mapped where they are the table as it stands, NUL-terminated; else a copy.
 */
static const char *keep_strtab(struct symtab *st, struct elf_image *img, Elf_Scn *strscn,
			       Elf_Data *strdata)
{
	const char *kept = symtab__kept_strings(st, strdata), *m;
	GElf_Shdr sh;
	void *base;
	size_t len;

	if (kept)
		return kept;
	if (gelf_getshdr(strscn, &sh) && sh.sh_type == SHT_STRTAB &&
	    !(sh.sh_flags & SHF_COMPRESSED) && sh.sh_size == strdata->d_size &&
	    strdata->d_size && ((const char *)strdata->d_buf)[strdata->d_size - 1] == '\0' &&
	    (m = elf_image__map_range(img, sh.sh_offset, sh.sh_size, &base, &len))) {
		if (m[sh.sh_size - 1] == '\0')      /* the file may have changed since */
			return symtab__keep_mapping(st, strdata, m, base, len);
		munmap(base, len);
	}
	return symtab__keep_strings(st, strdata, strdata->d_buf, strdata->d_size);
}

static size_t elf_symbols__read_table(struct symtab *st, struct elf_image *img,
				      Elf64_Word type)
{
	GElf_Shdr shdr, strshdr;
	Elf_Scn *scn = elf_image__find_section(img, NULL, type, &shdr), *strscn;
	Elf_Data *data, *strdata;
	const char *strs;
	uint8_t *secs;
	const GElf_Ehdr *eh = elf_image__ehdr(img);
	GElf_Sym sym;
	size_t i, n = 0;

	if (!scn || !(data = elf_getdata(scn, NULL)) || !data->d_buf)
		return 0;
	strscn = elf_getscn(elf_image__elf(img), shdr.sh_link);
	if (!strscn || !gelf_getshdr(strscn, &strshdr) || strshdr.sh_type != SHT_STRTAB ||
	    !(strdata = elf_getdata(strscn, NULL)) || !strdata->d_buf || !strdata->d_size)
		return 0;
	strs = keep_strtab(st, img, strscn, strdata);
	secs = xcalloc(SHN_LORESERVE, 1);
	for (i = 1; i < INT_MAX && gelf_getsym(data, (int)i, &sym); i++) {
		bool is_label;

		if (!elf_sym__wanted(&sym, &is_label) || sym.st_name >= strdata->d_size ||
		    arm_mapping_symbol(eh, strs + sym.st_name) ||
		    !elf_sym__in_alloc_section(img, &sym, is_label, secs))
			continue;
		/* Thumb functions have bit 0 set in their address. */
		if (eh->e_machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC)
			sym.st_value &= ~(GElf_Addr)1;
		if (symtab__add(st, sym.st_value, sym.st_size > UINT64_MAX - sym.st_value ?
				UINT64_MAX : sym.st_value + sym.st_size, strs + sym.st_name,
				GELF_ST_BIND(sym.st_info), false))
			break;
		if (GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC)
			symtab__mark_ifunc(st);
		n++;
	}
	free(secs);
	return n;
}

#ifndef EM_LOONGARCH
#define EM_LOONGARCH 258
#endif
#ifndef R_X86_64_IRELATIVE
#define R_X86_64_IRELATIVE 37
#endif

static bool machine_is_x86(const GElf_Ehdr *eh)
{
	return eh->e_machine == EM_386 || eh->e_machine == EM_X86_64;
}

/*
 * PLT header and entry sizes where the section's sh_entsize does not say;
 * on x86, an entry is 8 or 16 bytes (its alignment says which) and the
 * header one entry.
 */
static void plt_layout(const GElf_Ehdr *eh, const GElf_Shdr *plt, uint64_t *hdr, uint64_t *ent)
{
	switch (eh->e_machine) {
	case EM_ARM:       *hdr = 20;  *ent = 12; break;
	case EM_AARCH64:
	case EM_LOONGARCH: *hdr = 32;  *ent = 16; break;
	case EM_SPARC:     *hdr = 48;  *ent = 12; break;
	case EM_SPARCV9:   *hdr = 128; *ent = 32; break;
	case EM_386:
	case EM_X86_64:
		*ent = plt->sh_entsize == 8 || plt->sh_entsize == 16 ? plt->sh_entsize :
		       plt->sh_addralign == 8 ? 8 : 16;
		*hdr = *ent;
		break;
	default:           *hdr = plt->sh_entsize; *ent = plt->sh_entsize; break;
	}
}

/* One .rela.plt (or .rel.plt) entry: its GOT slot gives its PLT entry's place. */
struct plt_rel {
	uint64_t offset, addend;
	uint32_t sym, type;
	size_t idx;
};

static int plt_rel__cmp(const void *a, const void *b)
{
	const struct plt_rel *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * The PLT relocations, in the order of their PLT entries: as written,
 * but by GOT slot on x86, where the linker puts IRELATIVE ones last
 * (perf 6.1 did not sort, and named those entries after their neighbours).
 */
static struct plt_rel *plt_rels__read(Elf_Data *data, bool rela, size_t n, bool x86,
				      size_t *nr)
{
	struct plt_rel *rels = xcalloc(n ? n : 1, sizeof(*rels));
	size_t i;

	for (i = 0; i < n && i < INT_MAX; i++) {
		GElf_Rela ra;
		GElf_Rel r;

		if (rela ? !gelf_getrela(data, (int)i, &ra) : !gelf_getrel(data, (int)i, &r))
			break;
		if (!rela) {
			ra.r_offset = r.r_offset;
			ra.r_info = r.r_info;
			ra.r_addend = 0;
		}
		rels[i] = (struct plt_rel){ .offset = ra.r_offset, .addend = (uint64_t)ra.r_addend,
					    .sym = (uint32_t)GELF_R_SYM(ra.r_info),
					    .type = (uint32_t)GELF_R_TYPE(ra.r_info), .idx = i };
	}
	if (x86)
		qsort(rels, i, sizeof(*rels), plt_rel__cmp);
	*nr = i;
	return rels;
}

/* The symbol table a PLT relocation section names, and its strings. */
struct plt_syms {
	Elf_Data *syms, *strs;
	Elf_Scn *strscn;
	struct elf_image *img;          /* the image they are read from */
	const char *copy;               /* strs, kept in the symtab */
};

static bool plt_syms__open(struct plt_syms *ps, struct elf_image *rt, size_t link)
{
	Elf_Scn *scn = elf_getscn(elf_image__elf(rt), link), *strscn;
	GElf_Shdr shdr, strshdr;

	if (!scn || !gelf_getshdr(scn, &shdr) ||
	    (shdr.sh_type != SHT_DYNSYM && shdr.sh_type != SHT_SYMTAB))
		return false;
	strscn = elf_getscn(elf_image__elf(rt), shdr.sh_link);
	ps->img = rt;
	ps->strscn = strscn;
	return strscn && gelf_getshdr(strscn, &strshdr) && strshdr.sh_type == SHT_STRTAB &&
	       (ps->strs = elf_getdata(strscn, NULL)) && ps->strs->d_buf && ps->strs->d_size &&
	       (ps->syms = elf_getdata(scn, NULL));
}

/*
 * The raw name of the PLT entry at addr (file offset off) for rel, shown
 * with "@plt" after it: its symbol's; for an x86-64 IRELATIVE one, which
 * names none, that of the IFUNC at its resolver's address (the addend),
 * as perf 6.12 does (perf 6.1: "@plt"); else "offset_0xOFF". NULL: a
 * symbol index or name out of bounds.
 *
 * Where perf 6.12 finds no IFUNC there and says "offset_0xOFF@plt", which
 * names nothing, jitsym names the entry after the symbol at the resolver
 * (the resolver itself, its IFUNC stripped), or else "ifunc_0xADDR": an
 * IFUNC whose resolver is at ADDR (objdump -d: "*ABS*+0xADDR@plt").
 */
static const char *plt_entry_name(struct symtab *st, struct plt_syms *ps, const GElf_Ehdr *eh,
				  const struct plt_rel *rel, uint64_t off)
{
	const char *strs = ps->strs->d_buf, *ifn;
	char buf[32];
	GElf_Sym sym;

	if (rel->sym > INT_MAX || !gelf_getsym(ps->syms, (int)rel->sym, &sym) ||
	    sym.st_name >= ps->strs->d_size ||
	    !memchr(strs + sym.st_name, '\0', ps->strs->d_size - sym.st_name))
		return NULL;
	if (strs[sym.st_name]) {
		if (!ps->copy)
			ps->copy = keep_strtab(st, ps->img, ps->strscn, ps->strs);
		return ps->copy + sym.st_name;
	}
	if (eh->e_machine == EM_X86_64 && rel->type == R_X86_64_IRELATIVE) {
		if ((ifn = symtab__ifunc_name(st, rel->addend)) ||
		    (ifn = symtab__name_at(st, rel->addend)))
			return ifn;
		snprintf(buf, sizeof(buf), "ifunc_%#" PRIx64, rel->addend);
		return symtab__keep_copy(st, buf);
	}
	snprintf(buf, sizeof(buf), "offset_%#" PRIx64, off);
	return symtab__keep_copy(st, buf);
}

/*
 * Where the PLT entries are: the section holding them and the first's
 * address; and .plt's part that is no entry ([plt_start, plt_end)).
 */
struct plt_place {
	GElf_Shdr scn;
	uint64_t first, ent;
	uint64_t plt_start, plt_end;
};

/*
 * x86 with IBT puts the entries in .plt.sec, without a header; otherwise
 * they follow .plt's header, unless .plt holds exactly one entry per
 * relocation (a PLT without lazy binding has none).
 */
static bool plt_place__find(struct plt_place *pp, struct elf_image *rt, size_t nrel)
{
	const GElf_Ehdr *eh = elf_image__ehdr(rt);
	GElf_Shdr sec;
	uint64_t hdr;

	if (!elf_image__find_section(rt, ".plt", SHT_PROGBITS, &pp->scn))
		return false;
	plt_layout(eh, &pp->scn, &hdr, &pp->ent);
	pp->plt_start = pp->first = pp->scn.sh_addr;
	if (!pp->ent || pp->first > UINT64_MAX - pp->scn.sh_size)
		return false;
	pp->plt_end = pp->plt_start + pp->scn.sh_size;
	if (machine_is_x86(eh) && elf_image__find_section(rt, ".plt.sec", SHT_PROGBITS, &sec)) {
		pp->scn = sec;
		plt_layout(eh, &pp->scn, &hdr, &pp->ent);
		pp->first = pp->scn.sh_addr;
		return pp->ent != 0;
	}
	if (nrel <= UINT64_MAX / pp->ent && nrel * pp->ent == pp->scn.sh_size)
		hdr = 0;
	pp->first += hdr;
	pp->plt_end = pp->first;
	return pp->first >= pp->scn.sh_addr;
}

/*
 * Like perf 6.12: a symbol grown over .plt (a zero-sized _init before it)
 * ends where .plt starts, and .plt's header (all of it when the entries
 * are in .plt.sec) is a symbol ".plt". perf 6.1 named both after the
 * grown symbol (_init+0x30 for the first entry, where perf's tree found it).
 */
static void plt_place__add_header(const struct plt_place *pp, struct symtab *st)
{
	symtab__clip(st, pp->plt_start);
	if (pp->plt_end > pp->plt_start)
		symtab__add(st, pp->plt_start, pp->plt_end, symtab__keep_copy(st, ".plt"),
			    STB_GLOBAL, false);
}

/*
 * "name@plt" for each PLT entry, the n-th relocation (in GOT order) naming
 * the n-th entry; entries past the end of their section are dropped.
 */
static void elf_symbols__synthesize_plt(struct symtab *st, struct elf_image *rt)
{
	const GElf_Ehdr *eh = elf_image__ehdr(rt);
	struct plt_syms ps = { 0 };
	struct plt_place pp;
	struct plt_rel *rels;
	GElf_Shdr relshdr;
	Elf_Scn *relscn;
	Elf_Data *reldata;
	uint64_t addr, end;
	size_t i, nrel;
	bool rela = true;

	relscn = elf_image__find_section(rt, ".rela.plt", SHT_RELA, &relshdr);
	if (!relscn) {
		rela = false;
		relscn = elf_image__find_section(rt, ".rel.plt", SHT_REL, &relshdr);
	}
	if (!relscn || !relshdr.sh_link || !relshdr.sh_entsize ||
	    !plt_syms__open(&ps, rt, relshdr.sh_link) || !(reldata = elf_getdata(relscn, NULL)) ||
	    !plt_place__find(&pp, rt, relshdr.sh_size / relshdr.sh_entsize))
		return;
	plt_place__add_header(&pp, st);
	/* as many as the section's data holds, whatever its header claims */
	rels = plt_rels__read(reldata, rela, (relshdr.sh_size < reldata->d_size ? relshdr.sh_size :
					      reldata->d_size) / relshdr.sh_entsize,
			      machine_is_x86(eh), &nrel);
	end = pp.scn.sh_addr + pp.scn.sh_size;
	for (i = 0, addr = pp.first; i < nrel && addr <= end && pp.ent <= end - addr;
	     i++, addr += pp.ent) {
		const char *name = plt_entry_name(st, &ps, eh, &rels[i],
						  pp.scn.sh_offset + (addr - pp.scn.sh_addr));

		if (name && symtab__add(st, addr, addr + pp.ent, name, STB_GLOBAL, true))
			break;
	}
	free(rels);
}

/*
 * perf settles the .symtab symbols, then adds .dynsym's and settles again;
 * a debug file's .dynsym is empty (SHT_NOBITS), so only a binary that has
 * its own .symtab gets both. PLT entries come last, as they are.
 */
void elf_symbols__load(struct symtab *st, struct elf_image *syms, struct elf_image *binary)
{
	if (syms && elf_symbols__read_table(st, syms, SHT_SYMTAB))
		symtab__settle(st);
	if (syms == binary || !syms) {
		if (elf_symbols__read_table(st, binary, SHT_DYNSYM))
			symtab__settle(st);
	}
	if (symtab__nr_added(st))
		elf_symbols__synthesize_plt(st, binary);
	symtab__finish(st);
}
