#include "common/common.h"
#include "common/sbuf.h"
#include "output/svg.h"
#include "output/web.h"
#include "aggregate/tiers.h"

/*
 * jitsym tiers --format svg: the view of tiers.h as stacked areas, one
 * chart per group, one above the other. Each interval is a column in
 * which the group's series stack, bottom to top in the view's order
 * (category, then tier), each as high as its share of the interval; an
 * interval without samples is left empty. Colours are the flame graph's
 * (svg.h). The interpreted innermost share (tiers.h) is a dashed line over the
 * areas (a click on its legend entry hides it), the warm-up point a
 * vertical line.
 *
 * Every area carries its numbers (data-n: samples per interval, data-w:
 * weights with --weight=period, data-lo/data-hi: its bottom and top in
 * percent), which the script reads for the tooltip and tests read back.
 * The URL fragment "#hover=G[,I[,S]]" hovers chart G's interval I (default:
 * its busiest) over area S (default: the largest there) as a mouse would,
 * "#overlay=0" hides the overlay; the element "status" says
 * "charts=N areas=N errors=N" and "hover=area|none|offscreen".
 */

/* Geometry, in pixels. */
#define WIDTH      1200
#define PAD_L      64       /* room for the share axis */
#define PAD_R      20
#define LEGEND_Y   54
#define LEGEND_H   16
#define LEGEND_CW  6.7      /* an advance at the legend's 11 px */
#define HEAD_H     26       /* a chart's title line */
#define PLOT_H     180
#define AXIS_H     40       /* ticks, their labels, the axis title */
#define CHART_H    (HEAD_H + PLOT_H + AXIS_H)
#define BOTTOM     10
#define TIP_LINES  4

struct ts_key {            /* a series, by what it is, across groups */
	enum frame_category category;
	const char *runtime, *tier;
	char colour[8];
};

struct ts_writer {
	const struct tiers_view *v;
	struct sbuf sb;
	struct ts_key *keys;   /* in the view's series order */
	size_t nr_keys;
	bool any_interp;       /* some group has inclusive interpreted samples */
	int top;               /* of the first chart */
	int height;
	double plot_w;
	uint64_t *tot;         /* [nr_intervals]: the chart's amount per interval */
	uint64_t *cum;         /* [nr_intervals]: amounts of the series below */
	FILE *out;
};

/* ---- numbers ----------------------------------------------------------- */

/* Decimals that print every multiple of ns seconds exactly (at most 9). */
static int exact_decimals(uint64_t ns)
{
	uint64_t unit = 1000000000;
	int d = 0;

	while (d < 9 && ns % unit) {
		unit /= 10;
		d++;
	}
	return d;
}

/* ns as seconds with d decimals, truncated: "1.250". */
static void add_seconds(struct sbuf *sb, uint64_t ns, int d)
{
	uint64_t div = 1;
	int i;

	sbuf_addf(sb, "%" PRIu64, ns / 1000000000);
	if (!d)
		return;
	for (i = d; i < 9; i++)
		div *= 10;
	sbuf_addf(sb, ".%0*" PRIu64, d, ns % 1000000000 / div);
}

/* "100 ms", "2 s", "500 us", "1500 ns". */
static void add_duration(struct sbuf *sb, uint64_t ns)
{
	if (ns && !(ns % 1000000000))
		sbuf_addf(sb, "%" PRIu64 " s", ns / 1000000000);
	else if (ns && !(ns % 1000000))
		sbuf_addf(sb, "%" PRIu64 " ms", ns / 1000000);
	else if (ns && !(ns % 1000))
		sbuf_addf(sb, "%" PRIu64 " us", ns / 1000);
	else
		sbuf_addf(sb, "%" PRIu64 " ns", ns);
}

/* v with 3 decimals, trailing zeros dropped: "100", "33.333", "0.5". */
static void add_num(struct sbuf *sb, double v)
{
	char buf[48];
	size_t n;

	snprintf(buf, sizeof(buf), "%.3f", v);
	n = strlen(buf);
	while (n && buf[n - 1] == '0')
		n--;
	if (n && buf[n - 1] == '.')
		n--;
	if (n == 2 && !memcmp(buf, "-0", 2))
		sbuf_addch(sb, '0');
	else
		sbuf_add(sb, buf, n);
}

