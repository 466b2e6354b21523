/*
 * Unit tests for src/unwind/unwind.c and src/unwind/unwind-space.c, on real stacks: a
 * call chain built without frame pointers (unwind-chain.c as nofp_*)
 * captures its registers and stack bytes the way the kernel does for
 * "perf record --call-graph dwarf"; the unwinder walks that copy through
 * the CFI of this very program and its libraries, found through a machine
 * built from /proc/self/maps, and the return addresses must fall in the
 * chain's functions, in order. The same chain built with frame pointers
 * (fp_*) unwinds through rbp when no CFI is offered, and built with its
 * rules in .debug_frame only (dbgf_*) through those. Truncated dumps,
 * unmapped pcs, hostile stacks and cyclic rbp chains must end the walk for
 * the right reason, never loop. x86-64 only: elsewhere the walk checks are
 * skipped and the unwinder must say "unsupported".
 */
#include "common/common.h"
#include "resolve/dso.h"
#include "timeline/machine.h"
#include "reader/perfdata.h"
#include "resolve/resolve.h"
#include "common/strpool.h"
#include "unwind/unwind.h"
#include "unwind/unwind-space.h"
#include "test.h"
#include "unwind-chain.h"

#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>

#define STACK_CAP 32768
#define MAX_FRAMES 128

/* perf's x86 register numbers the captures carry (asm/perf_regs.h) */
#define PREG_BX 1
#define PREG_BP 6
#define PREG_SP 7
#define PREG_IP 8
#define PREG_R12 20

static struct strpool *pool;
static struct machine *machine;
static struct resolver *resolver;
static struct proc *self;
static struct unwind_space_machine space_ctx;
static struct unwind_space space;

/* ---- this process as a machine ---- */

static void add_mapping(const char *line, uint32_t pid)
{
	unsigned long s, e, off;
	char perms[8], path[4096] = "";
	struct map tmpl;

	if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &s, &e, perms, &off, path) < 4)
		return;
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.filename = strpool__intern(pool, path[0] ? path : "//anon");
	tmpl.anon = map_name_is_anon(tmpl.filename);
	tmpl.prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[2] == 'x' ? PROT_EXEC : 0);
	machine__mmap(machine, pid, s, e - s, off, &tmpl);
}

static bool setup_machine(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	struct resolve_opts ropts = { .kallsyms = "/dev/null", .buildid_dir = "/nonexistent" };
	struct pd_info info;
	uint32_t pid = (uint32_t)getpid();
	char line[8192];

	if (!f)
		return false;
	machine = machine__new(pool);
	while (fgets(line, sizeof(line), f))
		add_mapping(line, pid);
	fclose(f);
	memset(&info, 0, sizeof(info));
	resolver = resolver__new(&ropts, machine, NULL, pool, &info);
	self = machine__findnew_thread(machine, pid, pid)->proc;
	space_ctx.resolver = resolver;
	space_ctx.proc = self;
	space = unwind_space_machine__space(&space_ctx);
	return true;
}

/* The name of the function holding ip (caller: a return address), or "". */
static const char *func_at(uint64_t ip, bool caller)
{
	struct map_hit hit;
	const struct symbol *s;
	struct dso *d;

	if (!proc__find_map(self, ip, &hit) || hit.map->anon)
		return "";
	d = resolver__map_dso(resolver, hit.map);
	s = dso__find_symbol(d, dso__map_ip(d, hit.start, hit.pgoff, ip) - caller);
	return s ? s->name : "";
}

/* ---- captures ---- */

static uint64_t current_sp(void)
{
	uint64_t sp = 0;

#if defined(__x86_64__)
	__asm__ volatile("mov %%rsp, %0" : "=r"(sp));
#endif
	return sp;
}

/* How many bytes above sp are mapped stack, at most STACK_CAP. */
static uint64_t stack_room(uint64_t sp)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[8192];
	unsigned long s, e;
	uint64_t room = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &s, &e) == 2 && sp >= s && sp < e)
			room = e - sp;
	if (f)
		fclose(f);
	return room < STACK_CAP ? room : STACK_CAP;
}

typedef int (*chain_fn)(struct chain_capture *, int);

