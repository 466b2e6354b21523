/*
 * Unit tests for pprof-stacks.c: against a plain table of whole keys, the
 * same distinct stacks, in the order first added, with the same counts
 * and period sums, whatever the contexts' stacks share (chains of bases
 * at their longest, contexts shared by several ids, keys that are
 * suffixes of others, empty keys, words of every size, more than one
 * chunk of records).
 */
#include "common/common.h"
#include "output/pprof-stacks.h"
#include "test.h"

#define MAX_DEPTH 300

struct ref_stack {
	uint32_t *key;
	size_t n;
	uint64_t count, period;
};

struct ref_table {
	struct ref_stack *v;
	size_t nr, alloc;
	size_t *slots;          /* index + 1 */
	size_t size;
};

static uint64_t key_hash(const uint32_t *key, size_t n)
{
	uint64_t h = 1469598103934665603ULL ^ n;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ key[i]) * 1099511628211ULL;
	return h;
}

static void ref_add(struct ref_table *t, const uint32_t *key, size_t n, uint64_t period)
{
	size_t pos, i;

	if (2 * (t->nr + 1) > t->size) {
		size_t size = t->size ? 2 * t->size : 1024;

		free(t->slots);
		t->slots = xcalloc(size, sizeof(*t->slots));
		t->size = size;
		for (i = 0; i < t->nr; i++) {
			for (pos = key_hash(t->v[i].key, t->v[i].n) & (size - 1); t->slots[pos];
			     pos = (pos + 1) & (size - 1))
				;
			t->slots[pos] = i + 1;
		}
	}
	for (pos = key_hash(key, n) & (t->size - 1); t->slots[pos]; pos = (pos + 1) & (t->size - 1)) {
		struct ref_stack *r = &t->v[t->slots[pos] - 1];

		if (r->n == n && !memcmp(r->key, key, n * sizeof(*key))) {
			r->count++;
			r->period += period;
			return;
		}
	}
	ALLOC_GROW(t->v, t->nr + 1, t->alloc);
	t->v[t->nr].key = xcalloc(n ? n : 1, sizeof(*key));
	memcpy(t->v[t->nr].key, key, n * sizeof(*key));
	t->v[t->nr].n = n;
	t->v[t->nr].count = 1;
	t->v[t->nr].period = period;
	t->slots[pos] = ++t->nr;
}

static void ref_free(struct ref_table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->v[i].key);
	free(t->v);
	free(t->slots);
}

/* Both hold the same stacks in the same order. */
static int same_stacks(struct stack_store *s, const struct ref_table *t)
{
	struct stack_iter it = STACK_ITER_INIT;
	const uint32_t *key;
	uint64_t count, period;
	size_t n, i = 0;

	if (stack_store__count(s) != t->nr)
		return 0;
	while (stack_store__next(s, &it, &key, &n, &count, &period)) {
		const struct ref_stack *r = &t->v[i++];

		if (i > t->nr || r->n != n || memcmp(r->key, key, n * sizeof(*key)) ||
		    r->count != count || r->period != period)
			return 0;
	}
	return i == t->nr;
}

/* A word from a small alphabet (so stacks repeat), sometimes any 32-bit value. */
static uint32_t word(unsigned big)
{
	if (big && !test_rnd(big))
		return (uint32_t)test_rnd(UINT32_MAX) * 2 + test_rnd(2);
	return test_rnd(40);
}

/*
 * Threads whose stacks change at the leaf end, as a program's do: pop a
 * few words, push a few; now and then a stack from scratch, or only its
 * root end (a suffix of the last).
 */
static void run(const char *name, size_t nr_samples, unsigned nr_threads, size_t depth,
		unsigned big, unsigned fresh)
{
	struct stack_store *s = stack_store__new();
	struct ref_table t = { 0 };
	uint32_t (*stacks)[MAX_DEPTH] = xcalloc(nr_threads, sizeof(*stacks));
	size_t *len = xcalloc(nr_threads, sizeof(*len)), i, j;
	uint32_t key[MAX_DEPTH];
	char msg[128];

	for (i = 0; i < nr_samples; i++) {
		unsigned th = test_rnd(nr_threads), r = test_rnd(100);
		size_t n = len[th];
		uint64_t period = 1 + test_rnd(100000);

		if (r < fresh) {
			n = test_rnd((uint32_t)depth + 1);
			for (j = 0; j < n; j++)
				stacks[th][j] = word(big);
		} else if (r < fresh + 3) {
			n = n ? test_rnd((uint32_t)n) : 0;
		} else if (r < fresh + 60) {
			size_t pop = test_rnd(4), push = test_rnd(4);

			n = pop < n ? n - pop : 0;
			for (j = 0; j < push && n < depth; j++)
				stacks[th][n++] = word(big);
		}
		len[th] = n;
		/* the key is leaf first: the stack's end first */
		for (j = 0; j < n; j++)
			key[j] = stacks[th][n - 1 - j];
		stack_store__add(s, th * 0x10001ULL, key, n, period);
		ref_add(&t, key, n, period);
	}
	snprintf(msg, sizeof(msg), "%s: %zu distinct stacks of %zu samples, in order, summed",
		 name, t.nr, nr_samples);
	T(msg, same_stacks(s, &t));
	ref_free(&t);
	free(stacks);
	free(len);
	stack_store__delete(s);
}

static void test_small(void)
{
	struct stack_store *s = stack_store__new();
	struct stack_iter it = STACK_ITER_INIT;
	static const uint32_t a[] = { 3, 2, 1 }, b[] = { 2, 1 }, c[] = { 0xffffffff, 0, 1 }, none[1] = { 9 };
	const uint32_t *key;
	uint64_t count, period;
	size_t n;

	stack_store__add(s, 1, a, 3, 10);
	stack_store__add(s, 1, b, 2, 20);      /* a suffix of the last */
	stack_store__add(s, 1, none, 0, 5);    /* no frames */
	stack_store__add(s, 2, a, 3, 1);       /* another context */
	stack_store__add(s, 1, c, 3, 7);
	stack_store__add(s, 1, none, 0, 5);
	T("small: four stacks", stack_store__count(s) == 4);
	T("small: first", stack_store__next(s, &it, &key, &n, &count, &period) && n == 3 &&
	  !memcmp(key, a, sizeof(a)) && count == 2 && period == 11);
	T("small: second", stack_store__next(s, &it, &key, &n, &count, &period) && n == 2 &&
	  !memcmp(key, b, sizeof(b)) && count == 1 && period == 20);
	T("small: empty", stack_store__next(s, &it, &key, &n, &count, &period) && n == 0 &&
	  count == 2 && period == 10);
	T("small: extreme words", stack_store__next(s, &it, &key, &n, &count, &period) && n == 3 &&
	  !memcmp(key, c, sizeof(c)) && count == 1 && period == 7);
	T("small: the end", !stack_store__next(s, &it, &key, &n, &count, &period) &&
	  !stack_store__next(s, &it, &key, &n, &count, &period));
	stack_store__delete(s);
	stack_store__delete(NULL);
}

int main(void)
{
	test_small();
	run("one thread", 20000, 1, 40, 0, 3);
	run("a few threads", 50000, 5, 60, 50, 3);
	/* more ids than contexts: contexts are taken over */
	run("many threads", 50000, 1000, 30, 10, 3);
	/* deep stacks of large words, many from scratch: more than one 4 MiB chunk */
	run("deep", 40000, 3, MAX_DEPTH, 2, 30);
	return test_done();
}
