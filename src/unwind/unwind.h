/*
 * unwind: walk a sampled user stack (PERF_SAMPLE_REGS_USER +
 * PERF_SAMPLE_STACK_USER, "perf record --call-graph dwarf") from the
 * sampled registers to the callers' return addresses, by the DWARF call
 * frame information (CFI) of the code at each pc, evaluated with libdw
 * (dwarf_cfi_addrframe(), dwarf_frame_cfa(), dwarf_frame_register()), and
 * by the frame pointer (rbp chain) where no CFI covers a pc.
 *
 * Where CFI comes from is the caller's business: struct unwind_space maps
 * a process pc to an object, its CFI and the bias between the two address
 * spaces (unwind-space.h has the one for native code of a process).
 *
 * Safety. Every memory read is one of the dump's bytes: [sp, sp + size)
 * where sp is the sampled stack pointer; the CFA must strictly grow from
 * frame to frame, expressions run without branches on a bounded stack, and
 * the walk is bounded by the caller's array, so hostile registers, stack
 * bytes or CFI end a walk early, never loop or read elsewhere.
 *
 * Speed. The rules for a (object, pc) are evaluated once through libdw and
 * kept in a fixed-size cache, so a hot pc costs a hash lookup.
 *
 * Only x86-64 recordings (64-bit processes) are unwound; anything else
 * ends as UNWIND_END_UNSUPPORTED. The dump may come from any host: it is
 * read as little-endian bytes. Not thread-safe.
 */
#ifndef JITSYM_UNWIND_H
#define JITSYM_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>

/* The sampled user registers, as PERF_SAMPLE_REGS_USER carries them. */
struct unwind_regs {
	uint64_t abi;                /* PERF_SAMPLE_REGS_ABI_64 etc.; 0: none */
	uint64_t mask;               /* bit i: perf register i present (asm/perf_regs.h) */
	const uint64_t *regs;        /* popcount(mask) values, in bit order; borrowed */
};

/* Which of an object's CFI unwind_space.find() is asked for. */
enum unwind_cfi_which {
	UNWIND_CFI_PRIMARY,          /* .eh_frame (or a JIT's unwinding info) */
	UNWIND_CFI_FALLBACK,         /* .debug_frame, of the debug file or the binary */
};

/* What unwind_space.find() says about a pc. */
struct unwind_cfi {
	Dwarf_CFI *cfi;              /* NULL: the object has no CFI of this kind */
	uint64_t bias;               /* pc - bias is the CFI's address for pc */
	const void *object;          /* identity of the object, for the rule cache */
	const char *name;            /* for "no CFI for NAME"; borrowed, outlives the unwinder */
};

/*
 * How CFI is found for a process pc. find() returns 0 when pc lies in a
 * known object (out->object, ->name and ->bias set; out->cfi may be NULL),
 * or a negative errno when it lies in no object whose CFI could be asked
 * (out->name may still name the mapping); the walk then tries the frame
 * pointer. Rules are cached by (object, pc - bias): an object identity
 * must keep standing for the same CFI while the unwinder lives, and the
 * CFI must stay valid during a walk (call unwinder__flush() before an
 * identity is reused for other code).
 */
struct unwind_space {
	void *ctx;
	int (*find)(void *ctx, uint64_t pc, enum unwind_cfi_which which,
		    struct unwind_cfi *out);
	/*
	 * Whether a caller's pc is a return address (the code before it ends
	 * in a call), so that its rules are those of pc - 1; false: pc was
	 * pushed without a call, its rules are pc's. NULL: always true.
	 */
	bool (*after_call)(void *ctx, uint64_t pc);
};

/* Why a walk ended. */
enum unwind_end {
	UNWIND_END_COMPLETE,         /* the outermost frame: return address undefined, or pc 0 */
	UNWIND_END_NO_CFI,           /* no CFI (nor a frame-pointer chain) for res->object */
	UNWIND_END_STACK_SHORT,      /* needed bytes past the dump: "--call-graph dwarf,SIZE" */
	UNWIND_END_BAD_RULE,         /* an expression it cannot evaluate, or a CFA not growing */
	UNWIND_END_FP_LEFT,          /* the frame-pointer chain left the dump */
	UNWIND_END_DEPTH,            /* the caller's array is full */
	UNWIND_END_NO_REGS,          /* the sample lacks the ip or the stack pointer */
	UNWIND_END_UNSUPPORTED,      /* not an x86-64 64-bit process */
	/*
	 * Not the unwinder's: a caller that knows JIT code (user-stack.c) turns
	 * an UNWIND_END_NO_CFI at a JIT function without unwinding rules (a
	 * perf map's, a jitdump's without JIT_CODE_UNWINDING_INFO) into this.
	 */
	UNWIND_END_JIT_NO_CFI,
	UNWIND_END__NR
};

/* How a walk went. */
struct unwind_result {
	enum unwind_end end;
	const char *object;          /* UNWIND_END_NO_CFI: the object's name ("[unknown]": none) */
	uint64_t pc;                 /* the pc where the walk ended (0: none) */
	/*
	 * UNWIND_END_STACK_SHORT: how many bytes of dump from the sampled sp the
	 * last step needed (a multiple of 8; 0: not known), a lower bound of
	 * the SIZE in "--call-graph dwarf,SIZE" that would have let it go on.
	 */
	uint64_t stack_need;
	size_t nr_cfi, nr_fp;        /* caller frames found by CFI, by frame pointer */
};

struct unwind_opts {
	const char *arch;            /* perf's header arch ("x86_64"); NULL: x86_64 */
	unsigned cache_bits;         /* log2 of the rule cache's slots; 0: a default (14) */
};

/* Rule cache counters, for benchmarks and tests. */
struct unwind_stats {
	uint64_t lookups;            /* rule lookups, one per frame with an object */
	uint64_t hits;               /* of which answered by the cache */
};

struct unwinder;

/* A new unwinder; opts may be NULL (defaults). Never NULL. */
struct unwinder *unwinder__new(const struct unwind_opts *opts);
/* Frees the unwinder and its cache. Accepts NULL. */
void unwinder__delete(struct unwinder *u);
/* Forget every cached rule (objects or their CFI were replaced). */
void unwinder__flush(struct unwinder *u);
void unwinder__stats(const struct unwinder *u, struct unwind_stats *st);

/*
 * Walk from regs over the stack dump (stack_size bytes copied from the
 * sampled stack pointer upward; borrowed) through space. Writes up to max
 * addresses to ips, leaf first: ips[0] the sampled ip, then each caller's
 * return address; returns how many, and why it stopped in *res (res->object
 * borrowed from space). Never fails otherwise.
 */
size_t unwinder__unwind(struct unwinder *u, const struct unwind_regs *regs,
			const uint8_t *stack, uint64_t stack_size,
			const struct unwind_space *space, uint64_t *ips, size_t max,
			struct unwind_result *res);

/*
 * A short lowercase description of an end ("stack dump too short"); never
 * NULL. The fix, where there is one to name, is unwind_end__fix()'s.
 */
const char *unwind_end__name(enum unwind_end end);
/*
 * What would let stacks that ended so go on, as a line's tail ("record a
 * larger dump: ..."), or NULL when there is nothing to tell. need: the
 * most bytes a walk needed (unwind_result.stack_need), 0: not known.
 * Written into buf (size bytes); returns buf or NULL.
 */
const char *unwind_end__fix(enum unwind_end end, uint64_t need, char *buf, size_t size);

#endif
