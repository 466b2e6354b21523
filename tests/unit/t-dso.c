/*
 * Unit tests for src/resolve/dso.c and src/demangle.c.
 *
 * The ELF inputs are built at test time with the system C compiler (CC,
 * default "cc") into a temporary directory: a PIE and a non-PIE executable
 * and a shared library. The executable runs once and prints, for a few
 * functions, the address it sees and the /proc/self/maps line holding it;
 * the checks then ask dso.c which symbol each address falls in. Names are
 * our own functions only, so no host library version matters; the build-id
 * cache used is always one the test makes, never ~/.debug. strip and
 * objcopy (binutils, installed with gcc) make the stripped and debug-file
 * variants. Without a working compiler the ELF checks are skipped, not
 * failed.
 */
#include "common/common.h"
#include "resolve/demangle.h"
#include "resolve/dso.h"
#include "resolve/dso-locate.h"
#include "resolve/sample.h"
#include "resolve/elf-image.h"
#include "common/sbuf.h"
#include "common/strpool.h"
#include "test.h"
#include "test-files.h"

#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static struct strpool *pool;

/* ---- the test programs ---- */

static const char lib_c[] =
	"__attribute__((noinline)) static int jt_lib_static(int x) { return x * 7; }\n"
	"__attribute__((noinline)) int jt_lib_fn(int x) { return jt_lib_static(x) + 1; }\n"
	"void *jt_lib_static_addr(void) { return (void *)jt_lib_static; }\n";

static const char exe_c[] =
	"#include <stdio.h>\n"
	"#include <stdint.h>\n"
	"extern int jt_lib_fn(int);\n"
	"extern void *jt_lib_static_addr(void);\n"
	"__attribute__((noinline)) int jt_alpha(int x) { return x * 3 + 1; }\n"
	"extern int jt_alpha_weak(int) __attribute__((weak, alias(\"jt_alpha\")));\n"
	"__attribute__((noinline)) static int jt_priv(int x) { return x * 5 + jt_alpha(x); }\n"
	"extern int jt_pub(int) __attribute__((alias(\"jt_priv\")));\n"
	"__attribute__((noinline)) int jt_beta(int x) { return jt_priv(x) ^ jt_lib_fn(x); }\n"
	"__asm__(\".text\\n.globl jt_nosize\\n.type jt_nosize,@function\\n\"\n"
	"        \"jt_nosize:\\n\\tnop\\n\\tnop\\n\\tnop\\n\\tret\\n\");\n"
	"extern void jt_nosize(void);\n"
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
	"			printf(\"%s %lx %lx %lx %s\\n\", name, a, s, off, path);\n"
	"			break;\n"
	"		}\n"
	"	}\n"
	"	if (f)\n"
	"		fclose(f);\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"	(void)argv;\n"
	"	where(\"jt_alpha\", (void *)jt_alpha);\n"
	"	where(\"jt_priv\", (void *)jt_priv);\n"
	"	where(\"jt_beta\", (void *)jt_beta);\n"
	"	where(\"jt_nosize\", (void *)jt_nosize);\n"
	"	where(\"jt_lib_fn\", (void *)jt_lib_fn);\n"
	"	where(\"jt_lib_static\", jt_lib_static_addr());\n"
	"	return jt_beta(argc) == 12345;\n"
	"}\n";

/* Where the running program saw one function. */
struct seen {
	char name[64];
	uint64_t addr, map_start, map_pgoff;
	char path[1024];
};

struct run {
	struct seen s[8];
	size_t nr;
};

static const struct seen *run__get(const struct run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr; i++)
		if (!strcmp(r->s[i].name, name))
			return &r->s[i];
	return NULL;
}

static char *read_file(const char *path, size_t *len)
{
	struct sbuf sb = SBUF_INIT;
	char buf[65536];
	FILE *fp = fopen(path, "rb");
	size_t n;

	if (!fp)
		die("cannot read '%s'", path);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		sbuf_add(&sb, buf, n);
	fclose(fp);
	return sbuf_detach(&sb, len);
}

static void copy_file(const char *from, const char *to)
{
	size_t len;
	char *data = read_file(from, &len);

	write_file(to, data, len);
	free(data);
}

static bool run_program(const char *exe, struct run *r)
{
	char line[2048];
	FILE *fp = popen(exe, "r");

	r->nr = 0;
	if (!fp)
		return false;
	while (r->nr < ARRAY_SIZE(r->s) && fgets(line, sizeof(line), fp)) {
		struct seen *s = &r->s[r->nr];

		if (sscanf(line, "%63s %" SCNx64 " %" SCNx64 " %" SCNx64 " %1023s", s->name,
			   &s->addr, &s->map_start, &s->map_pgoff, s->path) == 5)
			r->nr++;
	}
	return pclose(fp) == 0 && r->nr == 6;
}

