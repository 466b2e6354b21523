#include "common/common.h"
#include "unwind/user-stack.h"
#include "timeline/jit-cfi.h"
#include "timeline/jitmap.h"
#include "timeline/machine.h"
#include "reader/perfdata.h"
#include "common/strpool.h"
#include "unwind/unwind-space.h"

#include <linux/perf_event.h>
#include <uthash.h>

/* How many stacks "no CFI" ended in each object: the warning names the most. */
struct no_cfi {
	const char *object;      /* interned: keyed by pointer */
	uint64_t count;
	UT_hash_handle hh;
};

struct user_stack {
	struct unwinder *unwinder;
	struct unwind_space_machine machine;
	struct strpool *pool;
	struct unwind_result res;
	uint64_t walks;
	uint64_t ends[UNWIND_END__NR];
	uint64_t stack_need;       /* the most res.stack_need past the SIZE recorded */
	struct no_cfi *no_cfi;
};

struct user_stack *user_stack__new(struct resolver *r, struct jitmap *jm, struct strpool *pool,
				   const char *arch)
{
	struct user_stack *us = xcalloc(1, sizeof(*us));
	struct unwind_opts opts = { .arch = arch };

	us->unwinder = unwinder__new(&opts);
	us->machine.resolver = r;
	us->machine.jitmap = jm;
	us->machine.jit_cfi = jit_cfi__new();
	us->pool = pool;
	return us;
}

void user_stack__delete(struct user_stack *us)
{
	struct no_cfi *n, *tmp;

	if (!us)
		return;
	HASH_ITER(hh, us->no_cfi, n, tmp) {
		HASH_DEL(us->no_cfi, n);
		free(n);
	}
	unwinder__delete(us->unwinder);
	jit_cfi__delete(us->machine.jit_cfi);
	free(us);
}

bool user_stack__has(const struct pd_sample *smp)
{
	return smp->user_stack_size && smp->user_regs;
}

static void count_no_cfi(struct user_stack *us, const char *object)
{
	struct no_cfi *n;

	HASH_FIND_PTR(us->no_cfi, &object, n);
	if (!n) {
		n = xcalloc(1, sizeof(*n));
		n->object = object;
		HASH_ADD_PTR(us->no_cfi, object, n);
	}
	n->count++;
}

/*
 * A walk that found no CFI at JIT code the jitmap knows but has no
 * unwinding rules for (all of a perf map's; a jitdump's without
 * JIT_CODE_UNWINDING_INFO): the runtime did not describe how to unwind
 * it, which the unwinder cannot help; its own end, with its own fix.
 * The pc is a return address (looked up at pc - 1) unless it is the leaf.
 */
static void jit_no_cfi(struct user_stack *us, struct proc *p, size_t n)
{
	const struct jit_sym *sym;
	uint64_t pc = us->res.pc;

	if (us->res.end != UNWIND_END_NO_CFI || !us->machine.jitmap || !p || !pc)
		return;
	sym = jitmap__find(us->machine.jitmap, proc__pid(p), n > 1 ? pc - 1 : pc, true);
	if (sym && !sym->unwind)
		us->res.end = UNWIND_END_JIT_NO_CFI;
}

size_t user_stack__unwind(struct user_stack *us, struct proc *p, const struct pd_sample *smp,
			  uint64_t *ips, size_t max, const struct unwind_result **res)
{
	struct unwind_regs regs = {
		.abi = smp->user_regs_abi, .mask = smp->user_regs_mask, .regs = smp->user_regs,
	};
	struct unwind_space space;
	size_t n;

	us->machine.proc = p;
	space = unwind_space_machine__space(&us->machine);
	n = unwinder__unwind(us->unwinder, &regs, smp->user_stack, smp->user_stack_size,
			     &space, ips, max, &us->res);
	/* the unwinder's name is borrowed from the mapping: keep a copy for the run */
	if (us->res.object)
		us->res.object = strpool__intern(us->pool, us->res.object);
	jit_no_cfi(us, p, n);
	us->walks++;
	us->ends[us->res.end < UNWIND_END__NR ? us->res.end : UNWIND_END_BAD_RULE]++;
	/* past the SIZE recorded: a larger one helps (else the dump was cut before it) */
	if (us->res.end == UNWIND_END_STACK_SHORT && us->res.stack_need > us->stack_need &&
	    (!smp->attr || us->res.stack_need > smp->attr->attr.sample_stack_user))
		us->stack_need = us->res.stack_need;
	if (us->res.end == UNWIND_END_NO_CFI)
		count_no_cfi(us, us->res.object ? us->res.object : UNKNOWN_LABEL);
	*res = &us->res;
	return n;
}

static const struct no_cfi *most_no_cfi(const struct user_stack *us)
{
	const struct no_cfi *n, *best = NULL;

	for (n = us->no_cfi; n; n = n->hh.next)
		if (!best || n->count > best->count ||
		    (n->count == best->count && strcmp(n->object, best->object) < 0))
			best = n;
	return best;
}

/* The stacks that stopped at JIT code without unwinding info: a warning of their own. */
static void report_jit(const struct user_stack *us, const char *path)
{
	char fix[256];
	uint64_t n = us->ends[UNWIND_END_JIT_NO_CFI];

	if (n)
		warning("'%s': %" PRIu64 " of %" PRIu64 " user stacks stopped at JIT code without "
			"unwinding info (a perf map's, or a jitdump's without it): %s", path, n,
			us->walks, unwind_end__fix(UNWIND_END_JIT_NO_CFI, 0, fix, sizeof(fix)));
}

void user_stack__report(const struct user_stack *us, const char *path)
{
	uint64_t early = 0;
	int e, most = -1;
	const struct no_cfi *obj;
	char fix[256];
	const char *tail;

	if (!us)
		return;
	report_jit(us, path);
	for (e = 0; e < UNWIND_END__NR; e++) {
		if (e == UNWIND_END_COMPLETE || e == UNWIND_END_JIT_NO_CFI || !us->ends[e])
			continue;
		early += us->ends[e];
		if (most < 0 || us->ends[e] > us->ends[most])
			most = e;
	}
	if (!early)
		return;
	obj = most == UNWIND_END_NO_CFI ? most_no_cfi(us) : NULL;
	tail = unwind_end__fix(most, us->stack_need, fix, sizeof(fix));
	if (obj) {
		const char *what = map_name__anon_what(obj->object);

		warning("'%s': %" PRIu64 " of %" PRIu64 " user stacks ended early; most often "
			"(%" PRIu64 "): no CFI, %" PRIu64 " of them for '%s'%s%s%s", path, early,
			us->walks, us->ends[most], obj->count, obj->object, what ? " (" : "",
			what ? what : "", what ? ")" : "");
	}
	else
		warning("'%s': %" PRIu64 " of %" PRIu64 " user stacks ended early; most often "
			"(%" PRIu64 "): %s%s%s", path, early, us->walks, us->ends[most],
			unwind_end__name(most), tail ? ": " : "", tail ? tail : "");
}
