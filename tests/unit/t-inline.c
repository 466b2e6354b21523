/*
 * Unit tests for src/resolve/inline.c: a differential test against
 * binutils' addr2line, whose answers perf shows and inline.h promises.
 *
 * For each binary the goldens bundle (tests/golden/inline-synth's, built
 * -O2 -g with two-deep and recursive inlining, a shared library, one
 * without DWARF; native-recorded's native-demo and libdemo.so) and of a
 * shared object assembled at test time (assembler aliases), every
 * address of .text (and of its PLT) is looked up as a native frame, and the names
 * inline__lookup() gives must be the functions `addr2line -f -i -C -e
 * FILE` prints for it, innermost first (one addr2line process per file,
 * all the addresses on its stdin). Where addr2line finds nothing ("??" at
 * "??:0") inline__lookup() must give no answer. Then files it can make nothing
 * of: an ELF file without section headers (no DWARF, no symbols),
 * garbage, a truncated binary, an empty file: no answer, no crash.
 * Skipped (77) without addr2line. T_INLINE_FILES="FILE[:STRIDE] ..."
 * compares more files' .text (every STRIDE-th address), for a look at
 * real binaries; the CPU time the lookups took is printed, never checked.
 */
#include "common/common.h"
#include "common/strpool.h"
#include "resolve/inline.h"
#include "resolve/sample.h"
#include "test.h"
#include "test-files.h"

#include <elf.h>
#include <string.h>
#include <time.h>

static struct strpool *pool;

/* Section sect's address range in an ELF64 file image: false when it has none. */
static bool section_range(const unsigned char *p, size_t len, const char *sect, uint64_t *start,
			  uint64_t *end)
{
	const Elf64_Ehdr *eh = (const void *)p;
	const Elf64_Shdr *sh, *strs;
	size_t i;

	if (len < sizeof(*eh) || memcmp(p, ELFMAG, SELFMAG) || p[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(*sh) || eh->e_shstrndx >= eh->e_shnum ||
	    eh->e_shoff > len || (len - eh->e_shoff) / sizeof(*sh) < eh->e_shnum)
		return false;
	sh = (const void *)(p + eh->e_shoff);
	strs = &sh[eh->e_shstrndx];
	for (i = 0; i < eh->e_shnum; i++) {
		if (strs->sh_offset + sh[i].sh_name + strlen(sect) + 1 > len)
			continue;
		if (!strcmp((const char *)p + strs->sh_offset + sh[i].sh_name, sect)) {
			*start = sh[i].sh_addr;
			*end = sh[i].sh_addr + sh[i].sh_size;
			return true;
		}
	}
	return false;
}

/* One address's answer from addr2line: its names, innermost first. */
struct a2l_answer {
	uint64_t addr;
	size_t n;
	char *names[INLINE_MAX_DEPTH];
};

/*
 * addr2line -f -i -a -C on count addresses of path from start, stride
 * apart, in one run; NULL
 * when it could not run. A first answer "??" at "??:0" is none (n = 0), as
 * perf reads it; any other "??" is a name (binutils prints an empty or
 * missing name so, and perf shows it).
 */
static struct a2l_answer *addr2line(const char *path, uint64_t start, uint64_t count,
				    uint64_t stride)
{
	char *in = tpath("addrs"), *cmd, line[4096];
	struct a2l_answer *out = xcalloc(count, sizeof(*out)), *cur = NULL;
	FILE *fp = fopen(in, "w");
	size_t got = 0;
	uint64_t a;
	bool func = true;   /* the next line is a function name (else a file:line) */

	if (!fp)
		die("cannot write '%s'", in);
	for (a = 0; a < count; a++)
		fprintf(fp, "%" PRIx64 "\n", start + a * stride);
	if (fclose(fp))
		die("cannot write '%s'", in);
	cmd = xasprintf("addr2line -f -i -a -C -e '%s' <'%s'", path, in);
	fp = popen(cmd, "r");
	while (fp && fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "0x", 2) && strlen(line) == 18) {
			if (got == count)
				break;
			cur = &out[got++];
			cur->addr = strtoull(line, NULL, 16);
			func = true;
		} else if (cur && func) {
			if (cur->n < INLINE_MAX_DEPTH)
				cur->names[cur->n++] = xstrdup(line);
			func = false;
		} else if (cur) {
			/* "??" at "??:0" first: nothing found (perf's reading of it) */
			if (cur->n == 1 && !strcmp(cur->names[0], "??") && !strcmp(line, "??:0"))
				free(cur->names[--cur->n]);
			func = true;
		}
	}
	if (!fp || pclose(fp) != 0 || got != count) {
		printf("# addr2line on '%s': %zu answers of %" PRIu64 "\n", path, got, count);
		for (a = 0; a < got; a++)
			for (size_t i = 0; i < out[a].n; i++)
				free(out[a].names[i]);
		free(out);
		out = NULL;
	}
	free(cmd);
	free(in);
	return out;
}

