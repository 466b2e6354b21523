/*
 * offcpu: off-CPU time from the context switches a recording holds, for
 * fold, flamegraph and pprof --off-cpu and --on-off-cpu. The session feeds
 * it every sample and switch record in time order, before its filters; it
 * gives back, through a callback, the stack of each thread that left the
 * CPU as a sample whose period is the ns until that thread ran again (its
 * time stays the time it left). Sources, whichever the recording has:
 *
 *  - sched:sched_switch samples (perf record -e sched:sched_switch -g):
 *    taken in the task leaving the CPU (prev_pid), with its stack. It runs
 *    again at the next sched_switch whose next_pid it is.
 *  - PERF_RECORD_SWITCH and SWITCH_CPU_WIDE records (perf record
 *    --switch-events): when each thread left and came back, with no
 *    stack. The stack charged is the thread's last sample before it left
 *    (so the time goes to where it was last seen running, which may be
 *    short of the blocking call); a thread with no sample yet gets no
 *    frame but its ip 0 ("[unknown]").
 *  - samples of "offcpu-time" (perf record --off-cpu, perf 5.19 and up,
 *    BPF): their period already is the time off the CPU in ns; they are
 *    passed on as they are.
 *
 * With sched_switch or switch records, a later sample of the thread, its
 * next switch-out and its EXIT record (which the thread itself makes)
 * also end its time off the CPU: it ran by then. That matters without -a,
 * where a sched_switch is recorded only when a recorded thread leaves the
 * CPU: a thread that comes back after the idle task is not seen to, and
 * its time off then ends at the next of those, over by the time it ran
 * meanwhile (--switch-events beside sched_switch gives the exact time).
 * Preemption counts as off-CPU time, like blocking: the thread did not
 * run. A thread that never runs again before the recording ends (its
 * last switch after its EXIT, or still blocked when the recording
 * stopped) is not charged: how long it stayed off is unknown.
 */
#ifndef JITSYM_OFFCPU_H
#define JITSYM_OFFCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/perfdata.h"
#include "resolve/sample.h"      /* enum offcpu_mode, OFFCPU_FRAME */

/* ev: a switch-out stack as a sample, its period the ns the thread was off the CPU. */
typedef void (*offcpu_fn)(void *ctx, const struct pd_event *ev);

struct offcpu;

struct tracing;

/*
 * Off-CPU time for the recording r reads (its attrs known): NULL after
 * error() when it holds no switches. Delivers through fn(ctx, ev). With
 * sched_switch samples it reads their fields with tr's parse of the
 * tracing data (tracing.h), which must outlive it.
 */
struct offcpu *offcpu__new(struct pd_reader *r, struct tracing *tr, offcpu_fn fn, void *ctx);
void offcpu__delete(struct offcpu *oc);          /* accepts NULL */
/* Whether attr is one offcpu takes as a switch source (its samples are not on-CPU samples). */
bool offcpu__is_source(const struct pd_attr *attr);
/*
 * A sample, in time order: true when it was a switch source's (taken
 * here; the session shows it to no one else).
 */
bool offcpu__sample(struct offcpu *oc, const struct pd_event *ev);
/* A SWITCH or SWITCH_CPU_WIDE record, in time order. */
void offcpu__switch(struct offcpu *oc, const struct pd_event *ev);
/* Thread tid exits at time: it runs then (the thread itself makes the EXIT record). */
void offcpu__exit(struct offcpu *oc, uint32_t tid, uint64_t time);
/* At the end: a note (-v) of the switch-outs never followed by the thread running. */
void offcpu__report(const struct offcpu *oc);

#endif
