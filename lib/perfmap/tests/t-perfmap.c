/*
 * Unit tests for libperfmap. Uses only libc, the public header and, to
 * check the range invariants, the library's internal.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "perfmap/perfmap.h"

/* the project's one test harness: T(name, cond), test_done() */
#include "../../../tests/unit/test.h"

/* Messages seen by the print callback, one per line. */
static char msgs[1 << 16];
static size_t msgs_len;
static size_t nr_warn, nr_debug;

static int capture(enum perfmap_print_level level, const char *fmt, va_list ap)
{
	int n;

	if (level == PERFMAP_WARN)
		nr_warn++;
	else if (level == PERFMAP_DEBUG)
		nr_debug++;
	if (msgs_len + 1 >= sizeof(msgs))
		return 0;
	n = vsnprintf(msgs + msgs_len, sizeof(msgs) - msgs_len - 1, fmt, ap);
	if (n > 0)
		msgs_len += (size_t)n < sizeof(msgs) - msgs_len - 1 ?
			(size_t)n : sizeof(msgs) - msgs_len - 2;
	msgs[msgs_len++] = '\n';
	msgs[msgs_len] = '\0';
	return n;
}

static void reset_msgs(void)
{
	msgs_len = 0;
	msgs[0] = '\0';
	nr_warn = nr_debug = 0;
}

static bool has_msg(const char *s)
{
	return strstr(msgs, s) != NULL;
}

static struct perfmap *parse_str(const char *s)
{
	reset_msgs();
	return perfmap__parse(s, strlen(s));
}

static bool is(const struct perfmap_entry *e, const char *name)
{
	return e && !strcmp(e->name, name);
}

/* Ranges sorted, disjoint, non-empty, and not mergeable. */
static bool ranges_ok(const struct perfmap *pm)
{
	size_t i;

	for (i = 0; i < pm->nr_ranges; i++) {
		const struct perfmap_range *r = &pm->ranges[i];

		if (r->first > r->last || r->entry >= pm->nr_entries)
			return false;
		if (i && (pm->ranges[i - 1].last >= r->first ||
			  (pm->ranges[i - 1].entry == r->entry &&
			   pm->ranges[i - 1].last + 1 == r->first)))
			return false;
	}
	return pm->nr_ranges <= 2 * pm->nr_entries;
}

static void test_perfmap__hex_forms(void)
{
	struct perfmap *pm = parse_str(
		"0x1000 0x10 plain\n"
		"1100 10 noprefix\n"
		"0X1200 0X10 upperprefix\n"
		"ABCD0 1F upper\n"
		"abcf0 1f lower\n"
		"0000000000000000000000002000 000010 leading_zeros\n"
		"\t 3000\t\t10 \t tabs\n");

	T("hex: all lines parse", pm && perfmap__nr_entries(pm) == 7 &&
	  perfmap__nr_bad_lines(pm) == 0);
	if (!pm)
		return;
	T("hex: 0x prefix", is(perfmap__lookup(pm, 0x100f), "plain"));
	T("hex: no prefix", is(perfmap__lookup(pm, 0x1100), "noprefix"));
	T("hex: 0X prefix", is(perfmap__lookup(pm, 0x120f), "upperprefix"));
	T("hex: uppercase digits", is(perfmap__lookup(pm, 0xabcd0 + 0x1e), "upper"));
	T("hex: lowercase digits", is(perfmap__lookup(pm, 0xabcf0 + 0x1e), "lower"));
	T("hex: leading zeros beyond 16 digits", is(perfmap__lookup(pm, 0x200f), "leading_zeros"));
	T("hex: tabs and leading blanks", is(perfmap__lookup(pm, 0x3000), "tabs"));
	T("hex: entry keeps start and size", perfmap__lookup(pm, 0x1205) &&
	  perfmap__lookup(pm, 0x1205)->start == 0x1200 &&
	  perfmap__lookup(pm, 0x1205)->size == 0x10);
	perfmap__delete(pm);
}

