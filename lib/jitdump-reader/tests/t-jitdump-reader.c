/*
 * Unit tests for libjitdump-reader. Files are built in memory by
 * jd-writer.h, in both byte orders, then damaged on purpose. Uses only
 * libc, the public header and, to check the entries array is reused, the
 * library's internal.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "jitdump-reader/jitdump-reader.h"
#include "jd-writer.h"

/* the project's one test harness: T(name, cond), test_done() */
#include "../../../tests/unit/test.h"

/* "name (big-endian)" and the like, for tests run in both orders. */
static const char *tn(const char *name, bool be)
{
	static char buf[8][160];
	static unsigned int n;
	char *b = buf[n++ % 8];

	snprintf(b, sizeof(buf[0]), "%s (%s-endian)", name, be ? "big" : "little");
	return b;
}

static const uint8_t code16[16] = {
	0x55, 0x48, 0x89, 0xe5, 0x90, 0x90, 0x90, 0x90,
	0x90, 0x90, 0x90, 0x90, 0x90, 0x5d, 0xc3, 0xcc,
};
static const uint8_t eh20[20] = {
	0x01, 0x1b, 0x03, 0x3b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
};

static struct jitdump_reader *open_w(const struct jdw *w, unsigned int flags)
{
	return jitdump_reader__new(w->buf, w->len, flags);
}

/* Read to the end; returns what ended the stream; offsets of the records. */
static int drain(struct jitdump_reader *r, size_t *nr, uint64_t *offsets, size_t max,
		 uint64_t *end_offset)
{
	struct jitdump_record rec;
	int ret;

	*nr = 0;
	while ((ret = jitdump_reader__next(r, &rec)) > 0 || ret == -JITDUMP_E_BAD_RECORD) {
		if (ret > 0 && *nr < max)
			offsets[*nr] = rec.offset;
		if (ret > 0)
			(*nr)++;
	}
	if (end_offset)
		*end_offset = rec.offset;
	return ret;
}

/* Header plus one record of each type; offsets[] gets the record offsets. */
static void build_sample(struct jdw *w, bool be, uint32_t version, uint64_t offsets[5])
{
	static const struct jdw_entry entries[] = {
		{ 0x1040, 3, 5, "a.js" },
		{ 0x1048, 4, 1, "\xff" },
		{ 0x1050, 9, 2, "b.js" },
	};

	jdw_init(w, be);
	jdw_header(w, version, 40, 62, 4242, 1000, 0);
	offsets[0] = jdw_debug(w, 10, 0x1000, entries, 3);
	offsets[1] = jdw_load(w, 11, 4242, 4243, 0x1000, 1, "LazyCompile:~f a.js:3",
			      code16, sizeof(code16));
	offsets[2] = jdw_unwind(w, 12, eh20, sizeof(eh20), 20, 0);
	offsets[3] = jdw_move(w, 13, 4242, 4244, 0x1000, 0x2000, 16, 1);
	offsets[4] = jdw_close(w, 14);
}

static void test_jitdump__header(bool be)
{
	uint64_t off[5];
	struct jdw w;
	struct jitdump_reader *r;

	build_sample(&w, be, 1, off);
	r = open_w(&w, 0);
	T(tn("header: opens", be), r);
	if (r) {
		T(tn("header: version", be), jitdump_reader__version(r) == 1);
		T(tn("header: e_machine", be), jitdump_reader__e_machine(r) == 62);
		T(tn("header: pid", be), jitdump_reader__pid(r) == 4242);
		T(tn("header: timestamp", be), jitdump_reader__timestamp(r) == 1000);
		T(tn("header: flags", be), jitdump_reader__flags(r) == 0);
		T(tn("header: size", be), jitdump_reader__header_size(r) == 40);
		T(tn("header: first record at 40", be), jitdump_reader__offset(r) == 40);
		T(tn("header: swapped", be), jitdump_reader__swapped(r) ==
		  (be != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)));
	}
	jitdump_reader__delete(r);
	jdw_release(&w);
}

static void test_jitdump__records(bool be)
{
	struct jitdump_record rec;
	uint64_t off[5];
	struct jdw w;
	struct jitdump_reader *r;
	int ret;

	build_sample(&w, be, 2, off);
	r = open_w(&w, 0);
	if (!r) {
		T(tn("records: opens", be), false);
		return;
	}

	ret = jitdump_reader__next(r, &rec);
	T(tn("debug: returned", be), ret == 1 && rec.type == JITDUMP_CODE_DEBUG_INFO);
	T(tn("debug: offset, size, timestamp", be), rec.offset == off[0] &&
	  rec.size == off[1] - off[0] && rec.timestamp == 10);
	T(tn("debug: code_addr and nr_entry", be), rec.u.debug.code_addr == 0x1000 &&
	  rec.u.debug.nr_entry == 3 && rec.u.debug.entries);
	if (ret == 1 && rec.u.debug.nr_entry == 3) {
		const struct jitdump_debug_entry *e = rec.u.debug.entries;

		T(tn("debug: entry 0", be), e[0].addr == 0x1040 && e[0].lineno == 3 &&
		  e[0].discrim == 5 && !strcmp(e[0].filename, "a.js"));
		T(tn("debug: 0xff 0x00 marker is the previous file", be),
		  e[1].addr == 0x1048 && e[1].lineno == 4 && e[1].discrim == 1 &&
		  !strcmp(e[1].filename, "a.js"));
		T(tn("debug: entry 2", be), e[2].addr == 0x1050 && e[2].lineno == 9 &&
		  !strcmp(e[2].filename, "b.js"));
	}

	ret = jitdump_reader__next(r, &rec);
	T(tn("load: returned", be), ret == 1 && rec.type == JITDUMP_CODE_LOAD &&
	  rec.offset == off[1] && rec.timestamp == 11);
	T(tn("load: fields", be), rec.u.load.pid == 4242 && rec.u.load.tid == 4243 &&
	  rec.u.load.vma == 0x1000 && rec.u.load.code_addr == 0x1000 &&
	  rec.u.load.code_size == 16 && rec.u.load.code_index == 1);
	T(tn("load: name", be), rec.u.load.name &&
	  !strcmp(rec.u.load.name, "LazyCompile:~f a.js:3"));
	T(tn("load: code bytes", be), rec.u.load.code &&
	  !memcmp(rec.u.load.code, code16, 16));

	ret = jitdump_reader__next(r, &rec);
	T(tn("unwind: returned", be), ret == 1 && rec.type == JITDUMP_CODE_UNWINDING_INFO &&
	  rec.offset == off[2] && rec.timestamp == 12);
	T(tn("unwind: sizes", be), rec.u.unwind.unwinding_size == 20 &&
	  rec.u.unwind.eh_frame_hdr_size == 20 && rec.u.unwind.mapped_size == 0);
	T(tn("unwind: data", be), rec.u.unwind.data && !memcmp(rec.u.unwind.data, eh20, 20));

	ret = jitdump_reader__next(r, &rec);
	T(tn("move: returned", be), ret == 1 && rec.type == JITDUMP_CODE_MOVE &&
	  rec.offset == off[3] && rec.timestamp == 13 && rec.size == 64);
	T(tn("move: fields", be), rec.u.move.pid == 4242 && rec.u.move.tid == 4244 &&
	  rec.u.move.vma == 0x2000 && rec.u.move.old_code_addr == 0x1000 &&
	  rec.u.move.new_code_addr == 0x2000 && rec.u.move.code_size == 16 &&
	  rec.u.move.code_index == 1);

	ret = jitdump_reader__next(r, &rec);
	T(tn("close: returned", be), ret == 1 && rec.type == JITDUMP_CODE_CLOSE &&
	  rec.offset == off[4] && rec.timestamp == 14 && rec.size == 16);

	ret = jitdump_reader__next(r, &rec);
	T(tn("end: 0 at the end of the file", be), ret == 0 && rec.offset == w.len);
	ret = jitdump_reader__next(r, &rec);
	T(tn("end: stays ended", be), ret == 0 && jitdump_reader__offset(r) == w.len);
	T(tn("end: no error detail", be), !strcmp(jitdump_reader__error_detail(r), "no error"));
	jitdump_reader__delete(r);
	jdw_release(&w);
}

