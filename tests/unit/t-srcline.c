/*
 * Unit tests for src/srcline.c.
 *
 * A small C program is built at test time with the system C compiler (CC,
 * default "cc") and -O2 -g into a temporary directory. Its functions have
 * global assembler labels at known source lines: one in an out-of-line
 * function, one inside a static inline function inlined into it, and one
 * two inline levels deep. The program runs once and prints where each
 * label was mapped; the checks turn those addresses into frames the way
 * resolve.c does (dso_cache__findnew, dso__map_ip) and ask srcline for
 * their lines and inline chains. The expected lines are found by markers
 * in the source, so the program can change without touching numbers.
 * Variants: without .debug_aranges, DWARF 4, DWARF in a separate debug
 * file, no -g at all, and corrupted debug sections (no crash, no lines);
 * and a C++ program (CXX, default "c++"), for demangled names.
 * Without a working compiler the DWARF checks are skipped, not failed.
 */
#include "common/common.h"
#include "resolve/dso.h"
#include "timeline/jitmap.h"
#include "resolve/resolve.h"
#include "common/sbuf.h"
#include "resolve/srcline.h"
#include "common/strpool.h"
#include "test.h"
#include "test-files.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

static struct strpool *pool;

static const char demo_c[] =
	"#include <stdio.h>\n"
	"#include <stdint.h>\n"
	"\n"
	"static inline __attribute__((always_inline)) unsigned inner(unsigned x)\n"
	"{\n"
	"	x ^= x >> 7;\n"
	"	__asm__ volatile(\".globl st_deep\\nst_deep: nop\" : \"+r\"(x)); /* @DEEP */\n"
	"	return x * 3u;\n"
	"}\n"
	"\n"
	"static inline __attribute__((always_inline)) unsigned middle(unsigned x)\n"
	"{\n"
	"	x = inner(x) + 5u; /* @CALL_INNER */\n"
	"	return x ^ (x >> 3);\n"
	"}\n"
	"\n"
	"static inline __attribute__((always_inline)) unsigned mix_round(unsigned x)\n"
	"{\n"
	"	x *= 2654435761u;\n"
	"	__asm__ volatile(\".globl st_inl\\nst_inl: nop\" : \"+r\"(x)); /* @INL */\n"
	"	return x ^ (x >> 13);\n"
	"}\n"
	"\n"
	"__attribute__((noinline)) unsigned st_outer(unsigned x)\n"
	"{\n"
	"	x = mix_round(x) + 1u; /* @CALL_MIX */\n"
	"	__asm__ volatile(\".globl st_plain\\nst_plain: nop\" : \"+r\"(x)); /* @PLAIN */\n"
	"	return middle(x); /* @CALL_MIDDLE */\n"
	"}\n"
	"\n"
	"extern char st_deep[], st_inl[], st_plain[];\n"
	"\n"
	"static void where(const char *name, const void *p)\n"
	"{\n"
	"	FILE *f = fopen(\"/proc/self/maps\", \"r\");\n"
	"	char line[4096], path[2048];\n"
	"	unsigned long s, e, off, a = (unsigned long)(uintptr_t)p;\n"
	"	while (f && fgets(line, sizeof(line), f)) {\n"
	"		path[0] = 0;\n"
	"		if (sscanf(line, \"%lx-%lx %*s %lx %*s %*s %2047s\", &s, &e, &off, path) < 3)\n"
	"			continue;\n"
	"		if (a >= s && a < e) {\n"
	"			printf(\"%s %lx %lx %lx\\n\", name, a, s, off);\n"
	"			break;\n"
	"		}\n"
	"	}\n"
	"	if (f)\n"
	"		fclose(f);\n"
	"}\n"
	"\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	(void)argv;\n"
	"	where(\"st_deep\", st_deep);\n"
	"	where(\"st_inl\", st_inl);\n"
	"	where(\"st_plain\", st_plain);\n"
	"	return st_outer((unsigned)argc) == 12345u;\n"
	"}\n";

