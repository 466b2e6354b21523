#include "common.h"
#include "dso.h"
#include "demangle.h"
#include "sbuf.h"
#include "strpool.h"

#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#include <uthash.h>

#ifndef STT_GNU_IFUNC
#define STT_GNU_IFUNC 10
#endif

/* No node, in the symbol tree's links. */
#define NIL UINT32_MAX

/* Symlinks followed while resolving one path under symfs (as the kernel's 40). */
#define SYMFS_MAX_LINKS 40

struct dso_key {
	const char *path;               /* interned: compared by pointer */
	uint8_t build_id[DSO_BUILD_ID_MAX];
	size_t build_id_size;           /* 0: none given */
};

struct dso_sym {
	struct symbol pub;              /* pub.name NULL until first found */
	const char *raw;                /* ELF name, in one of the strtab copies */
	uint32_t left, right;           /* perf's search tree (see struct symtree) */
};

struct dso_seg {                        /* a PT_LOAD header */
	uint64_t offset, filesz, vaddr;
};

struct dso {
	struct dso_key key;
	UT_hash_handle hh;
	struct dso_cache *cache;
	bool loaded;
	uint8_t file_build_id[DSO_BUILD_ID_MAX];
	size_t file_build_id_size;
	const char *file, *symfile;
	struct dso_seg *segs;
	size_t nr_segs, alloc_segs;
	struct dso_sym *syms;           /* sorted by start */
	size_t nr_syms;
	uint32_t root;
	char **strtabs;                 /* copies of string tables raw names point into */
	size_t nr_strtabs, alloc_strtabs;
};

struct dso_cache {
	char *symfs;                    /* NULL: none */
	char *buildid_dir;
	bool demangle;
	unsigned int demangle_flags;
	struct strpool *pool;
	struct dso *table;
};

/* An opened ELF file. */
struct elf_image {
	int fd;
	Elf *elf;
	GElf_Ehdr ehdr;
	bool shstr_ok;                  /* section names readable */
	const char *path;               /* interned */
	uint8_t build_id[DSO_BUILD_ID_MAX];
	size_t build_id_size;
};
#define ELF_IMAGE_INIT { .fd = -1 }

enum image_status { IMAGE_OK, IMAGE_MISSING, IMAGE_NOT_ELF };

/*
 * Symbols are loaded into a red-black tree keyed by start address, equal
 * keys to the right, built with the same sequence of inserts and erases as
 * perf's (symtab, fix ends, drop aliases; dynsym, again; PLT entries), and
 * searched the same way. Where symbols overlap (a zero-sized _init grown
 * over the .plt entries added after it, nested symbols) the one perf finds
 * depends on the tree's shape, so the shape is kept for lookups.
 */
struct rawsym {
	uint64_t start, end;
	const char *raw;
	const char *shown;              /* display name, NULL until needed */
	uint32_t left, right, parent;
	uint8_t bind;
	bool red;
	bool erased;
};

struct symtree {
	struct rawsym *v;               /* every node ever added, erased ones too */
	size_t nr, alloc;
	uint32_t root;
};

/* ---- paths ---- */

static bool is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * Resolve absolute path as if root were "/": symlinks are followed inside
 * root, ".." stops at root. out gets root + the resolved path. Returns
 * false when a component is missing or there are too many links.
 */
static bool symfs_resolve(const char *root, const char *path, struct sbuf *out)
{
	struct sbuf todo = SBUF_INIT, next = SBUF_INIT;
	size_t root_len, pos = 0, links = 0;
	bool ok = true;
	char target[PATH_MAX];

	sbuf_reset(out);
	sbuf_addstr(out, root);
	while (out->len && out->buf[out->len - 1] == '/')
		out->buf[--out->len] = '\0';
	root_len = out->len;
	sbuf_addstr(&todo, path);

	while (ok && pos < todo.len) {
		const char *c = todo.buf + pos;
		size_t n = strcspn(c, "/"), parent = out->len;
		struct stat st;
		ssize_t tn;

		pos += n + (c[n] == '/');
		if (!n || (n == 1 && c[0] == '.'))
			continue;
		if (n == 2 && c[0] == '.' && c[1] == '.') {
			while (out->len > root_len && out->buf[out->len - 1] != '/')
				out->len--;
			if (out->len > root_len)
				out->len--;
			out->buf[out->len] = '\0';
			continue;
		}
		sbuf_addch(out, '/');
		sbuf_add(out, c, n);
		if (lstat(out->buf, &st)) {
			ok = false;
			break;
		}
		if (!S_ISLNK(st.st_mode))
			continue;
		tn = readlink(out->buf, target, sizeof(target) - 1);
		if (tn <= 0 || ++links > SYMFS_MAX_LINKS) {
			ok = false;
			break;
		}
		target[tn] = '\0';
		out->len = target[0] == '/' ? root_len : parent;
		out->buf[out->len] = '\0';
		sbuf_reset(&next);
		sbuf_addstr(&next, target);
		sbuf_addch(&next, '/');
		sbuf_addstr(&next, todo.buf + pos);
		sbuf_reset(&todo);
		sbuf_add(&todo, next.buf, next.len);
		pos = 0;
	}
	if (out->truncated || todo.truncated || next.truncated)
		ok = false;
	sbuf_release(&todo);
	sbuf_release(&next);
	return ok;
}

