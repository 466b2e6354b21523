/*
 * Unit tests for the JIT timeline (jitmap.c) fed by its two loaders
 * (jit-loader-jitdump.c, jit-loader-perfmap.c): loads, reuse of an
 * address, partial overlap, moves (also from code already moved away), V8
 * debug info and leaving it out, the perf map fallback (also read while
 * it grows, and again after an exec), fork and exec,
 * recordings without -k 1, missing or cut-short jitdumps, and pid
 * namespaces (whose a file's records are, NAMESPACES, given files),
 * whose a file is (another run's copy refused, or used when given; records
 * from before the process mapped it or exec'd), perf-map lines that repeat
 * a jitdump load, a cut jitdump's samples after its last record, and where
 * calls end in a load's code, read again from the file when asked. The
 * jitdump files are written with the jitdump-reader tests' writer.
 */
#include "common/common.h"
#include "timeline/jit-loader.h"
#include "timeline/jitmap.h"
#include "common/sbuf.h"
#include "common/strpool.h"
#include "test.h"

#include <sys/stat.h>
#include <unistd.h>

#include <perfmap/perfmap.h>

#include "../../lib/jitdump-reader/tests/jd-writer.h"

/* Above any real pid (2^22), so no /tmp/perf-PID.map on the host can match. */
#define PID 5000100
#define CHILD 5000101
#define LOST 5000200
#define MOVER 5000300
#define UNWINDER 5000500
#define OVERLAP 5000400
/* pid namespaces: host pids, and the namespace pid a writer gave itself (no host /tmp file has it) */
#define NSHOST 5000600
#define NSPID 4000001
#define PARENT 5000700
#define FORKED 5000701
#define INIT 5000800
#define JOINED 5000801
#define RECORDER 5000802
#define GIVEN 5000900
#define GROWING 5000960
/* whose a file is: a process, the pid another run's copy says, a child */
#define WHOSE 5001000
#define WHOSE_OTHER 5001001
#define WHOSE_CHILD 5001002
#define EARLY 5001010
#define REPEAT 5001100
#define REPEAT2 5001101
#define CUT 5001200
#define CALLER 5001300
#define STR_(x) #x
#define STR(x) STR_(x)

static struct sbuf msgs = SBUF_INIT;
static char dir[] = "/tmp/t-jitmap-XXXXXX";
static const uint8_t code[0x200];

/* How many times needle is in haystack. */
static size_t count_of(const char *haystack, const char *needle)
{
	size_t n = 0;

	while (haystack && (haystack = strstr(haystack, needle))) {
		n++;
		haystack += strlen(needle);
	}
	return n;
}

static void capture(const char *line)
{
	sbuf_addstr(&msgs, line);
	sbuf_addch(&msgs, '\n');
}

static void write_file(const char *name, const void *buf, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	fwrite(buf, 1, len, f);
	fclose(f);
	free(path);
}

/* The timed (jitdump) function at ip now. */
static const struct jit_sym *find_jitdump(struct jitmap *jm, uint32_t pid, uint64_t ip)
{
	return jitmap__find(jm, pid, ip, false);
}

/* The untimed (perf map) function at ip, where no timed entry covers it. */
static const struct jit_sym *find_perfmap(struct jitmap *jm, uint32_t pid, uint64_t ip)
{
	const struct jit_sym *s = jitmap__find(jm, pid, ip, true);

	return s && s->loader->kind == JIT_UNTIMED ? s : NULL;
}

static const char *name_at(struct jitmap *jm, uint32_t pid, uint64_t ip)
{
	const struct jit_sym *s = find_jitdump(jm, pid, ip);

	return s ? s->name : "(none)";
}

static const struct jit_loader *jitdump_loader(void)
{
	return jit_loader__for_marker("jit-1.dump");
}

/* What sources says a process's jitdump held, or "" when none was read. */
static const char *jitdump_said(struct jitmap *jm, uint32_t pid, struct sbuf *out)
{
	const struct jit_file_info *fi = jitmap__file(jm, pid, jitdump_loader());

	sbuf_reset(out);
	if (fi && fi->path)
		fi->loader->describe(fi, out);
	return out->buf;
}

/* PID's dump: the load, reuse, overlap and move sequence. */
static void write_dump_100(bool truncate)
{
	struct jdw w;
	struct jdw_entry lines[2] = {
		{ 0x4000 + 0x40, 7, 3, "/app/f.js" },   /* V8: biased by 0x40, column in discrim */
		{ 0x4020 + 0x40, 8, 5, "\xff" },
	};

	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, PID, 1, 0);
	jdw_load(&w, 10, PID, PID, 0x1000, 1, "A", code, 0x100);
	jdw_load(&w, 20, PID, PID, 0x1000, 2, "B", code, 0x100);
	jdw_load(&w, 30, PID, PID, 0x1080, 3, "C", code, 0x100);
	jdw_load(&w, 40, PID, PID, 0x2000, 4, "D", code, 0x80);
	jdw_move(&w, 50, PID, PID, 0x2000, 0x3000, 0x80, 4);
	jdw_debug(&w, 55, 0x4000, lines, 2);
	jdw_load(&w, 56, PID, PID, 0x4000, 5, "JS:*f /app/f.js:7", code, 0x40);
	jdw_load(&w, 70, PID, PID, 0x6000, 6, "E", code, 0x40);
	write_file("jit-" STR(PID) ".dump", w.buf, truncate ? w.len - 20 : w.len);
	jdw_release(&w);
}

static struct jitmap *new_map_lines(struct strpool *pool, bool timeless, bool lines)
{
	const char *pm_dirs[] = { dir };
	struct jitmap_opts o = {
		.perf_data_dir = dir,
		.perfmap_dirs = pm_dirs,
		.nr_perfmap_dirs = 1,
		.timeless = timeless,
		.lines = lines,
	};

