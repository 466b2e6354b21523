#include "common/common.h"
#include "timeline/jitmap-untimed.h"
#include "common/bsearch.h"
#include "common/radix.h"

/*
 * From first to the next range's first, or to its entry's end where that
 * comes first (a gap follows): the last address is not kept, which saves
 * a third of the index (a perf map can have millions of lines).
 */
struct untimed_range {
	uint64_t first;
	size_t entry;
};

/* Names packed into chunks: a perf map has a million short ones. */
#define NAMES_CHUNK (64u << 10)

struct untimed_names {
	struct untimed_names *next;
	size_t used, size;
	char buf[];
};

static const char *copy_name(struct untimed *u, const char *name)
{
	size_t len = strlen(name) + 1;
	struct untimed_names *c = u->names;
	char *copy;

	if (!c || c->size - c->used < len) {
		size_t size = len > NAMES_CHUNK ? len : NAMES_CHUNK;

		c = xmalloc(st_add(sizeof(*c), size));
		c->used = 0;
		c->size = size;
		c->next = u->names;
		u->names = c;
	}
	copy = c->buf + c->used;
	memcpy(copy, name, len);
	c->used += len;
	return copy;
}

void untimed__release(struct untimed *u)
{
	while (u->names) {
		struct untimed_names *next = u->names->next;

		free(u->names);
		u->names = next;
	}
	free(u->entries);
	free(u->ranges);
	memset(u, 0, sizeof(*u));
}

void untimed__add(struct untimed *u, uint64_t start, uint64_t size, const char *name,
		  const char *source, const struct jit_loader *loader)
{
	struct untimed_entry *e;

	if (!size)
		return;
	ALLOC_GROW(u->entries, u->nr_entries + 1, u->alloc_entries);
	e = &u->entries[u->nr_entries++];
	e->start = start;
	e->size = size;
	e->name = copy_name(u, name);
	e->source = source;
	e->loader = loader;
	e->sym = NULL;
	e->not_before = 0;
}

static uint64_t last_of(const struct untimed_entry *e)
{
	/* start + size <= 2^64 is the loaders' to check; clamp rather than wrap */
	return e->size - 1 > UINT64_MAX - e->start ? UINT64_MAX : e->start + (e->size - 1);
}

/* A max-heap of entry indices: the top is the latest entry, the one that wins. */
struct heap {
	size_t *v;
	size_t nr;
};

static void heap_push(struct heap *h, size_t entry)
{
	size_t i = h->nr++;

	while (i && h->v[(i - 1) / 2] < entry) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = entry;
}

static void heap_pop(struct heap *h)
{
	size_t last = h->v[--h->nr], i = 0, child;

	while ((child = 2 * i + 1) < h->nr) {
		if (child + 1 < h->nr && h->v[child + 1] > h->v[child])
			child++;
		if (h->v[child] <= last)
			break;
		h->v[i] = h->v[child];
		i = child;
	}
	h->v[i] = last;
}

/* [first, last] is entry's; *prev_last is the last range's last address. */
static void emit(struct untimed *u, uint64_t first, uint64_t last, size_t entry,
		 uint64_t *prev_last)
{
	bool merge = u->nr_ranges && u->ranges[u->nr_ranges - 1].entry == entry &&
		     *prev_last + 1 == first;

	*prev_last = last;
	if (merge)
		return;
	/* room for 2n: each range ends where an entry starts or where the winner ends */
	u->ranges[u->nr_ranges].first = first;
	u->ranges[u->nr_ranges++].entry = entry;
}

/*
 * Sweep the entries by start, keeping those that cover x in a heap: the
 * latest of them wins from x until it ends or a later-starting entry
 * begins, whichever is first. Entries under the top that have ended are
 * dropped when they surface.
 */
void untimed__index(struct untimed *u)
{
	size_t n = u->nr_entries, i = 0;
	/* entry indices by start, the earlier entry first on a tie */
	struct radix_item *order = xcalloc(n ? n : 1, sizeof(*order));
	struct heap h = { xcalloc(n ? n : 1, sizeof(*h.v)), 0 };
	uint64_t x = 0, prev_last = 0;

	/* the entries are all in: give back what growing them left spare */
	if (n && u->alloc_entries > n) {
		u->entries = xreallocarray(u->entries, n, sizeof(*u->entries));
		u->alloc_entries = n;
	}
	for (i = 0; i < n; i++) {
		order[i].key = u->entries[i].start;
		order[i].val = i;
	}
	radix_sort(order, n);
	free(u->ranges);
	u->ranges = xcalloc(st_mult(n ? n : 1, 2), sizeof(*u->ranges));
	u->nr_ranges = 0;
	for (i = 0;;) {
		uint64_t last;

		while (h.nr && last_of(&u->entries[h.v[0]]) < x)
			heap_pop(&h);
		if (!h.nr) {
			if (i == n)
				break;
			x = order[i].key;
		}
		while (i < n && order[i].key <= x)
			heap_push(&h, (size_t)order[i++].val);
		last = last_of(&u->entries[h.v[0]]);
		if (i < n && order[i].key - 1 < last)
			last = order[i].key - 1;
		emit(u, x, last, h.v[0], &prev_last);
		if (last == UINT64_MAX)
			break;
		x = last + 1;
	}
	free(order);
	free(h.v);
	/* room was made for the worst case, 2n; a map of a million lines keeps what it uses */
	u->ranges = xrealloc(u->ranges, st_mult(u->nr_ranges ? u->nr_ranges : 1, sizeof(*u->ranges)));
}

struct untimed_entry *untimed__find(const struct untimed *u, uint64_t addr)
{
	/* the last range starting at or before addr */
	size_t lo = bsearch_last_le(u->ranges, u->nr_ranges, sizeof(*u->ranges),
				    offsetof(struct untimed_range, first), addr);

	/* it ends before the next range's first, or at its entry's end (a gap follows) */
	if (!lo || addr > last_of(&u->entries[u->ranges[lo - 1].entry]))
		return NULL;
	return &u->entries[u->ranges[lo - 1].entry];
}
