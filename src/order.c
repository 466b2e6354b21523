#include "common.h"
#include "order.h"

#include <perf/event.h>

#define ARENA_BLOCK (1u << 20)

/*
 * Bump allocator for what queued records point to: strings, call chains,
 * raw data, user registers and user stack dumps.
 */
struct arena_block {
	struct arena_block *next;
	size_t used, size;
	uint8_t data[];
};

struct queued {
	uint64_t time;
	uint64_t seq;
	struct pd_event ev;
};

struct order_queue {
	order_deliver_fn fn;
	void *ctx;
	struct queued *q;
	size_t nr, alloc;
	uint64_t seq;
	uint64_t round_max, prev_round_max;
	bool have_prev;
	struct arena_block *blocks;     /* this round's copies, newest first */
	struct arena_block *prev_blocks; /* the previous round's */
	struct arena_block *spare;
};

struct order_queue *order_queue__new(order_deliver_fn fn, void *ctx)
{
	struct order_queue *q = xcalloc(1, sizeof(*q));

	q->fn = fn;
	q->ctx = ctx;
	return q;
}

static void free_blocks(struct arena_block *b)
{
	while (b) {
		struct arena_block *next = b->next;

		free(b);
		b = next;
	}
}

void order_queue__delete(struct order_queue *q)
{
	if (!q)
		return;
	free(q->q);
	free_blocks(q->blocks);
	free_blocks(q->prev_blocks);
	free_blocks(q->spare);
	free(q);
}

static void *arena_copy(struct order_queue *q, const void *src, size_t len)
{
	struct arena_block *b = q->blocks;
	size_t need = (len + 7) & ~(size_t)7;
	void *dst;

	if (!b || b->size - b->used < need) {
		size_t size = need > ARENA_BLOCK ? need : ARENA_BLOCK;

		if (q->spare && size == ARENA_BLOCK) {
			b = q->spare;
			q->spare = b->next;
		} else {
			b = xmalloc(st_add(sizeof(*b), size));
			b->size = size;
		}
		b->used = 0;
		b->next = q->blocks;
		q->blocks = b;
	}
	dst = b->data + b->used;
	b->used += need;
	if (len)
		memcpy(dst, src, len);
	return dst;
}

static const char *arena_str(struct order_queue *q, const char *s)
{
	return s ? arena_copy(q, s, strlen(s) + 1) : NULL;
}

static int cmp_queued(const void *a, const void *b)
{
	const struct queued *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Deliver queued records with time <= limit; keep the rest. */
static void deliver_upto(struct order_queue *q, uint64_t limit)
{
	size_t n;

	if (!q->nr)
		return;
	qsort(q->q, q->nr, sizeof(*q->q), cmp_queued);
	for (n = 0; n < q->nr && q->q[n].time <= limit; n++)
		q->fn(q->ctx, &q->q[n].ev);
	if (n == 0)
		return;
	memmove(q->q, q->q + n, (q->nr - n) * sizeof(*q->q));
	q->nr -= n;
}

/* Keep a few standard blocks for reuse, free the rest. */
static void recycle_blocks(struct order_queue *q, struct arena_block *b)
{
	size_t kept = 0;

	while (b) {
		struct arena_block *next = b->next;

		if (b->size == ARENA_BLOCK && kept++ < 8) {
			b->next = q->spare;
			q->spare = b;
		} else {
			free(b);
		}
		b = next;
	}
}

/*
 * Every record of the previous round is at or before that round's newest
 * time, so after this delivery none of them is queued and the previous
 * round's copies can go.
 */
static void end_round(struct order_queue *q)
{
	if (q->have_prev)
		deliver_upto(q, q->prev_round_max);
	recycle_blocks(q, q->prev_blocks);
	q->prev_blocks = q->blocks;
	q->blocks = NULL;
	q->prev_round_max = q->round_max;
	q->have_prev = true;
}

void order_queue__push(struct order_queue *q, const struct pd_event *ev)
{
	struct queued *e;

	if (ev->type == PERF_RECORD_FINISHED_ROUND) {
		end_round(q);
		return;
	}
	if (!ev->sample.has_time) {
		q->fn(q->ctx, ev);
		return;
	}
	ALLOC_GROW(q->q, q->nr + 1, q->alloc);
	e = &q->q[q->nr++];
	e->time = ev->sample.time;
	e->seq = q->seq++;
	e->ev = *ev;
	if (e->time > q->round_max)
		q->round_max = e->time;
	if (ev->sample.callchain)
		e->ev.sample.callchain = arena_copy(q, ev->sample.callchain,
			st_mult(ev->sample.nr_callchain, sizeof(uint64_t)));
	if (ev->sample.raw_data)
		e->ev.sample.raw_data = arena_copy(q, ev->sample.raw_data, ev->sample.raw_size);
	if (ev->sample.user_regs)
		e->ev.sample.user_regs = arena_copy(q, ev->sample.user_regs,
			sizeof(uint64_t) * (size_t)__builtin_popcountll(ev->sample.user_regs_mask));
	if (ev->sample.user_stack)
		e->ev.sample.user_stack = arena_copy(q, ev->sample.user_stack,
						     (size_t)ev->sample.user_stack_size);
	switch (ev->type) {
	case PERF_RECORD_COMM:
		e->ev.u.comm.comm = arena_str(q, ev->u.comm.comm);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		e->ev.u.mmap.filename = arena_str(q, ev->u.mmap.filename);
		break;
	case PERF_RECORD_KSYMBOL:
		e->ev.u.ksymbol.name = arena_str(q, ev->u.ksymbol.name);
		break;
	default:
		break;
	}
}

void order_queue__flush(struct order_queue *q)
{
	deliver_upto(q, UINT64_MAX);
	recycle_blocks(q, q->prev_blocks);
	recycle_blocks(q, q->blocks);
	q->prev_blocks = q->blocks = NULL;
}