	return jitmap__new(&o, pool);
}

static struct jitmap *new_map(struct strpool *pool, bool timeless)
{
	return new_map_lines(pool, timeless, true);
}

static void test_timeline(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	const struct jit_sym *b, *d;
	const struct jit_line *l;

	jitmap__mmap(jm, PID, "/nonexistent/jit-" STR(PID) ".dump");
	T("nothing before the first load", jitmap__advance(jm, PID, 5) == false &&
	  !strcmp(name_at(jm, PID, 0x1010), "(none)"));
	T("a load applies at its time", jitmap__advance(jm, PID, 10) &&
	  !strcmp(name_at(jm, PID, 0x1010), "A"));
	jitmap__advance(jm, PID, 19);
	T("still A before the reuse", !strcmp(name_at(jm, PID, 0x10ff), "A"));
	jitmap__advance(jm, PID, 20);
	T("a later load over the same bytes ends the earlier one",
	  !strcmp(name_at(jm, PID, 0x1010), "B"));
	jitmap__advance(jm, PID, 30);
	T("partial overlap: the first half is still B", !strcmp(name_at(jm, PID, 0x1010), "B"));
	T("partial overlap: the second half is C", !strcmp(name_at(jm, PID, 0x1090), "C"));
	T("partial overlap: C's own range", !strcmp(name_at(jm, PID, 0x117f), "C") &&
	  !strcmp(name_at(jm, PID, 0x1180), "(none)"));
	jitmap__advance(jm, PID, 45);
	T("D before its move", !strcmp(name_at(jm, PID, 0x2010), "D"));
	jitmap__advance(jm, PID, 50);
	d = find_jitdump(jm, PID, 0x3010);
	T("a move ends the old range", !strcmp(name_at(jm, PID, 0x2010), "(none)"));
	T("a move starts the new one", d && !strcmp(d->name, "D") && d->start == 0x3000);
	/* names are the timeline's copies until found (jit_sym.name_pending) */
	b = find_jitdump(jm, PID, 0x1010);
	T("a found load's name is interned",
	  b && b->name == strpool__intern(pool, "B") && !b->name_pending);
	T("a moved load's name is interned when found", d && d->name == strpool__intern(pool, "D"));
	jitmap__advance(jm, PID, 60);
	d = find_jitdump(jm, PID, 0x4030);
	l = d ? jit_sym__line(d, 0x4030) : NULL;
	T("V8 debug info: bias removed, column from discrim",
	  l && l->line == 8 && l->column == 5 && !strcmp(l->file, "/app/f.js"));
	l = d ? jit_sym__line(d, 0x4000) : NULL;
	T("V8 debug info: first line", l && l->line == 7 && l->column == 3);
	T("perf map fills in where no jitdump entry covers ip",
	  find_perfmap(jm, PID, 0x5010) &&
	  !strcmp(find_perfmap(jm, PID, 0x5010)->name, "stub one"));
	T("the jitdump beats the perf map where both cover ip",
	  jitmap__find(jm, PID, 0x1005, true) &&
	  !strcmp(jitmap__find(jm, PID, 0x1005, true)->name, "B") &&
	  jitmap__find(jm, PID, 0x1005, true)->loader == jitdump_loader());

	jitmap__fork(jm, CHILD, PID, 65);
	jitmap__advance(jm, PID, 80);
	T("fork: the child has the parent's code as of the fork",
	  !strcmp(name_at(jm, CHILD, 0x1010), "B") && !strcmp(name_at(jm, CHILD, 0x3010), "D"));
	T("fork: not the parent's later loads", !strcmp(name_at(jm, CHILD, 0x6010), "(none)") &&
	  !strcmp(name_at(jm, PID, 0x6010), "E"));
	T("fork: the child falls back to the parent's perf map",
	  find_perfmap(jm, CHILD, 0x5010) != NULL);
	jitmap__exec(jm, CHILD, 90);
	T("exec starts empty", !strcmp(name_at(jm, CHILD, 0x1010), "(none)") &&
	  find_perfmap(jm, CHILD, 0x5010) == NULL);
	jitmap__delete(jm);
}

static void test_timeless(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, true);

	sbuf_reset(&msgs);
	jitmap__mmap(jm, PID, "/nonexistent/jit-" STR(PID) ".dump");
	T("timeless: warned about -k 1", strstr(msgs.buf, "-k 1") != NULL);
	jitmap__advance(jm, PID, 0);
	T("timeless: the last load at an address wins", !strcmp(name_at(jm, PID, 0x1010), "B"));
	jitmap__delete(jm);
}

static void test_missing_and_truncated(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	const struct jit_file_info *fi;

	sbuf_reset(&msgs);
	jitmap__mmap(jm, LOST, "/nonexistent/jit-" STR(LOST) ".dump");
	T("missing jitdump: a warning names the pid and the paths tried",
	  strstr(msgs.buf, "pid " STR(LOST)) && strstr(msgs.buf, "/nonexistent/jit-" STR(LOST) ".dump") &&
	  strstr(msgs.buf, "not found"));
	T("missing jitdump: sources can say where it looked",
	  (fi = jitmap__file(jm, LOST, jitdump_loader())) && fi->tried && !fi->path);
	write_dump_100(true);
	sbuf_reset(&msgs);
	jitmap__mmap(jm, PID, "/nonexistent/jit-" STR(PID) ".dump");
	jitmap__advance(jm, PID, 60);
	T("cut short: the records before the cut are used",
	  !strcmp(name_at(jm, PID, 0x3010), "D") && strstr(msgs.buf, "jit-" STR(PID) ".dump") &&
	  strstr(msgs.buf, "records before it"));
	T("cut short: the cut record is not", !strcmp(name_at(jm, PID, 0x6010), "(none)"));
	jitmap__delete(jm);
}