/* Build everything; false when there is no working compiler. */
static bool build_programs(void)
{
	const char *cc = getenv("CC") && getenv("CC")[0] ? getenv("CC") : "cc";
	const char *flags = "-O1 -g -fno-inline -fno-omit-frame-pointer -Wl,--build-id=sha1";
	char *lib = tpath("lib.c"), *exe = tpath("exe.c");
	int rc = 0;

	write_file(lib, lib_c, sizeof(lib_c) - 1);
	write_file(exe, exe_c, sizeof(exe_c) - 1);
	rc |= sh("cd %s && %s %s -shared -fPIC -o libjt.so lib.c", tmpdir, cc, flags);
	rc |= sh("cd %s && %s %s -fPIE -pie -o exe_pie exe.c -L. -ljt -Wl,-rpath,%s",
		 tmpdir, cc, flags, tmpdir);
	rc |= sh("cd %s && %s %s -fno-pie -no-pie -o exe_nopie exe.c -L. -ljt -Wl,-rpath,%s",
		 tmpdir, cc, flags, tmpdir);
	rc |= sh("cd %s && %s %s -fno-pie -no-pie -rdynamic -o exe_rdyn exe.c -L. -ljt "
		 "-Wl,-rpath,%s", tmpdir, cc, flags, tmpdir);
	free(lib);
	free(exe);
	return rc == 0;
}

/* ---- helpers for checks ---- */

/* buildid_dir NULL: an empty one, so that no ~/.debug of the host is used. */
static struct dso_cache *new_cache(const char *symfs, const char *buildid_dir, bool demangle)
{
	char *none = tpath("no-buildid-cache");
	struct dso_opts o = { .symfs = symfs, .buildid_dir = buildid_dir ? buildid_dir : none,
			      .demangle = demangle };
	struct dso_cache *c = dso_cache__new(&o, pool);

	free(none);
	return c;
}

/* Name of the symbol holding s->addr + delta in DSO path, "" when none. */
static const char *sym_at(struct dso_cache *c, const char *path, const struct seen *s,
			  uint64_t delta, uint64_t *off)
{
	struct dso *d = dso_cache__findnew(c, path, NULL, 0);
	uint64_t a = dso__map_ip(d, s->map_start, s->map_pgoff, s->addr + delta);
	const struct symbol *sym = dso__find_symbol(d, a);

	if (off)
		*off = sym ? a - sym->start : 0;
	return sym ? sym->name : "";
}

static bool sym_is(struct dso_cache *c, const char *path, const struct seen *s,
		   uint64_t delta, const char *name)
{
	uint64_t off;
	const char *got = sym_at(c, path, s, delta, &off);

	if (strcmp(got, name) || off != delta)
		printf("# %s+%#" PRIx64 " in '%s': got '%s'+%#" PRIx64 "\n",
		       s->name, delta, path, got, off);
	return !strcmp(got, name) && off == delta;
}

/* ---- the tests ---- */

static void test_dso__executable(const char *exe, const char *what)
{
	struct dso_cache *c = new_cache(NULL, NULL, true);
	char *path = tpath(exe), *name;
	struct run r;

	if (!run_program(path, &r)) {
		T("test program runs", false);
		goto out;
	}
#define CHECK(label, cond) do { name = xasprintf("%s: %s", what, label); \
		T(name, cond); free(name); } while (0)
	CHECK("function start", sym_is(c, path, run__get(&r, "jt_alpha"), 0, "jt_alpha"));
	CHECK("inside a function", sym_is(c, path, run__get(&r, "jt_beta"), 3, "jt_beta"));
	CHECK("global beats weak alias",
	      sym_is(c, path, run__get(&r, "jt_alpha"), 1, "jt_alpha"));
	CHECK("global alias beats local", sym_is(c, path, run__get(&r, "jt_priv"), 0, "jt_pub"));
	CHECK("zero-sized symbol extends",
	      sym_is(c, path, run__get(&r, "jt_nosize"), 3, "jt_nosize"));
	CHECK("shared library function",
	      !strcmp(run__get(&r, "jt_lib_fn")->path, path) ||
	      sym_is(c, run__get(&r, "jt_lib_fn")->path, run__get(&r, "jt_lib_fn"), 2,
		     "jt_lib_fn"));
	CHECK("shared library static function",
	      sym_is(c, run__get(&r, "jt_lib_static")->path, run__get(&r, "jt_lib_static"), 0,
		     "jt_lib_static"));
	CHECK("maps line names the file", !strcmp(run__get(&r, "jt_alpha")->path, path));
out:
	dso_cache__delete(c);
	free(path);
}

/*
 * Non-PIE: &jt_lib_fn is the executable's PLT entry (a canonical PLT).
 * Stripped, only .dynsym is left; like perf, PLT names are made only when
 * it defines some symbol, as with -rdynamic.
 */
