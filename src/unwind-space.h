/*
 * unwind-space: where the unwinder (unwind.h) finds CFI for a pc of one
 * process at the current time: the mapping that covers the pc
 * (machine.h), the DSO behind it as the resolver knows it (resolve.h), its
 * .eh_frame and then .debug_frame (dso.h, elf-image.h), and the bias
 * dso__map_ip() gives. Objects are DSOs; names are the mapped file names.
 *
 * JIT code (anonymous memory, a jitdump marker, no mapping) has no CFI
 * here yet: the walk falls back to the frame pointer there. Unwinding
 * rules from jitdump JIT_CODE_UNWINDING_INFO records belong in
 * unwind-space.c's jit_find().
 */
#ifndef JITSYM_UNWIND_SPACE_H
#define JITSYM_UNWIND_SPACE_H

#include "unwind.h"

struct resolver;
struct proc;

/* The context of the space: both borrowed; set proc before each walk. */
struct unwind_space_machine {
	struct resolver *resolver;   /* whose DSOs (and their CFI) are used */
	struct proc *proc;           /* the sampled process; NULL: nothing is mapped */
};

/*
 * The space over m (borrowed: it must outlive the walks). The DSOs, their
 * CFI and names live as long as the resolver.
 */
struct unwind_space unwind_space_machine__space(struct unwind_space_machine *m);

#endif
