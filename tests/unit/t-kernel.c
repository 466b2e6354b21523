/*
 * Unit tests for src/resolve/kernel.c: kallsyms parsing and symbol extents on a
 * synthetic file, the build-id note parser, and the kallsyms policy.
 */
#include "common/common.h"
#include "resolve/kernel.h"
#include "common/sbuf.h"
#include "common/strpool.h"

#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* the project's one test harness: T(name, cond), test_done() */
#include "test.h"

static char tmpdir[256];

static char *write_file(const char *name, const char *data, size_t len)
{
	char *path = xasprintf("%s/%s", tmpdir, name);
	FILE *fp = fopen(path, "wb");

	if (!fp || fwrite(data, 1, len, fp) != len || fclose(fp))
		die("cannot write '%s'", path);
	return path;
}

static bool sym_is(const struct ksym *s, const char *name)
{
	return s && !strcmp(s->name, name);
}

/* Unsorted, aliased, with modules, dropped types, zero and bad lines. */
static const char kallsyms_text[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000200 t beta\n"
	"ffffffff81000100 T alpha\n"
	"ffffffff81000300 R rodata_thing\n"
	"ffffffff81000400 W gamma\n"
	"0000000000000000 D percpu_zero\n"
	"ffffffff81000500 d data_sym\n"
	"ffffffff81000600 A abs_sym\n"
	"\n"
	"   \n"
	"ffffffff81001234 t core_last\n"
	"ffffffffc0001000 t mod_a1\t[moda]\n"
	"ffffffffc0001080 t mod_a2\t[moda]\n"
	"ffffffffc0010000 t mod_b1\t[modb]\n"
	"ffffffffc0010100 t bpf_prog_abc_foo\t[bpf]\n"
	"ffffffffc0010200 t $x\t[modb]\n"
	/* malformed, one per reason */
	"not_hex T foo\n"
	"ffffffff81000700\n"
	"ffffffff81000700 TT foo\n"
	"ffffffff81000700 T\n"
	"ffffffff81000700 T foo bar\n"
	"ffffffff81000700 T foo\t[mod] x\n"
	"ffffffff81000700 T foo\t[]\n"
	"1ffffffff81000700 T foo\n"
	"@LONG@\n"
	"ffffffff81000700 T f\0oo\n"
	/* last line, no trailing newline */
	"ffffffffc0020000 T last_one\t[modc]";
#define NR_MALFORMED 10

static char *make_kallsyms(void)
{
	struct sbuf sb = SBUF_INIT;
	const char *long_at = strstr(kallsyms_text, "@LONG@");
	size_t i, len;
	char *buf, *path;

	sbuf_add(&sb, kallsyms_text, (size_t)(long_at - kallsyms_text));
	sbuf_addstr(&sb, "ffffffff81000700 T ");
	for (i = 0; i < 2000; i++)
		sbuf_addch(&sb, 'x');
	/* the rest, including the NUL-containing line, by explicit length */
	sbuf_add(&sb, long_at + 6,
		 sizeof(kallsyms_text) - 1 - (size_t)(long_at + 6 - kallsyms_text));
	buf = sbuf_detach(&sb, &len);
	path = write_file("kallsyms", buf, len);
	free(buf);
	return path;
}

static void test_kernel__load_synthetic(struct strpool *pool)
{
	unsigned long warn0 = msg_warning_count();
	char *path = make_kallsyms();
	struct kernel_syms *ks = kernel_syms__load(path, pool);
	const struct ksym *s, *a1, *a2;
	size_t i;
	bool sorted = true;

	T("kallsyms: loads", ks != NULL);
	if (!ks) {
		free(path);
		return;
	}
	T("kallsyms: one warning per malformed line",
	  msg_warning_count() - warn0 == NR_MALFORMED);
	T("kallsyms: keeps T t W w D d B b, drops R A $ and zero",
	  kernel_syms__nr(ks) == 11);
	for (i = 0; i + 1 < kernel_syms__nr(ks); i++)
		if (kernel_syms__at(ks, i)->start >= kernel_syms__at(ks, i + 1)->start ||
		    kernel_syms__at(ks, i)->end <= kernel_syms__at(ks, i)->start)
			sorted = false;
	T("kallsyms: sorted, unique starts, non-empty", sorted);
	T("kallsyms: at() out of range is NULL", !kernel_syms__at(ks, 99));

	T("find: below first symbol misses", !kernel_syms__find(ks, 0xffffffff80ffffffULL));
	T("find: alias listed last wins", sym_is(kernel_syms__find(ks, 0xffffffff81000000ULL), "_stext"));
	T("find: alias end is next start", sym_is(kernel_syms__find(ks, 0xffffffff810000ffULL), "_stext"));
	T("find: unsorted input, exact start", sym_is(kernel_syms__find(ks, 0xffffffff81000100ULL), "alpha"));
	T("find: dropped R does not end beta", sym_is(kernel_syms__find(ks, 0xffffffff81000350ULL), "beta"));
	s = kernel_syms__find(ks, 0xffffffff81000400ULL);
	T("find: weak symbol kept", sym_is(s, "gamma") && s->type == 'W');
	s = kernel_syms__find(ks, 0xffffffff810011ffULL);
	T("find: data symbol kept and extends", sym_is(s, "data_sym") && s->type == 'd');
	s = kernel_syms__find(ks, 0xffffffff81002fffULL);
	T("find: last core symbol before modules ends a page past round-up",
	  sym_is(s, "core_last") && s->end == 0xffffffff81003000ULL);
	T("find: past core_last misses", !kernel_syms__find(ks, 0xffffffff81003000ULL));
	T("find: core symbol has no module", s && !s->module);
	T("dso: core kernel", s && !strcmp(ksym__dso_name(s), "[kernel.kallsyms]"));

	a1 = kernel_syms__find(ks, 0xffffffffc0001000ULL);
	a2 = kernel_syms__find(ks, 0xffffffffc0002fffULL);
	T("find: module symbol", sym_is(a1, "mod_a1") && a1->module && !strcmp(a1->module, "moda"));
	T("dso: module in brackets", a1 && !strcmp(ksym__dso_name(a1), "[moda]"));
	T("module names are interned", a1 && a2 && a1->module == a2->module);
	T("find: last symbol of a module ends a page past round-up",
	  sym_is(a2, "mod_a2") && a2->end == 0xffffffffc0003000ULL);
	T("find: gap between modules misses", !kernel_syms__find(ks, 0xffffffffc0003000ULL));
	s = kernel_syms__find(ks, 0xffffffffc00100ffULL);
	T("find: module symbol before another module's", sym_is(s, "mod_b1") && s->end == 0xffffffffc0010100ULL);
	s = kernel_syms__find(ks, 0xffffffffc0010300ULL);
	T("find: '$' symbol dropped", sym_is(s, "bpf_prog_abc_foo"));
	T("dso: bpf program named after itself", s && !strcmp(ksym__dso_name(s), "bpf_prog_abc_foo"));
	s = kernel_syms__find(ks, 0xffffffffc0020fffULL);
	T("find: line without newline, last symbol", sym_is(s, "last_one") && !strcmp(s->module, "modc"));
	T("find: page-aligned last symbol ends one page later",
	  s && s->end == 0xffffffffc0021000ULL && !kernel_syms__find(ks, 0xffffffffc0021000ULL));
	T("find: top of address space misses", !kernel_syms__find(ks, UINT64_MAX));
	T("dso: NULL is [unknown]", !strcmp(ksym__dso_name(NULL), "[unknown]"));

	kernel_syms__delete(ks);
	unlink(path);
	free(path);
}

static void test_kernel__load_failures(struct strpool *pool)
{
	static const char zeros[] =
		"0000000000000000 T _text\n"
		"0000000000000000 t foo\n"
		"0000000000000000 t bar\t[mod]\n";
	static const char top[] = "fffffffffffff800 t top\n";
	char *path;
	struct kernel_syms *ks;
	unsigned long warn0;

	errno = 0;
	path = xasprintf("%s/missing", tmpdir);
	T("load: missing file is NULL/ENOENT",
	  !kernel_syms__load(path, pool) && errno == ENOENT);
	free(path);

	path = write_file("zeros", zeros, sizeof(zeros) - 1);
	warn0 = msg_warning_count();
	errno = 0;
	T("load: kptr_restrict (all zero) is NULL/ENODATA",
	  !kernel_syms__load(path, pool) && errno == ENODATA);
	T("load: kptr_restrict warns", msg_warning_count() == warn0 + 1);
	unlink(path);
	free(path);

	path = write_file("empty", "", 0);
	T("load: empty file is NULL", !kernel_syms__load(path, pool));
	unlink(path);
	free(path);

	path = write_file("top", top, sizeof(top) - 1);
	ks = kernel_syms__load(path, pool);
	T("load: symbol near the top saturates its end",
	  ks && kernel_syms__at(ks, 0)->end == UINT64_MAX &&
	  sym_is(kernel_syms__find(ks, UINT64_MAX - 1), "top"));
	kernel_syms__delete(ks);
	kernel_syms__delete(NULL);
	unlink(path);
	free(path);
}

/* kernel_syms__new(): nothing is read until the symbols are needed. */
static void test_kernel__lazy(struct strpool *pool)
{
	static const char text[] =
		"ffffffff81000000 T first\n"
		"ffffffff81000100 t second\n"
		"ffffffffc0000000 t bpf_prog_1_x\t[bpf]\n";
	static const char empty[] = "0000000000000000 T _text\n";
	char *path = xasprintf("%s/lazy", tmpdir), *epath;
	struct kernel_syms *ks = kernel_syms__new(path, pool);
	const struct ksym *s;
	unsigned long warn0;

	/* written after kernel_syms__new(): only a later read can see it */
	free(write_file("lazy", text, sizeof(text) - 1));
	s = kernel_syms__find(ks, 0xffffffff81000104ULL);
	T("lazy: read at the first find", sym_is(s, "second") && s->start == 0xffffffff81000100ULL);
	T("lazy: names are interned", s && s->name == strpool__intern(pool, "second"));
	T("lazy: usable after reading", kernel_syms__usable(ks) && kernel_syms__nr(ks) == 3);
	s = kernel_syms__at(ks, 2);
	T("lazy: a BPF program's DSO is its name", s && s->dso == s->name &&
	  !strcmp(ksym__dso_name(s), "bpf_prog_1_x"));
	kernel_syms__delete(ks);
	unlink(path);

	/* a missing file: no message until used, then an empty set */
	ks = kernel_syms__new(path, pool);
	T("lazy: missing file is not usable", !kernel_syms__usable(ks));
	T("lazy: missing file finds nothing",
	  !kernel_syms__find(ks, 0xffffffff81000000ULL) && !kernel_syms__nr(ks) &&
	  !kernel_syms__at(ks, 0));
	kernel_syms__delete(ks);
	kernel_syms__delete(kernel_syms__new(path, pool));   /* never read */
	free(path);

	epath = write_file("lazy-zeros", empty, sizeof(empty) - 1);
	warn0 = msg_warning_count();
	ks = kernel_syms__new(epath, pool);
	T("lazy: no warning before use", msg_warning_count() == warn0);
	T("lazy: kptr_restrict file is not usable", !kernel_syms__usable(ks));
	T("lazy: warns once, when used", msg_warning_count() == warn0 + 1 &&
	  !kernel_syms__usable(ks) && msg_warning_count() == warn0 + 1);
	kernel_syms__delete(ks);
	unlink(epath);
	free(epath);
}

static size_t put_note(unsigned char *p, const char *name, uint32_t namesz,
		       uint32_t type, const unsigned char *desc, uint32_t descsz)
{
	size_t off = 12;

	memcpy(p, &namesz, 4);
	memcpy(p + 4, &descsz, 4);
	memcpy(p + 8, &type, 4);
	memcpy(p + off, name, namesz);
	off += (namesz + 3) & ~3u;
	memcpy(p + off, desc, descsz);
	return off + ((descsz + 3) & ~3u);
}

static void test_kernel__notes(void)
{
	unsigned char buf[256] = { 0 }, id[20], out[64];
	size_t len;
	uint32_t huge = 0xffffffffu, six = 6;
	size_t i;

	for (i = 0; i < sizeof(id); i++)
		id[i] = (unsigned char)(0xa0 + i);
	len = put_note(buf, "Linux", 6, 0x101, (const unsigned char *)"\1\2\3\4\5", 5);
	len += put_note(buf + len, "GNU", 4, 3, id, sizeof(id));
	T("notes: finds GNU build id after another note",
	  kernel__notes_build_id(buf, len, out, sizeof(out)) == 20 && !memcmp(out, id, 20));
	T("notes: truncated desc is -EINVAL",
	  kernel__notes_build_id(buf, len - 1, out, sizeof(out)) == -EINVAL);
	T("notes: small output is -ENOSPC",
	  kernel__notes_build_id(buf, len, out, 8) == -ENOSPC);
	T("notes: no GNU note is -ENOENT",
	  kernel__notes_build_id(buf, 12 + 8 + 8, out, sizeof(out)) == -ENOENT);
	T("notes: empty is -ENOENT", kernel__notes_build_id(buf, 0, out, sizeof(out)) == -ENOENT);
	memcpy(buf, &huge, 4);
	T("notes: huge namesz is -EINVAL",
	  kernel__notes_build_id(buf, len, out, sizeof(out)) == -EINVAL);
	memcpy(buf, &six, 4);
	memcpy(buf + 4, &huge, 4);
	T("notes: huge descsz is -EINVAL",
	  kernel__notes_build_id(buf, len, out, sizeof(out)) == -EINVAL);
	len = put_note(buf, "GNU", 4, 3, id, 18);
	T("notes: last note's padding may be cut off",
	  kernel__notes_build_id(buf, len - 2, out, sizeof(out)) == 18 && !memcmp(out, id, 18));
	/* type 3 with another owner is not a build id */
	len = put_note(buf, "GNX", 4, 3, id, sizeof(id));
	T("notes: other owner ignored", kernel__notes_build_id(buf, len, out, sizeof(out)) == -ENOENT);
}

static void test_kernel__running(void)
{
	uint8_t id[64], padded[24] = { 0 };
	struct utsname u;
	const char *why = NULL;
	int n = kernel__running_build_id(id, sizeof(id));

	if (uname(&u) < 0)
		die("uname failed");
	T("running: osrelease NULL never matches",
	  !kernel__running_matches(NULL, NULL, 0, &why) && why);
	T("running: other release does not match",
	  !kernel__running_matches("0.0.0-not-this-one", NULL, 0, NULL));
	T("running: same release, no build id matches",
	  kernel__running_matches(u.release, NULL, 0, NULL));
	if (n <= 0 || (size_t)n > sizeof(padded)) {
		printf("# skip: no readable build id in /sys/kernel/notes (%d)\n", n);
		return;
	}
	T("running: same release and build id match",
	  kernel__running_matches(u.release, id, (size_t)n, NULL));
	memcpy(padded, id, (size_t)n);
	T("running: zero-padded build id matches",
	  kernel__running_matches(u.release, padded, sizeof(padded), NULL));
	id[0] ^= 1;
	why = NULL;
	T("running: other build id does not match",
	  !kernel__running_matches(u.release, id, (size_t)n, &why) && why);
	padded[sizeof(padded) - 1] = 1;
	T("running: non-zero padding does not match",
	  !kernel__running_matches(u.release, padded, sizeof(padded), NULL));
}

static void test_kernel__kallsyms_path(void)
{
	static const uint8_t id[20] = { 0xe4, 0xf1, 0x00, 0x0a };
	char *old_home = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
	char *dir, *sub, *file, *p;
	uint8_t padded[24] = { 0 };

	p = kernel__kallsyms_path("/x/kallsyms", NULL, NULL, 0);
	T("path: --kallsyms wins", p && !strcmp(p, "/x/kallsyms"));
	free(p);

	setenv("HOME", tmpdir, 1);
	T("path: no match and no cache is NULL",
	  !kernel__kallsyms_path(NULL, "0.0.0-not-this-one", id, sizeof(id)));

	dir = xasprintf("%s/.debug", tmpdir);
	sub = xasprintf("%s/[kernel.kallsyms]", dir);
	file = xasprintf("%s/e4f1000a00000000000000000000000000000000", sub);
	if (mkdir(dir, 0700) || mkdir(sub, 0700) || mkdir(file, 0700))
		die("cannot create build-id cache in '%s'", tmpdir);
	free(write_file(".debug/[kernel.kallsyms]/e4f1000a00000000000000000000000000000000/kallsyms",
			"ffffffff81000000 T _text\n", 25));
	p = kernel__kallsyms_path(NULL, "0.0.0-not-this-one", id, sizeof(id));
	T("path: build-id cache copy", p && strstr(p, "/.debug/[kernel.kallsyms]/e4f1000a0000") &&
	  !access(p, R_OK));
	free(p);
	memcpy(padded, id, sizeof(id));
	p = kernel__kallsyms_path(NULL, NULL, padded, sizeof(padded));
	T("path: padded build id finds the cache copy", p != NULL);
	if (p)
		unlink(p);
	free(p);
	rmdir(file);
	rmdir(sub);
	rmdir(dir);
	free(file);
	free(sub);
	free(dir);
	if (old_home)
		setenv("HOME", old_home, 1);
	else
		unsetenv("HOME");
	free(old_home);
}

/* The live /proc/kallsyms, when it is readable and not restricted. */
static void test_kernel__proc(struct strpool *pool)
{
	struct kernel_syms *ks;
	const struct ksym *first;
	FILE *fp = fopen(KERNEL_PROC_KALLSYMS, "r");
	char line[64] = "";

	if (!fp) {
		printf("# skip: no %s\n", KERNEL_PROC_KALLSYMS);
		return;
	}
	if (!fgets(line, sizeof(line), fp))
		line[0] = '\0';
	fclose(fp);
	if (!strncmp(line, "0000000000000000", 16)) {
		printf("# skip: %s is restricted\n", KERNEL_PROC_KALLSYMS);
		return;
	}
	ks = kernel_syms__load(KERNEL_PROC_KALLSYMS, pool);
	first = ks ? kernel_syms__at(ks, 0) : NULL;
	T("proc: loads many symbols", ks && kernel_syms__nr(ks) > 1000);
	T("proc: first symbol finds itself", first && kernel_syms__find(ks, first->start) == first);
	kernel_syms__delete(ks);
}

/*
 * Lines spelt otherwise than the kernel writes them (which the parser
 * takes in one pass) but meaning the same: the same table.
 */
static void test_kernel__spellings(struct strpool *pool)
{
	static const char usual[] =
		"ffffffff81000000 T first\n"
		"ffffffff81000100 t second\n"
		"ffffffff81000200 T third\n"
		"ffffffff81000300 T fourth\n"
		"ffffffff81000400 T fifth\n"
		"ffffffffc0000000 t in_mod\t[mod]\n"
		"ffffffffc0000100 t in_mod2\t[mod]\n"
		"ffffffffc0000200 t last\t[mod2]\n";
	static const char unusual[] =
		"  ffffffff81000000 T first\n"         /* leading blanks */
		"ffffffff81000100  t second\r\n"      /* two spaces; CR */
		"FFFFFFFF81000200 T third \n"          /* upper case; a trailing blank */
		"ffffffff81000300\tT\tfourth\n"       /* tabs */
		"0ffffffff81000400 T fifth\n"          /* 17 digits */
		"ffffffffc0000000 t in_mod [mod]\n"    /* the module after a space */
		"ffffffffc0000100 t in_mod2\t\t[mod]\t\n"
		"ffffffffc0000200 t last\t[mod2]";     /* no newline at the end */
	char *pu = write_file("usual", usual, sizeof(usual) - 1);
	char *pn = write_file("unusual", unusual, sizeof(unusual) - 1);
	struct kernel_syms *a = kernel_syms__load(pu, pool), *b = kernel_syms__load(pn, pool);
	size_t i, same = 0, n = a ? kernel_syms__nr(a) : 0;

	T("spellings: the usual lines load", n == 8);
	T("spellings: as many from the others", b && kernel_syms__nr(b) == n);
	for (i = 0; b && i < n && i < kernel_syms__nr(b); i++) {
		const struct ksym *x = kernel_syms__at(a, i), *y = kernel_syms__at(b, i);

		same += x->start == y->start && x->end == y->end && x->type == y->type &&
			!strcmp(x->name, y->name) && x->dso == y->dso && x->module == y->module;
	}
	T("spellings: the same symbols, ends, types and modules", n && same == n);
	kernel_syms__delete(a);
	kernel_syms__delete(b);
	unlink(pu);
	unlink(pn);
	free(pu);
	free(pn);
}

int main(void)
{
	struct strpool *pool = strpool__new();
	const char *base = getenv("TMPDIR");
	int n;

	n = snprintf(tmpdir, sizeof(tmpdir), "%s/t-kernel.XXXXXX",
		     base && *base ? base : "/tmp");
	if (n < 0 || (size_t)n >= sizeof(tmpdir) || !mkdtemp(tmpdir))
		die("cannot create a temporary directory");

	test_kernel__load_synthetic(pool);
	test_kernel__load_failures(pool);
	test_kernel__lazy(pool);
	test_kernel__notes();
	test_kernel__running();
	test_kernel__kallsyms_path();
	test_kernel__proc(pool);
	test_kernel__spellings(pool);

	rmdir(tmpdir);
	strpool__delete(pool);
	return test_done();
}
