/*
 * Unit tests for src/common/tarzst.c, the bundle container: members
 * written and read back (empty, 1, 512, 513 bytes, 1 MiB of random bytes,
 * a mostly-zero file copied back sparse, a symbolic link, names of 150
 * and 300 bytes, mtimes ustar cannot hold), the same bytes for the same
 * input, GNU tar reading ours and us reading GNU tar's (when tar has
 * --zstd), write errors, and damaged input: archives cut at many points,
 * a bad checksum, bad pax records, refused names, kinds skipped with a
 * warning. Hand-made tar streams are built here, independently of the
 * writer, and compressed with ZSTD_compress().
 */
#include "common/common.h"
#include "common/tarzst.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <zstd.h>

/* the project's one test harness: T(name, cond), test_done() */
#include "test.h"
#include "test-files.h"

#define MIB (1u << 20)
#define ZERO_FILE_SIZE (24u * MIB)

/* ---- messages ----------------------------------------------------------- */

static char said[64][512];
static size_t nr_said;

static void sink(const char *line)
{
	if (nr_said < ARRAY_SIZE(said))
		snprintf(said[nr_said], sizeof(said[0]), "%s", line);
	nr_said++;
}

static void said_reset(void)
{
	nr_said = 0;
}

/* Was a message containing text said? */
static bool said_has(const char *text)
{
	size_t i;

	for (i = 0; i < nr_said && i < ARRAY_SIZE(said); i++)
		if (strstr(said[i], text))
			return true;
	return false;
}

/* ---- writing an archive ------------------------------------------------- */

struct member {
	const char *name;
	enum tarzst_type type;
	const uint8_t *data;      /* FILE */
	size_t size;
	const char *link;         /* SYMLINK */
	int64_t mtime;
};

static uint8_t *random_bytes(size_t n)
{
	uint8_t *p = xmalloc(n);
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)test_rnd(256);
	return p;
}

/* A path of len bytes: components of 9 letters and a '/' when slashes, else one. */
static char *long_path(size_t len, bool slashes, char c)
{
	char *p = xmalloc(len + 1);
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = slashes && i % 10 == 9 && i + 1 < len ? '/' : c;
	p[len] = '\0';
	return p;
}

static int write_members(const char *path, const struct member *m, size_t nr, int level)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	struct tarzst_writer *w;
	size_t i;

	if (fd < 0)
		die("cannot create '%s'", path);
	w = tarzst_writer__new(fd, path, level);
	if (!w) {
		close(fd);
		return -1;
	}
	for (i = 0; i < nr; i++) {
		int ret = m[i].type == TARZST_SYMLINK ?
			tarzst_writer__add_symlink(w, m[i].name, m[i].link, m[i].mtime) :
			tarzst_writer__add_mem(w, m[i].name, m[i].data, m[i].size, 0644, m[i].mtime);

		if (ret) {
			tarzst_writer__abort(w);
			close(fd);
			return -1;
		}
	}
	i = (size_t)tarzst_writer__finish(w);
	close(fd);
	return (int)i;
}

/* Read path whole: each member against m[], each file's data by read_mem(). */
static bool read_members(const char *path, const struct member *m, size_t nr)
{
	int fd = open(path, O_RDONLY);
	struct tarzst_reader *r = tarzst_reader__new(fd, path);
	struct tarzst_entry e;
	bool ok = r != NULL;
	size_t i;

	for (i = 0; ok && i < nr; i++) {
		void *buf = NULL;
		size_t len;

		if (tarzst_reader__next(r, &e) != 1 || strcmp(e.name, m[i].name) ||
		    e.type != m[i].type || e.mtime != m[i].mtime) {
			printf("# member %zu '%s': not as written\n", i, m[i].name);
			ok = false;
		} else if (e.type == TARZST_SYMLINK) {
			ok = e.link && !strcmp(e.link, m[i].link) && !e.size;
		} else {
			ok = e.size == m[i].size && !tarzst_reader__read_mem(r, m[i].size, &buf, &len) &&
			     len == m[i].size && (!len || !memcmp(buf, m[i].data, len)) &&
			     !((char *)buf)[len];
			free(buf);
		}
	}
	ok = ok && tarzst_reader__next(r, &e) == 0 && tarzst_reader__next(r, &e) == 0;
	tarzst_reader__delete(r);
	close(fd);
	return ok;
}

