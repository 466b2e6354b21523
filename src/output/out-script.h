/*
 * out-script: perf script's text for each sample, so every consumer of
 * "perf script" output (stackcollapse-perf.pl, speedscope, Firefox
 * Profiler, ...) reads jitsym's unchanged. By default:
 *
 *	comm   tid [cpu]   sec.usec:     period      event: 
 *		ADDR SYMBOL+0xOFF (DSO)
 *		...
 *	(blank line)
 *
 * and for tracepoints the fields the session formatted (rs->trace, with
 * session_opts.trace_fields) after the event name, without the period:
 *
 *	perf 21208 [000]  3795.922694: sched:sched_switch: prev_comm=perf ...
 *
 * Fields follow perf 6.1, per event: [cpu], the time and the period only
 * when the event's sample_type has them; the event name padded to the
 * longest event name in the recording; a tracepoint's call chain only when
 * it recorded one (-g) and -F was not given. User-space addresses in call
 * chains are printed as perf 6.1 prints them: relative to the mapped file
 * (ip - start + pgoff); a sample without a call chain gets its ip in full
 * on the header line, as perf prints it.
 *
 * -F chooses the fields as perf script's -F does: "comm,tid,time" prints
 * exactly these (perf's order, not the list's), "+pid,-cpu" changes the
 * defaults. A field named explicitly that an event's samples lack (cpu
 * without PERF_SAMPLE_CPU, ...) is an error; one that is only a default is
 * left out. sym, symoff, dso and srcline print only with ip.
 */
#ifndef JITSYM_OUT_SCRIPT_H
#define JITSYM_OUT_SCRIPT_H

#include <stdbool.h>
#include <stdio.h>

#include "resolve/sample.h"

/* The fields -F can name, in the order perf prints them. */
enum script_field {
	SF_COMM    = 1u << 0,
	SF_PID     = 1u << 1,
	SF_TID     = 1u << 2,
	SF_CPU     = 1u << 3,
	SF_TIME    = 1u << 4,
	SF_PERIOD  = 1u << 5,
	SF_EVENT   = 1u << 6,
	SF_TRACE   = 1u << 7,
	SF_IP      = 1u << 8,
	SF_SYM     = 1u << 9,
	SF_SYMOFF  = 1u << 10,
	SF_DSO     = 1u << 11,
	SF_SRCLINE = 1u << 12,
};

/* A -F argument. */
struct script_fields {
	bool given;             /* -F was given */
	bool replace;           /* "a,b": exactly set; else "+a,-b": defaults + add - del */
	unsigned int set, add, del;
};

/* Parse a -F argument into f (a later -F replaces an earlier one, as in perf); -1 after error(). */
int script_fields__parse(struct script_fields *f, const char *arg);
/* Whether f may print field (enum script_field) for some event. */
bool script_fields__want(const struct script_fields *f, unsigned int field);

struct script_out_opts {
	const struct script_fields *fields;   /* NULL: perf's defaults */
	const char *path;                     /* the recording's, named in warnings as samples come */
};

struct script_out;

/*
 * A writer for the recording's events ev[0..nr_events) (the attrs known
 * now; pipe mode: after its header records; read during the call only,
 * samples of later ones bring their own). opts and what it points to
 * must outlive the writer.
 * At the first tracepoint fields it prints it warns when the recording's
 * tracing data is missing or damaged (samples then print without their
 * fields). NULL after error() when a field named in -F cannot be
 * printed for an event of the recording, as perf script refuses it.
 */
struct script_out *script_out__new(FILE *out, const struct sample_event *ev, size_t nr_events,
				   const struct script_out_opts *opts);
void script_out__delete(struct script_out *so);   /* accepts NULL */
void script_out__sample(struct script_out *so, const struct resolved_sample *rs);

#endif
