/*
 * The object without CFI of the dwarf-nocfi case: no .eh_frame, no
 * .debug_frame, no frame pointer. Never run, only read for its symbols.
 * Rebuilt with
 *   gcc -O1 -fno-asynchronous-unwind-tables -fno-unwind-tables -fomit-frame-pointer \
 *       -nostdlib -shared -Wl,-z,noseparate-code -Wl,--build-id=none \
 *       -o usr/lib/libnocfi.so nocfi.c
 * Each function is 0x100 bytes of nops and a ret; the specs' addresses
 * are the mapping's start (0x7ffff7fc0000) plus a function's address (nm).
 */
#define FN(sym) \
	__attribute__((noinline, used)) void sym(void) { __asm__ volatile(".skip 0x100, 0x90"); }

FN(nocfi_outer)
FN(nocfi_inner)
