/*
 * Unit tests for the threads of --threads: pipeline.c (items worked on in
 * the order they were put; the maker held back while every item is out;
 * a failure skips the rest and never leaves the maker waiting; shutdown
 * with items queued), handoff.c (the hook sees each sample as it was when
 * added: frames across batch boundaries, the thread's comm before a
 * rename, the attr before a rename, reader pointers gone, a tracepoint's
 * fields copied out of the session's reused buffer) and async-out.c
 * (bytes arrive whole and in order; a failing write fails the stream and
 * its close, with the write's errno). Nothing here measures time: the
 * waits are on conditions the test sets.
 */
#include "common/common.h"
#include "common/async-out.h"
#include "session/handoff.h"
#include "timeline/machine.h"
#include "common/pipeline.h"
#include "unwind/unwind.h"
#include "test.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#define NR_ITEMS 3
#define NR_PUT 1000

/* ---- pipeline ------------------------------------------------------------ */

struct work {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool gate_open;            /* the worker waits for it before each item */
	size_t done;               /* items worked on */
	size_t seen[NR_PUT];       /* the sequence numbers, in the order worked on */
	size_t fail_at;            /* fail on the item with this number; 0: never */
	bool order_ok;
};

struct item {
	size_t seq;
};

static int work_on(void *ctx, void *arg)
{
	struct work *w = ctx;
	struct item *it = arg;
	int ret;

	pthread_mutex_lock(&w->lock);
	while (!w->gate_open)
		pthread_cond_wait(&w->cond, &w->lock);
	if (w->done < NR_PUT)
		w->seen[w->done] = it->seq;
	w->done++;
	ret = w->fail_at && it->seq == w->fail_at;
	pthread_mutex_unlock(&w->lock);
	return ret;
}

static void work_init(struct work *w, bool open)
{
	memset(w, 0, sizeof(*w));
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	w->gate_open = open;
}