/* The same records, written in both orders, decode to the same values. */
static void test_jitdump__orders_agree(void)
{
	struct jitdump_record a, b;
	struct jdw wl, wb;
	uint64_t off[5];
	struct jitdump_reader *rl, *rb;
	int same = 1, n = 0, ra, rb_ret;

	build_sample(&wl, false, 2, off);
	build_sample(&wb, true, 2, off);
	rl = open_w(&wl, 0);
	rb = open_w(&wb, 0);
	if (!rl || !rb) {
		T("orders: both open", false);
		return;
	}
	while ((ra = jitdump_reader__next(rl, &a)) == 1) {
		rb_ret = jitdump_reader__next(rb, &b);
		n++;
		if (rb_ret != 1 || a.type != b.type || a.offset != b.offset ||
		    a.timestamp != b.timestamp || a.size != b.size)
			same = 0;
		else if (a.type == JITDUMP_CODE_MOVE && memcmp(&a.u.move, &b.u.move, sizeof(a.u.move)))
			same = 0;
		else if (a.type == JITDUMP_CODE_LOAD &&
			 (a.u.load.code_addr != b.u.load.code_addr ||
			  a.u.load.code_index != b.u.load.code_index ||
			  strcmp(a.u.load.name, b.u.load.name)))
			same = 0;
	}
	T("orders: little- and big-endian files decode alike", same && n == 5 && ra == 0 &&
	  jitdump_reader__next(rb, &b) == 0);
	jitdump_reader__delete(rl);
	jitdump_reader__delete(rb);
	jdw_release(&wl);
	jdw_release(&wb);
}

static void test_jitdump__versions(void)
{
	static const uint32_t bad[] = { 0, 3, 0x01000000, 0xffffffff };
	struct jdw w;
	size_t i;

	for (i = 1; i <= 2; i++) {
		struct jitdump_reader *r;

		jdw_init(&w, false);
		jdw_header(&w, (uint32_t)i, 40, 62, 1, 2, 0);
		jdw_close(&w, 3);
		r = open_w(&w, 0);
		T(i == 1 ? "version: 1 accepted" : "version: 2 accepted",
		  r && jitdump_reader__version(r) == i);
		jitdump_reader__delete(r);
		jdw_release(&w);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct jitdump_reader *r;

		jdw_init(&w, i % 2);
		jdw_header(&w, bad[i], 40, 62, 1, 2, 0);
		errno = 0;
		r = open_w(&w, 0);
		T("version: others refused with JITDUMP_E_BAD_VERSION",
		  !r && errno == JITDUMP_E_BAD_VERSION);
		jdw_release(&w);
	}
}

static void test_jitdump__bad_magic(void)
{
	static const char *const bad[] = { "JITD", "\x44\x54\x69\x4b", "perf", "PERFILE2" };
	uint8_t buf[64];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(buf, 0, sizeof(buf));
		memcpy(buf, bad[i], strlen(bad[i]));
		errno = 0;
		T("magic: wrong magic refused", !jitdump_reader__new(buf, sizeof(buf), 0) &&
		  errno == JITDUMP_E_BAD_MAGIC);
	}
	errno = 0;
	T("magic: two bytes that cannot start a jitdump",
	  !jitdump_reader__new("PK", 2, 0) && errno == JITDUMP_E_BAD_MAGIC);
}

static void test_jitdump__truncated_header(void)
{
	static const size_t cuts[] = { 0, 1, 3, 4, 7, 8, 11, 12, 20, 39 };
	size_t i;
	struct jdw w;
	int all = 1;

	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		int be;

		for (be = 0; be < 2; be++) {
			jdw_init(&w, be);
			jdw_header(&w, 1, 40, 62, 1, 2, 0);
			errno = 0;
			if (jitdump_reader__new(cuts[i] ? w.buf : NULL, cuts[i], 0) ||
			    errno != JITDUMP_E_TRUNCATED_HEADER) {
				printf("# cut at %zu (%s): errno %d\n", cuts[i], be ? "be" : "le", errno);
				all = 0;
			}
			jdw_release(&w);
		}
	}
	T("header: cut anywhere before byte 40 gives JITDUMP_E_TRUNCATED_HEADER", all);

	/* a header that says it is longer than the file */
	jdw_init(&w, false);
	jdw_header(&w, 1, 64, 62, 1, 2, 0);
	errno = 0;
	T("header: total_size past the end gives JITDUMP_E_TRUNCATED_HEADER",
	  !jitdump_reader__new(w.buf, 50, 0) && errno == JITDUMP_E_TRUNCATED_HEADER);
	jdw_release(&w);
}

