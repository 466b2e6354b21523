#include "common/common.h"
#include "common/vfs.h"
#include "resolve/dwarf-file.h"
#include "resolve/dwarf-cache.h"
#include "resolve/elf-image.h"
#include "common/bsearch.h"

#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

/*
 * Bounds against corrupt DWARF: how deep the walk into nested DIEs may go
 * (namespaces, classes, scopes) and how many DIEs one lookup may visit.
 */
#define WALK_MAX_NEST 64
#define WALK_MAX_VISITS (1u << 22)

/* ---- opening ------------------------------------------------------------ */

static void dwarf_file__close(struct dwarf_file *df)
{
	if (df->dw)
		dwarf_end(df->dw);
	if (df->elf)
		elf_end(df->elf);
	if (df->fd >= 0)
		close(df->fd);
	while (df->nr_inflated)
		free(df->inflated[--df->nr_inflated]);
	dwarf_cache__close(df->cached);
	df->cached = NULL;
	df->dw = NULL;
	df->elf = NULL;
	df->fd = -1;
	df->path = NULL;
}


/*
 * Whether a lookup for lines (lines) or only for function names ever
 * reads the DWARF section called name (with its ".debug" prefix; ".zdebug"
 * for the old GNU compression). The lookups read the units and their
 * abbreviations, strings, address and range lists, and srcline.c the
 * line tables; nothing here reads location lists (variables), macros,
 * name indexes or .debug_frame (the unwinder opens that itself).
 */
static bool section_needed(const char *name, bool lines)
{
	static const char *const unread[] = {
		"_loc", "_loclists", "_frame", "_macinfo", "_macro", "_pubnames", "_pubtypes",
		"_gnu_pubnames", "_gnu_pubtypes",
	};
	size_t i;

	if (!strncmp(name, ".debug", 6))
		name += 6;
	else if (!strncmp(name, ".zdebug", 7))
		name += 7;
	else
		return true;
	if (!strcmp(name, "_line"))
		return lines;
	for (i = 0; i < ARRAY_SIZE(unread); i++)
		if (!strcmp(name, unread[i]))
			return false;
	return true;
}

/*
 * Hide from libdw the compressed debug sections no lookup of this handle
 * reads. dwarf_begin_elf() (elfutils 0.188, check_section()) inflates
 * every compressed debug section it recognises when the file is opened,
 * needed or not: libc6-dbg's .debug_loclists and .debug_line are 2.7 of
 * its 10 MB, a third of the open's cost. It skips a section of type
 * SHT_NOBITS, so those are given that type here, in elf's in-memory
 * section headers only.
 *
 * The rule: elf must be opened ELF_C_READ_MMAP_PRIVATE (a copy-on-write
 * mapping, so gelf_update_shdr() changes this process's copy, or libelf's
 * own copy of the headers, never the file), and nothing ever calls
 * elf_update() on it: the file on disk is never written. Only when the
 * file has a .debug_info that stays visible, so that dwarf_begin_elf()
 * accepts or refuses the file exactly as it would have.
 */
static void hide_unread_sections(Elf *elf, bool lines)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	size_t shstrndx, info = 0;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type != SHT_NOBITS &&
		    (name = elf_strptr(elf, shstrndx, shdr.sh_name)) &&
		    (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")))
			info++;
	if (!info)
		return;
	scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS ||
		    !(name = elf_strptr(elf, shstrndx, shdr.sh_name)))
			continue;
		if (!(shdr.sh_flags & SHF_COMPRESSED) && strncmp(name, ".zdebug", 7))
			continue;       /* read in place: costs nothing unread */
		if (section_needed(name, lines))
			continue;
		shdr.sh_type = SHT_NOBITS;
		gelf_update_shdr(scn, &shdr);
	}
}

