/*
 * The symbol table of one DSO, chosen as perf 6.1 does: see symtab.h for
 * the rules and symtab__find_in_tree() for where perf's tree shape counts.
 */
#include "common/common.h"
#include "resolve/symtab.h"
#include "common/bsearch.h"
#include "common/radix.h"
#include "resolve/demangle.h"
#include "common/sbuf.h"
#include "common/strpool.h"
#include "resolve/symtree.h"

#include <sys/mman.h>

#include <elf.h>

/* No symbol, in indexes and the tree's links. */
#define NIL SYMTREE_NIL

/* Symbol batches settled at most: .symtab and .dynsym. */
#define SYMTAB_MAX_BATCHES 2
/* Starts in a cache line: the search reads the groups' last starts first. */
#define STARTS_GROUP 8

/*
 * A symbol as read from .symtab or .dynsym, or a PLT entry, kept for the
 * table's life so that names are demangled and interned only when needed.
 */
struct rawsym {
	uint64_t start, end;
	const char *raw;                /* ELF name, in a strings copy; a PLT entry's target */
	const char *shown;              /* display name, NULL until needed */
	uint8_t bind;
	bool plt;                       /* shown is "<target's shown name>@plt" */
	bool ifunc;                     /* an STT_GNU_IFUNC symbol */
};

/*
 * A symbol perf's tree keeps after loading: the alias perf prefers at an
 * address, or a PLT entry. Aliases that differ only in names that take
 * demangling to compare are chosen between at their first lookup.
 */
struct kept {
	struct symbol pub;              /* name NULL until first found, size until chosen */
	uint32_t win;                   /* the rawsym kept; NIL: not chosen yet */
	uint32_t first, count;          /* not chosen: candidates st->alias[first..+count) */
	bool alone;                     /* overlaps no other symbol: no need for the tree */
};

struct strings {
	char *copy;                     /* with a NUL at the end (a mapping's: checked) */
	const void *src;                /* the caller's key, while loading */
	void *map;                      /* copy lies in this mapping, else NULL */
	size_t map_len;
};

/*
 * A node of perf's tree while loading: one symbol, or aliases perf keeps
 * one of, all alike but for names that take demangling to compare.
 */
struct live {
	uint64_t start;
	uint32_t rep;                   /* the one kept, or one that may be */
	uint32_t first, count;          /* count > 1: those that may be, in alias[] */
};

struct symload {
	struct live *live;              /* the tree's nodes, in its order */
	size_t nr_live, alloc_live;
	uint32_t *alias;                /* runs of candidates, in the order perf compares them */
	size_t nr_alias, alloc_alias;
};

struct symtab {
	struct strpool *pool;
	bool demangle;
	unsigned int demangle_flags;
	bool finished;
	struct rawsym *raws;            /* as perf adds them: .symtab, .dynsym, PLT */
	size_t nr_raws, alloc_raws;
	size_t batch_end[SYMTAB_MAX_BATCHES];   /* raws settled in batches [0, end) */
	size_t nr_batches;
	struct symload ld;              /* until symtab__finish() */
	struct kept *syms;              /* sorted by start, equal starts in tree order */
	uint64_t *starts;               /* syms[i].pub.start, for the binary search */
	uint64_t *tops;                 /* the last start of each group of STARTS_GROUP */
	size_t nr_syms;
	uint32_t *alias;                /* the candidates of symbols not chosen yet */
	struct symtree tree;            /* perf's tree, built by the first lookup needing it */
	bool tree_built;
	struct strings *strings;        /* string tables raw names point into */
	size_t nr_strings, alloc_strings;
};

/* The raws settled so far: [0, this). */
static size_t symtab__settled(const struct symtab *st)
{
	return st->nr_batches ? st->batch_end[st->nr_batches - 1] : 0;
}

/* ---- choosing between aliases ---- */

/*
 * Symbols are chosen as perf 6.1 does: it adds them to a red-black tree
 * keyed by start address (equal keys to the right, so in the order added),
 * gives zero-sized ones the room up to the next, keeps one per address
 * (symtab, then again after adding dynsym), adds PLT entries, and searches
 * the tree. Choosing only needs the tree's order, which sorted arrays give;
 * where symbols overlap (a zero-sized _init grown over the .plt entries
 * added after it, nested symbols) the one perf finds depends on the tree's
 * shape too, so lookups there replay perf's tree (see symtab__find_in_tree()).
 */

