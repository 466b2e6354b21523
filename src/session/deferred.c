/*
 * deferred: samples held until their deferred user call chain comes. See
 * deferred.h for the contract.
 *
 * Held samples are grouped by (tid, cookie): a hash finds a record's
 * group, and the groups form a list oldest first, which is the order in
 * which the bound gives them up. Each held sample is one allocation: the
 * event, then copies of what it points to (call chain, raw data, user
 * registers and stack), as order.c copies them.
 */
#include "common/common.h"
#include "session/deferred.h"
#include "common/msg.h"
#include "common/sbuf.h"

#include <perf/event.h>
#include <uthash.h>

struct held {
	struct held *next;           /* in its group, in the order held */
	size_t bytes;
	struct pd_event ev;          /* its pointers point into data */
	uint64_t data[];
};

struct group_key {
	uint64_t cookie;
	uint32_t tid;
	uint32_t pad;                /* 0: the key is hashed as bytes */
};

struct group {
	struct group_key key;
	struct held *first, *last;
	struct group *older, *newer;
	UT_hash_handle hh;
};

struct deferred {
	deferred_fn fn;
	void *ctx;
	struct group *by_key;        /* hash */
	struct group *oldest, *newest;
	size_t nr_held, bytes_held;
	uint64_t *chain;             /* scratch for a joined chain */
	size_t chain_alloc;
	uint64_t joined, missing, given_up, exited, orphans;
};

struct deferred *deferred__new(deferred_fn fn, void *ctx)
{
	struct deferred *d = xcalloc(1, sizeof(*d));

	d->fn = fn;
	d->ctx = ctx;
	return d;
}

static void group_free(struct deferred *d, struct group *g)
{
	struct held *h, *next;

	for (h = g->first; h; h = next) {
		next = h->next;
		d->nr_held--;
		d->bytes_held -= h->bytes;
		free(h);
	}
	HASH_DEL(d->by_key, g);
	if (g->older)
		g->older->newer = g->newer;
	else
		d->oldest = g->newer;
	if (g->newer)
		g->newer->older = g->older;
	else
		d->newest = g->older;
	free(g);
}

void deferred__delete(struct deferred *d)
{
	if (!d)
		return;
	while (d->oldest)
		group_free(d, d->oldest);
	free(d->chain);
	free(d);
}

/* The bytes a copy of what ev's sample points to takes, 8-aligned each. */
#define PAD8(n) (((n) + 7) & ~(size_t)7)

static size_t payload_size(const struct pd_sample *s)
{
	size_t n = st_mult((size_t)s->nr_callchain, 8);

	n = st_add(n, PAD8((size_t)s->raw_size));
	n = st_add(n, 8 * (size_t)__builtin_popcountll(s->user_regs_mask));
	return st_add(n, PAD8((size_t)s->user_stack_size));
}

static void *copy_in(uint8_t **at, const void *src, size_t len)
{
	void *dst = *at;

	if (len)
		memcpy(dst, src, len);
	*at += PAD8(len);
	return dst;
}

static struct held *held_copy(const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->sample;
	size_t payload = payload_size(s);
	struct held *h = xmalloc(st_add(sizeof(*h), payload));
	uint8_t *at = (uint8_t *)h->data;

	h->next = NULL;
	h->bytes = sizeof(*h) + payload;
	h->ev = *ev;
	h->ev.sample.callchain = copy_in(&at, s->callchain, (size_t)s->nr_callchain * 8);
	if (s->raw_data)
		h->ev.sample.raw_data = copy_in(&at, s->raw_data, s->raw_size);
	if (s->user_regs)
		h->ev.sample.user_regs = copy_in(&at, s->user_regs,
			8 * (size_t)__builtin_popcountll(s->user_regs_mask));
	if (s->user_stack)
		h->ev.sample.user_stack = copy_in(&at, s->user_stack, (size_t)s->user_stack_size);
	return h;
}

static bool is_deferred(const struct pd_sample *s)
{
	return s->callchain && s->nr_callchain >= 2 &&
	       s->callchain[s->nr_callchain - 2] == PD_CONTEXT_USER_DEFERRED;
}

/*
 * Hand on group g's samples: with user (n ips) after their kernel part,
 * or (user NULL) with the kernel part alone; then free g.
 */
static void group_release(struct deferred *d, struct group *g, const uint64_t *user, size_t n,
			  enum deferred_join join)
{
	struct held *h;