static void test_no_lines(struct strpool *pool)
{
	struct jitmap *jm = new_map_lines(pool, false, false);
	struct sbuf said = SBUF_INIT;
	const struct jit_sym *d;

	write_dump_100(false);
	jitmap__mmap(jm, PID, "/nonexistent/jit-" STR(PID) ".dump");
	jitmap__advance(jm, PID, 60);
	d = find_jitdump(jm, PID, 0x4030);
	T("no lines: the function is there", d && !strcmp(d->name, "JS:*f /app/f.js:7"));
	T("no lines: without its line table", d && !d->lines && !d->nr_lines &&
	  !jit_sym__line(d, 0x4030));
	T("no lines: debug info records still counted",
	  !strcmp(jitdump_said(jm, PID, &said), "8 records (6 loads, 1 moves, 1 debug info)"));
	sbuf_release(&said);
	jitmap__delete(jm);
}

/*
 * A move from an address nothing covers any more (its code moved away
 * already): the function is found by code_index and address among
 * everything loaded, the last one made winning.
 */
static void test_stale_move(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	struct jdw w;

	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, MOVER, 1, 0);
	jdw_load(&w, 10, MOVER, MOVER, 0x7000, 7, "F", code, 0x40);
	jdw_load(&w, 11, MOVER, MOVER, 0x7100, 8, "G", code, 0x40);
	jdw_move(&w, 20, MOVER, MOVER, 0x7000, 0x8000, 0x40, 7);
	jdw_move(&w, 30, MOVER, MOVER, 0x7000, 0x9000, 0x40, 7);
	jdw_move(&w, 40, MOVER, MOVER, 0x7200, 0xa000, 0x40, 9);
	write_file("jit-" STR(MOVER) ".dump", w.buf, w.len);
	jdw_release(&w);
	jitmap__mmap(jm, MOVER, "/nonexistent/jit-" STR(MOVER) ".dump");
	jitmap__advance(jm, MOVER, 20);
	T("stale move: the first move takes the code", !strcmp(name_at(jm, MOVER, 0x8010), "F") &&
	  !strcmp(name_at(jm, MOVER, 0x7010), "(none)"));
	jitmap__advance(jm, MOVER, 30);
	T("stale move: found by code_index and old address",
	  !strcmp(name_at(jm, MOVER, 0x9010), "F") && !strcmp(name_at(jm, MOVER, 0x7110), "G"));
	jitmap__advance(jm, MOVER, 40);
	T("stale move: unknown code is named as moved",
	  !strcmp(name_at(jm, MOVER, 0xa010), "[moved JIT code]"));
	jitmap__delete(jm);
}

/*
 * JIT_CODE_UNWINDING_INFO: the rules go with the load after them (and with
 * its code when it moves); identical rules are one copy; a load without a
 * record before it has none, and bad rules are refused and counted.
 */
static void test_unwind(struct strpool *pool)
{
	/* CPython 3.13's rules for a trampoline: .eh_frame (48) + .eh_frame_hdr (20) */
	static const uint8_t rules[68] = {
		0x14, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 0x10, 1,
		0x1b, 0x0c, 0x07, 0x08, 0x90, 0x01, 0, 0,
		0x14, 0, 0, 0, 0x1c, 0, 0, 0, 0xd0, 0xff, 0xff, 0xff, 0x0b, 0, 0, 0,
		0, 0x44, 0x0e, 0x10, 0x46, 0x0e, 0x08, 0,
		0x01, 0x1b, 0x03, 0x3b, 0xcc, 0xff, 0xff, 0xff, 1, 0, 0, 0,
		0xc0, 0xff, 0xff, 0xff, 0xe8, 0xff, 0xff, 0xff,
	};
	uint8_t bad[sizeof(rules)];
	struct jitmap *jm = new_map(pool, false);
	const struct jit_sym *a, *b, *c, *d;
	struct sbuf said = SBUF_INIT;
	struct jdw w;

	memcpy(bad, rules, sizeof(bad));
	bad[14] = 200;          /* return address column 200 */
	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, UNWINDER, 1, 0);
	jdw_unwind(&w, 9, rules, sizeof(rules), 20, sizeof(rules));
	jdw_load(&w, 10, UNWINDER, UNWINDER, 0x7000, 1, "A", code, 11);
	jdw_unwind(&w, 19, rules, sizeof(rules), 20, sizeof(rules));
	jdw_load(&w, 20, UNWINDER, UNWINDER, 0x7100, 2, "B", code, 11);
	jdw_load(&w, 30, UNWINDER, UNWINDER, 0x7200, 3, "C", code, 11);
	jdw_unwind(&w, 39, bad, sizeof(bad), 20, sizeof(bad));
	jdw_load(&w, 40, UNWINDER, UNWINDER, 0x7300, 4, "D", code, 11);
	jdw_move(&w, 50, UNWINDER, UNWINDER, 0x7000, 0x8000, 11, 1);
	write_file("jit-" STR(UNWINDER) ".dump", w.buf, w.len);
	jdw_release(&w);
	jitmap__mmap(jm, UNWINDER, "/nonexistent/jit-" STR(UNWINDER) ".dump");
	jitmap__advance(jm, UNWINDER, 40);
	a = find_jitdump(jm, UNWINDER, 0x7000);
	b = find_jitdump(jm, UNWINDER, 0x7100);
	c = find_jitdump(jm, UNWINDER, 0x7200);
	d = find_jitdump(jm, UNWINDER, 0x7300);
	T("unwind: a load gets the rules before it", a && a->unwind &&
	  a->unwind->eh_frame_size == 48 && a->unwind->hdr_size == 20 &&
	  a->unwind->eh_frame_off == 16 && !memcmp(a->unwind->eh_frame, rules, 48));
	T("unwind: identical rules are one copy", b && b->unwind == a->unwind);
	T("unwind: a load without a record before it has none", c && !c->unwind);
	T("unwind: bad rules are refused", d && !d->unwind);
	T("unwind: sources counts the records and the bad ones",
	  strstr(jitdump_said(jm, UNWINDER, &said), ", 3 unwinding info, 1 bad unwind info"));
	jitmap__advance(jm, UNWINDER, 50);
	T("unwind: the rules move with the code", (d = find_jitdump(jm, UNWINDER, 0x8000)) &&
	  d->unwind == a->unwind);
	sbuf_release(&said);
	jitmap__delete(jm);
}