#ifdef HAVE_LIBDEFLATE
/*
 * Inflate the SHF_COMPRESSED (zlib) debug sections libdw will read,
 * before dwarf_begin_elf() does it with zlib: libdeflate takes about half
 * the instructions (libc6-dbg's sections: 0.16 G with zlib). A section
 * inflated here is handed to libdw as if stored uncompressed:
 * elf_getdata() is called once, so libelf has read it (data_read) and
 * returns the same Elf_Data to every later elf_getdata(); that Elf_Data's
 * buffer becomes ours (ELF_T_BYTE, ch_size bytes), and the in-memory
 * header loses SHF_COMPRESSED, so check_section() takes the data as it
 * is instead of calling elf_compress(). elf_end() frees only libelf's own
 * copies (the section's raw and converted data, never a d_buf put in the
 * Elf_Data by its user), so the buffers are df's, freed after elf_end().
 * As for hide_unread_sections(): the descriptor is
 * ELF_C_READ_MMAP_PRIVATE and never written. A section this cannot
 * inflate (other compression, absurd size, corrupt stream) is left as it
 * was, for libdw to inflate or refuse as it always has. What is inflated
 * here is kept in the DWARF cache (dwarf-cache.h) for the next run, and a
 * section the cache has is mapped from it instead: its buffer is then the
 * cache's read-only mapping (df->cached), unmapped after elf_end() too.
 */
static void *inflate_section(struct libdeflate_decompressor *d, Elf_Data *data, size_t hdr,
			     const GElf_Chdr *chdr)
{
	size_t in = data->d_size - hdr;
	void *out;

	/* zlib cannot expand more than ~1032x; real DWARF is 3-8x */
	if (!chdr->ch_size || chdr->ch_size > ((uint64_t)1 << 32) ||
	    chdr->ch_size > (uint64_t)in * 16 + (1u << 20))
		return NULL;
	out = malloc(chdr->ch_size);
	if (!out)
		return NULL;
	/* NULL actual size: anything but exactly ch_size bytes fails */
	if (libdeflate_zlib_decompress(d, (const char *)data->d_buf + hdr, in, out,
				       chdr->ch_size, NULL) != LIBDEFLATE_SUCCESS) {
		free(out);
		return NULL;
	}
	return out;
}

/* Hand libdw buf (size bytes) as scn's data, stored uncompressed. */
static void install(Elf_Scn *scn, GElf_Shdr *shdr, Elf_Data *data, void *buf, size_t size,
		    uint64_t align)
{
	data->d_buf = buf;
	data->d_size = size;
	data->d_type = ELF_T_BYTE;
	data->d_align = align ? align : 1;
	shdr->sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
	shdr->sh_size = size;
	shdr->sh_addralign = data->d_align;
	gelf_update_shdr(scn, shdr);
}

/*
 * The sections are taken from the DWARF cache (dwarf-cache.h) when it has
 * them for this file's build id, their checksum the one each zlib stream
 * ends with; the rest are inflated, and when any was, the entry is written
 * with every section of this handle, for the next run.
 */
