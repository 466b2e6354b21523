/*
 * out-flamegraph: aggregate samples into a call tree and write it as a
 * self-contained interactive SVG flame graph: the root at the top, under
 * the heading, callees below their callers (an "icicle"), children sorted
 * by name; or with root_at_bottom the root at the bottom, callees above,
 * as flamegraph.pl draws them. The root at the top puts the root and the
 * wide frames near it in the first screenful whatever the deepest stack:
 * a deep, narrow chain of calls goes on below, there to scroll to, zoom
 * into or search, and does not push the rest out of view.
 *
 * The tree is the aggregator's (aggregate.h), the stacks "jitsym fold"
 * writes, labelled by the same functions (process name, optionally -PID
 * or -PID/TID, then the frames outermost first, unresolved ones
 * "[unknown]", ';' in names becoming ':', newlines spaces), so a frame's
 * sample count is the sum of the folded lines that pass through it.
 * Frames are coloured by what resolved them (kernel, native, jitdump,
 * perf map, unknown) and, for JIT code, by the V8 tier frameclass.h
 * finds in the name ("JS:*" TurboFan, "JS:+" Maglev, "JS:^" Sparkplug,
 * "JS:~" Ignition); the shade within a kind comes from a hash of the
 * name, so the output depends only on the samples: the same recording
 * gives the same bytes.
 *
 * Widths count samples, or with weight_period sum periods; the heading
 * and the tooltips say which. Nanoseconds (off-CPU stacks, the periods of
 * cpu-clock and task-clock) are written as times ("2.50 ms"), other
 * periods as numbers ("period 1,200,000", the count of the event's
 * occurrences a sample stands for).
 *
 * The SVG carries its own script and style (no network, no fonts): click
 * a frame to zoom into it, "Reset Zoom" to go back, "Search" or Ctrl-F for
 * a regular expression whose frames are highlighted and whose share of all
 * samples is shown. The URL fragment "#zoom=N&search=RE" (N: the frame's
 * index in document order) is applied on load and kept current, and an
 * element with id "status" reports "frames=N errors=E" plus the results
 * of the fragment's search and zoom, for tests.
 */
#ifndef JITSYM_OUT_FLAMEGRAPH_H
#define JITSYM_OUT_FLAMEGRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "aggregate/stack-opts.h"
#include "resolve/sample.h"

#define FLAMEGRAPH_DEFAULT_WIDTH 1200
#define FLAMEGRAPH_MIN_WIDTH 200
#define FLAMEGRAPH_MAX_WIDTH 100000

struct flamegraph_opts {
	/* which stacks, as in struct fold_opts */
	struct stack_opts stack;
	const char *title;      /* NULL: "Flame Graph" */
	unsigned width;         /* image width in pixels; 0: the default */
	/*
	 * Frames narrower than this are not drawn (nor their callees): pixels,
	 * or with minwidth_pct a percentage of all samples.
	 */
	double minwidth;
	bool minwidth_pct;
	bool root_at_bottom;    /* flamegraph.pl's flames, not the icicle */
	/* --off-cpu or --on-off-cpu: the weights are (also) ns off the CPU */
	enum offcpu_mode offcpu;
};

struct flamegraph;

struct flamegraph *flamegraph__new(const struct flamegraph_opts *opts);
void flamegraph__delete(struct flamegraph *fg);    /* accepts NULL */
void flamegraph__add(struct flamegraph *fg, const struct resolved_sample *rs);
/* The next samples are another recording's, merged with the ones before (aggregator__new_session()). */
void flamegraph__new_recording(struct flamegraph *fg);
/*
 * Write the SVG; 0, or -1 when writing failed (out's error flag is set:
 * input_opts__close_output() reports it, once). Says with
 * note() how many frames minwidth left out.
 */
int flamegraph__write(struct flamegraph *fg, FILE *out);

struct agg_node;
struct agg_label;

/*
 * A differential flame graph ("jitsym diff --format svg", diff.h): NEW's
 * stacks, widths from NEW, each frame coloured by the change of its self
 * weight from BASE, as flamegraph.pl colours difffolded.pl's output: red
 * grew, blue shrank, pale grey unchanged, the deeper the larger the
 * change against the largest one drawn. Changes are in shares of each
 * run's total (NEW's self / NEW's total - BASE's self / BASE's total), or
 * with absolute in raw weight. Frames with no weight in NEW are not drawn
 * (diff's table lists them). Title, tooltips ("base, new, change") and
 * legend say so; zoom and search as above.
 */
struct flamegraph_diff {
	const struct agg_node *nodes;   /* parents before children; weight: NEW's self */
	size_t nr_nodes;
	const struct agg_label *labels;
	const uint64_t *base_self;      /* per node: BASE's self weight */
	uint64_t base_sum;              /* BASE's total weight */
	uint64_t nr_samples[2];         /* BASE's and NEW's samples */
	bool absolute;
	const char *event;              /* NULL: none named */
};

/* Write d as SVG with opts (which stacks: unused); as flamegraph__write(). */
int flamegraph__write_diff(const struct flamegraph_opts *opts, const struct flamegraph_diff *d,
			   FILE *out);

/*
 * Parse a --minwidth argument, "0.5" (pixels) or "0.1%" (of all samples),
 * into opts; -1 after error() when it is not a number >= 0.
 */
int flamegraph__parse_minwidth(struct flamegraph_opts *opts, const char *arg);

#endif