static void test_perfmap__names(void)
{
	struct perfmap *pm = parse_str(
		"1000 10 LazyCompile:~foo bar.js:12:3\n"
		"2000 10 trailing  \n"
		"3000 10 crlf\r\n"
		"4000 10 in\ttab\n"
		"5000 10 \xff\xfe bytes\n"
		"6000 10 two\r\r\n"
		"7000 10 last\n");

	T("names: all lines parse", pm && perfmap__nr_entries(pm) == 7 &&
	  perfmap__nr_bad_lines(pm) == 0);
	if (!pm)
		return;
	T("names: spaces kept", is(perfmap__lookup(pm, 0x1000), "LazyCompile:~foo bar.js:12:3"));
	T("names: trailing blanks kept", is(perfmap__lookup(pm, 0x2000), "trailing  "));
	T("names: one trailing CR dropped", is(perfmap__lookup(pm, 0x3000), "crlf"));
	T("names: tab inside kept", is(perfmap__lookup(pm, 0x4000), "in\ttab"));
	T("names: non-UTF-8 bytes kept", is(perfmap__lookup(pm, 0x5000), "\xff\xfe bytes"));
	T("names: only one CR dropped", is(perfmap__lookup(pm, 0x6000), "two\r"));
	T("names: last line", is(perfmap__lookup(pm, 0x700f), "last"));
	perfmap__delete(pm);
}

/*
 * A map read while its runtime appends: the last line may be cut anywhere,
 * and a cut line can look well formed. It is not read, not bad, and said.
 */
static void test_perfmap__partial_line(void)
{
	static const char *const cuts[] = {
		"7f00002000 1", "7f00002000 1c0", "7f00002000 1c0 na", "7f0000", "  ",
	};
	perfmap_print_fn_t old = perfmap__set_print(capture);
	char buf[128];
	struct perfmap *pm;
	size_t i;

	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		snprintf(buf, sizeof(buf), "7f00001000 100 whole\n%s", cuts[i]);
		pm = parse_str(buf);
		T("partial: the whole line is read", pm && perfmap__nr_entries(pm) == 1 &&
		  is(perfmap__lookup(pm, 0x7f00001000), "whole"));
		T("partial: the cut line is neither an entry nor a bad line", pm &&
		  !perfmap__lookup(pm, 0x7f00002000) && perfmap__nr_bad_lines(pm) == 0);
		T("partial: its bytes are counted", pm &&
		  perfmap__partial_bytes(pm) == strlen(cuts[i]));
		T("partial: and said, at INFO, with its line", !nr_warn &&
		  has_msg("line 2: no newline at its end (still being written?)"));
		perfmap__delete(pm);
	}
	pm = parse_str("7f00001000 10");
	T("partial: a map of one cut line is empty", pm && perfmap__nr_entries(pm) == 0 &&
	  perfmap__nr_bad_lines(pm) == 0 && perfmap__partial_bytes(pm) == 13 &&
	  has_msg("line 1: no newline"));
	perfmap__delete(pm);
	pm = parse_str("7f00001000 10 a\n");
	T("partial: none when the text ends with a newline", pm &&
	  perfmap__partial_bytes(pm) == 0 && !has_msg("no newline"));
	perfmap__delete(pm);
	/* read again once the line is finished: the earlier lines as before, and it */
	pm = parse_str("7f00001000 100 whole\n7f00002000 1c0 name\n");
	T("partial: once finished, the line is read whole", pm &&
	  perfmap__nr_entries(pm) == 2 && is(perfmap__lookup(pm, 0x7f000021bf), "name") &&
	  perfmap__lookup(pm, 0x7f000021bf)->size == 0x1c0 &&
	  is(perfmap__lookup(pm, 0x7f00001000), "whole"));
	perfmap__delete(pm);
	perfmap__set_print(old);
}

