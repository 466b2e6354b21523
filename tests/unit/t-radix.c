/*
 * Unit tests for src/common/radix.c: radix_sort() against qsort() by
 * (key, val), val the original index, so that ties must keep their order.
 */
#include "common/common.h"
#include "common/radix.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

static int cmp_key_val(const void *a, const void *b)
{
	const struct radix_item *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->val < y->val ? -1 : x->val > y->val;
}

/*
 * radix_sort() against qsort() by (key, val), val the original index:
 * keys with few distinct values (ties keep their order), keys that differ
 * only in high bytes, in low bytes, sorted, reversed, and none.
 */
static void test_sort(void)
{
	static const size_t sizes[] = { 0, 1, 2, 7, 300, 5000 };
	struct radix_item *got, *want;
	uint64_t seed = 24;
	size_t k, i, shape;
	bool ok = true;

	for (shape = 0; shape < 5; shape++) {
		for (k = 0; k < ARRAY_SIZE(sizes); k++) {
			size_t n = sizes[k];

			got = xcalloc(n ? n : 1, sizeof(*got));
			want = xcalloc(n ? n : 1, sizeof(*want));
			for (i = 0; i < n; i++) {
				seed = seed * 6364136223846793005ull + 1442695040888963407ull;
				got[i].key = shape == 0 ? (seed >> 33) % 5 :
					     shape == 1 ? (seed >> 60) << 56 | 0x7f00 :
					     shape == 2 ? 0x7f5000000000ull + (seed >> 56) :
					     shape == 3 ? 0x1000 + i : UINT64_MAX - i;
				got[i].val = i;
			}
			memcpy(want, got, (n ? n : 1) * sizeof(*got));
			qsort(want, n, sizeof(*want), cmp_key_val);
			radix_sort(got, n);
			ok &= !memcmp(got, want, n * sizeof(*got));
			free(got);
			free(want);
		}
	}
	T("radix_sort: as qsort() by key, ties in their order", ok);
}

int main(void)
{
	test_sort();
	return test_done();
}