static void inflate_sections(struct dwarf_file *df, bool lines)
{
	struct libdeflate_decompressor *d = NULL;
	struct dwarf_cache_put put[DWARF_CACHE_MAX_SECTIONS];
	size_t nr_put = 0, shstrndx, hdr, bid_len = 0;
	bool wrote_new = false;
	uint8_t bid[ELF_IMAGE_BUILD_ID_MAX];
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	const char *name;

	if (elf_getshdrstrndx(df->elf, &shstrndx) != 0)
		return;
	hdr = gelf_getclass(df->elf) == ELFCLASS32 ? sizeof(Elf32_Chdr) : sizeof(Elf64_Chdr);
	if (dwarf_cache__enabled() && (bid_len = elf_build_id(df->elf, bid)))
		df->cached = dwarf_cache__open(bid, bid_len);
	while ((scn = elf_nextscn(df->elf, scn))) {
		const unsigned char *tail;
		const void *from_cache;
		GElf_Chdr chdr;
		Elf_Data *data;
		uint32_t adler;
		void *buf;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type == SHT_NOBITS ||
		    !(shdr.sh_flags & SHF_COMPRESSED) ||
		    !(name = elf_strptr(df->elf, shstrndx, shdr.sh_name)) ||
		    strncmp(name, ".debug_", 7) || !section_needed(name, lines))
			continue;
		if (!gelf_getchdr(scn, &chdr) || chdr.ch_type != ELFCOMPRESS_ZLIB ||
		    !(data = elf_getdata(scn, NULL)) || !data->d_buf || data->d_size <= hdr + 6)
			continue;
		/* a zlib stream ends with the Adler-32 of what it inflates to, big-endian */
		tail = (const unsigned char *)data->d_buf + data->d_size - 4;
		adler = (uint32_t)tail[0] << 24 | (uint32_t)tail[1] << 16 | (uint32_t)tail[2] << 8 |
			tail[3];
		from_cache = dwarf_cache__section(df->cached, name, chdr.ch_size, adler);
		if (from_cache) {
			buf = (void *)from_cache;      /* libdw only reads it */
		} else {
			if (!d && !(d = libdeflate_alloc_decompressor()))
				break;
			if (!(buf = inflate_section(d, data, hdr, &chdr)))
				continue;
			ALLOC_GROW(df->inflated, df->nr_inflated + 1, df->alloc_inflated);
			df->inflated[df->nr_inflated++] = buf;
			wrote_new = true;
		}
		install(scn, &shdr, data, buf, chdr.ch_size, chdr.ch_addralign);
		if (nr_put < ARRAY_SIZE(put))
			put[nr_put++] = (struct dwarf_cache_put){
				.name = name, .data = buf, .size = chdr.ch_size, .adler = adler,
			};
	}
	if (d)
		libdeflate_free_decompressor(d);
	if (wrote_new && bid_len)
		dwarf_cache__write(bid, bid_len, put, nr_put);
}
#endif

