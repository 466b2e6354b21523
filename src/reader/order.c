#include "common/common.h"
#include "reader/order.h"

#include <perf/event.h>

#define ARENA_BLOCK (1u << 20)

/*
 * Bump allocator for what queued records point to: strings, call chains,
 * user registers, and raw data and user stack dumps unless borrowed from
 * the mapped file (order_queue__borrow_from()).
 */
struct arena_block {
	struct arena_block *next;
	size_t used, size;
	uint8_t data[];
};

/*
 * The records of a round are copied once, into the round's array, and
 * stay there: what is sorted and delivered from are keys naming them. At
 * a round's end every record of the round before is delivered (all are at
 * or before that round's newest time), so the keys left over name records
 * of this round only, and the other array is free for the next round.
 */
struct okey {
	uint64_t time;
	uint32_t idx;           /* in its round's array */
	uint32_t round;         /* which array: 0 or 1 */
};

struct round_recs {
	struct pd_event *ev;
	size_t nr, alloc;
};

struct order_queue {
	order_deliver_fn fn;
	void *ctx;
	struct round_recs rounds[2];
	unsigned int cur;               /* the round being read */
	struct okey *left;              /* queued before this round, sorted (time, then file order) */
	size_t nr_left, alloc_left;
	struct okey *keys, *merged;     /* scratch for a round's end */
	size_t alloc_keys, alloc_merged;
	uint64_t round_max, prev_round_max;
	bool have_prev;
	struct arena_block *blocks;     /* this round's copies, newest first */
	struct arena_block *prev_blocks; /* the previous round's */
	struct arena_block *spare;
	/* order_queue__borrow_from(): the reader, and per round the first
	   borrowing record's offset (UINT64_MAX: none) */
	struct pd_reader *lender;
	uint64_t round_hold[2];
};

struct order_queue *order_queue__new(order_deliver_fn fn, void *ctx)
{
	struct order_queue *q = xcalloc(1, sizeof(*q));

	q->fn = fn;
	q->ctx = ctx;
	q->round_hold[0] = q->round_hold[1] = UINT64_MAX;
	return q;
}

void order_queue__borrow_from(struct order_queue *q, struct pd_reader *r)
{
	q->lender = r;
}