/*
 * Where calls end in a load's code is made from the code read again from
 * the jitdump, the first time a frame asks: the answers the bytes give
 * while the file is the one read; when it was rewritten (a load's code is
 * not what was fed) or is gone, the answers of code without bytes (true),
 * the loads counted for sources (one rewritten, then two gone) and one
 * warning per file.
 */
static void write_callers(const uint8_t *b_code)
{
	/* nop; call rel32; nop; nop: a call ends at offset 6, and only there */
	static const uint8_t a_code[8] = { 0x90, 0xe8, 1, 0, 0, 0, 0x90, 0x90 };
	struct jdw w;

	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, CALLER, 1, 0);
	jdw_load(&w, 10, CALLER, CALLER, 0x9000, 1, "A", a_code, 8);
	jdw_load(&w, 20, CALLER, CALLER, 0x9100, 2, "B", b_code, 8);
	write_file("jit-" STR(CALLER) ".dump", w.buf, w.len);
	jdw_release(&w);
}

static void test_calls_read_again(struct strpool *pool)
{
	static const uint8_t b_code[8] = { 0x90, 0xe8, 1, 0, 0, 0, 0x90, 0x90 };
	static const uint8_t b_other[8] = { 0x90, 0xe8, 1, 0, 0, 0, 0x90, 0xc3 };
	static const char *what[] = { "the file read", "rewritten in place", "gone" };
	const struct jit_sym *a, *b;
	const struct jit_file_info *fi;
	struct jitmap *jm;
	char *path = xasprintf("%s/jit-" STR(CALLER) ".dump", dir);
	size_t said;
	int pass;

	for (pass = 0; pass < 3; pass++) {
		struct sbuf name = SBUF_INIT;
		bool a_ok, b_ok;

		write_callers(b_code);
		jm = new_map(pool, false);
		jitmap__mmap(jm, CALLER, "/nonexistent/jit-" STR(CALLER) ".dump");
		jitmap__advance(jm, CALLER, 20);
		a = find_jitdump(jm, CALLER, 0x9000);
		b = find_jitdump(jm, CALLER, 0x9100);
		if (pass == 1)
			write_callers(b_other);     /* same inode, A's bytes as they were */
		else if (pass == 2)
			unlink(path);
		a_ok = a && b && jitmap__call_ends_at(a, 6) && !jitmap__call_ends_at(a, 2) &&
		       !jitmap__call_ends_at(a, 7);
		b_ok = b && (pass ? jitmap__call_ends_at(b, 2) && jitmap__call_ends_at(b, 7) :
			     jitmap__call_ends_at(b, 6) && !jitmap__call_ends_at(b, 7));
		sbuf_addf(&name, "calls, %s: %s", what[pass],
			  pass == 2 ? "no bytes, every address a return address" :
			  pass == 1 ? "the unchanged load from its bytes, the changed one as without" :
			  "from the bytes");
		if (pass == 2)
			T(name.buf, a && jitmap__call_ends_at(a, 7) && b_ok);
		else
			T(name.buf, a_ok && b_ok);
		sbuf_reset(&name);
		fi = jitmap__file(jm, CALLER, jitdump_loader());
		sbuf_addf(&name, "calls, %s: %d load%s counted for sources, said %s", what[pass],
			  pass, pass == 1 ? "" : "s", pass ? "once" : "not at all");
		said = count_of(msgs.buf, "changed or went away after it was read");
		T(name.buf, fi && fi->code_gone == (size_t)pass && said == (pass ? 1 : 0));
		sbuf_reset(&msgs);
		sbuf_release(&name);
		jitmap__delete(jm);
	}
	free(path);
}

/*
 * Overlapping perf map lines (pseudo-random, some ending at 2^64): every
 * address resolves to the line lib/perfmap's own lookup gives, the later
 * line winning where lines overlap.
 */
static void test_untimed_overlap(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	struct sbuf map = SBUF_INIT;
	struct perfmap *pm;
	uint64_t seed = 12345, addr;
	size_t i, bad = 0, hits = 0;

	for (i = 0; i < 300; i++) {
		uint64_t start, size;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		start = (seed >> 33) % 0x1000;
		size = (seed >> 20) % 0x100;
		if (i % 50 == 7) {
			start = UINT64_MAX - (seed >> 40) % 0x80;
			size = UINT64_MAX - start + 1;
		}
		sbuf_addf(&map, "%" PRIx64 " %" PRIx64 " l%zu\n", start, size, i);
	}
	write_file("perf-" STR(OVERLAP) ".map", map.buf, map.len);
	pm = perfmap__parse(map.buf, map.len);
	for (addr = 0; addr < 0x1200 + 0x100; addr++) {
		uint64_t a = addr < 0x1200 ? addr : UINT64_MAX - (addr - 0x1200);
		const struct perfmap_entry *want = perfmap__lookup(pm, a);
		const struct jit_sym *got = jitmap__find(jm, OVERLAP, a, true);

		hits += want != NULL;
		if (want ? !got || strcmp(got->name, want->name) || got->start != want->start : !!got)
			bad++;
	}
	T("untimed: overlapping lines resolve as lib/perfmap does", pm && hits > 1000 && !bad);
	perfmap__delete(pm);
	sbuf_release(&map);
	jitmap__delete(jm);
}