/* The on-disk name of a recorded (absolute) path: under symfs when set. */
static bool cache__host_path(struct dso_cache *c, const char *path, struct sbuf *out)
{
	if (!c->symfs) {
		sbuf_reset(out);
		sbuf_addstr(out, path);
		return !out->truncated;
	}
	return symfs_resolve(c->symfs, path, out);
}

static void build_id__addhex(struct sbuf *sb, const uint8_t *id, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		sbuf_addf(sb, "%02x", id[i]);
}

/* Equal, allowing one to carry zero padding (perf pads md5 ids to 20 bytes). */
static bool build_id__equal(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
	size_t n = an < bn ? an : bn, i;

	if (!an || !bn || memcmp(a, b, n))
		return false;
	for (i = n; i < an; i++)
		if (a[i])
			return false;
	for (i = n; i < bn; i++)
		if (b[i])
			return false;
	return true;
}

/* ---- ELF files ---- */

static void image__close(struct elf_image *img)
{
	if (img->elf)
		elf_end(img->elf);
	if (img->fd >= 0)
		close(img->fd);
	*img = (struct elf_image)ELF_IMAGE_INIT;
}

static const char *image__secname(struct elf_image *img, const GElf_Shdr *shdr)
{
	size_t shstrndx;
	const char *s;

	if (!img->shstr_ok || elf_getshdrstrndx(img->elf, &shstrndx))
		return "";
	s = elf_strptr(img->elf, shstrndx, shdr->sh_name);
	return s ? s : "";
}

static Elf_Scn *image__find_section(struct elf_image *img, const char *name,
				    Elf64_Word type, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(img->elf, scn))) {
		if (!gelf_getshdr(scn, shdr) || shdr->sh_type != type)
			continue;
		if (!name || !strcmp(image__secname(img, shdr), name))
			return scn;
	}
	return NULL;
}

/* Look for the GNU build-id note in one block of notes. */
static bool notes__build_id(Elf_Data *data, struct elf_image *img)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4) &&
		    nh.n_descsz > 0 && nh.n_descsz <= DSO_BUILD_ID_MAX) {
			memcpy(img->build_id, (char *)data->d_buf + desc_off, nh.n_descsz);
			img->build_id_size = nh.n_descsz;
			return true;
		}
		off = next;
	}
	return false;
}

/* Sections first (debug files keep them), then PT_NOTE (no section headers). */
static void image__read_build_id(struct elf_image *img)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	GElf_Phdr phdr;
	size_t i, n;

	while ((scn = elf_nextscn(img->elf, scn)))
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_NOTE &&
		    notes__build_id(elf_getdata(scn, NULL), img))
			return;
	if (elf_getphdrnum(img->elf, &n))
		return;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(img->elf, (int)i, &phdr) || phdr.p_type != PT_NOTE)
			continue;
		if (notes__build_id(elf_getdata_rawchunk(img->elf, (int64_t)phdr.p_offset,
				phdr.p_filesz, phdr.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR), img))
			return;
	}
}

static enum image_status image__open(struct elf_image *img, struct strpool *pool,
				     const char *path)
{
	struct stat st;
	size_t shstrndx;

	*img = (struct elf_image)ELF_IMAGE_INIT;
	img->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (img->fd < 0)
		return IMAGE_MISSING;
	if (fstat(img->fd, &st) || !S_ISREG(st.st_mode)) {
		image__close(img);
		return IMAGE_MISSING;
	}
	img->path = strpool__intern(pool, path);
	img->elf = elf_begin(img->fd, ELF_C_READ_MMAP, NULL);
	if (!img->elf || elf_kind(img->elf) != ELF_K_ELF ||
	    !gelf_getehdr(img->elf, &img->ehdr) ||
	    (img->ehdr.e_type != ET_EXEC && img->ehdr.e_type != ET_DYN &&
	     img->ehdr.e_type != ET_REL)) {
		image__close(img);
		return IMAGE_NOT_ELF;
	}
	/* Old libelf crashed in elf_strptr() on a truncated string table. */
	img->shstr_ok = !elf_getshdrstrndx(img->elf, &shstrndx) &&
		elf_rawdata(elf_getscn(img->elf, shstrndx), NULL) != NULL;
	image__read_build_id(img);
	return IMAGE_OK;
}

static bool image__has_symtab(struct elf_image *img)
{
	GElf_Shdr shdr;

	return image__find_section(img, NULL, SHT_SYMTAB, &shdr) != NULL;
}

