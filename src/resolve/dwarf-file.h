/*
 * dwarf-file: one object's DWARF, opened read-only for lookups by
 * address, shared by srcline.c (source lines) and inline.c (the functions
 * inlined at an address).
 *
 * The file is the object view's symfile (a debug file, or the binary),
 * then its file (the binary) when the symfile has no DWARF. A file
 * without usable DWARF gives a struct with dw NULL: every lookup answers
 * "nothing", never a crash and never a message. Lookups are bounded
 * against corrupt DWARF (nesting depth, DIEs visited). Not thread-safe:
 * one owner per struct.
 */
#ifndef JITSYM_DWARF_FILE_H
#define JITSYM_DWARF_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>
#include <uthash.h>

#include "resolve/sample.h"

/* Deepest chain of function scopes kept for one address. */
#define DWARF_MAX_SCOPES 32

/* A compilation unit's address range, for files without .debug_aranges. */
struct cu_range {
	uint64_t lo, hi;        /* [lo, hi) */
	Dwarf_Die cu;
};

struct cu_scopes;
struct dwarf_cache_map;

struct dwarf_file {
	const struct obj_view *obj;  /* key of its owner's table */
	const char *path;       /* the file dw was read from (obj's), or NULL */
	int fd;
	Elf *elf;
	Dwarf *dw;              /* NULL: no usable DWARF */
	void **inflated;        /* sections inflated for libdw: freed after elf_end() */
	size_t nr_inflated, alloc_inflated;
	struct dwarf_cache_map *cached;   /* sections read from the DWARF cache, mapped */
	struct cu_range *ranges;   /* sorted by lo; built on the first aranges miss */
	size_t nr_ranges, alloc_ranges;
	bool ranges_built;
	uint64_t plt[4][2];     /* [lo, hi) of its PLT sections: no CU covers them */
	int nr_plt;             /* -1: not read yet */
	struct cu_scopes *scopes;  /* per CU looked into: where its walks may start */
	UT_hash_handle hh;
};

/*
 * Open obj's DWARF (symfile, else file). Never NULL. lines: for line
 * lookups (srcline.c); without, the handle serves only function lookups
 * (inline.c) and its file's line tables are not read, nor inflated when
 * compressed: dwarf_getsrc_die() and the like find nothing in it.
 */
struct dwarf_file *dwarf_file__open(const struct obj_view *obj, bool lines);
/* Closes and frees. Accepts NULL. */
void dwarf_file__delete(struct dwarf_file *df);

/* The compilation unit holding addr: .debug_aranges first, else the CUs' ranges. */
bool dwarf_file__find_cu(struct dwarf_file *df, uint64_t addr, Dwarf_Die *cu);

/*
 * The subprogram and inlined-subroutine DIEs of cu (one of df's)
 * containing pc, outermost first, into chain (at most max); how many.
 * The first lookup in a CU lists the scopes a walk may start at (those
 * outside any other scope, through namespaces and classes) with their
 * address ranges; df keeps the list until it is deleted.
 */
size_t dwarf_file__scopes(struct dwarf_file *df, Dwarf_Die *cu, uint64_t pc, Dwarf_Die *chain,
			  size_t max);

#endif