/* C++: an inline member function; names come from linkage names. */
static const char cxx_cc[] =
	"#include <cstdio>\n"
	"#include <cstdint>\n"
	"namespace ns {\n"
	"struct Box {\n"
	"	unsigned v;\n"
	"	inline __attribute__((always_inline)) unsigned get(unsigned x)\n"
	"	{\n"
	"		__asm__ volatile(\".globl st_cxx\\nst_cxx: nop\" : \"+r\"(x)); /* @CXX_GET */\n"
	"		return v * x;\n"
	"	}\n"
	"};\n"
	"}\n"
	"__attribute__((noinline)) unsigned st_cxx_outer(ns::Box *b, unsigned x)\n"
	"{\n"
	"	return b->get(x) + 1; /* @CXX_CALL */\n"
	"}\n"
	"extern \"C\" char st_cxx[];\n"
	"int main(int argc, char **)\n"
	"{\n"
	"	ns::Box b{3};\n"
	"	FILE *f = fopen(\"/proc/self/maps\", \"r\");\n"
	"	char line[4096];\n"
	"	unsigned long s, e, off, a = (unsigned long)(uintptr_t)st_cxx;\n"
	"	while (f && fgets(line, sizeof(line), f))\n"
	"		if (sscanf(line, \"%lx-%lx %*s %lx\", &s, &e, &off) == 3 && a >= s && a < e)\n"
	"			printf(\"st_cxx %lx %lx %lx\\n\", a, s, off);\n"
	"	return st_cxx_outer(&b, (unsigned)argc) == 7;\n"
	"}\n";

/* Where the running program saw one label. */
struct seen {
	char name[32];
	uint64_t addr, map_start, map_pgoff;
};

static struct seen seen[3];

static const struct seen *seen_get(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(seen); i++)
		if (!strcmp(seen[i].name, name))
			return &seen[i];
	return NULL;
}

/* The line of src holding marker ("@DEEP"), 1-based; 0 when absent. */
static uint32_t marker_line_in(const char *src, const char *marker)
{
	const char *p = strstr(src, marker), *q;
	uint32_t line = 1;

	if (!p)
		return 0;
	for (q = src; q < p; q++)
		line += *q == '\n';
	return line;
}

static uint32_t marker_line(const char *marker)
{
	return marker_line_in(demo_c, marker);
}

/* Run exe, which prints where nr_labels labels are; false on failure. */
static bool run_labels(const char *exe, size_t nr_labels)
{
	char line[512];
	FILE *fp = popen(exe, "r");
	size_t nr = 0;

	if (!fp)
		return false;
	while (nr < nr_labels && fgets(line, sizeof(line), fp)) {
		struct seen *s = &seen[nr];

		if (sscanf(line, "%31s %" SCNx64 " %" SCNx64 " %" SCNx64, s->name, &s->addr,
			   &s->map_start, &s->map_pgoff) == 4)
			nr++;
	}
	return pclose(fp) == 0 && nr == nr_labels;
}

static bool run_program(const char *exe)
{
	return run_labels(exe, ARRAY_SIZE(seen));
}

/* Build the variants; false when there is no working compiler. */
static bool build_programs(void)
{
	const char *cc = getenv("CC") && getenv("CC")[0] ? getenv("CC") : "cc";
	const char *flags = "-O2 -fno-omit-frame-pointer -fPIE -pie";
	char *src = tpath("srcline-demo.c");
	int rc = 0;

	write_file(src, demo_c, sizeof(demo_c) - 1);
	free(src);
	rc |= sh("cd %s && %s %s -g -o demo srcline-demo.c", tmpdir, cc, flags);
	if (rc)
		return false;
	rc |= sh("cd %s && %s %s -gdwarf-4 -o demo4 srcline-demo.c", tmpdir, cc, flags);
	rc |= sh("cd %s && %s %s -o demo_nog srcline-demo.c", tmpdir, cc, flags);
	rc |= sh("cd %s && objcopy --remove-section=.debug_aranges demo demo_noaranges", tmpdir);
	rc |= sh("cd %s && mkdir -p dl/.debug && objcopy --only-keep-debug demo dl/.debug/demo.dbg"
		 " && objcopy --strip-all --add-gnu-debuglink=dl/.debug/demo.dbg demo dl/demo",
		 tmpdir);
	if (rc)
		printf("# some variants did not build\n");
	return true;
}

/* ---- helpers ---- */

static struct dso_cache *new_dso_cache(void)
{
	char *none = tpath("no-buildid-cache");
	struct dso_opts o = { .buildid_dir = none, .demangle = true };
	struct dso_cache *c = dso_cache__new(&o, pool);

	free(none);
	return c;
}

/* A native frame for label name as resolve.c makes it from the ip. */
static void native_frame(struct dso_cache *dc, const char *path, const char *name,
			 struct frame *f)
{
	const struct seen *s = seen_get(name);
	struct dso *d = dso_cache__findnew(dc, path, NULL, 0);
	const struct symbol *sym;

