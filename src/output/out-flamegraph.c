#include "common/common.h"
#include "output/out-flamegraph.h"
#include "aggregate/aggregate.h"
#include "aggregate/frameclass.h"
#include "common/sbuf.h"
#include "output/svg.h"
#include "output/web.h"

/*
 * The stacks, and their labels, come from the aggregator (aggregate.h);
 * what a frame is, from frameclass.h. This file lays them out and draws.
 *
 * What a frame is, for its colour (svg.h): its frameclass category and
 * tier, as tiers counts it, for every runtime (frame_fg_kind()).
 */

/* Geometry, in pixels. */
#define PAD        10       /* left and right margins */
#define FRAME_H    16       /* one stack level */
#define RECT_H     15
#define TEXT_DY    12       /* label baseline below a frame's top */
#define FONT_SIZE  12       /* monospace, for frame labels */
#define CHAR_W     7.3      /* a monospace advance at FONT_SIZE, rounded up */
#define LEGEND_Y   52       /* top of the legend's first line */
#define LEGEND_H   16
#define LEGEND_CW  6.7      /* advance at the legend's 11 px */
#define BOTTOM     30       /* room for the details line, under the root at the bottom */
#define INFO_H     20       /* the details line, above the root at the top */

struct flamegraph {
	struct flamegraph_opts opts;
	struct aggregator *agg;
	struct sbuf sb;
	/* while writing */
	const struct agg_node *nodes;
	const struct agg_label *labels;
	/*
	 * Per node, the weight through it: the aggregator's nodes carry it
	 * (aggregator__sum_subtrees()); a differential graph's, here.
	 */
	uint64_t *total;
	bool ready;                 /* the totals are known */
	uint8_t *frame_kinds;       /* per frame id: svg_kind, SVGK_NR_KINDS until known */
	size_t nr_frames, nr_nodes;
	/* a differential graph: its tree (no aggregator), BASE's totals per node */
	const struct flamegraph_diff *diff;
	uint64_t *base_total;
	double max_change;          /* the largest |change| of a frame drawn; 0: none */
	/*
	 * What the weights are: the on-CPU samples seen of clock events
	 * (their periods are ns) and of others, the first other's event.
	 */
	uint64_t nr_clock, nr_counted;
	char *counted_event;
	enum fg_unit {
		FGU_SAMPLES,            /* sample counts */
		FGU_NS,                 /* nanoseconds: off-CPU, or clock periods */
		FGU_PERIOD,             /* periods of other events, or mixed with ns */
	} unit;                     /* set when writing */
};

struct flamegraph *flamegraph__new(const struct flamegraph_opts *opts)
{
	struct aggregate_opts ao = {
		.stack = opts->stack, .node_frames = true,
	};
	struct flamegraph *fg = xcalloc(1, sizeof(*fg));

	fg->opts = *opts;
	if (!fg->opts.width)
		fg->opts.width = FLAMEGRAPH_DEFAULT_WIDTH;
	fg->agg = aggregator__new(&ao);
	fg->sb = (struct sbuf)SBUF_INIT;
	return fg;
}

void flamegraph__delete(struct flamegraph *fg)
{
	if (!fg)
		return;
	aggregator__delete(fg->agg);
	free(fg->total);
	free(fg->base_total);
	free(fg->frame_kinds);
	free(fg->counted_event);
	sbuf_release(&fg->sb);
	free(fg);
}

/* An on-CPU sample: what its period counts (ns for the clock events). */
static void note_unit(struct flamegraph *fg, const struct resolved_sample *rs)
{
	const struct sample_facts *sf = &rs->facts;

	if (fg->opts.offcpu == OFFCPU_ONLY ||
	    (fg->opts.offcpu == OFFCPU_BOTH && rs->nr_frames &&
	     rs->frames[0].sym && !strcmp(rs->frames[0].sym, OFFCPU_FRAME)))
		return;         /* off-CPU: ns */
	if (sf->event.is_clock) {
		fg->nr_clock++;
	} else {
		fg->nr_counted++;
		if (!fg->counted_event && sf->event.name)
			fg->counted_event = xstrdup(sf->event.name);
	}
}

void flamegraph__new_recording(struct flamegraph *fg)
{
	aggregator__new_session(fg->agg);
}