static void test_perfmap__bad_lines(void)
{
	struct perfmap *pm;
	perfmap_print_fn_t old = perfmap__set_print(capture);

	pm = parse_str(
		"1000 10 good\n"            /* 1 */
		"\n"                        /* 2 */
		"   \t\n"                   /* 3 */
		"\r\n"                      /* 4 */
		"zzz 10 x\n"                /* 5 */
		"1000\n"                    /* 6 */
		"1000 10\n"                 /* 7 */
		"1000 zz x\n"               /* 8 */
		"1000 10x y\n"              /* 9 */
		"-1 10 x\n"                 /* 10 */
		"0x 10 x\n"                 /* 11 */
		"12345678901234567 1 x\n"   /* 12 */
		"1000 10 \r\n"              /* 13 */
		"1000x 10 x\n"              /* 14 */
		"2000 10 good2\n");         /* 15 */
	T("bad: parsed", pm != NULL);
	if (!pm)
		goto out;
	T("bad: two good entries", perfmap__nr_entries(pm) == 2);
	T("bad: thirteen bad lines", perfmap__nr_bad_lines(pm) == 13);
	T("bad: blank line named", has_msg("line 2: blank line") &&
	  has_msg("line 3: blank line") && has_msg("line 4: blank line"));
	T("bad: bad start named", has_msg("line 5: bad start address") &&
	  has_msg("line 10: bad start address") && has_msg("line 11: bad start address") &&
	  has_msg("line 14: bad start address"));
	T("bad: missing size", has_msg("line 6: bad start address"));
	T("bad: missing name", has_msg("line 7: missing name") && has_msg("line 13: missing name"));
	T("bad: bad size", has_msg("line 8: bad size") && has_msg("line 9: bad size"));
	T("bad: over 64 bits", has_msg("line 12: bad start address"));
	T("bad: good lines still resolve", is(perfmap__lookup(pm, 0x1000), "good") &&
	  is(perfmap__lookup(pm, 0x200f), "good2"));
	T("bad: first ten at WARN, rest at DEBUG, summary",
	  nr_warn == PERFMAP_MAX_WARNINGS + 1 && nr_debug >= 3 &&
	  has_msg("13 bad lines in total"));
	perfmap__delete(pm);
out:
	perfmap__set_print(old);
}

static void test_perfmap__warning_limit(void)
{
	char buf[4096] = "";
	size_t i, len = 0;
	struct perfmap *pm;
	perfmap_print_fn_t old = perfmap__set_print(capture);

	for (i = 0; i < 25; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "bad line %zu\n", i);
	pm = parse_str("x\ny\n");
	T("limit: no summary under the limit", pm && nr_warn == 2 && !has_msg("in total"));
	perfmap__delete(pm);
	pm = parse_str(buf);
	T("limit: 25 bad lines counted", pm && perfmap__nr_bad_lines(pm) == 25);
	T("limit: first ones at WARN, rest at DEBUG, then a summary",
	  nr_warn == PERFMAP_MAX_WARNINGS + 1 && nr_debug >= 25 - PERFMAP_MAX_WARNINGS &&
	  has_msg("25 bad lines in total"));
	perfmap__delete(pm);
	T("set_print returns the previous callback", perfmap__set_print(old) == capture);
	T("set_print restores", perfmap__set_print(old) == old);
}

