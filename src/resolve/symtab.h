/*
 * The symbol table of one DSO, kept and searched the way perf 6.1 does.
 *
 * Building. Symbols are added in perf's order in batches: each
 * symtab__settle() gives the zero-sized symbols added so far the room up
 * to the next symbol (a page past their page for the last) and keeps one
 * of the aliases at each address (non-zero size, then non-weak, then
 * global, then fewer leading underscores in the shown name, then the
 * longer one, then the first added). Symbols added after the last settle
 * (PLT entries) are kept as they are. symtab__finish() ends building;
 * lookups come after it.
 *
 * Searching. Where symbols overlap, the one perf's red-black tree finds
 * is returned, by replaying perf's inserts and erases (symtree.h).
 *
 * Names are demangled (per the options) and interned in the pool only
 * when first needed. Never fails (allocation failure dies); never prints.
 * Not thread-safe: lookups choose, demangle and intern on demand.
 */
#ifndef JITSYM_SYMTAB_H
#define JITSYM_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strpool;
struct symtab;

struct symbol {
	uint64_t start;            /* DSO address */
	uint64_t size;             /* never 0 except for a symbol the next one starts at */
	const char *name;          /* interned in the cache's pool; demangled per opts */
};

/*
 * An empty table whose names go into pool (borrowed; must outlive the
 * table), demangled with demangle__name(demangle_flags) when demangle.
 * Never NULL.
 */
struct symtab *symtab__new(struct strpool *pool, bool demangle, unsigned int demangle_flags);
/* Accepts NULL. */
void symtab__delete(struct symtab *st);

/*
 * A copy, owned by the table and NUL-terminated after size bytes, of the
 * string table buf; one copy per src (any pointer identifying the table,
 * e.g. its Elf_Data) however often asked for.
 */
const char *symtab__keep_strings(struct symtab *st, const void *src, const char *buf,
				 size_t size);
/*
 * The string table at strs, in a read-only mapping [base, base + len)
 * the table now owns (munmap()s when deleted), NUL-terminated by the
 * caller's check; found again by src like symtab__keep_strings()'s copy.
 * A mapping of the file, not a copy: node's 13 MB of symbol names cost a
 * memcpy and 3,400 page faults at every run, where a mapping's pages come
 * sixteen to a fault, as they are read.
 */
const char *symtab__keep_mapping(struct symtab *st, const void *src, const char *strs,
				 void *base, size_t len);
/* The string table src was kept as, or NULL. */
const char *symtab__kept_strings(struct symtab *st, const void *src);
/*
 * Add a symbol covering [start, end) (end == start: zero-sized) with ELF
 * name raw (borrowed, e.g. from symtab__keep_strings()) and binding bind;
 * plt: a PLT entry, shown as "<raw's shown name>@plt". 0, or -ENOSPC when
 * the table is full (2^32 - 2 symbols).
 */
int symtab__add(struct symtab *st, uint64_t start, uint64_t end, const char *raw,
		uint8_t bind, bool plt);
/* The symbol added last is an STT_GNU_IFUNC (see symtab__ifunc_name()). */
void symtab__mark_ifunc(struct symtab *st);
/*
 * While building, after a settle: the raw name of the settled symbol
 * perf keeps at exactly addr when it or an alias of it there is an IFUNC
 * (how perf 6.12 names an IRELATIVE PLT entry after its resolver's
 * address), else NULL. Borrowed from the table.
 */
const char *symtab__ifunc_name(struct symtab *st, uint64_t addr);
/*
 * The same for any settled symbol perf keeps at exactly addr, IFUNC or
 * not (a resolver whose IFUNC was stripped), else NULL. Borrowed.
 */
const char *symtab__name_at(struct symtab *st, uint64_t addr);
/*
 * While building: end the settled symbols that reach over addr there
 * (a zero-sized _init grown over the .plt that follows it).
 */
void symtab__clip(struct symtab *st, uint64_t addr);
/* A copy of s owned by the table, for names made up while loading. */
const char *symtab__keep_copy(struct symtab *st, const char *s);
/* Symbols added so far, kept or not. */
size_t symtab__nr_added(const struct symtab *st);
/* Settle the symbols added since the last settle; none: does nothing. At most twice. */
void symtab__settle(struct symtab *st);
/* End building. Further calls do nothing. */
void symtab__finish(struct symtab *st);

/* Symbols kept, after symtab__finish(). */
size_t symtab__nr_symbols(const struct symtab *st);
/*
 * The symbol containing addr, or NULL; after symtab__finish(). Owned by
 * the table; the offset perf prints is addr - start.
 */
const struct symbol *symtab__find(struct symtab *st, uint64_t addr);
/*
 * symtab__find() by perf's walk of its tree always, as symtab__find() does
 * only where symbols overlap: for tests, which hold the two to one answer.
 */
const struct symbol *symtab__find_by_tree(struct symtab *st, uint64_t addr);

#endif
