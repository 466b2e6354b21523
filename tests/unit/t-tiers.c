/*
 * t-tiers: the tiers model against a plain reference. Random samples
 * (groups, times, leaf tiers, callers) go through tiers__add() and, in
 * the reference, straight into a dense table by (time - t0) / interval;
 * the view must hold the same counts, every interval's series must add up
 * to its group's total (shares add to 100%), and the innermost count
 * must be the samples whose innermost code frame (the leaf, or the
 * caller below a native, stub or runtime leaf) is interpreted. Then: the
 * automatic interval (a 1/2/5 x 10^k step giving about 50 intervals, also
 * after the buckets widened), the warm-up rule's edge cases, --by thread,
 * --weight=period, samples out of order, too many given intervals, and
 * the group order and names.
 */
#include "common/common.h"
#include "timeline/machine.h"
#include "reader/perfdata.h"
#include "aggregate/tiers.h"

#include "test.h"

/* leaves: (kind, name) and the category frameclass gives them */
static const struct {
	enum frame_kind kind;
	const char *sym;
	enum frame_category cat;
} leaves[] = {
	{ FRAME_JIT, "JS:~f /a.js:1:1", FC_INTERPRETED },
	{ FRAME_JIT, "JS:^f /a.js:1:1", FC_BASELINE },
	{ FRAME_JIT, "JS:*f /a.js:1:1", FC_OPTIMIZED },
	{ FRAME_PERFMAP, "Interpreter", FC_INTERPRETED },
	{ FRAME_NATIVE, "main", FC_NATIVE },
	{ FRAME_KERNEL, "do_syscall_64", FC_KERNEL },
	{ FRAME_UNKNOWN, NULL, FC_UNKNOWN },
	{ FRAME_NATIVE, "v8::internal::Heap::CollectGarbage", FC_RUNTIME },
};

static const uint64_t chain[1] = { 0 };

struct smp {
	uint32_t pid, tid;
	uint64_t time, period;
	size_t leaf, caller;   /* caller: index into leaves, or SIZE_MAX: none */
	const char *comm;
};

static void add(struct tiers *t, const struct smp *s)
{
	struct pd_sample ps = { 0 };
	struct thread th = { 0 };
	struct frame fr[2];
	struct resolved_sample rs = { 0 };

	memset(fr, 0, sizeof(fr));
	ps.pid = s->pid;
	ps.tid = s->tid;
	ps.time = s->time;
	ps.has_time = true;
	ps.period = s->period;
	ps.callchain = chain;
	ps.nr_callchain = 1;
	th.tid = s->tid;
	th.comm = s->comm ? s->comm : "proc";
	fr[0].kind = leaves[s->leaf].kind;
	fr[0].sym = leaves[s->leaf].sym;
	rs.sample = &ps;
	rs.thread = &th;
	rs.frames = fr;
	rs.nr_frames = 1;
	if (s->caller != SIZE_MAX) {
		fr[1].kind = leaves[s->caller].kind;
		fr[1].sym = leaves[s->caller].sym;
		rs.nr_frames = 2;
	}
	tiers__add(t, &rs);
}

static const struct tiers_group *find(const struct tiers_view *v, uint32_t pid, uint32_t tid)
{
	size_t i;

	for (i = 0; i < v->nr_groups; i++)
		if (v->groups[i].pid == pid && v->groups[i].tid == tid)
			return &v->groups[i];
	return NULL;
}

static uint64_t cat_samples(const struct tiers_group *g, enum frame_category c, size_t i)
{
	uint64_t n = 0;
	size_t j;

	for (j = 0; j < g->nr_series; j++)
		if (g->series[j].category == c)
			n += g->series[j].samples[i];
	return n;
}