/* The name shown for raw: demangled when asked for and possible; interned. */
static const char *symtab__shown_name(struct symtab *st, const char *raw)
{
	char *dm = st->demangle ? demangle__name(raw, st->demangle_flags) : NULL;
	const char *name;

	if (!dm)
		return strpool__intern(st->pool, raw);
	name = strpool__intern(st->pool, dm);
	free(dm);
	return name;
}

static const char *rawsym__shown(struct rawsym *r, struct symtab *st)
{
	struct sbuf name;

	if (r->shown)
		return r->shown;
	if (!r->plt) {
		r->shown = symtab__shown_name(st, r->raw);
		return r->shown;
	}
	sbuf_init(&name, SBUF_MAX_SYMNAME);
	sbuf_addf(&name, "%s@plt", symtab__shown_name(st, r->raw));
	r->shown = strpool__intern(st->pool, name.buf);
	sbuf_release(&name);
	return r->shown;
}

/*
 * Of two symbols at one address, is b better by size and binding (> 0),
 * worse (< 0), or as good (0)? perf's preference, before names.
 */
static int rawsym__cmp_kind(const struct rawsym *a, const struct rawsym *b)
{
	bool az = a->end == a->start, bz = b->end == b->start;

	if (az != bz)
		return az ? 1 : -1;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return a->bind == STB_WEAK ? 1 : -1;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return b->bind == STB_GLOBAL ? 1 : -1;
	return 0;
}

/* Of two different shown names, is b better? Fewer leading '_', then longer. */
static bool names__b_wins(const char *a, const char *b)
{
	size_t au = strspn(a, "_"), bu = strspn(b, "_");

	if (au != bu)
		return bu < au;
	return strlen(b) > strlen(a);
}

/* Of two symbols at one address, is b better than a? perf's preference. */
static bool rawsym__b_wins(struct rawsym *a, struct rawsym *b, struct symtab *st)
{
	int kind = rawsym__cmp_kind(a, b);

	if (kind)
		return kind > 0;
	if (!strcmp(a->raw, b->raw))
		return false;   /* .symtab and .dynsym copies: a tie, skip demangling */
	return names__b_wins(rawsym__shown(a, st), rawsym__shown(b, st));
}

/*
 * rawsym__b_wins() for two symbols as good by kind, without interning:
 * 1 or 0, or -1 when that takes demangling a C++ or Rust name, which is
 * left for the first lookup.
 */
static int rawsym__b_wins_cheaply(const struct rawsym *a, const struct rawsym *b,
				  struct symtab *st)
{
	char *da, *db;
	bool ret;

	if (!strcmp(a->raw, b->raw))
		return 0;
	if (!st->demangle)
		return names__b_wins(a->raw, b->raw);
	if (demangle__is_costly(a->raw) || demangle__is_costly(b->raw))
		return -1;
	da = demangle__name(a->raw, st->demangle_flags);
	db = demangle__name(b->raw, st->demangle_flags);
	ret = names__b_wins(da ? da : a->raw, db ? db : b->raw);
	free(da);
	free(db);
	return ret;
}

/* ---- loading: perf's tree, as sorted arrays ---- */

/*
 * The live nodes and the symbols raws[lo..hi) in the tree's order: by
 * start, each added symbol after those already there at its start.
 */
static struct live *symload__merge(struct symtab *st, struct symload *ld, size_t lo, size_t hi,
				   size_t *nr)
{
	size_t n = hi - lo, i = 0, j = 0, k = 0;
	struct radix_item *keys = xmalloc(st_mult(n ? n : 1, sizeof(*keys)));
	struct live *items = xmalloc(st_mult(st_add(ld->nr_live, n) ? ld->nr_live + n : 1,
					     sizeof(*items)));

	for (i = 0; i < n; i++) {
		keys[i].key = st->raws[lo + i].start;
		keys[i].val = lo + i;
	}
	radix_sort(keys, n);
	for (i = 0; i < ld->nr_live || j < n; k++) {
		if (j == n || (i < ld->nr_live && ld->live[i].start <= keys[j].key)) {
			items[k] = ld->live[i++];
		} else {
			items[k] = (struct live){ .start = keys[j].key, .rep = (uint32_t)keys[j].val,
						  .first = NIL, .count = 1 };
			j++;
		}
	}
	free(keys);
	*nr = k;
	return items;
}

