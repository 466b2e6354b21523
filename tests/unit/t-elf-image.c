/*
 * Unit tests for src/resolve/elf-image.c, src/resolve/symtab.c and src/resolve/elf-symbols.c:
 * the test executable opens itself, maps the address of one of its own
 * functions through /proc/self/maps and the PT_LOAD headers, finds the
 * function's symbol, and asks the .eh_frame CFI for its frame. A small
 * program built at test time with the system C compiler (CC, default
 * "cc") without unwind tables proves the .debug_frame CFI the same way;
 * without a working compiler that part is skipped, not failed.
 */
#include "common/common.h"
#include "resolve/dso.h"
#include "resolve/elf-image.h"
#include "resolve/elf-symbols.h"
#include "common/strpool.h"
#include "resolve/symtab.h"
#include "resolve/symtree.h"
#include "test.h"
#include "test-files.h"

#include <sys/mman.h>
#include <unistd.h>

static struct strpool *pool;

/* A function of our own whose address the tests look up. */
__attribute__((noinline)) int t_elf_image_target(int x);
__attribute__((noinline)) int t_elf_image_target(int x)
{
	return x * 31 + 7;
}

/*
 * The file offset of process address a in the mapping of /proc/self/exe
 * holding it; false when not found.
 */
static bool self_offset(uintptr_t a, uint64_t *off)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	unsigned long s, e, pgoff;
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %*s %lx", &s, &e, &pgoff) != 3 || a < s || a >= e)
			continue;
		*off = a - s + pgoff;
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

/* Whether CFI has a frame at addr with a CFA rule. */
static bool cfi_has_frame(Dwarf_CFI *cfi, uint64_t addr)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops = NULL;
	size_t nops = 0;
	bool ok;

	if (!cfi || dwarf_cfi_addrframe(cfi, addr, &frame))
		return false;
	ok = !dwarf_frame_cfa(frame, &ops, &nops) && nops > 0;
	free(frame);
	return ok;
}

/* The DSO address of a function named name, by the symbol table; 0: none. */
static uint64_t symbol_address(struct elf_image *img, const char *name)
{
	GElf_Shdr shdr, strshdr;
	Elf_Scn *scn = elf_image__find_section(img, NULL, SHT_SYMTAB, &shdr);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	GElf_Sym sym;
	const char *s;
	int i;

	if (!data || !gelf_getshdr(elf_getscn(elf_image__elf(img), shdr.sh_link), &strshdr))
		return 0;
	for (i = 1; gelf_getsym(data, i, &sym); i++) {
		s = elf_strptr(elf_image__elf(img), shdr.sh_link, sym.st_name);
		if (s && !strcmp(s, name))
			return sym.st_value;
	}
	return 0;
}

static void test_elf_image__self(void)
{
	struct elf_image *img = elf_image__open("/proc/self/exe");
	struct elf_segment *segs = NULL;
	struct elf_section_info text;
	struct symtab *st;
	const struct symbol *sym;
	Dwarf_CFI *cfi;
	uint64_t off = 0, addr;
	size_t nr, id_size;

	T("opens the test executable", img != NULL);
	if (!img)
		return;
	T("its ELF header", elf_image__ehdr(img)->e_type == ET_EXEC ||
	  elf_image__ehdr(img)->e_type == ET_DYN);
	T("a build id when it has a note",
	  elf_image__section_info(img, ".note.gnu.build-id", &text) ||
	  (elf_image__build_id(img, &id_size) && id_size >= 16));
	T(".text found", !elf_image__section_info(img, ".text", &text) && text.size > 0);
	T("no such section", elf_image__section_info(img, ".no-such", &text) == -ENOENT);
	nr = elf_image__segments(img, &segs);
	T("PT_LOAD segments", nr > 0 && segs);
	T("the function is mapped from the file",
	  self_offset((uintptr_t)t_elf_image_target, &off));
	addr = elf_segments__map(segs, nr, off);
	T("maps into .text", addr >= text.addr && addr - text.addr < text.size);
	T("to the symbol's address", addr == symbol_address(img, "t_elf_image_target"));

	st = symtab__new(pool, true, 0);
	elf_symbols__load(st, img, img);
	sym = symtab__find(st, addr);
	T("symbol found", sym && !strcmp(sym->name, "t_elf_image_target") &&
	  sym->start == addr && sym->size > 0);
	T("many symbols", symtab__nr_symbols(st) > 10);
	symtab__delete(st);

	cfi = elf_image__eh_frame_cfi(img);
	T(".eh_frame CFI", cfi != NULL);
	T("the same CFI again", elf_image__eh_frame_cfi(img) == cfi);
	T("frame and CFA rule for the function", cfi_has_frame(cfi, addr));
	T("frame inside the function", cfi_has_frame(cfi, addr + 1));
	T("no frame outside the file", !cfi_has_frame(cfi, 0));
	free(segs);
	elf_image__delete(img);
}

