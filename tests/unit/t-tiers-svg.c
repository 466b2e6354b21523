/*
 * t-tiers-svg: the SVG writer of "jitsym tiers" on views built by hand
 * (no model): the file is well-formed XML (xmllint, when installed), the
 * areas of each interval read back from their data-lo/data-hi stack from
 * 0 to 100% (or are empty where the group has no samples) with heights
 * the series' shares, the paths go where those numbers say, a hostile
 * comm and tier are escaped, the warm-up line and the overlay appear
 * where they should, the palette is the flame graph's, and the same view
 * gives the same bytes.
 */
#include "common/common.h"
#include "output/svg.h"
#include "aggregate/tiers.h"

#include "test.h"
#include "test-files.h"

#define NI 5    /* intervals */

static uint64_t z[NI];

/* group 0: a V8 process warming up, hostile names, interval 2 empty */
static uint64_t ign[NI] = { 8, 4, 0, 1, 0 }, spk[NI] = { 2, 3, 0, 1, 1 };
static uint64_t tf[NI] = { 0, 2, 0, 6, 9 }, odd[NI] = { 1, 0, 0, 0, 1 };
static uint64_t g0n[NI] = { 11, 9, 0, 8, 11 }, g0i[NI] = { 9, 6, 0, 2, 1 };
/* group 1: a thread, kernel only, weighted by period */
static uint64_t kn[NI] = { 1, 1, 1, 1, 1 }, kw[NI] = { 10, 30, 0, 5, 7 };

static struct tiers_series s0[] = {
	{ FC_JIT, NULL, "<tier & \"x\">", odd, odd, 2, 2 },
	{ FC_INTERPRETED, "V8", "Ignition", ign, ign, 13, 13 },
	{ FC_BASELINE, "V8", "Sparkplug", spk, spk, 7, 7 },
	{ FC_OPTIMIZED, "V8", "TurboFan", tf, tf, 17, 17 },
};
static struct tiers_series s1[] = {
	{ FC_KERNEL, NULL, NULL, kn, kw, 5, 52 },
};

static struct tiers_group groups[] = {
	{ 42, 0, "evil<&\"'>\x01\xff]]>", NULL, 0, 0, s0, 4, g0n, g0n, g0i, g0i, 39, 39, 18, 18, 3, true, true },
	{ 7, 8, "kworker", NULL, 0, 0, s1, 1, kn, kw, z, z, 5, 52, 0, 0, -1, false, false },
};

/* The output for v, as a string; the writer's return in *rc. */
static char *write_svg(const struct tiers_view *v, int *rc, size_t *len)
{
	char *path = tpath("out.svg"), *buf;
	FILE *fp = fopen(path, "w+b");
	long n;

	if (!fp)
		die("cannot create '%s'", path);
	*rc = tiers__write_svg(v, fp);
	n = ftell(fp);
	rewind(fp);
	buf = xcalloc(1, (size_t)n + 1);
	if (n < 0 || fread(buf, 1, (size_t)n, fp) != (size_t)n)
		die("cannot read '%s' back", path);
	fclose(fp);
	free(path);
	*len = (size_t)n;
	return buf;
}

/* xmllint's verdict: 1 well-formed, 0 not, -1 no xmllint. */
static int well_formed(const char *svg, size_t len)
{
	char *path = tpath("check.svg");
	int rc;

	if (sh("command -v xmllint"))
		return -1;
	write_file(path, svg, len);
	rc = sh("xmllint --noout '%s'", path);
	free(path);
	return rc == 0;
}

/* The numbers of attribute name in the element starting at el: up to max. */
static size_t attr_nums(const char *el, const char *name, double *out, size_t max)
{
	const char *end = strchr(el, '>'), *p;
	char key[32];
	size_t n = 0;
	char *next;

	snprintf(key, sizeof(key), " %s=\"", name);
	p = strstr(el, key);
	if (!p || (end && p > end))
		return 0;
	p += strlen(key);
	while (*p != '"' && n < max) {
		out[n++] = strtod(p, &next);
		if (next == p)
			return 0;
		p = next;
		while (*p == ' ')
			p++;
	}
	return n;
}

