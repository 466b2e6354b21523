#include "common/common.h"
#include "timeline/machine.h"
#include "aggregate/tiers.h"
#include "timeline/user-markers.h"
#include "session/session.h"

#include <uthash.h>

/*
 * Memory: the samples are bucketed as they come, never kept. Each series
 * (and each group's inclusive count) holds a list of cells, one per
 * non-empty bucket of width w, in bucket order; samples arrive in time
 * order (the session orders them), so a sample adds to the last cell or
 * appends one. The interval is only known at the end when it is chosen
 * from the span (opts.interval 0): buckets then start at 1 us and, when
 * the recording outgrows MAX_FINE buckets, widen (x2, x5: 1, 2, 10, 20,
 * 100 us, ...) and merge their cells. So memory is bounded by groups x
 * series x MAX_FINE cells, whatever the number of samples; with a given
 * interval by MAX_GIVEN buckets (beyond that the interval is doubled,
 * and the view says the interval it used).
 */
/*
 * A sample's frames are classified through a direct-mapped cache by
 * (kind, name): names are the session's interned strings, and a name's
 * rules (prefixes, suffixes, signatures) were a sixth of tiers' time.
 */
#define FC_CACHE_BITS 12

struct fc_slot {
	const char *sym;
	int kind;               /* -1: empty */
	struct frame_class fc;
};

#define MAX_FINE 2000
#define MAX_GIVEN 10000
#define AUTO_INTERVALS 50
#define FIRST_WIDTH 1000   /* ns */

struct tcell {
	uint64_t bucket, samples, weight;
};

struct tcells {
	struct tcell *v;
	size_t nr, alloc;
};

struct tser {
	struct frame_class fc;
	struct tcells cells;
};

struct tgroup {
	uint32_t pid, tid;
	char *comm;
	/* by marker: its span (the name is the marker set's pool's) */
	const char *span;
	uint64_t span_start, span_end;
	bool comm_final;        /* the comm of the process's main thread */
	struct tser *ser;
	size_t nr_ser, alloc_ser;
	struct tcells interp;
};

/* by marker: a span, by what it is, and its group's key (spans may come in any order) */
struct span_id {
	/* not its end: a --marker-event span's comes with the next mark */
	struct { uint32_t pid; uint64_t start; const char *name; } key;
	uint32_t id;
	UT_hash_handle hh;
};

struct tiers {
	struct tiers_opts opts;
	struct tgroup *groups;
	size_t nr_groups, alloc_groups;
	size_t *hash;           /* group index + 1; 0: empty */
	size_t hash_size;
	bool started;
	uint64_t tb, tmax;      /* first sample's time, the latest */
	uint64_t width;         /* bucket width, ns */
	uint64_t max_bucket;
	uint64_t nr_leaf_only, nr_early, nr_outside;
	struct span_id *span_ids;       /* by marker: a group key per distinct span */
	uint32_t nr_span_ids;
	struct fc_slot *fc_cache;       /* 1 << FC_CACHE_BITS */
	const char *thread_comm;        /* the last comm thread_class() saw */
	int thread_rule;                /* its row in threads[], -1: none */
	struct tiers_view view;
};

struct tiers *tiers__new(const struct tiers_opts *opts)
{
	struct tiers *t = xcalloc(1, sizeof(*t));
	size_t i;

	t->opts = *opts;
	t->width = opts->interval ? opts->interval : FIRST_WIDTH;
	t->fc_cache = xcalloc(1u << FC_CACHE_BITS, sizeof(*t->fc_cache));
	for (i = 0; i < 1u << FC_CACHE_BITS; i++)
		t->fc_cache[i].kind = -1;
	return t;
}

static size_t group_hash(uint32_t pid, uint32_t tid, size_t size)
{
	uint64_t k = ((uint64_t)pid << 32 | tid) * 0x9e3779b97f4a7c15ull;

	return (size_t)(k >> 32) & (size_t)(size - 1);
}

static void hash_insert(struct tiers *t, size_t idx)
{
	size_t h = group_hash(t->groups[idx].pid, t->groups[idx].tid, t->hash_size);

	while (t->hash[h])
		h = (h + 1) & (t->hash_size - 1);
	t->hash[h] = idx + 1;
}