static bool is_marker(const char *path)
{
	const struct jit_loader *l = jit_loader__for_marker(path);

	return l && !strcmp(l->name, "jitdump");
}

/* A jitdump written by pid writer (header and loads), one load of another pid; named name. */
static void write_ns_dump(const char *name, uint32_t writer, uint32_t other)
{
	struct jdw w;

	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, writer, 1, 0);
	jdw_load(&w, 10, writer, writer, 0x1000, 1, "Own", code, 0x100);
	jdw_load(&w, 20, other, other, 0x2000, 2, "Other", code, 0x100);
	write_file(name, w.buf, w.len);
	jdw_release(&w);
}

static void test_namespace_pid(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	const struct jit_ns_info *ns;
	const struct jit_file_info *fi;
	const struct jit_sym *pm;
	static const char map[] = "3000 100 ByNamespacePid\n";

	write_ns_dump("jit-" STR(NSPID) ".dump", NSPID, 7);
	write_file("perf-" STR(NSPID) ".map", map, sizeof(map) - 1);
	jitmap__mmap(jm, NSHOST, "/nonexistent/jit-" STR(NSPID) ".dump");
	jitmap__advance(jm, NSHOST, 100);
	T("namespace: the header's pid is the mapping process's",
	  !strcmp(name_at(jm, NSHOST, 0x1010), "Own"));
	T("namespace: another namespace pid's load is not used",
	  !strcmp(name_at(jm, NSHOST, 0x2010), "(none)") && !jitmap__ns(jm, 7));
	fi = jitmap__file(jm, NSHOST, jitdump_loader());
	T("namespace: sources counts what was not used, says why it is the process's",
	  fi && fi->not_used == 1 && fi->how && strstr(fi->how, "namespace pid " STR(NSPID)));
	ns = jitmap__ns(jm, NSHOST);
	T("namespace: the namespace pid and why", ns && ns->nspid == NSPID && !ns->other_ns &&
	  !strcmp(ns->why, "from jit-" STR(NSPID) ".dump's header"));
	pm = find_perfmap(jm, NSHOST, 0x3010);
	T("namespace: the perf map by namespace pid", pm && !strcmp(pm->name, "ByNamespacePid"));
	jitmap__delete(jm);
}

static void test_writer_is_host(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);

	/* the parent mapped its file, the child's mapping of it is synthesized (perf -a, -p) */
	write_ns_dump("jit-" STR(PARENT) ".dump", PARENT, FORKED);
	jitmap__mmap(jm, PARENT, "/nonexistent/jit-" STR(PARENT) ".dump");
	jitmap__fork(jm, FORKED, PARENT, 5);
	jitmap__mmap(jm, FORKED, "/nonexistent/jit-" STR(PARENT) ".dump");
	jitmap__advance(jm, PARENT, 100);
	jitmap__advance(jm, FORKED, 100);
	T("host writer: no namespace pid from a parent's file", !jitmap__ns(jm, FORKED) &&
	  !jitmap__ns(jm, PARENT));
	T("host writer: the child's own record is the child's",
	  !strcmp(name_at(jm, FORKED, 0x2010), "Other") &&
	  !strcmp(name_at(jm, PARENT, 0x2010), "(none)"));
	T("host writer: the parent's records are the parent's",
	  !strcmp(name_at(jm, PARENT, 0x1010), "Own"));
	jitmap__delete(jm);
}

/* A container's init (pid 1 there) whose host ancestor in the recording is host pid 1. */
static void test_init_under_host_init(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	const struct jit_ns_info *ns;

	write_ns_dump("jit-1.dump", 1, 1);
	jitmap__fork(jm, 5000601, 1, 5);
	jitmap__fork(jm, NSHOST + 2, 5000601, 6);
	jitmap__mmap(jm, NSHOST + 2, "/nonexistent/jit-1.dump");
	jitmap__advance(jm, NSHOST + 2, 100);
	ns = jitmap__ns(jm, NSHOST + 2);
	T("namespace: host pid 1 as an ancestor does not make pid 1 a host pid",
	  ns && ns->nspid == 1 && !strcmp(name_at(jm, NSHOST + 2, 0x2010), "Other") &&
	  !jitmap__file(jm, 1, jitdump_loader()));
	jitmap__delete(jm);
}

static void test_namespaces_record(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	const struct jit_ns_info *ns;

	jitmap__namespace(jm, RECORDER, 4, 0xeffffffc);
	jitmap__fork(jm, INIT, RECORDER, 10);
	jitmap__namespace(jm, INIT, 4, 0xf0000001);
	jitmap__fork(jm, JOINED, RECORDER, 20);
	jitmap__namespace(jm, JOINED, 4, 0xf0000001);
	T("NAMESPACES: perf's own namespace says nothing", !jitmap__ns(jm, RECORDER));
	ns = jitmap__ns(jm, INIT);
	T("NAMESPACES: the first process of a new namespace is pid 1 there",
	  ns && ns->nspid == 1 && ns->other_ns && strstr(ns->why, "NAMESPACES"));
	ns = jitmap__ns(jm, JOINED);
	T("NAMESPACES: one that joined later has no known pid there",
	  ns && !ns->nspid && ns->other_ns);
	jitmap__delete(jm);
}