static void test_perfmap__overlap(void)
{
	struct perfmap *pm = parse_str(
		"1000 100 A\n"      /* split by B */
		"1040 20 B\n"
		"2000 100 C\n"      /* tail replaced by D */
		"2080 100 D\n"
		"3000 10 E\n"       /* wholly covered by F */
		"2ff0 100 F\n"
		"4100 100 G\n"      /* head replaced by H, listed later but lower */
		"4000 180 H\n"
		"5000 100 I\n"      /* same range again: re-JIT */
		"5000 100 I2\n"
		"6000 100 J\n"      /* later and larger: J gone */
		"5f00 300 K\n"
		"6000 10 L\n");     /* then L on top of K */
	const struct perfmap_entry *a;

	T("overlap: parsed", pm && perfmap__nr_entries(pm) == 13);
	if (!pm)
		return;
	T("overlap: ranges sorted and disjoint", ranges_ok(pm));
	a = perfmap__lookup(pm, 0x103f);
	T("overlap: earlier entry before the later one", is(a, "A"));
	T("overlap: lookup returns the original line", a && a->start == 0x1000 && a->size == 0x100);
	T("overlap: later entry wins inside", is(perfmap__lookup(pm, 0x1040), "B") &&
	  is(perfmap__lookup(pm, 0x105f), "B"));
	T("overlap: earlier entry after the later one", is(perfmap__lookup(pm, 0x1060), "A") &&
	  is(perfmap__lookup(pm, 0x10ff), "A"));
	T("overlap: partial, tail", is(perfmap__lookup(pm, 0x207f), "C") &&
	  is(perfmap__lookup(pm, 0x2080), "D") && is(perfmap__lookup(pm, 0x217f), "D"));
	T("overlap: wholly covered entry never found",
	  is(perfmap__lookup(pm, 0x3000), "F") && is(perfmap__lookup(pm, 0x300f), "F") &&
	  is(perfmap__lookup(pm, 0x30ef), "F") && !perfmap__lookup(pm, 0x30f0));
	T("overlap: partial, head", is(perfmap__lookup(pm, 0x4000), "H") &&
	  is(perfmap__lookup(pm, 0x417f), "H") && is(perfmap__lookup(pm, 0x4180), "G") &&
	  is(perfmap__lookup(pm, 0x41ff), "G"));
	T("overlap: same range, later wins", is(perfmap__lookup(pm, 0x5000), "I2") &&
	  is(perfmap__lookup(pm, 0x50ff), "I2"));
	T("overlap: layered", is(perfmap__lookup(pm, 0x5f00), "K") &&
	  is(perfmap__lookup(pm, 0x6000), "L") && is(perfmap__lookup(pm, 0x6010), "K") &&
	  is(perfmap__lookup(pm, 0x61ff), "K") && !perfmap__lookup(pm, 0x6200));
	perfmap__delete(pm);
}

static void test_perfmap__boundaries(void)
{
	struct perfmap *pm = parse_str(
		"1000 10 a\n"
		"1010 10 b\n"
		"2000 0 zero\n"
		"3000 100 big\n"
		"3050 0 zero_inside\n"
		"ffffffffffffff00 100 top\n"
		"ffffffffffff0000 101 overflow_not\n"
		"fffffffffffffff0 11 overflow\n"
		"2 ffffffffffffffff overflow_too\n"
		"0 1 bottom\n");

	T("bounds: parsed", pm != NULL);
	if (!pm)
		return;
	T("bounds: two overflowing lines rejected", perfmap__nr_bad_lines(pm) == 2 &&
	  perfmap__nr_entries(pm) == 8);
	T("bounds: start hits", is(perfmap__lookup(pm, 0x1000), "a"));
	T("bounds: start + size - 1 hits", is(perfmap__lookup(pm, 0x100f), "a"));
	T("bounds: start + size is the next entry", is(perfmap__lookup(pm, 0x1010), "b"));
	T("bounds: end misses", !perfmap__lookup(pm, 0x1020));
	T("bounds: before start misses", !perfmap__lookup(pm, 0xfff));
	T("bounds: size 0 kept but never found", !perfmap__lookup(pm, 0x2000) &&
	  is(perfmap__entry(pm, 2), "zero"));
	T("bounds: size 0 does not split", is(perfmap__lookup(pm, 0x3050), "big"));
	T("bounds: range ending at 2^64", is(perfmap__lookup(pm, UINT64_MAX), "top") &&
	  is(perfmap__lookup(pm, 0xffffffffffffff00ULL), "top"));
	T("bounds: just below top", is(perfmap__lookup(pm, 0xffffffffffff0100ULL), "overflow_not") &&
	  !perfmap__lookup(pm, 0xffffffffffff0101ULL));
	T("bounds: address 0", is(perfmap__lookup(pm, 0), "bottom") && !perfmap__lookup(pm, 1));
	T("bounds: entry() out of range is NULL", !perfmap__entry(pm, 8));
	T("bounds: ranges ok", ranges_ok(pm));
	perfmap__delete(pm);

	pm = parse_str("1 ffffffffffffffff everything_but_0\n");
	T("bounds: 1 + (2^64 - 1) ends exactly at 2^64",
	  pm && is(perfmap__lookup(pm, UINT64_MAX), "everything_but_0") && !perfmap__lookup(pm, 0));
	perfmap__delete(pm);
}