/* Run chain (a function of the test itself, so it appears in the walk). */
__attribute__((noinline)) static int t_unwind_driver(chain_fn chain, struct chain_capture *c)
{
	c->size = stack_room(current_sp());
	return chain(c, 5) + 1;
}

/* The registers of a capture as perf would record them. */
struct sample {
	uint64_t vals[8];
	struct unwind_regs regs;
};

static void sample_of(struct sample *s, const struct chain_capture *c)
{
	/* bit order: BX(1) BP(6) SP(7) IP(8) R12(20) R13 R14 R15 */
	uint64_t v[8] = { c->bx, c->bp, c->sp, c->ip, c->r12, c->r13, c->r14, c->r15 };

	memcpy(s->vals, v, sizeof(v));
	s->regs.abi = PERF_SAMPLE_REGS_ABI_64;
	s->regs.mask = 1ULL << PREG_BX | 1ULL << PREG_BP | 1ULL << PREG_SP | 1ULL << PREG_IP |
		       0xfULL << PREG_R12;
	s->regs.regs = s->vals;
}

/*
 * ld.so's _dl_runtime_resolve in miniature: realign_caller keeps its CFA in
 * rbx (push %rbx; mov %rsp,%rbx; and $-64,%rsp), and realign_leaf captures
 * before touching rbx, with no CFI rule for it. A walk from the leaf must
 * carry the sampled rbx into the caller, as the x86-64 psABI keeps
 * callee-saved registers no rule names.
 */
#if defined(__x86_64__)
int realign_caller(struct chain_capture *c, int x);
_Static_assert(offsetof(struct chain_capture, stack) == 64 &&
	       offsetof(struct chain_capture, size) == 72, "realign_leaf's offsets");
__asm__(".text\n"
	".globl realign_leaf\n"
	".type realign_leaf, @function\n"
	"realign_leaf:\n"
	".cfi_startproc\n"
	"	mov %rdi, %rdx\n"
	"	lea 1f(%rip), %rax\n"
	"1:\n"
	"	mov %rax, 0(%rdx)\n"
	"	mov %rsp, 8(%rdx)\n"
	"	mov %rbp, 16(%rdx)\n"
	"	mov %rbx, 24(%rdx)\n"
	"	mov %r12, 32(%rdx)\n"
	"	mov %r13, 40(%rdx)\n"
	"	mov %r14, 48(%rdx)\n"
	"	mov %r15, 56(%rdx)\n"
	"	mov 64(%rdx), %rdi\n"
	"	mov 72(%rdx), %rcx\n"
	"	mov %rsp, %rsi\n"
	"	rep movsb\n"
	"	xor %eax, %eax\n"
	"	ret\n"
	".cfi_endproc\n"
	".size realign_leaf, .-realign_leaf\n"
	".globl realign_caller\n"
	".type realign_caller, @function\n"
	"realign_caller:\n"
	".cfi_startproc\n"
	"	push %rbx\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbx, -16\n"
	"	mov %rsp, %rbx\n"
	".cfi_def_cfa_register %rbx\n"
	"	and $-64, %rsp\n"
	"	call realign_leaf\n"
	"	mov %rbx, %rsp\n"
	".cfi_def_cfa_register %rsp\n"
	"	pop %rbx\n"
	".cfi_def_cfa_offset 8\n"
	"	ret\n"
	".cfi_endproc\n"
	".size realign_caller, .-realign_caller\n");
#endif

static struct chain_capture nofp, fp, dbgf, realign;
static volatile int sink;      /* the drivers' results: no tail calls into the chains */
static uint8_t nofp_stack[STACK_CAP], fp_stack[STACK_CAP], dbgf_stack[STACK_CAP];
static uint8_t realign_stack[STACK_CAP];
static uint8_t shifted[STACK_CAP + 8];

/* ---- the tests ---- */

static bool has_frame(const uint64_t *ips, size_t n, const char *name)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (!strcmp(func_at(ips[i], true), name))
			return true;
	return false;
}