/* The file's bytes mapped, and symbol names that outlive the image they came from. */
static void test_elf_image__mapped(void)
{
	struct elf_image *img = elf_image__open("/proc/self/exe");
	struct elf_section_info text;
	const struct symbol *sym;
	unsigned char buf[64];
	struct symtab *st;
	const void *m;
	void *base = NULL;
	size_t len = 0;
	uint64_t addr;

	T("opens the test executable", img != NULL);
	if (!img)
		return;
	T(".text found", !elf_image__section_info(img, ".text", &text) && text.size > 64);
	m = elf_image__map_range(img, text.offset + 3, 61, &base, &len);
	T("a range at an unaligned offset is mapped", m != NULL && base && len >= 61);
	T("with the file's bytes", m && elf_image__pread(img, buf, 61, text.offset + 3) == 61 &&
	  !memcmp(m, buf, 61));
	if (base)
		munmap(base, len);
	T("past the end: none", !elf_image__map_range(img, UINT64_MAX - 8, 4, &base, &len));
	T("empty: none", !elf_image__map_range(img, 0, 0, &base, &len));

	addr = symbol_address(img, "t_elf_image_target");
	st = symtab__new(pool, true, 0);
	elf_symbols__load(st, img, img);
	elf_image__delete(img);
	sym = symtab__find(st, addr);
	T("a name read after the image is closed",
	  sym && !strcmp(sym->name, "t_elf_image_target"));
	symtab__delete(st);
}

static void test_elf_image__errors(void)
{
	char *path = tpath("not-elf");

	write_file(path, "hello, world\n", 13);
	errno = 0;
	T("not ELF: ENOEXEC", !elf_image__open(path) && errno == ENOEXEC);
	errno = 0;
	T("missing: ENOENT", !elf_image__open("/nonexistent/x") && errno == ENOENT);
	errno = 0;
	T("a directory: ENOENT", !elf_image__open("/") && errno == ENOENT);
	T("elf_image__delete(NULL)", (elf_image__delete(NULL), true));
	T("no segments: offset kept", elf_segments__map(NULL, 0, 0x1234) == 0x1234);
	free(path);
}

static const char frame_c[] =
	"__attribute__((noinline)) int t_df_fn(int x) { return x * 3 + 1; }\n"
	"int main(int argc, char **argv) { (void)argv; return t_df_fn(argc); }\n";

/* .debug_frame: a program built without unwind tables keeps its CFI there. */
static void test_elf_image__debug_frame(void)
{
	const char *cc = getenv("CC") && getenv("CC")[0] ? getenv("CC") : "cc";
	char *src = tpath("frame.c"), *exe = tpath("frame");
	struct elf_image *img;
	uint64_t addr;

	write_file(src, frame_c, sizeof(frame_c) - 1);
	if (sh("cd %s && %s -O1 -g -fno-asynchronous-unwind-tables -fno-exceptions "
	       "-o frame frame.c", tmpdir, cc)) {
		printf("ok - # skip: no working C compiler for the .debug_frame test\n");
		goto out;
	}
	img = elf_image__open(exe);
	T("opens the program", img != NULL);
	if (!img)
		goto out;
	addr = symbol_address(img, "t_df_fn");
	T("its function", addr != 0);
	T(".debug_frame CFI", elf_image__debug_frame_cfi(img) != NULL);
	T("the same CFI again",
	  elf_image__debug_frame_cfi(img) == elf_image__debug_frame_cfi(img));
	T("frame and CFA rule from .debug_frame",
	  cfi_has_frame(elf_image__debug_frame_cfi(img), addr));
	T("not in .eh_frame", !cfi_has_frame(elf_image__eh_frame_cfi(img), addr));
	elf_image__delete(img);
out:
	free(src);
	free(exe);
}

/* The DSO hands out its binary's image, opened once. */
static void test_dso__elf_image(void)
{
	struct dso_opts opts = { .buildid_dir = tmpdir };
	struct dso_cache *c = dso_cache__new(&opts, pool);
	char *self = realpath("/proc/self/exe", NULL);
	struct dso *d = dso_cache__findnew(c, self, NULL, 0);
	struct dso *none = dso_cache__findnew(c, "//anon", NULL, 0);
	struct elf_image *img = dso__elf_image(d);

	T("dso__elf_image", img && !strcmp(elf_image__path(img), self));
	T("opened once", dso__elf_image(d) == img);
	T("the symbols' file is the binary", dso__debug_elf_image(d) == img);
	T("with CFI", img && elf_image__eh_frame_cfi(img));
	errno = 0;
	T("no file: NULL, ENOENT", !dso__elf_image(none) && errno == ENOENT);
	dso_cache__delete(c);
	free(self);
}

/* The tree keeps equal keys in the order added, as perf's does. */
static void test_symtree(void)
{
	static const uint64_t keys[] = { 5, 3, 5, 9, 1, 5, 7 };
	struct symtree t;
	uint32_t x, order[7];
	size_t i, n = 0;

	symtree__init(&t, 7);
	for (i = 0; i < 7; i++)
		symtree__add(&t, (uint32_t)i, keys[i]);
	for (x = symtree__first(&t); x != SYMTREE_NIL && n < 7; x = symtree__next(&t, x))
		order[n++] = x;
	T("symtree: all nodes in key order, ties as added",
	  n == 7 && order[0] == 4 && order[1] == 1 && order[2] == 0 && order[3] == 2 &&
	  order[4] == 5 && order[5] == 6 && order[6] == 3);
	symtree__erase(&t, 0);
	symtree__erase(&t, 3);
	for (n = 0, x = symtree__first(&t); x != SYMTREE_NIL; x = symtree__next(&t, x))
		n++;
	T("symtree: erase", n == 5);
	symtree__release(&t);
}

int main(void)
{
	verbosity = -1;
	elf_version(EV_CURRENT);
	pool = strpool__new();
	tmpdir_create("t-elf-image", "T_ELF_IMAGE_KEEP");
	test_elf_image__self();
	test_elf_image__mapped();
	test_elf_image__errors();
	test_elf_image__debug_frame();
	test_dso__elf_image();
	test_symtree();
	strpool__delete(pool);
	return test_done();
}
