/*
 * The object without CFI of the dwarf-nocfi case: no .eh_frame, no
 * .debug_frame, no frame pointer. Never run, only read for its symbols.
 * Rebuilt with
 *   gcc -O1 -fno-asynchronous-unwind-tables -fno-unwind-tables -fomit-frame-pointer \
 *       -nostdlib -shared -Wl,-z,noseparate-code -Wl,--build-id=none \
 *       -o usr/lib/libnocfi.so nocfi.c
 * Each function is 0x100 bytes of nops and a ret; the specs' addresses
 * are the mapping's start (0x7ffff7fc0000) plus a function's address (nm).
 * nocfi_outer's return address (+0x20) follows a call (e8 00 00 00 00, a
 * call rel32 to the next instruction, never run), as in dwarf-synth's
 * dwarfdemo.c, so that it reads as a return address (src/common/callsite.c).
 */
#define CALL_ENDING_AT(off) ".skip " #off " - 5, 0x90\n\t.byte 0xe8, 0, 0, 0, 0\n\t" \
	".skip 0x100 - " #off ", 0x90"
#define FN_CALLING(sym, off) \
	__attribute__((noinline, used)) void sym(void) { __asm__ volatile(CALL_ENDING_AT(off)); }
#define FN(sym) \
	__attribute__((noinline, used)) void sym(void) { __asm__ volatile(".skip 0x100, 0x90"); }

FN_CALLING(nocfi_outer, 0x20)
FN(nocfi_inner)