/* Open path's DWARF into df; false (df closed) when it has none. */
static bool open_dwarf(struct dwarf_file *df, const char *path, bool lines)
{
	char vbuf[VFS_PATH_BUF];
	if (!path)
		return false;
	df->path = path;
	df->fd = open(vfs_path(path, VFS_ELF, vbuf), O_RDONLY | O_CLOEXEC);
	if (df->fd < 0)
		return false;
	/* private: hide_unread_sections() changes the headers in memory */
	df->elf = elf_begin(df->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	if (df->elf && elf_kind(df->elf) == ELF_K_ELF) {
		hide_unread_sections(df->elf, lines);
#ifdef HAVE_LIBDEFLATE
		inflate_sections(df, lines);
#endif
		df->dw = dwarf_begin_elf(df->elf, DWARF_C_READ, NULL);
	}
	if (!df->dw) {
		dwarf_file__close(df);
		return false;
	}
	return true;
}


/* ---- finding the compilation unit ---------------------------------------- */

static int cmp_range(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/* Every CU's address ranges, from the CU DIEs themselves. */
static void build_ranges(struct dwarf_file *df)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	size_t units = 0;

	df->ranges_built = true;
	while (units++ < WALK_MAX_VISITS &&
	       dwarf_get_units(df->dw, cu, &cu, NULL, NULL, &cudie, NULL) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;
		size_t n = 0;

		while (n++ < WALK_MAX_VISITS &&
		       (off = dwarf_ranges(&cudie, off, &base, &lo, &hi)) > 0) {
			if (hi <= lo)
				continue;
			ALLOC_GROW(df->ranges, df->nr_ranges + 1, df->alloc_ranges);
			df->ranges[df->nr_ranges].lo = lo;
			df->ranges[df->nr_ranges].hi = hi;
			df->ranges[df->nr_ranges++].cu = cudie;
		}
	}
	if (df->nr_ranges)
		qsort(df->ranges, df->nr_ranges, sizeof(*df->ranges), cmp_range);
}

/*
 * The address ranges of df's PLT sections (.plt, .plt.sec, .plt.got:
 * the linker writes them, no compiler describes them in a unit), read
 * once from the section headers (a debug file keeps them, as NOBITS).
 */
static void read_plt(struct dwarf_file *df)
{
	static const char *const plt[] = { ".plt", ".plt.sec", ".plt.got" };
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	size_t shstrndx, i;
	const char *name;

	df->nr_plt = 0;
	if (elf_getshdrstrndx(df->elf, &shstrndx) != 0)
		return;
	while ((scn = elf_nextscn(df->elf, scn)) && df->nr_plt < (int)ARRAY_SIZE(df->plt)) {
		if (!gelf_getshdr(scn, &shdr) || !shdr.sh_size ||
		    !(name = elf_strptr(df->elf, shstrndx, shdr.sh_name)))
			continue;
		for (i = 0; i < ARRAY_SIZE(plt); i++)
			if (!strcmp(name, plt[i])) {
				df->plt[df->nr_plt][0] = shdr.sh_addr;
				df->plt[df->nr_plt++][1] = shdr.sh_addr + shdr.sh_size;
				break;
			}
	}
}

static bool in_plt(struct dwarf_file *df, uint64_t addr)
{
	int i;

	if (df->nr_plt < 0)
		read_plt(df);
	for (i = 0; i < df->nr_plt; i++)
		if (addr >= df->plt[i][0] && addr < df->plt[i][1])
			return true;
	return false;
}

/*
 * The CU holding addr: .debug_aranges first, else the CUs' own ranges.
 * An address in a PLT section has none, and is answered so without
 * reading every unit's ranges (libc's PLT calls, outside the aranges,
 * made each run read every unit of its debug file for nothing).
 */
bool dwarf_file__find_cu(struct dwarf_file *df, uint64_t addr, Dwarf_Die *cu)
{
	size_t lo, i;

	if (!df->dw)
		return false;
	if (dwarf_addrdie(df->dw, addr, cu))
		return true;
	if (in_plt(df, addr))
		return false;
	if (!df->ranges_built)
		build_ranges(df);
	/* the last range starting at or before addr, then back over overlaps */
	lo = bsearch_last_le(df->ranges, df->nr_ranges, sizeof(*df->ranges),
			     offsetof(struct cu_range, lo), addr);
	for (i = lo; i-- > 0 && lo - i <= 16;) {
		if (addr < df->ranges[i].hi) {
			*cu = df->ranges[i].cu;
			return true;
		}
	}
	return false;
}

/* ---- the scopes at an address -------------------------------------------- */

/*
 * The subprogram and inlined-subroutine DIEs containing pc, outermost
 * first, found by walking down from the CU: a scope holding pc holds
 * every deeper one, so the walk descends into it and never looks at its
 * siblings again. Namespaces and classes hold functions without having
 * an address range themselves: they are searched, and left when they
 * have no match.
 */
struct walk {
	Dwarf_Addr pc;
	Dwarf_Die *chain;
	size_t max;
	size_t nr;
	size_t visits;
};

static bool is_container(int tag)
{
	switch (tag) {
	case DW_TAG_namespace:
	case DW_TAG_class_type:
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_module:
		return true;
	default:
		return false;
	}
}

static bool is_scope(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block:
	case DW_TAG_entry_point:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
	case DW_TAG_with_stmt:
		return true;
	default:
		return false;
	}
}

/* The next sibling; false at the end or when DWARF points backwards. */
static bool next_sibling(Dwarf_Die *die)
{
	Dwarf_Off here = dwarf_dieoffset(die);
	Dwarf_Die next;

	if (dwarf_siblingof(die, &next) != 0 || dwarf_dieoffset(&next) <= here)
		return false;
	*die = next;
	return true;
}

/* Search parent's children; true when a scope holding pc was found below. */
/* The length of die's address range holding pc (of its ranges, the one that does). */
static uint64_t piece_len(Dwarf_Die *die, uint64_t pc)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	size_t n = 0;

	while (n++ < WALK_MAX_NEST && (off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0)
		if (pc >= lo && pc < hi)
			return hi - lo;
	return UINT64_MAX;
}

/*
 * Of die (a scope holding pc) and its later siblings that hold pc too
 * (the aliases an assembler emits for one piece of code), the one
 * binutils takes: the smallest range, the last of equals. Not only the
 * siblings right after die: gas emits a subprogram per symbol in the
 * order of the symbols, so glibc's __memmove_avx_unaligned_rtm and
 * __memcpy_avx_unaligned_rtm (one code, the same range) have other
 * functions between them, and binutils, which looks at every function
 * of the unit, names the code after the later.
 */