static bool near(double a, double b)
{
	return a - b < 0.002 && b - a < 0.002;
}

/*
 * Chart c's areas read back: every interval stacks from 0 to 100% (0 to 0
 * where tot is 0), each area's height its amount's share; returns the
 * number of areas, or -1 when something does not add up.
 */
static int check_stack(const char *chart, const struct tiers_view *v, const struct tiers_group *g)
{
	const char *end = strstr(chart, "</g>"), *p = chart;
	double lo[NI], hi[NI], top[NI] = { 0 }, tot[NI] = { 0 };
	size_t s = 0, i;

	for (i = 0; i < NI; i++)
		for (s = 0; s < g->nr_series; s++)
			tot[i] += (double)(v->weight_period ? g->series[s].weight[i] : g->series[s].samples[i]);
	for (s = 0; (p = strstr(p, "<path class=\"a\"")) && p < end; p++, s++) {
		const struct tiers_series *se = &g->series[s];

		if (s >= g->nr_series || attr_nums(p, "data-lo", lo, NI) != NI ||
		    attr_nums(p, "data-hi", hi, NI) != NI)
			return -1;
		for (i = 0; i < NI; i++) {
			double amt = (double)(v->weight_period ? se->weight[i] : se->samples[i]);

			if (!near(lo[i], top[i]) || !near(hi[i] - lo[i], tot[i] ? 100 * amt / tot[i] : 0))
				return -1;
			top[i] = hi[i];
		}
	}
	for (i = 0; i < NI; i++)
		if (!near(top[i], tot[i] ? 100 : 0))
			return -1;
	return (int)s;
}