static void test_jitdump__header_size(void)
{
	struct jitdump_record rec;
	struct jitdump_reader *r;
	struct jdw w;
	size_t at;
	int be;

	for (be = 0; be < 2; be++) {
		jdw_init(&w, be);
		jdw_header(&w, 1, 40, 62, 1, 2, 0);
		jdw_put_u32(&w, 8, 39);
		errno = 0;
		T(tn("header: total_size 39 refused with JITDUMP_E_BAD_SIZE", be),
		  !open_w(&w, 0) && errno == JITDUMP_E_BAD_SIZE);
		jdw_put_u32(&w, 8, 0);
		errno = 0;
		T(tn("header: total_size 0 refused with JITDUMP_E_BAD_SIZE", be),
		  !open_w(&w, 0) && errno == JITDUMP_E_BAD_SIZE);
		jdw_release(&w);

		/* a newer, longer header: its extra bytes are skipped */
		jdw_init(&w, be);
		jdw_header(&w, 2, 72, 183, 77, 2, 0);
		at = jdw_load(&w, 5, 77, 77, 0x4000, 9, "ext", code16, 4);
		r = open_w(&w, 0);
		T(tn("header: extended header accepted", be), r &&
		  jitdump_reader__header_size(r) == 72 && jitdump_reader__e_machine(r) == 183);
		T(tn("header: records start after the extension", be), r &&
		  jitdump_reader__next(r, &rec) == 1 && rec.offset == at && at == 72 &&
		  rec.type == JITDUMP_CODE_LOAD && !strcmp(rec.u.load.name, "ext"));
		T(tn("header: then the end", be), r && jitdump_reader__next(r, &rec) == 0);
		jitdump_reader__delete(r);
		jdw_release(&w);
	}
}

/* Mono's header: total_size is the size of a pointer, the header is whole. */
static void test_jitdump__mono_header(void)
{
	struct jitdump_record rec;
	struct jitdump_reader *r;
	struct jdw w;
	size_t at;
	int be;

	for (be = 0; be < 2; be++) {
		jdw_init(&w, be);
		jdw_header(&w, 2, 40, 62, 31337, 2, 0);
		jdw_put_u32(&w, 8, 8);
		at = jdw_load(&w, 5, 31337, 31338, 0x4000, 1, "Main", code16, 4);
		r = open_w(&w, 0);
		T(tn("mono: total_size 8 read as 40", be), r &&
		  jitdump_reader__header_size(r) == 40 && jitdump_reader__version(r) == 2 &&
		  jitdump_reader__quirks(r) == JITDUMP_QUIRK_HEADER_SIZE);
		T(tn("mono: its load is read", be), r && jitdump_reader__next(r, &rec) == 1 &&
		  rec.offset == at && at == 40 && !strcmp(rec.u.load.name, "Main") &&
		  rec.u.load.code_addr == 0x4000 && jitdump_reader__next(r, &rec) == 0);
		jitdump_reader__delete(r);
		jdw_put_u32(&w, 8, 4);
		r = open_w(&w, 0);
		T(tn("mono: total_size 4 (32-bit) read as 40", be), r &&
		  jitdump_reader__header_size(r) == 40 && jitdump_reader__next(r, &rec) == 1);
		jitdump_reader__delete(r);
		/* not a record header after the 40 bytes: the size is just wrong */
		jdw_put_u32(&w, at, 77);
		errno = 0;
		T(tn("mono: total_size 4 and no record at 40: JITDUMP_E_BAD_SIZE", be),
		  !open_w(&w, 0) && errno == JITDUMP_E_BAD_SIZE);
		jdw_put_u32(&w, at, JITDUMP_CODE_LOAD);
		jdw_put_u32(&w, at + 4, 12);
		errno = 0;
		T(tn("mono: total_size 4 and a record size below 16: JITDUMP_E_BAD_SIZE", be),
		  !open_w(&w, 0) && errno == JITDUMP_E_BAD_SIZE);
		jdw_put_u32(&w, 8, 12);
		errno = 0;
		T(tn("mono: total_size 12 (not a pointer's size): JITDUMP_E_BAD_SIZE", be),
		  !open_w(&w, 0) && errno == JITDUMP_E_BAD_SIZE);
		/* a file still being written: the header alone, then half a record header */
		jdw_put_u32(&w, 8, 8);
		r = jitdump_reader__new(w.buf, 40, 0);
		T(tn("mono: the header alone opens, no records", be), r &&
		  jitdump_reader__next(r, &rec) == 0);
		jitdump_reader__delete(r);
		r = jitdump_reader__new(w.buf, 48, 0);
		T(tn("mono: half a record header: cut short", be), r &&
		  jitdump_reader__next(r, &rec) == -JITDUMP_E_TRUNCATED_RECORD);
		jitdump_reader__delete(r);
		errno = 0;
		r = jitdump_reader__new(w.buf, 30, 0);
		T(tn("mono: a header cut short is still JITDUMP_E_TRUNCATED_HEADER", be),
		  !r && errno == JITDUMP_E_TRUNCATED_HEADER);
		jdw_release(&w);
	}
	build_sample(&w, false, 2, (uint64_t[5]){ 0 });
	r = open_w(&w, 0);
	T("mono: a right header has no quirks", r && jitdump_reader__quirks(r) == 0);
	jitdump_reader__delete(r);
	jdw_release(&w);
}

static void test_jitdump__arch_timestamp(void)
{
	struct jitdump_reader *r;
	struct jitdump_record rec;
	struct jdw w;

	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, 1, 2, JITDUMP_FLAGS_ARCH_TIMESTAMP | (1ull << 40));
	jdw_close(&w, 123456789);
	errno = 0;
	T("arch timestamp: refused by default with JITDUMP_E_ARCH_TIMESTAMP",
	  !open_w(&w, 0) && errno == JITDUMP_E_ARCH_TIMESTAMP);
	T("arch timestamp: the message says so",
	  strstr(jitdump__strerror(JITDUMP_E_ARCH_TIMESTAMP), "architecture timestamps"));
	r = open_w(&w, JITDUMP_READER_ARCH_TIMESTAMP_OK);
	T("arch timestamp: accepted with JITDUMP_READER_ARCH_TIMESTAMP_OK", r &&
	  jitdump_reader__flags(r) == (JITDUMP_FLAGS_ARCH_TIMESTAMP | (1ull << 40)));
	T("arch timestamp: timestamps handed out raw", r &&
	  jitdump_reader__next(r, &rec) == 1 && rec.timestamp == 123456789);
	jitdump_reader__delete(r);

	/* other flag bits are reported, not refused */
	jdw_put_u64(&w, 32, 1ull << 5);
	r = open_w(&w, 0);
	T("flags: unknown bits accepted and reported", r && jitdump_reader__flags(r) == 1ull << 5);
	jitdump_reader__delete(r);

	errno = 0;
	T("open flags: unknown ones refused with EINVAL", !open_w(&w, 1u << 7) && errno == EINVAL);
	errno = 0;
	T("new: NULL buffer with a length refused", !jitdump_reader__new(NULL, 5, 0) &&
	  errno == EINVAL);
	jdw_release(&w);
}

