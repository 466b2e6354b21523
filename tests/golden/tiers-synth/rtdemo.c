/*
 * The native code of the tiers-synth case: functions named as the
 * runtimes' own native code is (V8, CPython, HotSpot, LuaJIT, PHP), and one of
 * no runtime. Never run, only read for its symbols; rebuilt with
 *   gcc -O1 -fno-asynchronous-unwind-tables -nostdlib -shared \
 *       -Wl,-z,noseparate-code -Wl,--build-id=none -o usr/bin/rtdemo rtdemo.c
 * Each function is 0x100 bytes of nops and a ret; tiers.spec's addresses
 * are the mapping's start (0x555555554000) plus a function's address (nm).
 */
#define FN(sym) \
	void sym##_(void) __asm__(#sym); \
	__attribute__((noinline, used)) void sym##_(void) { __asm__ volatile(".skip 0x100, 0x90"); }

FN(main)
FN(do_work)
FN(Builtins_ArrayPrototypePush)
FN(_ZN2v88internal4Heap14CollectGarbageEv)
FN(_ZN2v88internal8compiler8Pipeline3RunEv)
FN(_PyEval_EvalFrameDefault)
FN(gc_collect_main)
FN(_ZN15G1CollectedHeap7collectEv)
FN(_ZN10C2Compiler14compile_methodEv)
FN(lj_BC_ADDVV)
FN(lj_vm_call)
FN(lj_gc_step)
FN(lj_trace_ins)
FN(execute_ex)
FN(ZEND_ADD_SPEC_CV_CV_HANDLER)
