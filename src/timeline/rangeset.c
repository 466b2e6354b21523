#include "common/common.h"
#include "timeline/rangeset.h"
#include "common/bsearch.h"

#define RS_BLOCK 128
#define RS_GROUP 8              /* ends in a cache line */

/*
 * A block keeps its ranges' ends apart as well, and every RS_GROUP-th of
 * them in front: a search inside it reads the front (two cache lines),
 * one line of ends and the range, where a binary search over the ranges
 * read a line of their 4 KiB at each of its seven steps.
 */
struct rs_block {
	size_t nr;
	uint64_t top[RS_BLOCK / RS_GROUP];  /* the last end of each group of RS_GROUP */
	uint64_t end[RS_BLOCK];     /* r[i].end */
	struct range r[RS_BLOCK];
};

/* b's ranges changed: its groups' last ends. */
static void block_sync(struct rs_block *b)
{
	size_t g;

	for (g = 0; g * RS_GROUP < b->nr; g++)
		b->top[g] = b->end[(g + 1) * RS_GROUP <= b->nr ? (g + 1) * RS_GROUP - 1 : b->nr - 1];
}

/* Move n ranges of b from index src to dst. */
static void block_move(struct rs_block *b, size_t dst, size_t src, size_t n)
{
	memmove(b->r + dst, b->r + src, n * sizeof(*b->r));
	memmove(b->end + dst, b->end + src, n * sizeof(*b->end));
}

/* Put n ranges at index i of b (over what was there). */
static void block_put(struct rs_block *b, size_t i, const struct range *r, size_t n)
{
	size_t k;

	memcpy(b->r + i, r, n * sizeof(*r));
	for (k = 0; k < n; k++)
		b->end[i + k] = r[k].end;
}

void rangeset__release(struct rangeset *s)
{
	size_t i;

	for (i = 0; i < s->nr_blocks; i++)
		free(s->blocks[i]);
	free(s->blocks);
	free(s->ends);
	s->blocks = NULL;
	s->ends = NULL;
	s->nr_blocks = s->alloc_blocks = s->nr = 0;
}

/* A position: block bi, index i in it (bi == nr_blocks: past the end). */
struct rs_pos {
	size_t bi, i;
};

/* The first range whose end is above addr. */
static struct rs_pos first_ending_after(const struct rangeset *s, uint64_t addr)
{
	size_t lo = bsearch_last_le_u64(s->ends, s->nr_blocks, addr), hi;
	struct rs_pos pos;
	const struct rs_block *b;

	pos.bi = lo;
	pos.i = 0;
	if (lo == s->nr_blocks)
		return pos;
	b = s->blocks[lo];
	/* the first group ending above addr: one exists, the block's last end is */
	for (lo = 0; b->top[lo] <= addr; lo++)
		;
	lo *= RS_GROUP;
	hi = lo + RS_GROUP < b->nr ? lo + RS_GROUP : b->nr;
	pos.i = lo + bsearch_last_le_u64(b->end + lo, hi - lo, addr);
	return pos;
}

const struct range *rangeset__find(const struct rangeset *s, uint64_t addr)
{
	struct rs_pos pos = first_ending_after(s, addr);
	const struct range *r;

	if (pos.bi == s->nr_blocks)
		return NULL;
	r = &s->blocks[pos.bi]->r[pos.i];
	return r->start <= addr ? r : NULL;
}

/* Block bi's ranges changed (it has some): its index of ends, and its end in s->ends. */
static void sync_end(struct rangeset *s, size_t bi)
{
	struct rs_block *b = s->blocks[bi];

	block_sync(b);
	s->ends[bi] = b->end[b->nr - 1];
}

static void remove_block(struct rangeset *s, size_t bi)
{
	size_t after = s->nr_blocks - bi - 1;

	free(s->blocks[bi]);
	memmove(s->blocks + bi, s->blocks + bi + 1, after * sizeof(*s->blocks));
	memmove(s->ends + bi, s->ends + bi + 1, after * sizeof(*s->ends));
	s->nr_blocks--;
}

/* b at bi; its end is set when it has ranges (sync_end()). */
static void add_block(struct rangeset *s, size_t bi, struct rs_block *b)
{
	size_t after = s->nr_blocks - bi, alloc = s->alloc_blocks;

	ALLOC_GROW(s->blocks, s->nr_blocks + 1, s->alloc_blocks);
	if (alloc != s->alloc_blocks)
		s->ends = xreallocarray(s->ends, s->alloc_blocks, sizeof(*s->ends));
	memmove(s->blocks + bi + 1, s->blocks + bi, after * sizeof(*s->blocks));
	memmove(s->ends + bi + 1, s->ends + bi, after * sizeof(*s->ends));
	s->blocks[bi] = b;
	s->nr_blocks++;
}

