#include "common/common.h"
#include "resolve/srcline.h"
#include "common/bsearch.h"
#include "resolve/demangle.h"
#include "timeline/jitmap.h"
#include "common/strpool.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uthash.h>

/*
 * Bounds against corrupt DWARF: how deep the walk into nested DIEs may go
 * (namespaces, classes, scopes) and how many DIEs one lookup may visit.
 */
#define WALK_MAX_NEST 64
#define WALK_MAX_VISITS (1u << 22)

/* A compilation unit's address range, for files without .debug_aranges. */
struct cu_range {
	uint64_t lo, hi;        /* [lo, hi) */
	Dwarf_Die cu;
};

/* One file's DWARF: open once, kept until the cache goes. */
struct dwarf_file {
	const struct obj_view *obj;  /* key */
	int fd;
	Elf *elf;
	Dwarf *dw;              /* NULL: no usable DWARF */
	struct cu_range *ranges;   /* sorted by lo; built on the first aranges miss */
	size_t nr_ranges, alloc_ranges;
	bool ranges_built;
	UT_hash_handle hh;
};

struct addr_key {
	const struct obj_view *obj;
	uint64_t addr;
};

/* The cached answer for one (DSO, address). */
struct addr_entry {
	struct addr_key key;
	size_t nr;
	struct src_loc *locs;   /* innermost first; NULL when nr is 0 */
	UT_hash_handle hh;
};

/*
 * A JIT line table's source file as it is on disk: how long each line is,
 * to refuse lines it cannot have. NULL lens: not readable, not checked.
 */
struct src_file {
	const char *path;       /* key: the interned name the line table gives */
	uint32_t *lens;         /* lens[i]: bytes of line i + 1, without its end */
	size_t nr;
	UT_hash_handle hh;
};

struct srcline_cache {
	struct strpool *pool;
	struct dwarf_file *files;
	struct addr_entry *addrs;
	struct src_file *srcs;
	size_t outside;         /* JIT lines not shown: outside their file */
	const char *unknown;
	bool no_memo;           /* native answers are not kept */
};

struct srcline_cache *srcline_cache__new(struct strpool *pool)
{
	struct srcline_cache *c = xcalloc(1, sizeof(*c));

	c->pool = pool;
	c->unknown = strpool__intern(pool, UNKNOWN_LABEL);
	elf_version(EV_CURRENT);
	return c;
}

static void dwarf_file__close(struct dwarf_file *df)
{
	if (df->dw)
		dwarf_end(df->dw);
	if (df->elf)
		elf_end(df->elf);
	if (df->fd >= 0)
		close(df->fd);
	df->dw = NULL;
	df->elf = NULL;
	df->fd = -1;
}

void srcline_cache__delete(struct srcline_cache *c)
{
	struct dwarf_file *df, *dtmp;
	struct addr_entry *e, *etmp;
	struct src_file *sf, *stmp;

	if (!c)
		return;
	HASH_ITER(hh, c->files, df, dtmp) {
		HASH_DEL(c->files, df);
		dwarf_file__close(df);
		free(df->ranges);
		free(df);
	}
	HASH_ITER(hh, c->addrs, e, etmp) {
		HASH_DEL(c->addrs, e);
		free(e->locs);
		free(e);
	}
	HASH_ITER(hh, c->srcs, sf, stmp) {
		HASH_DEL(c->srcs, sf);
		free(sf->lens);
		free(sf);
	}
	if (c->outside)
		warning("%zu JIT source line lookups not shown: the line or column lies outside "
			"the file the jitdump names (V8 names an inlined function's lines with "
			"its caller's script)", c->outside);
	free(c);
}

/* ---- opening ------------------------------------------------------------ */