static void test_unwind__cfi_chain(struct unwinder *u)
{
	struct sample s;
	struct unwind_result res, res2;
	struct unwind_stats st;
	uint64_t ips[MAX_FRAMES], ips2[MAX_FRAMES];
	size_t n, n2;

	sample_of(&s, &nofp);
	n = unwinder__unwind(u, &s.regs, nofp_stack, nofp.size, &space, ips, MAX_FRAMES, &res);
	T("cfi: at least the chain, the driver and main", n >= 6);
	T("cfi: ips[0] is the sampled ip", n > 0 && ips[0] == nofp.ip);
	T("cfi: the leaf", !strcmp(func_at(ips[0], false), "nofp_chain_leaf"));
	T("cfi: then chain_c", n > 1 && !strcmp(func_at(ips[1], true), "nofp_chain_c"));
	T("cfi: then chain_b", n > 2 && !strcmp(func_at(ips[2], true), "nofp_chain_b"));
	T("cfi: then chain_a", n > 3 && !strcmp(func_at(ips[3], true), "nofp_chain_a"));
	/* the compiler may have specialised it: t_unwind_driver.isra.0 */
	T("cfi: then the driver", n > 4 && !strncmp(func_at(ips[4], true), "t_unwind_driver", 15));
	T("cfi: main below", has_frame(ips, n, "main"));
	T("cfi: ends at the outermost frame", res.end == UNWIND_END_COMPLETE);
	T("cfi: every frame by CFI", res.nr_cfi == n - 1 && res.nr_fp == 0);
	if (res.end != UNWIND_END_COMPLETE)
		printf("# ended: %s at %#" PRIx64 " (%s)\n", unwind_end__name(res.end), res.pc,
		       res.object ? res.object : "");

	n2 = unwinder__unwind(u, &s.regs, nofp_stack, nofp.size, &space, ips2, MAX_FRAMES, &res2);
	unwinder__stats(u, &st);
	T("cfi: again from the cache, the same", n2 == n && !memcmp(ips, ips2, n * sizeof(*ips)) &&
						 res2.end == res.end);
	T("cfi: the second walk hit the cache", st.hits >= n - 1);

	n = unwinder__unwind(u, &s.regs, nofp_stack, nofp.size, &space, ips, 3, &res);
	T("cfi: depth limit", n == 3 && res.end == UNWIND_END_DEPTH);
}

/* A caller whose CFA is in rbx, above a leaf that leaves rbx alone (ld.so's lazy binding). */
static void test_unwind__same_value(struct unwinder *u)
{
	struct sample s;
	struct unwind_result res;
	uint64_t ips[MAX_FRAMES];
	size_t n;

	sample_of(&s, &realign);
	n = unwinder__unwind(u, &s.regs, realign_stack, realign.size, &space, ips, MAX_FRAMES, &res);
	T("same value: the leaf", n > 0 && !strcmp(func_at(ips[0], false), "realign_leaf"));
	T("same value: the caller", n > 1 && !strcmp(func_at(ips[1], true), "realign_caller"));
	T("same value: through the caller's rbx CFA to the driver",
	  n > 2 && !strncmp(func_at(ips[2], true), "t_unwind_driver", 15));
	T("same value: main below, complete", has_frame(ips, n, "main") &&
					       res.end == UNWIND_END_COMPLETE);
	if (res.end != UNWIND_END_COMPLETE)
		printf("# ended: %s at %#" PRIx64 " (%s)\n", unwind_end__name(res.end), res.pc,
		       res.object ? res.object : "");
}

/* Code without .eh_frame entries: its rules come from .debug_frame. */
static void test_unwind__debug_frame(struct unwinder *u)
{
	struct sample s;
	struct unwind_result res;
	uint64_t ips[MAX_FRAMES];
	size_t n;

	sample_of(&s, &dbgf);
	n = unwinder__unwind(u, &s.regs, dbgf_stack, dbgf.size, &space, ips, MAX_FRAMES, &res);
	T("debug_frame: the leaf", n > 0 && !strcmp(func_at(ips[0], false), "dbgf_chain_leaf"));
	T("debug_frame: then chain_c", n > 1 && !strcmp(func_at(ips[1], true), "dbgf_chain_c"));
	T("debug_frame: then chain_b", n > 2 && !strcmp(func_at(ips[2], true), "dbgf_chain_b"));
	T("debug_frame: then chain_a", n > 3 && !strcmp(func_at(ips[3], true), "dbgf_chain_a"));
	T("debug_frame: main below, by CFI", has_frame(ips, n, "main") && res.nr_cfi == n - 1);
	T("debug_frame: complete", res.end == UNWIND_END_COMPLETE);
}