static void hash_grow(struct tiers *t)
{
	size_t i;

	free(t->hash);
	t->hash_size = t->hash_size ? st_mult(t->hash_size, 2) : 64;
	t->hash = xcalloc_written(t->hash_size, sizeof(*t->hash));
	for (i = 0; i < t->nr_groups; i++)
		hash_insert(t, i);
}

static struct tgroup *find_group(struct tiers *t, uint32_t pid, uint32_t tid, const char *comm)
{
	struct tgroup *g;
	size_t h;

	if (t->hash_size) {
		h = group_hash(pid, tid, t->hash_size);
		for (; t->hash[h]; h = (h + 1) & (t->hash_size - 1)) {
			g = &t->groups[t->hash[h] - 1];
			if (g->pid == pid && g->tid == tid)
				return g;
		}
	}
	ALLOC_GROW(t->groups, t->nr_groups + 1, t->alloc_groups);
	g = &t->groups[t->nr_groups++];
	memset(g, 0, sizeof(*g));
	g->pid = pid;
	g->tid = tid;
	g->comm = xstrdup(comm ? comm : "");
	if (2 * t->nr_groups > t->hash_size)
		hash_grow(t);
	else
		hash_insert(t, t->nr_groups - 1);
	return g;
}

/*
 * The group's name: a thread's latest; a process's main thread's once
 * seen (its latest), else its first sample's.
 */
