/*
 * Finding the files of a DSO: see dso-locate.h. Every recorded path goes
 * through dso_locator__host_path() and every build-id cache path through
 * dso_locator__confine(), so with a symfs nothing outside it is read
 * unless the build-id cache was given elsewhere.
 */
#include "common/common.h"
#include "common/vfs.h"
#include "resolve/dso-locate.h"
#include "resolve/debuginfod.h"
#include "resolve/elf-image.h"
#include "common/sbuf.h"

#include <limits.h>
#include <link.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Symlinks followed while resolving one path under symfs (as the kernel's 40). */
#define SYMFS_MAX_LINKS 40

struct dso_locator {
	char *symfs;                    /* NULL: none */
	char *buildid_dir;
	bool buildid_in_symfs;          /* buildid_dir is symfs/.debug: confine it too */
	const struct dso_recording *rec;        /* NULL: not set */
	struct debuginfod *debuginfod;          /* NULL: none; borrowed */
};

/* A vdso image larger than this is not believed (they are a few pages). */
#define VDSO_MAX_SIZE (1u << 20)

/* The name the running kernel's vdso goes by in messages. */
#define RUNNING_VDSO_NAME "[vdso] (running kernel)"

/* One search: the build id wanted and what the candidates tried said. */
struct want {
	struct dso_locator *loc;
	const uint8_t *id;              /* NULL, id_size 0: any file will do */
	size_t id_size;
	bool mismatch;                  /* a file with another build id was found */
	bool not_elf;                   /* a file that is not ELF was found */
};

static bool is_regular_file(const char *path)
{
	char vbuf[VFS_PATH_BUF];
	struct stat st;

	return !stat(vfs_path(path, VFS_ELF, vbuf), &st) && S_ISREG(st.st_mode);
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
		if (vfs_lstat(out->buf, &st)) {
			ok = false;
			break;
		}
		if (!S_ISLNK(st.st_mode))
			continue;
		tn = vfs_readlink(out->buf, target, sizeof(target) - 1);
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
static bool dso_locator__host_path(struct dso_locator *c, const char *path, struct sbuf *out)
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
static void dso_locator__confine(struct dso_locator *c, struct sbuf *sb)
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
/*
 * Try one candidate binary: the image when it opened and matches the
 * expected build id (any, when none is expected), else NULL.
 */
static struct elf_image *want__try_binary(struct want *w, const char *path)
{
	struct elf_image *img = elf_image__open(path);
	const uint8_t *id;
	size_t id_size;

	if (!img) {
		if (errno == ENOEXEC)
			w->not_elf = true;
		return NULL;
	}
	id = elf_image__build_id(img, &id_size);
	if (w->id_size && !build_id__equal(w->id, w->id_size, id, id_size)) {
		w->mismatch = true;
		elf_image__delete(img);
		return NULL;
	}
	return img;
}

/*
 * perf's build-id cache: buildid_dir/.build-id/xx/rest is a file (old
 * layout) or a link to the directory buildid_dir/<path>/<hex>, which holds
 * "elf", "debug" or "vdso".
 */
static void dso_locator__buildid_link(struct dso_locator *c, const uint8_t *id,
				      size_t id_size, const char *base, struct sbuf *sb)
{
	struct sbuf hex = SBUF_INIT;

	build_id__addhex(&hex, id, id_size);
	sbuf_reset(sb);
	sbuf_addf(sb, "%s/.build-id/%.2s/%s", c->buildid_dir, hex.buf, hex.buf + 2);
	dso_locator__confine(c, sb);
	if (!sb->len || !is_regular_file(sb->buf)) {
		sbuf_reset(sb);
		sbuf_addf(sb, "%s/.build-id/%.2s/%s/%s", c->buildid_dir, hex.buf, hex.buf + 2, base);
		dso_locator__confine(c, sb);
	}
	sbuf_release(&hex);
}

static struct elf_image *want__find_in_buildid_cache(struct want *w, const char *path,
						     const char *base)
{
	struct sbuf sb = SBUF_INIT, hex = SBUF_INIT;
	struct elf_image *img;

	if (!w->id_size)
		return NULL;
	dso_locator__buildid_link(w->loc, w->id, w->id_size, base, &sb);
	img = want__try_binary(w, sb.buf);
	if (!img) {
		build_id__addhex(&hex, w->id, w->id_size);
		sbuf_reset(&sb);
		sbuf_addf(&sb, "%s%s%s/%s/%s", w->loc->buildid_dir,
			  path[0] == '/' ? "" : "/", path, hex.buf, base);
		dso_locator__confine(w->loc, &sb);
		img = want__try_binary(w, sb.buf);
	}
	sbuf_release(&sb);
	sbuf_release(&hex);
	return img;
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

/* The one warning for a binary not found, if it deserves one. */
static void want__warn(struct want *w, const char *path, bool deleted)
{
	struct sbuf hex = SBUF_INIT;

	if (w->mismatch) {
		build_id__addhex(&hex, w->id, w->id_size);
		warning("no file matching build id %s for '%s'; its samples stay unresolved",
			hex.buf, path);
	} else if (w->not_elf) {
		warning("'%s' is not an ELF file", path);
	} else if (!deleted || w->id_size) {
		warning("cannot find '%s'%s%s", path, w->loc->symfs ? " under symfs " : "",
			w->loc->symfs ? w->loc->symfs : "");
	}
	sbuf_release(&hex);
}

/*
 * The running vdso as this process has it mapped: the whole image is
 * mapped (the kernel maps the vdso's file image as is), so its size is the
 * furthest of its ELF header, program headers, section headers and PT_LOAD
 * file contents.
 */
static const void *mapped_vdso(size_t *sizep)
{
	const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	const ElfW(Phdr) *ph;
	uint64_t size, end;
	size_t i;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
	    eh->e_phentsize != sizeof(*ph) || eh->e_phoff > VDSO_MAX_SIZE ||
	    eh->e_shoff > VDSO_MAX_SIZE || eh->e_phnum > 64 || eh->e_shnum > 256) {
		errno = ENOENT;
		return NULL;
	}
	size = sizeof(*eh);
	end = eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(*ph);
	size = end > size ? end : size;
	end = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
	size = end > size ? end : size;
	ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		end = (uint64_t)ph[i].p_offset + ph[i].p_filesz;
		if (ph[i].p_type == PT_LOAD && end > size)
			size = end;
	}
	if (size > VDSO_MAX_SIZE) {
		errno = ENOEXEC;
		return NULL;
	}
	*sizep = (size_t)size;
	return base;
}