static void test_unwind__short_dump(struct unwinder *u)
{
	struct sample s;
	struct unwind_result res;
	uint64_t ips[MAX_FRAMES];
	size_t n;

	sample_of(&s, &nofp);
	/* the leaf keeps nothing on the stack: its return address is the first word */
	n = unwinder__unwind(u, &s.regs, nofp_stack, 4, &space, ips, MAX_FRAMES, &res);
	T("short: stack dump too short", res.end == UNWIND_END_STACK_SHORT);
	T("short: only the leaf", n == 1);
	T("short: the return address needed the first 8 bytes", res.stack_need == 8);
	n = unwinder__unwind(u, &s.regs, nofp_stack, 64, &space, ips, MAX_FRAMES, &res);
	T("short: a few frames, then too short", n >= 2 && n < 5 &&
						 res.end == UNWIND_END_STACK_SHORT);
	T("short: needed more than the 64 bytes, in words", res.stack_need > 64 &&
							     res.stack_need % 8 == 0);
	n = unwinder__unwind(u, &s.regs, NULL, 0, &space, ips, MAX_FRAMES, &res);
	T("short: no dump at all", n == 1 && res.end == UNWIND_END_STACK_SHORT);
}

/* The fixes named for ends: SIZE for a short dump, the runtime's options for JIT code. */
static void test_unwind__end_fix(void)
{
	char buf[512];
	const char *fix;

	fix = unwind_end__fix(UNWIND_END_STACK_SHORT, 72, buf, sizeof(buf));
	T("fix: short names --call-graph dwarf,SIZE and 72",
	  fix && strstr(fix, "--call-graph dwarf,SIZE with SIZE 72 or more") &&
	  strstr(fix, "65528"));
	fix = unwind_end__fix(UNWIND_END_STACK_SHORT, 0, buf, sizeof(buf));
	T("fix: short without a size still names SIZE", fix &&
	  strstr(fix, "--call-graph dwarf,SIZE") && !strstr(fix, "or more"));
	fix = unwind_end__fix(UNWIND_END_STACK_SHORT, 70000, buf, sizeof(buf));
	T("fix: past perf's largest dump: frame pointers", fix &&
	  strstr(fix, "--call-graph fp") && strstr(fix, "70000"));
	fix = unwind_end__fix(UNWIND_END_JIT_NO_CFI, 0, buf, sizeof(buf));
	T("fix: JIT code: a jitdump with unwinding info, or frame pointers", fix &&
	  strstr(fix, "--perf-prof-unwinding-info") && strstr(fix, "-XX:+PreserveFramePointer"));
	T("fix: none for a bad rule", !unwind_end__fix(UNWIND_END_BAD_RULE, 0, buf, sizeof(buf)));
	T("name: JIT code without unwinding info",
	  !strcmp(unwind_end__name(UNWIND_END_JIT_NO_CFI), "JIT code without unwinding info"));
}

static void test_unwind__no_object(struct unwinder *u)
{
	struct sample s;
	struct unwind_result res;
	uint64_t ips[MAX_FRAMES];
	size_t n;

	sample_of(&s, &nofp);
	s.vals[3] = 0x10;       /* ip in the never-mapped first page */
	s.vals[1] = 0;          /* and no frame pointer */
	n = unwinder__unwind(u, &s.regs, nofp_stack, nofp.size, &space, ips, MAX_FRAMES, &res);
	T("no object: no CFI", res.end == UNWIND_END_NO_CFI && n == 1);
	T("no object: named [unknown]", res.object && !strcmp(res.object, "[unknown]"));
	T("no object: the pc", res.pc == 0x10);
}