static void test_perfmap__nul_and_empty(void)
{
	static const char buf[] = "7000 10 na\0me\n\0\n7100 10 ok\n7200 10 tail\0\n";
	perfmap_print_fn_t old = perfmap__set_print(capture);
	struct perfmap *pm;

	reset_msgs();
	pm = perfmap__parse(buf, sizeof(buf) - 1);
	T("nul: parsed", pm != NULL);
	if (pm) {
		T("nul: lines with NUL rejected", perfmap__nr_entries(pm) == 1 &&
		  perfmap__nr_bad_lines(pm) == 3);
		T("nul: reported with line numbers", has_msg("line 1: NUL byte") &&
		  has_msg("line 2: NUL byte") && has_msg("line 4: NUL byte"));
		T("nul: good line between", is(perfmap__lookup(pm, 0x7100), "ok"));
		T("nul: no entry for rejected", !perfmap__lookup(pm, 0x7000));
	}
	perfmap__delete(pm);
	perfmap__set_print(old);

	pm = perfmap__parse("", 0);
	T("empty: empty map", pm && perfmap__nr_entries(pm) == 0 &&
	  perfmap__nr_bad_lines(pm) == 0 && !perfmap__lookup(pm, 0));
	perfmap__delete(pm);
	pm = perfmap__parse(NULL, 0);
	T("empty: NULL, 0 is an empty map", pm && !perfmap__lookup(pm, 5));
	perfmap__delete(pm);
	errno = 0;
	T("empty: NULL with length is EINVAL", !perfmap__parse(NULL, 3) && errno == EINVAL);
	pm = parse_str("\n");
	T("empty: one blank line", pm && perfmap__nr_bad_lines(pm) == 1);
	perfmap__delete(pm);
	perfmap__delete(NULL);
}

static void test_perfmap__long_name(void)
{
	size_t n = PERFMAP_MAX_NAME + 5000, i;
	char *buf = malloc(n + 64);
	struct perfmap *pm;
	const struct perfmap_entry *e;
	perfmap_print_fn_t old = perfmap__set_print(capture);
	size_t len;

	if (!buf)
		abort();
	len = (size_t)snprintf(buf, 64, "1000 10 ");
	for (i = 0; i < n; i++)
		buf[len++] = (char)('a' + i % 26);
	len += (size_t)snprintf(buf + len, 64, "\n2000 10 next\n");
	reset_msgs();
	pm = perfmap__parse(buf, len);
	e = pm ? perfmap__lookup(pm, 0x1000) : NULL;
	T("long: name cut to the cap", e && strlen(e->name) == PERFMAP_MAX_NAME &&
	  !memcmp(e->name, buf + 8, PERFMAP_MAX_NAME));
	T("long: cut reported", has_msg("line 1: name cut"));
	T("long: not a bad line", pm && perfmap__nr_bad_lines(pm) == 0);
	T("long: next line fine", pm && is(perfmap__lookup(pm, 0x2000), "next"));
	perfmap__delete(pm);
	free(buf);
	perfmap__set_print(old);
}

static void test_perfmap__read_file(void)
{
	static const char text[] = "1000 10 from_file\nbad\n";
	char dir[] = "/tmp/t-perfmap.XXXXXX", path[64];
	perfmap_print_fn_t old = perfmap__set_print(capture);
	struct perfmap *pm;
	FILE *fp;

	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/perf-1.map", dir);
	fp = fopen(path, "w");
	if (!fp || fwrite(text, 1, sizeof(text) - 1, fp) != sizeof(text) - 1 || fclose(fp))
		abort();
	reset_msgs();
	pm = perfmap__read(path);
	T("read: file", pm && is(perfmap__lookup(pm, 0x100f), "from_file") &&
	  perfmap__nr_bad_lines(pm) == 1);
	T("read: messages name the file", has_msg("perf-1.map':2: bad start address"));
	perfmap__delete(pm);
	unlink(path);
	errno = 0;
	T("read: missing file is NULL/ENOENT", !perfmap__read(path) && errno == ENOENT);
	errno = 0;
	T("read: directory is NULL/EISDIR", !perfmap__read(dir) && errno == EISDIR);
	rmdir(dir);
	perfmap__set_print(old);
}