/*
 * Cut the sample file at every length past the header: the records wholly
 * before the cut come out, then 0 on a record boundary, or
 * JITDUMP_E_TRUNCATED_RECORD at the offset of the record cut.
 */
static void test_jitdump__cut_everywhere(bool be)
{
	uint64_t off[6], got[8], end;
	size_t cut, nr, k, bad = 0;
	struct jdw w;

	build_sample(&w, be, 2, off);
	off[5] = w.len;
	for (cut = 40; cut <= w.len; cut++) {
		struct jitdump_reader *r = jitdump_reader__new(w.buf, cut, 0);
		size_t whole = 0;
		int ret, ok = 1;

		while (whole < 5 && off[whole + 1] <= cut)
			whole++;
		if (!r) {
			bad++;
			continue;
		}
		ret = drain(r, &nr, got, 8, &end);
		if (nr != whole)
			ok = 0;
		for (k = 0; ok && k < nr; k++)
			if (got[k] != off[k])
				ok = 0;
		if (cut == off[whole] && ret != 0)
			ok = 0;
		if (cut != off[whole] &&
		    (ret != -JITDUMP_E_TRUNCATED_RECORD || end != off[whole] ||
		     jitdump_reader__offset(r) != off[whole]))
			ok = 0;
		if (!ok) {
			printf("# cut at %zu: %zu records, ret %d, end %llu\n", cut, nr, ret,
			       (unsigned long long)end);
			bad++;
		}
		jitdump_reader__delete(r);
	}
	T(tn("truncated: every cut gives the whole records, then TRUNCATED_RECORD at the cut one",
	     be), bad == 0);
	jdw_release(&w);
}

/* A file: close, then a record with the given id and total_size, then close. */
static void build_bad_size(struct jdw *w, bool be, uint32_t id, uint32_t total, uint64_t off[3])
{
	jdw_init(w, be);
	jdw_header(w, 1, 40, 62, 1, 2, 0);
	off[0] = jdw_close(w, 1);
	off[1] = jdw_load(w, 2, 1, 1, 0x1000, 1, "f", code16, 16);
	jdw_put_u32(w, off[1], id);
	jdw_put_u32(w, off[1] + 4, total);
	off[2] = jdw_close(w, 3);
}

static void test_jitdump__bad_total_size(bool be)
{
	static const uint32_t small[] = { 0, 1, 8, 15 };
	struct jitdump_record rec;
	struct jitdump_reader *r;
	uint64_t off[3];
	struct jdw w;
	size_t i;
	int ret;

	for (i = 0; i < sizeof(small) / sizeof(small[0]); i++) {
		build_bad_size(&w, be, 0, small[i], off);
		r = open_w(&w, 0);
		ret = r ? jitdump_reader__next(r, &rec) : 0;
		T(tn("total_size < 16: records before it returned", be), ret == 1 &&
		  rec.offset == off[0]);
		ret = r ? jitdump_reader__next(r, &rec) : 0;
		T(tn("total_size < 16: JITDUMP_E_BAD_SIZE at its offset", be),
		  ret == -JITDUMP_E_BAD_SIZE && rec.offset == off[1] &&
		  jitdump_reader__offset(r) == off[1]);
		ret = r ? jitdump_reader__next(r, &rec) : 0;
		T(tn("total_size < 16: the stream stays ended", be),
		  ret == -JITDUMP_E_BAD_SIZE && rec.offset == off[1]);
		T(tn("total_size < 16: detail", be), r &&
		  strstr(jitdump_reader__error_detail(r), "smaller than the record header"));
		jitdump_reader__delete(r);
		jdw_release(&w);
	}

	/* past the end, with what is present consistent: cut short */
	build_bad_size(&w, be, 0, 0x7fffffff, off);
	r = open_w(&w, 0);
	ret = r ? drain(r, &i, NULL, 0, &rec.offset) : 0;
	T(tn("total_size past the end: JITDUMP_E_TRUNCATED_RECORD", be),
	  ret == -JITDUMP_E_TRUNCATED_RECORD && i == 1 && rec.offset == off[1]);
	jitdump_reader__delete(r);
	jdw_release(&w);

	/* the same for an unknown id */
	build_bad_size(&w, be, 77, 0xffffffff, off);
	r = open_w(&w, 0);
	ret = r ? drain(r, &i, NULL, 0, &rec.offset) : 0;
	T(tn("total_size past the end, unknown id: JITDUMP_E_TRUNCATED_RECORD", be),
	  ret == -JITDUMP_E_TRUNCATED_RECORD && i == 1 && rec.offset == off[1]);
	jitdump_reader__delete(r);
	jdw_release(&w);

	/* past the end, but its code_size says the record is smaller: corrupt */
	build_bad_size(&w, be, 0, 0x7fffffff, off);
	jdw_put_u32(&w, off[1] + 4, 0x1000);
	jdw_put_u64(&w, off[1] + 16 + 24, 0x100000);    /* code_size */
	r = open_w(&w, 0);
	ret = r ? drain(r, &i, NULL, 0, &rec.offset) : 0;
	T(tn("total_size past the end, contradicted by code_size: JITDUMP_E_BAD_SIZE", be),
	  ret == -JITDUMP_E_BAD_SIZE && i == 1 && rec.offset == off[1]);
	T(tn("total_size past the end, contradicted: detail", be), r &&
	  strstr(jitdump_reader__error_detail(r), "code_size"));
	jitdump_reader__delete(r);
	jdw_release(&w);
}

