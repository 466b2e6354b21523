/*
 * t-damage: jitsym on cut-short and corrupted inputs.
 *
 * Inputs: the recordings under tests/golden/\*-recorded/ and, built with
 * $MKPERF and $MKJITDUMP from the specs of the tests/golden/jit-\* cases,
 * synthesized perf.data files (file mode; a few also pipe, byte-swapped,
 * compressed) with their jitdumps next to them.
 *
 * Cuts: each perf.data is cut at record boundaries (all of them, or an
 * evenly spread subset of MAX_BOUNDARIES for big files), just after them
 * (+1, +7, the end of the record header), in the middle of records and
 * inside the file header. fold or script (alternately) runs in a forked
 * child (test-run.h) on the cut file, and:
 *  - it exits 0 or 2, never by a signal, within the time bound, with
 *    nothing on stderr (sanitizer reports);
 *  - a cut inside a record exits 2 with an error naming the file and the
 *    offset of that record; a cut at a boundary of a file-mode recording
 *    (its header states more data) exits 2 naming the file and the cut
 *    offset; a cut inside the file header exits 2 naming the file; every
 *    exit 2 names the file and an offset at or before the cut;
 *  - the output is what the whole part gives. The records returned whole
 *    before the cut form a prefix P of the whole file's records (records
 *    inside COMPRESSED ones count once their container and the containers
 *    before it are whole). When reading stops, the order queue (order.h)
 *    has delivered exactly the samples the whole run delivers at the same
 *    point (m); the rest of P's samples are flushed in time order, and
 *    those older than every record after P (j of them) are what the whole
 *    run delivers next, in the same state. test_order() replays the
 *    queue's rule to count them. So script prints one block per sample of
 *    P, the first m + j equal to the reference's first m + j; fold's counts
 *    add up to P's samples of the first event, and exceed the reference's
 *    by at most the other k - m - j. (The rest are not a subsequence of the
 *    reference: a record after the cut but older than such a sample, as
 *    jit-coalesced-anon has, changes how the whole run names it.)
 *    The reference is the run on the whole file; in file mode, on the file
 *    cut at the end of its data section, since the feature sections (event
 *    names, build ids, tracing data) follow the data and any cut loses them.
 * Jitdump cuts: each jitdump of a synthesized case is cut at its record
 * boundaries and inside records and header; script on the whole perf.data
 * must exit 0, warn naming the jitdump and the offset of the cut record
 * (or its header), and print every frame a load before the cut named in
 * the whole run exactly as the whole run does.
 * Flips: NR_FLIPS variants, with a fixed seed, each flipping one to three
 * bytes (half of them in the first 512 bytes: file header, attrs, jitdump
 * header) of one input: exit 0 or 2 (0 for a jitdump), no signal, no
 * sanitizer report, in time, and an exit 2 has said why.
 */
#include "common/common.h"
#include "command/cmds.h"
#include "reader/perfdata.h"

#include <perf/event.h>
#include <sys/stat.h>
#include <time.h>
#include <zstd.h>

#include "test.h"
#include "test-files.h"
#include "test-run.h"

#define MAX_BOUNDARIES 60     /* per perf.data; more are spread evenly */
#define PERF_MAGIC2 0x32454c4946524550ULL   /* "PERFILE2" */
#define NR_FLIPS 400

/*
 * Under ASan/UBSan a run costs ~10 times more (mostly fork and the leak
 * check): run every STRIDE-th cut and every second flip of the same
 * deterministic sequences (T_DAMAGE_STRIDE=1 runs them all).
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define STRIDE 8
#else
#define STRIDE 1
#endif
static unsigned long stride = STRIDE, seq, flip_seq;

/* Whether the next cut of the sequence runs in this build. */
static bool take(void)
{
	return seq++ % stride == 0;
}

static bool take_flip(void)
{
	return flip_seq++ % (stride > 1 ? 2 : 1) == 0;
}

/* ---- inputs ------------------------------------------------------------ */

/* A record of the whole file as the reader returns it. */
struct wrec {
	uint64_t avail_at;      /* file offset by which all its bytes are there */
	uint32_t type;
	bool has_time;
	uint64_t time;
	int attr;               /* samples: index of the attr; -1 otherwise */
};

/* A record of the outer stream (what is on disk), by raw walk. */
struct orec {
	uint64_t off, size;
};

struct input {
	char *name;
	char *dir;              /* writable: cuts and jitdumps go here */
	char *data;             /* the whole perf.data */
	char *cut;              /* where cut and flipped copies are written */
	const char *opts[16];   /* --kallsyms ... NULL-terminated */
	char *jitdumps[2];
	size_t nr_jitdumps;
	uint8_t *buf;
	size_t len;
	bool pipe, swapped;
	uint64_t data_start, data_end;
	struct orec *orecs;
	size_t nr_orecs, alloc_orecs;
	struct wrec *wrecs;
	size_t nr_wrecs, alloc_wrecs;
	char *ref_script, *ref_fold;
};

