/*
 * t-frameclass: each runtime's rows of the classification table, on
 * synthetic names: the category, runtime and tier each gets, that rows
 * apply only to their frame kinds (a C++ destructor "~Foo" in an ELF is
 * native, not V8 Ignition), and the fallbacks by kind.
 */
#include "common/common.h"
#include "aggregate/frameclass.h"

#include "test.h"

struct expect {
	enum frame_kind kind;
	const char *sym;
	enum frame_category category;
	const char *runtime, *tier;
	bool guess;
};

#define J FRAME_JIT
#define P FRAME_PERFMAP
#define N FRAME_NATIVE

static const struct expect cases[] = {
	/* V8 */
	{ J, "JS:~fib /app/x.js:1:13", FC_INTERPRETED, "V8", "Ignition", false },
	{ J, "JS:^fib /app/x.js:1:13", FC_BASELINE, "V8", "Sparkplug", false },
	{ J, "JS:+fib /app/x.js:1:13", FC_OPTIMIZED, "V8", "Maglev", false },
	{ P, "JS:*fib /app/x.js:1:13", FC_OPTIMIZED, "V8", "TurboFan", false },
	{ P, "LazyCompile:~fib /app/x.js:1", FC_INTERPRETED, "V8", "Ignition", false },
	{ P, "LazyCompile:*fib /app/x.js:1", FC_OPTIMIZED, "V8", "TurboFan", false },
	{ J, "Function:^f a.js:2", FC_BASELINE, "V8", "Sparkplug", false },
	{ J, "Script:~ /app/x.js", FC_INTERPRETED, "V8", "Ignition", false },
	{ J, "Eval:+e", FC_OPTIMIZED, "V8", "Maglev", false },
	{ J, "InterpretedFunction:f", FC_INTERPRETED, "V8", "Ignition", false },
	{ P, "~lazy /app/b.js:1:1", FC_INTERPRETED, "V8", "Ignition", true },
	{ P, "^base /app/b.js:1:1", FC_BASELINE, "V8", "Sparkplug", true },
	{ P, "+mag /app/b.js:1:1", FC_OPTIMIZED, "V8", "Maglev", true },
	{ P, "*opt /app/b.js:1:1", FC_OPTIMIZED, "V8", "TurboFan", true },
	{ J, "Builtin:ArrayPrototypePush", FC_STUB, "V8", "builtin", false },
	{ J, "BytecodeHandler:Add", FC_INTERPRETED, "V8", "Ignition", false },
	{ J, "BytecodeHandler:AddSmi.Wide", FC_INTERPRETED, "V8", "Ignition", false },
	{ J, "Builtin:InterpreterEntryTrampoline", FC_INTERPRETED, "V8", "Ignition", false },
	{ J, "Builtin:LoadIC_NoFeedback", FC_STUB, "V8", "builtin", false },
	{ P, "Stub:CEntryStub", FC_STUB, "V8", "stub", false },
	{ P, "Handler:length", FC_STUB, "V8", "IC handler", false },
	{ P, "RegExp:^a+b", FC_OPTIMIZED, "V8", "irregexp", false },
	{ N, "Builtins_InterpreterEntryTrampoline", FC_INTERPRETED, "V8", "Ignition", false },
	{ N, "Builtins_Add_Baseline", FC_STUB, "V8", "builtin", false },
	{ N, "v8::internal::Heap::CollectGarbage", FC_RUNTIME, "V8", "GC", false },
	{ N, "v8::internal::Scavenger::Process", FC_RUNTIME, "V8", "GC", false },
	{ N, "v8::internal::compiler::PipelineImpl::Run", FC_RUNTIME, "V8", "compiler", false },
	{ N, "v8::internal::maglev::MaglevGraphBuilder::Build", FC_RUNTIME, "V8", "compiler", false },
	{ N, "v8::internal::Runtime_StringAdd", FC_RUNTIME, "V8", "runtime", false },
	{ J, "JS:foo", FC_JIT, NULL, NULL, false },
	/* V8 WebAssembly: the tier that compiled the function, as a suffix */
	{ J, "$add-liftoff", FC_BASELINE, "V8", "Liftoff", false },
	{ J, "wasm-function[3]-liftoff", FC_BASELINE, "V8", "Liftoff", false },
	{ P, "$add-turbofan", FC_OPTIMIZED, "V8", "wasm TurboFan", false },
	{ J, "JS:wasm-function[0]-turbofan", FC_OPTIMIZED, "V8", "wasm TurboFan", false },
	{ N, "$add-liftoff", FC_NATIVE, NULL, NULL, false },
	/* V8 13's regexp code names */
	{ J, "RegExp.< src: 'a+b' flags: 'g'", FC_OPTIMIZED, "V8", "irregexp", false },
	{ P, "RegExp.> src: '(\\d+)-x' flags: ''", FC_OPTIMIZED, "V8", "irregexp", false },
	/* .NET */
	{ P, "void [App] App.Program::Main(string[])[Tier0]", FC_BASELINE, ".NET", "Tier0", false },
	{ P, "int32 [App] App.C::F()[QuickJitted]", FC_BASELINE, ".NET", "Tier0", false },
	{ P, "int32 [App] App.C::F()[Tier1]", FC_OPTIMIZED, ".NET", "Tier1", false },
	{ P, "int32 [App] App.C::F()[OptimizedTier1]", FC_OPTIMIZED, ".NET", "Tier1", false },
	{ P, "int32 [App] App.C::F()[OptimizedTier1OSR]", FC_OPTIMIZED, ".NET", "OSR", false },
	{ P, "int32 [App] App.C::F()[OSR]", FC_OPTIMIZED, ".NET", "OSR", false },
	{ P, "int32 [App] App.C::F()[Optimized]", FC_OPTIMIZED, ".NET", "Optimized", false },
	{ P, "int32 [System.Private.CoreLib] System.String::Concat()[PreJIT]", FC_OPTIMIZED, ".NET", "PreJIT", false },
	{ P, "int32 [App] App.C::F()[InstrumentedTier0]", FC_BASELINE, ".NET", "Instrumented", false },
	{ P, "int32 [App] App.C::F()[Instrumented]", FC_BASELINE, ".NET", "Instrumented", false },
	{ P, "int32 [App] App.C::F()[InstrumentedTier1]", FC_OPTIMIZED, ".NET", "InstrumentedTier1", false },
	/* what CoreCLR writes (GetJitOptimizationTierStr(), perfmap.cpp), perf map and jitdump */
	{ P, "int32 [App] App.C::F()[MinOptJitted]", FC_BASELINE, ".NET", "MinOpts", false },
	{ J, "int32 [App] App.C::F()[QuickJitted]", FC_BASELINE, ".NET", "Tier0", false },
	{ J, "int32 [App] App.C::F()[OptimizedTier1]", FC_OPTIMIZED, ".NET", "Tier1", false },
	{ J, "int32 [App] App.C::F()[OptimizedTier1OSR]", FC_OPTIMIZED, ".NET", "OSR", false },
	{ P, "int32 [App] App.C::F()[InstrumentedTier]", FC_BASELINE, ".NET", "Instrumented", false },
	{ P, "int32 [App] App.C::F()[InstrumentedTierOptimized]", FC_OPTIMIZED, ".NET",
	  "InstrumentedTier1", false },
	{ J, "int32 [App] App.C::F()[InstrumentedTierOptimized]", FC_OPTIMIZED, ".NET",
	  "InstrumentedTier1", false },
	{ J, "int32 [System.Private.CoreLib] System.String::Concat()[PreJIT]", FC_OPTIMIZED, ".NET", "PreJIT", false },
	{ J, "int32 [System.Private.CoreLib] System.String::Concat()[PreJit-cold]", FC_OPTIMIZED, ".NET", "PreJIT", false },
	{ P, "int32 [App] App.C::F()[Unknown]", FC_JIT, ".NET", NULL, false },
	/* generic arguments in brackets before the tier: the suffix still decides */
	{ P, "void [App] App.G`1[System.Int32]::M()[OptimizedTier1]", FC_OPTIMIZED, ".NET", "Tier1", false },
	{ P, "stub ReportStubBlock<FIXUP_PRECODE>", FC_STUB, ".NET", "stub", true },
	{ P, "void [App] App.Program::Main(string[])", FC_JIT, ".NET", NULL, true },
	{ P, "stub<1> AllocateTemporaryEntryPoints<PRECODE_STUB>", FC_STUB, ".NET", "stub", false },
	/* CPython */
	{ P, "py::fib:/app/fib.py", FC_INTERPRETED, "CPython", "Python", false },
	{ J, "py::<module>:/app/main.py", FC_INTERPRETED, "CPython", "Python", false },
	{ N, "_PyEval_EvalFrameDefault", FC_INTERPRETED, "CPython", "eval loop", false },
	{ N, "_PyEval_Vector", FC_INTERPRETED, "CPython", "eval loop", false },
	{ N, "gc_collect_main", FC_RUNTIME, "CPython", "GC", false },
	/* HotSpot */
	{ P, "Interpreter", FC_INTERPRETED, "HotSpot", "Interpreter", false },
	{ P, "StubRoutines (1)", FC_STUB, "HotSpot", "stub", false },
	{ P, "StubRoutines::call_stub", FC_STUB, "HotSpot", "stub", false },
	{ P, "I2C/C2I adapters", FC_STUB, "HotSpot", "adapter", false },
	{ P, "Ljava/lang/String;::hashCode", FC_OPTIMIZED, "HotSpot", "compiled", true },
	{ P, "long Workload.next(long, int)", FC_OPTIMIZED, "HotSpot", "compiled", true },
	{ N, "long Workload.next(long, int)", FC_NATIVE, NULL, NULL, false },
	{ N, "C2Compiler::compile_method", FC_RUNTIME, "HotSpot", "compiler", false },
	/* perf's JVMTI agent: class signature, method, method signature */
	{ J, "Lcom/foo/Bar;run()V", FC_OPTIMIZED, "HotSpot", "compiled", false },
	{ J, "LWorkload;next(JI)J", FC_OPTIMIZED, "HotSpot", "compiled", false },
	{ J, "Ljava/lang/String;hashCode()I", FC_OPTIMIZED, "HotSpot", "compiled", false },
	{ J, "Lfoo;(", FC_JIT, NULL, NULL, false },
	{ J, "L;run()V", FC_JIT, NULL, NULL, false },
	{ J, "Lfoo;bar baz()V", FC_JIT, NULL, NULL, false },
	{ N, "Lcom/foo/Bar;run()V", FC_NATIVE, NULL, NULL, false },
	{ N, "G1ParScanThreadState::trim_queue", FC_RUNTIME, "HotSpot", "GC", true },
	/* PHP 8 opcache JIT and the Zend VM */
	{ P, "TRACE-1$run$3", FC_OPTIMIZED, "PHP", "trace JIT", false },
	{ J, "TRACE-4$/tmp/w.php$4", FC_OPTIMIZED, "PHP", "trace JIT", false },
	{ P, "JIT$run", FC_OPTIMIZED, "PHP", "function JIT", false },
	{ J, "JIT$Foo::bar", FC_OPTIMIZED, "PHP", "function JIT", false },
	{ P, "JIT$$trace_exit", FC_STUB, "PHP", "stub", false },
	{ J, "JIT$$hybrid_loop_hot_counter", FC_STUB, "PHP", "stub", false },
	{ P, "jit$$trace_exit_0", FC_STUB, "PHP", "stub", false },
	{ N, "execute_ex", FC_INTERPRETED, "PHP", "Zend VM", false },
	{ N, "zend_execute", FC_INTERPRETED, "PHP", "Zend VM", false },
	{ N, "ZEND_ADD_SPEC_CV_CV_HANDLER", FC_INTERPRETED, "PHP", "Zend VM", false },
	{ N, "ZEND_HANDLER", FC_NATIVE, NULL, NULL, false },
	{ N, "zend_gc_collect_cycles", FC_RUNTIME, "PHP", "GC", false },
	{ N, "TRACE-1$run$3", FC_NATIVE, NULL, NULL, false },
	{ J, "execute_ex", FC_JIT, NULL, NULL, false },
	/* Erlang BEAM */
	{ P, "$lists:reverse/2", FC_BASELINE, "BEAM", "BeamAsm", false },
	{ P, "$global::call_bif_shared", FC_STUB, "BEAM", "BeamAsm", false },
	/* LuaJIT */
	{ P, "TRACE_12::fib.lua:3", FC_OPTIMIZED, "LuaJIT", "trace", false },
	{ N, "lj_BC_FUNCF", FC_INTERPRETED, "LuaJIT", "interpreter", false },
	{ N, "lj_vm_call", FC_INTERPRETED, "LuaJIT", "interpreter", false },
	{ N, "lj_gc_step", FC_RUNTIME, "LuaJIT", "GC", false },
	{ N, "lj_trace_ins", FC_RUNTIME, "LuaJIT", "compiler", false },
	{ N, "lj_record_ins", FC_RUNTIME, "LuaJIT", "compiler", false },
	/* rows apply to their kinds only */
	{ N, "~Foo()", FC_NATIVE, NULL, NULL, false },
	{ N, "JS:~fib", FC_NATIVE, NULL, NULL, false },
	{ N, "py::fib", FC_NATIVE, NULL, NULL, false },
	{ J, "lj_BC_FUNCF", FC_JIT, NULL, NULL, false },
	{ FRAME_KERNEL, "JS:~fib", FC_KERNEL, NULL, NULL, false },
	/* fallbacks by kind */
	{ FRAME_KERNEL, "do_syscall_64", FC_KERNEL, NULL, NULL, false },
	{ N, "main", FC_NATIVE, NULL, NULL, false },
	{ J, "some_jitted_code", FC_JIT, NULL, NULL, false },
	{ P, "anything", FC_JIT, NULL, NULL, false },
	{ J, NULL, FC_JIT, NULL, NULL, false },
	{ N, NULL, FC_NATIVE, NULL, NULL, false },
	{ FRAME_UNKNOWN, NULL, FC_UNKNOWN, NULL, NULL, false },
	{ P, "", FC_JIT, NULL, NULL, false },
};

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

int main(void)
{
	struct frame_class fc;
	size_t i;
	int c;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct expect *e = &cases[i];
		char name[200];

		frameclass__classify(e->kind, e->sym, &fc);
		snprintf(name, sizeof(name), "%s (kind %d): %s%s%s%s", e->sym ? e->sym : "(null)",
			 e->kind, frame_category__name(e->category), e->tier ? " " : "",
			 e->tier ? e->tier : "", e->guess ? " (guess)" : "");
		T(name, fc.category == e->category && same(fc.runtime, e->runtime) &&
			same(fc.tier, e->tier) && fc.guess == e->guess);
		if (fc.category != e->category || !same(fc.tier, e->tier))
			fprintf(stderr, "  got %s, %s, %s\n", frame_category__name(fc.category),
				fc.runtime ? fc.runtime : "-", fc.tier ? fc.tier : "-");
	}
	for (c = 0; c < FC_NR_CATEGORIES; c++)
		T("every category has a name", *frame_category__name(c));
	T("an out-of-range category", !strcmp(frame_category__name(FC_NR_CATEGORIES), "unknown"));
	return test_done();
}
