/*
 * unwind-space: where the unwinder (unwind.h) finds CFI for a pc of one
 * process at the current time: the mapping that covers the pc
 * (machine.h), the DSO behind it as the resolver knows it (resolve.h), its
 * .eh_frame and then .debug_frame (dso.h, elf-image.h), and the bias
 * dso__map_ip() gives. Objects are DSOs; names are the mapped file names.
 *
 * JIT code (anonymous memory, a jitdump marker, no mapping) is looked up
 * in the JIT timeline (jitmap.h) at the current time: a function with
 * unwinding rules (a jitdump's JIT_CODE_UNWINDING_INFO) has the CFI
 * jit-cfi.h makes of them, its object the rules (identical rules are one
 * object, at a bias per function); anything else has no object, and the
 * walk falls back to the frame pointer there.
 */
#ifndef JITSYM_UNWIND_SPACE_H
#define JITSYM_UNWIND_SPACE_H

#include "timeline/machine.h"
#include "unwind/unwind.h"

struct resolver;
struct proc;
struct jitmap;
struct jit_cfi;

#define UNWIND_SPACE_AT_BITS 12

/*
 * An answer for a process's pc, valid while proc__generation_at() gives
 * the same (what is mapped there, and JIT code there, did not change).
 */
struct unwind_space_at {
	const struct proc *proc;     /* NULL: empty */
	uint64_t pc, gen;
	int ret;
	bool after_call;
	struct unwind_cfi cfi;
};

/*
 * The context of the space: the first four borrowed, set by the caller;
 * set proc before each walk. The rest is the space's own (zero it once).
 */
struct unwind_space_machine {
	struct resolver *resolver;   /* whose DSOs (and their CFI) are used */
	struct proc *proc;           /* the sampled process; NULL: nothing is mapped */
	struct jitmap *jitmap;       /* JIT code, advanced to the sample's time; NULL: none */
	struct jit_cfi *jit_cfi;     /* where JIT CFI is made and kept; NULL: none made */
	/*
	 * The mapping found last in this walk (nothing changes during one):
	 * the next pc is mostly in it, and whether a call ends before a pc
	 * and the CFI for pc - 1 are asked one after the other.
	 */
	struct map_hit last;
	bool last_valid;
	/* the primary CFI found for a pc; whether a call ends before one in JIT code */
	struct unwind_space_at finds[1u << UNWIND_SPACE_AT_BITS];
	struct unwind_space_at jit_calls[1u << UNWIND_SPACE_AT_BITS];
};

/*
 * The space over m (borrowed: it must outlive the walks), for one walk.
 * The DSOs, their CFI and names live as long as the resolver.
 */
struct unwind_space unwind_space_machine__space(struct unwind_space_machine *m);

#endif
