#include "common/common.h"
#include "common/vfs.h"
#include "resolve/srcline.h"
#include "resolve/dwarf-file.h"
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

void srcline_cache__delete(struct srcline_cache *c)
{
	struct dwarf_file *df, *dtmp;
	struct addr_entry *e, *etmp;
	struct src_file *sf, *stmp;

	if (!c)
		return;
	HASH_ITER(hh, c->files, df, dtmp) {
		HASH_DEL(c->files, df);
		dwarf_file__delete(df);
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

static struct dwarf_file *find_file(struct srcline_cache *c, const struct obj_view *obj)
{
	struct dwarf_file *df;

	HASH_FIND_PTR(c->files, &obj, df);
	if (df)
		return df;
	df = dwarf_file__open(obj, true);
	HASH_ADD_PTR(c->files, obj, df);
	return df;
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
	Dwarf_Die chain[SRCLINE_MAX_DEPTH];
	Dwarf_Die cu;
	Dwarf_Line *line;
	const char *file;
	int lineno, col;
	size_t n = 0, i, nr;

	if (!dwarf_file__find_cu(df, addr, &cu))
		return 0;
	line = dwarf_getsrc_die(&cu, addr);
	if (!line || dwarf_lineno(line, &lineno) != 0 || lineno <= 0 ||
	    !(file = dwarf_linesrc(line, NULL, NULL)))
		return 0;
	if (dwarf_linecol(line, &col) != 0 || col < 0)
		col = 0;
	nr = dwarf_file__scopes(df, &cu, addr, chain, SRCLINE_MAX_DEPTH);
	locs[0].file = intern_file(c, &cu, file);
	locs[0].line = (uint32_t)lineno;
	locs[0].column = (uint32_t)col;
	locs[0].function = NULL;
	/* chain[k] is outermost first; level i from the inside is chain[nr-1-i] */
	for (i = 0; i < nr; i++) {
		Dwarf_Die *die = &chain[nr - 1 - i];

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
	char vbuf[VFS_PATH_BUF];
	struct stat st;
	unsigned char *buf;
	size_t got = 0;
	int fd;

	if (!strncmp(path, "file://", 7))
		path += 7;
	if (path[0] != '/')
		return;         /* relative to what the runtime's directory was: unknown */
	fd = open(vfs_path(path, VFS_FILE, vbuf), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
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
