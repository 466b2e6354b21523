/*
 * Unit tests for times of perf-map lines (jitmap-clock.c): when lines
 * overlap, the pairing rule (counts, each line within its exec mmap, times
 * not going backwards, unknown mmaps), and what an address is named as
 * time passes (the first line before any time; a later line from its
 * time on, only over its own bytes); then the same through the timeline
 * (jitmap.c), with a perf map on disk and the exec mmaps from a callback,
 * including the invalidation of what was resolved.
 */
#include "common/common.h"
#include "timeline/jit-loader.h"
#include "timeline/jitmap.h"
#include "timeline/jitmap-clock.h"
#include "timeline/jitmap-untimed.h"
#include "common/sbuf.h"
#include "common/strpool.h"
#include "test.h"

#include <unistd.h>

#define PID 5000700     /* above any real pid: no /tmp/perf-PID.map can match */

static const char *name_at(const struct untimed_clock *c, uint64_t addr)
{
	const struct untimed_entry *e = untimed_clock__find(c, addr);

	return e ? e->name : "-";
}

static size_t nr_changed;

static void changed(void *ctx, uint64_t start, uint64_t size)
{
	(void)ctx;
	(void)start;
	(void)size;
	nr_changed++;
}

/* Three lines: A [0x100, 0x200), B [0x180, 0x280) over A's tail, C [0x1000, 0x1010) apart. */
static void add_lines(struct untimed *u)
{
	untimed__add(u, 0x100, 0x100, "A", "m", NULL);
	untimed__add(u, 0x180, 0x100, "B", "m", NULL);
	untimed__add(u, 0x1000, 0x10, "C", "m", NULL);
	untimed__index(u);
}

static struct untimed_clock *pair(const struct untimed *u, const struct jit_exec_mmap *v,
				  size_t nr, const char *unknown, struct sbuf *rule)
{
	struct jit_exec_mmaps m = { v, nr, unknown };

	sbuf_reset(rule);
	return untimed_clock__pair(u, 0, &m, rule);
}

static void test_rule(void)
{
	struct untimed u = UNTIMED_INIT, apart = UNTIMED_INIT;
	struct sbuf rule = SBUF_INIT;
	struct jit_exec_mmap ok[3] = { { 10, 0, 0x1000 }, { 20, 0, 0x1000 }, { 30, 0x1000, 0x1000 } };
	struct jit_exec_mmap outside[3] = { { 10, 0, 0x1000 }, { 20, 0, 0x200 }, { 30, 0x1000, 0x1000 } };
	struct jit_exec_mmap back[3] = { { 10, 0, 0x1000 }, { 5, 0, 0x1000 }, { 30, 0x1000, 0x1000 } };
	struct untimed_clock *c;

	add_lines(&u);
	untimed__add(&apart, 0x100, 0x80, "X", "m", NULL);
	untimed__add(&apart, 0x180, 0x80, "Y", "m", NULL);
	T("overlapping lines are seen", untimed_clock__overlaps(&u, 0));
	T("adjacent lines do not overlap", !untimed_clock__overlaps(&apart, 0));
	T("from the second line on, none overlap", !untimed_clock__overlaps(&u, 1));

	c = pair(&u, ok, 3, NULL, &rule);
	T("pairs: counts agree, each line inside, times forward", c != NULL);
	T("pairs: sources says so", !strcmp(rule.buf, "times from 3 exec mmaps"));
	untimed_clock__delete(c);
	T("more lines than exec mmaps: later line wins", !pair(&u, ok, 2, NULL, &rule));
	T("count mismatch: sources says both counts",
	  !strcmp(rule.buf, "later line wins: 3 lines, 2 exec mmaps"));
	T("a line outside its exec mmap: later line wins", !pair(&u, outside, 3, NULL, &rule));
	T("outside: sources names the line", strstr(rule.buf, "line 2 [0x180, 0x280) outside exec mmap 2"));
	T("times going back: later line wins", !pair(&u, back, 3, NULL, &rule));
	T("unknown exec mmaps: later line wins", !pair(&u, ok, 3, "input not a file (read once)", &rule));
	T("unknown: sources says why", !strcmp(rule.buf, "later line wins: input not a file (read once)"));
	untimed__release(&u);
	untimed__release(&apart);
	sbuf_release(&rule);
}

static void test_names_over_time(void)
{
	struct untimed u = UNTIMED_INIT;
	struct sbuf rule = SBUF_INIT;
	struct jit_exec_mmap ok[3] = { { 10, 0, 0x1000 }, { 20, 0, 0x1000 }, { 30, 0x1000, 0x1000 } };
	struct untimed_clock *c;

	add_lines(&u);
	c = pair(&u, ok, 3, NULL, &rule);
	T("before any time: the first line over an address", !strcmp(name_at(c, 0x1a0), "A"));
	T("before any time: where only a later line is, that line", !strcmp(name_at(c, 0x200), "B"));
	T("a line nothing overlaps is there from the start", !strcmp(name_at(c, 0x1008), "C"));
	T("nothing outside the lines", !strcmp(name_at(c, 0x300), "-"));
	T("advance to 10 applies A", untimed_clock__advance(c, 10, changed, NULL) && nr_changed == 1);
	T("at 15 the overlap is still A", !strcmp(name_at(c, 0x1a0), "A"));
	T("advance to 19 applies nothing", !untimed_clock__advance(c, 19, changed, NULL));
	T("advance to 20 applies B", untimed_clock__advance(c, 20, changed, NULL) && nr_changed == 2);
	T("from B's time the overlap is B", !strcmp(name_at(c, 0x1a0), "B"));
	T("A keeps the bytes B does not cover", !strcmp(name_at(c, 0x170), "A"));
	T("C stays", !strcmp(name_at(c, 0x1008), "C"));
	untimed_clock__delete(c);
	untimed__release(&u);
	sbuf_release(&rule);
}

