/*
 * Unit tests for deferred.c: samples whose call chain ends in
 * PERF_CONTEXT_USER_DEFERRED + cookie are held until their thread's
 * CALLCHAIN_DEFERRED record with that cookie, and handed on with the
 * kernel part, PERF_CONTEXT_USER and the record's ips; the ones whose
 * record never comes (thread exit, end of input, the bound on what is
 * held) with the kernel part alone; each counted and said.
 */
#include "common/common.h"
#include "session/deferred.h"
#include "common/msg.h"
#include "test.h"

#include <perf/event.h>

#define MAX_GOT 8

struct got {
	size_t nr;                     /* samples handed on */
	size_t missing;
	uint64_t last_time;
	bool in_order;                 /* times never went down */
	uint64_t chain[MAX_GOT][8];    /* the first MAX_GOT chains */
	size_t nr_chain[MAX_GOT];
	enum deferred_join join[MAX_GOT];
	uint8_t raw0;                  /* the first sample's raw byte, as handed on */
};

static void on_sample(void *ctx, const struct pd_event *ev, enum deferred_join join)
{
	struct got *g = ctx;
	size_t i = g->nr++;

	if (join == DEFERRED_MISSING)
		g->missing++;
	if (ev->sample.time < g->last_time)
		g->in_order = false;
	g->last_time = ev->sample.time;
	if (i == 0 && ev->sample.raw_data)
		g->raw0 = *(const uint8_t *)ev->sample.raw_data;
	if (i >= MAX_GOT)
		return;
	g->join[i] = join;
	g->nr_chain[i] = ev->sample.nr_callchain < 8 ? (size_t)ev->sample.nr_callchain : 8;
	memcpy(g->chain[i], ev->sample.callchain, g->nr_chain[i] * 8);
}

static char said[4][512];
static size_t nr_said;

static void sink(const char *line)
{
	if (nr_said < 4)
		snprintf(said[nr_said++], sizeof(said[0]), "%s", line);
}

/* A kernel sample of tid with chain (n entries) and time. */
static struct pd_event sample(uint32_t tid, uint64_t time, const uint64_t *chain, size_t n)
{
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PERF_RECORD_SAMPLE;
	ev.sample.pid = 100;
	ev.sample.tid = tid;
	ev.sample.time = time;
	ev.sample.has_time = true;
	ev.sample.callchain = chain;
	ev.sample.nr_callchain = n;
	return ev;
}

static struct pd_event record(uint32_t tid, uint64_t cookie, const uint64_t *ips, size_t n)
{
	struct pd_event ev = sample(tid, 0, ips, n);

	ev.type = PD_RECORD_CALLCHAIN_DEFERRED;
	ev.u.deferred.cookie = cookie;
	return ev;
}

