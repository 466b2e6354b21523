/*
 * The DSO cache: which files a DSO's symbols come from (dso-locate.c), its
 * PT_LOAD headers (elf-image.c) and its symbol table (symtab.c, filled by
 * elf-symbols.c), loaded once on first use. See dso.h.
 */
#include "common/common.h"
#include "resolve/dso.h"
#include "common/callsite.h"
#include "resolve/demangle.h"
#include "resolve/dso-locate.h"
#include "resolve/sample.h"
#include "resolve/elf-image.h"
#include "resolve/elf-symbols.h"
#include "common/strpool.h"
#include "resolve/symtab.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#include <uthash.h>

_Static_assert(DSO_BUILD_ID_MAX == ELF_IMAGE_BUILD_ID_MAX, "build id sizes differ");
_Static_assert(DSO_BUILD_ID_MAX == OBJ_BUILD_ID_MAX, "build id sizes differ");

struct dso_key {
	const char *path;               /* interned: compared by pointer */
	uint8_t build_id[DSO_BUILD_ID_MAX];
	size_t build_id_size;           /* 0: none given */
};

/* An image opened again after loading, for dso__elf_image(). */
struct dso_image {
	bool tried;
	struct elf_image *img;          /* NULL: could not be opened */
};

struct dso {
	struct dso_key key;
	UT_hash_handle hh;
	struct dso_cache *cache;
	bool loaded;
	uint8_t file_build_id[DSO_BUILD_ID_MAX];
	size_t file_build_id_size;
	const char *file, *symfile;
	struct elf_segment *segs;
	size_t nr_segs;
	struct symtab *symtab;          /* NULL: no binary usable */
	struct dso_image binary, debug;
	bool in_memory;                 /* the binary has no file (the running vdso) */
	struct dso_call *calls;         /* dso__call_ends_at()'s answers; NULL: none yet */
	unsigned calls_bits;            /* log2 of their slots */
	struct obj_view *view;          /* dso__view()'s; NULL: not yet */
	uint8_t view_id[DSO_BUILD_ID_MAX];   /* its build id when the DSO has none */
};

/*
 * An answer of dso__call_ends_at(): the file's bytes never change. The
 * cache has a slot per 4 KB of the file's loaded contents, 2^9 to 2^14:
 * at 2^9 for every DSO, node's return addresses in a --call-graph dwarf
 * recording evicted each other, 7,600 preads of the binary where 2,100
 * distinct addresses were asked about.
 */
#define DSO_CALLS_BITS_MIN 9
#define DSO_CALLS_BITS_MAX 14

struct dso_call {
	uint64_t addr;
	int8_t v;               /* -2: empty */
};

struct dso_cache {
	struct dso_locator *locator;
	bool demangle;
	unsigned int demangle_flags;
	struct strpool *pool;
	struct dso *table;
};

/*
 * Find the files, keep the segments and read the symbols. The images are
 * closed afterwards: a recording can name more DSOs than a process may
 * keep files open.
 */
static void dso__load(struct dso *d)
{
	struct dso_cache *c = d->cache;
	struct elf_image *rt, *dbg = NULL, *syms = NULL;
	const uint8_t *id;

	if (d->loaded)
		return;
	d->loaded = true;
	rt = dso_locator__find_binary(c->locator, d->key.path, d->key.build_id,
				      d->key.build_id_size);
	if (!rt)
		return;
	d->file = strpool__intern(c->pool, elf_image__path(rt));
	id = elf_image__build_id(rt, &d->file_build_id_size);
	if (id)
		memcpy(d->file_build_id, id, d->file_build_id_size);
	d->nr_segs = elf_image__segments(rt, &d->segs);
	/*
	 * perf's order: a debug file with symbols first (its DWARF is what
	 * srcline and inline frames read), then the binary's own
	 */
	if ((dbg = dso_locator__find_debug(c->locator, d->key.path, rt, d->key.build_id,
					   d->key.build_id_size)))
		syms = dbg;
	else if (elf_image__has_symtab(rt))
		syms = rt;
	d->symfile = syms ? strpool__intern(c->pool, elf_image__path(syms)) : d->file;
	d->symtab = symtab__new(c->pool, c->demangle, c->demangle_flags);
	elf_symbols__load(d->symtab, syms, rt);
	note("'%s': %zu symbols from '%s'", d->key.path, symtab__nr_symbols(d->symtab),
	     d->symfile);
	elf_image__delete(dbg);
	if (elf_image__in_memory(rt)) {
		/* the running vdso: no path to open it again by */
		d->binary.tried = true;
		d->binary.img = rt;
		d->in_memory = true;
		return;
	}
	elf_image__delete(rt);
}