/* The mapped vdso, or in a bundle the recording host's (common/vfs.h). */
struct elf_image *dso_locator__running_vdso(void)
{
	size_t size;
	const void *mem = vfs_running_vdso(&size, mapped_vdso);

	if (!mem) {
		if (!errno)
			errno = ENOENT;
		return NULL;
	}
	return elf_image__open_memory(RUNNING_VDSO_NAME, mem, size);
}

void dso_locator__set_recording(struct dso_locator *c, const struct dso_recording *rec)
{
	c->rec = rec;
}

/*
 * Why a recording has no build id for [vdso], as the perf record option
 * that does it, and *fix, what records one.
 */
static const char *recording__no_vdso_id_cause(const struct dso_recording *rec,
					       const char **fix)
{
	*fix = "record to a file without -z, -B and --buildid-mmap";
	if (rec->pipe_mode) {
		*fix = "record to a file, perf record -o FILE";
		return "recorded in pipe mode";
	}
	if (rec->compressed) {
		*fix = "record without -z";
		return "recorded with -z";
	}
	if (rec->mmap_build_ids) {
		*fix = "record without --buildid-mmap";
		return "recorded with --buildid-mmap";
	}
	if (!rec->has_build_ids) {
		*fix = "record without -B";
		return "recorded with -B / --no-buildid";
	}
	return "no build id for it in the recording";
}

/*
 * perf 6.1 maps a [vdso] to a copy of its own process's vdso when the
 * recording has no build id for [vdso] (pipe mode, -z, --buildid-mmap:
 * the kernel cannot read the vdso's, perf collects none at the end of such
 * sessions; -B), on whatever kernel it runs: right only on the kernel that
 * recorded. A [vdso] build id in the header makes perf look in the
 * build-id cache alone, so after perf record -N it names nothing even on
 * the same kernel. jitsym asks for evidence instead. A build id equal to
 * the running vdso's is proof, so -N recordings read on their kernel are
 * named too. Without one, the recorded os release and hostname equal to
 * uname's are the best there is: the vdso is built with the kernel, so the
 * same release on the same machine is almost always the same image; the
 * warning says the match is by release only. Everything else keeps
 * [unknown] with the cause and the fix.
 */
static struct elf_image *want__running_vdso(struct want *w)
{
	const struct dso_recording *rec = w->loc->rec;
	struct elf_image *run = NULL;
	struct sbuf hex = SBUF_INIT;
	const uint8_t *rid;
	size_t rid_size = 0;
	struct utsname u;
	const char *cause, *fix = "record to a file without -z, -B and --buildid-mmap";

