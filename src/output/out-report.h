/*
 * out-report: the flat profile "perf report --stdio --children" prints,
 * one row per (command, DSO, symbol):
 *
 *	# Children      Self  Command      Shared Object   Symbol
 *	    61.48%    37.52%  native-demo  native-demo     [.] hash_bytes
 *
 * Rows are the (command, frame) pairs of the aggregator's tree
 * (aggregate.h, keyed by identity). Self is the weight of the samples
 * whose leaf frame is the symbol; Children (total) the weight of the samples with the symbol anywhere in
 * their stack, counted once per sample however often recursion repeats
 * it. Percentages are of the weight of all samples kept (after --pid,
 * --comm, --event). The weight is the sample period, as perf's, or 1 per
 * sample. Marks: [k] kernel, [.] native or unresolved user code, [j] JIT
 * code, whose DSO column names the jitdump or perf map that described it.
 *
 * With source lines, each row's self weight is broken down by the source
 * line of its leaf address (srcline.h): "file:line", with the inline
 * chain when the address is in inlined code, or "no line info". Native
 * lines are looked up when the report is written, for the rows printed
 * only, so reporter__write() must run while the frames' object views
 * live (the finish hook).
 */
#ifndef JITSYM_OUT_REPORT_H
#define JITSYM_OUT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate/stack-opts.h"
#include "resolve/sample.h"

enum report_sort {
	REPORT_SORT_TOTAL,        /* Children, then Self */
	REPORT_SORT_SELF,
};

struct report_opts {
	enum report_sort sort;
	bool no_children;         /* one "Overhead" column (self), as perf --no-children */
	size_t limit;             /* rows printed; 0: all */
	double percent_limit;     /* hide rows whose sort column, and source lines
	                             whose share, is below this percentage */
	bool source_lines;
	struct stack_opts stack;  /* weight_period: the period per sample, or 1 */
	bool full_paths;          /* DSO and source file paths whole, not their basenames */
};

struct reporter;

/* Never NULL; opts is copied. */
struct reporter *reporter__new(const struct report_opts *opts);
void reporter__delete(struct reporter *r);      /* accepts NULL */
/* The event named in the header; samples name it themselves, this is for none. */
void reporter__set_event(struct reporter *r, const char *name);
void reporter__add(struct reporter *r, const struct resolved_sample *rs);
/*
 * The next samples are another recording's, merged with the ones before
 * (aggregator__new_session()); not with source_lines, whose leaves are
 * the session's files.
 */
void reporter__new_recording(struct reporter *r);
/*
 * Write the header and rows; 0, or -1 when writing failed (out's error
 * flag is set: input_opts__close_output() reports it, once).
 */
int reporter__write(struct reporter *r, FILE *out);

#endif
