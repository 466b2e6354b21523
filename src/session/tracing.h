/*
 * tracing: the session's one parse of the recording's tracing data
 * (tracedata.h), made at the first need, for both who read it: offcpu
 * (sched_switch's prev_pid and next_pid) and, with
 * session_opts.trace_fields, the fields of each tracepoint sample as
 * perf script prints them, formatted here and handed to the command as
 * const data in the sample (rs->trace), with kernel symbols for
 * %pS-style fields from the session's resolver.
 *
 * The session's thread only: libtraceevent formats into scratch buffers
 * held by the parse, and the resolver is the session's. The struct
 * trace_parse it hands out does not change after the parse, so a hook on
 * a second thread may read it; a sample's struct sample_trace and its text
 * are reused at the next sample, so handoff.c copies them.
 */
#ifndef JITSYM_TRACING_H
#define JITSYM_TRACING_H

#include "session/session.h"

struct tracing;
struct tracedata;

/* Nothing parsed yet: that waits for tracing__data() or tracing__sample(). */
struct tracing *tracing__new(const struct pd_reader *r);
void tracing__delete(struct tracing *t);   /* accepts NULL */

/* Kernel symbols for %pS-style fields come from res (NULL: none) from now on. */
void tracing__set_resolver(struct tracing *t, struct resolver *res);

/*
 * The parse, made at the first call: NULL when the recording has no
 * tracing data or it is damaged (tracing__facts() says which); owned by t.
 */
struct tracedata *tracing__data(struct tracing *t);
/* What the parse found (made by the first call of this or tracing__data()); owned by t. */
const struct trace_parse *tracing__facts(struct tracing *t);

/*
 * The fields of sample smp when its attr is a tracepoint's, else NULL:
 * owned by t, valid (with its text) until the next call.
 */
const struct sample_trace *tracing__sample(struct tracing *t, const struct pd_sample *smp);

#endif