/* Expect: record 0 fine, record 1 JITDUMP_E_BAD_RECORD and skipped, record 2 fine. */
static void expect_bad_record_flags(const struct jdw *w, const uint64_t off[3], const char *name,
				    const char *detail, unsigned int flags)
{
	struct jitdump_record rec;
	struct jitdump_reader *r = open_w(w, flags);
	char buf[200];
	int ret;

	if (!r) {
		snprintf(buf, sizeof(buf), "%s: opens", name);
		T(buf, false);
		return;
	}
	ret = jitdump_reader__next(r, &rec);
	snprintf(buf, sizeof(buf), "%s: record before returned", name);
	T(buf, ret == 1 && rec.offset == off[0]);
	ret = jitdump_reader__next(r, &rec);
	snprintf(buf, sizeof(buf), "%s: JITDUMP_E_BAD_RECORD at its offset", name);
	T(buf, ret == -JITDUMP_E_BAD_RECORD && rec.offset == off[1] &&
	  rec.size == off[2] - off[1]);
	snprintf(buf, sizeof(buf), "%s: detail says '%s'", name, detail);
	T(buf, strstr(jitdump_reader__error_detail(r), detail));
	ret = jitdump_reader__next(r, &rec);
	snprintf(buf, sizeof(buf), "%s: skipped, the next record follows", name);
	T(buf, ret == 1 && rec.offset == off[2] && rec.type == JITDUMP_CODE_CLOSE);
	ret = jitdump_reader__next(r, &rec);
	snprintf(buf, sizeof(buf), "%s: then the end", name);
	T(buf, ret == 0);
	jitdump_reader__delete(r);
}

/* The same whether or not debug entries are kept: the flag changes no check. */
static void expect_bad_record(const struct jdw *w, const uint64_t off[3], const char *name,
			      const char *detail)
{
	char buf[200];

	expect_bad_record_flags(w, off, name, detail, 0);
	snprintf(buf, sizeof(buf), "%s, no debug entries", name);
	expect_bad_record_flags(w, off, buf, detail, JITDUMP_READER_NO_DEBUG_ENTRIES);
}

/* A DEBUG_INFO record between two CLOSE records. */
static void build_debug(struct jdw *w, bool be, const struct jdw_entry *e, size_t nr,
			uint64_t off[3])
{
	jdw_init(w, be);
	jdw_header(w, 1, 40, 62, 1, 2, 0);
	off[0] = jdw_close(w, 1);
	off[1] = jdw_debug(w, 2, 0x1000, e, nr);
	off[2] = jdw_close(w, 3);
}

static void test_jitdump__nr_entry(bool be)
{
	static const struct jdw_entry e[2] = { { 0x1040, 1, 0, "x.js" }, { 0x1041, 2, 0, "" } };
	uint64_t off[3];
	struct jdw w;

	build_debug(&w, be, e, 2, off);
	jdw_put_u64(&w, off[1] + 16 + 8, 1ull << 60);
	expect_bad_record(&w, off, tn("nr_entry 2^60", be), "nr_entry");
	jdw_release(&w);

	build_debug(&w, be, e, 2, off);
	jdw_put_u64(&w, off[1] + 16 + 8, UINT64_MAX);
	expect_bad_record(&w, off, tn("nr_entry 2^64-1", be), "nr_entry");
	jdw_release(&w);

	/* 3 claimed, 2 written: the minimal third entry does not fit */
	build_debug(&w, be, e, 2, off);
	jdw_put_u64(&w, off[1] + 16 + 8, 3);
	expect_bad_record(&w, off, tn("nr_entry one too many", be), "nr_entry");
	jdw_release(&w);

	/* 1 claimed, 2 written: the rest is trailing bytes, allowed */
	build_debug(&w, be, e, 2, off);
	jdw_put_u64(&w, off[1] + 16 + 8, 1);
	{
		struct jitdump_reader *r = open_w(&w, 0);
		struct jitdump_record rec;

		T(tn("nr_entry fewer than written: trailing bytes ignored", be), r &&
		  jitdump_reader__next(r, &rec) == 1 && jitdump_reader__next(r, &rec) == 1 &&
		  rec.u.debug.nr_entry == 1 && !strcmp(rec.u.debug.entries[0].filename, "x.js") &&
		  jitdump_reader__next(r, &rec) == 1 && rec.type == JITDUMP_CODE_CLOSE);
		jitdump_reader__delete(r);
	}
	jdw_release(&w);

	/* nr_entry 0 */
	build_debug(&w, be, e, 0, off);
	{
		struct jitdump_reader *r = open_w(&w, 0);
		struct jitdump_record rec;

		T(tn("nr_entry 0: a record with no entries", be), r &&
		  jitdump_reader__next(r, &rec) == 1 && jitdump_reader__next(r, &rec) == 1 &&
		  rec.type == JITDUMP_CODE_DEBUG_INFO && rec.u.debug.nr_entry == 0 &&
		  !rec.u.debug.entries);
		jitdump_reader__delete(r);
	}
	jdw_release(&w);
}

static void test_jitdump__filenames(bool be)
{
	static const struct jdw_entry first_marker[2] = {
		{ 0x1040, 1, 0, "\xff" }, { 0x1041, 2, 0, "a.js" },
	};
	static const struct jdw_entry chain[4] = {
		{ 1, 1, 0, "a.js" }, { 2, 2, 0, "\xff" }, { 3, 3, 0, "\xff" }, { 4, 4, 0, "\xff\xfe" },
	};
	struct jitdump_record rec;
	struct jitdump_reader *r;
	uint64_t off[3];
	struct jdw w;

	build_debug(&w, be, first_marker, 2, off);
	expect_bad_record(&w, off, tn("filename marker in the first entry", be), "previous");
	jdw_release(&w);

	build_debug(&w, be, chain, 4, off);
	r = open_w(&w, 0);
	T(tn("filename marker: chains through several entries", be), r &&
	  jitdump_reader__next(r, &rec) == 1 && jitdump_reader__next(r, &rec) == 1 &&
	  rec.u.debug.nr_entry == 4 &&
	  !strcmp(rec.u.debug.entries[1].filename, "a.js") &&
	  !strcmp(rec.u.debug.entries[2].filename, "a.js") &&
	  !strcmp(rec.u.debug.entries[3].filename, "\xff\xfe"));
	jitdump_reader__delete(r);
	jdw_release(&w);

	/* the last file name runs to the end of the record */
	build_debug(&w, be, chain, 1, off);
	w.buf[off[2] - 1] = 'x';
	expect_bad_record(&w, off, tn("debug file name not terminated", be), "file name");
	jdw_release(&w);
}

static void test_jitdump__no_debug_entries(bool be)
{
	static const struct jdw_entry chain[3] = {
		{ 1, 1, 0, "a.js" }, { 2, 2, 0, "\xff" }, { 3, 3, 0, "b.js" },
	};
	struct jitdump_record rec;
	struct jitdump_reader *r;
	uint64_t off[3];
	struct jdw w;

	build_debug(&w, be, chain, 3, off);
	r = open_w(&w, JITDUMP_READER_NO_DEBUG_ENTRIES);
	T(tn("no debug entries: code_addr and the count, no entries", be), r &&
	  jitdump_reader__next(r, &rec) == 1 && jitdump_reader__next(r, &rec) == 1 &&
	  rec.type == JITDUMP_CODE_DEBUG_INFO && rec.offset == off[1] &&
	  rec.u.debug.code_addr == 0x1000 && rec.u.debug.nr_entry == 3 &&
	  !rec.u.debug.entries);
	T(tn("no debug entries: nothing allocated for them", be), r && !r->entries &&
	  jitdump_reader__next(r, &rec) == 1 && rec.type == JITDUMP_CODE_CLOSE &&
	  jitdump_reader__next(r, &rec) == 0);
	jitdump_reader__delete(r);
	jdw_release(&w);
}