/* every interval's series add up to the group; the totals to the arrays */
static bool adds_up(const struct tiers_view *v)
{
	size_t i, j, k;

	for (i = 0; i < v->nr_groups; i++) {
		const struct tiers_group *g = &v->groups[i];
		uint64_t tot = 0;

		for (k = 0; k < v->nr_intervals; k++) {
			uint64_t s = 0, w = 0;

			for (j = 0; j < g->nr_series; j++) {
				s += g->series[j].samples[k];
				w += g->series[j].weight[k];
			}
			if (s != g->samples[k] || w != g->weight[k] || g->interp_samples[k] > s)
				return false;
			tot += s;
		}
		if (tot != g->total_samples)
			return false;
	}
	return true;
}

#define NP 3
#define NI 37

static bool code_cat(enum frame_category c)
{
	return c == FC_INTERPRETED || c == FC_BASELINE || c == FC_OPTIMIZED || c == FC_JIT;
}

/* the reference: the leaf if it is code, else the caller if that is */
static bool innermost_interp(const struct smp *s)
{
	if (code_cat(leaves[s->leaf].cat))
		return leaves[s->leaf].cat == FC_INTERPRETED;
	return s->caller != SIZE_MAX && leaves[s->caller].cat == FC_INTERPRETED;
}

/* random samples, a given interval: the view against a dense reference */
static void test_random(bool by_thread)
{
	struct tiers_opts o = { .by_thread = by_thread, .interval = 1000000, .warm_below = 0.05 };
	static uint64_t ref[NP][2][NI][FC_NR_CATEGORIES], inc[NP][2][NI];
	struct tiers *t = tiers__new(&o);
	const struct tiers_view *v;
	uint64_t t0 = 5000000000ull, time = t0, last = t0;
	bool ok = true;
	size_t n, i, k;
	int c;

	memset(ref, 0, sizeof(ref));
	memset(inc, 0, sizeof(inc));
	for (n = 0; n < 5000; n++) {
		struct smp s = { .pid = 100 + test_rnd(NP), .period = 1, .leaf = test_rnd(ARRAY_SIZE(leaves)),
				 .caller = test_rnd(3) ? test_rnd(ARRAY_SIZE(leaves)) : SIZE_MAX };
		uint32_t th = test_rnd(2);

		s.tid = s.pid + th;
		s.time = time;
		add(t, &s);
		last = time;
		k = (size_t)((time - t0) / o.interval);
		th = by_thread ? th : 0;
		ref[s.pid - 100][th][k][leaves[s.leaf].cat]++;
		if (innermost_interp(&s))
			inc[s.pid - 100][th][k]++;
		time += test_rnd(14000);   /* 5000 samples over about 35 ms */
		if (time - t0 >= NI * o.interval)
			break;
	}
	v = tiers__finish(t);
	T("random: t0 is the first sample's time", v->t0 == t0);
	T("random: the interval given", v->interval == o.interval);
	T("random: intervals up to the last sample", v->nr_intervals == (last - t0) / o.interval + 1);
	T("random: groups", v->nr_groups == (by_thread ? 2 * NP : NP));
	for (i = 0; i < NP * 2; i++) {
		const struct tiers_group *g;
		uint32_t th = (uint32_t)(i % 2);

		if (!by_thread && th)
			continue;
		g = find(v, 100 + (uint32_t)(i / 2), by_thread ? 100 + (uint32_t)(i / 2) + th : 0);
		if (!g) {
			ok = false;
			continue;
		}
		for (k = 0; k < v->nr_intervals && k < NI; k++) {
			for (c = 0; c < FC_NR_CATEGORIES; c++)
				ok &= cat_samples(g, c, k) == ref[i / 2][th][k][c];
			ok &= g->interp_samples[k] == inc[i / 2][th][k];
		}
	}
	T(by_thread ? "random by thread: counts per group, interval, category" :
	  "random: counts per process, interval, category", ok);
	T("random: shares add up to 100% in every interval", adds_up(v));
	tiers__delete(t);
}

