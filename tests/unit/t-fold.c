/*
 * t-fold: the folder against a plain reference. Random stacks over
 * labels chosen to be prefixes of each other with characters around
 * ';' and ' ' ("a", "a b", "a(b)", "a;b", ...) go through folder__add();
 * the reference builds each sample's line as text, counts equal lines
 * and sorts them with strcmp. The outputs must be equal byte for byte.
 * Then fold and the flame graph on one process name holding a newline,
 * a space and a ';': both must label it the same (they share
 * agg_process_label()), and --weight=period must sum periods. Last,
 * agg_frame_label()'s "[libc.so.6]" for unresolved frames (--unknown=dso).
 * And the tree's own bookkeeping against a reference: the first frame
 * of each node (frames of two DSOs and kinds print the same label) and
 * the subtree weights of aggregator__sum_subtrees().
 */
#include "common/common.h"
#include "aggregate/aggregate.h"
#include "timeline/machine.h"
#include "output/out-flamegraph.h"
#include "output/out-fold.h"
#include "reader/perfdata.h"
#include "common/sbuf.h"
#include "common/strpool.h"

#include "test.h"

static const char *const names[] = {
	"a", "a b", "a(b)", "ab", "a;b", "a!", "a:b", "b", "[unknown]", "a-", "a\x01",
};
static const char *const comms[] = { "x", "x y", "x;y", "xz" };

struct ref {
	char **lines;
	size_t nr, alloc;
};