/* ---- through the timeline ---- */

static char dir[] = "/tmp/t-jitmap-clock-XXXXXX";
static struct jit_exec_mmap storm[3] = {
	{ 1000, 0x7f0000000000, 0x10000 }, { 2000, 0x7f0000000000, 0x10000 },
	{ 3000, 0x7f0000000000, 0x10000 },
};
static size_t nr_storm = 3, nr_asked;
static uint64_t invalidated_start, invalidated_end;

static struct jit_exec_mmaps give_mmaps(void *ctx, uint32_t pid, uint64_t at)
{
	struct jit_exec_mmaps m = { storm, nr_storm, NULL };

	(void)ctx;
	(void)at;
	nr_asked++;
	if (pid != PID)
		m.nr = 0;
	return m;
}

static void code_changed(void *ctx, uint32_t pid, uint64_t start, uint64_t end)
{
	(void)ctx;
	(void)pid;
	invalidated_start = start;
	invalidated_end = end;
}

static struct jitmap *new_map(struct strpool *pool)
{
	struct jitmap_opts o = {
		.perf_data_dir = dir,
		.lines = true,
		.code_changed = code_changed,
		.exec_mmaps = give_mmaps,
	};

	return jitmap__new(&o, pool);
}

static const char *found(struct jitmap *jm, uint64_t time, uint64_t ip)
{
	const struct jit_sym *s;

	jitmap__advance(jm, PID, time);
	s = jitmap__find(jm, PID, ip, true);
	return s ? s->name : "-";
}

static const struct jit_loader *perfmap_loader(void)
{
	const struct jit_loader *const *l;

	for (l = jit_loaders; *l; l++)
		if ((*l)->kind == JIT_UNTIMED)
			return *l;
	return NULL;
}

static void write_map(const char *text)
{
	char *path = xasprintf("%s/perf-%d.map", dir, PID);
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
	free(path);
}

static void test_timeline(void)
{
	struct strpool *pool = strpool__new();
	struct jitmap *jm;
	const struct jit_file_info *fi;

	write_map("7f0000000000 100 TRACE_1::a.lua:1\n"
		  "7f0000000000 80 TRACE_1::a.lua:2\n"
		  "7f0000000040 100 TRACE_2::a.lua:3\n");
	jm = new_map(pool);
	T("timeline: before the first line's time, the first line", !strcmp(found(jm, 500, 0x7f0000000010), "TRACE_1::a.lua:1"));
	T("timeline: the exec mmaps were asked for once", nr_asked == 1);
	fi = jitmap__file(jm, PID, perfmap_loader());
	T("timeline: sources gets the rule", fi && fi->rule && !strcmp(fi->rule, "times from 3 exec mmaps"));
	T("timeline: at 1500, line 1", !strcmp(found(jm, 1500, 0x7f0000000050), "TRACE_1::a.lua:1"));
	T("timeline: at 2000, line 2 over its bytes", !strcmp(found(jm, 2000, 0x7f0000000050), "TRACE_1::a.lua:2"));
	T("timeline: resolved frames there are dropped",
	  invalidated_start == 0x7f0000000000 && invalidated_end == 0x7f0000000080);
	T("timeline: line 1 past line 2's end", !strcmp(found(jm, 2500, 0x7f00000000c0), "TRACE_1::a.lua:1"));
	T("timeline: at 3000, line 3", !strcmp(found(jm, 3000, 0x7f0000000050), "TRACE_2::a.lua:3"));
	jitmap__delete(jm);

	/* one line more than exec mmaps: the later line wins at every time */
	write_map("7f0000000000 100 TRACE_1::a.lua:1\n"
		  "7f0000000000 80 TRACE_1::a.lua:2\n"
		  "7f0000000040 100 TRACE_2::a.lua:3\n"
		  "7f0000000000 10 TRACE_3::a.lua:4\n");
	jm = new_map(pool);
	T("fallback: at 500, the last line", !strcmp(found(jm, 500, 0x7f0000000008), "TRACE_3::a.lua:4"));
	T("fallback: at 1500, the later of the overlapping lines", !strcmp(found(jm, 1500, 0x7f0000000050), "TRACE_2::a.lua:3"));
	fi = jitmap__file(jm, PID, perfmap_loader());
	T("fallback: sources says why", fi && fi->rule && !strcmp(fi->rule, "later line wins: 4 lines, 3 exec mmaps"));
	jitmap__delete(jm);

	/* lines that never overlap: no rule, no exec mmaps asked for */
	write_map("7f0000000000 40 A\n7f0000000040 40 B\n");
	nr_asked = 0;
	jm = new_map(pool);
	T("apart: named as always", !strcmp(found(jm, 500, 0x7f0000000048), "B"));
	fi = jitmap__file(jm, PID, perfmap_loader());
	T("apart: no rule, nothing asked", fi && !fi->rule && nr_asked == 0);
	jitmap__delete(jm);
	strpool__delete(pool);
}

int main(void)
{
	char *path;

	test_rule();
	test_names_over_time();
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_timeline();
	path = xasprintf("%s/perf-%d.map", dir, PID);
	unlink(path);
	free(path);
	rmdir(dir);
	return test_done();
}
