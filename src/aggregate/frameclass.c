#include "common/common.h"
#include "aggregate/frameclass.h"

/*
 * The rules. Each applies to the frame kinds in its mask and matches the
 * name by prefix, suffix, substring or whole, or any name (FC_ANY, the
 * fallbacks by kind at the end). Order matters: the first match wins, so
 * a runtime's specific names go before its general ones, and the generic
 * fallbacks last. To add a runtime, add its rows above the fallbacks and a
 * case to tests/unit/t-frameclass.c.
 */
enum fc_match {
	FC_PREFIX, FC_SUFFIX, FC_SUBSTR, FC_EXACT, FC_ANY,
	FC_JVM_SIGNATURE,   /* "Lpkg/Class;method(ARGS)RET": text unused */
	FC_PHP_HANDLER,     /* "ZEND_ADD_SPEC_CV_CV_HANDLER": text unused */
};

#define K(kind) (1u << (kind))
#define K_JITCODE (K(FRAME_JIT) | K(FRAME_PERFMAP))
#define K_NATIVE K(FRAME_NATIVE)
#define K_USER (K_JITCODE | K_NATIVE)

#define GUESS 1u
#define MARK 2u     /* the rule's text ends in (prefix) or is (suffix) the tier marker */

struct fc_rule {
	const char *runtime;
	unsigned kinds;             /* K() of the frame kinds it applies to */
	enum fc_match match;
	const char *text;
	enum frame_category category;
	const char *tier;
	unsigned flags;             /* GUESS, MARK */
};

/* V8's code names: "JS:*fib /app/x.js:1:13"; older V8 "LazyCompile:~fib ...". */
#define V8_TIERS(p) \
	{ "V8", K_JITCODE, FC_PREFIX, p "~", FC_INTERPRETED, "Ignition", MARK }, \
	{ "V8", K_JITCODE, FC_PREFIX, p "^", FC_BASELINE, "Sparkplug", MARK }, \
	{ "V8", K_JITCODE, FC_PREFIX, p "+", FC_OPTIMIZED, "Maglev", MARK }, \
	{ "V8", K_JITCODE, FC_PREFIX, p "*", FC_OPTIMIZED, "TurboFan", MARK }