	memset(f, 0, sizeof(*f));
	f->kind = FRAME_NATIVE;
	f->obj = dso__view(d, NULL, 0);
	f->elf_addr = dso__map_ip(d, s->map_start, s->map_pgoff, s->addr);
	sym = dso__find_symbol(d, f->elf_addr);
	f->sym = sym ? sym->name : NULL;
	f->dso = dso__path(d);
}

static bool file_is(const char *file, const char *base)
{
	const char *slash = file ? strrchr(file, '/') : NULL;

	return file && !strcmp(slash ? slash + 1 : file, base);
}

/* The demo's source, as compiled: cc ran in tmpdir. */
static bool is_source_path(const char *file)
{
	char *dir = realpath(tmpdir, NULL), *want;
	bool ok;

	if (!dir)
		return false;
	want = xasprintf("%s/srcline-demo.c", dir);
	ok = file && !strcmp(file, want);
	if (!ok)
		printf("# file '%s', want '%s'\n", file ? file : "(null)", want);
	free(want);
	free(dir);
	return ok;
}

static bool loc_is(const struct src_loc *l, const char *function, const char *marker)
{
	bool ok = l->function && !strcmp(l->function, function) &&
		  file_is(l->file, "srcline-demo.c") && l->line == marker_line(marker);

	if (!ok)
		printf("# got %s at %s:%u, want %s at srcline-demo.c:%u\n",
		       l->function ? l->function : "(null)", l->file ? l->file : "(null)",
		       l->line, function, marker_line(marker));
	return ok;
}

/* ---- the tests ---- */

/* The three labels of a build with DWARF; what names the variant. */
static void test_srcline__chains(const char *exe, const char *what)
{
	struct dso_cache *dc = new_dso_cache();
	struct srcline_cache *c = srcline_cache__new(pool);
	char *path = tpath(exe), *name;
	struct src_loc out[8], again[8];
	struct frame f;
	size_t n;

#define CHECK(label, cond) do { name = xasprintf("%s: %s", what, label); \
		T(name, cond); free(name); } while (0)
	if (!run_program(path)) {
		CHECK("test program runs", false);
		goto out;
	}
	native_frame(dc, path, "st_plain", &f);
	n = srcline__lookup(c, &f, out, ARRAY_SIZE(out));
	CHECK("out-of-line code: one level", n == 1);
	CHECK("out-of-line code: function and line", n >= 1 && loc_is(&out[0], "st_outer", "@PLAIN"));

	native_frame(dc, path, "st_inl", &f);
	n = srcline__lookup(c, &f, out, ARRAY_SIZE(out));
	CHECK("inlined code: two levels", n == 2);
	CHECK("inlined code: innermost is the inline function's line",
	      n >= 1 && loc_is(&out[0], "mix_round", "@INL"));
	CHECK("inlined code: outermost is the call site in the real function",
	      n >= 2 && loc_is(&out[1], "st_outer", "@CALL_MIX"));

	native_frame(dc, path, "st_deep", &f);
	n = srcline__lookup(c, &f, out, ARRAY_SIZE(out));
	CHECK("two inline levels: three locations", n == 3);
	CHECK("two inline levels: innermost", n >= 1 && loc_is(&out[0], "inner", "@DEEP"));
	CHECK("two inline levels: middle, at the inner call",
	      n >= 2 && loc_is(&out[1], "middle", "@CALL_INNER"));
	CHECK("two inline levels: outermost, at the middle call",
	      n >= 3 && loc_is(&out[2], "st_outer", "@CALL_MIDDLE"));

	CHECK("DWARF file names are absolute: the compilation directory joined",
	      n >= 1 && is_source_path(out[0].file) && is_source_path(out[n - 1].file));
	CHECK("max 1 keeps the innermost",
	      srcline__lookup(c, &f, again, 1) == 1 && again[0].line == out[0].line &&
	      again[0].function == out[0].function);
	CHECK("max 0 fills nothing", srcline__lookup(c, &f, again, 0) == 0);
	n = srcline__lookup(c, &f, again, ARRAY_SIZE(again));
	CHECK("a second lookup gives the same interned strings",
	      n == 3 && again[0].file == out[0].file && again[2].function == out[2].function);
	CHECK("strings are the pool's",
	      n == 3 && again[0].file == strpool__intern(pool, again[0].file));
	{
		struct srcline_cache *once = srcline_cache__new(pool);

		srcline_cache__no_memo(once);
		n = srcline__lookup(once, &f, again, ARRAY_SIZE(again));
		CHECK("without the memo: the same answer",
		      n == 3 && again[0].file == out[0].file && again[0].line == out[0].line &&
		      again[1].line == out[1].line && again[2].function == out[2].function);
		CHECK("without the memo: max 1 keeps the innermost",
		      srcline__lookup(once, &f, again, 1) == 1 && again[0].line == out[0].line);
		srcline_cache__delete(once);
	}
