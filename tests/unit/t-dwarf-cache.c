/*
 * Unit tests for src/resolve/dwarf-cache.c: compressed DWARF sections,
 * inflated, kept between runs by build id.
 *
 * tests/golden/inline-synth's inl-main (-O2 -g, build id 9d0640fb...) is
 * copied with its debug sections compressed (objcopy
 * --compress-debug-sections=zlib-gabi, as Debian's -dbg packages have
 * them), and JITSYM_CACHE_DIR points into the test's directory. Checked,
 * each against the names inline__lookup() gives for every address of
 * .text with the cache off:
 * - the first opening inflates and writes DIR/dwarf/<build id>; the second
 *   inflates nothing and reads every section from it;
 * - an entry with one byte of a section changed, or cut short, is not
 *   read (counted as stale or damaged), the sections are inflated, and the
 *   entry written again is read by the next opening;
 * - a handle for lines adds .debug_line to the entry, after which both
 *   kinds of handle read everything from it;
 * - a cache directory that cannot be made: nothing written, the failure
 *   counted with its reason, the names right; JITSYM_CACHE_DIR empty: off;
 * - dwarf_cache__parse() refuses another build id, an image one byte
 *   short and a section at an unaligned offset; the compressed file is
 *   the same after all this as before.
 * Skipped (77) without objcopy, or when jitsym is built without libdeflate
 * (the cache keeps what dwarf-file.c inflates with it).
 */
#include "common/common.h"
#include "common/strpool.h"
#include "resolve/dwarf-cache.h"
#include "resolve/dwarf-file.h"
#include "resolve/inline.h"
#include "resolve/sample.h"
#include "test.h"
#include "test-files.h"

#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#ifdef HAVE_LIBDEFLATE
static uint64_t text_lo, text_hi;
static char **reference;        /* per address: its names joined by ';' */

/* The names at every address of .text, joined, one string per address. */
static char **names_of(const struct obj_view *view)
{
	struct strpool *pool = strpool__new();
	struct inline_cache *inl = inline_cache__new(pool, true);
	char **out = xcalloc(text_hi - text_lo, sizeof(*out));
	uint64_t addr;

	for (addr = text_lo; addr < text_hi; addr++) {
		struct frame f = {
			.kind = FRAME_NATIVE, .obj = view, .elf_addr = addr, .sym = "sym",
			.dso = view->path, .ip = addr, .print_addr = addr,
		};
		const char *const *names;
		size_t n = inline__lookup(inl, &f, &names), i, len = 1;
		char *s;

		for (i = 0; i < n; i++)
			len += strlen(names[i]) + 1;
		s = xcalloc(1, len);
		for (i = 0; i < n; i++) {
			memcpy(s + strlen(s), names[i], strlen(names[i]) + 1);
			if (i + 1 < n)
				memcpy(s + strlen(s), ";", 2);
		}
		out[addr - text_lo] = s;
	}
	inline_cache__delete(inl);
	strpool__delete(pool);
	return out;
}

/* Whether the lookups through the cache name what they name without it; frees names. */
static bool same_as_reference(char **names)
{
	uint64_t i, differ = 0;

	for (i = 0; i < text_hi - text_lo; i++) {
		differ += strcmp(names[i], reference[i]) != 0;
		free(names[i]);
	}
	free(names);
	return !differ;
}

/* How many sections a handle inflated itself, and whether it read any from the cache. */
static size_t open_count(const struct obj_view *view, bool lines, bool *from_cache)
{
	struct dwarf_file *df = dwarf_file__open(view, lines);
	size_t n = df->nr_inflated;

	*from_cache = df->cached != NULL && df->dw != NULL;
	dwarf_file__delete(df);
	return n;
}

static void use_cache(const char *dir)
{
	if (setenv("JITSYM_CACHE_DIR", dir, 1))
		die("setenv");
	dwarf_cache__reset();
}

static struct dwarf_cache_stats stats(void)
{
	struct dwarf_cache_stats st;

	dwarf_cache__stats(&st);
	return st;
}

/* Overwrite the byte at off of path with its complement. */
static bool flip(const char *path, long off)
{
	FILE *fp = fopen(path, "r+b");
	int c;
	bool ok;

	if (!fp)
		return false;
	ok = fseek(fp, off, SEEK_SET) == 0 && (c = fgetc(fp)) != EOF &&
	     fseek(fp, off, SEEK_SET) == 0 && fputc(~c & 0xff, fp) != EOF;
	return !fclose(fp) && ok;
}
#endif