static struct input *inputs;
static size_t nr_inputs, alloc_inputs;
static const char *srcdir;
static unsigned long nr_cuts, nr_jd_cuts, nr_flips;

static uint64_t get(const uint8_t *p, int size, bool swap)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[swap ? size - 1 - i : i] << (8 * i);
	return v;
}

/* T() with a printf-formatted name. */
static void tf(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tf(bool ok, const char *fmt, ...)
{
	char name[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	T(name, ok);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static unsigned int timeout_for(size_t len)
{
	return 10 + 2 * (unsigned int)(len >> 20);
}

static void slurp_input(struct input *in)
{
	in->buf = (uint8_t *)read_whole(in->data, &in->len);
}

/* Records on disk, and the cumulative decompressed size after each. */
static uint64_t *walk_outer(struct input *in)
{
	uint64_t off, *dsize = NULL, total = 0;
	size_t alloc = 0;
	ZSTD_DStream *zds = ZSTD_createDStream();
	uint8_t *tmp = xmalloc(ZSTD_DStreamOutSize());

	in->swapped = get(in->buf, 8, false) == __builtin_bswap64(PERF_MAGIC2);
	in->pipe = get(in->buf + 8, 8, in->swapped) == 16;
	in->data_start = in->pipe ? 16 : get(in->buf + 40, 8, in->swapped);
	in->data_end = in->pipe ? in->len : in->data_start + get(in->buf + 48, 8, in->swapped);
	ZSTD_initDStream(zds);
	for (off = in->data_start; off + 8 <= in->data_end;) {
		uint64_t size = get(in->buf + off + 6, 2, in->swapped);

		if (size < 8 || off + size > in->data_end)
			break;
		if (get(in->buf + off, 4, in->swapped) == PERF_RECORD_COMPRESSED) {
			ZSTD_inBuffer zin = { in->buf + off + 8, size - 8, 0 };

			while (zin.pos < zin.size) {
				ZSTD_outBuffer zout = { tmp, ZSTD_DStreamOutSize(), 0 };

				if (ZSTD_isError(ZSTD_decompressStream(zds, &zout, &zin)))
					die("%s: bad compressed record", in->name);
				total += zout.pos;
			}
		}
		ALLOC_GROW(in->orecs, in->nr_orecs + 1, in->alloc_orecs);
		ALLOC_GROW(dsize, in->nr_orecs + 1, alloc);
		in->orecs[in->nr_orecs] = (struct orec){ off, size };
		dsize[in->nr_orecs++] = total;
		off += size;
	}
	ZSTD_freeDStream(zds);
	free(tmp);
	return dsize;
}

/* Every record the reader returns from the whole file, with when it is whole. */
static void walk(struct input *in)
{
	uint64_t *dsize = walk_outer(in);
	struct pd_reader *r = pd_reader__open_buffer(in->buf, in->len, in->name);
	struct pd_event ev;
	size_t k = 0;
	int ret = -1;

	while (r && (ret = pd_reader__next(r, &ev)) > 0) {
		struct wrec *w;

		ALLOC_GROW(in->wrecs, in->nr_wrecs + 1, in->alloc_wrecs);
		w = &in->wrecs[in->nr_wrecs++];
		if (ev.in_compressed) {
			while (k < in->nr_orecs && dsize[k] < ev.offset + ev.size)
				k++;
			w->avail_at = k < in->nr_orecs ? in->orecs[k].off + in->orecs[k].size : UINT64_MAX;
		} else {
			w->avail_at = ev.offset + ev.size;
		}
		w->type = ev.type;
		w->has_time = ev.sample.has_time;
		w->time = ev.sample.time;
		w->attr = ev.type == PERF_RECORD_SAMPLE ? (int)ev.sample.attr->index : -1;
	}
	tf(ret == 0, "%s: the whole file reads without damage (%zu records)", in->name,
	   in->nr_wrecs);
	pd_reader__delete(r);
	free(dsize);
}

static struct input *new_input(const char *name)
{
	struct input *in;

	ALLOC_GROW(inputs, nr_inputs + 1, alloc_inputs);
	in = &inputs[nr_inputs++];
	memset(in, 0, sizeof(*in));
	in->name = xstrdup(name);
	in->dir = xasprintf("%s/%zu", tmpdir, nr_inputs);
	if (mkdir(in->dir, 0755))
		die("cannot create '%s'", in->dir);
	in->cut = xasprintf("%s/cut.data", in->dir);
	return in;
}

static void add_recorded(const char *name)
{
	char *dir = xasprintf("%s/tests/golden/%s", srcdir, name);
	struct input *in = new_input(name);
	char *symfs = xasprintf("%s/symfs", dir);
	size_t n = 0;

	in->data = xasprintf("%s/perf.data", dir);
	in->opts[n++] = "--kallsyms";
	in->opts[n++] = xasprintf("%s/kallsyms", dir);
	in->opts[n++] = "--symfs";
	in->opts[n++] = symfs;
	in->opts[n++] = "--buildid-dir";
	in->opts[n++] = symfs;
	slurp_input(in);
	free(dir);
}

struct synth_case {
	const char *dir, *spec;
	const char *jdspecs[2];
	const char *dumps[2];   /* NULL: the jdspec's name with .dump */
	const char *modes;      /* extra mkperf forms, ';'-separated, or NULL */
};

static const struct synth_case synth_cases[] = {
	{ "jit-annotate", "annotate.spec", { "jit-5000015.jdspec" }, { NULL }, NULL },
	{ "jit-coalesced-anon", "coalesced.spec", { "jit-5000001.jdspec" }, { NULL }, NULL },
	{ "jit-fork", "fork.spec", { "jit-5000004.jdspec", "jit-5000005.jdspec" }, { NULL }, NULL },
	{ "jit-lifecycle/exec-remap", "s.spec", { "j.jdspec" }, { "jit-5000005.dump" }, NULL },
	{ "jit-lifecycle/no-time", "s.spec", { "j.jdspec" }, { "jit-5000022.dump" }, NULL },
	{ "jit-lifecycle/pid-reuse", "s.spec", { "j.jdspec" }, { "jit-5000020.dump" }, NULL },
	{ "jit-lifecycle/pid-reuse-fork", "s.spec", { "j.jdspec" }, { "jit-5000020.dump" }, NULL },
	{ "jit-missing", "missing.spec", { "jit-5000010.jdspec" }, { NULL }, NULL },
	{ "jit-mixed", "mixed.spec", { "jit-5000006.jdspec", "jit-5000008.jdspec" }, { NULL },
	  "--pipe" },
	{ "jit-move", "move.spec", { "jit-5000003.jdspec" }, { NULL }, NULL },
	{ "jit-no-k1", "nok1.spec", { "jit-5000012.jdspec" }, { NULL }, NULL },
	{ "jit-reuse", "reuse.spec", { "jit-5000002.jdspec" }, { NULL }, NULL },
	{ "jit-swapped", "swapped.spec", { "jit-5000013.jdspec" }, { NULL },
	  "--pipe --swap;--swap --compress;--pipe --compress" },
	{ "jit-truncated", "truncated.spec", { "jit-5000011.jdspec" }, { NULL }, NULL },
};

static void add_synth_form(const struct synth_case *sc, const char *mode)
{
	char *src = xasprintf("%s/tests/golden/%s", srcdir, sc->dir);
	char *name = xasprintf("%s%s%s", sc->dir, mode[0] ? " " : "", mode);
	struct input *in = new_input(name);
	const char *mkperf = getenv("MKPERF"), *mkjitdump = getenv("MKJITDUMP");
	char *kallsyms = xasprintf("%s/kallsyms", src), *maps = xasprintf("%s/maps", src);
	bool swap = strstr(mode, "--swap") != NULL;
	size_t i, n = 0;

	in->data = xasprintf("%s/x.data", in->dir);
	if (sh("'%s' %s '%s/%s' '%s'", mkperf, mode, src, sc->spec, in->data))
		die("%s: mkperf failed", name);
	for (i = 0; i < ARRAY_SIZE(sc->jdspecs) && sc->jdspecs[i]; i++) {
		const char *jd = sc->jdspecs[i];
		char *dump = sc->dumps[i] ? xstrdup(sc->dumps[i]) :
			     xasprintf("%.*s.dump", (int)(strlen(jd) - strlen(".jdspec")), jd);

		in->jitdumps[i] = xasprintf("%s/%s", in->dir, dump);
		if (sh("'%s' %s '%s/%s' '%s'", mkjitdump, swap ? "--swap" : "", src, jd,
		       in->jitdumps[i]))
			die("%s: mkjitdump failed", name);
		free(dump);
	}
	in->nr_jitdumps = i;
	in->opts[n++] = "--kallsyms";
	if (access(kallsyms, R_OK)) {
		free(kallsyms);
		kallsyms = xstrdup("/dev/null");
	}
	in->opts[n++] = kallsyms;
	in->opts[n++] = "--symfs";
	in->opts[n++] = src;
	in->opts[n++] = "--buildid-dir";
	in->opts[n++] = src;
	if (!access(maps, R_OK)) {
		in->opts[n++] = "--perfmap-dir";
		in->opts[n++] = maps;
	} else {
		free(maps);
	}
	slurp_input(in);
	free(name);
}

static void add_synth(const struct synth_case *sc)
{
	const char *m = sc->modes;

	add_synth_form(sc, "");
	while (m && *m) {
		const char *end = strchr(m, ';');
		size_t len = end ? (size_t)(end - m) : strlen(m);
		char *mode = xstrndup(m, len);

		add_synth_form(sc, mode);
		free(mode);
		m += len + (end ? 1 : 0);
	}
}

/* ---- running ----------------------------------------------------------- */

static void run_on(struct run *r, const struct input *in, bool fold, const char *data)
{
	const char *args[20];
	size_t n;

	for (n = 0; in->opts[n]; n++)
		args[n] = in->opts[n];
	args[n++] = data;
	args[n] = NULL;
	run_cmd(r, fold ? cmd_fold : cmd_script, fold ? "fold" : "script", args,
		timeout_for(in->len));
}

static void write_cut(const char *path, const uint8_t *buf, size_t len)
{
	write_file(path, buf, len);
}

/*
 * script output as blocks, one per sample: each ends with its blank line,
 * or is one line when samples have no call chain (no blank lines at all).
 */
struct blocks {
	const char **p;
	size_t *len;
	size_t nr, alloc, alloc2;
};

static void split_blocks(struct blocks *b, const char *s)
{
	const char *start = s;
	bool lines = s[0] != '\n' && !strstr(s, "\n\n");

	memset(b, 0, sizeof(*b));
	while (*s) {
		const char *nl = strchr(s, '\n');

		if (!nl)
			break;
		if (nl == s || lines) {
			ALLOC_GROW(b->p, b->nr + 1, b->alloc);
			ALLOC_GROW(b->len, b->nr + 1, b->alloc2);
			b->p[b->nr] = start;
			b->len[b->nr++] = (size_t)(nl + 1 - start);
			start = nl + 1;
		}
		s = nl + 1;
	}
}

static bool same_block(const struct blocks *a, size_t i, const struct blocks *b, size_t j)
{
	return a->len[i] == b->len[j] && !memcmp(a->p[i], b->p[j], a->len[i]);
}

/* fold output: each line's stack and count */
struct stacks {
	char **stack;
	uint64_t *count;
	size_t nr, alloc, alloc2;
	uint64_t total;
};

static void parse_fold(struct stacks *st, const char *s)
{
	memset(st, 0, sizeof(*st));
	while (*s) {
		const char *nl = strchr(s, '\n'), *sp;

		if (!nl)
			nl = s + strlen(s);
		for (sp = nl; sp > s && sp[-1] != ' '; sp--)
			;
		ALLOC_GROW(st->stack, st->nr + 1, st->alloc);
		ALLOC_GROW(st->count, st->nr + 1, st->alloc2);
		st->stack[st->nr] = xstrndup(s, sp > s ? (size_t)(sp - 1 - s) : 0);
		st->count[st->nr] = strtoull(sp, NULL, 10);
		st->total += st->count[st->nr++];
		s = *nl ? nl + 1 : nl;
	}
}

static void free_stacks(struct stacks *st)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		free(st->stack[i]);
	free(st->stack);
	free(st->count);
}

static uint64_t stack_count(const struct stacks *st, const char *stack)
{
	size_t i;

	for (i = 0; i < st->nr; i++)
		if (!strcmp(st->stack[i], stack))
			return st->count[i];
	return 0;
}

/*
 * A line of msgs with "'path'" and "offset N": with exact, N == want;
 * otherwise N <= want.
 */
static bool names_offset(const char *msgs, const char *path, uint64_t want, bool exact)
{
	char *quoted = xasprintf("'%s'", path);
	const char *line = msgs;
	bool found = false;

	while (*line && !found) {
		const char *nl = strchr(line, '\n'), *p = line;
		char *l = xstrndup(line, nl ? (size_t)(nl - line) : strlen(line));

		if (strstr(l, quoted)) {
			for (p = l; !found && (p = strstr(p, "offset ")); p += 7) {
				char *end;
				uint64_t n = strtoull(p + 7, &end, 10);

				if (end != p + 7)
					found = exact ? n == want : n <= want;
			}
		}
		free(l);
		line = nl ? nl + 1 : line + strlen(line);
	}
	free(quoted);
	return found;
}

static bool names_file(const char *msgs, const char *path)
{
	char *quoted = xasprintf("'%s'", path);
	bool found = strstr(msgs, quoted) != NULL;

	free(quoted);
	return found;
}

/*
 * Replay the order queue's rule over the first n records (P), counting
 * samples of attr (all for -1): *k in P; *m delivered when reading stops
 * (the whole run delivers the same ones at the same point); *j of the
 * rest, flushed in time order, those older than every record after P:
 * the whole run delivers them next, in the same order and the same state
 * (a record after P that is older, or has no time, may come first there).
 */
static void test_order(const struct input *in, size_t n, int attr, size_t *m, size_t *j,
		       size_t *k)
{
	uint64_t round_max = 0, prev_max = 0, after = UINT64_MAX, *q = NULL;
	size_t nr_q = 0, alloc_q = 0, i, x, delivered = 0;
	bool started = false, have_prev = false;

	for (i = 0; i < n; i++) {
		const struct wrec *w = &in->wrecs[i];
		bool counted = w->attr >= 0 && (attr < 0 || w->attr == attr);

		if (!started && w->type >= PERF_RECORD_USER_TYPE_START)
			continue;
		started = true;
		if (w->type == PERF_RECORD_FINISHED_ROUND) {
			for (x = 0; have_prev && x < nr_q;) {
				if (q[x] <= prev_max) {
					delivered++;
					q[x] = q[--nr_q];
				} else {
					x++;
				}
			}
			prev_max = round_max;
			have_prev = true;
			continue;
		}
		if (!w->has_time) {
			delivered += counted;
			continue;
		}
		if (w->time > round_max)
			round_max = w->time;
		if (counted) {
			ALLOC_GROW(q, nr_q + 1, alloc_q);
			q[nr_q++] = w->time;
		}
	}
	/* records without a time that reach the session are delivered at once */
	for (i = n; i < in->nr_wrecs; i++)
		if (in->wrecs[i].type < PERF_RECORD_USER_TYPE_START)
			after = min_u64(after, in->wrecs[i].has_time ? in->wrecs[i].time : 0);
	*m = delivered;
	*k = delivered + nr_q;
	for (*j = 0, x = 0; x < nr_q; x++)
		*j += q[x] < after;
	free(q);
}

/* The whole part's records: those whole at cut c. */
static size_t records_before(const struct input *in, uint64_t c)
{
	size_t n = 0;

	while (n < in->nr_wrecs && in->wrecs[n].avail_at <= c)
		n++;
	return n;
}

static const char *cur_name;
static uint64_t cur_cut;
static bool cut_failed;

/* T() for cuts: prints only failures, one line each. */
#define CHECK(what, cond)                                                         \
	do {                                                                      \
		if (!(cond)) {                                                    \
			char *name__ = xasprintf("%s: cut at %" PRIu64 ": %s",   \
						 cur_name, cur_cut, what);        \
			T(name__, cond);                                          \
			free(name__);                                             \
			cut_failed = true;                                        \
		}                                                                 \
	} while (0)

static void check_script(const struct input *in, const struct run *r, size_t n)
{
	struct blocks got, want;
	size_t m, j, k, i;

	test_order(in, n, -1, &m, &j, &k);
	split_blocks(&got, r->out);
	split_blocks(&want, in->ref_script);
	CHECK("one script block per whole sample", got.nr == k);
	for (i = 0; i < m + j && i < got.nr && i < want.nr; i++)
		if (!same_block(&got, i, &want, i))
			break;
	CHECK("the blocks of samples the cut cannot change are the reference's", i == m + j);
	free(got.p);
	free(got.len);
	free(want.p);
	free(want.len);
}

/*
 * The m + j samples test_order() finds are printed as in the reference;
 * only the others may have stacks the reference has fewer of.
 */
static void check_fold(const struct input *in, const struct run *r, size_t n)
{
	struct stacks got, want;
	size_t m, j, k, i;
	uint64_t excess = 0, ref;

	test_order(in, n, 0, &m, &j, &k);
	parse_fold(&got, r->out);
	parse_fold(&want, in->ref_fold);
	for (i = 0; i < got.nr; i++) {
		ref = stack_count(&want, got.stack[i]);
		excess += got.count[i] > ref ? got.count[i] - ref : 0;
	}
	CHECK("stacks beyond the reference's only from samples the cut can change",
	      excess <= k - m - j);
	CHECK("the counts add up to the whole samples of the first event", got.total == k);
	free_stacks(&got);
	free_stacks(&want);
}

/* The outer record c falls in: its index, or nr_orecs at a boundary or outside. */
static size_t record_at(const struct input *in, uint64_t c)
{
	size_t i;

	for (i = 0; i < in->nr_orecs; i++)
		if (c > in->orecs[i].off && c < in->orecs[i].off + in->orecs[i].size)
			return i;
	return in->nr_orecs;
}

static void cut_once(struct input *in, uint64_t c, bool fold)
{
	struct run r;
	size_t n = records_before(in, c), rec = record_at(in, c);

	if (!take())
		return;
	cur_name = in->name;
	cur_cut = c;
	write_cut(in->cut, in->buf, c);
	run_on(&r, in, fold, in->cut);
	nr_cuts++;
	CHECK("exit 0 or 2, no signal, nothing on stderr", run_clean(&r));
	if (r.err[0] || r.sig)
		printf("# %s: exit %d, signal %d, stderr:\n%.2000s\n", in->name, r.exit_code,
		       r.sig, r.err);
	if (c < in->data_start) {
		CHECK("a cut header is an error naming the file",
		      r.exit_code == EXIT_INPUT && names_file(r.msgs, in->cut) && !r.out_len);
	} else if (rec < in->nr_orecs) {
		CHECK("a cut record is an error naming its offset",
		      r.exit_code == EXIT_INPUT && names_offset(r.msgs, in->cut, in->orecs[rec].off, true));
	} else if (!in->pipe && c < in->data_end) {
		CHECK("a data section cut at a record boundary is an error naming the offset",
		      r.exit_code == EXIT_INPUT && names_offset(r.msgs, in->cut, c, true));
	}
	if (r.exit_code == EXIT_INPUT)
		CHECK("exit 2 names the file and an offset at or before the cut",
		      c < in->data_start ? names_file(r.msgs, in->cut) :
		      names_offset(r.msgs, in->cut, c, false));
	if (c >= in->data_start && run_clean(&r)) {
		if (fold)
			check_fold(in, &r, n);
		else
			check_script(in, &r, n);
	}
	if (cut_failed)
		printf("# messages:\n%.2000s", r.msgs);
	cut_failed = false;
	run_release(&r);
}

/* The references print every sample: one script block each, fold the first event's. */
static void check_refs(const struct input *in)
{
	struct blocks b;
	struct stacks st;
	size_t m, j, k, k0;

	test_order(in, in->nr_wrecs, -1, &m, &j, &k);
	test_order(in, in->nr_wrecs, 0, &m, &j, &k0);
	split_blocks(&b, in->ref_script);
	parse_fold(&st, in->ref_fold);
	tf(b.nr == k && st.total == k0, "%s: references: %zu script blocks, %zu samples; "
	   "fold total %" PRIu64 ", %zu samples of the first event", in->name, b.nr, k,
	   st.total, k0);
	free(b.p);
	free(b.len);
	free_stacks(&st);
}

/* The outputs the cuts are compared with; see the top of the file. */
static void make_refs(struct input *in)
{
	const char *ref = in->data;
	struct run r;

	if (!in->pipe) {
		write_cut(in->cut, in->buf, in->data_end);
		ref = in->cut;
	}
	run_on(&r, in, false, ref);
	tf(run_clean(&r), "%s: reference script runs clean", in->name);
	in->ref_script = r.out;
	r.out = NULL;
	run_release(&r);
	run_on(&r, in, true, ref);
	tf(run_clean(&r), "%s: reference fold runs clean", in->name);
	in->ref_fold = r.out;
	r.out = NULL;
	run_release(&r);
	check_refs(in);
}

static void cut_input(struct input *in)
{
	static const uint64_t head_file[] = { 0, 8, 16, 60, 103, 104, 130 };
	static const uint64_t head_pipe[] = { 0, 8, 15 };
	const uint64_t *head = in->pipe ? head_pipe : head_file;
	size_t nr_head = in->pipe ? ARRAY_SIZE(head_pipe) : ARRAY_SIZE(head_file);
	size_t i, step, nr = in->nr_orecs, nr_sel = 0;
	unsigned long before = nr_cuts;
	bool fold = false;

	make_refs(in);
	for (i = 0; i < nr_head; i++)
		if (head[i] < in->data_start)
			cut_once(in, head[i], (fold = !fold));
	if (!in->pipe)
		cut_once(in, in->data_start - 1, (fold = !fold));
	step = nr > MAX_BOUNDARIES ? nr / MAX_BOUNDARIES : 1;
	for (i = 0; i < nr; i += step, nr_sel++) {
		const struct orec *o = &in->orecs[i];
		const uint64_t in_rec[] = { 0, 1, 7, 8, o->size / 2 };
		size_t j;

		for (j = 0; j < ARRAY_SIZE(in_rec); j++)
			if (j == 0 || (in_rec[j] < o->size && in_rec[j] != in_rec[j - 1]))
				cut_once(in, o->off + in_rec[j], (fold = !fold));
	}
	/* the last record's end: the whole data, then one byte short of it */
	cut_once(in, in->data_end - 1, (fold = !fold));
	cut_once(in, in->data_end, (fold = !fold));
	tf(1, "%s: %lu cuts at and in %zu of %zu records", in->name, nr_cuts - before,
	   nr_sel, nr);
}

/* ---- jitdump cuts ------------------------------------------------------ */

struct jload {
	uint64_t end, addr;
	const char *name;
};

/* Frame line "ADDR SYM+0xOFF (DSO)": the symbol and where its code starts. */
static bool parse_frame(const char *line, size_t len, char **sym, uint64_t *start)
{
	char *l = xstrndup(line, len), *p = l, *end, *dso, *plus;
	uint64_t addr, off;

	while (*p == ' ' || *p == '\t')
		p++;
	addr = strtoull(p, &end, 16);
	dso = strstr(end, " (");
	while (dso && strstr(dso + 1, " ("))
		dso = strstr(dso + 1, " (");
	if (end == p || *end != ' ' || !dso) {
		free(l);
		return false;
	}
	*dso = '\0';
	for (plus = dso; plus > end && strncmp(plus, "+0x", 3); plus--)
		;
	if (plus == end) {
		free(l);
		return false;
	}
	off = strtoull(plus + 3, NULL, 16);
	*plus = '\0';
	*sym = xstrdup(end + 1);
	*start = addr - off;
	free(l);
	return true;
}

static bool named_before(const struct jload *loads, size_t nr, uint64_t c, const char *sym,
			 uint64_t start)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (loads[i].end <= c && loads[i].addr == start && !strcmp(loads[i].name, sym))
			return true;
	return false;
}

/* Frames of loads before c are printed as in the whole run: lines compared. */
static bool loads_still_named(const char *want, const char *got, const struct jload *loads,
			      size_t nr, uint64_t c)
{
	while (*want && *got) {
		const char *wn = strchr(want, '\n'), *gn = strchr(got, '\n');
		char *sym;
		uint64_t start;

		if (!wn || !gn)
			break;
		if (parse_frame(want, (size_t)(wn - want), &sym, &start)) {
			bool must = named_before(loads, nr, c, sym, start);

			free(sym);
			if (must && (wn - want != gn - got || memcmp(want, got, (size_t)(wn - want))))
				return false;
		}
		want = wn + 1;
		got = gn + 1;
	}
	return true;
}

static void jitdump_cut_once(struct input *in, const char *jd, const uint8_t *buf, uint64_t c,
			     uint64_t rec_off, uint64_t hdr, const struct jload *loads, size_t nr,
			     const char *whole)
{
	struct run r;
	struct blocks got, want;

	if (!take())
		return;
	cur_name = jd;
	cur_cut = c;
	write_file(jd, buf, c);
	run_on(&r, in, false, in->data);
	nr_jd_cuts++;
	CHECK("a cut jitdump: exit 0, no signal, nothing on stderr",
	      run_clean(&r) && r.exit_code == EXIT_OK);
	if (c < hdr)
		CHECK("a cut jitdump header is a warning naming the jitdump", names_file(r.msgs, jd));
	else if (rec_off != UINT64_MAX)
		CHECK("a cut jitdump record is a warning naming the jitdump and its offset",
		      names_offset(r.msgs, jd, rec_off, true));
	split_blocks(&got, r.out);
	split_blocks(&want, whole);
	CHECK("the same samples", got.nr == want.nr);
	CHECK("frames of loads before the cut are still named",
	      loads_still_named(whole, r.out, loads, nr, c));
	if (cut_failed)
		printf("# messages:\n%.2000s", r.msgs);
	cut_failed = false;
	free(got.p);
	free(got.len);
	free(want.p);
	free(want.len);
	run_release(&r);
}

static void cut_jitdump(struct input *in, const char *jd)
{
	size_t len, nr = 0, alloc = 0, i;
	uint8_t *buf = (uint8_t *)read_whole(jd, &len);
	bool swap = get(buf, 4, false) != 0x4A695444;
	uint64_t hdr = get(buf + 8, 4, swap), off;
	unsigned long before = nr_jd_cuts;
	struct jload *loads = NULL;
	struct orec *recs = NULL;
	size_t nr_recs = 0, alloc_recs = 0;
	struct run whole;

	for (off = hdr; off + 16 <= len;) {
		uint64_t size = get(buf + off + 4, 4, swap);

		if (size < 16 || off + size > len)
			break;
		if (get(buf + off, 4, swap) == 0 && size > 56) {
			ALLOC_GROW(loads, nr + 1, alloc);
			loads[nr].end = off + size;
			loads[nr].addr = get(buf + off + 32, 8, swap);
			loads[nr++].name = (const char *)buf + off + 56;
		}
		ALLOC_GROW(recs, nr_recs + 1, alloc_recs);
		recs[nr_recs++] = (struct orec){ off, size };
		off += size;
	}
	run_on(&whole, in, false, in->data);
	tf(run_clean(&whole) && whole.exit_code == EXIT_OK, "%s: whole run with %s", in->name,
	   strrchr(jd, '/') + 1);
	for (i = 0; i < 4; i++) {
		const uint64_t head[] = { 0, 4, 20, hdr - 1 };

		jitdump_cut_once(in, jd, buf, head[i], UINT64_MAX, hdr, loads, nr, whole.out);
	}
	for (i = 0; i < nr_recs; i++) {
		const uint64_t in_rec[] = { 0, 1, 7, 16, recs[i].size / 2 };
		size_t j;

		for (j = 0; j < ARRAY_SIZE(in_rec); j++)
			if (j == 0 || (in_rec[j] < recs[i].size && in_rec[j] != in_rec[j - 1]))
				jitdump_cut_once(in, jd, buf, recs[i].off + in_rec[j],
						 j ? recs[i].off : UINT64_MAX, hdr, loads, nr,
						 whole.out);
	}
	write_file(jd, buf, len);
	run_release(&whole);
	tf(1, "%s: %lu cuts of %s (%zu records)", in->name, nr_jd_cuts - before,
	   strrchr(jd, '/') + 1, nr_recs);
	free(recs);
	free(loads);
	free(buf);
}

/* ---- byte flips -------------------------------------------------------- */

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % n;
}