static void test_dso__plt(void)
{
	struct dso_cache *c = new_cache(NULL, NULL, true);
	char *exe = tpath("exe_rdyn"), *stripped = tpath("exe_rdyn_stripped");
	char *plain = tpath("exe_nopie"), *plain_stripped = tpath("exe_nopie_stripped");
	const struct seen *s;
	struct run r, rp;

	if (!run_program(exe, &r) || !run_program(plain, &rp) ||
	    sh("strip -o %s %s && strip -o %s %s", stripped, exe, plain_stripped, plain)) {
		T("plt: test programs run and strip", false);
		goto out;
	}
	s = run__get(&r, "jt_lib_fn");
	T("plt: address taken in a non-PIE is in the executable", !strcmp(s->path, exe));
	T("plt: stripped executable has name@plt", sym_is(c, stripped, s, 0, "jt_lib_fn@plt"));
	T("plt: inside a PLT entry", sym_is(c, stripped, s, 6, "jt_lib_fn@plt"));
	T("plt: exported function from .dynsym", sym_is(c, stripped, run__get(&r, "jt_beta"), 2,
							 "jt_beta"));
	T("plt: stripped executable keeps no static function",
	  strcmp(sym_at(c, stripped, run__get(&r, "jt_priv"), 0, NULL), "jt_priv"));
	T("plt: nothing defined in .dynsym, no PLT names",
	  dso__nr_symbols(dso_cache__findnew(c, plain_stripped, NULL, 0)) == 0);
out:
	dso_cache__delete(c);
	free(exe);
	free(stripped);
	free(plain);
	free(plain_stripped);
}

/*
 * A library with IFUNCs called through its own PLT: the linker writes
 * their IRELATIVE relocations after the JUMP_SLOT ones, so .rela.plt's
 * order is not the PLT's. jt_ifn_a's resolver has a shorter name (the
 * IFUNC is kept at its address), jt_ifn_b's a longer one (kept, an alias
 * of the IFUNC): perf 6.12 names either entry after the kept symbol.
 */
static const char ifunc_c[] =
	"#include <string.h>\n"
	"__attribute__((noinline)) static int jt_impl_a(int x) { return x * 3; }\n"
	"__attribute__((noinline)) static int jt_impl_b(int x) { return x * 5; }\n"
	"static void *jt_ra(void) { return (void *)jt_impl_a; }\n"
	"static void *jt_pick_longer_b(void) { return (void *)jt_impl_b; }\n"
	"int jt_ifn_a(int) __attribute__((ifunc(\"jt_ra\"), visibility(\"hidden\")));\n"
	"int jt_ifn_b(int) __attribute__((ifunc(\"jt_pick_longer_b\"), visibility(\"hidden\")));\n"
	"extern int jt_ext(int);\n"
	"int jt_call(int x) { return jt_ext(x) + jt_ifn_a(x) + jt_ifn_b(x) +\n"
	"	(int)strlen((char *)&x); }\n";

/*
 * Each .plt entry and the name it must get, from the entry's own jump
 * (objdump: the GOT slot it jumps through) and the relocation of that slot
 * (readelf): "ADDR NAME" lines, IRELATIVE ones named after their addend.
 */
static bool plt_expectations(const char *lib, const char *out)
{
	/* sh() sends the command's output to /dev/null: the file's in braces */
	return !sh("{ cd %s && { objdump -d -j .plt %s | "
		   "awk '/jmp +\\*.*# [0-9a-f]+ </ { a = $1; sub(\":\", \"\", a); "
		   "s = $0; sub(/.*# /, \"\", s); sub(/ .*/, \"\", s); print \"P\", a, s }'; "
		   "readelf -W -r %s | awk '$3 == \"R_X86_64_JUMP_SLOT\" { n = $5; "
		   "sub(/@.*/, \"\", n); print \"R\", $1, n \"@plt\" } "
		   "$3 == \"R_X86_64_IRELATIVE\" { print \"I\", $1, $4 }'; "
		   "nm %s | awk '$3 == \"jt_ifn_a\" { print \"N\", $1, \"jt_ifn_a@plt\" } "
		   "$3 == \"jt_ifn_b\" { print \"N\", $1, \"jt_pick_longer_b@plt\" }'; } | "
		   "awk '{ sub(/^0+/, \"\", $2); sub(/^0+/, \"\", $3) } "
		   "$1 == \"P\" { p[++np] = $2; slot[np] = $3 } "
		   "$1 == \"R\" { name[$2] = $3 } $1 == \"I\" { irel[$2] = $3 } "
		   "$1 == \"N\" { ifn[$2] = $3 } "
		   "END { for (i = 1; i <= np; i++) { s = slot[i]; "
		   "n = s in name ? name[s] : s in irel ? ifn[irel[s]] : \"\"; "
		   "if (s in name || s in irel) "
		   "print p[i], n, s in irel ? irel[s] : \"-\" } }' > %s; }", tmpdir, lib, lib, lib, out);
}

/* How the IFUNCs' PLT entries of a copy of the library are named. */
enum plt_copy {
	PLT_WHOLE,              /* after the IFUNC (or its alias) kept at the resolver */
	PLT_STRIPPED,           /* no .symtab: "ifunc_0xRESOLVER@plt" */
	PLT_NO_IFUNC,           /* the IFUNC symbols stripped: after the resolver */
};

/*
 * Whether each "ADDR NAME RESOLVER" line of file (RESOLVER "-" for
 * JUMP_SLOT entries) names the symbol at ADDR in path.
 */
