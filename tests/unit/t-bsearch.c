/*
 * bsearch_last_le against a linear scan: sorted arrays with repeated keys,
 * keys inside a struct, the ends of the key range and an empty array.
 */
#include "common/common.h"
#include "common/bsearch.h"
#include "test.h"

struct elem {
	uint32_t pad;
	uint64_t start;
	char tag;
};

/* The number of keys at or before a, by looking at each. */
static size_t model(const uint64_t *v, size_t nr, uint64_t a)
{
	size_t n = 0;

	while (n < nr && v[n] <= a)
		n++;
	return n;
}

static void test_bsearch__edges(void)
{
	const uint64_t v[] = { 10, 20, 20, 20, 30 };
	struct elem e[3] = { { 0, 5, 'a' }, { 0, 7, 'b' }, { 0, UINT64_MAX, 'c' } };

	T("empty array: none", bsearch_last_le_u64(v, 0, 100) == 0);
	T("below the first key: none", bsearch_last_le_u64(v, 5, 9) == 0);
	T("at the first key: it", bsearch_last_le_u64(v, 5, 10) == 1);
	T("between keys: the one before", bsearch_last_le_u64(v, 5, 15) == 1);
	T("at a repeated key: its last copy", bsearch_last_le_u64(v, 5, 20) == 4);
	T("above the last key: all", bsearch_last_le_u64(v, 5, UINT64_MAX) == 5);
	T("a key in a struct", bsearch_last_le(e, 3, sizeof(*e), offsetof(struct elem, start), 6) == 1);
	T("a key in a struct, UINT64_MAX",
	  bsearch_last_le(e, 3, sizeof(*e), offsetof(struct elem, start), UINT64_MAX) == 3);
	T("a key in a struct, below all",
	  bsearch_last_le(e, 3, sizeof(*e), offsetof(struct elem, start), 4) == 0);
}

static void test_bsearch__random(void)
{
	uint64_t v[200];
	struct elem e[200];
	bool ok = true, ok_struct = true;
	int round;

	for (round = 0; round < 200; round++) {
		size_t nr = test_rnd(200), i;
		uint64_t a = test_rnd(400);

		for (i = 0; i < nr; i++) {
			v[i] = (i ? v[i - 1] : 0) + test_rnd(4);
			e[i].start = v[i];
		}
		if (bsearch_last_le_u64(v, nr, a) != model(v, nr, a))
			ok = false;
		if (bsearch_last_le(e, nr, sizeof(*e), offsetof(struct elem, start), a) !=
		    model(v, nr, a))
			ok_struct = false;
	}
	T("random sorted arrays agree with a linear scan", ok);
	T("random sorted structs agree with a linear scan", ok_struct);
}

int main(void)
{
	test_bsearch__edges();
	test_bsearch__random();
	return test_done();
}