/* A LOAD record between two CLOSE records. */
static void build_load(struct jdw *w, bool be, const char *name, size_t code_size, size_t pad,
		       uint64_t off[3])
{
	jdw_init(w, be);
	jdw_header(w, 1, 40, 62, 1, 2, 0);
	off[0] = jdw_close(w, 1);
	off[1] = jdw_load_pad(w, 2, 1, 1, 0x1000, 1, name, code16, code_size, pad);
	off[2] = jdw_close(w, 3);
}

static void test_jitdump__load(bool be)
{
	struct jitdump_record rec;
	struct jitdump_reader *r;
	uint64_t off[3];
	struct jdw w;

	/* name runs to the end of a record with no code */
	build_load(&w, be, "abc", 0, 0, off);
	w.buf[off[2] - 1] = 'd';
	expect_bad_record(&w, off, tn("load: name not terminated", be), "name not terminated");
	jdw_release(&w);

	/* name's only NUL is inside the code bytes */
	build_load(&w, be, "abc", 16, 0, off);
	w.buf[off[1] + 56 + 3] = 'd';
	w.buf[off[1] + 56 + 4 + 2] = '\0';
	expect_bad_record(&w, off, tn("load: name ends inside the code", be), "name not terminated");
	jdw_release(&w);

	build_load(&w, be, "abc", 16, 0, off);
	jdw_put_u64(&w, off[1] + 16 + 24, 17 + 4);
	expect_bad_record(&w, off, tn("load: code_size larger than the record", be), "code_size");
	jdw_release(&w);

	build_load(&w, be, "abc", 16, 0, off);
	jdw_put_u64(&w, off[1] + 16 + 24, UINT64_MAX);
	expect_bad_record(&w, off, tn("load: code_size 2^64-1", be), "code_size");
	jdw_release(&w);

	/* code_size exactly what follows the name: fine; one more: not */
	build_load(&w, be, "abc", 16, 0, off);
	jdw_put_u64(&w, off[1] + 16 + 24, 17);
	expect_bad_record(&w, off, tn("load: code_size eats the name's NUL", be), "name");
	jdw_release(&w);

	/* shorter than its fixed fields */
	build_load(&w, be, "abc", 0, 0, off);
	jdw_put_u32(&w, off[1] + 4, 16 + 39);
	/* the record is now shorter: rebuild the file around it */
	memmove(w.buf + off[1] + 55, w.buf + off[2], 16);
	w.len = off[1] + 55 + 16;
	off[2] = off[1] + 55;
	expect_bad_record(&w, off, tn("load: total_size below its fields", be), "fields");
	jdw_release(&w);

	/* JVMTI-style padding between the name and the code */
	build_load(&w, be, "Ljava/lang/Object;hashCode", 16, 5, off);
	r = open_w(&w, 0);
	T(tn("load: code is the last code_size bytes of the record", be), r &&
	  jitdump_reader__next(r, &rec) == 1 && jitdump_reader__next(r, &rec) == 1 &&
	  !strcmp(rec.u.load.name, "Ljava/lang/Object;hashCode") &&
	  rec.u.load.code == w.buf + off[2] - 16 && !memcmp(rec.u.load.code, code16, 16));
	jitdump_reader__delete(r);
	jdw_release(&w);

	/* empty function, empty name */
	build_load(&w, be, "", 0, 0, off);
	r = open_w(&w, 0);
	T(tn("load: empty name and no code", be), r &&
	  jitdump_reader__next(r, &rec) == 1 && jitdump_reader__next(r, &rec) == 1 &&
	  rec.type == JITDUMP_CODE_LOAD && !strcmp(rec.u.load.name, "") &&
	  rec.u.load.code_size == 0 && !rec.u.load.code);
	jitdump_reader__delete(r);
	jdw_release(&w);
}

static void test_jitdump__short_records(bool be)
{
	static const uint8_t zeros[64];
	static const struct {
		uint32_t id;
		size_t payload;
		const char *name;
	} cases[] = {
		{ JITDUMP_CODE_MOVE, 47, "move: total_size below its fields" },
		{ JITDUMP_CODE_DEBUG_INFO, 15, "debug: total_size below its fields" },
		{ JITDUMP_CODE_UNWINDING_INFO, 23, "unwind: total_size below its fields" },
	};
	uint64_t off[3];
	struct jdw w;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		jdw_init(&w, be);
		jdw_header(&w, 1, 40, 62, 1, 2, 0);
		off[0] = jdw_close(&w, 1);
		off[1] = jdw_raw(&w, cases[i].id, 2, zeros, cases[i].payload);
		off[2] = jdw_close(&w, 3);
		expect_bad_record(&w, off, tn(cases[i].name, be), "fields");
		jdw_release(&w);
	}
	/* a MOVE with extra bytes: a newer writer, fine */
	jdw_init(&w, be);
	jdw_header(&w, 1, 40, 62, 1, 2, 0);
	jdw_raw(&w, JITDUMP_CODE_MOVE, 2, zeros, 56);
	{
		struct jitdump_reader *r = open_w(&w, 0);
		struct jitdump_record rec;

		T(tn("move: extra bytes skipped", be), r && jitdump_reader__next(r, &rec) == 1 &&
		  rec.type == JITDUMP_CODE_MOVE && rec.size == 72 &&
		  jitdump_reader__next(r, &rec) == 0);
		jitdump_reader__delete(r);
	}
	jdw_release(&w);
}

