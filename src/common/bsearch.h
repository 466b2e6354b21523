/*
 * bsearch_last_le: the one binary search for "the last element whose key
 * is at or before A" over an array sorted by a uint64_t key (equal keys
 * allowed). It answers with a count, the number of elements whose key is
 * at or before A: the element sought is at index (count - 1), and there
 * is none when the count is 0; the count is also the index of the first
 * element whose key is above A (nr when none is).
 *
 * The key is the uint64_t at byte offset key_off of each element of size
 * bytes (offsetof(struct x, start)); a plain uint64_t array is size 8,
 * key_off 0. Inline, so that a constant size and offset compile to the
 * hand-written loop. No allocation, no state: any thread may call it.
 */
#ifndef JITSYM_BSEARCH_H
#define JITSYM_BSEARCH_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t bsearch__key(const void *base, size_t size, size_t key_off, size_t i)
{
	return *(const uint64_t *)((const char *)base + i * size + key_off);
}

static inline size_t bsearch_last_le(const void *base, size_t nr, size_t size, size_t key_off,
				     uint64_t a)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (bsearch__key(base, size, key_off, mid) <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* bsearch_last_le() over a plain array of uint64_t. */
static inline size_t bsearch_last_le_u64(const uint64_t *v, size_t nr, uint64_t a)
{
	return bsearch_last_le(v, nr, sizeof(*v), 0, a);
}

#endif
