/*
 * inline: the functions whose code a native frame's address holds,
 * innermost first, named as perf names them.
 *
 * perf shows a frame at an address in code the compiler inlined as one
 * frame per function: the inlined ones, innermost first, then the real
 * one. It asks binutils' addr2line (-f -i) of the object's symbol file
 * (its debug file, else the binary), and takes each answer it gets, so
 * the names are binutils':
 *  - where DWARF has a function at the address (a subprogram, or an
 *    inlined subroutine, the deepest one), its linkage name (demangled),
 *    else its DW_AT_name; for a language whose names are mangled (C++,
 *    Rust, D, ...) with no linkage name, the symbol binutils finds there
 *    when that symbol starts where the function does;
 *  - then the functions it was inlined into, outward, up to the first
 *    that was not inlined (the real function, as DWARF names it);
 *  - where DWARF has no function there (assembly), or the file has no
 *    DWARF at all, the symbol binutils finds: of the symbols in the
 *    address's section starting at or before it, those starting last, and
 *    of those the first in the symbol table that no later one outsizes.
 *    That is not always the symbol perf (and jitsym) names the frame
 *    after: of aliases, perf prefers a global one.
 * An address binutils finds nothing for (no symbol, no DWARF) has no
 * answer: the frame stands as it was resolved.
 *
 * inline__lookup() gives these names; session/inline-expand.c makes the
 * frames: every name but the last an inlined frame, the last the real
 * one. Answers are cached per (object, address), so a hot loop reads the
 * DWARF once; each object's files are opened once, read-only. Missing,
 * stripped or corrupt DWARF gives fewer names, never a crash or a message.
 * Not thread-safe: one cache per thread.
 */
#ifndef JITSYM_INLINE_H
#define JITSYM_INLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "resolve/sample.h"

struct strpool;
struct inline_cache;

/* Most functions one address can name (more are dropped, outermost first). */
#define INLINE_MAX_DEPTH 32

/* What the cache did (tests/fuzz/fuzz-inline.c checks it; "jitsym sources" counts frames instead). */
struct inline_stats {
	uint64_t addrs;          /* distinct (object, address) looked up */
	uint64_t addrs_inlined;  /* of them, in inlined code (two names or more) */
	uint64_t files;          /* objects opened */
	uint64_t files_dwarf;    /* of them, with DWARF */
	uint64_t flushes;        /* times the cache was emptied for its size */
};

/* demangle: as --no-demangle leaves it. pool (borrowed) holds the names. */
struct inline_cache *inline_cache__new(struct strpool *pool, bool demangle);
void inline_cache__delete(struct inline_cache *c);     /* accepts NULL */

/*
 * The direct-mapped cache in front of the answers, which struct
 * inline_cache begins with: here so that inline__lookup() is inlined in
 * the session's loop over frames, where a native frame seen before
 * (nearly all of them) costs a multiply and two compares, no call. 2^16
 * slots (2 MB, touched as used): with 2^13, node-large's native addresses
 * (node's own code, no DWARF) evicted each other, and the slow path was
 * 4.4% of its fold; 1.3% now.
 */
#define INLINE_FRONT_BITS 16

struct inline_front {
	const struct obj_view *obj;      /* NULL: an empty slot */
	uint64_t addr;
	const char *const *names;        /* the answer: nr names */
	size_t nr;
};

struct inline_cache_head {
	struct inline_front front[1u << INLINE_FRONT_BITS];
};

/* f's slot of c's front. */
static inline struct inline_front *inline__front_slot(struct inline_cache *c,
						      const struct frame *f)
{
	return &((struct inline_cache_head *)(void *)c)->front[
		(((uintptr_t)f->obj ^ f->elf_addr) * UINT64_C(0x9e3779b97f4a7c15)) >>
		(64 - INLINE_FRONT_BITS)];
}

/* inline__lookup() when the front has no answer for f: finds it and keeps it there. */
size_t inline__lookup_slow(struct inline_cache *c, const struct frame *f,
			   const char *const **names);

/*
 * The functions at native frame f (FRAME_NATIVE with an object and a
 * symbol, or FRAME_KERNEL named from a vmlinux: its object has a file and
 * elf_addr, un-slid, is not 0; else none), innermost first: *names points to n of them,
 * interned, valid until the next lookup. 0: no answer.
 */
static inline size_t inline__lookup(struct inline_cache *c, const struct frame *f,
				    const char *const **names)
{
	const struct inline_front *slot;

	/* a kernel frame has a file and an address there only when a vmlinux named it */
	if ((f->kind != FRAME_NATIVE && f->kind != FRAME_KERNEL) || !f->obj || !f->sym ||
	    (f->kind == FRAME_KERNEL && (!f->obj->file || !f->elf_addr)))
		return 0;
	slot = inline__front_slot(c, f);
	if (slot->obj == f->obj && slot->addr == f->elf_addr) {
		*names = slot->names;
		return slot->nr;
	}
	return inline__lookup_slow(c, f, names);
}

void inline_cache__stats(const struct inline_cache *c, struct inline_stats *out);

#endif