static void group_comm(struct tgroup *g, bool by_thread, uint32_t tid, const char *comm)
{
	if (!comm || (!by_thread && tid != g->pid && (g->comm_final || g->comm[0])))
		return;
	if (strcmp(g->comm, comm)) {
		free(g->comm);
		g->comm = xstrdup(comm);
	}
	g->comm_final |= tid == g->pid;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static struct tcells *find_series(struct tgroup *g, const struct frame_class *fc)
{
	size_t i;

	for (i = 0; i < g->nr_ser; i++) {
		struct tser *s = &g->ser[i];

		if (s->fc.category == fc->category && same_str(s->fc.runtime, fc->runtime) &&
		    same_str(s->fc.tier, fc->tier))
			return &s->cells;
	}
	ALLOC_GROW(g->ser, g->nr_ser + 1, g->alloc_ser);
	memset(&g->ser[g->nr_ser], 0, sizeof(g->ser[0]));
	g->ser[g->nr_ser].fc = *fc;
	return &g->ser[g->nr_ser++].cells;
}

static void cells_add(struct tcells *c, uint64_t bucket, uint64_t weight)
{
	size_t i = c->nr;

	while (i && c->v[i - 1].bucket > bucket)   /* out of order: rare */
		i--;
	if (!i || c->v[i - 1].bucket != bucket) {
		ALLOC_GROW(c->v, c->nr + 1, c->alloc);
		memmove(&c->v[i + 1], &c->v[i], (c->nr - i) * sizeof(c->v[0]));
		c->v[i] = (struct tcell){ bucket, 0, 0 };
		c->nr++;
		i++;
	}
	c->v[i - 1].samples++;
	c->v[i - 1].weight += weight;
}

/* Divide every bucket index by f, merging the cells that meet. */
static void cells_widen(struct tcells *c, uint64_t f)
{
	size_t i, n = 0;

	for (i = 0; i < c->nr; i++) {
		uint64_t b = c->v[i].bucket / f;

		if (n && c->v[n - 1].bucket == b) {
			c->v[n - 1].samples += c->v[i].samples;
			c->v[n - 1].weight += c->v[i].weight;
			continue;
		}
		c->v[n] = c->v[i];
		c->v[n++].bucket = b;
	}
	c->nr = n;
}

/* 1, 2, 10, 20, 100, ...: each width divides every later one and every 1/2/5 x 10^k above it */
static uint64_t widen_factor(const struct tiers *t)
{
	uint64_t w = t->width;

	if (t->opts.interval)
		return 2;
	while (w % 10 == 0)
		w /= 10;
	return w == 1 ? 2 : 5;
}

static void widen(struct tiers *t)
{
	size_t i, j;
	uint64_t max = t->opts.interval ? MAX_GIVEN : MAX_FINE;

	while (t->max_bucket >= max && t->width <= UINT64_MAX / 5) {
		uint64_t f = widen_factor(t);

		t->width *= f;
		t->max_bucket /= f;
		for (i = 0; i < t->nr_groups; i++) {
			struct tgroup *g = &t->groups[i];

			for (j = 0; j < g->nr_ser; j++)
				cells_widen(&g->ser[j].cells, f);
			cells_widen(&g->interp, f);
		}
	}
}

static uint64_t sample_bucket(struct tiers *t, const struct pd_sample *smp)
{
	uint64_t time = smp->has_time ? smp->time : 0, b;

	if (!t->started) {
		t->started = true;
		t->tb = t->tmax = time;
	}
	if (time < t->tb) {      /* before the first: in the first bucket */
		t->nr_early++;
		return 0;
	}
	if (time > t->tmax)
		t->tmax = time;
	b = (time - t->tb) / t->width;
	if (b > t->max_bucket) {
		t->max_bucket = b;
		widen(t);
		b = (time - t->tb) / t->width;
	}
	return b;
}

/* frameclass__classify(), through the cache. */
static const struct frame_class *classify(struct tiers *t, enum frame_kind kind, const char *sym)
{
	uint64_t h = ((uintptr_t)sym ^ (uint64_t)kind) * 0x9E3779B97F4A7C15ULL;
	struct fc_slot *slot = &t->fc_cache[h >> (64 - FC_CACHE_BITS)];

	if (slot->kind != (int)kind || slot->sym != sym) {
		frameclass__classify(kind, sym, &slot->fc);
		slot->sym = sym;
		slot->kind = (int)kind;
	}
	return &slot->fc;
}

/*
 * Where the leaf's own name tells nothing (native code of no runtime
 * known), the thread's name may: HotSpot's JIT compiler and GC threads.
 * Comms are interned: the last one's answer is kept.
 */
static void thread_class(struct tiers *t, const char *comm, struct frame_class *fc)
{
	static const struct { const char *prefix, *tier; } threads[] = {
		{ "C2 CompilerThre", "compiler" }, { "C1 CompilerThre", "compiler" },
		{ "GC Thread#", "GC" }, { "G1 ", "GC" }, { "VM Thread", "runtime" },
	};
	size_t i;

	if (fc->category != FC_NATIVE || !comm)
		return;
	if (comm != t->thread_comm) {
		t->thread_comm = comm;
		t->thread_rule = -1;
		for (i = 0; i < ARRAY_SIZE(threads) && t->thread_rule < 0; i++)
			if (!strncmp(comm, threads[i].prefix, strlen(threads[i].prefix)))
				t->thread_rule = (int)i;
	}
	if (t->thread_rule >= 0) {
		fc->category = FC_RUNTIME;
		fc->runtime = "HotSpot";
		fc->tier = threads[t->thread_rule].tier;
		fc->guess = true;
	}
}

/*
 * The sample's innermost frame of code (interpreted, baseline, optimizing
 * or other JIT code: the program's own functions) is interpreted: the
 * leaf, or below the leaf's stubs, builtins, runtime and native code (and
 * the kernel), the nearest frame of the program's code. Frames further
 * out do not count: node's top-level script and module loader stay in
 * Ignition for the whole run, a JVM's main() in the interpreter.
 */
static bool is_code(enum frame_category c)
{
	return c == FC_INTERPRETED || c == FC_BASELINE || c == FC_OPTIMIZED || c == FC_JIT;
}

static bool innermost_interpreted(struct tiers *t, const struct resolved_sample *rs,
				  const struct frame_class *leaf)
{
	size_t i;

	if (is_code(leaf->category))
		return leaf->category == FC_INTERPRETED;
	for (i = 1; i < rs->nr_frames; i++) {
		enum frame_category c = classify(t, rs->frames[i].kind, rs->frames[i].sym)->category;

		if (is_code(c))
			return c == FC_INTERPRETED;
	}
	return false;
}

/*
 * The span of pid around time: the latest to start of those that hold
 * it (spans sorted by start, then end); NULL: none.
 */
static const struct user_marker *span_at(struct tiers *t, uint32_t pid, uint64_t time)
{
	size_t n, lo = 0, hi;
	const struct user_marker *v = marker_set__spans(t->opts.markers, pid, &n);

	hi = n;
	while (lo < hi) {     /* the first span starting after time */
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].start <= time)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0)
		if (v[lo].end > time || (v[lo].end == time && v[lo].start == time))
			return &v[lo];
	return NULL;
}