static void test_given(struct strpool *pool)
{
	struct jit_given given[] = {
		{ GIVEN, "jitdump", NULL }, { GIVEN, "perfmap", NULL },
		{ GIVEN + 1, "perfmap", "/nonexistent/given.map" },
	};
	const char *pm_dirs[] = { dir };
	struct jitmap_opts o = {
		.perf_data_dir = dir, .perfmap_dirs = pm_dirs, .nr_perfmap_dirs = 1,
		.given = given, .nr_given = 3,
	};
	static const char map[] = "3000 100 Given\n";
	char *dump = xasprintf("%s/given.dump", dir), *pmap = xasprintf("%s/given.map", dir);
	const struct jit_file_info *fi;
	const struct jit_sym *pm;
	struct jitmap *jm;

	given[0].path = dump;
	given[1].path = pmap;
	write_ns_dump("given.dump", GIVEN, GIVEN);
	write_file("given.map", map, sizeof(map) - 1);
	jm = jitmap__new(&o, pool);
	sbuf_reset(&msgs);
	jitmap__advance(jm, GIVEN, 100);
	T("given: a jitdump read without a marker", !strcmp(name_at(jm, GIVEN, 0x1010), "Own"));
	pm = find_perfmap(jm, GIVEN, 0x3010);
	fi = jitmap__file(jm, GIVEN, pm ? pm->loader : NULL);
	T("given: the perf map, and sources says so", pm && !strcmp(pm->name, "Given") && fi &&
	  fi->how && !strcmp(fi->how, "given by --perfmap"));
	T("given: a missing one is a warning naming it", !find_perfmap(jm, GIVEN + 1, 0x3010) &&
	  strstr(msgs.buf, "'/nonexistent/given.map' (given by --perfmap) not found"));
	jitmap__delete(jm);
	free(dump);
	free(pmap);
}

static const struct jit_loader *perfmap_loader(void)
{
	size_t i;

	for (i = 0; jit_loaders[i]; i++)
		if (!strcmp(jit_loaders[i]->name, "perfmap"))
			return jit_loaders[i];
	return NULL;
}

/* What sources says a process's perf map held. */
static const char *perfmap_said(struct jitmap *jm, uint32_t pid, struct sbuf *out)
{
	const struct jit_file_info *fi = jitmap__file(jm, pid, perfmap_loader());

	sbuf_reset(out);
	if (fi && fi->path)
		fi->loader->describe(fi, out);
	return out->buf;
}

/*
 * A perf map read while its runtime appends: the cut last line is not
 * read and is said. Read again (after an exec) once it is whole: the same
 * earlier lines, the finished one, and sources describes that read alone.
 */
static void test_growing_map(struct strpool *pool)
{
	static const char cut[] = "7000 100 whole\n7100 1c0 \x01ctl\n8000 1c0 na";
	static const char done[] = "7000 100 whole\n7100 1c0 \x01ctl\n8000 1c0 name\n";
	struct jitmap *jm = new_map(pool, false);
	struct sbuf said = SBUF_INIT;
	const struct jit_sym *s, *before;

	write_file("perf-" STR(GROWING) ".map", cut, sizeof(cut) - 1);
	s = before = find_perfmap(jm, GROWING, 0x7010);
	T("growing: a whole line is read", s && !strcmp(s->name, "whole"));
	T("growing: the cut line is not read", !find_perfmap(jm, GROWING, 0x8010));
	T("growing: sources says so, no bad line",
	  !strcmp(perfmap_said(jm, GROWING, &said), "2 entries, 0 bad lines, 1 names with control "
		  "bytes escaped, last line unfinished (11 bytes, no newline): not read"));
	write_file("perf-" STR(GROWING) ".map", done, sizeof(done) - 1);
	jitmap__exec(jm, GROWING, 100);
	s = find_perfmap(jm, GROWING, 0x81bf);
	T("growing: read again, the finished line", s && !strcmp(s->name, "name") &&
	  s->size == 0x1c0);
	s = find_perfmap(jm, GROWING, 0x7010);
	T("growing: read again, the earlier lines the same", s && !strcmp(s->name, "whole"));
	/* a frame resolved before the exec may still be read (a hook on another thread) */
	T("growing: the sym from before the exec is still there", before && s != before &&
	  !strcmp(before->name, "whole") && before->size == 0x100);
	T("growing: sources describes the last read alone",
	  !strcmp(perfmap_said(jm, GROWING, &said), "3 entries, 0 bad lines, 1 names with control "
		  "bytes escaped"));
	sbuf_release(&said);
	jitmap__delete(jm);
}

/* A file named for WHOSE but another run's (header pid WHOSE_OTHER), and that run's perf map. */
static void write_copy(void)
{
	static const char map[] = "1000 100 OtherRunMap\n";

	write_ns_dump("jit-" STR(WHOSE) ".dump", WHOSE_OTHER, 7);
	write_file("perf-" STR(WHOSE_OTHER) ".map", map, sizeof(map) - 1);
}

static void test_whose_copy(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	const struct jit_file_info *fi;

	write_copy();
	sbuf_reset(&msgs);
	jitmap__mmap_at(jm, WHOSE, "/nonexistent/jit-" STR(WHOSE) ".dump", 5);
	jitmap__advance(jm, WHOSE, 100);
	fi = jitmap__file(jm, WHOSE, jitdump_loader());
	T("whose: another run's copy is not used", !strcmp(name_at(jm, WHOSE, 0x1010), "(none)"));
	T("whose: no perf map through its pid, no namespace pid",
	  !find_perfmap(jm, WHOSE, 0x1010) && !jitmap__ns(jm, WHOSE));
	T("whose: sources says why", fi && fi->refused &&
	  strstr(fi->refused, "pid " STR(WHOSE_OTHER) " is not " STR(WHOSE) ", the pid in the name"));
	T("whose: one warning naming the file, why and the fix",
	  strstr(msgs.buf, "jitdump '") && strstr(msgs.buf, "jit-" STR(WHOSE) ".dump' not used: its "
	  "header's pid " STR(WHOSE_OTHER)) &&
	  strstr(msgs.buf, "--jitdump " STR(WHOSE) "=FILE") && !strstr(msgs.buf, "\n\n") &&
	  strchr(msgs.buf, '\n') == msgs.buf + msgs.len - 1);
	jitmap__delete(jm);
}

