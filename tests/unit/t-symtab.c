/*
 * Unit tests for src/resolve/symtab.c: symtab__find() answers as perf's
 * tree walk (symtab__find_by_tree()) does at every address, on random
 * tables of nested, overlapping, zero-sized and aliased symbols with PLT
 * entries added after the last settle: the binary search it uses where
 * no symbol overlaps another must never part from the walk.
 */
#include "common/common.h"
#include "resolve/symtab.h"
#include "common/strpool.h"

#include <elf.h>

/* the project's one test harness: T(name, cond), test_done() */
#include "test.h"

/* A fixed xorshift, so that every run tests the same tables. */
static uint64_t rnd_state;

static uint64_t rnd(uint64_t n)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return n ? rnd_state % n : 0;
}

/* Addresses 0x1000..0x1000 + SPAN; names from a small set, so that aliases meet. */
#define BASE 0x1000u
#define SPAN 600u

static const char *const names[] = { "a", "b", "_Z1fv", "_Z1gi", "main", "z", "x@@V", "y" };

static void add_random(struct symtab *st, size_t n, bool plt)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t start = BASE + rnd(SPAN), len;

		switch (rnd(6)) {
		case 0:  len = 0; break;                        /* zero-sized */
		case 1:  len = 100 + rnd(300); break;           /* covers others */
		default: len = 1 + rnd(24); break;
		}
		symtab__add(st, start, start + len, names[rnd(ARRAY_SIZE(names))],
			    rnd(3) ? STB_GLOBAL : STB_LOCAL, plt);
	}
}

static bool same(const struct symbol *a, const struct symbol *b)
{
	if (!a || !b)
		return a == b;
	return a->start == b->start && a->size == b->size && !strcmp(a->name, b->name);
}

static void test_symtab__find_as_tree(struct strpool *pool)
{
	size_t round, tables = 0, agree = 0, lookups = 0, shortcut = 0;

	rnd_state = 0x9e3779b97f4a7c15ULL;
	for (round = 0; round < 300; round++) {
		struct symtab *st = symtab__new(pool, round & 1, 0);
		uint64_t addr;
		bool all = true;

		add_random(st, 1 + rnd(40), false);
		symtab__settle(st);
		if (rnd(2)) {
			add_random(st, rnd(20), false);
			symtab__settle(st);
		}
		add_random(st, rnd(6), true);
		symtab__finish(st);
		for (addr = BASE - 2; addr < BASE + SPAN + 450; addr++) {
			const struct symbol *tree = symtab__find_by_tree(st, addr);
			const struct symbol *found = symtab__find(st, addr);

			lookups++;
			shortcut += found != NULL;
			if (!same(found, tree))
				all = false;
		}
		tables++;
		agree += all;
		symtab__delete(st);
	}
	T("find: 300 random tables", tables == 300);
	T("find: perf's walk's answer at every address of every table", agree == tables);
	T("find: the tables name most addresses", shortcut > lookups / 2);
}

int main(void)
{
	struct strpool *pool = strpool__new();

	test_symtab__find_as_tree(pool);
	strpool__delete(pool);
	return test_done();
}