/* Open path's DWARF into df; false (df closed) when it has none. */
static bool open_dwarf(struct dwarf_file *df, const char *path)
{
	if (!path)
		return false;
	df->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (df->fd < 0)
		return false;
	df->elf = elf_begin(df->fd, ELF_C_READ_MMAP, NULL);
	if (df->elf && elf_kind(df->elf) == ELF_K_ELF)
		df->dw = dwarf_begin_elf(df->elf, DWARF_C_READ, NULL);
	if (!df->dw) {
		dwarf_file__close(df);
		return false;
	}
	return true;
}

static struct dwarf_file *find_file(struct srcline_cache *c, const struct obj_view *obj)
{
	struct dwarf_file *df;
	const char *sym = obj->symfile, *bin = obj->file;

	HASH_FIND_PTR(c->files, &obj, df);
	if (df)
		return df;
	df = xcalloc(1, sizeof(*df));
	df->obj = obj;
	df->fd = -1;
	/* a debug file without DWARF (symbols only): the binary may still have it */
	if (!open_dwarf(df, sym) && bin && (!sym || strcmp(sym, bin)))
		open_dwarf(df, bin);
	HASH_ADD_PTR(c->files, obj, df);
	return df;
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

/* The CU holding addr: .debug_aranges first, else the CUs' own ranges. */
static bool find_cu(struct dwarf_file *df, uint64_t addr, Dwarf_Die *cu)
{
	size_t lo, i;

	if (dwarf_addrdie(df->dw, addr, cu))
		return true;
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
	Dwarf_Die chain[SRCLINE_MAX_DEPTH];
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
			if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) &&
			    w->nr < SRCLINE_MAX_DEPTH)
				w->chain[w->nr++] = die;
			walk_children(w, &die, nest + 1);
			return true;
		}
		if (is_container(tag) && walk_children(w, &die, nest + 1))
			return true;
	} while (next_sibling(&die));
	return false;
}

/* ---- building the answer ----------------------------------------------- */

/*
 * A function's name: its linkage name demangled when it has one (C++,
 * Rust: "ns::Box<int>::get" rather than DW_AT_name's "get"), else
 * DW_AT_name; both through the abstract origin of an inlined instance.
 */
static const char *die_name(struct srcline_cache *c, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
	char *demangled = name ? demangle__name(name, 0) : NULL;

	if (demangled) {
		name = strpool__intern(c->pool, demangled);
		free(demangled);
		return name;
	}
	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
	return name ? strpool__intern(c->pool, name) : NULL;
}

static uint32_t die_udata(Dwarf_Die *die, unsigned int at)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (!dwarf_attr(die, at, &attr) || dwarf_formudata(&attr, &v) != 0 || v > UINT32_MAX)
		return 0;
	return (uint32_t)v;
}

/* A file name from cu's tables, made absolute with its DW_AT_comp_dir. */
static const char *intern_file(struct srcline_cache *c, Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute attr;
	const char *dir;
	char *path;

	if (file[0] == '/' ||
	    !(dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr))) || !dir[0])
		return strpool__intern(c->pool, file);
	path = xasprintf("%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", file);
	file = strpool__intern(c->pool, path);
	free(path);
	return file;
}

/* Where an inlined subroutine was called from: file and line in the CU. */
static bool call_site(struct srcline_cache *c, Dwarf_Die *cu, Dwarf_Die *inl,
		      struct src_loc *loc)
{
	Dwarf_Files *files;
	size_t nfiles;
	uint32_t idx = die_udata(inl, DW_AT_call_file);
	const char *file;

	loc->line = die_udata(inl, DW_AT_call_line);
	loc->column = die_udata(inl, DW_AT_call_column);
	if (!loc->line || dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || idx >= nfiles)
		return false;
	file = dwarf_filesrc(files, idx, NULL, NULL);
	if (!file)
		return false;
	loc->file = intern_file(c, cu, file);
	return true;
}

/*
 * Fill locs for addr in df (innermost first); the count. fallback names
 * the outermost function when DWARF has no subprogram there (assembly).
 */