void flamegraph__add(struct flamegraph *fg, const struct resolved_sample *rs)
{
	if (fg->opts.stack.weight_period)
		note_unit(fg, rs);
	aggregator__add(fg->agg, rs);
}

/*
 * Time when every weight is ns: off-CPU stacks alone, or on-CPU samples
 * of clock events only (beside off-CPU stacks or not).
 */
static enum fg_unit weight_unit(const struct flamegraph *fg)
{
	if (!fg->opts.stack.weight_period)
		return FGU_SAMPLES;
	if (fg->diff || fg->nr_counted)
		return FGU_PERIOD;
	return fg->opts.offcpu || fg->nr_clock ? FGU_NS : FGU_PERIOD;
}

/*
 * A frame's colour kind: frameclass's category, as tiers counts it (the
 * same rows, guesses included, every runtime: HotSpot's "Interpreter" is
 * interpreted, PHP's traces optimizing JIT, V8's Builtins_ stubs), drawn
 * as svg__category_kind() draws the category; JIT code of no tier known
 * apart by who resolved it (jitdump or perf map).
 */
static enum svg_kind frame_fg_kind(enum frame_kind kind, const char *sym)
{
	struct frame_class fc;

	frameclass__classify(kind, sym, &fc);
	switch (fc.category) {
	case FC_JIT:
		return kind == FRAME_JIT ? SVGK_JIT : SVGK_PERFMAP;
	case FC_UNKNOWN:
		/* --on-off-cpu's leaf: blue, as off-CPU flame graphs are */
		return sym && !strcmp(sym, OFFCPU_FRAME) ? SVGK_OFFCPU : SVGK_UNKNOWN;
	case FC_KERNEL:
	case FC_NATIVE:
	case FC_INTERPRETED:
	case FC_BASELINE:
	case FC_OPTIMIZED:
	case FC_STUB:
	case FC_RUNTIME:
	case FC_NR_CATEGORIES:
	default:
		return svg__category_kind(fc.category, fc.tier);
	}
}

/* Node v's kind: the root, a process, or by the first frame that made it. */
static enum svg_kind node_kind(struct flamegraph *fg, uint32_t v)
{
	const struct agg_frame *frames;
	uint32_t id;

	if (v == AGG_ROOT)
		return SVGK_ROOT;
	if (fg->nodes[v].parent == AGG_ROOT)
		return SVGK_PROCESS;
	id = aggregator__node_frame(fg->agg, v);
	if (id == AGG_NO_FRAME || id >= fg->nr_frames)
		BUG("flamegraph node %" PRIu32 " without its frame", v);
	if (fg->frame_kinds[id] == SVGK_NR_KINDS) {
		frames = aggregator__frames(fg->agg, &fg->nr_frames);
		fg->frame_kinds[id] = (uint8_t)frame_fg_kind(frames[id].kind, frames[id].sym);
	}
	return (enum svg_kind)fg->frame_kinds[id];
}

/* Node v's name: "all" for the root, else its label. */
static const char *node_name(const struct flamegraph *fg, uint32_t v)
{
	return v == AGG_ROOT ? "all" : fg->labels[fg->nodes[v].label].str;
}

/* ---- text -------------------------------------------------------------- */

/*
 * The label of a frame w pixels wide: its name, or the start of it and
 * "..", or nothing when fewer than 3 characters fit. The script does the
 * same when it zooms.
 */
static void add_label(struct sbuf *sb, const char *name, double w)
{
	double fit = (w - 6) / CHAR_W;
	size_t n;

	if (fit < 3)
		return;
	n = (size_t)fit;
	if (svg__xml_chars(name) <= n) {
		svg__add_xml(sb, name, SIZE_MAX);
	} else {
		svg__add_xml(sb, name, n - 2);
		sbuf_addstr(sb, "..");
	}
}

/* A weight as a bare number or time: "12", "1,200,000", "2.50 ms". */
static void add_value(struct sbuf *sb, const struct flamegraph *fg, uint64_t v)
{
	if (fg->unit == FGU_NS)
		svg__add_ns(sb, v);
	else
		svg__add_count(sb, v);
}