	if (w->mismatch || w->not_elf) {
		want__warn(w, "[vdso]", false);
		return NULL;
	}
	build_id__addhex(&hex, w->id, w->id_size);
	cause = w->id_size ? "recorded with -N / --no-buildid-cache, or on another machine" :
		rec ? recording__no_vdso_id_cause(rec, &fix) : "no build id for it in the recording";
	if ((w->loc->symfs || !rec) && w->id_size) {
		warning("'[vdso]' build id %s is not in the build-id cache '%s' (%s): its frames "
			"stay unresolved (the host's vdso is not used%s; copy the recording "
			"machine's ~/.debug with its vdso there, see perf buildid-cache)", hex.buf,
			w->loc->buildid_dir, cause, w->loc->symfs ? " with --symfs" : "");
		goto out;
	}
	if (w->loc->symfs || !rec) {
		warning("no build id for '[vdso]' in the recording (%s): its frames stay unresolved "
			"(the host's vdso is not used%s; %s)", cause,
			w->loc->symfs ? " with --symfs" : "", fix);
		goto out;
	}
	if (w->id_size) {
		run = dso_locator__running_vdso();
		rid = run ? elf_image__build_id(run, &rid_size) : NULL;
		if (rid && build_id__equal(w->id, w->id_size, rid, rid_size)) {
			note("'[vdso]': the running kernel's vdso, build id %s", hex.buf);
			goto out;
		}
		elf_image__delete(run);
		run = NULL;
		warning("'[vdso]' build id %s is neither in the build-id cache '%s' nor the running "
			"kernel's vdso (recorded on another kernel, or with -N there): its frames stay "
			"unresolved (record without -N, or copy that machine's ~/.debug here with "
			"--buildid-dir, see perf buildid-cache)", hex.buf, w->loc->buildid_dir);
		goto out;
	}
	if (vfs_uname(&u))
		memset(&u, 0, sizeof(u));
	if (rec->osrelease && !strcmp(u.release, rec->osrelease) &&
	    (!rec->hostname || !strcmp(u.nodename, rec->hostname)) &&
	    (run = dso_locator__running_vdso())) {
		warning("no build id for '[vdso]' in the recording (%s): using the running kernel's "
			"vdso, matched by kernel release '%s'%s only (%s for a build id)", cause,
			u.release, rec->hostname ? " and hostname" : "", fix);
		goto out;
	}
	sbuf_reset(&hex);
	if (!rec->osrelease)
		sbuf_addstr(&hex, "an unknown kernel");
	else if (strcmp(u.release, rec->osrelease))
		sbuf_addf(&hex, "kernel '%s', not the running one", rec->osrelease);
	else if (rec->hostname && strcmp(u.nodename, rec->hostname))
		sbuf_addf(&hex, "host '%s', not this one", rec->hostname);
	else
		sbuf_addstr(&hex, "this kernel, whose vdso cannot be read");
	warning("no build id for '[vdso]' in the recording (%s) and it was made on %s: its "
		"frames stay unresolved (%s, or read it on the machine that recorded)", cause,
		hex.buf, fix);
out:
	sbuf_release(&hex);
	return run;
}

struct elf_image *dso_locator__find_binary(struct dso_locator *c, const char *path,
					   const uint8_t *build_id, size_t build_id_size)
{
	struct want w = { .loc = c, .id = build_id, .id_size = build_id_size };
	struct sbuf real = SBUF_INIT;
	struct elf_image *img = NULL;
	bool deleted;
	char *base_path = xstrndup(path, path_len_undeleted(path, &deleted));

	if (!strcmp(base_path, "[vdso]")) {
		/* perf record keeps the vdso in the build-id cache; else maybe the host's */
		img = want__find_in_buildid_cache(&w, base_path, "vdso");
		if (!img)
			img = want__running_vdso(&w);
		goto out;
	}
	if (base_path[0] != '/')
		goto out;   /* "//anon", "[heap]", "anon_inode:...": no file, no warning */
	if ((!deleted || w.id_size) && dso_locator__host_path(c, base_path, &real))
		img = want__try_binary(&w, real.buf);
	if (!img)
		img = want__find_in_buildid_cache(&w, base_path, "elf");
	if (!img)
		want__warn(&w, path, deleted);
out:
	free(base_path);
	sbuf_release(&real);
	if (!img)
		errno = ENOENT;
	return img;
}

/* Accept a debug file: it has a symtab and (when one is known) our build id. */
static struct elf_image *want__try_debug(struct want *w, const char *path)
{
	struct elf_image *dbg = elf_image__open(path);
	const uint8_t *id;
	size_t id_size;

