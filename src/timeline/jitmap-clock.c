#include "common/common.h"
#include "timeline/jitmap-clock.h"
#include "timeline/jitmap.h"
#include "timeline/jitmap-untimed.h"
#include "common/radix.h"
#include "timeline/rangeset.h"
#include "common/sbuf.h"

struct untimed_clock {
	const struct untimed *u;
	size_t first;                /* u's entries from first on are the lines */
	uint64_t *times;             /* per line */
	size_t nr, next;             /* lines; the next one to apply */
	struct rangeset now;         /* data: the entry's index in u, as a pointer */
};

static uint64_t end_of(const struct untimed_entry *e)
{
	return e->size > UINT64_MAX - e->start ? UINT64_MAX : e->start + e->size;
}


bool untimed_clock__overlaps(const struct untimed *u, size_t first)
{
	size_t n = u->nr_entries - first, i;
	/* spans by start: the order of equal starts cannot change the answer (sizes > 0) */
	struct radix_item *s = xcalloc(n ? n : 1, sizeof(*s));
	uint64_t reach = 0;
	bool overlap = false;

	for (i = 0; i < n; i++) {
		s[i].key = u->entries[first + i].start;
		s[i].val = end_of(&u->entries[first + i]);
	}
	radix_sort(s, n);
	for (i = 0; i < n && !overlap; i++) {
		overlap = i && s[i].key < reach;
		if (s[i].val > reach)
			reach = s[i].val;
	}
	free(s);
	return overlap;
}

/* Whether line i (entry e) may take exec mmap i's time; if not, says why in rule. */
static bool pairs(const struct untimed_entry *e, size_t i, const struct jit_exec_mmaps *m,
		  struct sbuf *rule)
{
	const struct jit_exec_mmap *x = &m->v[i];
	uint64_t x_end = x->len > UINT64_MAX - x->start ? UINT64_MAX : x->start + x->len;

	if (e->start < x->start || end_of(e) > x_end) {
		sbuf_addf(rule, "later line wins: line %zu [%#" PRIx64 ", %#" PRIx64
			  ") outside exec mmap %zu [%#" PRIx64 ", %#" PRIx64 ")",
			  i + 1, e->start, end_of(e), i + 1, x->start, x_end);
		return false;
	}
	if (i && x->time < m->v[i - 1].time) {
		sbuf_addf(rule, "later line wins: exec mmap %zu is earlier than the one before",
			  i + 1);
		return false;
	}
	return true;
}

static void put(struct untimed_clock *c, size_t i)
{
	const struct untimed_entry *e = &c->u->entries[c->first + i];

	rangeset__insert(&c->now, e->start, end_of(e), 0, (void *)(uintptr_t)i);
}

struct untimed_clock *untimed_clock__pair(const struct untimed *u, size_t first,
					  const struct jit_exec_mmaps *m, struct sbuf *rule)
{
	size_t n = u->nr_entries - first, i;
	struct untimed_clock *c;

	if (m->unknown) {
		sbuf_addf(rule, "later line wins: %s", m->unknown);
		return NULL;
	}
	if (n != m->nr) {
		sbuf_addf(rule, "later line wins: %zu lines, %zu exec mmaps", n, m->nr);
		return NULL;
	}
	for (i = 0; i < n; i++)
		if (!pairs(&u->entries[first + i], i, m, rule))
			return NULL;
	sbuf_addf(rule, "times from %zu exec mmaps", n);
	c = xcalloc(1, sizeof(*c));
	c->u = u;
	c->first = first;
	c->nr = n;
	c->times = xcalloc(n ? n : 1, sizeof(*c->times));
	for (i = 0; i < n; i++)
		c->times[i] = m->v[i].time;
	/* before any line's time, the first line covering an address names it */
	for (i = n; i-- > 0;)
		put(c, i);
	return c;
}

void untimed_clock__delete(struct untimed_clock *c)
{
	if (!c)
		return;
	rangeset__release(&c->now);
	free(c->times);
	free(c);
}

bool untimed_clock__advance(struct untimed_clock *c, uint64_t t,
			    void (*changed)(void *ctx, uint64_t start, uint64_t size), void *ctx)
{
	bool any = false;

	while (c->next < c->nr && c->times[c->next] <= t) {
		const struct untimed_entry *e = &c->u->entries[c->first + c->next];

		put(c, c->next++);
		changed(ctx, e->start, e->size);
		any = true;
	}
	return any;
}

struct untimed_entry *untimed_clock__find(const struct untimed_clock *c, uint64_t addr)
{
	const struct range *r = rangeset__find(&c->now, addr);

	return r ? &c->u->entries[c->first + (uintptr_t)r->data] : NULL;
}