/* "12 samples", "period 1,200,000", "2.50 ms off-CPU", "2.50 ms on-CPU". */
static void add_amount(struct sbuf *sb, const struct flamegraph *fg, uint64_t v)
{
	switch (fg->unit) {
	case FGU_SAMPLES:
		svg__add_count(sb, v);
		sbuf_addstr(sb, v == 1 ? " sample" : " samples");
		break;
	case FGU_NS:
		svg__add_ns(sb, v);
		if (fg->opts.offcpu != OFFCPU_BOTH)
			sbuf_addstr(sb, fg->opts.offcpu ? " off-CPU" : " on-CPU");
		break;
	case FGU_PERIOD:
	default:
		sbuf_addstr(sb, "period ");
		svg__add_count(sb, v);
		break;
	}
}

/* ---- layout ------------------------------------------------------------ */

struct fg_frame {               /* a frame to draw */
	uint32_t node;
	enum svg_kind kind;
	uint64_t start;             /* samples left of it */
	uint64_t self;              /* samples in none of its callees */
	unsigned depth;             /* 0: the root */
};

struct fg_layout {
	struct fg_frame *frames;    /* depth first, callees by name */
	size_t nr, alloc;
	unsigned max_depth;
	size_t nr_omitted;          /* under minwidth, with their callees */
	bool kinds[SVGK_NR_KINDS];    /* among the frames drawn */
	double scale;               /* pixels per sample */
	int width, height, top;
	int frames_y;               /* the top of the root (root at the top) */
	int info_y;                 /* the details line's baseline */
};

/* ---- differences -------------------------------------------------------- */

static double absd(double x)
{
	return x < 0 ? -x : x;
}

/* The weight through node v: its own and its callees'. */
static uint64_t node_total(const struct flamegraph *fg, uint32_t v)
{
	return fg->total ? fg->total[v] : fg->nodes[v].weight;
}

/* Node v's change of self weight from BASE: in points of each run's total, or raw. */
static double self_change(const struct flamegraph *fg, uint32_t v)
{
	const struct flamegraph_diff *d = fg->diff;
	double base = (double)d->base_self[v], new = (double)fg->nodes[v].weight;

	if (d->absolute)
		return new - base;
	return (node_total(fg, AGG_ROOT) ? 100 * new / (double)node_total(fg, AGG_ROOT) : 0) -
	       (d->base_sum ? 100 * base / (double)d->base_sum : 0);
}

/* BASE's totals per node, and the largest change of a frame NEW has. */
static void diff_totals(struct flamegraph *fg)
{
	size_t i;
	double c;

	fg->base_total = xcalloc(fg->nr_nodes ? fg->nr_nodes : 1, sizeof(*fg->base_total));
	for (i = fg->nr_nodes; i-- > 0;) {
		fg->base_total[i] += fg->diff->base_self[i];
		if (i)
			fg->base_total[fg->nodes[i].parent] += fg->base_total[i];
		c = absd(self_change(fg, (uint32_t)i));
		if (i && fg->total[i] && c > fg->max_change)
			fg->max_change = c;
	}
}

/* A change's colour: against the largest one drawn. */
static void change_colour(const struct flamegraph *fg, double change, char col[8])
{
	svg__change_colour(fg->max_change > 0 ? change / fg->max_change : 0, col);
}

/*
 * Read the tree for writing: each node's total (its own weight and its
 * callees'), in the aggregator's nodes or, for a differential graph, in
 * an array (a child's id is above its parent's, so one pass from the last
 * node up sums them); and the frame kinds' cache.
 */
static void tree_totals(struct flamegraph *fg)
{
	size_t nr_labels, i;

	fg->ready = true;
	if (!fg->diff) {
		aggregator__freeze(fg->agg);
		aggregator__sum_subtrees(fg->agg);
		fg->nodes = aggregator__nodes(fg->agg, &fg->nr_nodes);
		fg->labels = aggregator__labels(fg->agg, &nr_labels);
		aggregator__frames(fg->agg, &fg->nr_frames);
	}
	fg->frame_kinds = xmalloc(fg->nr_frames ? fg->nr_frames : 1);
	memset(fg->frame_kinds, SVGK_NR_KINDS, fg->nr_frames);
	if (!fg->diff)
		return;
	fg->nodes = fg->diff->nodes;
	fg->nr_nodes = fg->diff->nr_nodes;
	fg->labels = fg->diff->labels;
	fg->total = xcalloc(fg->nr_nodes ? fg->nr_nodes : 1, sizeof(*fg->total));
	for (i = fg->nr_nodes; i-- > 0;) {
		fg->total[i] += fg->nodes[i].weight;
		if (i)
			fg->total[fg->nodes[i].parent] += fg->total[i];
	}
	diff_totals(fg);
}

