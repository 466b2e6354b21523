/*
 * Reading a DSO's symbols from ELF into a symbol table, as perf 6.1 reads
 * them: see elf-symbols.h.
 */
#include "common.h"
#include "elf-symbols.h"
#include "elf-image.h"
#include "symtab.h"

#include <limits.h>

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
	strs = symtab__keep_strings(st, strdata, strdata->d_buf, strdata->d_size);
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
		n++;
	}
	free(secs);
	return n;
}

/* PLT header and entry sizes where .plt's sh_entsize does not say. */
static void plt_layout(const GElf_Ehdr *eh, const GElf_Shdr *plt, uint64_t *hdr, uint64_t *ent)
{
	switch (eh->e_machine) {
	case EM_ARM:     *hdr = 20;  *ent = 12; break;
	case EM_AARCH64: *hdr = 32;  *ent = 16; break;
	case EM_SPARC:   *hdr = 48;  *ent = 12; break;
	case EM_SPARCV9: *hdr = 128; *ent = 32; break;
	default:         *hdr = plt->sh_entsize; *ent = plt->sh_entsize; break;
	}
}

/*
 * "name@plt" for each .plt entry, in .rela.plt (or .rel.plt) order: the
 * n-th relocation's symbol is the n-th entry after the PLT header.
 */
static void elf_symbols__synthesize_plt(struct symtab *st, struct elf_image *rt)
{
	GElf_Shdr dynshdr, relshdr, pltshdr, strshdr;
	Elf_Scn *dynscn = elf_image__find_section(rt, NULL, SHT_DYNSYM, &dynshdr), *relscn, *strscn;
	Elf_Data *dyndata, *reldata, *strdata;
	uint64_t hdr, ent, addr, end;
	const char *strs;
	size_t i, nrel;
	bool rela = true;

	if (!dynscn || !elf_image__find_section(rt, ".plt", SHT_PROGBITS, &pltshdr))
		return;
	relscn = elf_image__find_section(rt, ".rela.plt", SHT_RELA, &relshdr);
	if (!relscn) {
		rela = false;
		relscn = elf_image__find_section(rt, ".rel.plt", SHT_REL, &relshdr);
	}
	if (!relscn || relshdr.sh_link != elf_ndxscn(dynscn) || !relshdr.sh_entsize)
		return;
	plt_layout(elf_image__ehdr(rt), &pltshdr, &hdr, &ent);
	strscn = elf_getscn(elf_image__elf(rt), dynshdr.sh_link);
	if (!ent || !strscn || !gelf_getshdr(strscn, &strshdr) || strshdr.sh_type != SHT_STRTAB ||
	    !(strdata = elf_getdata(strscn, NULL)) || !strdata->d_buf ||
	    !(dyndata = elf_getdata(dynscn, NULL)) || !(reldata = elf_getdata(relscn, NULL)))
		return;
	strs = NULL;
	nrel = relshdr.sh_size / relshdr.sh_entsize;
	end = pltshdr.sh_addr + pltshdr.sh_size;
	for (i = 0, addr = pltshdr.sh_addr + hdr; i < nrel && i < INT_MAX &&
	     addr >= pltshdr.sh_addr && addr <= end && ent <= end - addr; i++, addr += ent) {
		GElf_Rela rel;
		GElf_Rel r;
		GElf_Sym sym;

		if (rela ? !gelf_getrela(reldata, (int)i, &rel) : !gelf_getrel(reldata, (int)i, &r))
			break;
		if (!rela)
			rel.r_info = r.r_info;
		/* IRELATIVE relocations name no symbol: perf shows "@plt". */
		if (!gelf_getsym(dyndata, (int)GELF_R_SYM(rel.r_info), &sym) ||
		    sym.st_name >= strdata->d_size ||
		    !memchr((char *)strdata->d_buf + sym.st_name, '\0',
			    strdata->d_size - sym.st_name))
			continue;
		if (!strs)
			strs = symtab__keep_strings(st, strdata, strdata->d_buf, strdata->d_size);
		if (symtab__add(st, addr, addr + ent, strs + sym.st_name, STB_GLOBAL, true))
			break;
	}
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