static size_t check_plt_names(struct dso_cache *c, const char *path, const char *file,
			      enum plt_copy copy)
{
	struct dso *d = dso_cache__findnew(c, path, NULL, 0);
	char line[256], want[200], resolver[40];
	uint64_t addr, raddr;
	size_t ok = 0;
	FILE *fp = fopen(file, "r");

	while (fp && fgets(line, sizeof(line), fp)) {
		const struct symbol *sym;
		bool ifn;

		if (sscanf(line, "%" SCNx64 " %199s %39s", &addr, want, resolver) != 3)
			continue;
		sym = dso__find_symbol(d, addr);
		ifn = !strncmp(want, "jt_ifn", 6) || !strncmp(want, "jt_pick", 7);
		/* stripped: no symbol names the resolver, so its address (perf 6.12: offset_0xOFF) */
		if (copy == PLT_STRIPPED && ifn && sscanf(resolver, "%" SCNx64, &raddr) == 1)
			snprintf(want, sizeof(want), "ifunc_%#" PRIx64 "@plt", raddr);
		/* the IFUNCs stripped: jt_ifn_a's resolver, jt_ra, names it */
		if (copy == PLT_NO_IFUNC && !strcmp(want, "jt_ifn_a@plt"))
			snprintf(want, sizeof(want), "jt_ra@plt");
		if (sym && sym->start == addr && !strcmp(sym->name, want))
			ok++;
		else
			printf("# PLT entry %#" PRIx64 ": got '%s', want '%s'\n", addr,
			       sym ? sym->name : "", want);
	}
	if (fp)
		fclose(fp);
	return ok;
}

static void test_dso__plt_ifunc(void)
{
	const char *cc = getenv("CC") && getenv("CC")[0] ? getenv("CC") : "cc";
	struct dso_cache *c = new_cache(NULL, NULL, true);
	char *src = tpath("ifunc.c"), *lib = tpath("libifn.so"), *want = tpath("plt.want");
	char *stripped = tpath("libifn_stripped.so"), *no_ifunc = tpath("libifn_noifunc.so");
	const struct symbol *sym;
	uint64_t plt;

	write_file(src, ifunc_c, sizeof(ifunc_c) - 1);
	if (sh("cd %s && %s -O1 -shared -fPIC -o libifn.so ifunc.c && strip -o %s %s", tmpdir,
	       cc, stripped, lib) || !plt_expectations("libifn.so", want) ||
	    sh("test $(wc -l < %s) = 4 && ! grep -q ' $' %s", want, want)) {
		printf("ok - # skip: no x86-64 IFUNC PLT to test with\n");
		goto out;
	}
	T("plt: IRELATIVE entries named after their IFUNC, in GOT order",
	  check_plt_names(c, lib, want, PLT_WHOLE) == 4);
	T("plt: stripped, IRELATIVE entries named ifunc_0xRESOLVER",
	  check_plt_names(c, stripped, want, PLT_STRIPPED) == 4);
	if (sh("cd %s && objcopy --strip-symbol=jt_ifn_a --strip-symbol=jt_ifn_b %s %s", tmpdir,
	       lib, no_ifunc))
		printf("ok - # skip: objcopy cannot strip the IFUNC symbols\n");
	else
		T("plt: IFUNC symbols stripped, IRELATIVE entries named after the resolver",
		  check_plt_names(c, no_ifunc, want, PLT_NO_IFUNC) == 4);
	sh("{ cd %s && readelf -W -S libifn.so | awk '$2 == \".plt\" { print $4 }' > plt.addr; }",
	   tmpdir);
	{
		char *f = tpath("plt.addr");
		size_t len;
		char *text = read_file(f, &len);

		plt = strtoull(text, NULL, 16);
		free(text);
		free(f);
	}
	sym = dso__find_symbol(dso_cache__findnew(c, lib, NULL, 0), plt + 6);
	T("plt: the header is \".plt\", not _init grown over it",
	  sym && !strcmp(sym->name, ".plt") && sym->start == plt);
out:
	dso_cache__delete(c);
	free(src);
	free(lib);
	free(want);
	free(stripped);
	free(no_ifunc);
}

/* A stripped library finds its symbols through .gnu_debuglink. */
/* A build id as a recording header might give one. */
static const uint8_t hdr_id[20] = { 0xab, 0xcd };