static void work_open(struct work *w)
{
	pthread_mutex_lock(&w->lock);
	w->gate_open = true;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

static struct pipeline *new_pipeline(struct work *w, struct item *items)
{
	void *ptrs[NR_ITEMS];
	size_t i;

	for (i = 0; i < NR_ITEMS; i++)
		ptrs[i] = &items[i];
	return pipeline__new(work_on, w, ptrs, NR_ITEMS);
}

static void test_order(void)
{
	struct item items[NR_ITEMS];
	struct work w;
	struct pipeline *p;
	size_t i;
	bool in_order = true;

	work_init(&w, true);
	p = new_pipeline(&w, items);
	T("a pipeline starts", p != NULL);
	for (i = 1; i <= NR_PUT; i++) {
		struct item *it = pipeline__get(p);

		it->seq = i;
		pipeline__put(p, it);
		if (i == NR_PUT / 2) {
			pipeline__drain(p);
			T("drain: every item put so far was worked on", w.done == NR_PUT / 2);
		}
	}
	T("no failure", !pipeline__failed(p));
	pipeline__delete(p);
	T("delete: the items queued were worked on first", w.done == NR_PUT);
	for (i = 0; i < NR_PUT; i++)
		in_order &= w.seen[i] == i + 1;
	T("items are worked on in the order they were put", in_order);
}

struct getter {
	struct pipeline *p;
	struct work *w;
	size_t done_when_got;
};

static void *get_one(void *arg)
{
	struct getter *g = arg;

	pipeline__get(g->p);
	pthread_mutex_lock(&g->w->lock);
	g->done_when_got = g->w->done;
	pthread_mutex_unlock(&g->w->lock);
	return NULL;
}

/* The maker waits while every item is out, until the worker hands one back. */
static void test_back_pressure(void)
{
	struct item items[NR_ITEMS];
	struct getter g;
	struct work w;
	pthread_t t;
	size_t i;

	work_init(&w, false);
	g.p = new_pipeline(&w, items);
	g.w = &w;
	for (i = 0; i < NR_ITEMS; i++) {
		struct item *it = pipeline__get(g.p);

		it->seq = i + 1;
		pipeline__put(g.p, it);
	}
	/* every item is queued or the worker's, and the worker is held at the gate */
	pthread_create(&t, NULL, get_one, &g);
	work_open(&w);
	pthread_join(t, NULL);
	T("a get with every item out returns only once one was worked on",
	  g.done_when_got >= 1);
	pipeline__delete(g.p);
	T("back pressure: all items worked on", w.done == NR_ITEMS);
}

/* After a failure the worker skips the rest; the maker never waits for ever. */
static void test_failure(void)
{
	struct item items[NR_ITEMS];
	struct work w;
	struct pipeline *p;
	size_t i;

	work_init(&w, true);
	w.fail_at = 5;
	p = new_pipeline(&w, items);
	for (i = 1; i <= 100; i++) {
		struct item *it = pipeline__get(p);

		it->seq = i;
		pipeline__put(p, it);
	}
	pipeline__drain(p);
	T("a failure is reported", pipeline__failed(p));
	T("nothing is worked on after the failed item", w.done == 5 && w.seen[4] == 5);
	pipeline__delete(p);

	/* a pipeline with nothing put, and one whose items are all out at delete */
	work_init(&w, true);
	p = new_pipeline(&w, items);
	T("an idle pipeline has not failed", !pipeline__failed(p));
	pipeline__delete(p);
	pipeline__delete(NULL);
	T("delete of an idle pipeline and of NULL", w.done == 0);
}

static void test_default_threads(void)
{
	unsigned int n = pipeline__default_threads(2);

	T("default threads: 1 or 2", n == 1 || n == 2);
	T("default threads: at most max", pipeline__default_threads(1) == 1 &&
	  pipeline__default_threads(0) == 1);
}

/* ---- handoff ------------------------------------------------------------- */

#define NR_SAMPLES 5000
#define BIG_STACK 20000         /* more frames than a batch holds */

struct seen_samples {
	size_t nr;
	bool frames_ok, comm_ok, attr_ok, gone_ok, unwind_ok, trace_ok, facts_ok;
};

static const struct trace_parse the_parse = { .present = true };

/* Sample i's tracepoint fields: "fields i" when i % 3 == 0, none (but a trace) when i % 3 == 1. */
static void check_trace(struct seen_samples *s, size_t i, const struct sample_trace *t)
{
	char want[32];

	snprintf(want, sizeof(want), "fields %zu", i);
	if ((i % 3 == 2) != (t == NULL))
		s->trace_ok = false;
	else if (t && t->parse != &the_parse)
		s->trace_ok = false;
	else if (t && i % 3 == 0 && (t->fmt != SAMPLE_TRACE_OK || !t->text ||
				     t->len != strlen(want) || strcmp(t->text, want)))
		s->trace_ok = false;
	else if (t && i % 3 == 1 && (t->fmt != SAMPLE_TRACE_NONE || t->text))
		s->trace_ok = false;
}

/* Sample i: i % 40 frames (BIG_STACK for i == 777), frame j's ip i * 100000 + j. */
static size_t nr_frames_of(size_t i)
{
	return i == 777 ? BIG_STACK : i % 40;
}

static void check_sample(void *ctx, const struct resolved_sample *rs)
{
	struct seen_samples *s = ctx;
	size_t i = s->nr++, j, n = nr_frames_of(i);
	const char *want_comm = i < NR_SAMPLES / 2 ? "before" : "after";
	const char *want_attr = i < NR_SAMPLES / 3 ? "cycles" : "renamed";

	if (rs->nr_frames != n || rs->sample->time != i)
		s->frames_ok = false;
	for (j = 0; j < rs->nr_frames && j < n; j++)
		if (rs->frames[j].ip != i * 100000 + j)
			s->frames_ok = false;
	if (strcmp(rs->thread->comm, want_comm) || rs->thread->tid != 42 || rs->thread->proc ||
	    !rs->comm || strcmp(rs->comm, want_comm))
		s->comm_ok = false;
	check_trace(s, i, rs->trace);
	if (!rs->sample->attr || strcmp(rs->sample->attr->name, want_attr))
		s->attr_ok = false;
	/* a pointer into the reader's buffer: still set, but not the reader's */
	if (!rs->sample->callchain || rs->sample->raw_data)
		s->gone_ok = false;
	if ((i % 7 == 0) != (rs->unwind != NULL) || (rs->unwind && rs->unwind->nr_cfi != i))
		s->unwind_ok = false;
	if (rs->facts.time != i || rs->facts.tid != 42 || !rs->facts.event.name ||
	    strcmp(rs->facts.event.name, want_attr) ||
	    (n && (!rs->frames[0].map.present || rs->frames[0].map.start != i ||
		   rs->frames[0].code_size != i)))
		s->facts_ok = false;
}

static void add_sample(struct handoff *h, size_t i, struct thread *t, struct pd_event *ev,
		       const uint64_t *chain)
{
	struct frame_buf *fb = handoff__frames(h);
	struct unwind_result uw = { .nr_cfi = i };
	struct resolved_sample rs = { .ev = ev, .sample = &ev->sample, .thread = t, .comm = t->comm };
	struct sample_trace trace = { .parse = &the_parse, .fmt = SAMPLE_TRACE_NONE };
	static char text[32];       /* reused, as the session's buffer is */
	size_t j, n = nr_frames_of(i);

	ALLOC_GROW(fb->v, fb->nr + n, fb->alloc);
	for (j = 0; j < n; j++) {
		memset(&fb->v[fb->nr + j], 0, sizeof(fb->v[0]));
		fb->v[fb->nr + j].ip = i * 100000 + j;
		fb->v[fb->nr + j].map.present = true;
		fb->v[fb->nr + j].map.start = i;
		fb->v[fb->nr + j].code_size = i;
	}
	rs.frames = fb->v + fb->nr;
	rs.nr_frames = n;
	rs.unwind = i % 7 == 0 ? &uw : NULL;
	if (i % 3 == 0) {
		trace.fmt = SAMPLE_TRACE_OK;
		trace.len = (size_t)snprintf(text, sizeof(text), "fields %zu", i);
		trace.text = text;
	}
	rs.trace = i % 3 == 2 ? NULL : &trace;
	ev->sample.time = i;
	ev->sample.callchain = chain;
	rs.facts.time = i;
	rs.facts.tid = t->tid;
	rs.facts.event.name = ev->sample.attr->name;
	handoff__add(h, &rs);
}

static void test_handoff(void)
{
	struct seen_samples seen = { 0, true, true, true, true, true, true, true };
	struct pd_attr attr = { .name = "cycles" };
	struct thread t = { .tid = 42, .comm = "before" };
	struct pd_event ev;
	uint64_t chain[1] = { 0 };
	struct handoff *h = handoff__new(check_sample, &seen, NULL);
	size_t i;

	T("a handoff starts", h != NULL);
	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_SAMPLE;
	ev.sample.attr = &attr;
	for (i = 0; i < NR_SAMPLES; i++) {
		if (i == NR_SAMPLES / 2)
			t.comm = "after";        /* a COMM record renames the thread */
		if (i == NR_SAMPLES / 3)
			attr.name = "renamed";   /* pipe mode: an event's name arrives late */
		add_sample(h, i, &t, &ev, chain);
	}
	handoff__delete(h);
	handoff__delete(NULL);
	T("handoff: every sample reached the hook, in order", seen.nr == NR_SAMPLES);
	T("handoff: frames across batches, and a stack larger than a batch", seen.frames_ok);
	T("handoff: the thread as it was when the sample was added", seen.comm_ok);
	T("handoff: the attr as it was when the sample was added", seen.attr_ok);
	T("handoff: reader pointers are set where they were, and not readable", seen.gone_ok);
	T("handoff: the unwind result, by value", seen.unwind_ok);
	T("handoff: tracepoint fields, their text copied", seen.trace_ok);
	T("handoff: the sample's facts and the frames' mappings, by value", seen.facts_ok);
}

/* ---- async-out ----------------------------------------------------------- */

#define NR_BYTES (5u << 20)

static void test_async_out(void)
{
	char path[] = "/tmp/t-pipeline-XXXXXX";
	int fd = mkstemp(path);
	FILE *sink = fd >= 0 ? fdopen(fd, "w") : NULL, *out;
	unsigned char *want = xmalloc(NR_BYTES), *got = xcalloc(1, NR_BYTES + 1);
	size_t i, n, off = 0;
	bool ok = true;
	FILE *in;

	T("a scratch file", sink != NULL);
	if (!sink)
		return;
	for (i = 0; i < NR_BYTES; i++)
		want[i] = (unsigned char)test_rnd(256);
	out = async_out__open(sink);
	T("async-out opens", out != NULL);
	/* writes of every size, small fprintf-like ones and ones larger than a chunk */
	while (off < NR_BYTES) {
		n = test_rnd(4) ? test_rnd(100) + 1 : test_rnd(3u << 20);
		if (n > NR_BYTES - off)
			n = NR_BYTES - off;
		ok &= fwrite(want + off, 1, n, out) == n;
		off += n;
	}
	T("async-out: writes succeed", ok && !ferror(out));
	T("async-out: close succeeds", fclose(out) == 0);
	in = fopen(path, "r");
	n = in ? fread(got, 1, NR_BYTES + 1, in) : 0;
	if (in)
		fclose(in);
	T("async-out: every byte arrives, in order", n == NR_BYTES && !memcmp(got, want, n));
	unlink(path);
	free(want);
	free(got);
}

/* A sink that fails: the stream fails, and its close says why. */
static void test_async_out_failure(void)
{
	FILE *sink = fopen("/dev/full", "w"), *out;
	char buf[4096];
	size_t i;
	int ret, err;

	if (!sink) {
		T("# SKIP no /dev/full", true);
		return;
	}
	memset(buf, 'x', sizeof(buf));
	out = async_out__open(sink);
	/* enough for chunks to reach the thread and fail there */
	for (i = 0; i < 2048 && !ferror(out); i++)
		fwrite(buf, 1, sizeof(buf), out);
	errno = 0;
	ret = fclose(out);
	err = errno;
	T("async-out: a failing sink fails the close", ret == EOF);
	T("async-out: with the write's errno", err == ENOSPC);

	/* a short output whose only write happens at close */
	sink = fopen("/dev/full", "w");
	out = async_out__open(sink);
	fputs("hello\n", out);
	T("async-out: a short write is buffered", !ferror(out));
	errno = 0;
	ret = fclose(out);
	err = errno;
	T("async-out: ... and its failure comes at close", ret == EOF && err == ENOSPC);
}

int main(void)
{
	test_order();
	test_back_pressure();
	test_failure();
	test_default_threads();
	test_handoff();
	test_async_out();
	test_async_out_failure();
	return test_done();
}
