/*
 * The native code of the callsite case. Never run, only read for its
 * symbols and bytes. Rebuilt with
 *   gcc -O1 -nostdlib -shared -fno-asynchronous-unwind-tables \
 *       -Wl,-z,noseparate-code -Wl,--build-id=none -o usr/bin/callsite callsite.c
 * Laid out back to back, each function 0x20 bytes:
 *   calls_last   nops, then a call (e8 00000000) as its last instruction,
 *                like ld.so's _start ending in "call _dl_start"
 *   after_call   nops: calls_last's return address is its first byte
 *   ends_in_nops nops only
 *   resumed      nops: its first byte is pushed without a call (a
 *                runtime's continuation pointer)
 *   __pfx_padded 16 bytes of nops, the padding a kernel-style build puts
 *                before a function
 *   padded       nops, with a call (ff d0, call *%rax) ending at +0x10
 *   __pfx_odd    16 bytes of padding whose last two read as a call (ff d0):
 *                never real padding, but a frame at odd+0 must still not
 *                be named after a __pfx_ symbol
 *   odd          nops
 * The specs' addresses are the mapping's start (0x555555554000) plus a
 * symbol's address (nm).
 */
__asm__(
	".text\n"
#define FN(name, body) \
	".globl " #name "\n.type " #name ",@function\n" #name ":\n" body \
	".size " #name ", . - " #name "\n"
	FN(calls_last, ".skip 0x1b, 0x90\n.byte 0xe8, 0, 0, 0, 0\n")
	FN(after_call, ".skip 0x20, 0x90\n")
	FN(ends_in_nops, ".skip 0x20, 0x90\n")
	FN(resumed, ".skip 0x20, 0x90\n")
	FN(__pfx_padded, ".skip 0x10, 0x90\n")
	FN(padded, ".skip 0x0e, 0x90\n.byte 0xff, 0xd0\n.skip 0x10, 0x90\n")
	FN(__pfx_odd, ".skip 0x0e, 0x90\n.byte 0xff, 0xd0\n")
	FN(odd, ".skip 0x20, 0x90\n")
);
