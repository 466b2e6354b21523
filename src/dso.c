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

/* No symbol, in indexes and the tree's links. */
#define NIL UINT32_MAX

/* Symlinks followed while resolving one path under symfs (as the kernel's 40). */
#define SYMFS_MAX_LINKS 40

struct dso_key {
	const char *path;               /* interned: compared by pointer */
	uint8_t build_id[DSO_BUILD_ID_MAX];
	size_t build_id_size;           /* 0: none given */
};

/*
 * A symbol as read from .symtab or .dynsym, or a PLT entry, kept for the
 * DSO's life so that names are demangled and interned only when needed.
 */
struct rawsym {
	uint64_t start, end;
	const char *raw;                /* ELF name, in a strtab copy; a PLT entry's target */
	const char *shown;              /* display name, NULL until needed */
	uint8_t bind;
	bool plt;                       /* shown is "<target's shown name>@plt" */
};

/*
 * A symbol perf's tree keeps after loading: the alias perf prefers at an
 * address, or a PLT entry. Aliases that differ only in names that take
 * demangling to compare are chosen between at their first lookup.
 */
struct dso_sym {
	struct symbol pub;              /* name NULL until first found, size until chosen */
	uint32_t win;                   /* the rawsym kept; NIL: not chosen yet */
	uint32_t first, count;          /* not chosen: candidates d->alias[first..+count) */
	bool alone;                     /* overlaps no other symbol: no need for the tree */
};

/* A node of perf's tree, kept parallel to the rawsyms. */
struct tnode {
	uint32_t left, right, parent;
	bool red;
};

struct dso_seg {                        /* a PT_LOAD header */
	uint64_t offset, filesz, vaddr;
};

struct dso_strtab {
	char *copy;                     /* with a NUL at the end */
	const void *src;                /* the Elf_Data copied, while loading */
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
	struct rawsym *raws;            /* as perf adds them: .symtab, .dynsym, PLT */
	size_t nr_raws, alloc_raws, nr_symtab, nr_dynsym;
	struct dso_sym *syms;           /* sorted by start, equal starts in tree order */
	uint64_t *starts;               /* syms[i].pub.start, for the binary search */
	size_t nr_syms;
	uint32_t *alias;                /* the candidates of symbols not chosen yet */
	struct tnode *tree;             /* perf's tree, built by the first lookup needing it */
	uint32_t root;
	struct dso_strtab *strtabs;     /* string tables raw names point into */
	size_t nr_strtabs, alloc_strtabs;
};