/* Where perf ends a zero-sized symbol with nothing after it: a page past its page. */
static uint64_t last_end(uint64_t start)
{
	uint64_t up = start > UINT64_MAX - 4095 ? UINT64_MAX : (start + 4095) & ~(uint64_t)4095;

	return up > UINT64_MAX - 4096 ? UINT64_MAX : up + 4096;
}

/*
 * Set the end of a zero-sized node. Aliases that may still be kept are
 * all zero-sized then (a sized one would have won), and whichever perf
 * kept would get this end, so all get it.
 */
static void symload__set_end(struct symtab *st, const uint32_t *alias, const struct live *l,
			     uint64_t end)
{
	uint32_t i;

	if (l->count == 1) {
		st->raws[l->rep].end = end;
		return;
	}
	for (i = 0; i < l->count; i++)
		st->raws[alias[l->first + i]].end = end;
}

static void symload__push_alias(struct symload *ld, uint32_t idx)
{
	ALLOC_GROW(ld->alias, ld->nr_alias + 1, ld->alloc_alias);
	ld->alias[ld->nr_alias++] = idx;
}

/*
 * Compare node l, the last one at its address, with y, the next symbol
 * there, as perf's settling does: y wins, loses, or joins the aliases to
 * compare by name later. l's aliases are the last run in ld->alias.
 */
static void symload__fold(struct symtab *st, struct symload *ld, struct live *l, uint32_t y)
{
	int kind = rawsym__cmp_kind(&st->raws[l->rep], &st->raws[y]), cheap;

	if (kind > 0) {
		if (l->count > 1)
			ld->nr_alias = l->first;
		l->rep = y;
		l->first = NIL;
		l->count = 1;
		return;
	}
	if (kind < 0)
		return;   /* y loses to every alias that may be kept */
	if (l->count == 1) {
		cheap = rawsym__b_wins_cheaply(&st->raws[l->rep], &st->raws[y], st);
		if (cheap >= 0) {
			if (cheap)
				l->rep = y;
			return;
		}
		l->first = (uint32_t)ld->nr_alias;
		symload__push_alias(ld, l->rep);
	}
	symload__push_alias(ld, y);
	l->count++;
}

/*
 * Add raws[lo..hi) to the tree and settle it as perf does: zero-sized
 * symbols extend to the next node, then one node is kept per address.
 */
static void symload__settle(struct symtab *st, struct symload *ld, size_t lo, size_t hi)
{
	uint32_t *old_alias = ld->alias;
	struct live *items;
	size_t n, i;

	items = symload__merge(st, ld, lo, hi, &n);
	for (i = 0; i < n; i++) {
		const struct rawsym *r = &st->raws[items[i].rep];

		if (r->end == r->start)
			symload__set_end(st, old_alias, &items[i],
					 i + 1 < n ? items[i + 1].start : last_end(r->start));
	}
	ld->alias = NULL;
	ld->nr_alias = ld->alloc_alias = 0;
	ld->nr_live = 0;
	for (i = 0; i < n; i++) {
		struct live l = items[i];

		if (ld->nr_live && ld->live[ld->nr_live - 1].start == l.start) {
			/* only the symbols just added share an address with a node */
			if (l.count != 1)
				BUG("two settled nodes at one address");
			symload__fold(st, ld, &ld->live[ld->nr_live - 1], l.rep);
			continue;
		}
		if (l.count > 1) {
			uint32_t k, first = (uint32_t)ld->nr_alias;

			for (k = 0; k < l.count; k++)
				symload__push_alias(ld, old_alias[l.first + k]);
			l.first = first;
		}
		ALLOC_GROW(ld->live, ld->nr_live + 1, ld->alloc_live);
		ld->live[ld->nr_live++] = l;
	}
	free(old_alias);
	free(items);
}

/*
 * The furthest address a node may cover, one past the start for a
 * zero-sized one (a lookup of its start finds it).
 */
static uint64_t symtab__reach(struct symtab *st, const struct kept *s)
{
	uint64_t start = s->pub.start, end = start;
	uint32_t i;

	if (s->win != NIL)
		end = st->raws[s->win].end;
	else
		for (i = 0; i < s->count; i++)
			if (st->raws[st->alias[s->first + i]].end > end)
				end = st->raws[st->alias[s->first + i]].end;
	return end == start && start < UINT64_MAX ? start + 1 : end;
}

