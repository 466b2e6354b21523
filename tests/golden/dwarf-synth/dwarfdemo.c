/*
 * The native code of the dwarf-synth case. Never run, only read for its
 * symbols and its .eh_frame (the unwinder's CFI: each function leaves the
 * stack as it found it, so CFA = rsp + 8 and the return address is at
 * CFA - 8). Rebuilt with
 *   gcc -O1 -fasynchronous-unwind-tables -nostdlib -shared \
 *       -Wl,-z,noseparate-code -Wl,--build-id=none -o usr/bin/dwarfdemo dwarfdemo.c
 * Each function is 0x100 bytes of nops and a ret; dwarf.spec's addresses
 * are the mapping's start (0x555555554000) plus a function's address (nm).
 * The callers' return addresses (main+0x40, worker_run+0x30, sort_unit+0x20)
 * follow a call: the bytes e8 00 00 00 00 (a call rel32, here to the next
 * instruction, never run), so that they read as return addresses
 * (src/common/callsite.c) without a PLT entry that would move the functions.
 */
#define CALL_ENDING_AT(off) ".skip " #off " - 5, 0x90\n\t.byte 0xe8, 0, 0, 0, 0\n\t" \
	".skip 0x100 - " #off ", 0x90"
#define FN(sym) \
	__attribute__((noinline, used)) void sym(void) { __asm__ volatile(".skip 0x100, 0x90"); }
#define FN_CALLING(sym, off) \
	__attribute__((noinline, used)) void sym(void) { __asm__ volatile(CALL_ENDING_AT(off)); }

FN_CALLING(main, 0x40)
FN_CALLING(worker_run, 0x30)
FN_CALLING(sort_unit, 0x20)
FN(spin_leaf)