/* The group key of pid's span (from 1). */
static uint32_t span_key(struct tiers *t, uint32_t pid, const struct user_marker *span)
{
	struct span_id key, *e;

	memset(&key, 0, sizeof(key));
	key.key.pid = pid;
	key.key.start = span->start;
	key.key.name = span->name;
	HASH_FIND(hh, t->span_ids, &key.key, sizeof(key.key), e);
	if (e)
		return e->id;
	e = xcalloc(1, sizeof(*e));
	e->key = key.key;
	e->id = ++t->nr_span_ids;
	HASH_ADD(hh, t->span_ids, key, sizeof(e->key), e);
	return e->id;
}

void tiers__add(struct tiers *t, const struct resolved_sample *rs)
{
	const struct pd_sample *smp = rs->sample;
	const char *comm = rs->thread ? rs->thread->comm : NULL;
	uint32_t tid = rs->thread ? rs->thread->tid : smp->tid;
	const struct user_marker *span = NULL;
	struct frame_class fc;
	struct tgroup *g;
	uint64_t b, w = t->opts.stack.weight_period ? smp->period : 1;
	uint32_t key = t->opts.by_thread ? tid : 0;

	if (t->opts.markers) {
		span = smp->has_time ? span_at(t, smp->pid, smp->time) : NULL;
		if (!span) {
			t->nr_outside++;
			return;
		}
		key = span_key(t, smp->pid, span);
	}
	b = sample_bucket(t, smp);
	g = find_group(t, smp->pid, key, comm);
	if (span) {
		g->span = span->name;
		g->span_start = span->start;
		g->span_end = span->end;
	}
	group_comm(g, t->opts.by_thread, tid, comm);
	if (rs->nr_frames)
		fc = *classify(t, rs->frames[0].kind, rs->frames[0].sym);
	else
		frameclass__classify(FRAME_UNKNOWN, NULL, &fc);
	thread_class(t, comm, &fc);
	cells_add(find_series(g, &fc), b, w);
	if (!smp->callchain && !smp->user_stack)
		t->nr_leaf_only++;
	if (rs->nr_frames && innermost_interpreted(t, rs, &fc))
		cells_add(&g->interp, b, w);
}

/* The smallest of 1, 2, 5 x 10^k ns at or above want that is a multiple of w (and >= w). */
static uint64_t nice_interval(uint64_t want, uint64_t w)
{
	static const uint64_t m[] = { 1, 2, 5 };
	uint64_t p;
	size_t i;

	if (want < w)
		want = w;
	for (p = 1; p <= UINT64_MAX / 10; p *= 10) {
		for (i = 0; i < ARRAY_SIZE(m); i++) {
			if (m[i] * p >= want && (m[i] * p) % w == 0)
				return m[i] * p;
		}
	}
	return w;
}

static void fill(const struct tcells *c, uint64_t per, uint64_t *samples, uint64_t *weight)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		samples[c->v[i].bucket / per] += c->v[i].samples;
		weight[c->v[i].bucket / per] += c->v[i].weight;
	}
}

static uint64_t sum(const uint64_t *v, size_t n)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	return s;
}

static int cmp_tier(const char *a, const char *b)
{
	if (!a || !b)
		return !!a - !!b;
	return strcmp(a, b);
}

static int series_cmp(const void *pa, const void *pb)
{
	const struct tiers_series *a = pa, *b = pb;
	int c;

	if (a->category != b->category)
		return a->category < b->category ? -1 : 1;
	c = cmp_tier(a->tier, b->tier);
	return c ? c : cmp_tier(a->runtime, b->runtime);
}

/* by marker: each process's spans in time order */
static int span_group_cmp(const void *pa, const void *pb)
{
	const struct tiers_group *a = pa, *b = pb;
	int c;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->span_start != b->span_start)
		return a->span_start < b->span_start ? -1 : 1;
	if (a->span_end != b->span_end)
		return a->span_end < b->span_end ? -1 : 1;
	c = strcmp(a->span, b->span);
	return c ? c : strcmp(a->comm, b->comm);
}