	if (!dbg)
		return NULL;
	id = elf_image__build_id(dbg, &id_size);
	if ((w->id_size && !build_id__equal(w->id, w->id_size, id, id_size)) ||
	    !elf_image__has_symtab(dbg)) {
		elf_image__delete(dbg);
		return NULL;
	}
	return dbg;
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
static bool dso_locator__debug_candidate(struct dso_locator *c, size_t k, const char *link,
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
		sbuf_addf(out, "%s/.build-id/%.2s/%s", c->buildid_dir, hex, hex + 2);
		if (k == 4 || !is_regular_file(out->buf))
			sbuf_addstr(out, k == 3 ? "/elf" : "/debug");
		dso_locator__confine(c, out);
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
	if (rec.len && !dso_locator__host_path(c, rec.buf, out))
		sbuf_reset(out);
	sbuf_release(&rec);
	return true;
}

void dso_locator__set_debuginfod(struct dso_locator *c, struct debuginfod *d)
{
	c->debuginfod = d;
}

/*
 * The last resort for a binary without .symtab whose build id the
 * recording gives (a server is asked by build id, and the recording's
 * says which build ran): its debug file from debuginfod, checked as a
 * local one is. A binary that has its own .symtab needs none.
 */
static struct elf_image *want__debuginfod(struct want *w, const char *path,
					  struct elf_image *binary,
					  const uint8_t *build_id, size_t build_id_size)
{
	struct debuginfod *d = w->loc->debuginfod;
	struct sbuf hex = SBUF_INIT;
	struct elf_image *dbg = NULL;
	const uint8_t *id;
	const char *got;
	size_t id_size;
	char *file;

	/* the binary found is of another build: whatever came would be refused */
	if (!build_id_size || elf_image__has_symtab(binary) ||
	    (w->id_size && !build_id__equal(w->id, w->id_size, build_id, build_id_size)))
		return NULL;
	build_id__addhex(&hex, build_id, build_id_size);
	if (vfs_mode() == VFS_BUNDLE)
		/* no server: what the archiving run fetched, as it was then */
		file = (got = vfs_fetched(hex.buf)) ? xstrdup(got) : NULL;
	else
		file = debuginfod__find_debuginfo(d, path, build_id, build_id_size);
	if (file) {
		dbg = elf_image__open(file);
		id = dbg ? elf_image__build_id(dbg, &id_size) : NULL;
		if (!dbg) {
			debuginfod__unusable(d, build_id, build_id_size, "not an ELF file");
		} else if (!build_id__equal(build_id, build_id_size, id, id ? id_size : 0)) {
			debuginfod__unusable(d, build_id, build_id_size, "another build id");
		} else if (!elf_image__has_symtab(dbg)) {
			debuginfod__unusable(d, build_id, build_id_size, "no .symtab");
		} else {
			/* jitsym archive: the bundle says which file answered */
			vfs_record_fetched(hex.buf, file);
			goto out;
		}
		elf_image__delete(dbg);
		dbg = NULL;
	}
out:
	free(file);
	sbuf_release(&hex);
	return dbg;
}

struct elf_image *dso_locator__find_debug(struct dso_locator *c, const char *path,
					  struct elf_image *binary,
					  const uint8_t *build_id, size_t build_id_size)
{
	struct want w = { .loc = c };
	const char *link = elf_image__debuglink(binary);
	struct sbuf cand = SBUF_INIT, hex = SBUF_INIT;
	struct elf_image *dbg = NULL;
	bool deleted;
	char *base_path = xstrndup(path, path_len_undeleted(path, &deleted));
	size_t k;

	w.id = elf_image__build_id(binary, &w.id_size);
	if (!w.id_size) {
		w.id = build_id;
		w.id_size = build_id_size;
	}
	build_id__addhex(&hex, w.id, w.id_size);
	for (k = 0; !dbg && dso_locator__debug_candidate(c, k, link, base_path, hex.buf, &cand);
	     k++)
		if (cand.len)
			dbg = want__try_debug(&w, cand.buf);
	if (!dbg)
		dbg = want__debuginfod(&w, base_path, binary, build_id, build_id_size);
	free(base_path);
	sbuf_release(&cand);
	sbuf_release(&hex);
	if (!dbg)
		errno = ENOENT;
	return dbg;
}

struct dso_locator *dso_locator__new(const char *symfs, const char *buildid_dir)
{
	struct dso_locator *c = xcalloc(1, sizeof(*c));
	const char *home = vfs_home();

	if (symfs && symfs[0])
		c->symfs = xstrdup(symfs);
	/* With a symfs, perf leaves the local cache alone too and uses symfs/.debug. */
	if (buildid_dir && buildid_dir[0]) {
		c->buildid_dir = xstrdup(buildid_dir);
	} else if (c->symfs) {
		c->buildid_dir = xasprintf("%s/.debug", c->symfs);
		c->buildid_in_symfs = true;
	} else {
		c->buildid_dir = xasprintf("%s/.debug", home && home[0] ? home : "");
	}
	return c;
}

void dso_locator__delete(struct dso_locator *c)
{
	if (!c)
		return;
	free(c->symfs);
	free(c->buildid_dir);
	free(c);
}