struct dso_cache *dso_cache__new(const struct dso_opts *opts, struct strpool *pool)
{
	struct dso_cache *c = xcalloc(1, sizeof(*c));

	elf_version(EV_CURRENT);
	c->pool = pool;
	c->locator = dso_locator__new(opts->symfs, opts->buildid_dir);
	dso_locator__set_recording(c->locator, opts->rec);
	dso_locator__set_debuginfod(c->locator, opts->debuginfod);
	c->demangle = opts->demangle;
	c->demangle_flags = opts->demangle_params ? DEMANGLE_PARAMS : 0;
	return c;
}

static void dso__delete(struct dso *d)
{
	symtab__delete(d->symtab);
	elf_image__delete(d->binary.img);
	elf_image__delete(d->debug.img);
	free(d->segs);
	free(d->calls);
	free(d->view);
	free(d);
}

void dso_cache__delete(struct dso_cache *c)
{
	struct dso *d, *tmp;

	if (!c)
		return;
	HASH_ITER(hh, c->table, d, tmp) {
		HASH_DEL(c->table, d);
		dso__delete(d);
	}
	dso_locator__delete(c->locator);
	free(c);
}

struct dso *dso_cache__findnew(struct dso_cache *c, const char *path,
			       const uint8_t *build_id, size_t build_id_size)
{
	struct dso_key key;
	struct dso *d;
	size_t i;

	memset(&key, 0, sizeof(key));
	key.path = strpool__intern(c->pool, path);
	if (build_id && build_id_size && build_id_size <= DSO_BUILD_ID_MAX) {
		for (i = 0; i < build_id_size && !build_id[i]; i++)
			;
		if (i < build_id_size) {   /* all zeros: perf's "no build id" */
			memcpy(key.build_id, build_id, build_id_size);
			key.build_id_size = build_id_size;
		}
	}
	HASH_FIND(hh, c->table, &key, sizeof(key), d);
	if (d)
		return d;
	d = xcalloc(1, sizeof(*d));
	d->key = key;
	d->cache = c;
	HASH_ADD(hh, c->table, key, sizeof(d->key), d);
	return d;
}

uint64_t dso__map_ip(struct dso *d, uint64_t map_start, uint64_t map_pgoff, uint64_t ip)
{
	dso__load(d);
	return elf_segments__map(d->segs, d->nr_segs, ip - map_start + map_pgoff);
}

const struct symbol *dso__find_symbol(struct dso *d, uint64_t addr)
{
	dso__load(d);
	return d->symtab ? symtab__find(d->symtab, addr) : NULL;
}

const char *dso__path(const struct dso *d)
{
	return d->key.path;
}

size_t dso__nr_symbols(struct dso *d)
{
	dso__load(d);
	return d->symtab ? symtab__nr_symbols(d->symtab) : 0;
}

const char *dso__file(struct dso *d)
{
	dso__load(d);
	return d->in_memory ? NULL : d->file;
}

const char *dso__symfile(struct dso *d)
{
	dso__load(d);
	return d->in_memory && d->symfile == d->file ? NULL : d->symfile;
}

const uint8_t *dso__build_id(struct dso *d, size_t *size)
{
	const uint8_t *id = NULL;
	size_t n = 0;

	if (d->key.build_id_size) {
		id = d->key.build_id;
		n = d->key.build_id_size;
	} else {
		dso__load(d);
		if (d->file_build_id_size) {
			id = d->file_build_id;
			n = d->file_build_id_size;
		}
	}
	if (size)
		*size = n;
	return id;
}