static void pick_alias(struct walk *w, Dwarf_Die *die)
{
	Dwarf_Die next = *die;
	uint64_t best = UINT64_MAX, len;

	while (next_sibling(&next)) {
		if (++w->visits > WALK_MAX_VISITS)
			return;
		if (!is_scope(dwarf_tag(&next)) || dwarf_haspc(&next, w->pc) <= 0)
			continue;
		if (best == UINT64_MAX)
			best = piece_len(die, w->pc);
		len = piece_len(&next, w->pc);
		if (len <= best) {
			best = len;
			*die = next;
		}
	}
}

/* Search parent's children; true when a scope holding pc was found below. */
static bool walk_children(struct walk *w, Dwarf_Die *parent, int nest)
{
	Dwarf_Die die;

	if (nest > WALK_MAX_NEST || dwarf_child(parent, &die) != 0)
		return false;
	do {
		int tag = dwarf_tag(&die);

		if (++w->visits > WALK_MAX_VISITS)
			return false;
		if (is_scope(tag) && dwarf_haspc(&die, w->pc) > 0) {
			pick_alias(w, &die);
			tag = dwarf_tag(&die);
			if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) &&
			    w->nr < w->max)
				w->chain[w->nr++] = die;
			walk_children(w, &die, nest + 1);
			return true;
		}
		if (is_container(tag) && walk_children(w, &die, nest + 1))
			return true;
	} while (next_sibling(&die));
	return false;
}

/*
 * A CU's scopes outside any other scope, in the order walk_children()
 * meets them from the CU (depth first through containers), each with
 * what that walk would have counted when it got there; and their
 * address ranges, so a lookup finds where the walk stops without
 * visiting the DIEs before it (thousands in a C++ unit's namespaces).
 */
struct cu_top {
	Dwarf_Die die;
	Dwarf_Off parent;       /* its parent DIE's offset: tops with the same are siblings */
	int nest;               /* walk_children()'s nest for its siblings */
	size_t visits;          /* the walk's visits on reaching it */
};

struct cu_piece {
	uint64_t lo, hi;        /* [lo, hi) */
	size_t top;
	size_t nth;             /* of its top's ranges, in dwarf_ranges() order */
};

struct cu_scopes {
	Dwarf_Off off;          /* the CU DIE's: key */
	struct cu_top *tops;
	size_t nr_tops, alloc_tops;
	struct cu_piece *pieces;   /* in the tops' order */
	size_t nr_pieces, alloc_pieces;
	UT_hash_handle hh;
};

static void add_top(struct cu_scopes *cs, Dwarf_Die *die, Dwarf_Off parent, int nest,
		    size_t visits)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	size_t n = 0;

	/* dwarf_haspc()'s ranges, every one of them */
	while (n++ < WALK_MAX_VISITS && (off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		ALLOC_GROW(cs->pieces, cs->nr_pieces + 1, cs->alloc_pieces);
		cs->pieces[cs->nr_pieces++] = (struct cu_piece){
			.lo = lo, .hi = hi, .top = cs->nr_tops, .nth = n - 1,
		};
	}
	ALLOC_GROW(cs->tops, cs->nr_tops + 1, cs->alloc_tops);
	cs->tops[cs->nr_tops++] = (struct cu_top){
		.die = *die, .parent = parent, .nest = nest, .visits = visits,
	};
}

/* walk_children() without a pc: every scope it could stop at under parent. */
static void list_tops(struct cu_scopes *cs, Dwarf_Die *parent, int nest, size_t *visits)
{
	Dwarf_Off poff = dwarf_dieoffset(parent);
	Dwarf_Die die;

	if (nest > WALK_MAX_NEST || dwarf_child(parent, &die) != 0)
		return;
	do {
		int tag = dwarf_tag(&die);

		if (++*visits > WALK_MAX_VISITS)
			return;
		if (is_scope(tag))
			add_top(cs, &die, poff, nest, *visits);
		else if (is_container(tag))
			list_tops(cs, &die, nest + 1, visits);
	} while (next_sibling(&die));
}