static void clean(struct sbuf *sb, const char *s, bool underscores)
{
	for (; *s; s++)
		sbuf_addch(sb, *s == ';' ? ':' : *s == '\n' ? ' ' :
			       underscores && *s == ' ' ? '_' : *s);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The reference output: "line count" for each distinct line, sorted by strcmp of the whole line. */
static char *reference(struct ref *r)
{
	struct sbuf out = SBUF_INIT;
	char **lines;
	size_t nr = 0, i, j;

	if (r->nr)      /* lines is NULL without samples */
		qsort(r->lines, r->nr, sizeof(*r->lines), cmp_str);
	lines = xcalloc(r->nr + 1, sizeof(*lines));
	for (i = 0; i < r->nr; i = j) {
		for (j = i; j < r->nr && !strcmp(r->lines[i], r->lines[j]); j++)
			;
		lines[nr++] = xasprintf("%s %zu\n", r->lines[i], j - i);
	}
	qsort(lines, nr, sizeof(*lines), cmp_str);
	for (i = 0; i < nr; i++) {
		sbuf_addstr(&out, lines[i]);
		free(lines[i]);
	}
	free(lines);
	return sbuf_detach(&out, NULL);
}

static void run(const char *what, bool with_pid, size_t nr_samples, size_t max_depth)
{
	struct fold_opts opts = { .stack.include_pid = with_pid };
	struct folder *f = folder__new(&opts);
	struct strpool *pool = strpool__new();
	struct ref ref = { 0 };
	struct frame frames[16];
	char *got = NULL, *want;
	size_t got_len = 0, i, k;
	FILE *mem;

	for (i = 0; i < nr_samples; i++) {
		struct thread t = { .tid = 1 + test_rnd(3) };
		struct pd_sample smp = { .pid = 100 + test_rnd(2), .period = 1 };
		struct resolved_sample rs = { .sample = &smp, .thread = &t, .frames = frames };
		struct sbuf line = SBUF_INIT;
		size_t depth = test_rnd((uint32_t)max_depth + 1);

		smp.tid = t.tid;
		t.comm = strpool__intern(pool, comms[test_rnd(ARRAY_SIZE(comms))]);
		clean(&line, t.comm, true);
		if (with_pid)
			sbuf_addf(&line, "-%u", smp.pid);
		/* frames are leaf first; the line is outermost first */
		for (k = 0; k < depth; k++) {
			const char *name = names[test_rnd(ARRAY_SIZE(names))];

			memset(&frames[depth - 1 - k], 0, sizeof(frames[0]));
			frames[depth - 1 - k].kind = FRAME_NATIVE;
			frames[depth - 1 - k].sym = strpool__intern(pool, name);
			sbuf_addch(&line, ';');
			clean(&line, name, false);
		}
		rs.nr_frames = depth;
		folder__add(f, &rs);
		ALLOC_GROW(ref.lines, ref.nr + 1, ref.alloc);
		ref.lines[ref.nr++] = sbuf_detach(&line, NULL);
	}
	mem = open_memstream(&got, &got_len);
	T(what, mem && !folder__write(f, mem) && !fclose(mem));
	want = reference(&ref);
	T(what, got && !strcmp(got, want));
	if (got && strcmp(got, want))
		fprintf(stderr, "--- got\n%s--- want\n%s", got, want);
	free(got);
	free(want);
	for (i = 0; i < ref.nr; i++)
		free(ref.lines[i]);
	free(ref.lines);
	folder__delete(f);
	strpool__delete(pool);
}

/* The output of write() on one sample per entry of periods, all of comm. */
static char *one_stack(const char *comm, const uint64_t *periods, size_t nr, bool flamegraph,
		       bool weight_period)
{
	struct fold_opts fo = { .stack = { .include_pid = true, .weight_period = weight_period } };
	struct flamegraph_opts fgo = { .stack = { .include_pid = true, .weight_period = weight_period } };
	struct folder *f = flamegraph ? NULL : folder__new(&fo);
	struct flamegraph *fg = flamegraph ? flamegraph__new(&fgo) : NULL;
	struct strpool *pool = strpool__new();
	struct frame fr = { .kind = FRAME_NATIVE, .sym = strpool__intern(pool, "main") };
	struct thread t = { .tid = 7, .comm = strpool__intern(pool, comm) };
	char *got = NULL;
	size_t len = 0, i;
	FILE *mem;

	for (i = 0; i < nr; i++) {
		struct pd_sample smp = { .pid = 7, .tid = 7, .period = periods[i] };
		struct resolved_sample rs = { .sample = &smp, .thread = &t, .frames = &fr,
					      .nr_frames = 1 };

		if (fg)
			flamegraph__add(fg, &rs);
		else
			folder__add(f, &rs);
	}
	mem = open_memstream(&got, &len);
	if (mem && (fg ? flamegraph__write(fg, mem) : folder__write(f, mem)))
		T("write", false);
	if (mem)
		fclose(mem);
	folder__delete(f);
	flamegraph__delete(fg);
	strpool__delete(pool);
	return got;
}

static void process_labels(void)
{
	static const uint64_t periods[] = { 1000, 250 };
	char *fold = one_stack("web worker\nx;y", periods, 2, false, false);
	char *svg = one_stack("web worker\nx;y", periods, 2, true, false);

	T("fold: a newline in a process name becomes a space",
	  fold && !strcmp(fold, "web_worker x:y-7;main 2\n"));
	T("flamegraph: the same process label as fold",
	  svg && strstr(svg, "<title>web_worker x:y-7&#10;"));
	T("flamegraph: no control character in the label", svg && !strstr(svg, "\xef\xbf\xbd"));
	free(fold);
	free(svg);
	fold = one_stack("p", periods, 2, false, true);
	T("fold: --weight=period sums periods", fold && !strcmp(fold, "p-7;main 1250\n"));
	free(fold);
}

/* agg_frame_label()'s --unknown=dso naming, as stackcollapse-perf.pl's */
static void unknown_labels(void)
{
	static const struct {
		const char *sym, *dso;
		bool unknown_dso;
		const char *want;
	} cases[] = {
		{ NULL, "/usr/lib/x86_64-linux-gnu/libc.so.6", true, "[libc.so.6]" },
		{ NULL, "/usr/lib/x86_64-linux-gnu/libc.so.6", false, "[unknown]" },
		{ NULL, "[unknown]", true, "[unknown]" },
		{ NULL, NULL, true, "[unknown]" },
		{ NULL, "//anon", true, "[anon]" },
		{ NULL, "[vdso]", true, "[[vdso]]" },
		{ NULL, "/a;b/c;d", true, "[c:d]" },
		{ "main", "/bin/prog", true, "main" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sbuf sb = SBUF_INIT;

		agg_frame_label(&sb, cases[i].sym, cases[i].dso, FRAME_NATIVE, false, false,
				cases[i].unknown_dso);
		T(cases[i].want, sb.buf && !strcmp(sb.buf, cases[i].want));
		sbuf_release(&sb);
	}
}

/* The aggregator's id of frame (sym, dso, kind), by its copies of the names. */
static uint32_t frame_id(const struct aggregator *a, const struct frame *fr)
{
	const struct agg_frame *frames;
	size_t nr, i;

	frames = aggregator__frames(a, &nr);
	for (i = 0; i < nr; i++)
		if (!strcmp(frames[i].sym, fr->sym) && !strcmp(frames[i].dso, fr->dso) &&
		    frames[i].kind == fr->kind)
			return (uint32_t)i;
	return AGG_NO_FRAME;
}

/* One random sample into a; the frames of the nodes it made into want[]. */
static void tree_sample(struct aggregator *a, struct strpool *pool, uint32_t *want,
			uint64_t *weight)
{
	static const char *const dsos[] = { "/lib/a.so", "/lib/b.so" };
	struct thread t = { .tid = 1 + test_rnd(2), .comm = strpool__intern(pool, "p") };
	struct pd_sample smp = { .pid = 1, .tid = t.tid, .period = 1 + test_rnd(9) };
	struct frame frames[8];
	struct resolved_sample rs = { .sample = &smp, .thread = &t, .frames = frames,
				      .nr_frames = 1 + test_rnd(ARRAY_SIZE(frames)) };
	size_t before, nr, d;
	const struct agg_node *nodes;
	uint32_t v;

	for (d = 0; d < rs.nr_frames; d++) {
		memset(&frames[d], 0, sizeof(frames[d]));
		frames[d].sym = strpool__intern(pool, names[test_rnd(3)]);
		frames[d].dso = strpool__intern(pool, dsos[test_rnd(2)]);
		frames[d].kind = test_rnd(2) ? FRAME_NATIVE : FRAME_JIT;
	}
	aggregator__nodes(a, &before);
	v = aggregator__add(a, &rs);
	nodes = aggregator__nodes(a, &nr);
	weight[v] += smp.period;
	/* the leaf frame is frames[0]: a node d levels up the path is frames[d] */
	for (d = 0; v != AGG_ROOT && nodes[v].parent != AGG_ROOT; d++, v = nodes[v].parent)
		if (v >= before)
			want[v] = frame_id(a, &frames[d]);
}

static void tree_bookkeeping(void)
{
	struct aggregate_opts ao = { .node_frames = true, .stack.weight_period = true };
	struct aggregator *a = aggregator__new(&ao);
	struct strpool *pool = strpool__new();
	uint32_t want[4096];
	uint64_t weight[4096] = { 0 }, total[4096] = { 0 };
	const struct agg_node *nodes;
	bool frames_ok = true, totals_ok = true;
	size_t nr = 0, i;

	for (i = 0; i < ARRAY_SIZE(want); i++)
		want[i] = AGG_NO_FRAME;
	for (i = 0; i < 300 && nr + 8 < ARRAY_SIZE(want); i++) {
		tree_sample(a, pool, want, weight);
		aggregator__nodes(a, &nr);
	}
	for (i = 0; i < nr; i++)
		frames_ok &= aggregator__node_frame(a, (uint32_t)i) == want[i];
	T("node frames: each node's first frame, where labels are shared", frames_ok);
	aggregator__freeze(a);
	nodes = aggregator__nodes(a, &nr);
	for (i = nr; i-- > 0;) {
		total[i] += weight[i];
		if (i)
			total[nodes[i].parent] += total[i];
	}
	aggregator__sum_subtrees(a);
	nodes = aggregator__nodes(a, &nr);
	for (i = 0; i < nr; i++)
		totals_ok &= nodes[i].weight == total[i];
	T("sum_subtrees: each node's weight is its subtree's", totals_ok && total[0]);
	for (i = 0; i < nr; i++)
		frames_ok &= aggregator__node_frame(a, (uint32_t)i) == want[i];
	T("node frames: the same after freezing", frames_ok);
	aggregator__delete(a);
	strpool__delete(pool);
}

int main(void)
{
	tree_bookkeeping();
	process_labels();
	unknown_labels();
	run("no samples", false, 0, 0);
	run("stacks without frames", false, 20, 0);
	run("shallow stacks", false, 500, 2);
	run("deep stacks", false, 5000, 12);
	run("deep stacks with pids", true, 5000, 12);
	return test_done();
}