/* qsort_r: children by name; fg is the flame graph. */
static int cmp_nodes(const void *a, const void *b, void *fg)
{
	return strcmp(node_name(fg, *(const uint32_t *)a), node_name(fg, *(const uint32_t *)b));
}

struct fg_todo {
	uint32_t node;
	uint64_t start;
	unsigned depth;
	bool omit;
};

/* Place every frame; without recursion, as stacks can be thousands deep. */
static void layout(struct flamegraph *fg, struct fg_layout *lo)
{
	uint64_t total = node_total(fg, AGG_ROOT), start, sum;
	double min = fg->opts.minwidth_pct ? fg->opts.minwidth / 100 * (double)total :
		     fg->opts.minwidth / lo->scale;
	struct fg_todo *todo = NULL, t;
	size_t nr = 0, alloc = 0, nr_c, i;
	struct agg_index idx;
	uint32_t *c;

	agg_index__build(fg->nodes, fg->nr_nodes, &idx);
	ALLOC_GROW(todo, 1, alloc);
	todo[nr++] = (struct fg_todo){ AGG_ROOT, 0, 0, false };
	while (nr) {
		t = todo[--nr];
		t.omit = t.omit || (double)node_total(fg, t.node) < min;
		/* the children, sorted by name in place */
		c = idx.child + idx.first[t.node];
		nr_c = idx.first[t.node + 1] - idx.first[t.node];
		if (nr_c > 1)
			qsort_r(c, nr_c, sizeof(*c), cmp_nodes, fg);
		for (sum = 0, i = 0; i < nr_c; i++)
			sum += node_total(fg, c[i]);
		if (t.omit) {
			lo->nr_omitted++;
		} else {
			enum svg_kind kind = fg->diff ? SVGK_ROOT : node_kind(fg, t.node);

			ALLOC_GROW(lo->frames, st_add(lo->nr, 1), lo->alloc);
			lo->frames[lo->nr++] = (struct fg_frame){
				t.node, kind, t.start, node_total(fg, t.node) - sum, t.depth };
			if (t.depth > lo->max_depth)
				lo->max_depth = t.depth;
			lo->kinds[kind] = true;
		}
		/* callees left to right, so pushed right to left */
		start = t.start + sum;
		for (i = nr_c; i-- > 0;) {
			start -= node_total(fg, c[i]);
			if (fg->diff && !node_total(fg, c[i]))
				continue;       /* BASE's only */
			ALLOC_GROW(todo, st_add(nr, 1), alloc);
			todo[nr++] = (struct fg_todo){ c[i], start, t.depth + 1, t.omit };
		}
	}
	free(todo);
	agg_index__release(&idx);
}

/* ---- SVG --------------------------------------------------------------- */

/* A differential graph's legend, on one line: what red, blue and grey mean. */
static int add_diff_legend(struct sbuf *sb, const struct flamegraph *fg)
{
	static const char *const names[] = { "grew", "shrank", "unchanged" };
	static const double change[] = { 1, -1, 0 };
	double x = PAD;
	size_t i;
	char col[8];

	sbuf_addstr(sb, "<g id=\"legend\" font-size=\"11\">\n");
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		svg__change_colour(change[i], col);
		sbuf_addf(sb, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			  "<text x=\"%.1f\" y=\"%d\">%s</text>\n",
			  x, LEGEND_Y, col, x + 16, LEGEND_Y + 10, names[i]);
		x += 16 + strlen(names[i]) * LEGEND_CW + 14;
	}
	sbuf_addf(sb, "<text x=\"%.1f\" y=\"%d\">colour: change of a frame's self %s from BASE "
		  "to NEW%s; width: NEW</text>\n", x, LEGEND_Y + 10,
		  fg->opts.stack.weight_period ? "period" : "samples",
		  fg->diff->absolute ? "" : ", as shares of each run's total");
	sbuf_addstr(sb, "</g>\n");
	return 1;
}