/* The .gnu_debuglink file name, NUL-terminated inside the section, or NULL. */
static const char *image__debuglink(struct elf_image *img)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = image__find_section(img, ".gnu_debuglink", SHT_PROGBITS, &shdr);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;

	if (!data || !data->d_buf || !data->d_size ||
	    !memchr(data->d_buf, '\0', data->d_size) || !((char *)data->d_buf)[0])
		return NULL;
	return data->d_buf;
}

/* ---- finding the files ---- */

/* Try one candidate binary; true when it opened and matches the expected id. */
static bool dso__try_runtime(struct dso *d, const char *path, struct elf_image *img,
			     bool *mismatch, bool *not_elf)
{
	enum image_status st = image__open(img, d->cache->pool, path);

	if (st == IMAGE_NOT_ELF)
		*not_elf = true;
	if (st != IMAGE_OK)
		return false;
	if (d->key.build_id_size &&
	    !build_id__equal(d->key.build_id, d->key.build_id_size,
			     img->build_id, img->build_id_size)) {
		*mismatch = true;
		image__close(img);
		return false;
	}
	return true;
}

/*
 * perf's build-id cache: buildid_dir/.build-id/xx/rest is a file (old
 * layout) or a link to the directory buildid_dir/<path>/<hex>, which holds
 * "elf", "debug" or "vdso".
 */
static void cache__buildid_link(struct dso_cache *c, const uint8_t *id, size_t id_size,
				const char *base, struct sbuf *sb)
{
	struct sbuf hex = SBUF_INIT;

	build_id__addhex(&hex, id, id_size);
	sbuf_reset(sb);
	sbuf_addf(sb, "%s/.build-id/%.2s/%s", c->buildid_dir, hex.buf, hex.buf + 2);
	if (!is_regular_file(sb->buf))
		sbuf_addf(sb, "/%s", base);
	sbuf_release(&hex);
}

static bool dso__find_in_buildid_cache(struct dso *d, const char *path, const char *base,
				       struct elf_image *img, bool *mismatch, bool *not_elf)
{
	struct sbuf sb = SBUF_INIT, hex = SBUF_INIT;
	bool found = false;

	if (!d->key.build_id_size)
		return false;
	cache__buildid_link(d->cache, d->key.build_id, d->key.build_id_size, base, &sb);
	found = dso__try_runtime(d, sb.buf, img, mismatch, not_elf);
	if (!found) {
		build_id__addhex(&hex, d->key.build_id, d->key.build_id_size);
		sbuf_reset(&sb);
		sbuf_addf(&sb, "%s%s%s/%s/%s", d->cache->buildid_dir,
			  path[0] == '/' ? "" : "/", path, hex.buf, base);
		found = dso__try_runtime(d, sb.buf, img, mismatch, not_elf);
	}
	sbuf_release(&sb);
	sbuf_release(&hex);
	return found;
}

/*
 * Strip the kernel's " (deleted)" suffix: such a file can still be found in
 * the build-id cache, or at its old path when the build id proves it is the
 * same file.
 */
static size_t path_len_undeleted(const char *path, bool *deleted)
{
	static const char suffix[] = " (deleted)";
	size_t len = strlen(path), sl = sizeof(suffix) - 1;

	*deleted = len > sl && !strcmp(path + len - sl, suffix);
	return *deleted ? len - sl : len;
}

static bool dso__find_runtime(struct dso *d, struct elf_image *img)
{
	struct dso_cache *c = d->cache;
	const char *path = d->key.path;
	struct sbuf real = SBUF_INIT, hex = SBUF_INIT;
	bool deleted, mismatch = false, not_elf = false, found = false;
	char *base_path = xstrndup(path, path_len_undeleted(path, &deleted));

	if (!strcmp(base_path, "[vdso]")) {
		/* perf record keeps the vdso in the build-id cache. */
		found = dso__find_in_buildid_cache(d, base_path, "vdso", img,
						   &mismatch, &not_elf);
		goto out;
	}
	if (base_path[0] != '/')
		goto out;   /* "//anon", "[heap]", "anon_inode:...": no file, no warning */
	if ((!deleted || d->key.build_id_size) && cache__host_path(c, base_path, &real))
		found = dso__try_runtime(d, real.buf, img, &mismatch, &not_elf);
	if (!found)
		found = dso__find_in_buildid_cache(d, base_path, "elf", img,
						   &mismatch, &not_elf);
	if (found)
		goto out;
	if (mismatch) {
		build_id__addhex(&hex, d->key.build_id, d->key.build_id_size);
		warning("no file matching build id %s for '%s'; its samples stay unresolved",
			hex.buf, path);
	} else if (not_elf) {
		warning("'%s' is not an ELF file", path);
	} else if (!deleted || d->key.build_id_size) {
		warning("cannot find '%s'%s%s", path, c->symfs ? " under symfs " : "",
			c->symfs ? c->symfs : "");
	}
out:
	free(base_path);
	sbuf_release(&real);
	sbuf_release(&hex);
	return found;
}

