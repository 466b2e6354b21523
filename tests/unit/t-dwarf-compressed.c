/*
 * Unit tests for src/resolve/dwarf-file.c on compressed DWARF: a handle
 * opened for function names only (inline.c) hides the compressed debug
 * sections it never reads, .debug_line among them, from libdw, in its own
 * copy-on-write view of the section headers; one opened for lines
 * (srcline.c) keeps .debug_line.
 *
 * tests/golden/inline-synth's inl-main (-O2 -g, two-deep and recursive
 * inlining) is copied with its debug sections compressed (objcopy
 * --compress-debug-sections=zlib-gabi, as Debian's -dbg packages have
 * them). In one process, with both caches on the same file at once, for
 * every address of .text: inline__lookup() names the same functions in
 * the copy as in the original (and some addresses name inlined ones), and
 * srcline__lookup() gives the same source lines (and some at all). The
 * copy's bytes are the same after the lookups as before.
 *
 * Built with libdeflate (HAVE_LIBDEFLATE), dwarf-file.c inflates the
 * sections itself: the copy's handles must have gone that way. A second
 * copy with a section's zlib stream garbled (.debug_str) must not be
 * inflated there but left to libdw, and lookups in it finish; one with a
 * garbled .debug_info (libdw then refuses the file, as before) names no
 * inlined function; neither file is changed. Skipped (77)
 * without objcopy.
 */
#include "common/common.h"
#include "common/strpool.h"
#include "resolve/dwarf-file.h"
#include "resolve/inline.h"
#include "resolve/srcline.h"
#include "resolve/sample.h"
#include "test.h"
#include "test-files.h"

#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <string.h>

/* Section name's header in path: false when it has none. */
static bool section(const char *path, const char *name, GElf_Shdr *out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false;
	Elf *elf;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0) {
		while (!found && (scn = elf_nextscn(elf, scn))) {
			const char *s;

			found = gelf_getshdr(scn, out) && (s = elf_strptr(elf, shstrndx, out->sh_name)) &&
				!strcmp(s, name);
		}
	}
	elf_end(elf);
	close(fd);
	return found;
}

static struct frame native_frame(const struct obj_view *ov, uint64_t addr)
{
	return (struct frame){
		.kind = FRAME_NATIVE, .obj = ov, .elf_addr = addr, .sym = "sym",
		.dso = ov->path, .ip = addr, .print_addr = addr,
	};
}

static bool same_names(const char *const *a, size_t na, const char *const *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return false;
	return true;
}

static bool same_locs(const struct src_loc *a, size_t na, const struct src_loc *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (strcmp(a[i].function, b[i].function) || strcmp(a[i].file, b[i].file) ||
		    a[i].line != b[i].line || a[i].column != b[i].column)
			return false;
	return true;
}

#ifdef HAVE_LIBDEFLATE
static size_t inflated_good;    /* of the intact copy */
#endif

/* Overwrite n bytes at off of path with a pattern; false on failure. */
static bool garble(const char *path, uint64_t off, size_t n)
{
	FILE *fp = fopen(path, "r+b");
	bool ok;
	size_t i;

	if (!fp)
		return false;
	ok = fseek(fp, (long)off, SEEK_SET) == 0;
	for (i = 0; ok && i < n; i++)
		ok = fputc((int)(0x5a ^ (i * 37)), fp) != EOF;
	return !fclose(fp) && ok;
}

#ifdef HAVE_LIBDEFLATE
/* How many sections a names-only handle of view inflated itself (libdeflate). */
static size_t inflated(const struct obj_view *view)
{
	struct dwarf_file *df = dwarf_file__open(view, false);
	size_t n = df->nr_inflated;

	dwarf_file__delete(df);
	return n;
}
#endif

/*
 * A copy of copy with the zlib stream of its section scn garbled: lookups
 * at every address of .text finish; without .debug_info libdw refuses the
 * file, and no inlined function is named. Returns how many lookups named
 * inlined functions.
 */