/* JIT-like code: anonymous memory has no CFI here; with no rbp chain, the walk names it. */
static void test_unwind__anon_code(struct unwinder *u)
{
	struct sample s;
	struct unwind_result res;
	struct map tmpl;
	uint64_t ips[MAX_FRAMES];
	uint8_t *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t n;

	if (page == MAP_FAILED) {
		printf("# mmap failed: anonymous code skipped\n");
		return;
	}
	memset(&tmpl, 0, sizeof(tmpl));
	tmpl.filename = strpool__intern(pool, "//anon");
	tmpl.anon = true;
	tmpl.prot = PROT_READ | PROT_EXEC;
	machine__mmap(machine, (uint32_t)getpid(), (uintptr_t)page, 4096, 0, &tmpl);
	sample_of(&s, &nofp);
	s.vals[3] = (uintptr_t)page + 16;   /* ip */
	s.vals[1] = 0;                      /* rbp */
	n = unwinder__unwind(u, &s.regs, nofp_stack, nofp.size, &space, ips, MAX_FRAMES, &res);
	T("anon: no CFI for //anon", n == 1 && res.end == UNWIND_END_NO_CFI && res.object &&
				      !strcmp(res.object, "//anon"));
	/*
	 * As if the anonymous code had pushed rbp (0) below the leaf's return
	 * address: one frame by the frame pointer, then CFI again.
	 */
	memset(shifted, 0, 8);
	memcpy(shifted + 8, nofp_stack, nofp.size);
	s.vals[1] = nofp.sp - 8;            /* rbp */
	s.vals[2] = nofp.sp - 8;            /* sp */
	n = unwinder__unwind(u, &s.regs, shifted, nofp.size + 8, &space, ips, MAX_FRAMES, &res);
	T("anon: the frame pointer, then CFI", n > 2 && res.nr_fp == 1 &&
					       !strcmp(func_at(ips[1], true), "nofp_chain_c") &&
					       !strcmp(func_at(ips[2], true), "nofp_chain_b") &&
					       res.end == UNWIND_END_COMPLETE);
	munmap(page, 4096);
}

static int find_nothing(void *ctx, uint64_t pc, enum unwind_cfi_which which,
			struct unwind_cfi *out)
{
	(void)ctx;
	(void)pc;
	(void)which;
	memset(out, 0, sizeof(*out));
	out->name = "no-cfi-here";
	return -ENOENT;
}

static void test_unwind__frame_pointer(struct unwinder *u)
{
	struct unwind_space none = { .find = find_nothing };
	struct sample s;
	struct unwind_result res;
	uint64_t ips[MAX_FRAMES];
	size_t n;

	sample_of(&s, &fp);
	n = unwinder__unwind(u, &s.regs, fp_stack, fp.size, &none, ips, MAX_FRAMES, &res);
	T("fp: the leaf", n > 0 && !strcmp(func_at(ips[0], false), "fp_chain_leaf"));
	T("fp: then chain_c", n > 1 && !strcmp(func_at(ips[1], true), "fp_chain_c"));
	T("fp: then chain_b", n > 2 && !strcmp(func_at(ips[2], true), "fp_chain_b"));
	T("fp: then chain_a", n > 3 && !strcmp(func_at(ips[3], true), "fp_chain_a"));
	T("fp: by frame pointer only", res.nr_fp == n - 1 && res.nr_cfi == 0 && n >= 4);
	T("fp: ends early, for a reason", res.end == UNWIND_END_FP_LEFT ||
					  res.end == UNWIND_END_COMPLETE);

	/* with CFI offered too, the fp-built chain unwinds the same way, by CFI */
	n = unwinder__unwind(u, &s.regs, fp_stack, fp.size, &space, ips, MAX_FRAMES, &res);
	T("fp+cfi: chain_a by CFI", n > 3 && !strcmp(func_at(ips[3], true), "fp_chain_a") &&
				    res.nr_cfi == n - 1);
}

/* A stack of words, with sp at its start: the layout tests build by hand. */
static void put64(uint8_t *stack, size_t at, uint64_t v)
{
	size_t i;

	for (i = 0; i < 8; i++)
		stack[at + i] = (uint8_t)(v >> (8 * i));
}

/* The pcs a walk asked CFI for, and a pushed (no call) address: 0x20. */
struct asked {
	uint64_t pcs[8];
	size_t nr;
};

