/*
 * rangeset against a model: random inserts and removes in random address
 * order, each followed by lookups, compared with a flat array that records
 * which range (and offset) owns every address.
 */
#include "common/common.h"
#include "timeline/rangeset.h"
#include "test.h"

#define SPAN 2048

struct cell {
	void *data;             /* NULL: nothing mapped */
	uint64_t offset;        /* offset of this address */
};

static uint32_t rnd_state = 12345;

static uint32_t rnd(uint32_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state % n;
}

/* Every address agrees with the model, and the ranges are sorted and disjoint. */
static bool agrees(const struct rangeset *s, const struct cell *model)
{
	uint64_t a;

	for (a = 0; a < SPAN; a++) {
		const struct range *r = rangeset__find(s, a);

		if (!r != !model[a].data)
			return false;
		if (r && (r->data != model[a].data || r->offset + (a - r->start) != model[a].offset ||
			  r->start > a || r->end <= a))
			return false;
	}
	return true;
}

static void test_rangeset__random_ops(void)
{
	static struct cell model[SPAN];
	static char tags[4000];
	struct rangeset s = RANGESET_INIT, copy = RANGESET_INIT;
	bool ok = true, copy_ok;
	int i;

	for (i = 0; i < 4000 && ok; i++) {
		uint64_t start = rnd(SPAN), len = 1 + rnd(i % 3 ? 16 : 300), a, off = rnd(1000);
		uint64_t end = start + len > SPAN ? SPAN : start + len;

		if (rnd(5)) {
			rangeset__insert(&s, start, end, off, &tags[i]);
			for (a = start; a < end; a++)
				model[a] = (struct cell){ &tags[i], off + (a - start) };
		} else {
			rangeset__remove(&s, start, end);
			for (a = start; a < end; a++)
				model[a].data = NULL;
		}
		ok = agrees(&s, model);
	}
	T("rangeset: 4000 random inserts and removes agree with the model", ok);
	rangeset__copy(&copy, &s);
	copy_ok = agrees(&copy, model);
	rangeset__insert(&s, 0, SPAN, 0, &tags[0]);
	T("rangeset: a copy agrees and does not change with the original",
	  copy_ok && agrees(&copy, model) && copy.nr > 0);
	T("rangeset: one range over everything leaves one", s.nr == 1);
	rangeset__release(&s);
	T("rangeset: released is empty", !rangeset__find(&s, 5) && s.nr == 0);
	rangeset__release(&copy);
}

static void test_rangeset__empty_and_inverted(void)
{
	struct rangeset s = RANGESET_INIT;
	int tag;

	rangeset__insert(&s, 10, 10, 0, &tag);
	rangeset__insert(&s, 20, 10, 0, &tag);
	T("rangeset: empty and inverted ranges are ignored", s.nr == 0 && !rangeset__find(&s, 10));
	rangeset__insert(&s, 10, 20, 100, &tag);
	rangeset__remove(&s, 12, 14);
	T("rangeset: a hole splits a range in two", s.nr == 2 && !rangeset__find(&s, 12) &&
	  rangeset__find(&s, 14)->offset == 104 && rangeset__find(&s, 11)->end == 12);
	rangeset__release(&s);
}

int main(void)
{
	test_rangeset__random_ops();
	test_rangeset__empty_and_inverted();
	return test_done();
}