/* ---- hand-made tar streams ---------------------------------------------- */

struct raw {
	uint8_t *p;
	size_t len, alloc;
};

static void raw_add(struct raw *t, const void *p, size_t n)
{
	if (!n)
		return;
	ALLOC_GROW(t->p, t->len + n, t->alloc);
	memcpy(t->p + t->len, p, n);
	t->len += n;
}

static void raw_pad(struct raw *t)
{
	static const uint8_t zeros[512];

	raw_add(t, zeros, (512 - t->len % 512) % 512);
}

/* A ustar header (checksum of unsigned bytes) and data; size_field NULL: octal of len. */
static void raw_member(struct raw *t, const char *name, char type, const void *data, size_t len,
		       const char *size_field)
{
	uint8_t h[512] = { 0 };
	unsigned sum = 0;
	char tmp[32];
	size_t i;

	memcpy(h, name, strnlen(name, 100));
	memcpy(h + 100, "0000644", 8);
	memcpy(h + 108, "0000000", 8);
	memcpy(h + 116, "0000000", 8);
	if (size_field)
		memcpy(h + 124, size_field, 12);
	else
		snprintf(tmp, sizeof(tmp), "%011zo", len), memcpy(h + 124, tmp, 12);
	memcpy(h + 136, "14500000000", 12);
	h[156] = (uint8_t)type;
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (i = 0; i < 512; i++)
		sum += h[i];
	snprintf(tmp, sizeof(tmp), "%06o", sum);
	memcpy(h + 148, tmp, 7);
	raw_add(t, h, 512);
	raw_add(t, data, len);
	raw_pad(t);
}

/* The checksum of the header at off again, of its bytes as unsigned or signed chars. */
static void raw_resum(struct raw *t, size_t off, bool sign)
{
	uint8_t *h = t->p + off;
	char tmp[16];
	int sum = 0, i;

	memset(h + 148, ' ', 8);
	for (i = 0; i < 512; i++)
		sum += sign ? (signed char)h[i] : h[i];
	snprintf(tmp, sizeof(tmp), "%06o", sum);
	memcpy(h + 148, tmp, 7);
}

static void raw_end(struct raw *t)
{
	static const uint8_t zeros[1024];

	raw_add(t, zeros, sizeof(zeros));
}

/* t compressed as one zstd frame, written to path. */
static void raw_write(const struct raw *t, const char *path)
{
	size_t cap = ZSTD_compressBound(t->len), n;
	void *z = xmalloc(cap);

	n = ZSTD_compress(z, cap, t->p, t->len, 3);
	if (ZSTD_isError(n))
		die("ZSTD_compress: %s", ZSTD_getErrorName(n));
	write_file(path, z, n);
	free(z);
}

/*
 * Read path to its end: the number of members, -1 when an error stopped
 * the reading (and a message was said), -2 when -1 came without a message.
 */
static int read_all(const char *path, char *first_name, size_t first_len)
{
	int fd = open(path, O_RDONLY), ret, n = 0;
	struct tarzst_reader *r;
	struct tarzst_entry e;

	said_reset();
	r = tarzst_reader__new(fd, path);
	if (!r) {
		close(fd);
		return nr_said ? -1 : -2;
	}
	while ((ret = tarzst_reader__next(r, &e)) == 1) {
		if (!n && first_name)
			snprintf(first_name, first_len, "%s", e.name);
		n++;
		if (e.type == TARZST_FILE && n % 2 && e.size <= 64 * MIB) {
			void *buf;
			size_t len;

			if (tarzst_reader__read_mem(r, e.size, &buf, &len)) {
				ret = -1;
				break;
			}
			free(buf);
		}
	}
	tarzst_reader__delete(r);
	close(fd);
	if (ret < 0)
		return nr_said ? -1 : -2;
	return n;
}

/* ---- the tests ---------------------------------------------------------- */