struct dso_cache {
	char *symfs;                    /* NULL: none */
	char *buildid_dir;
	bool buildid_in_symfs;          /* buildid_dir is symfs/.debug: confine it too */
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

/*
 * A path built under buildid_dir, resolved inside symfs when the build-id
 * cache is symfs/.debug: the recorded name in it and the cache's links
 * must not lead out of symfs. Empty when it cannot be resolved.
 */
static void cache__confine(struct dso_cache *c, struct sbuf *sb)
{
	struct sbuf rel = SBUF_INIT;

	if (!c->buildid_in_symfs)
		return;
	sbuf_addstr(&rel, sb->buf + strlen(c->symfs));
	if (!symfs_resolve(c->symfs, rel.buf, sb))
		sbuf_reset(sb);
	sbuf_release(&rel);
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
	cache__confine(c, sb);
	if (!sb->len || !is_regular_file(sb->buf)) {
		sbuf_reset(sb);
		sbuf_addf(sb, "%s/.build-id/%.2s/%s/%s", c->buildid_dir, hex.buf, hex.buf + 2, base);
		cache__confine(c, sb);
	}
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
		cache__confine(d->cache, &sb);
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
		cache__confine(d->cache, out);
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

/*
 * A copy of a string table, with a NUL at the end; one per table however
 * often it is asked for while loading (.dynsym's names serve the PLT too).
 */
static const char *dso__keep_strtab(struct dso *d, Elf_Data *data)
{
	char *copy;
	size_t i;

	for (i = 0; i < d->nr_strtabs; i++)
		if (d->strtabs[i].src == data)
			return d->strtabs[i].copy;
	copy = xmalloc(st_add(data->d_size, 1));
	memcpy(copy, data->d_buf, data->d_size);
	copy[data->d_size] = '\0';
	ALLOC_GROW(d->strtabs, d->nr_strtabs + 1, d->alloc_strtabs);
	d->strtabs[d->nr_strtabs].copy = copy;
	d->strtabs[d->nr_strtabs++].src = data;
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

/* What symbols need to know of their section, looked up once per section. */
enum sec_flags {
	SEC_KNOWN = 1 << 0,
	SEC_ALLOC = 1 << 1,             /* SHF_ALLOC: loaded */
	SEC_TEXT_OR_DATA = 1 << 2,      /* named like text or data: labels count */
};

static uint8_t image__sec_flags(struct elf_image *img, size_t shndx)
{
	Elf_Scn *scn = elf_getscn(img->elf, shndx);
	GElf_Shdr shdr;
	const char *name;
	uint8_t f = SEC_KNOWN;

	if (!scn || !gelf_getshdr(scn, &shdr) || !(shdr.sh_flags & SHF_ALLOC))
		return f;
	name = image__secname(img, &shdr);
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
		*f = image__sec_flags(img, sym->st_shndx);
	return (*f & SEC_ALLOC) && (!is_label || (*f & SEC_TEXT_OR_DATA));
}


/* ---- choosing between aliases ---- */

/*
 * Symbols are chosen as perf 6.1 does: it adds them to a red-black tree
 * keyed by start address (equal keys to the right, so in the order added),
 * gives zero-sized ones the room up to the next, keeps one per address
 * (symtab, then again after adding dynsym), adds PLT entries, and searches
 * the tree. Choosing only needs the tree's order, which sorted arrays give;
 * where symbols overlap (a zero-sized _init grown over the .plt entries
 * added after it, nested symbols) the one perf finds depends on the tree's
 * shape too, so lookups there replay perf's tree (see dso__find_in_tree()).
 */

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
	struct sbuf name;

	if (r->shown)
		return r->shown;
	if (!r->plt) {
		r->shown = cache__shown_name(c, r->raw);
		return r->shown;
	}
	sbuf_init(&name, SBUF_MAX_SYMNAME);
	sbuf_addf(&name, "%s@plt", cache__shown_name(c, r->raw));
	r->shown = strpool__intern(c->pool, name.buf);
	sbuf_release(&name);
	return r->shown;
}

/*
 * Of two symbols at one address, is b better by size and binding (> 0),
 * worse (< 0), or as good (0)? perf's preference, before names.
 */
static int rawsym__cmp_kind(const struct rawsym *a, const struct rawsym *b)
{
	bool az = a->end == a->start, bz = b->end == b->start;

	if (az != bz)
		return az ? 1 : -1;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return a->bind == STB_WEAK ? 1 : -1;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return b->bind == STB_GLOBAL ? 1 : -1;
	return 0;
}

/* Of two different shown names, is b better? Fewer leading '_', then longer. */
static bool names__b_wins(const char *a, const char *b)
{
	size_t au = strspn(a, "_"), bu = strspn(b, "_");

	if (au != bu)
		return bu < au;
	return strlen(b) > strlen(a);
}

/* Of two symbols at one address, is b better than a? perf's preference. */
static bool rawsym__b_wins(struct rawsym *a, struct rawsym *b, struct dso_cache *c)
{
	int kind = rawsym__cmp_kind(a, b);

	if (kind)
		return kind > 0;
	if (!strcmp(a->raw, b->raw))
		return false;   /* .symtab and .dynsym copies: a tie, skip demangling */
	return names__b_wins(rawsym__shown(a, c), rawsym__shown(b, c));
}

/*
 * rawsym__b_wins() for two symbols as good by kind, without interning:
 * 1 or 0, or -1 when that takes demangling a C++ or Rust name, which is
 * left for the first lookup.
 */
static int rawsym__b_wins_cheaply(const struct rawsym *a, const struct rawsym *b,
				  struct dso_cache *c)
{
	char *da, *db;
	bool ret;

	if (!strcmp(a->raw, b->raw))
		return 0;
	if (!c->demangle)
		return names__b_wins(a->raw, b->raw);
	if (demangle__is_costly(a->raw) || demangle__is_costly(b->raw))
		return -1;
	da = demangle__name(a->raw, c->demangle_flags);
	db = demangle__name(b->raw, c->demangle_flags);
	ret = names__b_wins(da ? da : a->raw, db ? db : b->raw);
	free(da);
	free(db);
	return ret;
}

/* ---- loading: perf's tree, as sorted arrays ---- */

/*
 * A node of perf's tree while loading: one symbol, or aliases perf keeps
 * one of, all alike but for names that take demangling to compare.
 */
struct live {
	uint64_t start;
	uint32_t rep;                   /* the one kept, or one that may be */
	uint32_t first, count;          /* count > 1: those that may be, in alias[] */
};

struct symload {
	struct live *live;              /* the tree's nodes, in its order */
	size_t nr_live, alloc_live;
	uint32_t *alias;                /* runs of candidates, in the order perf compares them */
	size_t nr_alias, alloc_alias;
};

struct skey {
	uint64_t start;
	uint32_t idx;
};

/* Sort by start, equal starts keeping their order (LSD radix, 8 bits a pass). */
static void skeys__sort(struct skey *k, size_t n)
{
	struct skey *tmp, *src = k, *dst, *swap;
	size_t count[256], i, sum, c;
	uint64_t diff = 0;
	unsigned int shift;

	for (i = 1; i < n && k[i - 1].start <= k[i].start; i++)
		;
	if (i >= n)
		return;
	for (i = 1; i < n; i++)
		diff |= k[i].start ^ k[0].start;
	dst = tmp = xmalloc(st_mult(n, sizeof(*tmp)));
	for (shift = 0; shift < 64; shift += 8) {
		if (!((diff >> shift) & 0xff))
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[(src[i].start >> shift) & 0xff]++;
		for (i = 0, sum = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			dst[count[(src[i].start >> shift) & 0xff]++] = src[i];
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != k)
		memcpy(k, src, n * sizeof(*k));
	free(tmp);
}

/*
 * The live nodes and the symbols raws[lo..hi) in the tree's order: by
 * start, each added symbol after those already there at its start.
 */
static struct live *symload__merge(struct dso *d, struct symload *ld, size_t lo, size_t hi,
				   size_t *nr)
{
	size_t n = hi - lo, i = 0, j = 0, k = 0;
	struct skey *keys = xmalloc(st_mult(n ? n : 1, sizeof(*keys)));
	struct live *items = xmalloc(st_mult(st_add(ld->nr_live, n) ? ld->nr_live + n : 1,
					     sizeof(*items)));

	for (i = 0; i < n; i++) {
		keys[i].start = d->raws[lo + i].start;
		keys[i].idx = (uint32_t)(lo + i);
	}
	skeys__sort(keys, n);
	for (i = 0; i < ld->nr_live || j < n; k++) {
		if (j == n || (i < ld->nr_live && ld->live[i].start <= keys[j].start)) {
			items[k] = ld->live[i++];
		} else {
			items[k] = (struct live){ .start = keys[j].start, .rep = keys[j].idx,
						  .first = NIL, .count = 1 };
			j++;
		}
	}
	free(keys);
	*nr = k;
	return items;
}

/* Where perf ends a zero-sized symbol with nothing after it: a page past its page. */
static uint64_t last_end(uint64_t start)
{
	uint64_t up = start > UINT64_MAX - 4095 ? UINT64_MAX : (start + 4095) & ~(uint64_t)4095;

	return up > UINT64_MAX - 4096 ? UINT64_MAX : up + 4096;
}

/*
 * Set the end of a zero-sized node. Aliases that may still be kept are
 * all zero-sized then (a sized one would have won), and whichever perf
 * kept would get this end, so all get it.
 */
static void symload__set_end(struct dso *d, const uint32_t *alias, const struct live *l,
			     uint64_t end)
{
	uint32_t i;

	if (l->count == 1) {
		d->raws[l->rep].end = end;
		return;
	}
	for (i = 0; i < l->count; i++)
		d->raws[alias[l->first + i]].end = end;
}

static void symload__push_alias(struct symload *ld, uint32_t idx)
{
	ALLOC_GROW(ld->alias, ld->nr_alias + 1, ld->alloc_alias);
	ld->alias[ld->nr_alias++] = idx;
}

/*
 * Compare node l, the last one at its address, with y, the next symbol
 * there, as perf's settling does: y wins, loses, or joins the aliases to
 * compare by name later. l's aliases are the last run in ld->alias.
 */
static void symload__fold(struct dso *d, struct symload *ld, struct live *l, uint32_t y)
{
	int kind = rawsym__cmp_kind(&d->raws[l->rep], &d->raws[y]), cheap;

	if (kind > 0) {
		if (l->count > 1)
			ld->nr_alias = l->first;
		l->rep = y;
		l->first = NIL;
		l->count = 1;
		return;
	}
	if (kind < 0)
		return;   /* y loses to every alias that may be kept */
	if (l->count == 1) {
		cheap = rawsym__b_wins_cheaply(&d->raws[l->rep], &d->raws[y], d->cache);
		if (cheap >= 0) {
			if (cheap)
				l->rep = y;
			return;
		}
		l->first = (uint32_t)ld->nr_alias;
		symload__push_alias(ld, l->rep);
	}
	symload__push_alias(ld, y);
	l->count++;
}

/*
 * Add raws[lo..hi) to the tree and settle it as perf does: zero-sized
 * symbols extend to the next node, then one node is kept per address.
 */
static void symload__settle(struct dso *d, struct symload *ld, size_t lo, size_t hi)
{
	uint32_t *old_alias = ld->alias;
	struct live *items;
	size_t n, i;

	items = symload__merge(d, ld, lo, hi, &n);
	for (i = 0; i < n; i++) {
		const struct rawsym *r = &d->raws[items[i].rep];

		if (r->end == r->start)
			symload__set_end(d, old_alias, &items[i],
					 i + 1 < n ? items[i + 1].start : last_end(r->start));
	}
	ld->alias = NULL;
	ld->nr_alias = ld->alloc_alias = 0;
	ld->nr_live = 0;
	for (i = 0; i < n; i++) {
		struct live l = items[i];

		if (ld->nr_live && ld->live[ld->nr_live - 1].start == l.start) {
			/* only the symbols just added share an address with a node */
			if (l.count != 1)
				BUG("two settled nodes at one address");
			symload__fold(d, ld, &ld->live[ld->nr_live - 1], l.rep);
			continue;
		}
		if (l.count > 1) {
			uint32_t k, first = (uint32_t)ld->nr_alias;

			for (k = 0; k < l.count; k++)
				symload__push_alias(ld, old_alias[l.first + k]);
			l.first = first;
		}
		ALLOC_GROW(ld->live, ld->nr_live + 1, ld->alloc_live);
		ld->live[ld->nr_live++] = l;
	}
	free(old_alias);
	free(items);
}

/*
 * The furthest address a node may cover, one past the start for a
 * zero-sized one (a lookup of its start finds it).
 */
static uint64_t dso__reach(struct dso *d, const struct dso_sym *s)
{
	uint64_t start = s->pub.start, end = start;
	uint32_t i;

	if (s->win != NIL)
		end = d->raws[s->win].end;
	else
		for (i = 0; i < s->count; i++)
			if (d->raws[d->alias[s->first + i]].end > end)
				end = d->raws[d->alias[s->first + i]].end;
	return end == start && start < UINT64_MAX ? start + 1 : end;
}

/*
 * Add the PLT entries (not settled) and keep the tree's nodes as d->syms.
 * A symbol is alone when no other one overlaps it: then any search of
 * perf's tree for an address inside it finds it, and one past it finds
 * nothing, so no tree is needed there.
 */
static void dso__set_symbols(struct dso *d, struct symload *ld)
{
	struct live *items;
	uint64_t prev_reach = 0;
	size_t n, i;

	items = symload__merge(d, ld, d->nr_symtab + d->nr_dynsym, d->nr_raws, &n);
	d->syms = xcalloc(n ? n : 1, sizeof(*d->syms));
	d->starts = xcalloc(n ? n : 1, sizeof(*d->starts));
	d->alias = ld->alias;
	ld->alias = NULL;
	for (i = 0; i < n; i++) {
		struct dso_sym *s = &d->syms[i];

		s->pub.start = d->starts[i] = items[i].start;
		s->win = NIL;
		if (items[i].count == 1) {
			s->win = items[i].rep;
			s->pub.size = d->raws[s->win].end - s->pub.start;
		}
		s->first = items[i].first;
		s->count = items[i].count;
	}
	for (i = 0; i < n; i++) {
		struct dso_sym *s = &d->syms[i];
		uint64_t reach = dso__reach(d, s);

		s->alone = (!i || prev_reach <= s->pub.start) && reach > s->pub.start &&
			   (i + 1 == n || reach <= d->starts[i + 1]);
		if (reach > prev_reach)
			prev_reach = reach;
	}
	d->nr_syms = n;
	free(items);
}

/* Choose among the aliases of s by name, as perf's settling did. */
static void dso__choose(struct dso *d, struct dso_sym *s)
{
	uint32_t w, i;

	if (s->win != NIL)
		return;
	w = d->alias[s->first];
	for (i = 1; i < s->count; i++)
		if (rawsym__b_wins(&d->raws[w], &d->raws[d->alias[s->first + i]], d->cache))
			w = d->alias[s->first + i];
	s->win = w;
	s->pub.size = d->raws[w].end - s->pub.start;
}

static const struct symbol *dso__named(struct dso *d, struct dso_sym *s)
{
	if (!s->pub.name)
		s->pub.name = rawsym__shown(&d->raws[s->win], d->cache);
	return &s->pub;
}

/* The number of symbols starting at or before addr. */
static size_t dso__upper(const struct dso *d, uint64_t addr)
{
	size_t lo = 0, hi = d->nr_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->starts[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- perf's tree, for lookups among overlapping symbols ---- */

struct symtree {
	struct tnode *v;                /* parallel to raws */
	const struct rawsym *raws;
	uint32_t root;
};

static struct tnode *N(struct symtree *t, uint32_t i)
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

/* Add raws[z], after the nodes with its start. */
static void symtree__add(struct symtree *t, uint32_t z)
{
	uint64_t start = t->raws[z].start;
	uint32_t x = t->root, p = NIL;

	while (x != NIL) {
		p = x;
		x = start < t->raws[x].start ? N(t, x)->left : N(t, x)->right;
	}
	*N(t, z) = (struct tnode){ .left = NIL, .right = NIL, .parent = p, .red = true };
	if (p == NIL)
		t->root = z;
	else if (start < t->raws[p].start)
		N(t, p)->left = z;
	else
		N(t, p)->right = z;
	symtree__insert_fixup(t, z);
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
	struct tnode *zn = N(t, z);
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
	if (!y_red)
		symtree__erase_fixup(t, x, xp);
}

/*
 * Keep one node per address, in address order, as perf does. The ends
 * were fixed while loading (fixing them again would change nothing).
 */
static void symtree__settle(struct symtree *t, struct rawsym *raws, struct dso_cache *c)
{
	uint32_t x = symtree__min(t, t->root), y;

	while (x != NIL && (y = symtree__next(t, x)) != NIL) {
		if (raws[x].start != raws[y].start) {
			x = y;
		} else if (rawsym__b_wins(&raws[x], &raws[y], c)) {
			symtree__erase(t, x);
			x = y;
		} else {
			symtree__erase(t, y);
		}
	}
}

/* Build perf's tree with the same inserts and erases as perf. */
static void dso__build_tree(struct dso *d)
{
	struct symtree t = { .raws = d->raws, .root = NIL };
	size_t i, dyn_end = d->nr_symtab + d->nr_dynsym;

	t.v = xcalloc(d->nr_raws ? d->nr_raws : 1, sizeof(*t.v));
	for (i = 0; i < d->nr_symtab; i++)
		symtree__add(&t, (uint32_t)i);
	if (d->nr_symtab)
		symtree__settle(&t, d->raws, d->cache);
	for (; i < dyn_end; i++)
		symtree__add(&t, (uint32_t)i);
	if (d->nr_dynsym)
		symtree__settle(&t, d->raws, d->cache);
	for (; i < d->nr_raws; i++)
		symtree__add(&t, (uint32_t)i);
	d->tree = t.v;
	d->root = t.root;
}

/* The kept symbol rawsym x is, after choosing among aliases at its address. */
static struct dso_sym *dso__sym_of(struct dso *d, uint32_t x)
{
	uint64_t start = d->raws[x].start;
	size_t i = dso__upper(d, start);

	while (i-- > 0 && d->starts[i] == start) {
		dso__choose(d, &d->syms[i]);
		if (d->syms[i].win == x)
			return &d->syms[i];
	}
	BUG("symbol %u found in the tree is not kept", x);
}

/* Search the way perf's symbols__find() walks its tree. */
static const struct symbol *dso__find_in_tree(struct dso *d, uint64_t addr)
{
	uint32_t x;

	if (!d->tree)
		dso__build_tree(d);
	for (x = d->root; x != NIL; ) {
		const struct rawsym *r = &d->raws[x];

		if (addr < r->start)
			x = d->tree[x].left;
		else if (addr - r->start >= r->end - r->start &&
			 !(addr == r->start && r->end == r->start))
			x = d->tree[x].right;
		else
			return dso__named(d, dso__sym_of(d, x));
	}
	return NULL;
}

/* ---- reading symbols ---- */

static struct rawsym *dso__add_raw(struct dso *d)
{
	struct rawsym *r;

	if (d->nr_raws >= NIL - 1)
		return NULL;
	ALLOC_GROW(d->raws, d->nr_raws + 1, d->alloc_raws);
	r = &d->raws[d->nr_raws++];
	memset(r, 0, sizeof(*r));
	return r;
}

/* Add the wanted symbols of img's first section of this type; returns how many. */
static size_t dso__read_symtab(struct dso *d, struct elf_image *img, Elf64_Word type)
{
	GElf_Shdr shdr, strshdr;
	Elf_Scn *scn = image__find_section(img, NULL, type, &shdr), *strscn;
	Elf_Data *data, *strdata;
	const char *strs;
	uint8_t *secs;
	GElf_Sym sym;
	size_t i, n = 0;

	if (!scn || !(data = elf_getdata(scn, NULL)) || !data->d_buf)
		return 0;
	strscn = elf_getscn(img->elf, shdr.sh_link);
	if (!strscn || !gelf_getshdr(strscn, &strshdr) || strshdr.sh_type != SHT_STRTAB ||
	    !(strdata = elf_getdata(strscn, NULL)) || !strdata->d_buf || !strdata->d_size)
		return 0;
	strs = dso__keep_strtab(d, strdata);
	secs = xcalloc(SHN_LORESERVE, 1);
	for (i = 1; i < INT_MAX && gelf_getsym(data, (int)i, &sym); i++) {
		bool is_label;
		struct rawsym *r;

		if (!elf_sym__wanted(&sym, &is_label) || sym.st_name >= strdata->d_size ||
		    arm_mapping_symbol(&img->ehdr, strs + sym.st_name) ||
		    !elf_sym__in_alloc_section(img, &sym, is_label, secs))
			continue;
		/* Thumb functions have bit 0 set in their address. */
		if (img->ehdr.e_machine == EM_ARM && GELF_ST_TYPE(sym.st_info) == STT_FUNC)
			sym.st_value &= ~(GElf_Addr)1;
		if (!(r = dso__add_raw(d)))
			break;
		r->start = sym.st_value;
		r->end = sym.st_size > UINT64_MAX - sym.st_value ? UINT64_MAX :
			 sym.st_value + sym.st_size;
		r->raw = strs + sym.st_name;
		r->bind = GELF_ST_BIND(sym.st_info);
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
static void dso__synthesize_plt(struct dso *d, struct elf_image *rt)
{
	GElf_Shdr dynshdr, relshdr, pltshdr, strshdr;
	Elf_Scn *dynscn = image__find_section(rt, NULL, SHT_DYNSYM, &dynshdr), *relscn, *strscn;
	Elf_Data *dyndata, *reldata, *strdata;
	uint64_t hdr, ent, addr, end;
	const char *strs;
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
	strs = NULL;
	nrel = relshdr.sh_size / relshdr.sh_entsize;
	end = pltshdr.sh_addr + pltshdr.sh_size;
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
		if (!strs)
			strs = dso__keep_strtab(d, strdata);
		if (!(p = dso__add_raw(d)))
			break;
		p->start = addr;
		p->end = addr + ent;
		p->raw = strs + sym.st_name;
		p->bind = STB_GLOBAL;
		p->plt = true;
	}
}

/*
 * perf settles the .symtab symbols, then adds .dynsym's and settles again;
 * a debug file's .dynsym is empty (SHT_NOBITS), so only a binary that has
 * its own .symtab gets both. PLT entries come last, as they are.
 */
static void dso__load_symbols(struct dso *d, struct elf_image *syms, struct elf_image *rt)
{
	struct symload ld = { 0 };

	if (syms && (d->nr_symtab = dso__read_symtab(d, syms, SHT_SYMTAB)))
		symload__settle(d, &ld, 0, d->nr_symtab);
	if (syms == rt || !syms) {
		d->nr_dynsym = dso__read_symtab(d, rt, SHT_DYNSYM);
		if (d->nr_dynsym)
			symload__settle(d, &ld, d->nr_symtab, d->nr_raws);
	}
	if (d->nr_raws)
		dso__synthesize_plt(d, rt);
	dso__set_symbols(d, &ld);
	free(ld.live);
	free(ld.alias);
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
	else if (c->symfs) {
		c->buildid_dir = xasprintf("%s/.debug", c->symfs);
		c->buildid_in_symfs = true;
	}
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
		free(d->strtabs[i].copy);
	free(d->strtabs);
	free(d->raws);
	free(d->syms);
	free(d->starts);
	free(d->alias);
	free(d->tree);
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

/*
 * A symbol no other overlaps is found by a binary search; elsewhere perf's
 * tree decides.
 */
const struct symbol *dso__find_symbol(struct dso *d, uint64_t addr)
{
	struct dso_sym *s;
	size_t i;

	dso__load(d);
	i = dso__upper(d, addr);
	if (!i)
		return NULL;
	s = &d->syms[i - 1];
	if (!s->alone)
		return dso__find_in_tree(d, addr);
	dso__choose(d, s);
	if (addr - s->pub.start >= s->pub.size && !(addr == s->pub.start && !s->pub.size))
		return NULL;
	return dso__named(d, s);
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
