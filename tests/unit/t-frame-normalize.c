/*
 * t-frame-normalize: each rule of frame-normalize.h on names as the
 * runtimes write them (V8 jitdumps and perf maps of node 18-22, .NET's
 * perf maps with PerfMapShowOptimizationTiers, HotSpot's perf-map-agent,
 * QEMU), and that what names a function stays: V8's source location,
 * short addresses, ELF and kernel symbols.
 */
#include "common/common.h"
#include "aggregate/frame-normalize.h"
#include "common/sbuf.h"

#include "test.h"

struct expect {
	enum frame_kind kind;
	const char *label, *normal;
};

#define J FRAME_JIT
#define P FRAME_PERFMAP
#define N FRAME_NATIVE
#define K FRAME_KERNEL

static const struct expect cases[] = {
	/* V8 tier markers, jitdump and perf map alike */
	{ J, "JS:*matchSchema1012 /app/gen/mod157.js:97:25", "JS:matchSchema1012 /app/gen/mod157.js:97:25" },
	{ J, "JS:~matchSchema1012 /app/gen/mod157.js:97:25", "JS:matchSchema1012 /app/gen/mod157.js:97:25" },
	{ P, "JS:^f /app/x.js:3:10", "JS:f /app/x.js:3:10" },
	{ P, "JS:+f /app/x.js:3:10", "JS:f /app/x.js:3:10" },
	{ J, "JS:~ /app/x.js:1:1", "JS: /app/x.js:1:1" },
	{ J, "Script:~ /app/x.js:1:1", "Script: /app/x.js:1:1" },
	{ J, "Eval:~ :1:1", "Eval: :1:1" },
	/* older V8: the kind prefixes of function code are one */
	{ P, "LazyCompile:~fib /app/x.js:1", "JS:fib /app/x.js:1" },
	{ P, "LazyCompile:*fib /app/x.js:1", "JS:fib /app/x.js:1" },
	{ J, "Function:^f a.js:2", "JS:f a.js:2" },
	{ J, "InterpretedFunction:f", "JS:f" },
	/* a marker without its prefix (frameclass's guess) */
	{ P, "~lazy /app/b.js:1:1", "lazy /app/b.js:1:1" },
	{ P, "*opt /app/b.js:1:1", "opt /app/b.js:1:1" },
	/* names with no tier stay */
	{ J, "Builtin:ArrayPrototypePush", "Builtin:ArrayPrototypePush" },
	{ J, "BytecodeHandler:Add.Wide", "BytecodeHandler:Add.Wide" },
	{ P, "RegExp:^a+b", "RegExp:^a+b" },
	/* .NET tier suffixes */
	{ P, "[System.Private.CoreLib] System.String::Concat(string,string)[Tier0]",
	  "[System.Private.CoreLib] System.String::Concat(string,string)" },
	{ P, "[App] App.Program::Hot(int32)[OptimizedTier1]", "[App] App.Program::Hot(int32)" },
	{ P, "[App] App.Program::Hot(int32)[OptimizedTier1OSR]", "[App] App.Program::Hot(int32)" },
	{ P, "[App] App.Program::Hot(int32)[QuickJitted]", "[App] App.Program::Hot(int32)" },
	{ P, "[App] App.Program::Hot(int32)", "[App] App.Program::Hot(int32)" },
	/* addresses that move with ASLR; short ones name code */
	{ P, "Builtin:CallFunction :0x7f3a2c00e140", "Builtin:CallFunction :0x?" },
	{ P, "stub<1> JumpStub 0x00007F3A2C00E140", "stub<1> JumpStub 0x?" },
	{ P, "guest-0x401000", "guest-0x401000" },
	{ P, "guest-0x7fffe0012345", "guest-0x?" },
	{ P, "f_0x7f3a2c00e140", "f_0x7f3a2c00e140" },
	{ P, "0x7f3a2c00e140x", "0x7f3a2c00e140x" },
	/* pids in names */
	{ P, "code from jitted-15755-42.so", "code from jitted-PID-N.so" },
	{ P, "[perf-15755.map]", "[perf-PID.map]" },
	{ J, "trampoline jit-853.dump", "trampoline jit-PID.dump" },
	{ P, "myperf-15755.map", "myperf-15755.map" },
	{ P, "perf-.map", "perf-.map" },
	/* HotSpot names have nothing that changes */
	{ P, "void java.lang.Object.<init>()", "void java.lang.Object.<init>()" },
	{ P, "Interpreter", "Interpreter" },
	/* fold's annotations go, whatever the kind */
	{ P, "JS:*f /a.js:1:1_[j]", "JS:f /a.js:1:1" },
	{ K, "do_syscall_64_[k]", "do_syscall_64" },
	/* ELF and kernel names stay as they are */
	{ N, "~Foo", "~Foo" },
	{ N, "hash_bytes", "hash_bytes" },
	{ N, "Builtins_CallFunction 0x7f3a2c00e140", "Builtins_CallFunction 0x7f3a2c00e140" },
	{ K, "perf-1.map", "perf-1.map" },
	{ FRAME_UNKNOWN, "[unknown]", "[unknown]" },
};

int main(void)
{
	struct sbuf sb = SBUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct expect *e = &cases[i];
		char name[300];

		sbuf_reset(&sb);
		/* a label need not end in a NUL: give it a longer string */
		sbuf_addstr(&sb, e->label);
		sbuf_addstr(&sb, "tail");
		{
			char *copy = xstrdup(sb.buf);

			sbuf_reset(&sb);
			frame_normalize(&sb, copy, strlen(e->label), e->kind);
			free(copy);
		}
		snprintf(name, sizeof(name), "%s (kind %d) -> %s", e->label, e->kind, e->normal);
		T(name, !strcmp(sb.buf, e->normal));
		if (strcmp(sb.buf, e->normal))
			fprintf(stderr, "  got '%s'\n", sb.buf);
	}
	sbuf_release(&sb);
	return test_done();
}