static void test_join(void)
{
	struct got g = { .in_order = true };
	struct deferred *d = deferred__new(on_sample, &g);
	uint64_t k1[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010, PD_CONTEXT_USER_DEFERRED, 7 };
	uint64_t k2[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000020, PD_CONTEXT_USER_DEFERRED, 7 };
	uint64_t whole[] = { PERF_CONTEXT_USER, 0x401000 };
	uint64_t with_user[] = { PERF_CONTEXT_USER, 0x401234, 0x401100 };
	uint64_t bare[] = { 0x401300 };
	uint8_t raw[8] = { 0x5a };
	struct pd_event a = sample(100, 10, k1, 4), b = sample(100, 20, k2, 4);
	struct pd_event w = sample(100, 30, whole, 2), r;

	a.sample.raw_data = raw;
	a.sample.raw_size = sizeof(raw);
	T("a whole chain is not held", !deferred__sample(d, &w) && g.nr == 0);
	T("a deferred chain is held", deferred__sample(d, &a) && deferred__sample(d, &b) && g.nr == 0);
	raw[0] = 0;               /* the reader's buffer moves on */
	r = record(101, 7, with_user, 3);
	deferred__record(d, &r);
	T("another thread's record with the cookie completes nothing", g.nr == 0);
	r = record(100, 7, with_user, 3);
	deferred__record(d, &r);
	T("both samples of the cookie handed on, in order", g.nr == 2 && g.in_order &&
	  g.join[0] == DEFERRED_JOINED && g.join[1] == DEFERRED_JOINED);
	T("kernel part, then the record's (PERF_CONTEXT_USER not doubled)",
	  g.nr_chain[0] == 5 && g.chain[0][0] == PERF_CONTEXT_KERNEL &&
	  g.chain[0][1] == 0xffffffff81000010 && g.chain[0][2] == PERF_CONTEXT_USER &&
	  g.chain[0][3] == 0x401234 && g.chain[0][4] == 0x401100 &&
	  g.chain[1][1] == 0xffffffff81000020 && g.chain[1][4] == 0x401100);
	T("the held copy keeps its raw data", g.raw0 == 0x5a);
	deferred__record(d, &r);
	T("a record no sample waits for any more completes nothing", g.nr == 2);
	/* a record whose ips do not start with PERF_CONTEXT_USER */
	k1[3] = 8;
	a = sample(100, 40, k1, 4);
	deferred__sample(d, &a);
	r = record(100, 8, bare, 1);
	deferred__record(d, &r);
	T("PERF_CONTEXT_USER put before bare ips", g.nr == 3 && g.nr_chain[2] == 4 &&
	  g.chain[2][2] == PERF_CONTEXT_USER && g.chain[2][3] == 0x401300);
	nr_said = 0;
	msg_set_sink(sink);
	deferred__report(d, "x.data");
	msg_set_sink(NULL);
	T("the records that matched nothing are said", nr_said == 1 &&
	  strstr(said[0], "2 CALLCHAIN_DEFERRED records matched no waiting sample"));
	deferred__delete(d);
}

static void test_never(void)
{
	struct got g = { .in_order = true };
	struct deferred *d = deferred__new(on_sample, &g);
	uint64_t k[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010, PD_CONTEXT_USER_DEFERRED, 1 };
	struct pd_event a = sample(100, 10, k, 4), b;

	k[3] = 2;
	b = sample(101, 11, k, 4);
	deferred__sample(d, &a);
	deferred__sample(d, &b);
	deferred__thread_exit(d, 101);
	T("a thread's exit hands on its samples, kernel part only", g.nr == 1 &&
	  g.join[0] == DEFERRED_MISSING && g.nr_chain[0] == 2 &&
	  g.chain[0][1] == 0xffffffff81000010);
	deferred__flush(d);
	T("the end hands on the rest", g.nr == 2 && g.join[1] == DEFERRED_MISSING);
	nr_said = 0;
	msg_set_sink(sink);
	deferred__report(d, "x.data");
	msg_set_sink(NULL);
	T("the missing ones are said in one line, by cause", nr_said == 1 &&
	  strstr(said[0], "2 samples whose deferred user call chain never came (1 whose thread "
		 "exited first, 1 still waiting when the input ended)"));
	deferred__delete(d);
}

static void test_bound(void)
{
	struct got g = { .in_order = true };
	struct deferred *d = deferred__new(on_sample, &g);
	uint64_t k[] = { PERF_CONTEXT_KERNEL, 0xffffffff81000010, PD_CONTEXT_USER_DEFERRED, 0 };
	size_t i, held_ok = 1;

	for (i = 0; i < DEFERRED_MAX_HELD + 10; i++) {
		struct pd_event a;

		k[3] = i;
		a = sample(100, i, k, 4);
		held_ok &= deferred__sample(d, &a);
	}
	T("at most DEFERRED_MAX_HELD held: the 10 oldest handed on", held_ok && g.nr == 10 &&
	  g.missing == 10 && g.in_order && g.last_time == 9);
	deferred__flush(d);
	T("the rest at the end, in order", g.nr == DEFERRED_MAX_HELD + 10 && g.in_order);
	nr_said = 0;
	msg_set_sink(sink);
	deferred__report(d, "x.data");
	msg_set_sink(NULL);
	T("the ones given up are said", nr_said == 1 &&
	  strstr(said[0], "10 given up to bound memory"));
	deferred__delete(d);
}

int main(void)
{
	test_join();
	test_never();
	test_bound();
	return test_done();
}