static void test_roundtrip(void)
{
	uint8_t one = 'x', *b512 = random_bytes(512), *b513 = random_bytes(513);
	uint8_t *rnd = random_bytes(MIB);
	char *p150 = long_path(150, true, 'a'), *p150flat = long_path(150, false, 'b');
	char *p300 = long_path(300, true, 'c'), *t150 = long_path(150, true, 'd');
	char *a = tpath("rt.jsar"), *b = tpath("rt-again.jsar");
	const struct member m[] = {
		{ "empty", TARZST_FILE, NULL, 0, NULL, 0 },
		{ "one", TARZST_FILE, &one, 1, NULL, 1700000000 },
		{ "dir/b512", TARZST_FILE, b512, 512, NULL, 1 },
		{ "dir/b513", TARZST_FILE, b513, 513, NULL, 8589934591 },
		{ "random.bin", TARZST_FILE, rnd, MIB, NULL, 1700000001 },
		{ "link", TARZST_SYMLINK, NULL, 0, "dir/b512", 1700000002 },
		{ "longlink", TARZST_SYMLINK, NULL, 0, t150, 1700000003 },
		{ p150, TARZST_FILE, &one, 1, NULL, 5 },
		{ p150flat, TARZST_FILE, b513, 513, NULL, 6 },
		{ p300, TARZST_FILE, b512, 100, NULL, 7 },
		{ "future", TARZST_FILE, &one, 1, NULL, INT64_C(1) << 34 },
		{ "past", TARZST_FILE, &one, 1, NULL, -86400 },
		{ "latest", TARZST_FILE, &one, 1, NULL, INT64_MAX },
		{ "earliest", TARZST_FILE, &one, 1, NULL, INT64_MIN },
	};
	size_t la, lb;
	uint8_t *ba = NULL, *bb = NULL;

	T("roundtrip: written", !write_members(a, m, ARRAY_SIZE(m), 3));
	T("roundtrip: read back as written", read_members(a, m, ARRAY_SIZE(m)));
	T("roundtrip: level 19 too", !write_members(b, m, ARRAY_SIZE(m), 19) &&
	  read_members(b, m, ARRAY_SIZE(m)));
	T("roundtrip: the same bytes for the same input", !write_members(b, m, ARRAY_SIZE(m), 3) &&
	  (ba = slurp_file(a, &la)) && (bb = slurp_file(b, &lb)) && la == lb &&
	  !memcmp(ba, bb, la));
	free(ba);
	free(bb);
	T("roundtrip: a bad level is refused", !tarzst_writer__new(1, "x", 1000));
	free(p150);
	free(p150flat);
	free(p300);
	free(t150);
	free(b512);
	free(b513);
	free(rnd);
	free(a);
	free(b);
}