/*
 * Add the PLT entries (not settled) and keep the tree's nodes as st->syms.
 * A symbol is alone when no other one overlaps it: then any search of
 * perf's tree for an address inside it finds it, and one past it finds
 * nothing, so no tree is needed there.
 */
static void symtab__set_symbols(struct symtab *st, struct symload *ld)
{
	struct live *items;
	uint64_t prev_reach = 0;
	size_t n, i;

	items = symload__merge(st, ld, symtab__settled(st), st->nr_raws, &n);
	st->syms = xcalloc(n ? n : 1, sizeof(*st->syms));
	st->starts = xcalloc(n ? n : 1, sizeof(*st->starts));
	st->alias = ld->alias;
	ld->alias = NULL;
	for (i = 0; i < n; i++) {
		struct kept *s = &st->syms[i];

		s->pub.start = st->starts[i] = items[i].start;
		s->win = NIL;
		if (items[i].count == 1) {
			s->win = items[i].rep;
			s->pub.size = st->raws[s->win].end - s->pub.start;
		}
		s->first = items[i].first;
		s->count = items[i].count;
	}
	for (i = 0; i < n; i++) {
		struct kept *s = &st->syms[i];
		uint64_t reach = symtab__reach(st, s);

		s->alone = (!i || prev_reach <= s->pub.start) && reach > s->pub.start &&
			   (i + 1 == n || reach <= st->starts[i + 1]);
		if (reach > prev_reach)
			prev_reach = reach;
	}
	st->nr_syms = n;
	st->tops = xcalloc(n / STARTS_GROUP + 1, sizeof(*st->tops));
	for (i = 0; i < n; i += STARTS_GROUP)
		st->tops[i / STARTS_GROUP] = st->starts[i + STARTS_GROUP <= n ? i + STARTS_GROUP - 1 : n - 1];
	free(items);
}

/* Choose among the aliases of s by name, as perf's settling did. */
static void symtab__choose(struct symtab *st, struct kept *s)
{
	uint32_t w, i;

	if (s->win != NIL)
		return;
	w = st->alias[s->first];
	for (i = 1; i < s->count; i++)
		if (rawsym__b_wins(&st->raws[w], &st->raws[st->alias[s->first + i]], st))
			w = st->alias[s->first + i];
	s->win = w;
	s->pub.size = st->raws[w].end - s->pub.start;
}

static const struct symbol *symtab__named(struct symtab *st, struct kept *s)
{
	if (!s->pub.name)
		s->pub.name = rawsym__shown(&st->raws[s->win], st);
	return &s->pub;
}

/* The number of symbols starting at or before addr. */
/*
 * The first symbol starting above addr (nr_syms if none). node's ~100,000
 * symbols are 800 KB of starts: the binary search runs over the groups'
 * last starts (100 KB, which stay cached), then over one line of starts.
 */
static size_t symtab__upper(const struct symtab *st, uint64_t addr)
{
	size_t lo = bsearch_last_le_u64(st->tops, (st->nr_syms + STARTS_GROUP - 1) / STARTS_GROUP,
					addr) * STARTS_GROUP;
	size_t hi;

	if (lo >= st->nr_syms)
		return st->nr_syms;
	hi = lo + STARTS_GROUP < st->nr_syms ? lo + STARTS_GROUP : st->nr_syms;
	return lo + bsearch_last_le_u64(st->starts + lo, hi - lo, addr);
}


/*
 * Keep one node per address, in address order, as perf does. The ends
 * were fixed while loading (fixing them again would change nothing).
 */
static void symtab__settle_tree(struct symtab *st, struct symtree *t)
{
	uint32_t x = symtree__first(t), y;

	while (x != NIL && (y = symtree__next(t, x)) != NIL) {
		if (st->raws[x].start != st->raws[y].start) {
			x = y;
		} else if (rawsym__b_wins(&st->raws[x], &st->raws[y], st)) {
			symtree__erase(t, x);
			x = y;
		} else {
			symtree__erase(t, y);
		}
	}
}

/* Build perf's tree with the same inserts and erases as perf. */
static void symtab__build_tree(struct symtab *st)
{
	size_t b, i = 0;

	symtree__init(&st->tree, st->nr_raws);
	for (b = 0; b < st->nr_batches; b++) {
		for (; i < st->batch_end[b]; i++)
			symtree__add(&st->tree, (uint32_t)i, st->raws[i].start);
		symtab__settle_tree(st, &st->tree);
	}
	for (; i < st->nr_raws; i++)
		symtree__add(&st->tree, (uint32_t)i, st->raws[i].start);
	st->tree_built = true;
}

