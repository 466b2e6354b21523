/*
 * out-fold: aggregate samples into distinct stacks and write them in the
 * folded format of stackcollapse-perf.pl, one line per stack:
 *
 *	comm[-pid[/tid]];outermost;...;leaf COUNT
 *
 * sorted bytewise, as flamegraph.pl, inferno and speedscope read it.
 * Unresolved frames are "[unknown]", or with unknown_dso "[DSO basename]"
 * when their DSO is known; with annotate, kernel frames get the
 * suffix "_[k]" and JIT frames "_[j]". The stacks and their labels are
 * the aggregator's (aggregate.h: agg_frame_label(), agg_process_label());
 * memory grows with the number of distinct stack prefixes (24 bytes
 * each, plus the table that finds them), not with the number of samples.
 */
#ifndef JITSYM_OUT_FOLD_H
#define JITSYM_OUT_FOLD_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate/stack-opts.h"
#include "resolve/sample.h"

struct fold_opts {
	struct stack_opts stack;
	bool annotate;
	bool unknown_dso;     /* --unknown=dso: "[libc.so.6]" rather than "[unknown]" */
};

struct folder;

struct folder *folder__new(const struct fold_opts *opts);
void folder__delete(struct folder *f);      /* accepts NULL */
void folder__add(struct folder *f, const struct resolved_sample *rs);
/* The next samples are another recording's, merged with the ones before (aggregator__new_session()). */
void folder__new_recording(struct folder *f);
/*
 * Write all stacks; 0, or -1 when writing failed (out's error flag is
 * set: input_opts__close_output() reports it, once).
 */
/*
 * Add the stacks of part (a folder made with the same options, into which
 * one recording was read) to f's, as if that recording had been read
 * into f: several recordings read at once are merged so, in order.
 */
void folder__merge(struct folder *f, const struct folder *part);
int folder__write(struct folder *f, FILE *out);

#endif
