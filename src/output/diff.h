/*
 * diff: two recordings' stacks, BASE and NEW, merged into one tree by
 * their labels, and written as what "jitsym diff" prints:
 *
 *  - folded: "stack BASE NEW" per distinct stack of either run (the union),
 *    sorted bytewise as fold sorts, raw weights (samples, or periods with
 *    weight_period): difffolded.pl's output, flamegraph.pl's input;
 *  - table: the functions that grew and shrank most, by self and by total
 *    weight, as shares of each run's total (or raw, absolute), under a
 *    line saying how much of NEW's JIT-leaf weight BASE has by name and by
 *    whole stack (how well the runs' names matched);
 *  - svg: NEW's flame graph, each frame coloured by the change of its self
 *    weight from BASE (out-flamegraph.h: flamegraph__write_diff()).
 *
 * Each run is aggregated (aggregate.h) with fold's labels, the process
 * as its name only (pids differ between runs), and, with normalize, frame
 * labels in their normal form (frame-normalize.h), so that JIT code that
 * changed tier or address between runs is one function. Nodes of the two
 * runs with the same path of labels are one node of the merged tree.
 */
#ifndef JITSYM_DIFF_H
#define JITSYM_DIFF_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate/stack-opts.h"
#include "resolve/sample.h"

enum diff_format { DIFF_FOLDED, DIFF_TABLE, DIFF_SVG };

struct diff_opts {
	bool normalize;         /* frame-normalize.h's labels */
	struct stack_opts stack;   /* no_kernel, weight_period */
	bool absolute;          /* table and colours by raw weight, not by shares */
	unsigned top;           /* the table's rows per ranking */
	const char *title;      /* svg: NULL for the default */
	unsigned width;         /* svg: pixels; 0 for the default */
	double minwidth;        /* svg: as flamegraph_opts */
	bool minwidth_pct;
};

struct differ;

struct differ *differ__new(const struct diff_opts *opts);
void differ__delete(struct differ *d);      /* accepts NULL */
/* The samples that follow are BASE's (0) or NEW's (1). */
void differ__set_run(struct differ *d, unsigned run);
void differ__add(struct differ *d, const struct resolved_sample *rs);
/* Write in format f; 0, or -1 when writing failed (out's error flag is set). */
int differ__write(struct differ *d, enum diff_format f, FILE *out);

#endif