static void test_dso__debuglink(const struct run *r)
{
	struct dso_cache *c = new_cache(NULL, NULL, true);
	char *lib = tpath("libjt.so"), *dir = tpath("dl"), *so = tpath("dl/libjt.so");
	char *dbg = tpath("dl/.debug/libjt.so.dbg");
	const struct obj_view *view;
	struct dso *d;

	if (sh("mkdir -p %s/.debug && objcopy --only-keep-debug %s %s && "
	       "objcopy --strip-all --add-gnu-debuglink=%s %s %s", dir, lib, dbg, dbg, lib, so)) {
		T("debuglink: objcopy works", false);
		goto out;
	}
	T("debuglink: static function from the debug file",
	  sym_is(c, so, run__get(r, "jt_lib_static"), 1, "jt_lib_static"));
	d = dso_cache__findnew(c, so, NULL, 0);
	T("debuglink: symfile is the debug file", dso__symfile(d) && !strcmp(dso__symfile(d), dbg));
	T("debuglink: file is the binary", dso__file(d) && !strcmp(dso__file(d), so));
	view = dso__view(d, NULL, 0);
	T("view: the files and the path as the DSO's, one view per DSO",
	  view->symfile == dso__symfile(d) && view->file == dso__file(d) &&
	  view->path == dso__path(d) && view == dso__view(d, hdr_id, 20));
out:
	dso_cache__delete(c);
	free(lib);
	free(dir);
	free(so);
	free(dbg);
}

static void mkdirs(const char *path)
{
	if (sh("mkdir -p '%s'", path))
		die("cannot create '%s'", path);
}

/* Build ids: mismatches fall back to the perf build-id cache layouts. */
static void test_dso__build_id(const struct run *r)
{
	struct dso_cache *c = new_cache(NULL, NULL, true), *c1, *c2;
	char *lib = tpath("libjt.so"), *exe = tpath("exe_pie"), *bid1 = tpath("bid1");
	char *bid2 = tpath("bid2"), *p;
	const struct seen *s = run__get(r, "jt_lib_fn");
	struct sbuf hex = SBUF_INIT;
	const uint8_t *id;
	uint8_t idc[DSO_BUILD_ID_MAX];
	size_t n, i;
	const struct obj_view *view;
	struct dso *d;
	unsigned long warned;

	id = dso__build_id(dso_cache__findnew(c, lib, NULL, 0), &n);
	T("build id: read from the file", id && n == 20);
	view = dso__view(dso_cache__findnew(c, lib, NULL, 0), hdr_id, 20);
	T("view: the file's build id before the header's",
	  view->build_id == id && view->build_id_size == n);
	view = dso__view(dso_cache__findnew(c, "/nonexistent/libnone.so", NULL, 0), hdr_id, 20);
	T("view: the header's build id for a file without one, copied",
	  view->build_id && view->build_id != hdr_id && view->build_id_size == 20 &&
	  !memcmp(view->build_id, hdr_id, 20) && !view->file && !view->symfile);
	if (!id || n != 20)
		goto out;
	memcpy(idc, id, n);
	for (i = 0; i < n; i++)
		sbuf_addf(&hex, "%02x", idc[i]);

	d = dso_cache__findnew(c, lib, idc, n);
	T("build id: a different DSO than without", d != dso_cache__findnew(c, lib, NULL, 0));
	T("build id: same key, same DSO", d == dso_cache__findnew(c, lib, idc, n));
	T("build id: matching file is used", dso__nr_symbols(d) > 0);

	/* Layout 1: buildid_dir/.build-id/xx/rest/elf; the path holds another ELF. */
	p = xasprintf("%s/.build-id/%.2s/%s", bid1, hex.buf, hex.buf + 2);
	mkdirs(p);
	free(p);
	p = xasprintf("%s/.build-id/%.2s/%s/elf", bid1, hex.buf, hex.buf + 2);
	copy_file(lib, p);
	c1 = new_cache(NULL, bid1, true);
	d = dso_cache__findnew(c1, exe, idc, n);
	T("build id: mismatch falls back to .build-id/xx/rest/elf",
	  dso__file(d) && !strcmp(dso__file(d), p));
	T("build id: symbols from the cached file",
	  dso__find_symbol(d, dso__map_ip(d, s->map_start, s->map_pgoff, s->addr)) &&
	  !strcmp(dso__find_symbol(d, dso__map_ip(d, s->map_start, s->map_pgoff,
						  s->addr))->name, "jt_lib_fn"));
	free(p);

	/* A stripped binary takes its symbols from the cache's unstripped copy. */
	p = tpath("libjt_stripped.so");
	if (sh("strip -o %s %s", p, lib))
		die("cannot strip '%s'", lib);
	T("build id: stripped binary, symbols from the cached copy",
	  sym_is(c1, p, run__get(r, "jt_lib_static"), 0, "jt_lib_static"));
	d = dso_cache__findnew(c1, p, NULL, 0);
	T("build id: stripped binary is still the file", dso__file(d) && !strcmp(dso__file(d), p));
	free(p);

	/* Layout 2: buildid_dir/<path>/<hex>/elf, for a path that is gone. */
	p = xasprintf("%s/opt/gone/libjt.so/%s", bid2, hex.buf);
	mkdirs(p);
	free(p);
	p = xasprintf("%s/opt/gone/libjt.so/%s/elf", bid2, hex.buf);
	copy_file(lib, p);
	c2 = new_cache(NULL, bid2, true);
	d = dso_cache__findnew(c2, "/opt/gone/libjt.so", idc, n);
	T("build id: <path>/<hex>/elf layout", dso__file(d) && !strcmp(dso__file(d), p));
	T("build id: symbols from it", dso__nr_symbols(d) > 0);
	free(p);

	/* " (deleted)": the old path is fine when the build id proves it. */
	p = xasprintf("%s (deleted)", lib);
	d = dso_cache__findnew(c, p, idc, n);
	T("build id: deleted file found by build id",
	  dso__file(d) && !strcmp(dso__file(d), lib));
	T("build id: deleted file without build id stays empty",
	  dso__nr_symbols(dso_cache__findnew(c, p, NULL, 0)) == 0);
	free(p);

	/* Nothing matches: no symbols rather than wrong ones, and a warning. */
	warned = msg_warning_count();
	d = dso_cache__findnew(c2, exe, idc, n);
	T("build id: no match gives no symbols", dso__nr_symbols(d) == 0 && !dso__file(d));
	T("build id: no match warns", msg_warning_count() == warned + 1);
	T("build id: no match finds nothing", dso__find_symbol(d, s->addr) == NULL);
	dso_cache__delete(c1);
	dso_cache__delete(c2);
out:
	dso_cache__delete(c);
	sbuf_release(&hex);
	free(lib);
	free(exe);
	free(bid1);
	free(bid2);
}