static int find_recording(void *ctx, uint64_t pc, enum unwind_cfi_which which,
			  struct unwind_cfi *out)
{
	struct asked *a = ctx;

	if (which == UNWIND_CFI_PRIMARY && a->nr < 8)
		a->pcs[a->nr++] = pc;
	return find_nothing(NULL, pc, which, out);
}

static bool after_call_but_0x20(void *ctx, uint64_t pc)
{
	(void)ctx;
	return pc != 0x20;
}

/* A caller's CFI is asked for at pc - 1 only where pc follows a call. */
static void test_unwind__after_call(struct unwinder *u)
{
	struct asked a = { { 0 }, 0 };
	struct unwind_space rec = { &a, find_recording, after_call_but_0x20 };
	uint8_t stack[64];
	uint64_t vals[3], ips[MAX_FRAMES], sp = 0x7ff000000000ULL;
	struct unwind_regs regs = { PERF_SAMPLE_REGS_ABI_64, 0, vals };
	struct unwind_result res;
	size_t n;

	regs.mask = 1ULL << PREG_BP | 1ULL << PREG_SP | 1ULL << PREG_IP;
	vals[0] = sp;
	vals[1] = sp;
	vals[2] = 0x10;
	memset(stack, 0, sizeof(stack));
	put64(stack, 0, sp + 16);       /* leaf's frame: caller 0x20, pushed */
	put64(stack, 8, 0x20);
	put64(stack, 16, sp + 32);      /* then 0x30, a return address */
	put64(stack, 24, 0x30);
	n = unwinder__unwind(u, &regs, stack, sizeof(stack), &rec, ips, MAX_FRAMES, &res);
	T("after_call: three frames", n == 3 && ips[1] == 0x20 && ips[2] == 0x30);
	T("after_call: the leaf at its pc", a.nr >= 3 && a.pcs[0] == 0x10);
	T("after_call: a pushed address at its pc", a.nr >= 3 && a.pcs[1] == 0x20);
	T("after_call: a return address at pc - 1", a.nr >= 3 && a.pcs[2] == 0x2f);
}

static void test_unwind__hostile(struct unwinder *u)
{
	struct unwind_space none = { .find = find_nothing };
	uint8_t stack[4096];
	uint64_t vals[8], ips[MAX_FRAMES], sp = 0x7ff000000000ULL, seed = 12345;
	struct unwind_regs regs = { PERF_SAMPLE_REGS_ABI_64, 0, vals };
	struct unwind_result res;
	size_t n, i, round;
	bool bounded = true;

	/* rbp pointing at itself, and a two-word cycle */
	regs.mask = 1ULL << PREG_BP | 1ULL << PREG_SP | 1ULL << PREG_IP;
	vals[0] = sp + 64;
	vals[1] = sp;
	vals[2] = 0x10;
	memset(stack, 0, sizeof(stack));
	put64(stack, 64, sp + 64);
	put64(stack, 72, 0x20);
	n = unwinder__unwind(u, &regs, stack, sizeof(stack), &none, ips, MAX_FRAMES, &res);
	T("hostile: rbp loop ends", n == 2 && res.end == UNWIND_END_FP_LEFT);
	put64(stack, 64, sp + 128);
	put64(stack, 128, sp + 64);
	put64(stack, 136, 0x30);
	n = unwinder__unwind(u, &regs, stack, sizeof(stack), &none, ips, MAX_FRAMES, &res);
	T("hostile: rbp cycle ends", n == 3 && res.end == UNWIND_END_FP_LEFT);

	/* a long, growing chain stops at the caller's bound */
	for (i = 0; i + 16 <= sizeof(stack); i += 16) {
		put64(stack, i, sp + i + 16);
		put64(stack, i + 8, 0x1000 + i);
	}
	vals[0] = sp;
	n = unwinder__unwind(u, &regs, stack, sizeof(stack), &none, ips, 10, &res);
	T("hostile: long chain, depth limit", n == 10 && res.end == UNWIND_END_DEPTH);

	/* random bytes and registers, real CFI for the pcs that point into us */
	regs.mask = 1ULL << PREG_BX | 1ULL << PREG_BP | 1ULL << PREG_SP | 1ULL << PREG_IP |
		    0xfULL << PREG_R12;
	for (round = 0; round < 2000; round++) {
		for (i = 0; i < sizeof(stack); i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			stack[i] = (uint8_t)(seed >> 56);
			/* some words are pcs of real code, some point into the dump */
			if (i % 8 == 7 && (seed >> 40) % 4 == 0)
				put64(stack, i - 7, (seed >> 20) % 2 ? nofp.ip + (seed >> 8) % 64
								     : sp + (seed >> 8) % 4096);
		}
		for (i = 0; i < 8; i++)
			vals[i] = sp + (seed >> (i * 3)) % 4096;
		vals[3] = (round % 3 ? nofp.ip : fp.ip) + round % 40;   /* IP */
		vals[2] = sp;                                         /* SP */
		n = unwinder__unwind(u, &regs, stack, sizeof(stack), &space, ips, MAX_FRAMES, &res);
		if (n > MAX_FRAMES || res.end >= UNWIND_END__NR)
			bounded = false;
	}
	T("hostile: random stacks end within bounds", bounded);
}

