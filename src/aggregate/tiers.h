/*
 * tiers: where a JIT runtime's time goes, by execution tier and over
 * time. Every sample is attributed by its leaf frame (self time) through
 * frameclass (frameclass.h) to a (category, tier) series of its group (a
 * process, or a thread with by_thread), and counted in the interval of
 * the recording it fell in. Samples whose innermost frame of code (the
 * leaf, or the nearest caller of the leaf's stubs, builtins, runtime and
 * native code that is interpreted or JIT code) is interpreted are also
 * counted apart: outer frames do not count, so node's top-level script
 * and module loader, in Ignition all run long, do not make every sample
 * interpreted. After the run, per group, the warm-up point: the first
 * interval after which the interpreted (self) share stays below
 * warm_below, a partial last interval (the runtime's shutdown) left out
 * (tiers.c, warm_interval()).
 *
 * Lifecycle: tiers__new(), tiers__add() per sample, tiers__finish() gives
 * the view the writers read, tiers__delete().
 */
#ifndef JITSYM_TIERS_H
#define JITSYM_TIERS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "aggregate/frameclass.h"   /* enum frame_category, frame_category__name() */
#include "aggregate/stack-opts.h"
#include "resolve/sample.h"

struct marker_set;

struct tiers_opts {
	bool by_thread;        /* --by thread: one group per thread, else per process */
	/*
	 * --by marker: one group per span of the process's marker files
	 * (user-markers.h), a sample in the innermost span around its time
	 * (the latest to start); samples in none are counted apart
	 * (tiers_view.nr_outside). The set is borrowed and filled as the
	 * recording goes; tiers__add() then runs on the session's thread.
	 */
	struct marker_set *markers;
	uint64_t interval;     /* ns; 0: chosen so the recording spans about 50 intervals */
	double warm_below;     /* --warm-below, as a fraction (0.05) */
	struct stack_opts stack;   /* weight_period: weight = period, else 1 per sample */
};

struct tiers_series {      /* one (category, tier) of one group */
	enum frame_category category;
	const char *runtime;   /* "V8", ".NET", ...; NULL: none */
	const char *tier;      /* "TurboFan", "Interpreter", ...; NULL: none */
	uint64_t *samples;     /* [nr_intervals] */
	uint64_t *weight;      /* [nr_intervals] */
	uint64_t total_samples, total_weight;
};

struct tiers_group {       /* a process (or a thread with by_thread, a span with by marker) */
	uint32_t pid, tid;     /* tid: 0 unless by_thread; by marker: the span's number in the process (1, 2, ...) */
	const char *comm;
	const char *span;      /* by marker: the span's name; else NULL */
	uint64_t span_start, span_end;  /* by marker: its times, ns */
	struct tiers_series *series;   /* sorted: category order of enum frame_category, then tier name */
	size_t nr_series;
	uint64_t *samples, *weight;    /* [nr_intervals]: all series */
	/* [nr_intervals]: samples whose innermost frame of code is interpreted (above) */
	uint64_t *interp_samples, *interp_weight;
	uint64_t total_samples, total_weight, total_interp_samples, total_interp_weight;
	/*
	 * The first interval from which on the interpreted (self, leaf) share
	 * stays < warm_below, with compiled code run from there, the group's
	 * last interval not counted when it is partial (less than half the
	 * median interval's weight); -1: none.
	 */
	int64_t warm_interval;
	/* leaf samples in interpreted code; in compiled code (baseline, optimizing, other JIT) */
	bool ran_interpreted, ran_compiled;
};

struct tiers_view {        /* valid after tiers__finish() until tiers__delete() */
	uint64_t t0;           /* first sample's time (ns); times in outputs are seconds from t0 */
	uint64_t interval;     /* ns */
	size_t nr_intervals;   /* interval i is [t0 + i*interval, t0 + (i+1)*interval) */
	struct tiers_group *groups;    /* sorted by total weight, descending, then pid, tid */
	size_t nr_groups;
	bool weight_period;
	/* added: */
	bool by_thread;        /* groups are threads: tid is theirs (may be 0: swapper) */
	bool by_marker;        /* groups are marker spans, in each process's time order */
	uint64_t nr_outside;   /* by marker: samples in no span */
	double warm_below;     /* the option, for writers that show it */
	uint64_t nr_leaf_only; /* samples without a call chain (inclusive = self for them) */
	uint64_t nr_early;     /* samples older than the first (out of order): counted in interval 0 */
};

struct tiers;

struct tiers *tiers__new(const struct tiers_opts *opts);
void tiers__add(struct tiers *t, const struct resolved_sample *rs); /* leaf frame -> category (self) */
const struct tiers_view *tiers__finish(struct tiers *t);
void tiers__delete(struct tiers *t);   /* accepts NULL */

/* writers: each returns 0, or -1 on a write error (the command reports it) */
int tiers__write_table(const struct tiers_view *v, FILE *out);
/* header start_s,end_s,pid,tid,comm,category,tier,samples,weight */
int tiers__write_csv(const struct tiers_view *v, FILE *out);
int tiers__write_json(const struct tiers_view *v, FILE *out);
int tiers__write_svg(const struct tiers_view *v, FILE *out);   /* src/output/out-tiers-svg.c, by tiers-svg */

#endif
