#include "common.h"
#include "rangeset.h"

void rangeset__release(struct rangeset *s)
{
	free(s->r);
	s->r = NULL;
	s->nr = s->alloc = 0;
}

/* Index of the first range whose end is above addr. */
static size_t first_ending_after(const struct rangeset *s, uint64_t addr)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->r[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct range *rangeset__find(const struct rangeset *s, uint64_t addr)
{
	size_t i = first_ending_after(s, addr);

	if (i < s->nr && s->r[i].start <= addr)
		return &s->r[i];
	return NULL;
}

/*
 * Replace the ranges overlapping [start, end) by their parts outside it
 * and, if fill is given, by fill itself. At most two parts survive (before
 * and after), so the set stays sorted and non-overlapping.
 */
static void splice(struct rangeset *s, uint64_t start, uint64_t end, const struct range *fill)
{
	size_t i = first_ending_after(s, start), j = i, nr_new;
	struct range head, tail;
	int has_head = 0, has_tail = 0;

	while (j < s->nr && s->r[j].start < end)
		j++;
	if (i < j && s->r[i].start < start) {
		head = s->r[i];
		head.end = start;
		has_head = 1;
	}
	if (i < j && s->r[j - 1].end > end) {
		tail = s->r[j - 1];
		tail.offset += end - tail.start;
		tail.start = end;
		has_tail = 1;
	}
	nr_new = (size_t)(has_head + has_tail + (fill != NULL));
	if (nr_new > j - i)
		ALLOC_GROW(s->r, s->nr + nr_new - (j - i), s->alloc);
	memmove(s->r + i + nr_new, s->r + j, (s->nr - j) * sizeof(*s->r));
	s->nr = s->nr + nr_new - (j - i);
	if (has_head)
		s->r[i++] = head;
	if (fill)
		s->r[i++] = *fill;
	if (has_tail)
		s->r[i] = tail;
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
	dst->nr = 0;
	ALLOC_GROW(dst->r, src->nr, dst->alloc);
	if (src->nr)
		memcpy(dst->r, src->r, src->nr * sizeof(*src->r));
	dst->nr = src->nr;
}