int main(void)
{
#ifndef HAVE_LIBDEFLATE
	printf("# SKIP built without libdeflate: no DWARF cache\n");
	return 77;
#else
	static const uint8_t bid[] = { 0x9d, 0x06, 0x40, 0xfb, 0xa4, 0x71, 0x05, 0xfd, 0xd1, 0xa1,
				       0xdf, 0xca, 0xcc, 0x09, 0x30, 0xc8, 0xe2, 0xad, 0x12, 0xaa };
	struct obj_view view = { 0 };
	struct dwarf_cache_section secs[DWARF_CACHE_MAX_SECTIONS];
	unsigned char *before, *after, *img;
	size_t len_before, len_after, len, nr;
	char *orig, *copy, *dir, *entry, *notdir;
	struct stat st;
	bool cached;
	int fd;
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	size_t shstrndx;

	verbosity = -1;
	copy = compressed_inl_main("t-dwarf-cache", "T_DWARF_CACHE_KEEP", &orig);
	dir = tpath("cache");
	entry = tpath("cache/dwarf/9d0640fba47105fdd1a1dfcacc0930c8e2ad12aa");
	elf_version(EV_CURRENT);
	fd = open(orig, O_RDONLY);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0)
		while ((scn = elf_nextscn(elf, scn)))
			if (gelf_getshdr(scn, &shdr) && elf_strptr(elf, shstrndx, shdr.sh_name) &&
			    !strcmp(elf_strptr(elf, shstrndx, shdr.sh_name), ".text")) {
				text_lo = shdr.sh_addr;
				text_hi = shdr.sh_addr + shdr.sh_size;
			}
	elf_end(elf);
	close(fd);
	T("inl-main has a .text", text_hi > text_lo);
	view.path = view.file = view.symfile = copy;
	before = slurp_file(copy, &len_before);

	/* the answers without the cache, and the cache off when JITSYM_CACHE_DIR is empty */
	use_cache("");
	T("JITSYM_CACHE_DIR empty: the cache is off", !dwarf_cache__enabled());
	reference = names_of(&view);
	T("off: nothing read or written", !stats().read && !stats().written);

	use_cache(dir);
	T("the first opening inflates", open_count(&view, false, &cached) >= 3 && !cached);
	T("and writes the entry by build id", stat(entry, &st) == 0 && st.st_size > 0);
	T("the second opening inflates nothing", open_count(&view, false, &cached) == 0 && cached);
	T("through the cache, the names are the same", same_as_reference(names_of(&view)));
	T("counted: read, written once", stats().read >= 2 && stats().written == 1);

	img = slurp_file(entry, &len);
	T("the entry parses for its build id",
	  img && dwarf_cache__parse(img, len, bid, sizeof(bid), secs, &nr) && nr >= 3);
	T("not for another build id",
	  img && !dwarf_cache__parse(img, len, bid, sizeof(bid) - 1, secs, &nr) && nr == 0);
	T("not one byte short", img && !dwarf_cache__parse(img, len - 1, bid, sizeof(bid), secs, &nr));
	/* the first table row's offset (header 64 bytes, then the row's 24-byte name) one past */
	if (img && len > 64 + 32)
		img[64 + 24]++;
	T("not with a section at an unaligned offset",
	  img && !dwarf_cache__parse(img, len, bid, sizeof(bid), secs, &nr));
	free(img);

	/* a byte of the first section changed: not read, inflated, written again */
	use_cache(dir);
	T("a byte of the entry's first section changed",
	  dwarf_cache__parse((img = slurp_file(entry, &len)), len, bid, sizeof(bid), secs, &nr) &&
	  flip(entry, (long)(secs[0].offset + secs[0].size / 2)));
	free(img);
	T("the damaged entry is not read", open_count(&view, false, &cached) >= 3);
	T("counted as stale or damaged, and written again",
	  stats().rejected == 1 && stats().written == 1);
	T("the entry written again is read", open_count(&view, false, &cached) == 0 && cached);
	T("and names the same", same_as_reference(names_of(&view)));

	use_cache(dir);
	T("an entry cut short", truncate(entry, (off_t)len / 2) == 0);
	T("is not read", open_count(&view, false, &cached) >= 3 && stats().rejected == 1);
	T("and is written again whole", stat(entry, &st) == 0 && (size_t)st.st_size == len);

	/* lines: .debug_line joins the entry, then both kinds of handle read all from it */
	T("a handle for lines inflates .debug_line", open_count(&view, true, &cached) == 1 && cached);
	T("the entry grows by it", stat(entry, &st) == 0 && (size_t)st.st_size > len);
	T("then a handle for lines inflates nothing", open_count(&view, true, &cached) == 0 && cached);
	T("nor one for names", open_count(&view, false, &cached) == 0 && cached);
	T("which name the same", same_as_reference(names_of(&view)));

	/* a directory that cannot be made */
	notdir = tpath("file");
	write_file(notdir, "x", 1);
	free(notdir);
	notdir = tpath("file/cache");
	use_cache(notdir);
	T("the cache's directory cannot be made: the names are right",
	  same_as_reference(names_of(&view)));
	T("nothing written, the failure counted with its reason",
	  !stats().written && stats().failed == 1 && strstr(stats().reason, "Not a directory"));

	after = slurp_file(copy, &len_after);
	T("the compressed file is unchanged",
	  before && after && len_before == len_after && !memcmp(before, after, len_after));
	free(before);
	free(after);
	for (len = 0; len < text_hi - text_lo; len++)
		free(reference[len]);
	free(reference);
	free(notdir);
	free(entry);
	free(dir);
	free(copy);
	free(orig);
	dwarf_cache__reset();
	return test_done();
#endif
}