static void test_unwind__unsupported(void)
{
	struct unwind_opts opts = { .arch = "aarch64" };
	struct unwinder *u = unwinder__new(&opts);
	uint64_t vals[2] = { 0x7000, 0x1000 }, ips[4];
	struct unwind_regs regs = { PERF_SAMPLE_REGS_ABI_64, 1ULL << PREG_SP | 1ULL << PREG_IP, vals };
	struct unwind_result res;

	T("unsupported: other arch", !unwinder__unwind(u, &regs, NULL, 0, &space, ips, 4, &res) &&
				     res.end == UNWIND_END_UNSUPPORTED);
	unwinder__delete(u);
	u = unwinder__new(NULL);
	regs.abi = PERF_SAMPLE_REGS_ABI_32;
	unwinder__unwind(u, &regs, NULL, 0, &space, ips, 4, &res);
	T("unsupported: 32-bit process", res.end == UNWIND_END_UNSUPPORTED);
	regs.abi = PERF_SAMPLE_REGS_ABI_NONE;
	unwinder__unwind(u, &regs, NULL, 0, &space, ips, 4, &res);
	T("no regs: abi none", res.end == UNWIND_END_NO_REGS);
	regs.abi = PERF_SAMPLE_REGS_ABI_64;
	regs.mask = 1ULL << PREG_IP;
	unwinder__unwind(u, &regs, NULL, 0, &space, ips, 4, &res);
	T("no regs: no sp", res.end == UNWIND_END_NO_REGS);
	T("names", !strcmp(unwind_end__name(UNWIND_END_STACK_SHORT), "stack dump too short"));
	unwinder__delete(u);
}

int main(void)
{
	struct unwinder *u;

	pool = strpool__new();
	elf_version(EV_CURRENT);
	test_unwind__unsupported();
	test_unwind__end_fix();
#if defined(__x86_64__)
	nofp.stack = nofp_stack;
	fp.stack = fp_stack;
	dbgf.stack = dbgf_stack;
	realign.stack = realign_stack;
	sink = t_unwind_driver(nofp_chain_a, &nofp);
	sink = t_unwind_driver(fp_chain_a, &fp);
	sink = t_unwind_driver(dbgf_chain_a, &dbgf);
	sink = t_unwind_driver(realign_caller, &realign);
	if (!setup_machine() || !nofp.size || !fp.size || !dbgf.size ||
	    !realign.size) {
		printf("# cannot read /proc/self/maps: walks skipped\n");
	} else {
		u = unwinder__new(NULL);
		test_unwind__cfi_chain(u);
		test_unwind__debug_frame(u);
		test_unwind__same_value(u);
		test_unwind__short_dump(u);
		test_unwind__no_object(u);
		test_unwind__anon_code(u);
		test_unwind__frame_pointer(u);
		test_unwind__hostile(u);
		test_unwind__after_call(u);
		unwinder__delete(u);
	}
	resolver__delete(resolver);
	machine__delete(machine);
#else
	printf("# not x86-64: walks skipped\n");
#endif
	strpool__delete(pool);
	return test_done();
}
