/*
 * jit-cfi: CFI for JIT code from the unwinding rules its runtime wrote
 * (struct jit_unwind, jitmap.h: an .eh_frame and .eh_frame_hdr, as in a
 * jitdump's JIT_CODE_UNWINDING_INFO), for the unwinder (unwind.h).
 *
 * Checking. The rules come from a file, and libdw trusts them more than a
 * file deserves (it sizes a frame's register table by the highest register
 * number the CFI names: one instruction can make it allocate gigabytes).
 * jit_cfi__check() walks every CIE and FDE and each call frame instruction
 * before any of it reaches libdw: lengths and offsets inside the bytes,
 * pointer encodings libdw can read, CIE pointers to a CIE before the FDE,
 * register numbers at most JIT_CFI_REG_MAX, an .eh_frame_hdr table that
 * points at those FDEs.
 *
 * Placement. A runtime writes the .eh_frame right after its code (padded
 * to 8 bytes: jit_unwind.eh_frame_off) and the .eh_frame_hdr right after
 * the .eh_frame, with pc-relative pointers between them; the CFI is made
 * over an ELF image in memory that puts them at JIT_CFI_CODE_BASE +
 * eh_frame_off, so a function's CFI addresses are JIT_CFI_CODE_BASE plus
 * offsets into its code: the bias for code at start is start -
 * JIT_CFI_CODE_BASE.
 *
 * Only x86-64 rules (little-endian bytes) are made into CFI. Not
 * thread-safe.
 */
#ifndef JITSYM_JIT_CFI_H
#define JITSYM_JIT_CFI_H

#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>

struct jit_unwind;

/* The highest DWARF register number a checked rule may name. */
#define JIT_CFI_REG_MAX 127
/* Where a function's code starts in its CFI's address space (not 0: libdw ignores a header at 0). */
#define JIT_CFI_CODE_BASE 0x100000ull

/* What is wrong with unwinding rules (jit_cfi__check()). */
enum jit_cfi_error {
	JIT_CFI_E_TRUNCATED = 1,     /* an entry or field runs past the bytes */
	JIT_CFI_E_BAD_ENTRY,         /* a length, version, augmentation or CIE pointer */
	JIT_CFI_E_BAD_ENCODING,      /* a pointer encoding libdw is not given */
	JIT_CFI_E_BAD_REGISTER,      /* a register number above JIT_CFI_REG_MAX */
	JIT_CFI_E_BAD_INSTRUCTION,   /* an unknown call frame instruction */
	JIT_CFI_E_BAD_HDR,           /* an .eh_frame_hdr that does not point at the FDEs */
	JIT_CFI_E__END,
};

/*
 * Whether u's rules can be handed to libdw: 1 when they can and hold at
 * least one FDE, 0 when they hold none (nothing to unwind by), or minus a
 * JIT_CFI_E_* value.
 */
int jit_cfi__check(const struct jit_unwind *u);
/* What err (negative or positive JIT_CFI_E_*) means; a static string, never NULL. */
const char *jit_cfi__strerror(int err);

/* The CFI made so far, one per struct jit_unwind. */
struct jit_cfi;

struct jit_cfi *jit_cfi__new(void);        /* never NULL */
void jit_cfi__delete(struct jit_cfi *jc);  /* frees every CFI made; accepts NULL */

/*
 * The CFI of u's rules (checked by jit_cfi__check()), made on the first
 * call for u and kept by jc: NULL when libdw cannot read them. u must
 * outlive jc (it is the key). Addresses are as the header says above.
 */
Dwarf_CFI *jit_cfi__get(struct jit_cfi *jc, const struct jit_unwind *u);

#endif