/* A mostly-zero file through add_fd(), copied back sparse and not. */
static void test_sparse(void)
{
	char *src = tpath("zeros.src"), *arc = tpath("zeros.jsar"), *out = tpath("zeros.out");
	char *plain = tpath("zeros.plain");
	static const char marks[] = "not zero";
	const off_t at[] = { 0, 4095, 5 * MIB + 17, ZERO_FILE_SIZE - 3 };
	int fd = open(src, O_RDWR | O_CREAT | O_TRUNC, 0644), afd, ofd, pfd;
	struct tarzst_writer *w;
	struct tarzst_reader *r;
	struct tarzst_entry e;
	struct stat st;
	size_t i, la, lb;
	uint8_t *x, *y;
	bool ok;

	if (fd < 0 || ftruncate(fd, ZERO_FILE_SIZE))
		die("cannot make '%s'", src);
	for (i = 0; i < ARRAY_SIZE(at); i++)
		if (pwrite(fd, marks, 3, at[i]) != 3)
			die("cannot write '%s'", src);
	afd = open(arc, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	w = tarzst_writer__new(afd, arc, 3);
	lseek(fd, 0, SEEK_SET);
	ok = w && !tarzst_writer__add_fd(w, "data/zeros", fd, src, ZERO_FILE_SIZE, 0600, 42) &&
	     !tarzst_writer__add_mem(w, "after", "after", 5, 0644, 43);
	T("sparse: written", ok && !tarzst_writer__finish(w));
	close(afd);

	afd = open(arc, O_RDONLY);
	r = tarzst_reader__new(afd, arc);
	ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	T("sparse: the member", r && tarzst_reader__next(r, &e) == 1 &&
	  !strcmp(e.name, "data/zeros") && e.size == ZERO_FILE_SIZE && e.mtime == 42);
	T("sparse: copied", r && !tarzst_reader__copy_to_fd(r, ofd, out, true));
	T("sparse: copied once only", r && tarzst_reader__copy_to_fd(r, ofd, out, true) < 0);
	T("sparse: the next member", r && tarzst_reader__next(r, &e) == 1 &&
	  !strcmp(e.name, "after") && tarzst_reader__next(r, &e) == 0);
	close(ofd);
	tarzst_reader__delete(r);
	close(afd);
	T("sparse: takes less disk than its size", !stat(out, &st) &&
	  st.st_size == ZERO_FILE_SIZE && (uint64_t)st.st_blocks * 512 < ZERO_FILE_SIZE / 2);
	x = slurp_file(src, &la);
	y = slurp_file(out, &lb);
	T("sparse: the same bytes", x && y && la == lb && !memcmp(x, y, la));
	free(y);

	/* not sparse, to a pipe-like use: the bytes all written */
	afd = open(arc, O_RDONLY);
	r = tarzst_reader__new(afd, arc);
	pfd = open(plain, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	T("sparse: copied whole without sparse", r && tarzst_reader__next(r, &e) == 1 &&
	  !tarzst_reader__copy_to_fd(r, pfd, plain, false));
	close(pfd);
	tarzst_reader__delete(r);
	close(afd);
	y = slurp_file(plain, &lb);
	T("sparse: whole, the same bytes", x && y && la == lb && !memcmp(x, y, la));
	free(x);
	free(y);

	/* add_fd() of a source shorter than said: an error naming it */
	lseek(fd, ZERO_FILE_SIZE - 10, SEEK_SET);
	afd = open(arc, O_WRONLY | O_TRUNC);
	w = tarzst_writer__new(afd, arc, 3);
	said_reset();
	T("short source: refused", w && tarzst_writer__add_fd(w, "x", fd, src, 20, 0644, 0) < 0 &&
	  said_has("zeros.src' ended after 10 of its 20 bytes"));
	T("short source: the writer stays failed", w && tarzst_writer__finish(w) < 0);
	close(afd);
	close(fd);
	free(src);
	free(arc);
	free(out);
	free(plain);
}

static void test_write_errors(void)
{
	int fd = open("/dev/full", O_WRONLY), p[2];
	struct tarzst_writer *w;
	uint8_t *rnd = random_bytes(MIB);
	bool ok = true;
	int i;

	said_reset();
	if (fd >= 0) {
		w = tarzst_writer__new(fd, "/dev/full", 3);
		for (i = 0; w && i < 4 && ok; i++)
			ok = !tarzst_writer__add_mem(w, "r", rnd, MIB, 0644, 0);
		T("ENOSPC: a member fails", !ok);
		T("ENOSPC: finish fails", w && tarzst_writer__finish(w) < 0);
		T("ENOSPC: said once, naming the output", nr_said == 1 &&
		  said_has("cannot write '/dev/full': No space left on device"));
		close(fd);
	}
	if (pipe(p))
		die("pipe");
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	said_reset();
	w = tarzst_writer__new(p[1], "the pipe", 3);
	ok = true;
	for (i = 0; w && i < 4 && ok; i++)
		ok = !tarzst_writer__add_mem(w, "r", rnd, MIB, 0644, 0);
	T("EPIPE: fails, said once", tarzst_writer__finish(w) < 0 && nr_said == 1 &&
	  said_has("cannot write 'the pipe': Broken pipe"));
	signal(SIGPIPE, SIG_DFL);
	close(p[1]);

	said_reset();
	w = tarzst_writer__new(-1, "nowhere", 3);
	T("names: '..' refused", tarzst_writer__add_mem(w, "a/../b", "", 0, 0644, 0) < 0 &&
	  said_has("'..' component"));
	T("names: absolute refused", tarzst_writer__add_mem(w, "/etc/x", "", 0, 0644, 0) < 0);
	T("names: empty component refused", tarzst_writer__add_mem(w, "a//b", "", 0, 0644, 0) < 0);
	T("names: trailing '/' refused", tarzst_writer__add_mem(w, "a/", "", 0, 0644, 0) < 0);
	T("names: empty refused", tarzst_writer__add_mem(w, "", "", 0, 0644, 0) < 0);
	T("names: empty link target refused", tarzst_writer__add_symlink(w, "l", "", 0) < 0);
	tarzst_writer__abort(w);
	tarzst_writer__abort(NULL);
	free(rnd);
}

/* The archive cut at many points: -1 with the offset said, never a crash. */
static void test_truncated(void)
{
	uint8_t *rnd = random_bytes(70000);
	const struct member m[] = {
		{ "a", TARZST_FILE, rnd, 70000, NULL, 1 },
		{ "b", TARZST_SYMLINK, NULL, 0, "a", 2 },
		{ "c", TARZST_FILE, rnd, 1000, NULL, 3 },
	};
	char *arc = tpath("cut.jsar"), *cut = tpath("cut-short.jsar");
	uint8_t *z;
	size_t len, at;
	bool ok = true, offset = true;

	T("cut: written", !write_members(arc, m, ARRAY_SIZE(m), 3));
	z = slurp_file(arc, &len);
	T("cut: read back", z && len > 0);
	for (at = 0; z && at < len; at += at < 64 ? 1 : at + 997 < len ? 997 : 1) {
		int n;

		write_file(cut, z, at);
		n = read_all(cut, NULL, 0);
		if (n != -1) {
			printf("# cut at %zu: %d\n", at, n);
			ok = false;
		} else if (at >= 4 && !said_has("at offset ")) {
			printf("# cut at %zu: %s\n", at, nr_said ? said[0] : "(nothing said)");
			offset = false;
		}
	}
	T("truncated: every cut is an error", ok);
	T("truncated: the message names the offset", offset);
	write_file(cut, z, 3);
	T("truncated: 3 bytes are not a bundle", read_all(cut, NULL, 0) == -1 &&
	  said_has("not a jitsym bundle (no zstd stream)"));
	write_file(cut, "ustar", 5);
	T("not zstd: refused", read_all(cut, NULL, 0) == -1 && said_has("no zstd stream"));
	/* the whole archive, then garbage: the garbage is not read */
	{
		uint8_t *more = xmalloc(len + 100);

		memcpy(more, z, len);
		memset(more + len, 0x5a, 100);
		write_file(cut, more, len + 100);
		T("garbage after the end is not read", read_all(cut, NULL, 0) == 3);
		free(more);
	}
	free(z);
	free(rnd);
	free(arc);
	free(cut);
}

/* A raw tar stream's reading: its member count, or -1 with a message containing text. */
static bool raw_reads(const struct raw *t, int want, const char *text)
{
	char *path = tpath("raw.jsar");
	int n;

	raw_write(t, path);
	n = read_all(path, NULL, 0);
	free(path);
	if (n != want || (text && !said_has(text))) {
		printf("# read %d members, said: %s\n", n, nr_said ? said[0] : "(nothing)");
		return false;
	}
	return true;
}

static void test_damage(void)
{
	struct raw t = { 0 };
	char big[64];
	char pax[128];

	/* the reference: two members, then the end */
	raw_member(&t, "one", '0', "1", 1, NULL);
	raw_member(&t, "two", '0', "22", 2, NULL);
	raw_end(&t);
	T("raw: a hand-made archive", raw_reads(&t, 2, NULL));
	t.p[1024 + 10] ^= 1;     /* "two"'s header */
	T("raw: a bad checksum", raw_reads(&t, -1, "bad header checksum at offset 1024"));
	t.p[1024 + 10] ^= 1;
	t.len = 1024 + 512 + 512;
	T("raw: no end-of-archive blocks", raw_reads(&t, -1, "ends before its end-of-archive"));

	/* the checksum of signed bytes, as old tars wrote it */
	t.len = 0;
	raw_member(&t, "\xe9t\xe9", '0', "x", 1, NULL);
	raw_resum(&t, 0, true);
	raw_end(&t);
	T("raw: a signed checksum is taken", raw_reads(&t, 1, NULL));

	/* base-256 size */
	t.len = 0;
	memset(big, 0, sizeof(big));
	big[0] = (char)0x80;
	big[11] = 3;
	raw_member(&t, "b256", '0', "abc", 3, big);
	raw_end(&t);
	T("raw: a base-256 size", raw_reads(&t, 1, NULL));
	t.len = 0;
	memset(big, 0xff, 12);
	raw_member(&t, "neg", '0', "abc", 3, big);
	raw_end(&t);
	T("raw: a negative size", raw_reads(&t, -1, "bad size field"));
	t.len = 0;
	raw_member(&t, "huge", '0', "abc", 3, "77777777777");
	raw_end(&t);
	T("raw: a size past the data", raw_reads(&t, -1, "truncated at offset"));

	/* pax records */
	t.len = 0;
	snprintf(pax, sizeof(pax), "19 path=x/pax-name\n10 size=2\n");
	raw_member(&t, "PaxHeaders/x", 'x', pax, strlen(pax), NULL);
	raw_member(&t, "short", '0', "ab", 2, "00000000777");
	raw_end(&t);
	{
		char *path = tpath("pax.jsar");
		char first[64] = "";

		raw_write(&t, path);
		T("raw: pax path and size", read_all(path, first, sizeof(first)) == 1 &&
		  !strcmp(first, "x/pax-name"));
		free(path);
	}
	{
		static const char *bad[] = {
			"99999999999999999999 path=x\n",    /* absurd length */
			"5 path=x\n",                       /* shorter than itself */
			"10 path=xy\n",                     /* does not end at its newline */
			"11 pathx/y\n",                     /* no '=' */
			"9 =value\n",                       /* no key */
			"12 size=-12\n",                    /* a negative size */
			"x path=y\n",                       /* no length */
			"10 size=9",                        /* truncated */
		};
		size_t i;
		bool all = true;

		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			t.len = 0;
			raw_member(&t, "PaxHeaders/x", 'x', bad[i], strlen(bad[i]), NULL);
			raw_member(&t, "m", '0', "ab", 2, NULL);
			raw_end(&t);
			if (!raw_reads(&t, -1, "bad pax record")) {
				printf("# pax record '%s' taken\n", bad[i]);
				all = false;
			}
		}
		T("raw: bad pax records refused", all);
	}
	t.len = 0;
	raw_member(&t, "PaxHeaders/x", 'x', "15 path=a\x00/b/c\n", 15, NULL);
	raw_member(&t, "m", '0', "ab", 2, NULL);
	raw_end(&t);
	T("raw: a NUL in a pax path", raw_reads(&t, -1, "NUL byte"));
	t.len = 0;
	raw_member(&t, "PaxHeaders/x", 'x', NULL, 0, "00000400000");
	T("raw: an extended header over the limit", raw_reads(&t, -1, "over the limit"));

	/* names */
	t.len = 0;
	raw_member(&t, "../evil", '0', "ab", 2, NULL);
	raw_end(&t);
	T("raw: '..' refused", raw_reads(&t, -1, "'..' component"));
	t.len = 0;
	raw_member(&t, "/etc/passwd", '0', "ab", 2, NULL);
	raw_end(&t);
	T("raw: absolute refused", raw_reads(&t, -1, "absolute"));
	t.len = 0;
	raw_member(&t, "./", '5', NULL, 0, NULL);
	raw_member(&t, "./d/", '5', NULL, 0, NULL);
	raw_member(&t, "./d/f", '0', "ab", 2, NULL);
	raw_end(&t);
	{
		char *path = tpath("dot.jsar");
		int fd, ok;
		struct tarzst_reader *r;
		struct tarzst_entry e;

		raw_write(&t, path);
		fd = open(path, O_RDONLY);
		r = tarzst_reader__new(fd, path);
		ok = r && tarzst_reader__next(r, &e) == 1 && e.type == TARZST_DIR &&
		     !strcmp(e.name, "d") && tarzst_reader__next(r, &e) == 1 &&
		     e.type == TARZST_FILE && !strcmp(e.name, "d/f") && e.size == 2 &&
		     tarzst_reader__next(r, &e) == 0;
		T("raw: './' dropped, directories without '/'", ok);
		tarzst_reader__delete(r);
		close(fd);
		free(path);
	}

	/* kinds skipped, one warning each */
	t.len = 0;
	raw_member(&t, "hard1", '1', NULL, 0, NULL);
	raw_member(&t, "fifo", '6', NULL, 0, NULL);
	raw_member(&t, "hard2", '1', NULL, 0, NULL);
	raw_member(&t, "pax_global_header", 'g', "16 comment=abc\n", 15, NULL);
	raw_member(&t, "kept", '0', "ab", 2, NULL);
	raw_end(&t);
	T("raw: other kinds skipped", raw_reads(&t, 1, NULL) && nr_said == 3 &&
	  said_has("hard link") && said_has("FIFO") && said_has("pax global header"));

	/* a lone zero block, a header without the ustar magic */
	t.len = 0;
	raw_member(&t, "a", '0', "ab", 2, NULL);
	raw_pad(&t);
	{
		static const uint8_t zeros[512];

		raw_add(&t, zeros, 512);
	}
	raw_member(&t, "b", '0', "ab", 2, NULL);
	raw_end(&t);
	T("raw: a lone zero block", raw_reads(&t, -1, "lone zero block at offset 1024"));
	t.len = 0;
	raw_member(&t, "a", '0', "ab", 2, NULL);
	memset(t.p + 257, 'q', 5);
	raw_resum(&t, 0, false);
	raw_end(&t);
	T("raw: no ustar magic", raw_reads(&t, -1, "not a ustar header at offset 0"));
	free(t.p);
}

/*
 * GNU tar's sparse members (--sparse: type 'S' with its map blocks in the
 * gnu format, GNU.sparse.* pax records in posix) are skipped with a
 * warning, and the member after them is read as it is.
 */
static void test_gnu_sparse(const uint8_t *rnd)
{
	char *in = tpath("sparse-in"), *arc = tpath("sparse.tar.zst"), *path, buf[80];
	const char *formats[] = { "gnu", "posix" };
	size_t i;

	sh("mkdir -p '%s'", in);
	path = xasprintf("%s/a-holes", in);
	{
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		off_t at;

		/* holes and data in turns: more map than the 'S' header holds */
		for (at = 0; fd >= 0 && at < 64 * 8192; at += 8192)
			if (pwrite(fd, rnd, 100, at) != 100)
				die("cannot write '%s'", path);
		if (fd < 0 || ftruncate(fd, 64 * 8192 + 4096))
			die("cannot write '%s'", path);
		close(fd);
	}
	free(path);
	path = xasprintf("%s/b-after", in);
	write_file(path, rnd, 700);
	free(path);
	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		int fd, ret, nr = 0, good = 0;
		struct tarzst_reader *r;
		struct tarzst_entry e;

		T("GNU tar wrote its sparse archive",
		  !sh("tar --zstd --format=%s --sparse -cf '%s' -C '%s' a-holes b-after",
		      formats[i], arc, in));
		said_reset();
		fd = open(arc, O_RDONLY);
		r = tarzst_reader__new(fd, arc);
		while (r && (ret = tarzst_reader__next(r, &e)) == 1) {
			void *b;
			size_t n;

			nr++;
			if (!strcmp(e.name, "b-after")) {
				good = !tarzst_reader__read_mem(r, 700, &b, &n) && n == 700 &&
				       !memcmp(b, rnd, n);
				free(b);
			}
		}
		snprintf(buf, sizeof(buf), "gnu: --format=%s --sparse: skipped, what follows read",
			 formats[i]);
		T(buf, r && ret == 0 && nr == 1 && good && said_has("GNU sparse file"));
		if (nr_said != 1)
			printf("# said %zu: %s\n", nr_said, nr_said ? said[0] : "");
		tarzst_reader__delete(r);
		close(fd);
	}
	free(in);
	free(arc);
}