/* the automatic interval over a long recording (buckets widened on the way) */
static void test_auto(uint64_t span)
{
	struct tiers_opts o = { .warm_below = 0.05 };
	struct tiers *t = tiers__new(&o);
	const struct tiers_view *v;
	uint64_t t0 = 1000, step = span / 997, x, m;
	size_t n, per_ok = 1;
	char name[100];

	for (n = 0; n <= 997; n++) {
		struct smp s = { .pid = 1, .tid = 1, .time = t0 + n * step, .period = 1,
				 .leaf = n % 3, .caller = SIZE_MAX };

		add(t, &s);
	}
	v = tiers__finish(t);
	for (x = v->interval; x % 10 == 0; x /= 10)
		;
	snprintf(name, sizeof(name), "auto over %" PRIu64 " ns: a 1/2/5 x 10^k interval (%" PRIu64
		 "), about 50 of them (%zu)", span, v->interval, v->nr_intervals);
	if (span < 50000)      /* the shortest interval: 1 us */
		T(name, v->interval == 1000);
	else
		T(name, (x == 1 || x == 2 || x == 5) && v->nr_intervals >= 20 && v->nr_intervals <= 51);
	/* every sample where (time - t0) / interval puts it */
	for (m = 0; m < v->nr_intervals; m++) {
		uint64_t want = 0;

		for (n = 0; n <= 997; n++)
			want += (n * step) / v->interval == m;
		per_ok &= v->groups[0].samples[m] == want;
	}
	T("auto: each sample in its interval", per_ok && v->groups[0].total_samples == 998);
	T("auto: shares add up", adds_up(v));
	tiers__delete(t);
}

/* plan: per interval "I" interpreted samples, "o" optimized JIT, "n" native, "." none */
static int64_t warm(const char *plan, double below)
{
	struct tiers_opts o = { .interval = 1000, .warm_below = below };
	struct tiers *t = tiers__new(&o);
	int64_t w;
	size_t i = 0;
	const char *p;

	for (p = plan; *p; p++) {
		struct smp s = { .pid = 7, .tid = 7, .period = 1, .caller = SIZE_MAX };

		if (*p == ' ') {
			i++;
			continue;
		}
		if (*p == '.')
			continue;
		s.time = 1000000 + i * 1000 + (uint64_t)(p - plan) % 1000;
		s.leaf = *p == 'I' ? 0 : *p == 'n' ? 4 : 2;
		add(t, &s);
	}
	w = tiers__finish(t)->groups[0].warm_interval;
	tiers__delete(t);
	return w;
}

static void test_warm(void)
{
	T("warm: never interpreted: from the first interval", warm("o o o", 0.05) == 0);
	T("warm: always interpreted: never", warm("I I I", 0.05) == -1);
	T("warm: falls and stays", warm("III IIo Ioo ooo ooo", 0.4) == 2 &&
	  warm("III IIo Ioo ooo ooo", 0.3) == 3);
	T("warm: falls then rises at the end: never", warm("II oo oo oI", 0.05) == -1);
	T("warm: a rise before a whole last interval: warm after it", warm("II oo oo oI oo", 0.05) == 4);
	T("warm: a partial last interval all interpreted (a JVM's exit) does not erase it",
	  warm("II oooo oooo I", 0.05) == 1);
	T("warm: nor does one partly interpreted (node's exit handlers)",
	  warm("IIIIII oooooo oooooo oI", 0.05) == 1);
	T("warm: nor one after an empty interval", warm("II oooo oooo . I", 0.05) == 1);
	T("warm: a last interval half as full as the median counts",
	  warm("II oooo oooo oI", 0.05) == -1 && warm("II oooo oooo I", 0.05) == 1);
	T("warm: compiled code only in a partial last interval: never",
	  warm("IIII IIII o", 0.05) == -1);
	T("warm: one interval: it counts", warm("o", 0.05) == 0 && warm("I", 0.05) == -1);
	T("warm: empty intervals do not break it", warm("II oo . oo . . oo", 0.05) == 1);
	T("warm: nor delay it", warm("II . . oo", 0.05) == 3);
	T("warm: the share must be below, not at, the threshold",
	  warm("I ooooI oooooooooI", 0.2) == 2 && warm("I ooooI oooooooooI", 0.25) == 1);
	T("warm: no compiled code after the interpreter: never (CPython)", warm("I I n n", 0.05) == -1);
	T("warm: a native-only tail does not make it warm", warm("I I I In n", 0.05) == -1);
	T("warm: nor does it delay a warm-up before it", warm("II oo oo n", 0.05) == 1);
	T("warm: threshold 0: never with any interpretation", warm("I o o", 0) == -1);
	T("warm: threshold 100%: from the first not all interpreted",
	  warm("I I o", 1.0) == 2 && warm("Io Io o", 1.0) == 0);
}