/* What the chart measures: samples, or periods with --weight=period. */
static uint64_t amount(const struct tiers_view *v, const uint64_t *samples,
		       const uint64_t *weight, size_t i)
{
	return v->weight_period ? weight[i] : samples[i];
}

/* ---- series keys and colours ------------------------------------------ */

static int cmp_str(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);    /* none first */
	return strcmp(a, b);
}

static int cmp_key(enum frame_category ca, const char *ra, const char *ta,
		   enum frame_category cb, const char *rb, const char *tb)
{
	int r;

	if (ca != cb)
		return ca < cb ? -1 : 1;
	r = cmp_str(ta, tb);
	return r ? r : cmp_str(ra, rb);
}

static int cmp_keys(const void *a, const void *b)
{
	const struct ts_key *x = a, *y = b;

	return cmp_key(x->category, x->runtime, x->tier, y->category, y->runtime, y->tier);
}

/* The key of (c, runtime, tier), or NULL. */
static const struct ts_key *key_of(const struct ts_writer *w, enum frame_category c,
				   const char *runtime, const char *tier)
{
	size_t i;

	for (i = 0; i < w->nr_keys; i++)
		if (!cmp_key(w->keys[i].category, w->keys[i].runtime, w->keys[i].tier,
			     c, runtime, tier))
			return &w->keys[i];
	return NULL;
}

/* Every distinct series of the view, sorted, each kind's shades spread. */
static void collect_keys(struct ts_writer *w)
{
	const struct tiers_view *v = w->v;
	unsigned per_kind[SVGK_NR_KINDS] = { 0 }, seen[SVGK_NR_KINDS] = { 0 };
	size_t g, s, n = 0;

	for (g = 0; g < v->nr_groups; g++)
		n = st_add(n, v->groups[g].nr_series);
	w->keys = xcalloc(n ? n : 1, sizeof(*w->keys));
	for (g = 0; g < v->nr_groups; g++) {
		w->any_interp |= v->groups[g].total_interp_samples > 0;
		for (s = 0; s < v->groups[g].nr_series; s++) {
			const struct tiers_series *se = &v->groups[g].series[s];
			struct ts_key *k;

			if (key_of(w, se->category, se->runtime, se->tier))
				continue;
			k = &w->keys[w->nr_keys++];
			k->category = se->category;
			k->runtime = se->runtime;
			k->tier = se->tier;
		}
	}
	if (w->nr_keys)
		qsort(w->keys, w->nr_keys, sizeof(*w->keys), cmp_keys);
	for (s = 0; s < w->nr_keys; s++)
		per_kind[svg__category_kind(w->keys[s].category, w->keys[s].tier)]++;
	for (s = 0; s < w->nr_keys; s++) {
		enum svg_kind kind = svg__category_kind(w->keys[s].category, w->keys[s].tier);

		svg__kind_shade(kind, seen[kind]++, per_kind[kind], w->keys[s].colour);
	}
}

/* "optimizing JIT: V8 TurboFan", "interpreted: CPython", "kernel", escaped. */
static void add_key_label(struct sbuf *sb, enum frame_category c, const char *runtime,
			  const char *tier)
{
	svg__add_xml(sb, frame_category__name(c), SIZE_MAX);
	if (!runtime && !tier)
		return;
	sbuf_addstr(sb, ": ");
	if (runtime)
		svg__add_xml(sb, runtime, SIZE_MAX);
	if (runtime && tier)
		sbuf_addch(sb, ' ');
	if (tier)
		svg__add_xml(sb, tier, SIZE_MAX);
}

/* "node 1234" or "node 1234/1240", escaped. */
static void add_group_label(struct sbuf *sb, const struct tiers_group *g)
{
	svg__add_xml(sb, g->comm ? g->comm : UNKNOWN_LABEL, SIZE_MAX);
	sbuf_addf(sb, " %" PRIu32, g->pid);
	if (g->tid)
		sbuf_addf(sb, "/%" PRIu32, g->tid);
}

/* ---- the page ---------------------------------------------------------- */