static void flip_run(struct input *in, const char *jd, const char *path, const uint8_t *buf,
		     size_t len, const char *what, unsigned int v)
{
	struct run r;

	write_file(path, buf, len);
	run_on(&r, in, v & 1, jd ? in->data : in->cut);
	nr_flips++;
	cur_name = in->name;
	cur_cut = 0;
	if (!run_clean(&r) || (jd && r.exit_code != EXIT_OK) ||
	    (r.exit_code == EXIT_INPUT && !strstr(r.msgs, "error: "))) {
		tf(0, "%s: %s: exit %d, signal %d", in->name, what, r.exit_code, r.sig);
		printf("# stderr:\n%.3000s\n# messages:\n%.2000s", r.err, r.msgs);
	}
	run_release(&r);
}

static void flip_once(struct input *in, const char *jd, unsigned int v)
{
	size_t len, i, nr = 1 + (size_t)rnd(3);
	uint8_t *orig = jd ? (uint8_t *)read_whole(jd, &len) : in->buf;
	uint8_t *buf = xmalloc(jd ? len : in->len);
	const char *path = jd ? jd : in->cut;
	char what[256];
	size_t w;

	if (!jd)
		len = in->len;
	memcpy(buf, orig, len);
	w = (size_t)snprintf(what, sizeof(what), "%s flip %u:",
			     jd ? strrchr(jd, '/') + 1 : "perf.data", v);
	for (i = 0; i < nr && len; i++) {
		uint64_t off = rnd(2) ? rnd(len < 512 ? len : 512) : rnd(len);
		uint8_t x = (uint8_t)(1 + rnd(255));

		buf[off] ^= x;
		if (w < sizeof(what))
			w += (size_t)snprintf(what + w, sizeof(what) - w, " %" PRIu64 "^%02x", off, x);
	}
	if (take_flip())
		flip_run(in, jd, path, buf, len, what, v);
	if (jd) {
		write_file(jd, orig, len);
		free(orig);
	}
	free(buf);
}