/* symfs: paths are looked up under it and symlinks stay inside it. */
static void test_dso__symfs(const struct run *r)
{
	char *root = tpath("root"), *lib = tpath("libjt.so"), *p;
	struct dso_cache *c = new_cache(root, NULL, true);
	const struct seen *s = run__get(r, "jt_lib_static");
	struct dso *d;

	mkdirs(root);
	p = xasprintf("%s/usr/lib/jt", root);
	mkdirs(p);
	free(p);
	p = xasprintf("%s/usr/lib/jt/libjt.so", root);
	copy_file(lib, p);
	free(p);
	sh("ln -s /usr/lib %s/lib", root);                 /* absolute: means root/usr/lib */
	sh("ln -s ../../../libjt.so %s/usr/lib/escape.so", root);   /* would leave root */
	sh("ln -s ../../../../../../../../../../../../%s %s/usr/lib/deep.so", lib, root);

	T("symfs: file under the root", sym_is(c, "/usr/lib/jt/libjt.so", s, 0, "jt_lib_static"));
	T("symfs: absolute symlink resolved inside the root",
	  sym_is(c, "/lib/jt/libjt.so", s, 0, "jt_lib_static"));
	d = dso_cache__findnew(c, "/usr/lib/escape.so", NULL, 0);
	T("symfs: relative symlink cannot climb out", !dso__file(d) && !dso__nr_symbols(d));
	d = dso_cache__findnew(c, "/usr/lib/deep.so", NULL, 0);
	T("symfs: many '..' stop at the root", !dso__file(d));
	d = dso_cache__findnew(c, lib, NULL, 0);
	T("symfs: the host path itself is not used", !dso__file(d));
	dso_cache__delete(c);
	free(root);
	free(lib);
}

static void test_dso__bad_files(const struct run *r)
{
	struct dso_cache *c = new_cache(NULL, NULL, true);
	char *txt = tpath("not-elf.txt"), *lib = tpath("libjt.so"), *cut = NULL;
	static const char text[] = "this is not an ELF file\n";
	const struct seen *s = run__get(r, "jt_lib_fn");
	size_t len, sizes[] = { 0, 4, 16, 63, 64, 65, 200, 1000, 4096, 0, 0 };
	char *data = read_file(lib, &len);
	unsigned long warned = msg_warning_count();
	struct dso *d;
	size_t i, k;
	bool ok = true;

	write_file(txt, text, sizeof(text) - 1);
	d = dso_cache__findnew(c, txt, NULL, 0);
	T("not ELF: no symbols", dso__nr_symbols(d) == 0 && !dso__find_symbol(d, 0x10));
	T("not ELF: warns", msg_warning_count() > warned);
	T("not ELF: map_ip is the file offset", dso__map_ip(d, 0x1000, 0x200, 0x1010) == 0x210);

	d = dso_cache__findnew(c, "//anon", NULL, 0);
	T("//anon: no symbols", dso__nr_symbols(d) == 0);
	d = dso_cache__findnew(c, "[vdso]", NULL, 0);
	T("[vdso] without build id: no symbols", dso__nr_symbols(d) == 0);
	d = dso_cache__findnew(c, "/nonexistent/jitsym/libnothing.so", NULL, 0);
	T("missing file: no symbols", dso__nr_symbols(d) == 0 && !dso__symfile(d));

	/* Truncations: every prefix size must load without crashing. */
	sizes[9] = len / 2;
	sizes[10] = len - 1;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		free(cut);
		cut = xasprintf("%s/cut-%zu.so", tmpdir, sizes[i]);
		write_file(cut, data, sizes[i] < len ? sizes[i] : len);
		d = dso_cache__findnew(c, cut, NULL, 0);
		dso__find_symbol(d, dso__map_ip(d, s->map_start, s->map_pgoff, s->addr));
	}
	T("truncated ELF files: no crash", true);

	/* Corruptions: overwrite the ELF header fields and section headers. */
	for (k = 0; k < 400; k++) {
		char *bad = xmalloc(len);
		size_t off;

		memcpy(bad, data, len);
		srand((unsigned)k);
		for (i = 0; i < 8; i++) {
			off = k < 200 ? (size_t)rand() % 64 : (size_t)rand() % len;
			bad[off] = (char)rand();
		}
		/* and the section header table, where most of the damage hurts */
		for (i = 0; i < 4 && len > 4096; i++) {
			off = len - 1 - (size_t)rand() % 2048;
			bad[off] = (char)rand();
		}
		free(cut);
		cut = xasprintf("%s/bad-%zu.so", tmpdir, k);
		write_file(cut, bad, len);
		free(bad);
		d = dso_cache__findnew(c, cut, NULL, 0);
		dso__find_symbol(d, dso__map_ip(d, s->map_start, s->map_pgoff, s->addr));
		unlink(cut);
	}
	T("corrupted ELF files: no crash", ok);
	dso_cache__delete(c);
	free(cut);
	free(data);
	free(txt);
	free(lib);
}