static int group_cmp(const void *pa, const void *pb)
{
	const struct tiers_group *a = pa, *b = pb;

	if (a->total_weight != b->total_weight)
		return a->total_weight > b->total_weight ? -1 : 1;
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/*
 * The warm-up interval: the first one from which on every interval with
 * samples has an interpreted (self) share below the threshold and the
 * intervals from it on ran compiled code (baseline, optimizing or other
 * JIT code: warming up is moving from the interpreter to compiled code,
 * so an interpreter-only runtime never warms up, and a last interval
 * holding only GC or native samples does not make a process warm); -1
 * when there is no such interval.
 *
 * The run's end does not count when it is partial: the group's last
 * interval with samples is left out when it holds less than half the
 * weight of the median of its intervals with samples. The process
 * stopped early in it (the recording ended, the process exited), and
 * what it holds is then mostly the runtime's shutdown (the JVM's exit,
 * node's exit handlers), which runs interpreted code: a few interpreted
 * samples there would otherwise erase the warm-up of the whole run. A
 * last interval at least half as full as the median counts: the
 * shutdown is a small part of it.
 */
static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* The group's last interval with samples when it is partial (above); n: none. */
static size_t partial_end(const struct tiers_group *g, size_t n)
{
	uint64_t *w = xcalloc(n ? n : 1, sizeof(*w));
	size_t i, m = 0, last = n;

	for (i = 0; i < n; i++) {
		if (g->weight[i]) {
			w[m++] = g->weight[i];
			last = i;
		}
	}
	if (m > 1) {
		qsort(w, m, sizeof(*w), cmp_u64);
		if (!(g->weight[last] < w[m / 2] - w[m / 2] / 2))
			last = n;
	} else {
		last = n;
	}
	free(w);
	return last;
}

static int64_t warm_interval(const struct tiers_group *g, size_t n, double below)
{
	int64_t warm = -1;
	bool compiled = false;
	size_t i, j, skip = partial_end(g, n);

	for (i = n; i-- > 0;) {
		uint64_t interp = 0;

		if (i == skip || !g->weight[i])
			continue;
		for (j = 0; j < g->nr_series; j++) {
			const struct tiers_series *s = &g->series[j];

			if (s->category == FC_INTERPRETED)
				interp += s->weight[i];
			else if (s->weight[i] && (s->category == FC_BASELINE ||
						  s->category == FC_OPTIMIZED || s->category == FC_JIT))
				compiled = true;
		}
		if (!((double)interp / (double)g->weight[i] < below))
			break;
		if (compiled)
			warm = (int64_t)i;
	}
	return warm;
}

static void view_group(const struct tiers *t, const struct tgroup *tg, struct tiers_group *g)
{
	size_t n = t->view.nr_intervals, i, j;
	uint64_t per = t->view.interval / t->width;

	g->pid = tg->pid;
	g->tid = tg->tid;
	g->comm = tg->comm;
	g->span = tg->span;
	g->span_start = tg->span_start;
	g->span_end = tg->span_end;
	g->nr_series = tg->nr_ser;
	g->series = xcalloc(tg->nr_ser, sizeof(*g->series));
	g->samples = xcalloc(n, sizeof(uint64_t));
	g->weight = xcalloc(n, sizeof(uint64_t));
	g->interp_samples = xcalloc(n, sizeof(uint64_t));
	g->interp_weight = xcalloc(n, sizeof(uint64_t));
	for (i = 0; i < tg->nr_ser; i++) {
		struct tiers_series *s = &g->series[i];

		s->category = tg->ser[i].fc.category;
		s->runtime = tg->ser[i].fc.runtime;
		s->tier = tg->ser[i].fc.tier;
		s->samples = xcalloc(n, sizeof(uint64_t));
		s->weight = xcalloc(n, sizeof(uint64_t));
		fill(&tg->ser[i].cells, per, s->samples, s->weight);
		s->total_samples = sum(s->samples, n);
		s->total_weight = sum(s->weight, n);
		for (j = 0; j < n; j++) {
			g->samples[j] += s->samples[j];
			g->weight[j] += s->weight[j];
		}
	}
	qsort(g->series, g->nr_series, sizeof(*g->series), series_cmp);
	fill(&tg->interp, per, g->interp_samples, g->interp_weight);
	g->total_samples = sum(g->samples, n);
	g->total_weight = sum(g->weight, n);
	g->total_interp_samples = sum(g->interp_samples, n);
	g->total_interp_weight = sum(g->interp_weight, n);
	for (i = 0; i < g->nr_series; i++) {
		enum frame_category c = g->series[i].category;

		g->ran_interpreted |= c == FC_INTERPRETED;
		g->ran_compiled |= c == FC_BASELINE || c == FC_OPTIMIZED || c == FC_JIT;
	}
	g->warm_interval = warm_interval(g, n, t->opts.warm_below);
}

const struct tiers_view *tiers__finish(struct tiers *t)
{
	struct tiers_view *v = &t->view;
	size_t i;

	if (v->groups || v->nr_intervals)
		BUG("tiers__finish() twice");
	v->t0 = t->tb;
	v->weight_period = t->opts.stack.weight_period;
	v->by_thread = t->opts.by_thread;
	v->by_marker = t->opts.markers != NULL;
	v->nr_outside = t->nr_outside;
	v->warm_below = t->opts.warm_below;
	v->nr_leaf_only = t->nr_leaf_only;
	v->nr_early = t->nr_early;
	v->interval = t->opts.interval ? t->width :
		nice_interval((t->tmax - t->tb) / AUTO_INTERVALS, t->width);
	v->nr_intervals = t->started ? (size_t)(t->max_bucket / (v->interval / t->width)) + 1 : 0;
	v->nr_groups = t->nr_groups;
	v->groups = xcalloc(t->nr_groups, sizeof(*v->groups));
	for (i = 0; i < t->nr_groups; i++)
		view_group(t, &t->groups[i], &v->groups[i]);
	/* by marker: a --marker-event span's end came with the next mark, maybe after its samples */
	for (i = 0; t->opts.markers && i < v->nr_groups; i++) {
		struct tiers_group *g = &v->groups[i];
		const struct user_marker *sp;
		size_t n, k;

		size_t lo = 0;

		sp = marker_set__spans(t->opts.markers, g->pid, &n);
		while (lo < n) {     /* the first span starting at span_start or later */
			size_t mid = lo + (n - lo) / 2;

			if (sp[mid].start < g->span_start)
				lo = mid + 1;
			else
				n = mid;
		}
		sp = marker_set__spans(t->opts.markers, g->pid, &n);
		for (k = lo; k < n && sp[k].start == g->span_start; k++)
			if (sp[k].name == g->span)
				g->span_end = sp[k].end;
	}
	qsort(v->groups, v->nr_groups, sizeof(*v->groups),
	      t->opts.markers ? span_group_cmp : group_cmp);
	/* by marker: the spans numbered in each process's time order */
	for (i = 0; t->opts.markers && i < v->nr_groups; i++)
		v->groups[i].tid = i && v->groups[i - 1].pid == v->groups[i].pid ?
				   v->groups[i - 1].tid + 1 : 1;
	return v;
}

static void view_release(struct tiers_view *v)
{
	size_t i, j;

	for (i = 0; i < v->nr_groups; i++) {
		struct tiers_group *g = &v->groups[i];

		for (j = 0; j < g->nr_series; j++) {
			free(g->series[j].samples);
			free(g->series[j].weight);
		}
		free(g->series);
		free(g->samples);
		free(g->weight);
		free(g->interp_samples);
		free(g->interp_weight);
	}
	free(v->groups);
}

void tiers__delete(struct tiers *t)
{
	size_t i, j;

	struct span_id *e, *tmp;

	if (!t)
		return;
	HASH_ITER(hh, t->span_ids, e, tmp) {
		HASH_DEL(t->span_ids, e);
		free(e);
	}
	view_release(&t->view);
	for (i = 0; i < t->nr_groups; i++) {
		struct tgroup *g = &t->groups[i];

		for (j = 0; j < g->nr_ser; j++)
			free(g->ser[j].cells.v);
		free(g->ser);
		free(g->interp.v);
		free(g->comm);
	}
	free(t->groups);
	free(t->hash);
	free(t->fc_cache);
	free(t);
}