static uint64_t corrupt_copy(const char *copy, const GElf_Shdr *text, const char *scn)
{
	struct obj_view bad = { 0 };
	struct inline_cache *inl;
	struct strpool *pool;
	unsigned char *before, *after;
	size_t len_before, len_after;
	uint64_t addr, deeper = 0;
	GElf_Shdr shdr;
	char *path = tpath(scn + 1);

	T("a second copy", sh("cp '%s' '%s'", copy, path) == 0);
	/* past the Elf64_Chdr (24 bytes) and the zlib header (2): in the deflate stream */
	T("its section garbled",
	  section(path, scn, &shdr) && (shdr.sh_flags & SHF_COMPRESSED) &&
	  shdr.sh_size > 24 + 2 + 64 && garble(path, shdr.sh_offset + 24 + 2 + 16, 48));
	bad.path = bad.file = bad.symfile = path;
#ifdef HAVE_LIBDEFLATE
	/* without .debug_info libdw refuses the file: nothing stays inflated */
	if (strcmp(scn, ".debug_info"))
		T("the garbled section is not inflated", inflated(&bad) + 1 == inflated_good);
#endif
	before = slurp_file(path, &len_before);
	pool = strpool__new();
	inl = inline_cache__new(pool, true);
	for (addr = text->sh_addr; addr < text->sh_addr + text->sh_size; addr++) {
		struct frame f = native_frame(&bad, addr);
		const char *const *names;

		deeper += inline__lookup(inl, &f, &names) > 1;
	}
	inline_cache__delete(inl);
	strpool__delete(pool);
	after = slurp_file(path, &len_after);
	T("the garbled file is unchanged by the lookups",
	  before && after && len_before == len_after && !memcmp(before, after, len_after));
	free(before);
	free(after);
	free(path);
	return deeper;
}

int main(void)
{
	struct obj_view plain = { 0 }, zipped = { 0 };
	struct inline_cache *inl;
	struct srcline_cache *src;
	struct strpool *pool;
	unsigned char *before, *after;
	size_t len_before, len_after;
	uint64_t addr, names_differ = 0, lines_differ = 0, inlined = 0, with_lines = 0, n = 0;
	GElf_Shdr text, line;
	char *orig, *copy;
	int round;

	verbosity = -1;
	copy = compressed_inl_main("t-dwarf-compressed", "T_DWARF_COMPRESSED_KEEP", &orig);
	T("the copy's .debug_line is compressed",
	  section(copy, ".debug_line", &line) && (line.sh_flags & SHF_COMPRESSED));
	T("inl-main has a .text", section(orig, ".text", &text) && text.sh_size);
	before = slurp_file(copy, &len_before);
#ifdef HAVE_LIBDEFLATE
	inflated_good = inflated(&(struct obj_view){ .path = copy, .file = copy, .symfile = copy });
	printf("# %zu sections inflated with libdeflate\n", inflated_good);
	T("the copy's sections are inflated with libdeflate", inflated_good >= 3);
#endif

	pool = strpool__new();
	inl = inline_cache__new(pool, true);
	src = srcline_cache__new(pool);
	plain.path = plain.file = plain.symfile = orig;
	zipped.path = zipped.file = zipped.symfile = copy;
	/* names, lines, names again: the two handles of one file side by side */
	for (round = 0; round < 3; round++) {
		for (addr = text.sh_addr; addr < text.sh_addr + text.sh_size; addr++) {
			struct frame fp = native_frame(&plain, addr), fz = native_frame(&zipped, addr);

			if (round != 1) {
				const char *const *np, *const *nz;
				const char *keep[INLINE_MAX_DEPTH];
				size_t a = inline__lookup(inl, &fp, &np), b;

				/* valid until the next lookup */
				memcpy(keep, np, a * sizeof(*np));
				b = inline__lookup(inl, &fz, &nz);

				names_differ += !same_names(keep, a, nz, b);
				inlined += round == 0 && b > 1;
				n += round == 0;
			} else {
				struct src_loc lp[SRCLINE_MAX_DEPTH], lz[SRCLINE_MAX_DEPTH];
				size_t a = srcline__lookup(src, &fp, lp, SRCLINE_MAX_DEPTH);
				size_t b = srcline__lookup(src, &fz, lz, SRCLINE_MAX_DEPTH);

				lines_differ += !same_locs(lp, a, lz, b);
				with_lines += b > 0;
			}
		}
	}
	printf("# %" PRIu64 " addresses, %" PRIu64 " in inlined code, %" PRIu64 " with lines\n",
	       n, inlined, with_lines);
	T("names from the compressed copy are the original's", n && !names_differ);
	T("the compressed copy names inlined functions", inlined > 0);
	T("lines from the compressed copy are the original's", n && !lines_differ);
	T("the compressed copy gives source lines", with_lines > 0);
	srcline_cache__delete(src);
	inline_cache__delete(inl);
	strpool__delete(pool);

	after = slurp_file(copy, &len_after);
	T("the file is unchanged by the lookups",
	  before && after && len_before == len_after && !memcmp(before, after, len_after));
	free(before);
	free(after);
	T("a garbled .debug_info names no inlined function",
	  corrupt_copy(copy, &text, ".debug_info") == 0);
	printf("# garbled .debug_str: %" PRIu64 " lookups name inlined functions\n",
	       corrupt_copy(copy, &text, ".debug_str"));
	free(copy);
	free(orig);
	return test_done();
}