static size_t lookup_dwarf(struct srcline_cache *c, struct dwarf_file *df, uint64_t addr,
			   const char *fallback, struct src_loc *locs)
{
	struct walk w = { .pc = addr };
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *file;
	int lineno, col;
	size_t n = 0, i;

	if (!df->dw || !find_cu(df, addr, &cu))
		return 0;
	line = dwarf_getsrc_die(&cu, addr);
	if (!line || dwarf_lineno(line, &lineno) != 0 || lineno <= 0 ||
	    !(file = dwarf_linesrc(line, NULL, NULL)))
		return 0;
	if (dwarf_linecol(line, &col) != 0 || col < 0)
		col = 0;
	walk_children(&w, &cu, 0);
	locs[0].file = intern_file(c, &cu, file);
	locs[0].line = (uint32_t)lineno;
	locs[0].column = (uint32_t)col;
	locs[0].function = NULL;
	/* chain[k] is outermost first; level i from the inside is chain[nr-1-i] */
	for (i = 0; i < w.nr; i++) {
		Dwarf_Die *die = &w.chain[w.nr - 1 - i];

		locs[n].function = die_name(c, die);
		n++;
		if (dwarf_tag(die) != DW_TAG_inlined_subroutine || n == SRCLINE_MAX_DEPTH ||
		    !call_site(c, &cu, die, &locs[n]))
			break;
	}
	if (!n)
		n = 1;
	if (!locs[n - 1].function)
		locs[n - 1].function = fallback;
	for (i = 0; i < n; i++)
		if (!locs[i].function)
			locs[i].function = c->unknown;
	return n;
}

void srcline_cache__no_memo(struct srcline_cache *c)
{
	c->no_memo = true;
}

/* Native lines without the cache: into out (<= max), as native_entry's would be. */
static size_t native_lookup(struct srcline_cache *c, const struct frame *f, struct src_loc *out,
			    size_t max)
{
	struct src_loc locs[SRCLINE_MAX_DEPTH];
	size_t n = lookup_dwarf(c, find_file(c, f->obj), f->elf_addr,
				f->sym ? strpool__intern(c->pool, f->sym) : c->unknown, locs);

	n = n < max ? n : max;
	memcpy(out, locs, n * sizeof(*out));
	return n;
}

static const struct addr_entry *native_entry(struct srcline_cache *c, const struct frame *f)
{
	struct addr_key key;
	struct addr_entry *e;
	struct src_loc locs[SRCLINE_MAX_DEPTH];

	memset(&key, 0, sizeof(key));
	key.obj = f->obj;
	key.addr = f->elf_addr;
	HASH_FIND(hh, c->addrs, &key, sizeof(key), e);
	if (e)
		return e;
	e = xcalloc(1, sizeof(*e));
	e->key = key;
	e->nr = lookup_dwarf(c, find_file(c, f->obj), f->elf_addr,
			     f->sym ? strpool__intern(c->pool, f->sym) : c->unknown, locs);
	if (e->nr) {
		e->locs = xcalloc(e->nr, sizeof(*e->locs));
		memcpy(e->locs, locs, e->nr * sizeof(*locs));
	}
	HASH_ADD(hh, c->addrs, key, sizeof(e->key), e);
	return e;
}

/* A source file larger than this is not read: its lines are not checked. */
#define SRC_FILE_MAX (64u << 20)

/*
 * Split buf into lines as JavaScript does (LF, CR LF, CR, U+2028, U+2029
 * end a line): a line count and lengths in bytes, which bound its columns
 * (UTF-16 units or characters are never more than bytes).
 */
static void src_file__split(struct src_file *sf, const unsigned char *buf, size_t size)
{
	size_t i, start = 0, alloc = 0;

	for (i = 0; i <= size; i++) {
		size_t end = i, next;

		if (i == size) {
			next = i + 1;   /* the last line, empty after a final LF */
		} else if (buf[i] == '\n') {
			next = i + 1;
		} else if (buf[i] == '\r') {
			next = i + 1 < size && buf[i + 1] == '\n' ? i + 2 : i + 1;
		} else if (buf[i] == 0xe2 && i + 2 < size && buf[i + 1] == 0x80 &&
			   (buf[i + 2] == 0xa8 || buf[i + 2] == 0xa9)) {
			next = i + 3;
		} else {
			continue;
		}
		ALLOC_GROW(sf->lens, sf->nr + 1, alloc);
		sf->lens[sf->nr++] = end - start > UINT32_MAX ? UINT32_MAX : (uint32_t)(end - start);
		start = next;
		i = next - 1;
	}
}

