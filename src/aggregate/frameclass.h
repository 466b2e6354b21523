/*
 * frameclass: what a frame is, from who resolved it (enum frame_kind) and
 * its name: kernel, native, JIT code, and for the runtimes whose names say
 * so, the execution tier the code ran in, in the runtime's own words
 * (V8 "Ignition", "Sparkplug", "Maglev", "TurboFan", "Liftoff"; .NET
 * "Tier0", "Tier1", "OSR"; PHP "Zend VM", "trace JIT"; ...). The rules
 * are one table in frameclass.c, tried in order, the first match
 * winning; a runtime is added by adding rows.
 */
#ifndef JITSYM_FRAMECLASS_H
#define JITSYM_FRAMECLASS_H

#include <stdbool.h>
#include <stddef.h>

#include "resolve/sample.h"

enum frame_category {
	FC_UNKNOWN,         /* unresolved */
	FC_KERNEL,
	FC_NATIVE,          /* native code of no runtime recognised */
	FC_JIT,             /* JIT code whose name states no tier */
	FC_INTERPRETED,     /* an interpreter running the program's code */
	FC_BASELINE,        /* baseline (non-optimising) JIT code */
	FC_OPTIMIZED,       /* optimising JIT code */
	FC_STUB,            /* JIT stubs, trampolines, builtins */
	FC_RUNTIME,         /* the runtime's own native code: GC, compiler, ... */
	FC_NR_CATEGORIES,
};

struct frame_class {
	enum frame_category category;
	const char *runtime;    /* "V8", ".NET", "CPython", "HotSpot", "PHP", "BEAM", "LuaJIT"; NULL */
	const char *tier;       /* the runtime's name for it ("TurboFan", "GC"), NULL: none */
	/*
	 * The name only suggests the runtime (V8's tier marker without its
	 * "JS:" prefix, a HotSpot-like signature). tiers and the flame
	 * graph's colours both take the guess, so that they agree.
	 */
	bool guess;
	/*
	 * The bytes of the name that state the tier, when the rule knows
	 * them: V8's marker ("~" of "JS:~fib"), .NET's suffix ("[Tier0]").
	 * mark_len 0: none. Diffs leave them out (frame-normalize.h).
	 */
	size_t mark_off, mark_len;
};

/*
 * Classify a frame: kind as the resolver set it, sym its name (NULL:
 * unresolved). Always fills out; the strings are static.
 */
void frameclass__classify(enum frame_kind kind, const char *sym, struct frame_class *out);

/* "interpreted", "baseline JIT", ...: a category's name, never NULL. */
const char *frame_category__name(enum frame_category c);

#endif