/* Tell the lender the oldest offset still pointed into (rounds are in file order). */
static void update_hold(struct order_queue *q)
{
	uint64_t a = q->round_hold[0], b = q->round_hold[1];

	if (q->lender)
		pd_reader__keep_from(q->lender, a < b ? a : b);
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
	free(q->rounds[0].ev);
	free(q->rounds[1].ev);
	free(q->left);
	free(q->keys);
	free(q->merged);
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

/* Keys of one round: by time, then in file order. */
static int cmp_keys(const void *a, const void *b)
{
	const struct okey *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * The keys of everything queued, sorted, into q->merged (their number):
 * those left over (read earlier, so first among equal times) merged with
 * this round's, sorted.
 */
static size_t sort_queued(struct order_queue *q)
{
	const struct round_recs *rr = &q->rounds[q->cur];
	size_t n = rr->nr, i = 0, j = 0, k = 0;

	ALLOC_GROW(q->keys, n, q->alloc_keys);
	for (i = 0; i < n; i++) {
		q->keys[i].time = rr->ev[i].sample.time;
		q->keys[i].idx = (uint32_t)i;
		q->keys[i].round = q->cur;
	}
	if (n > 1)
		qsort(q->keys, n, sizeof(*q->keys), cmp_keys);
	ALLOC_GROW(q->merged, st_add(q->nr_left, n), q->alloc_merged);
	for (i = 0; i < q->nr_left || j < n;) {
		if (j == n || (i < q->nr_left && q->left[i].time <= q->keys[j].time))
			q->merged[k++] = q->left[i++];
		else
			q->merged[k++] = q->keys[j++];
	}
	return k;
}

/*
 * Deliver the queued records with time <= limit (none when !any); keep
 * the keys of the rest. Those are all of this round when limit is at or
 * after every time of the round before (the newest time so far at its
 * end), so the round before's array is free for the next round.
 */
static void deliver_upto(struct order_queue *q, bool any, uint64_t limit)
{
	size_t nr = sort_queued(q), n, i;
	struct okey *keep = q->merged;
	size_t alloc = q->alloc_merged;

	for (n = 0; any && n < nr && q->merged[n].time <= limit; n++)
		q->fn(q->ctx, &q->rounds[q->merged[n].round].ev[q->merged[n].idx]);
	for (i = n; i < nr; i++)
		if (q->merged[i].round != q->cur)
			BUG("a record of the round before is still queued");
	/* the rest is the left-over list; the old one becomes scratch */
	if (n && nr > n)
		memmove(keep, keep + n, (nr - n) * sizeof(*keep));
	q->merged = q->left;
	q->alloc_merged = q->alloc_left;
	q->left = keep;
	q->alloc_left = alloc;
	q->nr_left = nr - n;
	q->cur ^= 1;
	q->rounds[q->cur].nr = 0;
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
	/* the first round's end delivers nothing: its records wait for the next */
	deliver_upto(q, q->have_prev, q->prev_round_max);
	/* deliver_upto() made the previous round's array the one to fill */
	if (q->round_hold[q->cur] != UINT64_MAX) {
		q->round_hold[q->cur] = UINT64_MAX;
		update_hold(q);
	}
	recycle_blocks(q, q->prev_blocks);
	q->prev_blocks = q->blocks;
	q->blocks = NULL;
	q->prev_round_max = q->round_max;
	q->have_prev = true;
}

void order_queue__push(struct order_queue *q, const struct pd_event *ev)
{
	struct round_recs *rr = &q->rounds[q->cur];
	struct pd_event *e;

	if (ev->type == PERF_RECORD_FINISHED_ROUND) {
		end_round(q);
		return;
	}
	if (!ev->sample.has_time) {
		q->fn(q->ctx, ev);
		return;
	}
	if (rr->nr >= UINT32_MAX)
		die("more than 2^32 records in one round of perf.data");
	ALLOC_GROW(rr->ev, rr->nr + 1, rr->alloc);
	e = &rr->ev[rr->nr++];
	*e = *ev;
	if (ev->sample.time > q->round_max)
		q->round_max = ev->sample.time;
	if (ev->sample.callchain)
		e->sample.callchain = arena_copy(q, ev->sample.callchain,
			st_mult(ev->sample.nr_callchain, sizeof(uint64_t)));
	if (ev->sample.user_regs)
		e->sample.user_regs = arena_copy(q, ev->sample.user_regs,
			sizeof(uint64_t) * (size_t)__builtin_popcountll(ev->sample.user_regs_mask));
	if (q->lender && ev->in_map && ev->sample.user_stack) {
		/*
		 * A stack dump is most of its record: it (and the raw data
		 * beside it) is kept where it is in the file. Records without
		 * one are copied: holding the file's pages for their few
		 * bytes of raw data would cost more memory than the copies.
		 */
		if (q->round_hold[q->cur] == UINT64_MAX) {
			q->round_hold[q->cur] = ev->offset;
			update_hold(q);
		}
	} else {
		if (ev->sample.raw_data)
			e->sample.raw_data = arena_copy(q, ev->sample.raw_data, ev->sample.raw_size);
		if (ev->sample.user_stack)
			e->sample.user_stack = arena_copy(q, ev->sample.user_stack,
							  (size_t)ev->sample.user_stack_size);
	}
	switch (ev->type) {
	case PERF_RECORD_COMM:
		e->u.comm.comm = arena_str(q, ev->u.comm.comm);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		e->u.mmap.filename = arena_str(q, ev->u.mmap.filename);
		break;
	case PERF_RECORD_KSYMBOL:
		e->u.ksymbol.name = arena_str(q, ev->u.ksymbol.name);
		break;
	default:
		break;
	}
}

void order_queue__flush(struct order_queue *q)
{
	deliver_upto(q, true, UINT64_MAX);
	recycle_blocks(q, q->prev_blocks);
	recycle_blocks(q, q->blocks);
	q->prev_blocks = q->blocks = NULL;
	q->round_hold[0] = q->round_hold[1] = UINT64_MAX;
	update_hold(q);
}