/* GNU tar reading ours, and us reading GNU tar's, when tar has --zstd. */
static void test_gnu_tar(void)
{
	char *arc = tpath("gnu.jsar"), *x = tpath("x"), *in = tpath("in"), *list = tpath("list");
	char *ours = tpath("gnu-made.tar.zst");
	uint8_t *rnd = random_bytes(5000), *got;
	char *p300 = long_path(300, true, 'q');
	const struct member m[] = {
		{ "f/rand", TARZST_FILE, rnd, 5000, NULL, 1700000000 },
		{ "f/empty", TARZST_FILE, NULL, 0, NULL, 1700000000 },
		{ "sym", TARZST_SYMLINK, NULL, 0, "f/rand", 1700000000 },
		{ p300, TARZST_FILE, rnd, 513, NULL, 1700000000 },
	};
	const char *formats[] = { "gnu", "posix", "ustar" };
	size_t len, i;
	char *path, buf[64];

	/* GNU tar's: -tv's columns, --format and --sparse are its */
	if (sh("tar --version | grep -q 'GNU tar'") != 0 ||
	    sh("tar --zstd -cf /dev/null /dev/null") != 0) {
		printf("# SKIP GNU tar interop: no GNU tar with --zstd here\n");
		goto out;
	}
	T("gnu: written", !write_members(arc, m, ARRAY_SIZE(m), 3));
	T("gnu: tar --zstd -tvf lists it", sh("tar --zstd -tvf '%s' >'%s'", arc, list) == 0);
	got = slurp_file(list, &len);
	if (got) {
		char *s = xstrndup((char *)got, len);

		T("gnu: -tv shows sizes and the link", strstr(s, " 5000 2023-11-14 22:13 f/rand\n") &&
		  strstr(s, " 0 2023-11-14 22:13 f/empty\n") && strstr(s, "sym -> f/rand\n") &&
		  strstr(s, p300));
		if (!strstr(s, "f/rand"))
			printf("# tar -tvf said:\n%s", s);
		free(s);
		free(got);
	}
	T("gnu: tar --zstd -xf extracts it", sh("mkdir '%s' && tar --zstd -xf '%s' -C '%s'",
						  x, arc, x) == 0);
	path = xasprintf("%s/f/rand", x);
	got = slurp_file(path, &len);
	T("gnu: the same bytes", got && len == 5000 && !memcmp(got, rnd, len));
	free(got);
	free(path);
	path = xasprintf("%s/%s", x, p300);
	got = slurp_file(path, &len);
	T("gnu: the 300-byte path", got && len == 513 && !memcmp(got, rnd, len));
	free(got);
	free(path);
	path = xasprintf("%s/sym", x);
	T("gnu: the link", readlink(path, buf, sizeof(buf)) == 6 && !memcmp(buf, "f/rand", 6));
	free(path);

	/* GNU tar's archives, each format, read by us */
	sh("mkdir -p '%s/sub/%s' && ln -s sub '%s/l'", in, "deep/er", in);
	path = xasprintf("%s/sub/data", in);
	write_file(path, rnd, 5000);
	free(path);
	/* 102 bytes after "./": ustar's prefix, GNU's 'L', pax's path */
	path = xasprintf("%s/sub/deep/er/%s", in, "a-name-of-ninety-bytes-a-name-of-ninety-bytes-"
			 "a-name-of-ninety-bytes-a-name-of-ninety-bytes-");
	write_file(path, rnd, 100);
	free(path);
	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		int fd, files = 0, dirs = 0, links = 0, ret, good = 1;
		struct tarzst_reader *r;
		struct tarzst_entry e;

		T("GNU tar wrote its archive",
		  !sh("tar --zstd --format=%s -cf '%s' -C '%s' .", formats[i], ours, in));
		said_reset();
		fd = open(ours, O_RDONLY);
		r = tarzst_reader__new(fd, ours);
		while (r && (ret = tarzst_reader__next(r, &e)) == 1) {
			void *b;
			size_t n;

			files += e.type == TARZST_FILE;
			dirs += e.type == TARZST_DIR;
			links += e.type == TARZST_SYMLINK && !strcmp(e.link, "sub");
			if (e.type == TARZST_FILE && !strcmp(e.name, "sub/data")) {
				good &= !tarzst_reader__read_mem(r, 5000, &b, &n) && n == 5000 &&
					!memcmp(b, rnd, n);
				free(b);
			} else if (e.type == TARZST_FILE)
				good &= e.size == 100 && strlen(e.name) > 100;
		}
		snprintf(buf, sizeof(buf), "gnu: --format=%s read by us", formats[i]);
		T(buf, r && ret == 0 && files == 2 && dirs == 3 && links == 1 && good &&
		  !nr_said);
		tarzst_reader__delete(r);
		close(fd);
	}
	test_gnu_sparse(rnd);
out:
	free(p300);
	free(rnd);
	free(arc);
	free(x);
	free(in);
	free(list);
	free(ours);
}

int main(void)
{
	setenv("TZ", "UTC", 1);      /* tar -tv's times */
	tmpdir_create("t-tarzst", "T_TARZST_KEEP");
	msg_set_sink(sink);
	test_roundtrip();
	test_sparse();
	test_write_errors();
	test_truncated();
	test_damage();
	test_gnu_tar();
	return test_done();
}