static void test_whose_given(struct strpool *pool)
{
	struct jit_given given[] = { { WHOSE, "jitdump", NULL } };
	const char *pm_dirs[] = { dir };
	struct jitmap_opts o = {
		.perf_data_dir = dir, .perfmap_dirs = pm_dirs, .nr_perfmap_dirs = 1,
		.given = given, .nr_given = 1,
	};
	char *dump = xasprintf("%s/jit-" STR(WHOSE) ".dump", dir);
	const struct jit_file_info *fi;
	struct jitmap *jm;

	given[0].path = dump;
	write_copy();
	jm = jitmap__new(&o, pool);
	sbuf_reset(&msgs);
	jitmap__mmap_at(jm, WHOSE, "/nonexistent/jit-" STR(WHOSE) ".dump", 5);
	jitmap__advance(jm, WHOSE, 100);
	fi = jitmap__file(jm, WHOSE, jitdump_loader());
	T("whose: a given copy is used", !strcmp(name_at(jm, WHOSE, 0x1010), "Own") &&
	  fi && fi->refused);
	T("whose: with a warning that says so", strstr(msgs.buf, "(given by --jitdump) looks like "
	  "another process's or run's: its header's pid " STR(WHOSE_OTHER)) &&
	  strstr(msgs.buf, "; used as given"));
	T("whose: a given copy's pid is no namespace pid: no perf map through it",
	  !jitmap__ns(jm, WHOSE) && !find_perfmap(jm, WHOSE, 0x1010));
	jitmap__delete(jm);
	free(dump);
}

/* EARLY's file: its own load at 10 and its child's at 20. */
static void write_early(void)
{
	struct jdw w;

	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, EARLY, 1, 0);
	jdw_load(&w, 10, EARLY, EARLY, 0x1000, 1, "Own", code, 0x100);
	jdw_load(&w, 20, WHOSE_CHILD, WHOSE_CHILD, 0x2000, 2, "Child", code, 0x100);
	write_file("jit-" STR(EARLY) ".dump", w.buf, w.len);
	jdw_release(&w);
}

static void test_whose_times(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	const struct jit_file_info *fi;

	write_early();
	/* mapped before its records: its own, the child's record its child's */
	jitmap__fork(jm, WHOSE_CHILD, EARLY, 1);
	jitmap__mmap_at(jm, EARLY, "/nonexistent/jit-" STR(EARLY) ".dump", 5);
	jitmap__advance(jm, EARLY, 100);
	jitmap__advance(jm, WHOSE_CHILD, 100);
	fi = jitmap__file(jm, EARLY, jitdump_loader());
	T("whose: records after the mapping are used", !strcmp(name_at(jm, EARLY, 0x1010), "Own") &&
	  !strcmp(name_at(jm, WHOSE_CHILD, 0x2010), "Child") && fi && !fi->refused);
	jitmap__delete(jm);

	/* mapped after every record: not its file, and taken back from the child too */
	jm = new_map(pool, false);
	sbuf_reset(&msgs);
	jitmap__fork(jm, WHOSE_CHILD, EARLY, 1);
	jitmap__mmap_at(jm, EARLY, "/nonexistent/jit-" STR(EARLY) ".dump", 1000);
	jitmap__advance(jm, EARLY, 2000);
	jitmap__advance(jm, WHOSE_CHILD, 2000);
	fi = jitmap__file(jm, EARLY, jitdump_loader());
	T("whose: records from before the mapping: not used, by any process",
	  !strcmp(name_at(jm, EARLY, 0x1010), "(none)") &&
	  !strcmp(name_at(jm, WHOSE_CHILD, 0x2010), "(none)"));
	T("whose: and said", fi && fi->refused && strstr(fi->refused, "its 1 record for pid "
	  STR(EARLY) " ends at 0.000000, before it mapped the file at 0.000001") &&
	  strstr(msgs.buf, "not used: its 1 record"));
	jitmap__delete(jm);

	/* read again in an image exec'd after every record */
	jm = new_map(pool, false);
	jitmap__mmap(jm, EARLY, "/nonexistent/jit-" STR(EARLY) ".dump");
	jitmap__exec(jm, EARLY, 1000);
	jitmap__mmap(jm, EARLY, "/nonexistent/jit-" STR(EARLY) ".dump");
	jitmap__advance(jm, EARLY, 2000);
	fi = jitmap__file(jm, EARLY, jitdump_loader());
	T("whose: records from before the exec: not used", fi && fi->refused &&
	  strstr(fi->refused, "before it exec'd at 0.000001") &&
	  !strcmp(name_at(jm, EARLY, 0x1010), "(none)"));
	jitmap__delete(jm);

	/* forked after every record, by a parent the timeline never knew */
	jm = new_map(pool, false);
	jitmap__fork(jm, EARLY, 1, 1000);
	jitmap__mmap(jm, EARLY, "/nonexistent/jit-" STR(EARLY) ".dump");
	jitmap__advance(jm, EARLY, 2000);
	fi = jitmap__file(jm, EARLY, jitdump_loader());
	T("whose: records from before the fork: not used", fi && fi->refused &&
	  strstr(fi->refused, "before it was forked at 0.000001") &&
	  !strcmp(name_at(jm, EARLY, 0x1010), "(none)"));
	jitmap__delete(jm);

	/* without sample times nothing can be compared: used */
	jm = new_map(pool, true);
	jitmap__mmap_at(jm, EARLY, "/nonexistent/jit-" STR(EARLY) ".dump", 1000);
	jitmap__advance(jm, EARLY, 2000);
	T("whose: no times, no time test", !strcmp(name_at(jm, EARLY, 0x1010), "Own"));
	jitmap__delete(jm);
}