/* The legend: a swatch per series, then the overlay's; returns the number of lines. */
static int add_legend(struct ts_writer *w, struct sbuf *sb)
{
	double x = PAD_L, item;
	int line = 0;
	size_t k;

	sbuf_addstr(sb, "<g id=\"legend\" font-size=\"11\">\n");
	for (k = 0; k <= w->nr_keys; k++) {
		const struct ts_key *key = k < w->nr_keys ? &w->keys[k] : NULL;
		struct sbuf label = SBUF_INIT;

		if (key)
			add_key_label(&label, key->category, key->runtime, key->tier);
		else if (w->any_interp)
			sbuf_addstr(&label, "interpreted innermost");
		else
			break;
		item = 20 + svg__xml_chars(label.buf) * LEGEND_CW + 14;
		if (x > PAD_L && x + item > WIDTH - PAD_R) {
			x = PAD_L;
			line++;
		}
		if (key)
			sbuf_addf(sb, "<g><rect x=\"%.1f\" y=\"%d\" width=\"14\" height=\"12\" fill=\"%s\"/>",
				  x, LEGEND_Y + line * LEGEND_H, key->colour);
		else
			sbuf_addf(sb, "<g id=\"overlay-key\" class=\"ctl\"><title>click: show or hide "
				  "the line</title><line class=\"interp\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
				  "y2=\"%d\"/>", x, LEGEND_Y + line * LEGEND_H + 6, x + 14,
				  LEGEND_Y + line * LEGEND_H + 6);
		sbuf_addf(sb, "<text x=\"%.1f\" y=\"%d\">%s</text></g>\n", x + 20,
			  LEGEND_Y + line * LEGEND_H + 10, label.buf);
		sbuf_release(&label);
		x += item;
	}
	sbuf_addstr(sb, "</g>\n");
	return line + (x > PAD_L ? 1 : 0);
}

static void add_subtitle(const struct ts_writer *w, struct sbuf *sb)
{
	const struct tiers_view *v = w->v;
	uint64_t samples = 0, weight = 0;
	size_t g;

	for (g = 0; g < v->nr_groups; g++) {
		samples += v->groups[g].total_samples;
		weight += v->groups[g].total_weight;
	}
	if (!samples) {
		sbuf_addstr(sb, "no samples");
		return;
	}
	svg__add_count(sb, samples);
	sbuf_addstr(sb, samples == 1 ? " sample" : " samples");
	if (v->weight_period) {
		sbuf_addstr(sb, ", weighted by period (");
		svg__add_count(sb, weight);
		sbuf_addch(sb, ')');
	}
	sbuf_addf(sb, " in %zu group%s; leaf frames (self time), intervals of ", v->nr_groups,
		  v->nr_groups == 1 ? "" : "s");
	add_duration(sb, v->interval);
}

static void add_head(struct ts_writer *w, const struct sbuf *legend)
{
	struct sbuf *sb = &w->sb;
	struct svg_page page = {
		.width = WIDTH, .height = w->height, .font_family = "sans-serif", .font_size = 12,
		.comment = "jitsym tiers: each group's samples by the tier of their leaf frame, "
			   "as shares of each interval. Hover for details.",
		.style = web_tiers_css, .prefix = "ts", .items = "charts",
	};

	svg__add_page_head(sb, &page);
	sbuf_addf(sb, "<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"17\">"
		  "Execution tiers over time</text>\n", WIDTH / 2);
	sbuf_addf(sb, "<text id=\"subtitle\" x=\"%d\" y=\"42\" text-anchor=\"middle\" "
		  "font-size=\"11\" fill=\"#555\">", WIDTH / 2);
	add_subtitle(w, sb);
	sbuf_addstr(sb, "</text>\n");
	sbuf_add(sb, legend->buf, legend->len);
	sbuf_addstr(sb, "<text id=\"status\" display=\"none\">script not run</text>\n");
}

/* "<x>": a chart's x for ns from the first sample. */
static double x_at(const struct ts_writer *w, uint64_t ns)
{
	double span = (double)w->v->interval * (double)w->v->nr_intervals;

	return PAD_L + (span > 0 ? w->plot_w * (double)ns / span : 0);
}