/* perfmap__read_each(): what it hands out, in order, copied. */
struct each {
	size_t nr;
	uint64_t start[8], size[8];
	char name[8][80];
	size_t name_len[8];
	size_t stop_at;         /* return -EINTR at this entry (1-based); 0: never */
	const struct perfmap *want;   /* when set, each entry must equal want's */
	size_t mismatches;
};

static int each_fn(void *ctx, const struct perfmap_entry *e)
{
	struct each *ea = ctx;
	size_t i = ea->nr++;

	if (ea->want) {
		const struct perfmap_entry *w = perfmap__entry(ea->want, i);

		if (!w || w->start != e->start || w->size != e->size || strcmp(w->name, e->name))
			ea->mismatches++;
	}
	if (i < 8) {
		ea->start[i] = e->start;
		ea->size[i] = e->size;
		ea->name_len[i] = strlen(e->name);
		snprintf(ea->name[i], sizeof(ea->name[i]), "%s", e->name);
	}
	return ea->stop_at && ea->nr == ea->stop_at ? -EINTR : 0;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "w");

	if (!fp || fwrite(text, 1, len, fp) != len || fclose(fp))
		abort();
}

/*
 * The streamed reader agrees with perfmap__read() line for line, across its
 * chunks, with a line longer than a chunk, and at a cut last line.
 */
