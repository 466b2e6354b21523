/*
 * user-stack: the user part of a --call-graph dwarf sample's stack. The
 * kernel's call chain stops at the user boundary; the sample carries the
 * user registers and a copy of the user stack instead (PERF_SAMPLE_REGS_USER,
 * PERF_SAMPLE_STACK_USER), which are unwound here (unwind.h) in the sampled
 * process's address space at the sample's time (unwind-space.h).
 *
 * It also keeps the run's tally of how walks ended, so the run can end
 * with one warning naming the most common reason stacks were cut short
 * (no CFI for an object, a stack dump too short for the stack, ...). A
 * walk that found no CFI at JIT code the jitmap has no unwinding rules
 * for ends as UNWIND_END_JIT_NO_CFI: the runtime's to fix, not an early
 * end of the unwinder's.
 *
 * Not thread-safe. Never fails (allocation failure dies).
 */
#ifndef JITSYM_USER_STACK_H
#define JITSYM_USER_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unwind/unwind.h"

struct pd_sample;
struct proc;
struct resolver;
struct jitmap;
struct strpool;

struct user_stack;

/*
 * An unwinder over r's DSOs and jm's JIT code (jm may be NULL: none) for a
 * recording of arch (perf's header arch; NULL: x86_64). r, jm and pool are
 * borrowed and must outlive it; jm must be advanced to each sample's time.
 */
struct user_stack *user_stack__new(struct resolver *r, struct jitmap *jm, struct strpool *pool,
				   const char *arch);
void user_stack__delete(struct user_stack *us);     /* accepts NULL */

/* Whether smp carries a user stack dump (and registers) to unwind. */
bool user_stack__has(const struct pd_sample *smp);

/*
 * Unwind smp's user stack in process p (NULL: nothing mapped) into ips,
 * leaf first (ips[0] is the user ip, the rest return addresses), at most
 * max. Returns the number written; *res says how the walk ended (valid
 * until the next call; res->object is interned for the run).
 */
size_t user_stack__unwind(struct user_stack *us, struct proc *p, const struct pd_sample *smp,
			  uint64_t *ips, size_t max, const struct unwind_result **res);

/*
 * After the run: when some stacks ended early, one warning naming path and
 * the most common reason (with its object for "no CFI", the SIZE to
 * record with for "stack dump too short"); when some stopped at JIT code
 * without unwinding info, a warning of their own naming the fix.
 */
void user_stack__report(const struct user_stack *us, const char *path);

#endif