/* The legend: one swatch per kind drawn; returns the number of lines. */
static int add_legend(struct sbuf *sb, const struct flamegraph *fg, const struct fg_layout *lo)
{
	double x = PAD, item;
	int line = 0, k;
	char col[8];

	if (fg->diff)
		return add_diff_legend(sb, fg);
	sbuf_addstr(sb, "<g id=\"legend\" font-size=\"11\">\n");
	for (k = SVGK_PROCESS; k < SVGK_NR_KINDS; k++) {
		if (!lo->kinds[k])
			continue;
		item = 16 + strlen(svg__kind_name(k)) * LEGEND_CW + 14;
		if (x > PAD && x + item > lo->width - PAD) {
			x = PAD;
			line++;
		}
		svg__kind_colour(k, col);
		sbuf_addf(sb, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			  "<text x=\"%.1f\" y=\"%d\">%s</text>\n",
			  x, LEGEND_Y + line * LEGEND_H, col,
			  x + 16, LEGEND_Y + line * LEGEND_H + 10, svg__kind_name(k));
		x += item;
	}
	sbuf_addstr(sb, "</g>\n");
	return line + (x > PAD ? 1 : 0);
}

/*
 * What a weighted graph's widths are, after its samples: ", weighted by
 * ..." naming the unit and the total.
 */
static void add_weighting(struct sbuf *sb, const struct flamegraph *fg)
{
	uint64_t total = node_total(fg, AGG_ROOT);

	if (fg->diff) {
		sbuf_addstr(sb, ", weighted by period (");
		svg__add_count(sb, total);
		sbuf_addstr(sb, ")");
		return;
	}
	if (fg->opts.offcpu == OFFCPU_ONLY)
		sbuf_addstr(sb, ", weighted by the time off the CPU: ");
	else if (fg->opts.offcpu == OFFCPU_BOTH && fg->unit == FGU_NS)
		sbuf_addstr(sb, ", weighted by time: on-CPU by period, off-CPU ([off-cpu]) "
			    "by the time off the CPU; ");
	else if (fg->unit == FGU_NS)
		sbuf_addstr(sb, ", weighted by period: CPU time ");
	if (fg->unit == FGU_NS) {
		svg__add_ns(sb, total);
		sbuf_addstr(sb, " in all (");
		svg__add_count(sb, total);
		sbuf_addstr(sb, " ns)");
		return;
	}
	/* the period of another event: how many of its occurrences a sample stands for */
	sbuf_addstr(sb, ", weighted by period: counts of ");
	if (fg->counted_event) {
		svg__add_xml(sb, fg->counted_event, SIZE_MAX);
		sbuf_addstr(sb, " events");
	} else {
		sbuf_addstr(sb, "events");
	}
	if (fg->opts.offcpu == OFFCPU_BOTH)
		sbuf_addstr(sb, " on-CPU and ns off-CPU ([off-cpu]), which do not compare");
	sbuf_addstr(sb, "; ");
	svg__add_count(sb, total);
	sbuf_addstr(sb, " in all");
}

static void add_subtitle(struct sbuf *sb, const struct flamegraph *fg, const struct fg_layout *lo)
{
	uint64_t nr_samples = fg->diff ? fg->diff->nr_samples[1] : aggregator__nr_samples(fg->agg);
	const char *event = fg->diff ? fg->diff->event : aggregator__event(fg->agg);

	if (!node_total(fg, AGG_ROOT)) {
		sbuf_addstr(sb, nr_samples ? "no weight: every sample has period 0" : "no samples");
		return;
	}
	if (event) {
		svg__add_xml(sb, event, SIZE_MAX);
		sbuf_addstr(sb, ": ");
	}
	if (fg->diff) {
		sbuf_addstr(sb, "BASE ");
		svg__add_count(sb, fg->diff->nr_samples[0]);
		sbuf_addstr(sb, ", NEW ");
	}
	svg__add_count(sb, nr_samples);
	if (fg->opts.offcpu == OFFCPU_ONLY)
		sbuf_addstr(sb, nr_samples == 1 ? " off-CPU stack" : " off-CPU stacks");
	else
		sbuf_addstr(sb, nr_samples == 1 ? " sample" : " samples");
	if (fg->opts.stack.weight_period)
		add_weighting(sb, fg);
	if (lo->nr_omitted) {
		sbuf_addf(sb, "; %zu frame%s narrower than %g%s not shown", lo->nr_omitted,
			  lo->nr_omitted == 1 ? "" : "s", fg->opts.minwidth,
			  fg->opts.minwidth_pct ? "% of all" : " px");
	}
}