#undef CHECK
out:
	srcline_cache__delete(c);
	dso_cache__delete(dc);
	free(path);
}

/* C++ built with CXX (default "c++"); skipped without one. */
static void test_srcline__cxx(void)
{
	const char *cxx = getenv("CXX") && getenv("CXX")[0] ? getenv("CXX") : "c++";
	struct dso_cache *dc;
	struct srcline_cache *c;
	char *src = tpath("box.cc"), *exe = tpath("box");
	struct src_loc out[4];
	struct frame f;
	size_t n;

	write_file(src, cxx_cc, sizeof(cxx_cc) - 1);
	if (sh("cd %s && %s -O2 -g -fPIE -pie -o box box.cc", tmpdir, cxx) ||
	    !run_labels(exe, 1)) {
		printf("ok - # skip: no working C++ compiler\n");
		goto out;
	}
	dc = new_dso_cache();
	c = srcline_cache__new(pool);
	native_frame(dc, exe, "st_cxx", &f);
	n = srcline__lookup(c, &f, out, ARRAY_SIZE(out));
	T("C++: inlined member function, two levels", n == 2);
	T("C++: inline function by its demangled linkage name",
	  n >= 1 && !strcmp(out[0].function, "ns::Box::get") &&
	  out[0].line == marker_line_in(cxx_cc, "@CXX_GET"));
	T("C++: outer function demangled, without parameters",
	  n >= 2 && !strcmp(out[1].function, "st_cxx_outer") &&
	  out[1].line == marker_line_in(cxx_cc, "@CXX_CALL"));
	srcline_cache__delete(c);
	dso_cache__delete(dc);
out:
	free(src);
	free(exe);
}

static void test_srcline__no_lines(void)
{
	struct dso_cache *dc = new_dso_cache();
	struct srcline_cache *c = srcline_cache__new(pool);
	char *nog = tpath("demo_nog");
	struct src_loc out[4];
	struct frame f;

	if (run_program(nog)) {
		native_frame(dc, nog, "st_inl", &f);
		T("no -g: no lines", srcline__lookup(c, &f, out, ARRAY_SIZE(out)) == 0);
	} else {
		T("no -g: test program runs", false);
	}
	native_frame(dc, "/nonexistent/jitsym/demo", "st_inl", &f);
	T("missing file: no lines", srcline__lookup(c, &f, out, ARRAY_SIZE(out)) == 0);
	memset(&f, 0, sizeof(f));
	f.kind = FRAME_NATIVE;
	T("native frame without a DSO: no lines", srcline__lookup(c, &f, out, 4) == 0);
	f.kind = FRAME_KERNEL;
	f.sym = "do_syscall_64";
	T("kernel frame: no lines", srcline__lookup(c, &f, out, 4) == 0);
	f.kind = FRAME_UNKNOWN;
	f.sym = NULL;
	T("unknown frame: no lines", srcline__lookup(c, &f, out, 4) == 0);
	srcline_cache__delete(c);
	dso_cache__delete(dc);
	free(nog);
}