/* Accept a debug file: it has a symtab and (when one is known) our build id. */
static bool dso__try_debug(struct dso *d, const char *path, struct elf_image *dbg,
			   const uint8_t *id, size_t id_size)
{
	if (image__open(dbg, d->cache->pool, path) != IMAGE_OK)
		return false;
	if ((id_size && !build_id__equal(id, id_size, dbg->build_id, dbg->build_id_size)) ||
	    !image__has_symtab(dbg)) {
		image__close(dbg);
		return false;
	}
	return true;
}

/*
 * Candidate k (0, 1, ...) for the file with the symbols when the binary
 * has no .symtab, in perf's order: .gnu_debuglink next to the binary, in
 * .debug/ and under /usr/lib/debug; the build-id cache's copy of the
 * binary (perf record keeps one, maybe unstripped) and its debug file;
 * /usr/lib/debug by path and by build id. All but the build-id cache are
 * recorded paths, looked up under symfs. Returns false past the end; an
 * empty out means skip this one.
 */
static bool dso__debug_candidate(struct dso *d, size_t k, const char *link,
				 const char *path, const char *hex, struct sbuf *out)
{
	struct sbuf rec = SBUF_INIT;
	size_t dir_len = path[0] == '/' ? (size_t)(strrchr(path, '/') - path) : 0;

	sbuf_reset(out);
	switch (k) {
	case 0: case 1: case 2:
		if (link && path[0] == '/')
			sbuf_addf(&rec, k == 0 ? "%.*s/%s" : k == 1 ? "%.*s/.debug/%s" :
				  "/usr/lib/debug%.*s/%s", (int)dir_len, path, link);
		break;
	case 3: case 4:
		if (!hex[0])
			break;
		sbuf_addf(out, "%s/.build-id/%.2s/%s", d->cache->buildid_dir, hex, hex + 2);
		if (k == 4 || !is_regular_file(out->buf))
			sbuf_addstr(out, k == 3 ? "/elf" : "/debug");
		break;
	case 5: case 6:
		if (path[0] == '/')
			sbuf_addf(&rec, "/usr/lib/debug%s%s", path, k == 5 ? ".debug" : "");
		break;
	case 7:
		if (hex[0])
			sbuf_addf(&rec, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
		break;
	default:
		return false;
	}
	if (rec.len && !cache__host_path(d->cache, rec.buf, out))
		sbuf_reset(out);
	sbuf_release(&rec);
	return true;
}

static bool dso__find_debug(struct dso *d, struct elf_image *rt, struct elf_image *dbg)
{
	const uint8_t *id = rt->build_id_size ? rt->build_id : d->key.build_id;
	size_t id_size = rt->build_id_size ? rt->build_id_size : d->key.build_id_size, k;
	const char *link = image__debuglink(rt);
	struct sbuf cand = SBUF_INIT, hex = SBUF_INIT;
	bool deleted, found = false;
	char *path = xstrndup(d->key.path, path_len_undeleted(d->key.path, &deleted));

	build_id__addhex(&hex, id, id_size);
	for (k = 0; !found && dso__debug_candidate(d, k, link, path, hex.buf, &cand); k++)
		if (cand.len)
			found = dso__try_debug(d, cand.buf, dbg, id, id_size);
	free(path);
	sbuf_release(&cand);
	sbuf_release(&hex);
	return found;
}

/* ---- reading the binary ---- */

static void dso__read_segments(struct dso *d, struct elf_image *img)
{
	size_t i, n;
	GElf_Phdr ph;

	if (elf_getphdrnum(img->elf, &n))
		return;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(img->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !ph.p_filesz)
			continue;
		ALLOC_GROW(d->segs, d->nr_segs + 1, d->alloc_segs);
		d->segs[d->nr_segs].offset = ph.p_offset;
		d->segs[d->nr_segs].filesz = ph.p_filesz;
		d->segs[d->nr_segs].vaddr = ph.p_vaddr;
		d->nr_segs++;
	}
}

/* Keep a copy of a string table; returns it, with a NUL at the end. */
static const char *dso__keep_strtab(struct dso *d, Elf_Data *data)
{
	char *copy = xmalloc(st_add(data->d_size, 1));

	memcpy(copy, data->d_buf, data->d_size);
	copy[data->d_size] = '\0';
	ALLOC_GROW(d->strtabs, d->nr_strtabs + 1, d->alloc_strtabs);
	d->strtabs[d->nr_strtabs++] = copy;
	return copy;
}

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