/* pid's own jitdump loading "Own" over 0x1000 at 50; its perf map repeats that range, and a stub. */
static void write_repeat(uint32_t pid, const char *dump, const char *map_name)
{
	static const char map[] = "1000 100 OwnLine\n4000 100 Stub\n";
	struct jdw w;

	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, pid, 1, 0);
	jdw_load(&w, 50, pid, pid, 0x1000, 1, "Own", code, 0x100);
	write_file(dump, w.buf, w.len);
	jdw_release(&w);
	write_file(map_name, map, sizeof(map) - 1);
}

static const char *fallback_name(struct jitmap *jm, uint32_t pid, uint64_t ip)
{
	const struct jit_sym *s = jitmap__find(jm, pid, ip, true);

	return s ? s->name : "(none)";
}

static void test_repeats(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	const struct jit_file_info *fi;

	write_repeat(REPEAT, "jit-" STR(REPEAT) ".dump", "perf-" STR(REPEAT) ".map");
	jitmap__mmap_at(jm, REPEAT, "/nonexistent/jit-" STR(REPEAT) ".dump", 5);
	jitmap__advance(jm, REPEAT, 30);
	T("repeats: a perf-map line is not used before the load it repeats",
	  !strcmp(fallback_name(jm, REPEAT, 0x1010), "(none)"));
	T("repeats: a line no load repeats is used", !strcmp(fallback_name(jm, REPEAT, 0x4010), "Stub"));
	jitmap__advance(jm, REPEAT, 60);
	T("repeats: after the load, the load", !strcmp(fallback_name(jm, REPEAT, 0x1010), "Own"));
	fi = jitmap__file(jm, REPEAT, perfmap_loader());
	T("repeats: sources counts the line", fi && fi->repeats == 1);
	jitmap__delete(jm);

	/* the perf map read first, the jitdump after: the same */
	jm = new_map(pool, false);
	write_repeat(REPEAT2, "jit-" STR(REPEAT2) ".dump", "perf-" STR(REPEAT2) ".map");
	jitmap__advance(jm, REPEAT2, 3);
	T("repeats: before any jitdump the line names", !strcmp(fallback_name(jm, REPEAT2, 0x1010),
	  "OwnLine"));
	jitmap__mmap_at(jm, REPEAT2, "/nonexistent/jit-" STR(REPEAT2) ".dump", 5);
	jitmap__advance(jm, REPEAT2, 30);
	T("repeats: a jitdump read later holds the line back",
	  !strcmp(fallback_name(jm, REPEAT2, 0x1010), "(none)") &&
	  !strcmp(fallback_name(jm, REPEAT2, 0x4010), "Stub"));
	jitmap__delete(jm);
}

static void test_cut(struct strpool *pool)
{
	struct jitmap *jm = new_map(pool, false);
	const struct jit_file_info *fi;
	struct jdw w;

	jdw_init(&w, false);
	jdw_header(&w, 1, 40, 62, CUT, 1, 0);
	jdw_load(&w, 10, CUT, CUT, 0x1000, 1, "A", code, 0x100);
	jdw_load(&w, 20, CUT, CUT, 0x2000, 2, "B", code, 0x100);
	jdw_load(&w, 30, CUT, CUT, 0x3000, 3, "C", code, 0x100);
	write_file("jit-" STR(CUT) ".dump", w.buf, w.len - 20);
	jdw_release(&w);
	sbuf_reset(&msgs);
	jitmap__mmap_at(jm, CUT, "/nonexistent/jit-" STR(CUT) ".dump", 5);
	jitmap__advance(jm, CUT, 15);
	jitmap__advance(jm, CUT, 20);
	jitmap__advance(jm, CUT, 25);
	jitmap__advance(jm, CUT, 2000035);
	fi = jitmap__file(jm, CUT, jitdump_loader());
	T("cut: the last whole record's time, the samples after it",
	  fi && fi->problem && fi->has_last_time && fi->last_time == 20 && fi->samples_after == 2);
	sbuf_reset(&msgs);
	jitmap__report(jm);
	T("cut: said at the end, with the fix", strstr(msgs.buf, "stops early (jitdump record is cut "
	  "short) after its last whole record, at 0.000000: 2 of its samples come after it; no perf "
	  "map was read for it (run the runtime with its perf-map option too"));
	jitmap__delete(jm);
}

static void test_is_marker(void)
{
	T("marker: jit-123.dump", is_marker("jit-123.dump"));
	T("marker: a path", is_marker("/home/u/app/jit-7.dump"));
	T("not a marker: no pid", !is_marker("jit-.dump"));
	T("not a marker: suffix", !is_marker("jit-12.dumpx"));
	T("not a marker: prefix", !is_marker("/a/xjit-1.dump"));
}

int main(void)
{
	struct strpool *pool = strpool__new();
	char *cmd;
	static const char map[] = "5000 100 stub one\n1000 10 shadowed by the jitdump\n";

	if (!mkdtemp(dir))
		return 99;
	msg_set_sink(capture);
	write_dump_100(false);
	write_file("perf-" STR(PID) ".map", map, sizeof(map) - 1);
	test_timeline(pool);
	test_timeless(pool);
	test_missing_and_truncated(pool);
	test_no_lines(pool);
	test_stale_move(pool);
	test_unwind(pool);
	test_calls_read_again(pool);
	test_untimed_overlap(pool);
	test_namespace_pid(pool);
	test_writer_is_host(pool);
	test_init_under_host_init(pool);
	test_namespaces_record(pool);
	test_given(pool);
	test_growing_map(pool);
	test_whose_copy(pool);
	test_whose_given(pool);
	test_whose_times(pool);
	test_repeats(pool);
	test_cut(pool);
	test_is_marker();
	cmd = xasprintf("rm -rf '%s'", dir);
	if (system(cmd))
		return 99;
	free(cmd);
	strpool__delete(pool);
	sbuf_release(&msgs);
	return test_done();
}