static void add_head(struct sbuf *sb, const struct flamegraph *fg, const struct fg_layout *lo,
		     const struct sbuf *legend)
{
	int w = lo->width;
	char comment[160];
	struct svg_page page = {
		.width = w, .height = lo->height, .font_family = "monospace", .font_size = FONT_SIZE,
		.comment = comment, .style = web_flamegraph_css, .prefix = "fg", .items = "frames",
	};

	snprintf(comment, sizeof(comment), "jitsym flamegraph: the stacks of jitsym fold, the root "
		 "at the %s, callers %s callees. Click a frame to zoom, Ctrl-F to search.",
		 fg->opts.root_at_bottom ? "bottom" : "top",
		 fg->opts.root_at_bottom ? "below" : "above");
	svg__add_page_head(sb, &page);
	sbuf_addf(sb, "<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\" "
		  "font-family=\"sans-serif\" font-size=\"17\">", w / 2);
	svg__add_xml(sb, fg->opts.title ? fg->opts.title :
		     fg->diff ? "Differential Flame Graph" : "Flame Graph", SIZE_MAX);
	sbuf_addf(sb, "</text>\n<text id=\"subtitle\" x=\"%d\" y=\"42\" text-anchor=\"middle\" "
		  "font-size=\"11\" fill=\"#555\">", w / 2);
	add_subtitle(sb, fg, lo);
	sbuf_addstr(sb, "</text>\n");
	sbuf_addf(sb, "<text id=\"unzoom\" class=\"ctl hidden\" x=\"%d\" y=\"24\">Reset Zoom</text>\n"
		  "<text id=\"clear\" class=\"ctl hidden\" x=\"%d\" y=\"24\" text-anchor=\"end\">Clear</text>\n"
		  "<text id=\"search\" class=\"ctl\" x=\"%d\" y=\"24\" text-anchor=\"end\">Search</text>\n",
		  PAD, w - PAD - 60, w - PAD);
	sbuf_add(sb, legend->buf, legend->len);
	sbuf_addf(sb, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n"
		  "<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"></text>\n"
		  "<text id=\"status\" display=\"none\">script not run</text>\n"
		  "<g id=\"frames\">\n", PAD, lo->info_y, w - PAD, lo->info_y);
}

/* The rest of a differential frame's title: BASE's weights, the change; "</title>". */
static void add_diff_title(struct sbuf *sb, const struct flamegraph *fg, uint32_t v)
{
	const struct flamegraph_diff *d = fg->diff;
	double c = self_change(fg, v);

	if (absd(c) < 0.005)
		c = 0;          /* no "-0.00" */
	sbuf_addstr(sb, "&#10;BASE ");
	add_amount(sb, fg, fg->base_total[v]);
	sbuf_addf(sb, " (%.2f%%), self ",
		  d->base_sum ? (double)fg->base_total[v] * 100 / (double)d->base_sum : 0.0);
	svg__add_count(sb, d->base_self[v]);
	if (d->absolute)
		sbuf_addf(sb, "&#10;self change %+.0f", c);
	else
		sbuf_addf(sb, "&#10;self change %+.2f points", c);
	sbuf_addstr(sb, "</title>");
}

/* One frame, on one line: title (name, amount, kind), box, label. */
static void add_frame(struct sbuf *sb, const struct flamegraph *fg, const struct fg_layout *lo,
		      const struct fg_frame *fr)
{
	uint64_t count = node_total(fg, fr->node);
	const char *name = node_name(fg, fr->node);
	double x = PAD + (double)fr->start * lo->scale, w = (double)count * lo->scale;
	int y = fg->opts.root_at_bottom ? lo->height - BOTTOM - (int)(fr->depth + 1) * FRAME_H :
		lo->frames_y + (int)fr->depth * FRAME_H;
	char col[8];

	sbuf_addf(sb, "<g class=\"f%s\" data-s=\"%" PRIu64 "\" data-n=\"%" PRIu64 "\"><title>",
		  fr->depth ? "" : " root", fr->start, count);
	svg__add_xml(sb, name, SIZE_MAX);
	sbuf_addstr(sb, "&#10;");
	if (fg->diff)
		sbuf_addstr(sb, "NEW ");
	add_amount(sb, fg, count);
	sbuf_addf(sb, " (%.2f%%), self ", (double)count * 100 / (double)node_total(fg, AGG_ROOT));
	add_value(sb, fg, fr->self);
	if (fg->diff) {
		add_diff_title(sb, fg, fr->node);
		change_colour(fg, self_change(fg, fr->node), col);
	} else {
		sbuf_addf(sb, "&#10;%s</title>", svg__kind_name(fr->kind));
		svg__frame_colour(fr->kind, name, col);
	}
	sbuf_addf(sb, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>",
		  x, y, w, RECT_H, col);
	sbuf_addf(sb, "<text x=\"%.2f\" y=\"%d\">", x + 3, y + TEXT_DY);
	add_label(sb, name, w);
	sbuf_addstr(sb, "</text></g>\n");
}