static struct cu_scopes *cu_scopes_of(struct dwarf_file *df, Dwarf_Die *cu)
{
	Dwarf_Off off = dwarf_dieoffset(cu);
	struct cu_scopes *cs;
	size_t visits = 0;

	HASH_FIND(hh, df->scopes, &off, sizeof(off), cs);
	if (cs)
		return cs;
	cs = xcalloc(1, sizeof(*cs));
	cs->off = off;
	list_tops(cs, cu, 0, &visits);
	HASH_ADD(hh, df->scopes, off, sizeof(cs->off), cs);
	return cs;
}

struct dwarf_file *dwarf_file__open(const struct obj_view *obj, bool lines)
{
	struct dwarf_file *df = xcalloc(1, sizeof(*df));
	const char *sym = obj->symfile, *bin = obj->file;

	df->obj = obj;
	df->fd = -1;
	df->nr_plt = -1;
	elf_version(EV_CURRENT);
	/* a debug file without DWARF (symbols only): the binary may still have it */
	if (!open_dwarf(df, sym, lines) && bin && (!sym || strcmp(sym, bin)))
		open_dwarf(df, bin, lines);
	return df;
}

void dwarf_file__delete(struct dwarf_file *df)
{
	struct cu_scopes *cs, *tmp;

	if (!df)
		return;
	HASH_ITER(hh, df->scopes, cs, tmp) {
		HASH_DEL(df->scopes, cs);
		free(cs->tops);
		free(cs->pieces);
		free(cs);
	}
	dwarf_file__close(df);
	free(df->inflated);
	free(df->ranges);
	free(df);
}

/* piece_len() of a piece's top, from the piece: the first 64 ranges only, as it looks. */
static uint64_t cu_piece_len(const struct cu_piece *p)
{
	return p->nth < WALK_MAX_NEST ? p->hi - p->lo : UINT64_MAX;
}

/*
 * pick_alias() for a top, from the list (first: the first piece holding
 * pc, of the first top holding it): the later tops with the same parent
 * are the later siblings that are scopes, each holding pc if one of its
 * pieces does, and its first such piece is the one piece_len() finds.
 * The list spares walking the rest of the unit's DIEs for every address.
 */
static size_t pick_alias_top(const struct cu_scopes *cs, size_t first, uint64_t pc)
{
	size_t best_top = cs->pieces[first].top, seen = best_top, k;
	Dwarf_Off parent = cs->tops[best_top].parent;
	uint64_t best = cu_piece_len(&cs->pieces[first]), len;

	for (k = first + 1; k < cs->nr_pieces; k++) {
		const struct cu_piece *p = &cs->pieces[k];

		if (p->top == seen || pc < p->lo || pc >= p->hi || cs->tops[p->top].parent != parent)
			continue;
		seen = p->top;
		len = cu_piece_len(p);
		if (len <= best) {
			best = len;
			best_top = p->top;
		}
	}
	return best_top;
}

/*
 * As walk_children(w, cu, 0), from the list: the first top holding pc is
 * where that walk would stop, with the visits it would have counted (of
 * the siblings pick_alias() would visit, only the tops are counted).
 */
size_t dwarf_file__scopes(struct dwarf_file *df, Dwarf_Die *cu, uint64_t pc, Dwarf_Die *chain,
			  size_t max)
{
	struct walk w = { .pc = pc, .chain = chain, .max = max };
	struct cu_scopes *cs = cu_scopes_of(df, cu);
	const struct cu_top *top;
	Dwarf_Die die;
	size_t i, picked;
	int tag;

	for (i = 0; i < cs->nr_pieces; i++)
		if (pc >= cs->pieces[i].lo && pc < cs->pieces[i].hi)
			break;
	if (i == cs->nr_pieces)
		return 0;
	top = &cs->tops[cs->pieces[i].top];
	picked = pick_alias_top(cs, i, pc);
	w.visits = top->visits + (picked - cs->pieces[i].top);
	top = &cs->tops[picked];
	die = top->die;
	tag = dwarf_tag(&die);
	if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) && w.nr < w.max)
		w.chain[w.nr++] = die;
	walk_children(&w, &die, top->nest + 1);
	return w.nr;
}