static void test_perfmap__read_each(void)
{
	char dir[] = "/tmp/t-perfmap.XXXXXX", path[64];
	perfmap_print_fn_t old = perfmap__set_print(capture);
	size_t i, len = 0, cap = 6u << 20;
	struct perfmap_stats st;
	struct each ea;
	struct perfmap *pm;
	char *buf = malloc(cap);
	int ret;

	if (!buf || !mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/perf-2.map", dir);
	len += (size_t)snprintf(buf + len, cap - len, "0x10 0x8 first\nbad line\n");
	/* a name of 2 MiB: longer than a chunk, cut to PERFMAP_MAX_NAME */
	len += (size_t)snprintf(buf + len, cap - len, "20 8 ");
	memset(buf + len, 'n', 2u << 20);
	len += 2u << 20;
	buf[len++] = '\n';
	for (i = 0; len + 64 < cap - 64 && i < 100000; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%zx %zx f_%zu\n",
					(size_t)0x100000 + 16 * i, (size_t)16, i);
	len += (size_t)snprintf(buf + len, cap - len, "7f00002000 1c0 cut");
	write_file(path, buf, len);

	reset_msgs();
	pm = perfmap__read(path);
	memset(&ea, 0, sizeof(ea));
	ea.want = pm;
	reset_msgs();
	ret = perfmap__read_each(path, each_fn, &ea, &st);
	T("each: reads the file", pm && ret == 0 && ea.nr == perfmap__nr_entries(pm) &&
	  st.nr_entries == ea.nr && ea.nr == i + 2);
	T("each: every entry as perfmap__read() has it, in order", pm && !ea.mismatches);
	T("each: the first entry", ea.start[0] == 0x10 && ea.size[0] == 8 &&
	  !strcmp(ea.name[0], "first"));
	T("each: a line longer than a chunk, its name cut", ea.start[1] == 0x20 &&
	  ea.name_len[1] == PERFMAP_MAX_NAME && has_msg("perf-2.map':3: name cut to"));
	T("each: bad lines counted and named", st.nr_bad_lines == 1 &&
	  has_msg("perf-2.map':2: bad size"));
	T("each: the cut last line not read, and said", st.partial_bytes == 18 &&
	  pm && perfmap__partial_bytes(pm) == 18 && has_msg("no newline at its end"));
	perfmap__delete(pm);

	memset(&ea, 0, sizeof(ea));
	ea.stop_at = 3;
	ret = perfmap__read_each(path, each_fn, &ea, &st);
	T("each: the callback's error stops the read", ret == -EINTR && ea.nr == 3 &&
	  st.nr_entries == 3);

	write_file(path, "", 0);
	memset(&ea, 0, sizeof(ea));
	T("each: an empty file", perfmap__read_each(path, each_fn, &ea, &st) == 0 &&
	  !ea.nr && !st.nr_entries && !st.nr_bad_lines && !st.partial_bytes);
	unlink(path);
	T("each: missing file is -ENOENT", perfmap__read_each(path, each_fn, &ea, &st) == -ENOENT);
	T("each: a directory is -EISDIR", perfmap__read_each(dir, each_fn, &ea, &st) == -EISDIR);
	rmdir(dir);
	free(buf);
	perfmap__set_print(old);
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* Random small maps against a brute-force "latest line covering addr". */
static void test_perfmap__random_vs_bruteforce(void)
{
	char buf[64 * 40];
	int round, bad = 0, bad_ranges = 0;

	for (round = 0; round < 300; round++) {
		uint64_t st[64], sz[64];
		size_t n = 1 + rnd() % 64, i, len = 0;
		struct perfmap *pm;
		uint64_t a;

		for (i = 0; i < n; i++) {
			st[i] = rnd() % 4096;
			sz[i] = rnd() % 8 ? rnd() % 300 : 0;
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
				"%" PRIx64 " %" PRIx64 " e%zu\n", st[i], sz[i], i);
		}
		pm = perfmap__parse(buf, len);
		if (!pm || !ranges_ok(pm)) {
			bad_ranges++;
			perfmap__delete(pm);
			continue;
		}
		for (a = 0; a < 4500; a++) {
			const struct perfmap_entry *e = perfmap__lookup(pm, a);
			size_t k = n, want = SIZE_MAX;

			while (k--)
				if (a >= st[k] && a - st[k] < sz[k]) {
					want = k;
					break;
				}
			if (want == SIZE_MAX ? e != NULL : e != perfmap__entry(pm, want))
				bad++;
		}
		perfmap__delete(pm);
	}
	T("random: range invariants hold", bad_ranges == 0);
	T("random: lookups match brute force", bad == 0);
}

/* A million-line map with overlaps parses in roughly linear time. */
static void test_perfmap__million_lines(void)
{
	size_t n = 1000000, i, len = 0, cap = n * 48;
	char *buf = malloc(cap);
	struct perfmap *pm;
	struct timespec t0, t1;
	double secs;
	uint64_t a;
	int misses = 0;

	if (!buf)
		abort();
	for (i = 0; i < n; i++) {
		uint64_t start = 0x7f0000000000ULL + (rnd() % (n * 64));

		len += (size_t)snprintf(buf + len, cap - len, "%" PRIx64 " %" PRIx64 " fn_%zu\n",
					start, 16 + rnd() % 512, i);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pm = perfmap__parse(buf, len);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# 1M lines (%zu bytes) parsed in %.3f s, %zu ranges\n", len, secs,
	       pm ? pm->nr_ranges : 0);
	T("million: parsed", pm && perfmap__nr_entries(pm) == n && perfmap__nr_bad_lines(pm) == 0);
	T("million: ranges ok", pm && ranges_ok(pm));
	/* the time is printed, not asserted: speed belongs to bench/, not tests */
	/* the last line always wins where it lies */
	if (pm) {
		const struct perfmap_entry *last = perfmap__entry(pm, n - 1);

		for (a = last->start; a < last->start + last->size; a++)
			if (perfmap__lookup(pm, a) != last)
				misses++;
	}
	T("million: last line wins everywhere it covers", pm && !misses);
	perfmap__delete(pm);
	free(buf);
}

int main(void)
{
	test_perfmap__hex_forms();
	test_perfmap__names();
	test_perfmap__partial_line();
	test_perfmap__bad_lines();
	test_perfmap__warning_limit();
	test_perfmap__overlap();
	test_perfmap__boundaries();
	test_perfmap__nul_and_empty();
	test_perfmap__long_name();
	test_perfmap__read_file();
	test_perfmap__read_each();
	test_perfmap__random_vs_bruteforce();
	test_perfmap__million_lines();
	return test_done();
}