/*
 * An ELF image from memory reads as the same file opened by path; the
 * running vdso, read from this process, stands in for a [vdso] whose
 * recorded build id is its own, kept open for dso__elf_image(); never
 * without the recording's context.
 */
static void test_dso__running_vdso(void)
{
	char *lib = tpath("libjt.so"), *data;
	struct elf_image *file, *mem, *run;
	struct elf_segment *fsegs = NULL, *msegs = NULL;
	size_t len, fn = 0, mn = 0, nf, nm, rn = 0;
	const uint8_t *fid, *mid, *rid;
	uint8_t a[64], b[64], id[DSO_BUILD_ID_MAX];
	struct dso_recording rec = { .pipe_mode = true };
	struct dso_opts o = { .buildid_dir = NULL };
	struct dso_cache *c;
	struct dso *d;
	unsigned long warned;
	struct utsname u;

	data = read_file(lib, &len);
	file = elf_image__open(lib);
	mem = elf_image__open_memory("mem", data, len);
	T("memory image: opens", file && mem && elf_image__in_memory(mem) &&
	  !elf_image__in_memory(file));
	if (file && mem) {
		fid = elf_image__build_id(file, &fn);
		mid = elf_image__build_id(mem, &mn);
		T("memory image: the file's build id", fn && fn == mn && !memcmp(fid, mid, fn));
		nf = elf_image__segments(file, &fsegs);
		nm = elf_image__segments(mem, &msegs);
		T("memory image: the file's segments", nf && nf == nm &&
		  !memcmp(fsegs, msegs, nf * sizeof(*fsegs)));
		T("memory image: pread gives the file's bytes",
		  elf_image__pread(file, a, sizeof(a), 8) == (ssize_t)sizeof(a) &&
		  elf_image__pread(mem, b, sizeof(b), 8) == (ssize_t)sizeof(b) &&
		  !memcmp(a, b, sizeof(a)));
		T("memory image: pread at the end gives 0, short before it",
		  elf_image__pread(mem, a, sizeof(a), len) == 0 &&
		  elf_image__pread(mem, a, sizeof(a), len - 3) == 3);
		T("memory image: a symtab as the file's", elf_image__has_symtab(mem) ==
		  elf_image__has_symtab(file));
	}
	elf_image__delete(file);
	elf_image__delete(mem);
	free(fsegs);
	free(msegs);
	errno = 0;
	T("memory image: not ELF is ENOEXEC",
	  !elf_image__open_memory("junk", "not an ELF file", 15) && errno == ENOEXEC);
	free(data);
	free(lib);

	if (!getauxval(AT_SYSINFO_EHDR)) {
		printf("ok - # skip: this process has no vdso\n");
		return;
	}
	run = dso_locator__running_vdso();
	rid = run ? elf_image__build_id(run, &rn) : NULL;
	T("running vdso: read from memory, with a build id", run && elf_image__in_memory(run) &&
	  rid && rn > 0 && rn <= sizeof(id));
	if (!rid || rn > sizeof(id)) {
		elf_image__delete(run);
		return;
	}
	memcpy(id, rid, rn);
	elf_image__delete(run);

	/* the running vdso's build id: named from it, kept open, no warning */
	o.buildid_dir = tpath("no-buildid-cache");
	o.rec = &rec;
	rec.osrelease = "0.0-another";
	c = dso_cache__new(&o, pool);
	warned = msg_warning_count();
	d = dso_cache__findnew(c, "[vdso]", id, rn);
	T("running vdso: its build id gives its symbols", dso__nr_symbols(d) > 0 &&
	  msg_warning_count() == warned);
	T("running vdso: no file to open by name (srcline, DWARF)", !dso__file(d) &&
	  !dso__symfile(d));
	T("running vdso: the image stays open (no path to open again)",
	  dso__elf_image(d) && elf_image__in_memory(dso__elf_image(d)) &&
	  dso__debug_elf_image(d) == dso__elf_image(d));
	/* another build id: nothing, one warning */
	id[0] ^= 0xff;
	warned = msg_warning_count();
	d = dso_cache__findnew(c, "[vdso]", id, rn);
	T("running vdso: another build id is refused, with a warning",
	  dso__nr_symbols(d) == 0 && !dso__file(d) && msg_warning_count() == warned + 1);
	/* no build id, another kernel release: nothing */
	warned = msg_warning_count();
	d = dso_cache__findnew(c, "[vdso]", NULL, 0);
	T("running vdso: no build id, another release: refused, with a warning",
	  dso__nr_symbols(d) == 0 && msg_warning_count() == warned + 1);
	dso_cache__delete(c);
	/* no build id, this kernel's release and hostname: used, with a warning */
	if (!uname(&u)) {
		rec.osrelease = u.release;
		rec.hostname = u.nodename;
		c = dso_cache__new(&o, pool);
		warned = msg_warning_count();
		d = dso_cache__findnew(c, "[vdso]", NULL, 0);
		T("running vdso: no build id, this release and host: used, said",
		  dso__nr_symbols(d) > 0 && msg_warning_count() == warned + 1);
		dso_cache__delete(c);
	}
	/* no recording context: never the host's */
	o.rec = NULL;
	c = dso_cache__new(&o, pool);
	d = dso_cache__findnew(c, "[vdso]", NULL, 0);
	T("running vdso: never without the recording's context", dso__nr_symbols(d) == 0);
	dso_cache__delete(c);
	free((char *)o.buildid_dir);
}