/*
 * Read path (read-only; a regular file of 1 to SRC_FILE_MAX bytes, never
 * blocking on a FIFO or device) into sf's line lengths; sf->lens stays
 * NULL when it cannot be read. The path is this machine's: --symfs is for
 * binaries (dso-locate.h), so a source file is not looked for under it.
 */
static void src_file__read(struct src_file *sf, const char *path)
{
	struct stat st;
	unsigned char *buf;
	size_t got = 0;
	int fd;

	if (!strncmp(path, "file://", 7))
		path += 7;
	if (path[0] != '/')
		return;         /* relative to what the runtime's directory was: unknown */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	/* size 0: nothing to check against (a /proc file's size says nothing) */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size ||
	    st.st_size > (off_t)SRC_FILE_MAX) {
		close(fd);
		return;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (got == (size_t)st.st_size)
		src_file__split(sf, buf, got);
	free(buf);
}

/*
 * Whether file (interned) can have line:column: true when it cannot be
 * read (nothing to check against). A column of 0 is unknown; a column
 * may stand one past the line's last byte (V8 puts an implicit return
 * there).
 */
static bool src_file__has(struct srcline_cache *c, const char *file, uint32_t line,
			  uint32_t column)
{
	struct src_file *sf;

	HASH_FIND_PTR(c->srcs, &file, sf);
	if (!sf) {
		sf = xcalloc(1, sizeof(*sf));
		sf->path = file;
		src_file__read(sf, file);
		HASH_ADD_PTR(c->srcs, path, sf);
	}
	if (!sf->lens)
		return true;
	if (line > sf->nr)
		return false;
	return !column || column <= (uint64_t)sf->lens[line - 1] + 1;
}

static size_t jit_lookup(struct srcline_cache *c, const struct frame *f, struct src_loc *out)
{
	const struct jit_line *l;
	const char *file;

	if (!f->jit || !f->jit->nr_lines)
		return 0;
	l = jit_sym__line(f->jit, f->jit->start + f->symoff);
	/*
	 * A line whose file name was dropped (jit-name.h) is not shown: it
	 * may be an inlined function's, of another script (Node v20 writes
	 * such names from freed memory), so the function's own file would
	 * put it where that file may have no such line.
	 */
	if (!l || !l->line || !l->file)
		return 0;
	/* the session's pool holds these; the contract is the cache's pool */
	file = strpool__intern(c->pool, l->file);
	/* Node v20 names an inlined function's lines with its caller's script */
	if (!src_file__has(c, file, l->line, l->column)) {
		c->outside++;
		return 0;
	}
	out->file = file;
	out->function = f->sym ? strpool__intern(c->pool, f->sym) : c->unknown;
	out->line = l->line;
	out->column = l->column;
	return 1;
}

size_t srcline__lookup(struct srcline_cache *c, const struct frame *f, struct src_loc *out,
		       size_t max)
{
	const struct addr_entry *e;
	size_t n;

	if (!max)
		return 0;
	switch (f->kind) {
	case FRAME_JIT:
	case FRAME_PERFMAP:
		return jit_lookup(c, f, out);
	case FRAME_NATIVE:
		if (!f->obj)
			return 0;
		if (c->no_memo)
			return native_lookup(c, f, out, max);
		e = native_entry(c, f);
		n = e->nr < max ? e->nr : max;
		if (n)
			memcpy(out, e->locs, n * sizeof(*out));
		return n;
	default:
		return 0;
	}
}