static size_t lookup(struct inline_cache *c, const struct obj_view *ov, uint64_t addr,
		     const char *const **names)
{
	struct frame f = {
		.kind = FRAME_NATIVE, .obj = ov, .elf_addr = addr, .sym = "sym",
		.dso = ov->path, .ip = addr, .print_addr = addr,
	};

	return inline__lookup(c, &f, names);
}

/*
 * Every stride-th address of section sect of path (name: how to call it):
 * inline__lookup() says what addr2line says. A section the file lacks
 * fails, unless optional.
 */
static void test_inline__section(const char *path, const char *name, const char *sect,
				 bool optional, uint64_t stride)
{
	struct obj_view ov = { .path = path, .file = path, .symfile = path };
	struct inline_cache *c = inline_cache__new(pool, true);
	struct a2l_answer *want;
	const char *const *names;
	unsigned char *img;
	uint64_t start, end, count, a, differ = 0, inlined = 0, none = 0, ns = 0;
	size_t len = 0, n, i;
	char *what;

	img = slurp_file(path, &len);
	if (!img || !section_range(img, len, sect, &start, &end)) {
		what = xasprintf("%s: has %s", name, sect);
		T(what, optional && img);
		free(what);
		free(img);
		inline_cache__delete(c);
		return;
	}
	free(img);
	count = (end - start + stride - 1) / stride;
	want = addr2line(path, start, count, stride);
	what = xasprintf("%s %s: addr2line answers every address", name, sect);
	T(what, want);
	free(what);
	if (!want) {
		inline_cache__delete(c);
		return;
	}
	for (a = 0; a < count; a++) {
		const struct a2l_answer *w = &want[a];
		struct timespec t0, t1;
		bool same;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		n = lookup(c, &ov, w->addr, &names);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		ns += (uint64_t)(t1.tv_sec - t0.tv_sec) * 1000000000u + (uint64_t)t1.tv_nsec -
		      (uint64_t)t0.tv_nsec;
		same = n == w->n && w->addr == start + a * stride;
		for (i = 0; same && i < n; i++)
			same = !strcmp(names[i], w->names[i]);
		if (!same && differ++ < 10) {
			printf("# %s 0x%" PRIx64 ": addr2line", name, w->addr);
			for (i = 0; i < w->n; i++)
				printf(" %s", w->names[i]);
			printf("; inline__lookup");
			for (i = 0; i < n; i++)
				printf(" %s", names[i]);
			printf("\n");
		}
		inlined += w->n > 1;
		none += w->n == 0;
		for (i = 0; i < w->n; i++)
			free(want[a].names[i]);
	}
	printf("# %s %s: %" PRIu64 " addresses, %" PRIu64 " in inlined code, %" PRIu64
	       " with no answer, %" PRIu64 " differ; lookups %.1f ms\n", name, sect, count, inlined,
	       none, differ, (double)ns / 1e6);
	what = xasprintf("%s: every %s address as addr2line -f -i names it", name, sect);
	T(what, differ == 0);
	free(what);
	free(want);
	inline_cache__delete(c);
}

/*
 * Aliases as gas describes them: a subprogram per function symbol, in
 * the symbols' order, so two names of one piece of code (al_memmove,
 * al_memcpy: glibc's memmove and memcpy are so) need not be adjacent
 * DIEs. binutils names the code after the later. Built at test time with
 * the C compiler driver (CC, default "cc"); skipped without one.
 */
static void test_inline__asm_aliases(void)
{
	static const char al_s[] =
		"\t.text\n"
		"\t.globl al_memmove\n\t.type al_memmove, @function\n"
		"\t.globl al_other\n\t.type al_other, @function\n"
		"\t.globl al_memcpy\n\t.type al_memcpy, @function\n"
		"al_memmove:\nal_memcpy:\n\tnop\n\tnop\n\tret\n"
		"\t.size al_memmove, .-al_memmove\n\t.size al_memcpy, .-al_memcpy\n"
		"al_other:\n\tnop\n\tret\n\t.size al_other, .-al_other\n"
		"\t.section .note.GNU-stack,\"\",@progbits\n";
	const char *cc = getenv("CC");
	char *src = tpath("al.s"), *so = tpath("al.so");

	write_file(src, al_s, sizeof(al_s) - 1);
	if (sh("%s -g -shared -nostdlib -o '%s' '%s'", cc && cc[0] ? cc : "cc", so, src) != 0) {
		printf("ok - # skip: cannot assemble al.s with -g\n");
	} else {
		test_inline__section(so, "al.so", ".text", false, 1);
	}
	free(src);
	free(so);
}