/* Garbage in the debug sections, and random bytes anywhere: no crash. */
static void test_srcline__corrupt(void)
{
	struct dso_cache *dc = new_dso_cache();
	struct srcline_cache *c = srcline_cache__new(pool);
	char *exe = tpath("demo"), *junk = tpath("junk.bin"), *bad;
	static const char *const sections[] = {
		".debug_info", ".debug_line", ".debug_abbrev", ".debug_str", ".debug_rnglists",
	};
	static const char *const labels[] = { "st_deep", "st_inl", "st_plain" };
	struct src_loc out[SRCLINE_MAX_DEPTH];
	unsigned char buf[4096];
	struct frame f;
	size_t i, k, built = 0;
	FILE *fp;

	srand(7);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)rand();
	write_file(junk, buf, sizeof(buf));
	for (i = 0; i < ARRAY_SIZE(sections); i++) {
		bad = xasprintf("%s/garbage%s", tmpdir, sections[i]);
		if (!sh("objcopy --update-section %s=%s %s %s", sections[i], junk, exe, bad)) {
			built++;
			for (k = 0; k < ARRAY_SIZE(labels); k++) {
				native_frame(dc, bad, labels[k], &f);
				srcline__lookup(c, &f, out, ARRAY_SIZE(out));
			}
		}
		free(bad);
	}
	T("garbage debug sections: no crash", built > 0);

	/* flip bytes in the second half of the file, where the debug sections are */
	for (k = 0; k < 200; k++) {
		struct stat st;
		char *data;

		if (stat(exe, &st) || !(fp = fopen(exe, "rb")))
			break;
		data = xmalloc((size_t)st.st_size);
		if (fread(data, 1, (size_t)st.st_size, fp) != (size_t)st.st_size)
			die("cannot read '%s'", exe);
		fclose(fp);
		srand((unsigned)k);
		for (i = 0; i < 16; i++)
			data[(size_t)st.st_size / 2 + (size_t)rand() % ((size_t)st.st_size / 2)] =
				(char)rand();
		bad = xasprintf("%s/flip-%zu", tmpdir, k);
		write_file(bad, data, (size_t)st.st_size);
		free(data);
		for (i = 0; i < ARRAY_SIZE(labels); i++) {
			native_frame(dc, bad, labels[i], &f);
			srcline__lookup(c, &f, out, ARRAY_SIZE(out));
		}
		free(bad);
	}
	T("random bytes in the debug sections: no crash", true);
	srcline_cache__delete(c);
	dso_cache__delete(dc);
	free(exe);
	free(junk);
}

/* JIT code: the jitdump's line table, at jit->start + symoff. */
static void test_srcline__jit(void)
{
	struct srcline_cache *c = srcline_cache__new(pool);
	struct jit_line lines[] = {
		{ 0x1000, 1, 10, "/app/hot.js" },
		{ 0x1012, 2, 5, "/app/hot.js" },
		{ 0x1050, 7, 3, "/app/lib.js" },
	};
	struct jit_sym js = {
		.start = 0x1000, .size = 0x80, .name = "JS:*fib /app/hot.js:1",
		.source = "/tmp/jit-1.dump", .lines = lines, .nr_lines = ARRAY_SIZE(lines),
	};
	struct frame f = { .kind = FRAME_JIT, .jit = &js, .sym = js.name, .symoff = 0x20 };
	struct src_loc out[4];
	size_t n;

	n = srcline__lookup(c, &f, out, ARRAY_SIZE(out));
	T("jit: one level", n == 1);
	T("jit: the line covering the address",
	  n == 1 && out[0].line == 2 && out[0].column == 5 && !strcmp(out[0].file, "/app/hot.js"));
	T("jit: function is the frame's symbol", n == 1 && !strcmp(out[0].function, js.name));
	T("jit: strings interned in the pool",
	  n == 1 && out[0].file == strpool__intern(pool, "/app/hot.js"));
	f.symoff = 0x60;
	n = srcline__lookup(c, &f, out, ARRAY_SIZE(out));
	T("jit: last line runs to the end", n == 1 && out[0].line == 7);
	f.symoff = 0;
	lines[0].addr = 0x1004;
	T("jit: before the first line: none", srcline__lookup(c, &f, out, 4) == 0);
	js.nr_lines = 0;
	T("jit: no debug info: none", srcline__lookup(c, &f, out, 4) == 0);
	f.kind = FRAME_PERFMAP;
	T("perf map function: none", srcline__lookup(c, &f, out, 4) == 0);
	f.jit = NULL;
	T("jit frame without its function: none", srcline__lookup(c, &f, out, 4) == 0);
	srcline_cache__delete(c);
}

int main(void)
{
	char *exe;

	verbosity = -1;   /* dso.c warnings are counted, not shown */
	pool = strpool__new();
	T("srcline_cache__delete(NULL)", (srcline_cache__delete(NULL), true));
	test_srcline__jit();

	tmpdir_create("t-srcline", "T_SRCLINE_KEEP");
	if (!build_programs()) {
		printf("ok - # skip: no working C compiler for the DWARF tests\n");
		strpool__delete(pool);
		return test_done();
	}
	test_srcline__chains("demo", "DWARF 5");
	test_srcline__chains("demo4", "DWARF 4");
	test_srcline__chains("demo_noaranges", "no .debug_aranges");
	test_srcline__chains("dl/demo", "debug file by .gnu_debuglink");
	test_srcline__cxx();
	test_srcline__no_lines();
	exe = tpath("demo");
	if (run_program(exe))
		test_srcline__corrupt();
	free(exe);
	strpool__delete(pool);
	return test_done();
}