	for (h = g->first; h; h = h->next) {
		struct pd_event ev = h->ev;
		size_t kernel = (size_t)ev.sample.nr_callchain - 2, nr = kernel;

		ALLOC_GROW(d->chain, st_add(st_add(kernel, n), 1), d->chain_alloc);
		memcpy(d->chain, ev.sample.callchain, kernel * 8);
		if (user) {
			if (!n || user[0] != PERF_CONTEXT_USER)
				d->chain[nr++] = PERF_CONTEXT_USER;
			memcpy(d->chain + nr, user, n * 8);
			nr += n;
		}
		ev.sample.callchain = d->chain;
		ev.sample.nr_callchain = nr;
		if (join == DEFERRED_JOINED)
			d->joined++;
		else
			d->missing++;
		d->fn(d->ctx, &ev, join);
	}
	group_free(d, g);
}

bool deferred__sample(struct deferred *d, const struct pd_event *ev)
{
	struct group_key key = { 0 };
	struct held *h;
	struct group *g;

	if (!is_deferred(&ev->sample))
		return false;
	key.cookie = ev->sample.callchain[ev->sample.nr_callchain - 1];
	key.tid = ev->sample.tid;
	HASH_FIND(hh, d->by_key, &key, sizeof(key), g);
	if (!g) {
		g = xcalloc(1, sizeof(*g));
		g->key = key;
		HASH_ADD(hh, d->by_key, key, sizeof(g->key), g);
		g->older = d->newest;
		if (d->newest)
			d->newest->newer = g;
		else
			d->oldest = g;
		d->newest = g;
	}
	h = held_copy(ev);
	if (g->last)
		g->last->next = h;
	else
		g->first = h;
	g->last = h;
	d->nr_held++;
	d->bytes_held += h->bytes;
	/* the bound: the oldest cookies' samples go on without their user part */
	while (d->oldest &&
	       (d->nr_held > DEFERRED_MAX_HELD || d->bytes_held > DEFERRED_MAX_BYTES)) {
		uint64_t before = d->missing;

		group_release(d, d->oldest, NULL, 0, DEFERRED_MISSING);
		d->given_up += d->missing - before;
	}
	return true;
}

void deferred__record(struct deferred *d, const struct pd_event *ev)
{
	struct group_key key = { 0 };
	struct group *g;

	key.cookie = ev->u.deferred.cookie;
	key.tid = ev->sample.tid;
	HASH_FIND(hh, d->by_key, &key, sizeof(key), g);
	if (!g) {
		d->orphans++;
		return;
	}
	group_release(d, g, ev->sample.callchain, (size_t)ev->sample.nr_callchain,
		      DEFERRED_JOINED);
}

void deferred__thread_exit(struct deferred *d, uint32_t tid)
{
	struct group *g, *newer;

	if (!d->nr_held)
		return;
	for (g = d->oldest; g; g = newer) {
		newer = g->newer;
		if (g->key.tid == tid) {
			uint64_t before = d->missing;

			group_release(d, g, NULL, 0, DEFERRED_MISSING);
			d->exited += d->missing - before;
		}
	}
}

void deferred__flush(struct deferred *d)
{
	while (d->oldest)
		group_release(d, d->oldest, NULL, 0, DEFERRED_MISSING);
}

void deferred__report(const struct deferred *d, const char *path)
{
	uint64_t at_end;
	struct sbuf why = SBUF_INIT;

	if (!d)
		return;
	at_end = d->missing - d->exited - d->given_up;
	if (d->exited)
		sbuf_addf(&why, "%" PRIu64 " whose thread exited first", d->exited);
	if (at_end)
		sbuf_addf(&why, "%s%" PRIu64 " still waiting when the input ended",
			  why.len ? ", " : "", at_end);
	if (d->given_up)
		sbuf_addf(&why, "%s%" PRIu64 " given up to bound memory (%u held at most)",
			  why.len ? ", " : "", d->given_up, DEFERRED_MAX_HELD);
	if (d->missing)
		warning("'%s': %" PRIu64 " sample%s whose deferred user call chain never came "
			"(%s): kernel frames only", path, d->missing, d->missing == 1 ? "" : "s",
			why.buf);
	if (d->orphans)
		warning("'%s': %" PRIu64 " CALLCHAIN_DEFERRED record%s matched no waiting sample "
			"of its thread and cookie: not used", path, d->orphans,
			d->orphans == 1 ? "" : "s");
	sbuf_release(&why);
}
