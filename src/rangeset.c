#include "common.h"
#include "rangeset.h"

#define RS_BLOCK 128

struct rs_block {
	size_t nr;
	struct range r[RS_BLOCK];
};

void rangeset__release(struct rangeset *s)
{
	size_t i;

	for (i = 0; i < s->nr_blocks; i++)
		free(s->blocks[i]);
	free(s->blocks);
	s->blocks = NULL;
	s->nr_blocks = s->alloc_blocks = s->nr = 0;
}

/* A position: block bi, index i in it (bi == nr_blocks: past the end). */
struct rs_pos {
	size_t bi, i;
};

/* The first range whose end is above addr. */
static struct rs_pos first_ending_after(const struct rangeset *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nr_blocks;
	struct rs_pos pos;
	const struct rs_block *b;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		b = s->blocks[mid];
		if (b->r[b->nr - 1].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	pos.bi = lo;
	pos.i = 0;
	if (lo == s->nr_blocks)
		return pos;
	b = s->blocks[lo];
	lo = 0;
	hi = b->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b->r[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	pos.i = lo;
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

static void remove_block(struct rangeset *s, size_t bi)
{
	free(s->blocks[bi]);
	memmove(s->blocks + bi, s->blocks + bi + 1, (s->nr_blocks - bi - 1) * sizeof(*s->blocks));
	s->nr_blocks--;
}

static void add_block(struct rangeset *s, size_t bi, struct rs_block *b)
{
	ALLOC_GROW(s->blocks, s->nr_blocks + 1, s->alloc_blocks);
	memmove(s->blocks + bi + 1, s->blocks + bi, (s->nr_blocks - bi) * sizeof(*s->blocks));
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
		memcpy(upper->r, b->r + half, upper->nr * sizeof(*b->r));
		b->nr = half;
		add_block(s, pos.bi + 1, upper);
		if (pos.i > half) {
			pos.bi++;
			pos.i -= half;
			b = upper;
		}
	}
	memmove(b->r + pos.i + n, b->r + pos.i, (b->nr - pos.i) * sizeof(*b->r));
	memcpy(b->r + pos.i, r, n * sizeof(*r));
	b->nr += n;
	s->nr += n;
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
		memmove(b->r + pos.i, b->r + j, (b->nr - j) * sizeof(*b->r));
		b->nr -= j - pos.i;
		s->nr -= j - pos.i;
		if (pos.i < b->nr)
			break;                      /* b->r[pos.i] starts at or after end */
		if (!b->nr)
			remove_block(s, pos.bi);
		else
			pos.bi++;
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
	for (i = 0; i < src->nr_blocks; i++) {
		dst->blocks[i] = xmalloc(sizeof(struct rs_block));
		memcpy(dst->blocks[i], src->blocks[i], sizeof(struct rs_block));
	}
	dst->nr_blocks = src->nr_blocks;
	dst->nr = src->nr;
}