static void test_jitdump__unwind(bool be)
{
	uint64_t off[3];
	struct jdw w;

	jdw_init(&w, be);
	jdw_header(&w, 1, 40, 62, 1, 2, 0);
	off[0] = jdw_close(&w, 1);
	off[1] = jdw_unwind(&w, 2, eh20, 20, 21, 20);
	off[2] = jdw_close(&w, 3);
	expect_bad_record(&w, off, tn("unwind: eh_frame_hdr_size > unwinding_size", be),
			  "eh_frame_hdr_size");
	jdw_put_u64(&w, off[1] + 16, 25);       /* 20 data + 4 padding in the record */
	jdw_put_u64(&w, off[1] + 24, 8);
	expect_bad_record(&w, off, tn("unwind: unwinding_size larger than the record", be),
			  "unwinding_size");
	jdw_put_u64(&w, off[1] + 16, 1ull << 62);
	expect_bad_record(&w, off, tn("unwind: unwinding_size 2^62", be), "unwinding_size");
	jdw_release(&w);

	jdw_init(&w, be);
	jdw_header(&w, 1, 40, 62, 1, 2, 0);
	jdw_unwind(&w, 2, eh20, 0, 0, 0);
	{
		struct jitdump_reader *r = open_w(&w, 0);
		struct jitdump_record rec;

		T(tn("unwind: no data", be), r && jitdump_reader__next(r, &rec) == 1 &&
		  rec.u.unwind.unwinding_size == 0 && !rec.u.unwind.data);
		jitdump_reader__delete(r);
	}
	jdw_release(&w);
}

/* Messages seen by the print callback, one per line. */
static char msgs[1 << 12];
static size_t msgs_len;

__attribute__((format(printf, 2, 0)))
static int capture(enum jitdump_print_level level, const char *fmt, va_list ap)
{
	int n;

	(void)level;
	if (msgs_len + 2 >= sizeof(msgs))
		return 0;
	n = vsnprintf(msgs + msgs_len, sizeof(msgs) - msgs_len - 1, fmt, ap);
	if (n > 0)
		msgs_len += (size_t)n < sizeof(msgs) - msgs_len - 1 ?
			(size_t)n : sizeof(msgs) - msgs_len - 2;
	msgs[msgs_len++] = '\n';
	msgs[msgs_len] = '\0';
	return n;
}

static void start_capture(void)
{
	msgs_len = 0;
	msgs[0] = '\0';
	jitdump_reader__set_print(capture);
}

static void test_jitdump__unknown_id(bool be)
{
	static const uint8_t payload[11] = "future";
	struct jitdump_record rec;
	struct jitdump_reader *r;
	uint64_t at, after;
	struct jdw w;
	char want[80];
	int ret;

	jdw_init(&w, be);
	jdw_header(&w, 1, 40, 62, 1, 2, 0);
	at = jdw_raw(&w, 5, 1, payload, sizeof(payload));
	jdw_raw(&w, 0xffffffff, 1, payload, 0);
	after = jdw_close(&w, 2);
	r = open_w(&w, 0);
	start_capture();
	ret = r ? jitdump_reader__next(r, &rec) : 0;
	jitdump_reader__set_print(NULL);
	T(tn("unknown id: skipped to the next known record", be), ret == 1 &&
	  rec.offset == after && rec.type == JITDUMP_CODE_CLOSE);
	T(tn("unknown id: counted", be), r && jitdump_reader__nr_unknown(r) == 2);
	snprintf(want, sizeof(want), "'buffer': record at offset %llu: unknown id 5, skipped",
		 (unsigned long long)at);
	T(tn("unknown id: reported through the callback with its offset", be),
	  strstr(msgs, want) && strstr(msgs, "unknown id 4294967295"));
	jitdump_reader__delete(r);

	/* silent by default: nothing reaches a callback that is not set */
	msgs_len = 0;
	msgs[0] = '\0';
	r = open_w(&w, 0);
	ret = r ? jitdump_reader__next(r, &rec) : 0;
	T(tn("print: silent by default", be), ret == 1 && msgs_len == 0);
	jitdump_reader__delete(r);
	jdw_release(&w);
}

static void test_jitdump__after_close(void)
{
	struct jitdump_record rec;
	struct jitdump_reader *r;
	struct jdw w;

	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, 1, 2, 0);
	jdw_close(&w, 1);
	jdw_load(&w, 2, 1, 1, 0x1000, 1, "late", code16, 1);
	r = open_w(&w, 0);
	T("close: records after it are still read", r &&
	  jitdump_reader__next(r, &rec) == 1 && rec.type == JITDUMP_CODE_CLOSE &&
	  jitdump_reader__next(r, &rec) == 1 && !strcmp(rec.u.load.name, "late") &&
	  jitdump_reader__next(r, &rec) == 0);
	jitdump_reader__delete(r);
	jdw_release(&w);

	jdw_init(&w, true);
	jdw_header(&w, 1, 40, 62, 1, 2, 0);
	r = open_w(&w, 0);
	T("empty: a header and no records ends at once", r &&
	  jitdump_reader__next(r, &rec) == 0 && rec.offset == 40);
	jitdump_reader__delete(r);
	jdw_release(&w);
}

/* Many entries; the array grows, is reused, and never larger than needed. */
static void test_jitdump__many_entries(void)
{
	static struct jdw_entry e[5000];
	struct jitdump_record rec;
	struct jitdump_reader *r;
	size_t i, alloc = 0;
	struct jdw w;
	int ok = 1;

	for (i = 0; i < 5000; i++)
		e[i] = (struct jdw_entry){ 0x1000 + i, (uint32_t)i + 1, (uint32_t)i % 7,
					   i % 3 ? "\xff" : "f.js" };
	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, 1, 2, 0);
	jdw_debug(&w, 1, 0x1000, e, 5000);
	jdw_debug(&w, 2, 0x2000, e, 10);
	r = open_w(&w, 0);
	if (r && jitdump_reader__next(r, &rec) == 1 && rec.u.debug.nr_entry == 5000) {
		for (i = 0; i < 5000; i++)
			if (rec.u.debug.entries[i].addr != 0x1000 + i ||
			    rec.u.debug.entries[i].lineno != i + 1 ||
			    strcmp(rec.u.debug.entries[i].filename, "f.js"))
				ok = 0;
		alloc = r->entries_alloc;
	} else {
		ok = 0;
	}
	T("many entries: 5000 decoded", ok);
	T("many entries: the array is reused", r && jitdump_reader__next(r, &rec) == 1 &&
	  rec.u.debug.nr_entry == 10 && r->entries_alloc == alloc &&
	  rec.u.debug.entries == r->entries);
	jitdump_reader__delete(r);
	jdw_release(&w);
}

