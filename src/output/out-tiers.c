/*
 * out-tiers: the text writers of a tiers view (tiers.h): the table, CSV
 * and JSON. Times are seconds from the view's t0, printed from integer
 * nanoseconds so that they are exact and the same everywhere.
 */
#include "common/common.h"
#include "aggregate/tiers.h"
#include "output/json-out.h"

#define SPARK_COLUMNS 100   /* the table's over-time line: at most this wide */

/* ns as seconds with 6 decimals (truncated to the microsecond) */
static void put_secs(FILE *out, uint64_t ns)
{
	fprintf(out, "%" PRIu64 ".%06" PRIu64, ns / 1000000000u, ns % 1000000000u / 1000u);
}

/* ns as seconds for people: 6 decimals less the trailing zeros, at least 2 */
static void put_secs_short(FILE *out, uint64_t ns)
{
	char buf[40];
	size_t n;

	n = (size_t)snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64, ns / 1000000000u,
			     ns % 1000000000u / 1000u);
	while (n > 0 && buf[n - 1] == '0' && buf[n - 3] != '.')
		buf[--n] = '\0';
	fputs(buf, out);
}

static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* --- table --- */

/*
 * One character per column (a column is one interval, or several when
 * there are more than SPARK_COLUMNS): ' ' the group had no samples then,
 * '.' none of them in this series, '1'..'9' a share up to 10..90%, '#'
 * above 90%.
 */
static void put_spark(FILE *out, const uint64_t *part, const uint64_t *whole, size_t n)
{
	size_t per = (n + SPARK_COLUMNS - 1) / SPARK_COLUMNS, i, j;

	if (!per)
		per = 1;
	fputc('|', out);
	for (i = 0; i < n; i += per) {
		uint64_t p = 0, w = 0;
		double s;

		for (j = i; j < n && j < i + per; j++) {
			p += part[j];
			w += whole[j];
		}
		s = share(p, w);
		if (!w)
			fputc(' ', out);
		else if (!p)
			fputc('.', out);
		else if (s > 90.0)
			fputc('#', out);
		else
			fputc('0' + (int)((s + 9.999999) / 10.0), out);
	}
	fputc('|', out);
}

/* A span's time, s from the first sample (negative before it). */
static void put_span_time(FILE *out, const struct tiers_view *v, uint64_t t)
{
	/* a --marker-event span that no later mark ended */
	if (t == UINT64_MAX) {
		fputs("null", out);
		return;
	}
	/* less than the microsecond shown before it: 0 */
	if (t < v->t0 && v->t0 - t >= 1000) {
		fputc('-', out);
		put_secs_short(out, v->t0 - t);
	} else {
		put_secs_short(out, t < v->t0 ? 0 : t - v->t0);
	}
}

static void put_warm(FILE *out, const struct tiers_view *v, const struct tiers_group *g)
{
	if (!g->ran_interpreted)
		fputs("no interpreted samples", out);
	else if (!g->ran_compiled)
		fputs("no compiled code (no warm-up)", out);
	else if (g->warm_interval < 0)
		fprintf(out, "never below %g%% interpreted", v->warm_below * 100.0);
	else {
		fputs("warm after ", out);
		put_secs_short(out, (uint64_t)g->warm_interval * v->interval);
		fprintf(out, " s (interpreted below %g%%)", v->warm_below * 100.0);
	}
}

static void table_group(FILE *out, const struct tiers_view *v, const struct tiers_group *g)
{
	size_t i;

	fprintf(out, "%s %" PRIu32, g->comm, g->pid);
	if (v->by_thread)
		fprintf(out, "/%" PRIu32, g->tid);
	if (v->by_marker) {
		fprintf(out, " #%" PRIu32 " %s (", g->tid, g->span);
		put_span_time(out, v, g->span_start);
		if (g->span_end == UINT64_MAX) {
			fputs(" s on)", out);
		} else {
			fputs(" to ", out);
			put_span_time(out, v, g->span_end);
			fputs(" s)", out);
		}
	}
	fprintf(out, ": %" PRIu64 " samples", g->total_samples);
	if (v->weight_period)
		fprintf(out, ", weight %" PRIu64, g->total_weight);
	fputs(", ", out);
	put_warm(out, v, g);
	fputc('\n', out);
	fprintf(out, "  %-24s %-18s %-8s %9s %7s  %s\n", "category", "tier", "runtime",
		"samples", "share", "over time");
	for (i = 0; i < g->nr_series; i++) {
		const struct tiers_series *s = &g->series[i];

		fprintf(out, "  %-24s %-18s %-8s %9" PRIu64 " %6.2f%%  ",
			frame_category__name(s->category), s->tier ? s->tier : "-",
			s->runtime ? s->runtime : "-", s->total_samples,
			share(s->total_weight, g->total_weight));
		put_spark(out, s->weight, g->weight, v->nr_intervals);
		fputc('\n', out);
	}
	fprintf(out, "  %-24s %-18s %-8s %9" PRIu64 " %6.2f%%  ", "interpreted innermost", "(code frame)",
		"", g->total_interp_samples, share(g->total_interp_weight, g->total_weight));
	put_spark(out, g->interp_weight, g->weight, v->nr_intervals);
	fputs("\n\n", out);
}

int tiers__write_table(const struct tiers_view *v, FILE *out)
{
	size_t i, per = (v->nr_intervals + SPARK_COLUMNS - 1) / SPARK_COLUMNS;

	fprintf(out, "# %zu intervals of ", v->nr_intervals);
	put_secs_short(out, v->interval);
	fputs(" s", out);
	if (per > 1) {
		fprintf(out, ", %zu per column of the over-time lines", per);
	}
	fprintf(out, "; shares of %s by the leaf frame (self)\n",
		v->weight_period ? "the sample periods" : "the samples");
	fputs("# over time: ' ' no samples, '.' 0%, 'N' up to N*10%, '#' above 90%\n\n", out);
	for (i = 0; i < v->nr_groups; i++)
		table_group(out, v, &v->groups[i]);
	return fflush(out) || ferror(out) ? -1 : 0;
}