/* The kept symbol rawsym x is, after choosing among aliases at its address. */
static struct kept *symtab__sym_of(struct symtab *st, uint32_t x)
{
	uint64_t start = st->raws[x].start;
	size_t i = symtab__upper(st, start);

	while (i-- > 0 && st->starts[i] == start) {
		symtab__choose(st, &st->syms[i]);
		if (st->syms[i].win == x)
			return &st->syms[i];
	}
	BUG("symbol %u found in the tree is not kept", x);
}

/* Search the way perf's symbols__find() walks its tree. */
static const struct symbol *symtab__find_in_tree(struct symtab *st, uint64_t addr)
{
	uint32_t x;

	if (!st->tree_built)
		symtab__build_tree(st);
	for (x = st->tree.root; x != NIL; ) {
		const struct rawsym *r = &st->raws[x];

		if (addr < r->start)
			x = st->tree.v[x].left;
		else if (addr - r->start >= r->end - r->start &&
			 !(addr == r->start && r->end == r->start))
			x = st->tree.v[x].right;
		else
			return symtab__named(st, symtab__sym_of(st, x));
	}
	return NULL;
}


/* ---- building and searching ---- */

struct symtab *symtab__new(struct strpool *pool, bool demangle, unsigned int demangle_flags)
{
	struct symtab *st = xcalloc(1, sizeof(*st));

	st->pool = pool;
	st->demangle = demangle;
	st->demangle_flags = demangle_flags;
	st->tree.root = NIL;
	return st;
}

void symtab__delete(struct symtab *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nr_strings; i++) {
		if (st->strings[i].map)
			munmap(st->strings[i].map, st->strings[i].map_len);
		else
			free(st->strings[i].copy);
	}
	free(st->strings);
	free(st->raws);
	free(st->ld.live);
	free(st->ld.alias);
	free(st->syms);
	free(st->starts);
	free(st->tops);
	free(st->alias);
	symtree__release(&st->tree);
	free(st);
}

const char *symtab__kept_strings(struct symtab *st, const void *src)
{
	size_t i;

	for (i = 0; i < st->nr_strings; i++)
		if (st->strings[i].src && st->strings[i].src == src)
			return st->strings[i].copy;
	return NULL;
}

const char *symtab__keep_mapping(struct symtab *st, const void *src, const char *strs,
				 void *base, size_t len)
{
	struct strings *k;

	ALLOC_GROW(st->strings, st->nr_strings + 1, st->alloc_strings);
	k = &st->strings[st->nr_strings++];
	k->copy = (char *)strs;
	k->src = src;
	k->map = base;
	k->map_len = len;
	return strs;
}

const char *symtab__keep_strings(struct symtab *st, const void *src, const char *buf,
				 size_t size)
{
	const char *kept = symtab__kept_strings(st, src);
	char *copy;

	if (kept)
		return kept;
	copy = xmalloc(st_add(size, 1));
	memcpy(copy, buf, size);
	copy[size] = '\0';
	ALLOC_GROW(st->strings, st->nr_strings + 1, st->alloc_strings);
	memset(&st->strings[st->nr_strings], 0, sizeof(st->strings[0]));
	st->strings[st->nr_strings].copy = copy;
	st->strings[st->nr_strings++].src = src;
	return copy;
}

int symtab__add(struct symtab *st, uint64_t start, uint64_t end, const char *raw,
		uint8_t bind, bool plt)
{
	struct rawsym *r;

	if (st->finished)
		BUG("symbol added after symtab__finish()");
	if (st->nr_raws >= NIL - 1)
		return -ENOSPC;
	ALLOC_GROW(st->raws, st->nr_raws + 1, st->alloc_raws);
	r = &st->raws[st->nr_raws++];
	memset(r, 0, sizeof(*r));
	r->start = start;
	r->end = end;
	r->raw = raw;
	r->bind = bind;
	r->plt = plt;
	return 0;
}

void symtab__mark_ifunc(struct symtab *st)
{
	if (!st->nr_raws || st->finished)
		BUG("symtab__mark_ifunc() with no symbol to mark");
	st->raws[st->nr_raws - 1].ifunc = true;
}

