/*
 * The native code of the flamegraph-synth case: functions whose demangled
 * names hold what XML must escape (<, >, &). Never run, only read for its
 * symbols; rebuilt with
 *   gcc -O1 -fno-asynchronous-unwind-tables -nostdlib -shared \
 *       -Wl,-z,noseparate-code -Wl,--build-id=none -o usr/bin/fgdemo fgdemo.c
 * Each function is 0x100 bytes of nops and a ret; fg.spec's addresses are
 * the mapping's start (0x555555554000) plus a function's address (nm).
 */
#define FN(sym) \
	void sym##_(void) __asm__(#sym); \
	__attribute__((noinline, used)) void sym##_(void) { __asm__ volatile(".skip 0x100, 0x90"); }

FN(main)
FN(_ZN4node5StartEv)
FN(_ZN2v88internal9Execution4CallEv)
FN(_ZN2v88internal12_GLOBAL__N_16InvokeEv)
FN(_ZNSt6vectorIiSaIiEE9push_backERKi)
FN(_Z7compareIcEbRKT_S2_)
FN(_ZlsRSoRK3Foo)
