/*
 * Unit tests for pipeline.c, the hand-off between the threads of
 * --threads: items worked on in the order they were put; the maker held
 * back while every item is out; a failure skips the rest and never leaves
 * the maker waiting; shutdown with items queued. Nothing here measures
 * time: the waits are on conditions the test sets.
 */
#include "common.h"
#include "pipeline.h"
#include "test.h"

#include <pthread.h>

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

int main(void)
{
	test_order();
	test_back_pressure();
	test_failure();
	test_default_threads();
	return test_done();
}