/* Any settled symbol at start an IFUNC? */
static bool symtab__ifunc_at(const struct symtab *st, uint64_t start)
{
	size_t i, n = symtab__settled(st);

	for (i = 0; i < n; i++)
		if (st->raws[i].start == start && st->raws[i].ifunc)
			return true;
	return false;
}

/* The raw name perf keeps at exactly addr; with ifunc, only where an IFUNC is there. */
static const char *settled_name_at(struct symtab *st, uint64_t addr, bool ifunc)
{
	const struct symload *ld = &st->ld;
	size_t lo = 0, hi = ld->nr_live;
	const struct live *l;
	uint32_t w, i;

	if (st->finished)
		BUG("symtab name lookups after symtab__finish()");
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ld->live[mid].start < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ld->nr_live || ld->live[lo].start != addr || (ifunc && !symtab__ifunc_at(st, addr)))
		return NULL;
	l = &ld->live[lo];
	if (l->count == 1)
		return st->raws[l->rep].raw;
	/* aliases alike but for their names: choose as the settling would */
	w = ld->alias[l->first];
	for (i = 1; i < l->count; i++)
		if (rawsym__b_wins(&st->raws[w], &st->raws[ld->alias[l->first + i]], st))
			w = ld->alias[l->first + i];
	return st->raws[w].raw;
}

const char *symtab__ifunc_name(struct symtab *st, uint64_t addr)
{
	return settled_name_at(st, addr, true);
}

const char *symtab__name_at(struct symtab *st, uint64_t addr)
{
	return settled_name_at(st, addr, false);
}

void symtab__clip(struct symtab *st, uint64_t addr)
{
	size_t i, n = symtab__settled(st);

	if (st->finished)
		BUG("symtab__clip() after symtab__finish()");
	for (i = 0; i < n; i++)
		if (st->raws[i].start < addr && st->raws[i].end > addr)
			st->raws[i].end = addr;
}

const char *symtab__keep_copy(struct symtab *st, const char *s)
{
	size_t len = strlen(s);
	char *copy = xmalloc(st_add(len, 1));

	memcpy(copy, s, len + 1);
	ALLOC_GROW(st->strings, st->nr_strings + 1, st->alloc_strings);
	memset(&st->strings[st->nr_strings], 0, sizeof(st->strings[0]));
	st->strings[st->nr_strings].copy = copy;
	st->strings[st->nr_strings++].src = NULL;
	return copy;
}

size_t symtab__nr_added(const struct symtab *st)
{
	return st->nr_raws;
}

void symtab__settle(struct symtab *st)
{
	size_t lo = symtab__settled(st);

	if (st->finished)
		BUG("symtab__settle() after symtab__finish()");
	if (lo == st->nr_raws)
		return;
	if (st->nr_batches == SYMTAB_MAX_BATCHES)
		BUG("more than %d symbol batches settled", SYMTAB_MAX_BATCHES);
	symload__settle(st, &st->ld, lo, st->nr_raws);
	st->batch_end[st->nr_batches++] = st->nr_raws;
}

void symtab__finish(struct symtab *st)
{
	if (st->finished)
		return;
	symtab__set_symbols(st, &st->ld);
	free(st->ld.live);
	free(st->ld.alias);
	memset(&st->ld, 0, sizeof(st->ld));
	st->finished = true;
}

const struct symbol *symtab__find_by_tree(struct symtab *st, uint64_t addr)
{
	if (!st->finished)
		BUG("symtab__find_by_tree() before symtab__finish()");
	return symtab__find_in_tree(st, addr);
}

size_t symtab__nr_symbols(const struct symtab *st)
{
	return st->nr_syms;
}

/*
 * A symbol no other overlaps is found by a binary search; elsewhere perf's
 * tree decides.
 */
const struct symbol *symtab__find(struct symtab *st, uint64_t addr)
{
	struct kept *s;
	size_t i;

	if (!st->finished)
		BUG("symtab__find() before symtab__finish()");
	i = symtab__upper(st, addr);
	if (!i)
		return NULL;
	s = &st->syms[i - 1];
	if (!s->alone)
		return symtab__find_in_tree(st, addr);
	symtab__choose(st, s);
	if (addr - s->pub.start >= s->pub.size && !(addr == s->pub.start && !s->pub.size))
		return NULL;
	return symtab__named(st, s);
}