/* One sample of the given stack (leaf first), its group's innermost count. */
static uint64_t innermost(const struct frame *fr, size_t n)
{
	struct tiers_opts o = { .interval = 1000, .warm_below = 0.05 };
	struct tiers *t = tiers__new(&o);
	struct pd_sample ps = { .pid = 1, .tid = 1, .time = 1, .has_time = true, .period = 1,
				.callchain = chain, .nr_callchain = 1 };
	struct thread th = { .tid = 1, .comm = "node" };
	struct resolved_sample rs = { .sample = &ps, .thread = &th, .frames = (struct frame *)fr,
				      .nr_frames = n };
	uint64_t r;

	tiers__add(t, &rs);
	r = tiers__finish(t)->groups[0].total_interp_samples;
	tiers__delete(t);
	return r;
}

#define FR(k, s) { .kind = (k), .sym = (s) }

/*
 * The innermost code frame decides, not any frame on the stack: node's
 * top-level script ("JS:~ /app/x.js") and module loader stay in Ignition
 * all run long below the optimized code.
 */
static void test_innermost(void)
{
	static const struct frame opt_under_top[] = {
		FR(FRAME_JIT, "JS:*work /app/x.js:3:1"),
		FR(FRAME_JIT, "JS:~ /app/x.js:1:1"),
		FR(FRAME_JIT, "JS:~Module._compile node:internal/modules/cjs/loader:1:1"),
	};
	static const struct frame builtin_under_opt[] = {
		FR(FRAME_JIT, "Builtin:ArrayPrototypePush"),
		FR(FRAME_NATIVE, "v8::internal::Runtime_StringAdd"),
		FR(FRAME_JIT, "JS:*work /app/x.js:3:1"),
		FR(FRAME_JIT, "JS:~ /app/x.js:1:1"),
	};
	static const struct frame native_under_interp[] = {
		FR(FRAME_KERNEL, "do_syscall_64"),
		FR(FRAME_NATIVE, "write"),
		FR(FRAME_JIT, "Builtin:CallFunction"),
		FR(FRAME_JIT, "JS:~log /app/x.js:9:1"),
		FR(FRAME_JIT, "JS:*work /app/x.js:3:1"),
	};
	static const struct frame java_compiled_under_interp[] = {
		FR(FRAME_PERFMAP, "LWorkload;next(JI)J"),
		FR(FRAME_PERFMAP, "Interpreter"),
	};
	static const struct frame php_vm[] = {
		FR(FRAME_NATIVE, "zend_hash_find"),
		FR(FRAME_NATIVE, "execute_ex"),
		FR(FRAME_PERFMAP, "TRACE-1$run$3"),
	};
	static const struct frame native_only[] = {
		FR(FRAME_NATIVE, "main"), FR(FRAME_NATIVE, "__libc_start_main"),
	};

	T("innermost: optimized code under an interpreted top level: not interpreted",
	  innermost(opt_under_top, ARRAY_SIZE(opt_under_top)) == 0);
	T("innermost: a builtin and runtime leaf under optimized code: not interpreted",
	  innermost(builtin_under_opt, ARRAY_SIZE(builtin_under_opt)) == 0);
	T("innermost: kernel, native and builtin frames under interpreted code: interpreted",
	  innermost(native_under_interp, ARRAY_SIZE(native_under_interp)) == 1);
	T("innermost: HotSpot compiled code called by the interpreter: not interpreted",
	  innermost(java_compiled_under_interp, ARRAY_SIZE(java_compiled_under_interp)) == 0);
	T("innermost: native code called by PHP's VM: interpreted",
	  innermost(php_vm, ARRAY_SIZE(php_vm)) == 1);
	T("innermost: no code frame: not interpreted",
	  innermost(native_only, ARRAY_SIZE(native_only)) == 0);
}