/* The share axis (0-100%, grid every 25%) and the time axis. */
static void add_axes(struct ts_writer *w, int top)
{
	const struct tiers_view *v = w->v;
	uint64_t span = v->interval * v->nr_intervals, step = 1, t;
	static const unsigned mult[] = { 1, 2, 5 };
	struct sbuf *sb = &w->sb;
	int y, p, d;
	unsigned m = 0;

	for (p = 0; p <= 100; p += 25) {
		y = top + PLOT_H - PLOT_H * p / 100;
		sbuf_addf(sb, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
			  "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%d%%</text>\n",
			  PAD_L, y, WIDTH - PAD_R, y, PAD_L - 6, y + 3, p);
	}
	/* ticks every 1, 2 or 5 times a power of ten ns: at most about 10 */
	while (step * mult[m] < span / 10 && step * mult[m] < UINT64_MAX / 100) {
		if (++m == 3) {
			m = 0;
			step *= 10;
		}
	}
	step *= mult[m];
	d = exact_decimals(step);
	for (t = 0; t <= span; t += step) {
		double x = x_at(w, t);

		sbuf_addf(sb, "<line class=\"grid\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>"
			  "<text class=\"axis\" x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">",
			  x, top + PLOT_H, x, top + PLOT_H + 4, x, top + PLOT_H + 15);
		add_seconds(sb, t, d);
		sbuf_addstr(sb, "</text>\n");
		if (span - t < step)
			break;
	}
	sbuf_addf(sb, "<text class=\"axis\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">seconds from "
		  "the first sample</text>\n", PAD_L + w->plot_w / 2, top + PLOT_H + 30);
	sbuf_addf(sb, "<text class=\"axis\" transform=\"translate(%d,%d) rotate(-90)\" "
		  "text-anchor=\"middle\">share of %s</text>\n", 16, top + PLOT_H / 2,
		  v->weight_period ? "period" : "samples");
}

/* A list of per-interval values as an attribute: name="1 0 3". */
static void add_list(struct sbuf *sb, const char *name, const uint64_t *vals, size_t n)
{
	size_t i;

	sbuf_addf(sb, " %s=\"", name);
	for (i = 0; i < n; i++)
		sbuf_addf(sb, "%s%" PRIu64, i ? " " : "", vals[i]);
	sbuf_addch(sb, '"');
}

/* Percent of the interval's amount below the series (lo) or up to its top (hi). */
static double pct_of(uint64_t part, uint64_t tot)
{
	return tot ? 100.0 * (double)part / (double)tot : 0;
}

static double y_of(int top, double pct)
{
	return top + PLOT_H - PLOT_H * pct / 100;
}

/*
 * One series as a stepped area: along its top left to right, back along
 * its bottom. w->cum holds the amounts of the series below; updated.
 */
static void add_area(struct ts_writer *w, const struct tiers_group *g,
		     const struct tiers_series *s, int top)
{
	const struct tiers_view *v = w->v;
	const struct ts_key *key = key_of(w, s->category, s->runtime, s->tier);
	struct sbuf *sb = &w->sb;
	size_t n = v->nr_intervals, i;
	uint64_t total = v->weight_period ? s->total_weight : s->total_samples;
	uint64_t gtotal = v->weight_period ? g->total_weight : g->total_samples;

	if (!key)
		BUG("tiers svg: a series without its key");
	sbuf_addstr(sb, "<path class=\"a\" data-label=\"");
	add_key_label(sb, s->category, s->runtime, s->tier);
	sbuf_addch(sb, '"');
	add_list(sb, "data-n", s->samples, n);
	if (v->weight_period)
		add_list(sb, "data-w", s->weight, n);
	sbuf_addstr(sb, " data-lo=\"");
	for (i = 0; i < n; i++) {
		sbuf_addstr(sb, i ? " " : "");
		add_num(sb, pct_of(w->cum[i], w->tot[i]));
	}
	sbuf_addstr(sb, "\" data-hi=\"");
	for (i = 0; i < n; i++) {
		sbuf_addstr(sb, i ? " " : "");
		add_num(sb, pct_of(w->cum[i] + amount(v, s->samples, s->weight, i), w->tot[i]));
	}
	sbuf_addf(sb, "\" fill=\"%s\" d=\"M%.2f ", key->colour, x_at(w, 0));
	for (i = 0; i < n; i++) {
		double hi = pct_of(w->cum[i] + amount(v, s->samples, s->weight, i), w->tot[i]);

		sbuf_addf(sb, "%s%.2fH%.2f", i ? "V" : "", y_of(top, hi), x_at(w, (i + 1) * v->interval));
	}
	for (i = n; i-- > 0;) {
		sbuf_addf(sb, "V%.2fH%.2f", y_of(top, pct_of(w->cum[i], w->tot[i])),
			  x_at(w, i * v->interval));
		w->cum[i] += amount(v, s->samples, s->weight, i);
	}
	sbuf_addstr(sb, "Z\"><title>");
	add_key_label(sb, s->category, s->runtime, s->tier);
	sbuf_addstr(sb, ": ");
	svg__add_count(sb, total);
	sbuf_addf(sb, " %s, %.1f%% of ", v->weight_period ? "period" : "samples",
		  pct_of(total, gtotal));
	add_group_label(sb, g);
	sbuf_addstr(sb, "</title></path>\n");
}