/* Check one ELF symbol against its section; fills the section name test. */
static bool elf_sym__in_alloc_section(struct elf_image *img, const GElf_Sym *sym,
				      bool is_label)
{
	Elf_Scn *scn = elf_getscn(img->elf, sym->st_shndx);
	GElf_Shdr shdr;
	const char *name;

	if (!scn || !gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
		return false;
	if (!is_label)
		return true;
	name = image__secname(img, &shdr);
	return strstr(name, "text") || strstr(name, "data");
}

/* ---- the symbol tree ---- */

static struct rawsym *N(struct symtree *t, uint32_t i)
{
	return &t->v[i];
}

static bool is_red(struct symtree *t, uint32_t i)
{
	return i != NIL && t->v[i].red;
}

/* Put y where x was under x's parent. */
static void symtree__replace_child(struct symtree *t, uint32_t x, uint32_t y)
{
	uint32_t p = N(t, x)->parent;

	if (p == NIL)
		t->root = y;
	else if (N(t, p)->left == x)
		N(t, p)->left = y;
	else
		N(t, p)->right = y;
	if (y != NIL)
		N(t, y)->parent = p;
}

static void symtree__rotate_left(struct symtree *t, uint32_t x)
{
	uint32_t y = N(t, x)->right;

	N(t, x)->right = N(t, y)->left;
	if (N(t, y)->left != NIL)
		N(t, N(t, y)->left)->parent = x;
	symtree__replace_child(t, x, y);
	N(t, y)->left = x;
	N(t, x)->parent = y;
}

static void symtree__rotate_right(struct symtree *t, uint32_t x)
{
	uint32_t y = N(t, x)->left;

	N(t, x)->left = N(t, y)->right;
	if (N(t, y)->right != NIL)
		N(t, N(t, y)->right)->parent = x;
	symtree__replace_child(t, x, y);
	N(t, y)->right = x;
	N(t, x)->parent = y;
}

static void symtree__insert_fixup(struct symtree *t, uint32_t z)
{
	while (is_red(t, N(t, z)->parent)) {
		uint32_t p = N(t, z)->parent, g = N(t, p)->parent;
		bool left = N(t, g)->left == p;
		uint32_t u = left ? N(t, g)->right : N(t, g)->left;

		if (is_red(t, u)) {
			N(t, p)->red = N(t, u)->red = false;
			N(t, g)->red = true;
			z = g;
			continue;
		}
		if (z == (left ? N(t, p)->right : N(t, p)->left)) {
			z = p;
			if (left)
				symtree__rotate_left(t, z);
			else
				symtree__rotate_right(t, z);
			p = N(t, z)->parent;
		}
		N(t, p)->red = false;
		N(t, g)->red = true;
		if (left)
			symtree__rotate_right(t, g);
		else
			symtree__rotate_left(t, g);
	}
	N(t, t->root)->red = false;
}

/* Add a symbol; returns its node, to be filled in by the caller. */
static struct rawsym *symtree__add(struct symtree *t, uint64_t start, uint64_t end)
{
	uint32_t z, x = t->root, p = NIL;
	struct rawsym *r;

	if (t->nr >= NIL - 1)
		return NULL;
	ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	z = (uint32_t)t->nr++;
	while (x != NIL) {
		p = x;
		x = start < N(t, x)->start ? N(t, x)->left : N(t, x)->right;
	}
	r = N(t, z);
	memset(r, 0, sizeof(*r));
	r->start = start;
	r->end = end;
	r->left = r->right = NIL;
	r->parent = p;
	r->red = true;
	if (p == NIL)
		t->root = z;
	else if (start < N(t, p)->start)
		N(t, p)->left = z;
	else
		N(t, p)->right = z;
	symtree__insert_fixup(t, z);
	return N(t, z);
}

static uint32_t symtree__min(struct symtree *t, uint32_t x)
{
	while (x != NIL && N(t, x)->left != NIL)
		x = N(t, x)->left;
	return x;
}

static uint32_t symtree__next(struct symtree *t, uint32_t x)
{
	uint32_t p;

	if (N(t, x)->right != NIL)
		return symtree__min(t, N(t, x)->right);
	while ((p = N(t, x)->parent) != NIL && N(t, p)->right == x)
		x = p;
	return p;
}

/* Restore the colours after removing a black node; x (maybe NIL) is under xp. */
static void symtree__erase_fixup(struct symtree *t, uint32_t x, uint32_t xp)
{
	while (x != t->root && !is_red(t, x)) {
		bool left = N(t, xp)->left == x;
		uint32_t w = left ? N(t, xp)->right : N(t, xp)->left;

		if (is_red(t, w)) {
			N(t, w)->red = false;
			N(t, xp)->red = true;
			if (left)
				symtree__rotate_left(t, xp);
			else
				symtree__rotate_right(t, xp);
			w = left ? N(t, xp)->right : N(t, xp)->left;
		}
		if (!is_red(t, N(t, w)->left) && !is_red(t, N(t, w)->right)) {
			N(t, w)->red = true;
			x = xp;
			xp = N(t, x)->parent;
			continue;
		}
		if (!is_red(t, left ? N(t, w)->right : N(t, w)->left)) {
			N(t, left ? N(t, w)->left : N(t, w)->right)->red = false;
			N(t, w)->red = true;
			if (left)
				symtree__rotate_right(t, w);
			else
				symtree__rotate_left(t, w);
			w = left ? N(t, xp)->right : N(t, xp)->left;
		}
		N(t, w)->red = N(t, xp)->red;
		N(t, xp)->red = false;
		N(t, left ? N(t, w)->right : N(t, w)->left)->red = false;
		if (left)
			symtree__rotate_left(t, xp);
		else
			symtree__rotate_right(t, xp);
		x = t->root;
	}
	if (x != NIL)
		N(t, x)->red = false;
}

static void symtree__erase(struct symtree *t, uint32_t z)
{
	struct rawsym *zn = N(t, z);
	uint32_t x, xp, y = z;
	bool y_red = zn->red;

	if (zn->left == NIL || zn->right == NIL) {
		x = zn->left == NIL ? zn->right : zn->left;
		xp = zn->parent;
		symtree__replace_child(t, z, x);
	} else {
		y = symtree__min(t, zn->right);
		y_red = N(t, y)->red;
		x = N(t, y)->right;
		if (N(t, y)->parent == z) {
			xp = y;
		} else {
			xp = N(t, y)->parent;
			symtree__replace_child(t, y, x);
			N(t, y)->right = zn->right;
			N(t, zn->right)->parent = y;
		}
		symtree__replace_child(t, z, y);
		N(t, y)->left = zn->left;
		N(t, zn->left)->parent = y;
		N(t, y)->red = zn->red;
	}
	zn->erased = true;
	if (!y_red)
		symtree__erase_fixup(t, x, xp);
}

/* ---- reading symbols ---- */

/* Add the wanted symbols of img's first section of this type; returns how many. */
static size_t dso__read_symtab(struct dso *d, struct elf_image *img, Elf64_Word type,
			       struct symtree *t)
{
	GElf_Shdr shdr, strshdr;
	Elf_Scn *scn = image__find_section(img, NULL, type, &shdr), *strscn;
	Elf_Data *data, *strdata;
	const char *strs;
	GElf_Sym sym;
	size_t i, n = 0;

	if (!scn || !(data = elf_getdata(scn, NULL)) || !data->d_buf)
		return 0;
	strscn = elf_getscn(img->elf, shdr.sh_link);
	if (!strscn || !gelf_getshdr(strscn, &strshdr) || strshdr.sh_type != SHT_STRTAB ||
	    !(strdata = elf_getdata(strscn, NULL)) || !strdata->d_buf || !strdata->d_size)
		return 0;
	strs = dso__keep_strtab(d, strdata);
	for (i = 1; i < INT_MAX && gelf_getsym(data, (int)i, &sym); i++) {
		bool is_label;
		struct rawsym *r;

		if (!elf_sym__wanted(&sym, &is_label) || sym.st_name >= strdata->d_size ||
		    arm_mapping_symbol(&img->ehdr, strs + sym.st_name) ||
		    !elf_sym__in_alloc_section(img, &sym, is_label))
			continue;
		/* Thumb functions have bit 0 set in their address. */
		if (img->ehdr.e_machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC)
			sym.st_value &= ~(GElf_Addr)1;
		r = symtree__add(t, sym.st_value,
				 sym.st_size > UINT64_MAX - sym.st_value ? UINT64_MAX :
				 sym.st_value + sym.st_size);
		if (!r)
			break;
		r->raw = strs + sym.st_name;
		r->bind = GELF_ST_BIND(sym.st_info);
		n++;
	}
	return n;
}

/* The name shown for raw: demangled when asked for and possible; interned. */
static const char *cache__shown_name(struct dso_cache *c, const char *raw)
{
	char *dm = c->demangle ? demangle__name(raw, c->demangle_flags) : NULL;
	const char *name;

	if (!dm)
		return strpool__intern(c->pool, raw);
	name = strpool__intern(c->pool, dm);
	free(dm);
	return name;
}

static const char *rawsym__shown(struct rawsym *r, struct dso_cache *c)
{
	if (!r->shown)
		r->shown = cache__shown_name(c, r->raw);
	return r->shown;
}

static size_t leading_underscores(const char *s)
{
	return strspn(s, "_");
}

/* Of two symbols at one address, is b better than a? perf's preference. */
static bool rawsym__b_wins(struct rawsym *a, struct rawsym *b, struct dso_cache *c)
{
	bool az = a->end == a->start, bz = b->end == b->start;
	size_t au, bu;

	if (az != bz)
		return az;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return a->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return b->bind == STB_GLOBAL;
	if (!strcmp(a->raw, b->raw))
		return false;   /* .symtab and .dynsym copies: a tie, skip demangling */
	au = leading_underscores(rawsym__shown(a, c));
	bu = leading_underscores(rawsym__shown(b, c));
	if (au != bu)
		return bu < au;
	return strlen(b->shown) > strlen(a->shown);
}

/*
 * Give zero-sized symbols the room up to the next one (the last one gets
 * up to the next page boundary and one page more), then keep one symbol
 * per address, in address order as perf does.
 */
static void symtree__settle(struct symtree *t, struct dso_cache *c)
{
	uint32_t x = symtree__min(t, t->root), y;

	for (; x != NIL; x = y) {
		struct rawsym *r = N(t, x);

		y = symtree__next(t, x);
		if (r->end != r->start)
			continue;
		if (y != NIL) {
			r->end = N(t, y)->start;
		} else {
			uint64_t up = r->start > UINT64_MAX - 4095 ? UINT64_MAX :
				      (r->start + 4095) & ~(uint64_t)4095;

			r->end = up > UINT64_MAX - 4096 ? UINT64_MAX : up + 4096;
		}
	}
	x = symtree__min(t, t->root);
	while (x != NIL && (y = symtree__next(t, x)) != NIL) {
		if (N(t, x)->start != N(t, y)->start) {
			x = y;
		} else if (rawsym__b_wins(N(t, x), N(t, y), c)) {
			symtree__erase(t, x);
			x = y;
		} else {
			symtree__erase(t, y);
		}
	}
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
static void dso__synthesize_plt(struct dso *d, struct elf_image *rt, struct symtree *t)
{
	GElf_Shdr dynshdr, relshdr, pltshdr, strshdr;
	Elf_Scn *dynscn = image__find_section(rt, NULL, SHT_DYNSYM, &dynshdr), *relscn, *strscn;
	Elf_Data *dyndata, *reldata, *strdata;
	uint64_t hdr, ent, addr, end;
	struct sbuf name;
	size_t i, nrel;
	bool rela = true;

	if (!dynscn || !image__find_section(rt, ".plt", SHT_PROGBITS, &pltshdr))
		return;
	relscn = image__find_section(rt, ".rela.plt", SHT_RELA, &relshdr);
	if (!relscn) {
		rela = false;
		relscn = image__find_section(rt, ".rel.plt", SHT_REL, &relshdr);
	}
	if (!relscn || relshdr.sh_link != elf_ndxscn(dynscn) || !relshdr.sh_entsize)
		return;
	plt_layout(&rt->ehdr, &pltshdr, &hdr, &ent);
	strscn = elf_getscn(rt->elf, dynshdr.sh_link);
	if (!ent || !strscn || !gelf_getshdr(strscn, &strshdr) || strshdr.sh_type != SHT_STRTAB ||
	    !(strdata = elf_getdata(strscn, NULL)) || !strdata->d_buf ||
	    !(dyndata = elf_getdata(dynscn, NULL)) || !(reldata = elf_getdata(relscn, NULL)))
		return;
	nrel = relshdr.sh_size / relshdr.sh_entsize;
	end = pltshdr.sh_addr + pltshdr.sh_size;
	sbuf_init(&name, SBUF_MAX_SYMNAME);
	for (i = 0, addr = pltshdr.sh_addr + hdr; i < nrel && i < INT_MAX &&
	     addr >= pltshdr.sh_addr && addr <= end && ent <= end - addr; i++, addr += ent) {
		GElf_Rela rel;
		GElf_Rel r;
		GElf_Sym sym;
		struct rawsym *p;

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
		sbuf_reset(&name);
		sbuf_addf(&name, "%s@plt",
			  cache__shown_name(d->cache, (char *)strdata->d_buf + sym.st_name));
		if (!(p = symtree__add(t, addr, addr + ent)))
			break;
		p->shown = p->raw = strpool__intern(d->cache->pool, name.buf);
		p->bind = STB_GLOBAL;
	}
	sbuf_release(&name);
}

/* Keep the tree's live nodes as d->syms, in address order, with their links. */
static void dso__set_symbols(struct dso *d, struct symtree *t)
{
	uint32_t *pos = xcalloc(t->nr, sizeof(*pos)), x;
	size_t n = 0;

	for (x = symtree__min(t, t->root); x != NIL; x = symtree__next(t, x))
		pos[x] = (uint32_t)n++;
	d->syms = xcalloc(n, sizeof(*d->syms));
	for (x = 0; x < t->nr; x++) {
		struct rawsym *r = N(t, x);
		struct dso_sym *s;

		if (r->erased)
			continue;
		s = &d->syms[pos[x]];
		s->pub.start = r->start;
		s->pub.size = r->end - r->start;
		s->pub.name = r->shown;
		s->raw = r->raw;
		s->left = r->left == NIL ? NIL : pos[r->left];
		s->right = r->right == NIL ? NIL : pos[r->right];
	}
	d->nr_syms = n;
	d->root = t->root == NIL ? NIL : pos[t->root];
	free(pos);
}

/*
 * perf settles the .symtab symbols, then adds .dynsym's and settles again;
 * a debug file's .dynsym is empty (SHT_NOBITS), so only a binary that has
 * its own .symtab gets both. PLT entries come last, as they are.
 */
static void dso__load_symbols(struct dso *d, struct elf_image *syms, struct elf_image *rt)
{
	struct symtree t = { .root = NIL };
	size_t n = 0;

	if (syms && (n = dso__read_symtab(d, syms, SHT_SYMTAB, &t)))
		symtree__settle(&t, d->cache);
	if (syms == rt || !syms) {
		size_t nd = dso__read_symtab(d, rt, SHT_DYNSYM, &t);

		if (nd)
			symtree__settle(&t, d->cache);
		n += nd;
	}
	if (n)
		dso__synthesize_plt(d, rt, &t);
	dso__set_symbols(d, &t);
	free(t.v);
}

static void dso__load(struct dso *d)
{
	struct elf_image rt = ELF_IMAGE_INIT, dbg = ELF_IMAGE_INIT, *syms = NULL;

	if (d->loaded)
		return;
	d->loaded = true;
	if (!dso__find_runtime(d, &rt))
		return;
	d->file = rt.path;
	memcpy(d->file_build_id, rt.build_id, rt.build_id_size);
	d->file_build_id_size = rt.build_id_size;
	dso__read_segments(d, &rt);
	if (image__has_symtab(&rt))
		syms = &rt;
	else if (dso__find_debug(d, &rt, &dbg))
		syms = &dbg;
	d->symfile = syms ? syms->path : rt.path;
	dso__load_symbols(d, syms, &rt);
	note("'%s': %zu symbols from '%s'", d->key.path, d->nr_syms, d->symfile);
	image__close(&dbg);
	image__close(&rt);
}

/* ---- public API ---- */

struct dso_cache *dso_cache__new(const struct dso_opts *opts, struct strpool *pool)
{
	struct dso_cache *c = xcalloc(1, sizeof(*c));
	const char *home = getenv("HOME");

	elf_version(EV_CURRENT);
	c->pool = pool;
	if (opts->symfs && opts->symfs[0])
		c->symfs = xstrdup(opts->symfs);
	/* With a symfs, perf leaves the local cache alone too and uses symfs/.debug. */
	if (opts->buildid_dir && opts->buildid_dir[0])
		c->buildid_dir = xstrdup(opts->buildid_dir);
	else if (c->symfs)
		c->buildid_dir = xasprintf("%s/.debug", c->symfs);
	else
		c->buildid_dir = xasprintf("%s/.debug", home && home[0] ? home : "");
	c->demangle = opts->demangle;
	c->demangle_flags = opts->demangle_params ? DEMANGLE_PARAMS : 0;
	return c;
}

static void dso__delete(struct dso *d)
{
	size_t i;

	for (i = 0; i < d->nr_strtabs; i++)
		free(d->strtabs[i]);
	free(d->strtabs);
	free(d->syms);
	free(d->segs);
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
	free(c->symfs);
	free(c->buildid_dir);
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
	d->root = NIL;
	HASH_ADD(hh, c->table, key, sizeof(d->key), d);
	return d;
}

uint64_t dso__map_ip(struct dso *d, uint64_t map_start, uint64_t map_pgoff, uint64_t ip)
{
	uint64_t off = ip - map_start + map_pgoff;
	const struct dso_seg *best = NULL;
	size_t i;

	dso__load(d);
	for (i = 0; i < d->nr_segs; i++) {
		const struct dso_seg *s = &d->segs[i];

		if (off - s->offset < s->filesz && off >= s->offset)
			return off - s->offset + s->vaddr;
		if (off >= s->offset && (!best || s->offset > best->offset))
			best = s;
	}
	return best ? off - best->offset + best->vaddr : off;
}

/* Search the way perf's symbols__find() walks its tree. */
const struct symbol *dso__find_symbol(struct dso *d, uint64_t addr)
{
	uint32_t i;
	struct dso_sym *s;

	dso__load(d);
	for (i = d->root; i != NIL; ) {
		s = &d->syms[i];
		if (addr < s->pub.start) {
			i = s->left;
		} else if (addr - s->pub.start >= s->pub.size &&
			   !(addr == s->pub.start && !s->pub.size)) {
			i = s->right;
		} else {
			if (!s->pub.name)
				s->pub.name = cache__shown_name(d->cache, s->raw);
			return &s->pub;
		}
	}
	return NULL;
}

const char *dso__path(const struct dso *d)
{
	return d->key.path;
}

size_t dso__nr_symbols(struct dso *d)
{
	dso__load(d);
	return d->nr_syms;
}

const char *dso__file(struct dso *d)
{
	dso__load(d);
	return d->file;
}

const char *dso__symfile(struct dso *d)
{
	dso__load(d);
	return d->symfile;
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