/* The y of the top edge in each interval, from the area's path, against data-hi. */
static bool path_follows(const char *area, int plot_top)
{
	double hi[NI], y, want;
	const char *d = strstr(area, " d=\"M");
	char *next;
	size_t i;

	if (!d || attr_nums(area, "data-hi", hi, NI) != NI)
		return false;
	d += 5;
	strtod(d, &next);    /* x of the start */
	for (i = 0; i < NI; i++) {
		d = next + (i ? 1 : 0);      /* past 'V' */
		while (*d == ' ')
			d++;
		y = strtod(d, &next);
		want = plot_top + 180 - 180 * hi[i] / 100;
		if (y - want > 0.01 || want - y > 0.01 || *next != 'H')    /* y has 2 decimals */
			return false;
		strtod(next + 1, &next);
	}
	return *next == 'V';
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

static void test_view(void)
{
	struct tiers_view v = { .t0 = 1000, .interval = 250000000, .nr_intervals = NI,
				.groups = groups, .nr_groups = 2, .warm_below = 0.05 };
	const char *c0, *c1, *area;
	char *out, *again, col[8];
	size_t len, len2;
	int rc, wf, top;

	out = write_svg(&v, &rc, &len);
	T("writes", rc == 0 && len > 1000);
	wf = well_formed(out, len);
	if (wf < 0)
		printf("# no xmllint: well-formedness not checked\n");
	else
		T("well-formed XML", wf == 1);
	c0 = strstr(out, "<g class=\"chart\" data-g=\"0\"");
	c1 = strstr(out, "<g class=\"chart\" data-g=\"1\"");
	T("two charts", c0 && c1 && c1 > c0 && count(out, "<g class=\"chart\"") == 2);
	T("group 0: 4 areas stack to 100% (interval 2 empty)", c0 && check_stack(c0, &v, &groups[0]) == 4);
	T("group 1: 1 area, by samples", c1 && check_stack(c1, &v, &groups[1]) == 1);
	top = c0 && strstr(c0, "data-y=\"") ? atoi(strstr(c0, "data-y=\"") + 8) : 0;
	area = c0 ? strstr(c0, "<path class=\"a\"") : NULL;
	T("the first area's path follows its data-hi", area && path_follows(area, top));
	area = area ? strstr(area + 1, "<path class=\"a\"") : NULL;
	T("the second area's path follows its data-hi", area && path_follows(area, top));

	T("hostile comm escaped", !strstr(out, "evil<") && strstr(out, "evil&lt;&amp;&quot;&#39;&gt;"));
	T("control byte and bad UTF-8 replaced", strstr(out, "&gt;\xef\xbf\xbd\xef\xbf\xbd]]&gt; 42"));
	T("hostile tier escaped", !strstr(out, "<tier") &&
	  strstr(out, "JIT: &lt;tier &amp; &quot;x&quot;&gt;"));
	T("no stray CDATA end", count(out, "]]>") == 3);   /* style, two scripts */

	T("one warm-up line, at 0.75 s", count(out, "class=\"warm\"") == 1 &&
	  strstr(out, ">warm-up 0.75 s</text>") && strstr(out, "; warm-up at 0.75 s"));
	area = strstr(out, "kworker 7/8</tspan>");
	T("no interpreted code in group 1", area && strstr(area, "; no interpreted code") &&
	  strstr(area, "; no interpreted code") < c1);
	T("one overlay line, and its legend key", count(out, "<path class=\"interp\"") == 1 &&
	  strstr(out, "id=\"overlay-key\""));
	T("overlay numbers", strstr(out, "data-p=\"81.818 66.667 0 25 9.091\""));
	T("samples per interval", strstr(out, "data-n=\"8 4 0 1 0\""));
	T("time axis in seconds from the first sample", strstr(out, ">1.2</text>") &&
	  strstr(out, "seconds from the first sample"));
	T("tid shown for thread groups", strstr(out, "kworker 7/8"));

	svg__kind_colour(SVGK_JIT_INTERP, col);
	area = strstr(out, "data-label=\"interpreted: V8 Ignition\"");
	T("Ignition in the flame graph's colour", area && strstr(area, col) &&
	  strstr(area, col) < strstr(area, " d=\""));

	again = write_svg(&v, &rc, &len2);
	T("deterministic", len == len2 && !memcmp(out, again, len));
	free(again);
	free(out);

	v.weight_period = true;
	out = write_svg(&v, &rc, &len);
	c1 = strstr(out, "<g class=\"chart\" data-g=\"1\"");
	T("by period: group 1 stacks by weight, interval 2 empty", c1 && check_stack(c1, &v, &groups[1]) == 1);
	T("by period: weights listed", strstr(out, "data-w=\"10 30 0 5 7\""));
	wf = well_formed(out, len);
	T("by period: well-formed", wf != 0);
	free(out);

	/* a group that never interpreted: its "warm-up" is no point to mark */
	groups[1].warm_interval = 0;
	out = write_svg(&v, &rc, &len);
	T("no warm-up line without interpreted code", count(out, "class=\"warm\"") == 1 &&
	  strstr(out, "kworker 7/8</tspan> 5 samples, 0.0% interpreted innermost; "
		 "no interpreted code</text>"));
	groups[1].warm_interval = -1;
	free(out);

	/* interpreted, never compiled (CPython): no warm-up, whatever its shares */
	groups[1].ran_interpreted = true;
	out = write_svg(&v, &rc, &len);
	T("no warm-up without compiled code", count(out, "class=\"warm\"") == 1 &&
	  strstr(out, "kworker 7/8</tspan> 5 samples, 0.0% interpreted innermost; "
		 "no compiled code (no warm-up)</text>"));
	groups[1].ran_interpreted = false;
	free(out);
}

static void test_empty(void)
{
	struct tiers_view v = { .interval = 1000000, .warm_below = 0.05 };
	size_t len;
	char *out;
	int rc;

	out = write_svg(&v, &rc, &len);
	T("empty view: written", rc == 0 && strstr(out, ">no samples<") && strstr(out, "</svg>"));
	T("empty view: no charts", !strstr(out, "class=\"chart\""));
	T("empty view: well-formed", well_formed(out, len) != 0);
	free(out);
}

int main(void)
{
	tmpdir_create("t-tiers-svg", "T_TIERS_SVG_KEEP");
	test_view();
	test_empty();
	return test_done();
}