static int write_file(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(buf, 1, len, f) == len;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/*
 * Past the first MiB the reader gives back the pages behind it; what it
 * handed out before stays readable (read again from the file).
 */
static void test_open_big(const char *path)
{
	size_t big = (3u << 20) + 8, i;
	const uint8_t *data = NULL;
	struct jitdump_record rec;
	struct jitdump_reader *r;
	const char *name = NULL;
	uint8_t *blob = malloc(big);
	int ret, same = 1;
	struct jdw w;

	if (!blob) {
		T("open big: memory", false);
		return;
	}
	for (i = 0; i < big; i++)
		blob[i] = (uint8_t)(i * 7 + i / 4099);
	jdw_init(&w, false);
	jdw_header(&w, 2, 40, 62, 4242, 2, 0);
	jdw_load(&w, 1, 1, 1, 0x1000, 1, "first", code16, 16);
	jdw_unwind(&w, 2, blob, big, 0, big);
	jdw_load(&w, 3, 1, 1, 0x2000, 2, "after", code16, 16);
	write_file(path, w.buf, w.len);
	r = jitdump_reader__open(path, 0);
	if (r && jitdump_reader__next(r, &rec) == 1)
		name = rec.u.load.name;
	if (r && jitdump_reader__next(r, &rec) == 1 && rec.type == JITDUMP_CODE_UNWINDING_INFO)
		data = rec.u.unwind.data;
	ret = r ? drain(r, &(size_t){ 0 }, NULL, 0, NULL) : -1;
	T("open big: read to the end", r && ret == 0 && jitdump_reader__offset(r) == w.len);
	T("open big: the pages behind are given back", r && r->map && r->released >= (2u << 20) &&
	  r->released <= w.len);
	for (i = 0; data && i < big; i++)
		if (data[i] != blob[i])
			same = 0;
	T("open big: bytes handed out earlier stay valid", name && !strcmp(name, "first") &&
	  data && same);
	jitdump_reader__delete(r);
	jdw_release(&w);
	free(blob);
}

static void test_jitdump__open(void)
{
	char dir[] = "/tmp/t-jitdump-XXXXXX", path[64];
	struct jitdump_record rec;
	struct jitdump_reader *r;
	const char *name = NULL;
	uint64_t off[5];
	struct jdw w;
	int ret, fds[2];

	if (!mkdtemp(dir)) {
		T("open: temporary directory", false);
		return;
	}
	snprintf(path, sizeof(path), "%s/jit-4242.dump", dir);
	build_sample(&w, true, 2, off);
	write_file(path, w.buf, w.len);
	r = jitdump_reader__open(path, 0);
	T("open: a file", r && jitdump_reader__pid(r) == 4242);
	if (r) {
		jitdump_reader__next(r, &rec);
		jitdump_reader__next(r, &rec);
		name = rec.u.load.name;
		while ((ret = jitdump_reader__next(r, &rec)) > 0)
			;
		T("open: read to the end", ret == 0 && rec.offset == w.len);
		T("open: names stay valid until delete", name &&
		  !strcmp(name, "LazyCompile:~f a.js:3"));
	}
	jitdump_reader__delete(r);

	/* cut short on disk; the message names the file */
	write_file(path, w.buf, (size_t)off[3] + 20);
	r = jitdump_reader__open(path, 0);
	start_capture();
	ret = r ? drain(r, &(size_t){ 0 }, NULL, 0, &rec.offset) : 0;
	jitdump_reader__set_print(NULL);
	T("open: a file cut short", ret == -JITDUMP_E_TRUNCATED_RECORD && rec.offset == off[3]);
	T("open: the message names the file", strstr(msgs, path) != NULL);
	jitdump_reader__delete(r);

	write_file(path, "", 0);
	errno = 0;
	T("open: an empty file is a truncated header", !jitdump_reader__open(path, 0) &&
	  errno == JITDUMP_E_TRUNCATED_HEADER);
	test_open_big(path);
	unlink(path);
	errno = 0;
	T("open: a missing file gives ENOENT", !jitdump_reader__open(path, 0) && errno == ENOENT);
	errno = 0;
	T("open: unknown flags refused with EINVAL", !jitdump_reader__open(path, 1u << 9) &&
	  errno == EINVAL);
	rmdir(dir);

	/* a pipe cannot be mapped: read instead */
	if (pipe(fds) == 0) {
		char fdpath[64];

		if (write(fds[1], w.buf, w.len) != (ssize_t)w.len)
			fds[1] = -1;
		close(fds[1]);
		snprintf(fdpath, sizeof(fdpath), "/dev/fd/%d", fds[0]);
		r = jitdump_reader__open(fdpath, 0);
		ret = r ? drain(r, &(size_t){ 0 }, NULL, 0, NULL) : -1;
		T("open: a pipe is read, not mapped", r && !r->map && ret == 0 &&
		  jitdump_reader__offset(r) == w.len);
		jitdump_reader__delete(r);
		close(fds[0]);
	}
	jdw_release(&w);
}

static void test_jitdump__strerror(void)
{
	int e, distinct = 1;

	for (e = JITDUMP_E_BAD_MAGIC; e < JITDUMP_E__END; e++) {
		const char *s = jitdump__strerror(-e);

		if (!s || !*s || s != jitdump__strerror(e) || strstr(s, "Unknown error"))
			distinct = 0;
		if (e > JITDUMP_E_BAD_MAGIC && !strcmp(s, jitdump__strerror(e - 1)))
			distinct = 0;
	}
	T("strerror: every JITDUMP_E_* has its own message, either sign", distinct);
	T("strerror: errno values", !strcmp(jitdump__strerror(-ENOENT), strerror(ENOENT)) &&
	  !strcmp(jitdump__strerror(ENOMEM), strerror(ENOMEM)));
	T("strerror: never NULL", jitdump__strerror(-2147483647 - 1) &&
	  jitdump__strerror(JITDUMP_E__END) && jitdump__strerror(0));
	T("strerror: cut short", strstr(jitdump__strerror(-JITDUMP_E_TRUNCATED_RECORD), "cut short"));
}

int main(void)
{
	int be;

	for (be = 0; be < 2; be++) {
		test_jitdump__header(be);
		test_jitdump__records(be);
		test_jitdump__cut_everywhere(be);
		test_jitdump__bad_total_size(be);
		test_jitdump__nr_entry(be);
		test_jitdump__filenames(be);
		test_jitdump__no_debug_entries(be);
		test_jitdump__load(be);
		test_jitdump__short_records(be);
		test_jitdump__unwind(be);
		test_jitdump__unknown_id(be);
	}
	test_jitdump__orders_agree();
	test_jitdump__versions();
	test_jitdump__bad_magic();
	test_jitdump__truncated_header();
	test_jitdump__header_size();
	test_jitdump__mono_header();
	test_jitdump__arch_timestamp();
	test_jitdump__after_close();
	test_jitdump__many_entries();
	test_jitdump__open();
	test_jitdump__strerror();
	return test_done();
}