/* The interpreted innermost share: a stepped line over the intervals with samples. */
static void add_overlay(struct ts_writer *w, const struct tiers_group *g, int top)
{
	const struct tiers_view *v = w->v;
	struct sbuf *sb = &w->sb;
	size_t n = v->nr_intervals, i;
	bool prev = false;

	sbuf_addstr(sb, "<path class=\"interp\" data-p=\"");
	for (i = 0; i < n; i++) {
		sbuf_addstr(sb, i ? " " : "");
		add_num(sb, pct_of(amount(v, g->interp_samples, g->interp_weight, i), w->tot[i]));
	}
	sbuf_addstr(sb, "\" d=\"");
	for (i = 0; i < n; i++) {
		double y = y_of(top, pct_of(amount(v, g->interp_samples, g->interp_weight, i),
					    w->tot[i]));

		if (!w->tot[i]) {
			prev = false;
			continue;
		}
		if (prev)
			sbuf_addf(sb, "V%.2f", y);
		else
			sbuf_addf(sb, "%sM%.2f %.2f", sb->buf[sb->len - 1] == '"' ? "" : " ",
				  x_at(w, i * v->interval), y);
		sbuf_addf(sb, "H%.2f", x_at(w, (i + 1) * v->interval));
		prev = true;
	}
	sbuf_addstr(sb, "\"/>\n");
}

/*
 * The group's warm-up interval, or -1: none, or the group never ran
 * interpreted code (its "warm-up" would be its first sample).
 */
static int64_t warm_at(const struct tiers_view *v, const struct tiers_group *g)
{
	if (!g->ran_interpreted || g->warm_interval < 0 ||
	    (uint64_t)g->warm_interval >= v->nr_intervals)
		return -1;
	return g->warm_interval;
}

/* The warm-up point: a vertical line at the start of the interval, labelled. */
static void add_warm(struct ts_writer *w, const struct tiers_group *g, int top)
{
	const struct tiers_view *v = w->v;
	struct sbuf *sb = &w->sb;
	uint64_t t;
	double x;

	if (warm_at(v, g) < 0)
		return;
	t = (uint64_t)g->warm_interval * v->interval;
	x = x_at(w, t);
	sbuf_addf(sb, "<line class=\"warm\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>"
		  "<text class=\"warm-label\" x=\"%.2f\" y=\"%d\"%s>warm-up ", x, top - 2, x,
		  top + PLOT_H, x + (x > WIDTH - 200 ? -3 : 3), top + 9,
		  x > WIDTH - 200 ? " text-anchor=\"end\"" : "");
	add_seconds(sb, t, exact_decimals(v->interval));
	sbuf_addstr(sb, " s</text>\n");
}

/* The chart's title line: who, how much, warm-up. */
static void add_chart_head(struct ts_writer *w, const struct tiers_group *g, int y)
{
	const struct tiers_view *v = w->v;
	struct sbuf *sb = &w->sb;

	sbuf_addf(sb, "<text x=\"%d\" y=\"%d\"><tspan font-weight=\"bold\">", PAD_L, y);
	add_group_label(sb, g);
	sbuf_addstr(sb, "</tspan> ");
	svg__add_count(sb, g->total_samples);
	sbuf_addstr(sb, g->total_samples == 1 ? " sample" : " samples");
	if (g->total_samples)
		sbuf_addf(sb, ", %.1f%% interpreted innermost",
			  pct_of(g->total_interp_samples, g->total_samples));
	if (!g->ran_interpreted) {
		sbuf_addstr(sb, "; no interpreted code");
	} else if (!g->ran_compiled) {
		sbuf_addstr(sb, "; no compiled code (no warm-up)");
	} else if (warm_at(v, g) >= 0) {
		sbuf_addstr(sb, "; warm-up at ");
		add_seconds(sb, (uint64_t)g->warm_interval * v->interval, exact_decimals(v->interval));
		sbuf_addf(sb, " s (interpreted share below %g%% from there)", v->warm_below * 100);
	} else {
		sbuf_addf(sb, "; no warm-up point (interpreted share not staying below %g%%)",
			  v->warm_below * 100);
	}
	sbuf_addstr(sb, "</text>\n");
}