static void flip_all(void)
{
	unsigned int v;
	size_t nr_targets = 0, i, t;

	for (i = 0; i < nr_inputs; i++)
		nr_targets += 1 + inputs[i].nr_jitdumps;
	for (v = 0; v < NR_FLIPS; v++) {
		t = (size_t)(v % nr_targets);
		for (i = 0; t > inputs[i].nr_jitdumps; i++)
			t -= 1 + inputs[i].nr_jitdumps;
		flip_once(&inputs[i], t ? inputs[i].jitdumps[t - 1] : NULL, v);
	}
	tf(1, "%lu byte-flip variants over %zu files", nr_flips, nr_targets);
}

int main(void)
{
	static const char *const recorded[] = {
		"native-recorded", "compressed-recorded", "multi-event-recorded",
		"pipe-recorded", "tracepoint-recorded",
	};
	struct timespec t0, t1;
	size_t i, j;

	srcdir = getenv("abs_top_srcdir");
	if (!srcdir || !getenv("MKPERF") || !getenv("MKJITDUMP")) {
		printf("# abs_top_srcdir, MKPERF and MKJITDUMP must be set (tests/setup.sh)\n");
		return 99;
	}
	if (getenv("T_DAMAGE_STRIDE"))
		stride = strtoul(getenv("T_DAMAGE_STRIDE"), NULL, 10) ?: 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tmpdir_create("t-damage", "T_DAMAGE_KEEP");
	for (i = 0; i < ARRAY_SIZE(recorded); i++)
		add_recorded(recorded[i]);
	for (i = 0; i < ARRAY_SIZE(synth_cases); i++)
		add_synth(&synth_cases[i]);
	for (i = 0; i < nr_inputs; i++)
		walk(&inputs[i]);
	for (i = 0; i < nr_inputs; i++)
		cut_input(&inputs[i]);
	for (i = 0; i < nr_inputs; i++)
		for (j = 0; j < inputs[i].nr_jitdumps; j++)
			cut_jitdump(&inputs[i], inputs[i].jitdumps[j]);
	flip_all();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("# %lu perf.data cuts, %lu jitdump cuts (every %lu. of the sequence), %lu flips "
	       "in %.1f s\n", nr_cuts, nr_jd_cuts, stride, nr_flips, (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return test_done();
}