/* Put n (<= 3) ranges at pos, splitting a full block. */
static void insert_at(struct rangeset *s, struct rs_pos pos, const struct range *r, size_t n)
{
	struct rs_block *b;

	if (!n)
		return;
	if (pos.bi == s->nr_blocks && pos.bi > 0) {
		/* past the end: append to the last block */
		pos.bi--;
		pos.i = s->blocks[pos.bi]->nr;
	} else if (pos.bi == s->nr_blocks) {
		add_block(s, 0, xcalloc(1, sizeof(struct rs_block)));
	}
	b = s->blocks[pos.bi];
	if (b->nr + n > RS_BLOCK) {
		struct rs_block *upper = xcalloc(1, sizeof(*upper));
		size_t half = b->nr / 2;

		upper->nr = b->nr - half;
		block_put(upper, 0, b->r + half, upper->nr);
		b->nr = half;
		add_block(s, pos.bi + 1, upper);
		sync_end(s, pos.bi);
		sync_end(s, pos.bi + 1);
		if (pos.i > half) {
			pos.bi++;
			pos.i -= half;
			b = upper;
		}
	}
	block_move(b, pos.i + n, pos.i, b->nr - pos.i);
	block_put(b, pos.i, r, n);
	b->nr += n;
	s->nr += n;
	sync_end(s, pos.bi);
}

/*
 * Replace the ranges overlapping [start, end) by their parts outside it
 * and, if fill is given, by fill itself. At most two parts survive (before
 * and after), so the set stays sorted and non-overlapping.
 */
static void splice(struct rangeset *s, uint64_t start, uint64_t end, const struct range *fill)
{
	struct rs_pos pos = first_ending_after(s, start);
	struct range put[3], head, tail;
	bool has_head = false, has_tail = false;
	size_t k = 0;

	/* take out every range that overlaps, keeping the parts outside */
	while (pos.bi < s->nr_blocks) {
		struct rs_block *b = s->blocks[pos.bi];
		size_t j = pos.i;

		for (; j < b->nr && b->r[j].start < end; j++) {
			const struct range *r = &b->r[j];

			if (r->start < start) {      /* only the first can */
				head = *r;
				head.end = start;
				has_head = true;
			}
			if (r->end > end) {          /* only the last can */
				tail = *r;
				tail.offset += end - tail.start;
				tail.start = end;
				has_tail = true;
			}
		}
		block_move(b, pos.i, j, b->nr - j);
		b->nr -= j - pos.i;
		s->nr -= j - pos.i;
		if (pos.i < b->nr) {
			block_sync(b);
			break;                      /* b->r[pos.i] starts at or after end */
		}
		if (!b->nr) {
			remove_block(s, pos.bi);
		} else {
			sync_end(s, pos.bi);
			pos.bi++;
		}
		pos.i = 0;
		if (pos.bi < s->nr_blocks && s->blocks[pos.bi]->r[0].start >= end)
			break;
	}
	/* the parts and fill go where the overlapped ranges were, in order */
	if (has_head)
		put[k++] = head;
	if (fill)
		put[k++] = *fill;
	if (has_tail)
		put[k++] = tail;
	insert_at(s, pos, put, k);
}

void rangeset__insert(struct rangeset *s, uint64_t start, uint64_t end,
		      uint64_t offset, void *data)
{
	struct range fill = { start, end, offset, data };

	if (end <= start)
		return;
	splice(s, start, end, &fill);
}

void rangeset__remove(struct rangeset *s, uint64_t start, uint64_t end)
{
	if (end > start)
		splice(s, start, end, NULL);
}

void rangeset__copy(struct rangeset *dst, const struct rangeset *src)
{
	size_t i;

	rangeset__release(dst);
	ALLOC_GROW(dst->blocks, src->nr_blocks, dst->alloc_blocks);
	dst->ends = xcalloc(dst->alloc_blocks ? dst->alloc_blocks : 1, sizeof(*dst->ends));
	if (src->nr_blocks)
		memcpy(dst->ends, src->ends, src->nr_blocks * sizeof(*dst->ends));
	for (i = 0; i < src->nr_blocks; i++) {
		dst->blocks[i] = xmalloc(sizeof(struct rs_block));
		memcpy(dst->blocks[i], src->blocks[i], sizeof(struct rs_block));
	}
	dst->nr_blocks = src->nr_blocks;
	dst->nr = src->nr;
}