static const struct fc_rule rules[] = {
	{ NULL, K(FRAME_KERNEL), FC_ANY, NULL, FC_KERNEL, NULL, 0 },
	{ NULL, K(FRAME_UNKNOWN), FC_ANY, NULL, FC_UNKNOWN, NULL, 0 },

	/* V8 (node, Chromium, Deno) */
	/*
	 * WebAssembly code, named by function and the tier that compiled it:
	 * "$add-liftoff", "wasm-function[3]-turbofan" (baseline Liftoff, then
	 * TurboFan for the hot functions). Before the JS rows: no JS name
	 * ends so (a JS name ends in its source position).
	 */
	{ "V8", K_JITCODE, FC_SUFFIX, "-liftoff", FC_BASELINE, "Liftoff", MARK },
	{ "V8", K_JITCODE, FC_SUFFIX, "-turbofan", FC_OPTIMIZED, "wasm TurboFan", MARK },
	V8_TIERS("JS:"),
	V8_TIERS("LazyCompile:"),
	V8_TIERS("Function:"),
	V8_TIERS("Script:"),
	V8_TIERS("Eval:"),
	{ "V8", K_JITCODE, FC_PREFIX, "InterpretedFunction:", FC_INTERPRETED, "Ignition", 0 },
	/*
	 * Ignition runs in its bytecode handlers and its entry trampolines: a
	 * leaf there is interpreting (the JS:~ frame is only the caller).
	 */
	{ "V8", K_JITCODE, FC_PREFIX, "BytecodeHandler:", FC_INTERPRETED, "Ignition", 0 },
	{ "V8", K_JITCODE, FC_PREFIX, "Builtin:Interpreter", FC_INTERPRETED, "Ignition", 0 },
	{ "V8", K_NATIVE, FC_PREFIX, "Builtins_Interpreter", FC_INTERPRETED, "Ignition", 0 },
	{ "V8", K_JITCODE, FC_PREFIX, "Builtin:", FC_STUB, "builtin", 0 },
	{ "V8", K_JITCODE, FC_PREFIX, "Stub:", FC_STUB, "stub", 0 },
	{ "V8", K_JITCODE, FC_PREFIX, "Handler:", FC_STUB, "IC handler", 0 },
	{ "V8", K_JITCODE, FC_PREFIX, "RegExp:", FC_OPTIMIZED, "irregexp", 0 },
	/* V8 13's: "RegExp.< src: 'a+b' flags: 'g'", "RegExp.> src: ..." (irregexp's native code) */
	{ "V8", K_JITCODE, FC_PREFIX, "RegExp.< ", FC_OPTIMIZED, "irregexp", 0 },
	{ "V8", K_JITCODE, FC_PREFIX, "RegExp.> ", FC_OPTIMIZED, "irregexp", 0 },
	{ "V8", K_NATIVE, FC_PREFIX, "Builtins_", FC_STUB, "builtin", 0 },
	{ "V8", K_NATIVE, FC_PREFIX, "v8::internal::Heap::", FC_RUNTIME, "GC", 0 },
	{ "V8", K_NATIVE, FC_PREFIX, "v8::internal::Scavenger", FC_RUNTIME, "GC", 0 },
	{ "V8", K_NATIVE, FC_PREFIX, "v8::internal::MarkCompactCollector", FC_RUNTIME, "GC", 0 },
	{ "V8", K_NATIVE, FC_PREFIX, "v8::internal::compiler::", FC_RUNTIME, "compiler", 0 },
	{ "V8", K_NATIVE, FC_PREFIX, "v8::internal::maglev::", FC_RUNTIME, "compiler", 0 },
	{ "V8", K_NATIVE, FC_PREFIX, "v8::internal::baseline::", FC_RUNTIME, "compiler", 0 },
	{ "V8", K_NATIVE, FC_PREFIX, "v8::internal::", FC_RUNTIME, "runtime", 0 },
	/* the tier marker alone: a perf map of a V8 that drops the prefix */
	{ "V8", K_JITCODE, FC_PREFIX, "~", FC_INTERPRETED, "Ignition", GUESS | MARK },
	{ "V8", K_JITCODE, FC_PREFIX, "^", FC_BASELINE, "Sparkplug", GUESS | MARK },
	{ "V8", K_JITCODE, FC_PREFIX, "+", FC_OPTIMIZED, "Maglev", GUESS | MARK },
	{ "V8", K_JITCODE, FC_PREFIX, "*", FC_OPTIMIZED, "TurboFan", GUESS | MARK },

	/*
	 * .NET (CoreCLR, DOTNET_PerfMapEnabled): "[App] Ns.Type::Method()[Tier0]" in
	 * the perf map and the jitdump alike. The suffixes it writes
	 * (PerfMapShowOptimizationTiers, on by default): the JIT tier names of
	 * PrepareCodeConfig::GetJitOptimizationTierStr() (Unknown, MinOptJitted,
	 * Optimized, QuickJitted, OptimizedTier1, OptimizedTier1OSR,
	 * InstrumentedTier, InstrumentedTierOptimized), and PreJIT and
	 * PreJit-cold for ReadyToRun code (perfmap.cpp). Tier0, Tier1, OSR and
	 * the others are kept for other writers of the same form.
	 */
	{ ".NET", K_JITCODE, FC_SUFFIX, "[QuickJitted]", FC_BASELINE, "Tier0", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[MinOptJitted]", FC_BASELINE, "MinOpts", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[OptimizedTier1]", FC_OPTIMIZED, "Tier1", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[OptimizedTier1OSR]", FC_OPTIMIZED, "OSR", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[Optimized]", FC_OPTIMIZED, "Optimized", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[InstrumentedTier]", FC_BASELINE, "Instrumented", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[InstrumentedTierOptimized]", FC_OPTIMIZED,
	  "InstrumentedTier1", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[PreJIT]", FC_OPTIMIZED, "PreJIT", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[PreJit-cold]", FC_OPTIMIZED, "PreJIT", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[Unknown]", FC_JIT, NULL, MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[Tier0]", FC_BASELINE, "Tier0", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[Tier1]", FC_OPTIMIZED, "Tier1", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[Tier1-OSR]", FC_OPTIMIZED, "OSR", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[OSR]", FC_OPTIMIZED, "OSR", MARK },
	{ ".NET", K_JITCODE, FC_SUFFIX, "[InstrumentedTier1]", FC_OPTIMIZED, "InstrumentedTier1", MARK },
	{ ".NET", K_JITCODE, FC_SUBSTR, "[Instrumented", FC_BASELINE, "Instrumented", 0 },
	{ ".NET", K_JITCODE, FC_PREFIX, "stub<", FC_STUB, "stub", 0 },
	/* stubs grouped by type (PerfMapStubGranularity 0): "stub TYPE<OWNER>" */
	{ ".NET", K_JITCODE, FC_PREFIX, "stub ", FC_STUB, "stub", GUESS },

	/* CPython 3.12+ -X perf: one trampoline per Python function */
	{ "CPython", K_JITCODE, FC_PREFIX, "py::", FC_INTERPRETED, "Python", 0 },
	{ "CPython", K_NATIVE, FC_EXACT, "_PyEval_EvalFrameDefault", FC_INTERPRETED, "eval loop", 0 },
	{ "CPython", K_NATIVE, FC_PREFIX, "_PyEval_", FC_INTERPRETED, "eval loop", 0 },
	{ "CPython", K_NATIVE, FC_PREFIX, "gc_collect", FC_RUNTIME, "GC", 0 },

	/* HotSpot: perf map (DumpPerfMapAtExit, perf-map-agent) and JVMTI names */
	{ "HotSpot", K_JITCODE, FC_EXACT, "Interpreter", FC_INTERPRETED, "Interpreter", 0 },
	{ "HotSpot", K_JITCODE, FC_PREFIX, "Interpreter ", FC_INTERPRETED, "Interpreter", 0 },
	{ "HotSpot", K_JITCODE, FC_PREFIX, "StubRoutines", FC_STUB, "stub", 0 },
	{ "HotSpot", K_JITCODE, FC_PREFIX, "I2C/C2I adapters", FC_STUB, "adapter", 0 },
	{ "HotSpot", K_JITCODE, FC_SUBSTR, "_stub", FC_STUB, "stub", GUESS },
	{ "HotSpot", K_JITCODE, FC_SUBSTR, ";::", FC_OPTIMIZED, "compiled", GUESS },
	/*
	 * perf's JVMTI agent (libperf-jvmti.so) names compiled methods class
	 * signature, method name and method signature run together
	 * ("Lcom/foo/Bar;run(I)V", tools/perf/jvmti/libjvmti.c) and the VM's
	 * own code as the VM does ("Interpreter", "StubRoutines (1)", above).
	 */
	{ "HotSpot", K_JITCODE, FC_JVM_SIGNATURE, NULL, FC_OPTIMIZED, "compiled", 0 },
	{ "HotSpot", K_NATIVE, FC_PREFIX, "G1", FC_RUNTIME, "GC", GUESS },
	{ "HotSpot", K_NATIVE, FC_PREFIX, "C2Compiler::", FC_RUNTIME, "compiler", 0 },
	{ "HotSpot", K_NATIVE, FC_PREFIX, "Compile::", FC_RUNTIME, "compiler", GUESS },
	{ "HotSpot", K_NATIVE, FC_PREFIX, "Compilation::", FC_RUNTIME, "compiler", GUESS },

	/*
	 * PHP 8 opcache JIT (opcache.jit_debug=0x10 perf map, 0x20 jitdump):
	 * the tracing JIT's traces "TRACE-1$run$3" (trace, function, line),
	 * the function JIT's "JIT$run" and "JIT$Class::method", its stubs
	 * "JIT$$trace_exit" (and the exit stubs "jit$$trace_exit_0"). The
	 * interpreter is the VM's executor in the php binary: execute_ex
	 * (the hybrid VM's handlers are labels inside it) and, for the call
	 * VM, the opcode handlers ZEND_*_HANDLER.
	 */
	{ "PHP", K_JITCODE, FC_PREFIX, "JIT$$", FC_STUB, "stub", 0 },
	{ "PHP", K_JITCODE, FC_PREFIX, "jit$$", FC_STUB, "stub", 0 },
	{ "PHP", K_JITCODE, FC_PREFIX, "TRACE-", FC_OPTIMIZED, "trace JIT", 0 },
	{ "PHP", K_JITCODE, FC_PREFIX, "JIT$", FC_OPTIMIZED, "function JIT", 0 },
	{ "PHP", K_NATIVE, FC_EXACT, "execute_ex", FC_INTERPRETED, "Zend VM", 0 },
	{ "PHP", K_NATIVE, FC_EXACT, "zend_execute", FC_INTERPRETED, "Zend VM", 0 },
	{ "PHP", K_NATIVE, FC_PHP_HANDLER, NULL, FC_INTERPRETED, "Zend VM", 0 },
	{ "PHP", K_NATIVE, FC_EXACT, "zend_gc_collect_cycles", FC_RUNTIME, "GC", 0 },

	/* Erlang BEAM JIT (BeamAsm) perf map: "$module:function/arity" */
	{ "BEAM", K_JITCODE, FC_PREFIX, "$global::", FC_STUB, "BeamAsm", 0 },
	{ "BEAM", K_JITCODE, FC_PREFIX, "$", FC_BASELINE, "BeamAsm", 0 },

	/* LuaJIT: traces from its perf map, the interpreter in the library */
	{ "LuaJIT", K_JITCODE, FC_PREFIX, "TRACE_", FC_OPTIMIZED, "trace", 0 },
	{ "LuaJIT", K_NATIVE, FC_PREFIX, "lj_BC_", FC_INTERPRETED, "interpreter", 0 },
	{ "LuaJIT", K_NATIVE, FC_PREFIX, "lj_vm_", FC_INTERPRETED, "interpreter", 0 },
	{ "LuaJIT", K_NATIVE, FC_PREFIX, "lj_gc_", FC_RUNTIME, "GC", 0 },
	{ "LuaJIT", K_NATIVE, FC_PREFIX, "lj_trace_", FC_RUNTIME, "compiler", 0 },
	{ "LuaJIT", K_NATIVE, FC_PREFIX, "lj_record_", FC_RUNTIME, "compiler", 0 },
	{ "LuaJIT", K_NATIVE, FC_PREFIX, "lj_asm_", FC_RUNTIME, "compiler", 0 },

	/* .NET without its tier (PerfMapShowOptimizationTiers=0): "[Module] Ns.Type::Method()" */
	{ ".NET", K_JITCODE, FC_SUBSTR, "::", FC_JIT, NULL, GUESS },
	/* a Java-like method signature in JIT code: HotSpot's compiled methods, most likely */
	{ "HotSpot", K_JITCODE, FC_SUFFIX, ")", FC_OPTIMIZED, "compiled", GUESS },

	/* no runtime recognised: by kind */
	{ NULL, K_NATIVE, FC_ANY, NULL, FC_NATIVE, NULL, 0 },
	{ NULL, K_JITCODE, FC_ANY, NULL, FC_JIT, NULL, 0 },
};

static const char *const category_names[FC_NR_CATEGORIES] = {
	[FC_UNKNOWN] = "unknown",
	[FC_KERNEL] = "kernel",
	[FC_NATIVE] = "native",
	[FC_JIT] = "JIT",
	[FC_INTERPRETED] = "interpreted",
	[FC_BASELINE] = "baseline JIT",
	[FC_OPTIMIZED] = "optimizing JIT",
	[FC_STUB] = "JIT stubs and builtins",
	[FC_RUNTIME] = "runtime native",
};

/* "L" class ";" method "(" args ")" return type: a JVM class and method signature */
static bool jvm_signature(const char *sym)
{
	const char *semi, *open;

	if (sym[0] != 'L' || !(semi = strchr(sym, ';')) || semi == sym + 1)
		return false;
	open = strchr(semi, '(');
	return open && open > semi + 1 && strchr(open, ')') && !strchr(semi + 1, ' ');
}

/* "ZEND_" ... "_HANDLER": an opcode handler of PHP's Zend VM */
static bool php_handler(const char *sym, size_t len)
{
	return len > 13 && !strncmp(sym, "ZEND_", 5) && !strcmp(sym + len - 8, "_HANDLER");
}

static bool rule_matches(const struct fc_rule *r, const char *sym, size_t len)
{
	size_t n;

	if (r->match == FC_ANY)
		return true;
	if (!sym)
		return false;
	if (r->match == FC_JVM_SIGNATURE)
		return jvm_signature(sym);
	if (r->match == FC_PHP_HANDLER)
		return php_handler(sym, len);
	n = strlen(r->text);
	switch (r->match) {
	case FC_PREFIX:
		return !strncmp(sym, r->text, n);
	case FC_SUFFIX:
		return len >= n && !memcmp(sym + len - n, r->text, n);
	case FC_SUBSTR:
		return strstr(sym, r->text) != NULL;
	case FC_EXACT:
		return !strcmp(sym, r->text);
	case FC_ANY:
	case FC_JVM_SIGNATURE:
	case FC_PHP_HANDLER:
	default:
		return true;
	}
}

/* Where r's tier marker is in a name of len bytes: a prefix's last byte, a whole suffix. */
static void set_mark(const struct fc_rule *r, size_t len, struct frame_class *out)
{
	size_t n = r->flags & MARK ? strlen(r->text) : 0;

	out->mark_off = out->mark_len = 0;
	if (n && r->match == FC_PREFIX) {
		out->mark_off = n - 1;
		out->mark_len = 1;
	} else if (n && r->match == FC_SUFFIX) {
		out->mark_off = len - n;
		out->mark_len = n;
	}
}

void frameclass__classify(enum frame_kind kind, const char *sym, struct frame_class *out)
{
	size_t len = sym ? strlen(sym) : 0, i;

	for (i = 0; i < ARRAY_SIZE(rules); i++) {
		const struct fc_rule *r = &rules[i];

		if (!(r->kinds & K(kind)) || !rule_matches(r, sym, len))
			continue;
		out->category = r->category;
		out->runtime = r->runtime;
		out->tier = r->tier;
		out->guess = r->flags & GUESS;
		set_mark(r, len, out);
		return;
	}
	out->category = FC_UNKNOWN;
	out->runtime = NULL;
	out->tier = NULL;
	out->guess = false;
	out->mark_off = out->mark_len = 0;
}

const char *frame_category__name(enum frame_category c)
{
	return (unsigned)c < FC_NR_CATEGORIES ? category_names[c] : "unknown";
}
