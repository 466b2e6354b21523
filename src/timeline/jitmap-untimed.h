/*
 * jitmap-untimed: one process's untimed JIT entries, the fallback of the
 * JIT timeline (jitmap-internal.h, jitmap-fallback.c; no one else uses
 * this header).
 *
 * Entries are added in the order their files list them, then indexed once
 * (untimed__index(), O(n log n)): where entries overlap, the later one wins
 * for every address it covers, and the parts of earlier ones it does not
 * cover still resolve to them. Lookups are O(log n).
 */
#ifndef JITSYM_JITMAP_UNTIMED_H
#define JITSYM_JITMAP_UNTIMED_H

#include <stddef.h>
#include <stdint.h>

struct jit_loader;
struct jit_sym;

struct untimed_entry {
	uint64_t start, size;               /* size > 0 */
	const char *name;                   /* in the set's name chunks */
	const char *source;                 /* the file, interned */
	const struct jit_loader *loader;
	struct jit_sym *sym;                /* the caller's, made on first need; not owned */
	/* it repeats a timed load of the same range: not used before this time; 0: always */
	uint64_t not_before;
};

struct untimed_range;
struct untimed_names;

struct untimed {
	struct untimed_entry *entries;      /* in file order */
	size_t nr_entries, alloc_entries;
	struct untimed_range *ranges;       /* the index: sorted, disjoint */
	size_t nr_ranges;
	struct untimed_names *names;        /* the entries' names, packed */
};

#define UNTIMED_INIT { NULL, 0, 0, NULL, 0, NULL }

/* Frees everything; u is empty (UNTIMED_INIT) afterwards. */
void untimed__release(struct untimed *u);
/* Add [start, start + size) named name (copied); size 0 covers nothing and is dropped. */
void untimed__add(struct untimed *u, uint64_t start, uint64_t size, const char *name,
		  const char *source, const struct jit_loader *loader);
/* (Re)build the index over every entry added; lookups see only indexed entries. */
void untimed__index(struct untimed *u);
/* The entry that covers addr, or NULL; valid until the next add or release. */
struct untimed_entry *untimed__find(const struct untimed *u, uint64_t addr);

#endif