static void test_dso__no_demangle(const struct run *r)
{
	struct dso_cache *c = new_cache(NULL, NULL, false);
	char *lib = tpath("libjt.so");

	T("no-demangle: C names unchanged",
	  sym_is(c, lib, run__get(r, "jt_lib_fn"), 0, "jt_lib_fn"));
	dso_cache__delete(c);
	free(lib);
}

static bool demangles(const char *in, unsigned int flags, const char *want)
{
	char *out = demangle__name(in, flags);
	bool ok = want ? out && !strcmp(out, want) : !out;

	if (!ok)
		printf("# demangle '%s': got '%s', want '%s'\n", in, out ? out : "(null)",
		       want ? want : "(null)");
	free(out);
	return ok;
}

static void test_demangle(void)
{
	T("demangle: C++ without parameters, as perf",
	  demangles("_ZN2ns3BoxIdE4spinEi", 0, "ns::Box<double>::spin"));
	T("demangle: C++ with parameters",
	  demangles("_ZN2ns4workEi", DEMANGLE_PARAMS, "ns::work(int)"));
	T("demangle: C++ clone suffix only with parameters",
	  demangles("_ZN2ns4workEi.cold", 0, "ns::work") &&
	  demangles("_ZN2ns4workEi.cold", DEMANGLE_PARAMS, "ns::work(int) [clone .cold]"));
	T("demangle: Rust legacy drops the hash",
	  demangles("_ZN35_$LT$m..Dog$u20$as$u20$m..Speak$GT$5speak17h1f6bb5561f4554daE", 0,
		    "<m::Dog as m::Speak>::speak"));
	T("demangle: Rust legacy, plain path",
	  demangles("_ZN3std2rt10lang_start17h5cd4b1f2a0f1e3c7E", 0, "std::rt::lang_start"));
	T("demangle: Rust legacy with a hash libiberty rejects",
	  demangles("_ZN3foo3bar17h0000000000000000E", 0, "foo::bar"));
	T("demangle: Rust v0",
	  demangles("_RNvXs_CskK7mfDs1mzF_1mNtB4_3DogNtB4_5Speak5speak", 0,
		    "<m::Dog as m::Speak>::speak"));
	T("demangle: OCaml", demangles("camlStdlib__List__map_123", 0, "Stdlib.List.map_123"));
	T("demangle: C name is not mangled", demangles("main", 0, NULL));
	T("demangle: garbage is not mangled", demangles("_Zgarbage", 0, NULL));
	T("demangle: versioned name left alone", demangles("memcpy@@GLIBC_2.14", 0, NULL));
}

int main(void)
{
	struct run r;
	char *exe;

	verbosity = -1;   /* warnings are counted, not shown */
	pool = strpool__new();
	test_demangle();
	T("dso_cache__delete(NULL)", (dso_cache__delete(NULL), true));

	tmpdir_create("t-dso", "T_DSO_KEEP");
	if (!build_programs()) {
		printf("ok - # skip: no working C compiler for the ELF tests\n");
		strpool__delete(pool);
		return test_done();
	}
	test_dso__executable("exe_pie", "PIE");
	test_dso__executable("exe_nopie", "non-PIE");
	test_dso__plt();
	test_dso__plt_ifunc();
	exe = tpath("exe_pie");
	if (run_program(exe, &r)) {
		test_dso__debuglink(&r);
		test_dso__build_id(&r);
		test_dso__symfs(&r);
		test_dso__bad_files(&r);
		test_dso__no_demangle(&r);
		test_dso__running_vdso();
	} else {
		T("PIE test program runs", false);
	}
	free(exe);
	strpool__delete(pool);
	return test_done();
}