static void test_weight_and_order(void)
{
	struct tiers_opts o = { .interval = 1000000000, .stack.weight_period = true, .warm_below = 0.05 };
	struct tiers *t = tiers__new(&o);
	const struct tiers_view *v;
	/* pid 9: few samples with a long period; pid 8 and 3: more, shorter, equal weight */
	struct smp s[] = {
		{ 9, 10, 100, 1000, 0, SIZE_MAX, "worker" },
		{ 9, 9, 200, 1000, 2, SIZE_MAX, "app" },
		{ 8, 8, 300, 10, 2, SIZE_MAX, "b" },
		{ 8, 8, 300, 10, 2, SIZE_MAX, "b" },
		{ 3, 3, 400, 20, 4, SIZE_MAX, "a" },
		{ 9, 10, 50, 7, 4, SIZE_MAX, "worker" },   /* older than the first */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(s); i++)
		add(t, &s[i]);
	v = tiers__finish(t);
	T("weight: periods summed", v->groups[0].total_weight == 2007 && v->groups[0].total_samples == 3);
	T("weight: the interpreted share by weight", v->groups[0].series[1].category == FC_INTERPRETED &&
	  v->groups[0].series[1].total_weight == 1000);
	T("order: by weight, then pid", v->nr_groups == 3 && v->groups[0].pid == 9 &&
	  v->groups[1].pid == 3 && v->groups[2].pid == 8);
	T("order: series by category", v->groups[0].series[0].category == FC_NATIVE &&
	  v->groups[0].series[2].category == FC_OPTIMIZED);
	T("name: the process's main thread's", !strcmp(v->groups[0].comm, "app"));
	T("out of order: counted in the first interval", v->nr_early == 1 &&
	  v->groups[0].samples[0] == 3);
	T("t0: the first sample's", v->t0 == 100);
	tiers__delete(t);
}

static void test_too_many(void)
{
	struct tiers_opts o = { .interval = 1000, .warm_below = 0.05 };
	struct tiers *t = tiers__new(&o);
	const struct tiers_view *v;
	struct smp a = { 1, 1, 0, 1, 0, SIZE_MAX, NULL }, b = a;

	b.time = 1000000000;   /* 1 s of 1 us intervals */
	add(t, &a);
	add(t, &b);
	v = tiers__finish(t);
	T("too many intervals: widened by powers of two", v->interval % 1000 == 0 &&
	  ((v->interval / 1000) & (v->interval / 1000 - 1)) == 0 && v->nr_intervals <= 10000 &&
	  v->nr_intervals > 5000 && v->groups[0].samples[v->nr_intervals - 1] == 1);
	tiers__delete(t);
}

static void test_empty(void)
{
	struct tiers_opts o = { .warm_below = 0.05 };
	struct tiers *t = tiers__new(&o);
	const struct tiers_view *v = tiers__finish(t);

	T("no samples: no groups, no intervals", !v->nr_groups && !v->nr_intervals);
	T("no samples: the writers write a header", !tiers__write_csv(v, stdout) &&
	  !tiers__write_json(v, stdout) && !tiers__write_table(v, stdout));
	tiers__delete(t);
	tiers__delete(NULL);
}

int main(void)
{
	test_random(false);
	test_random(true);
	test_auto(3000);            /* 3 us: 1 us buckets, never widened */
	test_auto(987654321);       /* about 1 s */
	test_auto(3600000000000ull);   /* an hour */
	test_warm();
	test_innermost();
	test_weight_and_order();
	test_too_many();
	test_empty();
	return test_done();
}