static void add_tail(struct sbuf *sb, const struct flamegraph *fg, const struct fg_layout *lo)
{
	sbuf_addf(sb, "</g>\n<script><![CDATA[\n"
		  "var fg = { total: %" PRIu64 ", width: %d, pad: %d, cw: %g, down: %d };\n"
		  "%s]]></script>\n</svg>\n", node_total(fg, AGG_ROOT), lo->width, PAD, CHAR_W,
		  fg->opts.root_at_bottom ? -1 : 1, web_flamegraph_js);
}

static void flush_sbuf(struct sbuf *sb, FILE *out)
{
	fwrite(sb->buf, 1, sb->len, out);
	sbuf_reset(sb);
}

int flamegraph__write(struct flamegraph *fg, FILE *out)
{
	struct fg_layout lo = { .width = (int)fg->opts.width };
	struct sbuf legend = SBUF_INIT;
	struct sbuf *sb = &fg->sb;
	int nr_lines, levels;
	size_t i;

	if (!fg->ready)
		tree_totals(fg);
	fg->unit = weight_unit(fg);
	if (node_total(fg, AGG_ROOT)) {
		lo.scale = (double)(lo.width - 2 * PAD) / (double)node_total(fg, AGG_ROOT);
		layout(fg, &lo);
	}
	nr_lines = add_legend(&legend, fg, &lo);
	lo.top = LEGEND_Y + nr_lines * LEGEND_H + 4;
	levels = (int)(lo.nr ? lo.max_depth + 1 : 1);
	if (fg->opts.root_at_bottom) {
		lo.height = lo.top + levels * FRAME_H + BOTTOM;
		lo.info_y = lo.height - 10;
	} else {
		/* the details line between the legend and the root */
		lo.info_y = lo.top + 12;
		lo.frames_y = lo.top + INFO_H;
		lo.height = lo.frames_y + levels * FRAME_H + PAD;
	}
	sbuf_reset(sb);
	add_head(sb, fg, &lo, &legend);
	sbuf_release(&legend);
	for (i = 0; i < lo.nr; i++) {
		add_frame(sb, fg, &lo, &lo.frames[i]);
		if (sb->len > 1 << 16)
			flush_sbuf(sb, out);
	}
	add_tail(sb, fg, &lo);
	flush_sbuf(sb, out);
	if (lo.nr_omitted)
		note("flamegraph: %zu frames narrower than --minwidth %g%s not drawn",
		     lo.nr_omitted, fg->opts.minwidth, fg->opts.minwidth_pct ? "%" : "");
	free(lo.frames);
	/* the command reports it once, when it closes the output */
	return fflush(out) || ferror(out) ? -1 : 0;
}

int flamegraph__write_diff(const struct flamegraph_opts *opts, const struct flamegraph_diff *d,
			   FILE *out)
{
	struct flamegraph fg = { .opts = *opts, .diff = d, .sb = SBUF_INIT };
	int ret;

	if (!fg.opts.width)
		fg.opts.width = FLAMEGRAPH_DEFAULT_WIDTH;
	ret = flamegraph__write(&fg, out);
	free(fg.total);
	free(fg.base_total);
	free(fg.frame_kinds);
	sbuf_release(&fg.sb);
	return ret;
}

int flamegraph__parse_minwidth(struct flamegraph_opts *opts, const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	opts->minwidth_pct = *end == '%';
	if (opts->minwidth_pct)
		end++;
	if (end == arg || *end || errno || !(v >= 0) || v > 1e9)
		return error("--minwidth takes pixels or a percentage (0.1, 0.5%%), not '%s'", arg);
	opts->minwidth = v;
	return 0;
}
