/*
 * The native code of the dwarf-synth case. Never run, only read for its
 * symbols and its .eh_frame (the unwinder's CFI: each function leaves the
 * stack as it found it, so CFA = rsp + 8 and the return address is at
 * CFA - 8). Rebuilt with
 *   gcc -O1 -fasynchronous-unwind-tables -nostdlib -shared \
 *       -Wl,-z,noseparate-code -Wl,--build-id=none -o usr/bin/dwarfdemo dwarfdemo.c
 * Each function is 0x100 bytes of nops and a ret; dwarf.spec's addresses
 * are the mapping's start (0x555555554000) plus a function's address (nm).
 */
#define FN(sym) \
	__attribute__((noinline, used)) void sym(void) { __asm__ volatile(".skip 0x100, 0x90"); }

FN(main)
FN(worker_run)
FN(sort_unit)
FN(spin_leaf)