bool dso__has_view(const struct dso *d)
{
	return d->view;
}

const struct obj_view *dso__view(struct dso *d, const uint8_t *id, size_t id_size)
{
	struct obj_view *v = d->view;

	if (v)
		return v;
	v = xcalloc(1, sizeof(*v));
	v->path = dso__path(d);
	v->file = dso__file(d);
	v->symfile = dso__symfile(d);
	v->build_id = dso__build_id(d, &v->build_id_size);
	if (!v->build_id && id && id_size && id_size <= sizeof(d->view_id)) {
		memcpy(d->view_id, id, id_size);
		v->build_id = d->view_id;
		v->build_id_size = id_size;
	}
	d->view = v;
	return v;
}

/*
 * Open path (a file loading read) again, once; id: the build id it must
 * still have (the file may have been replaced since), NULL for any.
 */
static struct elf_image *dso_image__get(struct dso_image *di, const char *path,
					const uint8_t *id, size_t id_size)
{
	const uint8_t *now;
	size_t now_size = 0;

	if (!di->tried) {
		di->tried = true;
		di->img = path ? elf_image__open(path) : NULL;
		now = di->img ? elf_image__build_id(di->img, &now_size) : NULL;
		if (id && (now_size != id_size || !now || memcmp(now, id, id_size))) {
			elf_image__delete(di->img);
			di->img = NULL;
		}
	}
	if (!di->img)
		errno = ENOENT;
	return di->img;
}

struct elf_image *dso__elf_image(struct dso *d)
{
	dso__load(d);
	return dso_image__get(&d->binary, d->file,
			     d->file_build_id_size ? d->file_build_id : NULL,
			     d->file_build_id_size);
}

struct elf_image *dso__debug_elf_image(struct dso *d)
{
	dso__load(d);
	if (d->symfile == d->file)
		return dso__elf_image(d);
	return dso_image__get(&d->debug, d->symfile, NULL, 0);
}

static int call_ends_at(struct dso *d, uint64_t addr)
{
	struct elf_image *img = dso__elf_image(d);
	uint8_t before[CALLSITE_WINDOW];
	size_t i;

	for (i = 0; img && i < d->nr_segs; i++) {
		const struct elf_segment *sg = &d->segs[i];
		uint64_t in = addr - sg->vaddr, off = sg->offset + in;
		ssize_t got;

		/* the bytes before addr, all inside this segment's file contents */
		if (addr <= sg->vaddr || in > sg->filesz || off < in)
			continue;
		in = in < CALLSITE_WINDOW ? in : CALLSITE_WINDOW;
		got = elf_image__pread(img, before, (size_t)in, off - in);
		if (got != (ssize_t)in)
			return -1;
		return callsite__ends_in_call(before, (size_t)in);
	}
	return -1;
}

/*
 * Kept by address: a dwarf unwind asks for every frame, and the resolver
 * again whenever its frame cache is emptied (a process's mmap), each a
 * pread otherwise.
 */
int dso__call_ends_at(struct dso *d, uint64_t addr)
{
	struct dso_call *slot;
	size_t i;

	if (!d->calls) {
		uint64_t bytes = 0;

		for (i = 0; i < d->nr_segs; i++)
			bytes += d->segs[i].filesz >> 12;
		d->calls_bits = DSO_CALLS_BITS_MIN;
		while (d->calls_bits < DSO_CALLS_BITS_MAX && bytes >> d->calls_bits)
			d->calls_bits++;
		d->calls = xmalloc(((size_t)1 << d->calls_bits) * sizeof(*d->calls));
		for (i = 0; i < (size_t)1 << d->calls_bits; i++) {
			d->calls[i].addr = 0;
			d->calls[i].v = -2;
		}
	}
	slot = &d->calls[(addr * 0x9E3779B97F4A7C15ULL) >> (64 - d->calls_bits)];
	if (slot->v == -2 || slot->addr != addr) {
		slot->addr = addr;
		slot->v = (int8_t)call_ends_at(d, addr);
	}
	return slot->v;
}