static void add_chart(struct ts_writer *w, size_t gi, int y)
{
	const struct tiers_view *v = w->v;
	const struct tiers_group *g = &v->groups[gi];
	struct sbuf *sb = &w->sb;
	int top = y + HEAD_H;
	size_t i, s;

	for (i = 0; i < v->nr_intervals; i++) {
		w->cum[i] = 0;
		w->tot[i] = 0;
		for (s = 0; s < g->nr_series; s++)
			w->tot[i] += amount(v, g->series[s].samples, g->series[s].weight, i);
	}
	add_chart_head(w, g, y + 16);
	sbuf_addf(sb, "<g class=\"chart\" data-g=\"%zu\" data-x=\"%d\" data-y=\"%d\" data-w=\"%.2f\" "
		  "data-h=\"%d\" data-n=\"%zu\" data-label=\"", gi, PAD_L, top, w->plot_w, PLOT_H,
		  v->nr_intervals);
	add_group_label(sb, g);
	sbuf_addch(sb, '"');
	add_list(sb, "data-tot", w->tot, v->nr_intervals);
	sbuf_addf(sb, ">\n<rect x=\"%d\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"#fff\"/>\n",
		  PAD_L, top, w->plot_w, PLOT_H);
	add_axes(w, top);
	for (s = 0; s < g->nr_series; s++) {
		add_area(w, g, &g->series[s], top);
		if (sb->len > 1 << 16) {
			fwrite(sb->buf, 1, sb->len, w->out);
			sbuf_reset(sb);
		}
	}
	if (g->total_interp_samples)
		add_overlay(w, g, top);
	add_warm(w, g, top);
	sbuf_addstr(sb, "</g>\n");
}

static void add_tail(struct ts_writer *w)
{
	struct sbuf *sb = &w->sb;
	int k;

	sbuf_addstr(sb, "<g id=\"tip\" visibility=\"hidden\"><rect x=\"0\" y=\"0\" width=\"10\" "
		    "height=\"10\" rx=\"3\"/>");
	for (k = 0; k < TIP_LINES; k++)
		sbuf_addf(sb, "<text x=\"6\" y=\"%d\"%s></text>", 16 + 15 * k,
			  k ? "" : " font-weight=\"bold\"");
	sbuf_addstr(sb, "</g>\n");
	sbuf_addf(sb, "<script><![CDATA[\nvar ts = { iv: %.9g, d: %d, period: %s, width: %d, "
		  "height: %d };\n%s]]></script>\n</svg>\n", (double)w->v->interval / 1e9,
		  exact_decimals(w->v->interval), w->v->weight_period ? "true" : "false", WIDTH,
		  w->height, web_tiers_js);
}

int tiers__write_svg(const struct tiers_view *v, FILE *out)
{
	struct ts_writer w = { .v = v, .sb = SBUF_INIT, .out = out };
	struct sbuf legend = SBUF_INIT;
	size_t g, n = v->nr_intervals ? v->nr_intervals : 1;

	w.plot_w = WIDTH - PAD_L - PAD_R;
	w.tot = xcalloc(n, sizeof(*w.tot));
	w.cum = xcalloc(n, sizeof(*w.cum));
	collect_keys(&w);
	w.top = LEGEND_Y + add_legend(&w, &legend) * LEGEND_H + 8;
	w.height = w.top + (int)(v->nr_groups && v->nr_intervals ? v->nr_groups : 0) * CHART_H +
		   BOTTOM;
	add_head(&w, &legend);
	sbuf_release(&legend);
	for (g = 0; v->nr_intervals && g < v->nr_groups; g++)
		add_chart(&w, g, w.top + (int)g * CHART_H);
	add_tail(&w);
	fwrite(w.sb.buf, 1, w.sb.len, out);
	sbuf_release(&w.sb);
	free(w.tot);
	free(w.cum);
	free(w.keys);
	/* the command reports it once, when it closes the output */
	return fflush(out) || ferror(out) ? -1 : 0;
}