/* A file inline.c can make nothing of: no answer at a few addresses, no crash. */
static void test_inline__nothing(const char *what, const void *data, size_t len)
{
	char *path = tpath("nothing");
	struct obj_view ov = { .path = path, .file = path, .symfile = path };
	struct inline_cache *c = inline_cache__new(pool, true);
	static const uint64_t addrs[] = { 0, 0x40, 0x1000, 0x1110, 0x1250, 0x1fff, UINT64_MAX };
	const char *const *names;
	size_t i, n = 0;

	write_file(path, data, len);
	for (i = 0; i < ARRAY_SIZE(addrs); i++)
		n += lookup(c, &ov, addrs[i], &names);
	T(what, n == 0);
	inline_cache__delete(c);
	free(path);
}

int main(void)
{
	static const char *const golden[] = {
		"inline-synth/symfs/usr/bin/inl-main",
		"inline-synth/symfs/usr/lib/inl/libinl.so",
		"inline-synth/symfs/usr/lib/inl/libplain.so",
		"native-recorded/symfs/tmp/jitsym-golden/native-demo",
		"native-recorded/symfs/tmp/jitsym-golden/libdemo.so",
	};
	const char *srcdir = getenv("abs_top_srcdir");
	unsigned char *img, junk[4096];
	size_t len = 0, i;
	char *path;

	if (!srcdir) {
		printf("# abs_top_srcdir must be set (tests/setup.sh)\n");
		return 99;
	}
	if (system("addr2line --version >/dev/null 2>&1") != 0) {
		printf("# SKIP addr2line (binutils) is not installed\n");
		return 77;
	}
	/*
	 * inline.h models binutils 2.40 (Debian 12), what perf there reads;
	 * other versions name some aliases and clones otherwise, which says
	 * nothing of jitsym
	 */
	if (system("addr2line --version | head -n 1 | grep -q ' 2\\.40$'") != 0) {
		printf("# SKIP addr2line is not binutils 2.40, whose names inline.h gives\n");
		return 77;
	}
	verbosity = -1;
	pool = strpool__new();
	tmpdir_create("t-inline", "T_INLINE_KEEP");
	T("inline_cache__delete(NULL)", (inline_cache__delete(NULL), true));
	for (i = 0; i < ARRAY_SIZE(golden); i++) {
		path = xasprintf("%s/tests/golden/%s", srcdir, golden[i]);
		test_inline__section(path, golden[i], ".text", false, 1);
		/* PLT entries: no DWARF function, no symbol addr2line finds */
		test_inline__section(path, golden[i], ".plt", true, 1);
		test_inline__section(path, golden[i], ".plt.got", true, 1);
		test_inline__section(path, golden[i], ".init", true, 1);
		test_inline__section(path, golden[i], ".fini", true, 1);
		free(path);
	}
	test_inline__asm_aliases();
	/* more files, by hand: T_INLINE_FILES="FILE[:STRIDE] ..." (not hermetic) */
	if (getenv("T_INLINE_FILES")) {
		char *list = xstrdup(getenv("T_INLINE_FILES")), *save = NULL, *tok;

		for (tok = strtok_r(list, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			char *colon = strrchr(tok, ':');
			uint64_t stride = 1;

			if (colon) {
				*colon = 0;
				stride = strtoull(colon + 1, NULL, 0);
			}
			test_inline__section(tok, tok, ".text", false, stride ? stride : 1);
		}
		free(list);
	}

	path = xasprintf("%s/tests/golden/inline-synth/symfs/usr/bin/inl-main", srcdir);
	img = slurp_file(path, &len);
	free(path);
	T("inl-main is readable", img && len > sizeof(Elf64_Ehdr));
	if (img && len > sizeof(Elf64_Ehdr)) {
		Elf64_Ehdr *eh = (void *)img;

		test_inline__nothing("truncated binary: no answer", img, len / 2);
		test_inline__nothing("ELF header only: no answer", img, sizeof(*eh));
		/* no section headers: neither its DWARF nor its symbols can be found */
		eh->e_shoff = 0;
		eh->e_shnum = 0;
		eh->e_shstrndx = 0;
		test_inline__nothing("ELF without section headers: no answer", img, len);
	}
	free(img);
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)test_rnd(256);
	test_inline__nothing("garbage: no answer", junk, sizeof(junk));
	memcpy(junk, ELFMAG, SELFMAG);
	junk[EI_CLASS] = ELFCLASS64;
	junk[EI_DATA] = ELFDATA2LSB;
	test_inline__nothing("garbage behind an ELF ident: no answer", junk, sizeof(junk));
	test_inline__nothing("empty file: no answer", "", 0);
	strpool__delete(pool);
	return test_done();
}