/* --- CSV --- */

/* A field as RFC 4180: quoted (quotes doubled) when it holds , " CR or LF. */
static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_group(FILE *out, const struct tiers_view *v, const struct tiers_group *g)
{
	size_t i, j;

	for (i = 0; i < v->nr_intervals; i++) {
		for (j = 0; j < g->nr_series; j++) {
			const struct tiers_series *s = &g->series[j];

			if (!s->samples[i])
				continue;
			put_secs(out, i * v->interval);
			fputc(',', out);
			put_secs(out, (i + 1) * v->interval);
			fprintf(out, ",%" PRIu32 ",", g->pid);
			if (v->by_thread || v->by_marker)
				fprintf(out, "%" PRIu32, g->tid);
			fputc(',', out);
			csv_field(out, g->comm);
			fprintf(out, ",%s,", frame_category__name(s->category));
			csv_field(out, s->tier ? s->tier : "");
			fprintf(out, ",%" PRIu64 ",%" PRIu64, s->samples[i], s->weight[i]);
			if (v->by_marker) {
				fputc(',', out);
				csv_field(out, g->span);
			}
			fputc('\n', out);
		}
	}
}

int tiers__write_csv(const struct tiers_view *v, FILE *out)
{
	size_t i;

	fputs("start_s,end_s,pid,tid,comm,category,tier,samples,weight", out);
	/* by marker: tid is the span's number in its process */
	fputs(v->by_marker ? ",span\n" : "\n", out);
	for (i = 0; i < v->nr_groups; i++)
		csv_group(out, v, &v->groups[i]);
	return fflush(out) || ferror(out) ? -1 : 0;
}

/* --- JSON --- */

static void json_array(FILE *out, const uint64_t *v, size_t n)
{
	size_t i;

	fputc('[', out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", v[i]);
	fputc(']', out);
}

static void json_series(FILE *out, const struct tiers_view *v, const struct tiers_series *s)
{
	fputs("{\"category\":", out);
	json_fput_str(out, frame_category__name(s->category));
	fputs(",\"tier\":", out);
	json_fput_str(out, s->tier);
	fputs(",\"runtime\":", out);
	json_fput_str(out, s->runtime);
	fprintf(out, ",\"total_samples\":%" PRIu64 ",\"total_weight\":%" PRIu64 ",\"samples\":",
		s->total_samples, s->total_weight);
	json_array(out, s->samples, v->nr_intervals);
	fputs(",\"weight\":", out);
	json_array(out, s->weight, v->nr_intervals);
	fputc('}', out);
}

static void json_group(FILE *out, const struct tiers_view *v, const struct tiers_group *g)
{
	size_t i;

	fprintf(out, "{\"pid\":%" PRIu32 ",\"tid\":", g->pid);
	if (v->by_thread)
		fprintf(out, "%" PRIu32, g->tid);
	else
		fputs("null", out);
	fputs(",\"comm\":", out);
	json_fput_str(out, g->comm);
	if (v->by_marker) {
		fprintf(out, ",\"span\":{\"number\":%" PRIu32 ",\"name\":", g->tid);
		json_fput_str(out, g->span);
		fputs(",\"start_s\":", out);
		put_span_time(out, v, g->span_start);
		fputs(",\"end_s\":", out);
		put_span_time(out, v, g->span_end);
		fputc('}', out);
	}
	fprintf(out, ",\"total\":{\"samples\":%" PRIu64 ",\"weight\":%" PRIu64 "}",
		g->total_samples, g->total_weight);
	fputs(",\"warm_after_s\":", out);
	if (g->warm_interval < 0)
		fputs("null", out);
	else
		put_secs(out, (uint64_t)g->warm_interval * v->interval);
	fputs(",\n   \"samples\":", out);
	json_array(out, g->samples, v->nr_intervals);
	fputs(",\"weight\":", out);
	json_array(out, g->weight, v->nr_intervals);
	fputs(",\n   \"series\":[", out);
	for (i = 0; i < g->nr_series; i++) {
		fputs(i ? ",\n    " : "\n    ", out);
		json_series(out, v, &g->series[i]);
	}
	fprintf(out, "],\n   \"inclusive_interpreted\":{\"total_samples\":%" PRIu64
		",\"total_weight\":%" PRIu64 ",\"samples\":",
		g->total_interp_samples, g->total_interp_weight);
	json_array(out, g->interp_samples, v->nr_intervals);
	fputs(",\"weight\":", out);
	json_array(out, g->interp_weight, v->nr_intervals);
	fputs("}}", out);
}

int tiers__write_json(const struct tiers_view *v, FILE *out)
{
	size_t i;

	fprintf(out, "{\"t0\":%" PRIu64 ",\"interval_s\":", v->t0);
	put_secs(out, v->interval);
	fprintf(out, ",\"nr_intervals\":%zu,\"weight\":\"%s\",\"warm_below\":%g,\n \"groups\":[",
		v->nr_intervals, v->weight_period ? "period" : "samples", v->warm_below);
	for (i = 0; i < v->nr_groups; i++) {
		fputs(i ? ",\n  " : "\n  ", out);
		json_group(out, v, &v->groups[i]);
	}
	fputs("]}\n", out);
	return fflush(out) || ferror(out) ? -1 : 0;
}
