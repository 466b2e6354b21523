#include "common/common.h"
#include "session/filter.h"
#include "session/session.h"

#include <ctype.h>

bool time_filter__is_percent(const char *arg)
{
	return strchr(arg, '%') != NULL;
}

/* "SEC[.FRACTION]" (up to 9 fraction digits) into ns; "" is 0; -1 if not that. */
static int parse_ns(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	for (; isdigit((unsigned char)*s); s++) {
		if (sec > (UINT64_MAX / 1000000000u - 9) / 10)
			return -1;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.')
		for (s++; isdigit((unsigned char)*s); s++, digits++) {
			if (digits == 9)
				return -1;
			frac = frac * 10 + (uint64_t)(*s - '0');
		}
	if (*s)
		return -1;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000u + frac;
	return 0;
}

/* "START,END" (the comma is there), either side empty: one range. */
static int parse_abs_range(char *piece, struct time_range *r)
{
	char *comma = strchr(piece, ',');

	*comma = '\0';
	r->start = r->end = 0;
	if (parse_ns(piece, &r->start) || parse_ns(comma + 1, &r->end))
		return -1;
	return r->end && r->end < r->start ? -1 : 0;
}

/*
 * "A,B C,D ...": as many ranges as commas, split at the blanks after each
 * range's end; ascending, each ending before the next starts.
 */
static int parse_abs(char *s, struct time_range *r, size_t nr)
{
	char *p = s;
	size_t i;

	for (i = 0; i + 1 < nr; i++) {
		char *piece = p;

		p = strchr(p, ',') + 1;
		while (isspace((unsigned char)*p))
			p++;
		for (; *p && !isspace((unsigned char)*p); p++)
			if (*p == ',')
				return -1;
		if (*p)
			*p++ = '\0';
		if (parse_abs_range(piece, &r[i]))
			return -1;
	}
	if (!strchr(p, ',') || parse_abs_range(p, &r[i]))
		return -1;
	for (i = 0; i + 1 < nr; i++)
		if (r[i].end >= r[i + 1].start)
			return -1;
	return 0;
}

/* "N%" (anything after the '%' is ignored, as perf does) into a fraction. */
static int parse_pcnt(char *s, double *v)
{
	char *pct = s ? strchr(s, '%') : NULL, *end;

	if (!pct)
		return -1;
	*pct = '\0';
	*v = strtod(s, &end) / 100.0;
	return *end ? -1 : 0;
}

static int set_pcnt(struct time_range *r, double from, double to, uint64_t first,
		    uint64_t last)
{
	double total = (double)(last - first);

	if (from < 0.0 || from > 1.0 || to < 0.0 || to > 1.0)
		return -1;
	/* perf rounds half away from zero; these are never negative */
	r->start = first + (uint64_t)(from * total + 0.5);
	r->end = first + (uint64_t)(to * total + 0.5);
	if (r->end > r->start && r->end != last)
		r->end--;
	return 0;
}

/* "P%/N": the Nth slice of P percent. */
static int pcnt_slash(char *s, struct time_range *r, uint64_t first, uint64_t last)
{
	char *slash = strchr(s, '/'), *end;
	double p;
	long n;

	if (!slash)
		return -1;
	*slash = '\0';
	if (parse_pcnt(s, &p))
		return -1;
	errno = 0;
	n = strtol(slash + 1, &end, 10);
	if (*end || errno || p <= 0.0)
		return -1;
	return set_pcnt(r, p * (double)(n - 1), p * (double)n, first, last);
}

/* "A%-B%" */
static int pcnt_dash(char *s, struct time_range *r, uint64_t first, uint64_t last)
{
	char *dash = strchr(s, '-');
	double from, to;

	if (!dash)
		return -1;
	*dash = '\0';
	if (parse_pcnt(s, &from) || parse_pcnt(dash + 1, &to))
		return -1;
	return set_pcnt(r, from, to, first, last);
}

/* Comma-separated slices (a trailing comma ends the list); how many, or -1. */
static int parse_percent(char *s, struct time_range *r, uint64_t first, uint64_t last)
{
	size_t len = strlen(s), n = 0;
	char *p = s;
	bool slash = strchr(s, '/'), dash = strchr(s, '-');

	if (!slash && !dash) {
		/* "P%" is "P%/1", 0 to P%; the '%' must end it */
		int ret;

		if (strchr(s, '%') != s + len - 1)
			return -1;
		p = xasprintf("%s/1", s);
		ret = pcnt_slash(p, r, first, last);
		free(p);
		return ret ? -1 : 1;
	}
	while (p < s + len) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		if (slash ? pcnt_slash(p, &r[n], first, last) : pcnt_dash(p, &r[n], first, last))
			return -1;
		n++;
		if (!comma)
			break;
		p = comma + 1;
	}
	return (int)n;
}

int time_filter__parse(const char *arg, uint64_t first, uint64_t last,
		       struct time_range **ranges, size_t *nr)
{
	char *copy = xstrdup(arg);
	size_t commas = 0;
	const char *c;
	int n = 0;

	for (c = arg; *c; c++)
		commas += *c == ',';
	free(*ranges);
	*ranges = xcalloc(commas + 1, sizeof(**ranges));
	if (time_filter__is_percent(arg))
		n = parse_percent(copy, *ranges, first, last);
	else if (commas && !parse_abs(copy, *ranges, commas))
		n = (int)commas;
	free(copy);
	if (n <= 0) {
		*nr = 0;
		return error("invalid --time '%s': expected START,END in seconds (either may "
			     "be empty; ranges apart by blanks) or percent slices such as 10%%/2 "
			     "or 0%%-10%%,30%%-40%%", arg);
	}
	*nr = (size_t)n;
	return 0;
}

bool time_filter__keep(const struct time_range *r, size_t nr, uint64_t t)
{
	size_t i;

	if (!nr || !t)
		return true;
	if (nr == 1)
		return !(r->start && t < r->start) && !(r->end && t > r->end);
	for (i = 0; i < nr; i++)
		if (t >= r[i].start && (t <= r[i].end || !r[i].end))
			return true;
	return false;
}

int cpu_filter__parse(const char *arg, uint64_t **bits)
{
	const char *p = arg;

	if (!*bits)
		*bits = xcalloc(FILTER_MAX_CPUS / 64, sizeof(**bits));
	if (!isdigit((unsigned char)*p))
		goto bad;
	while (isdigit((unsigned char)*p)) {
		unsigned long from, to;
		char *end;

		errno = 0;
		from = to = strtoul(p, &end, 0);
		if (*end == '-')
			to = strtoul(end + 1, &end, 0);
		if (errno || (*end && *end != ',') || to < from)
			goto bad;
		if (to >= FILTER_MAX_CPUS)
			return error("invalid --cpu '%s': cpu %lu is past the most (%d)", arg, to,
				     FILTER_MAX_CPUS - 1);
		for (; from <= to; from++) {
			if ((*bits)[from / 64] >> (from % 64) & 1)
				goto bad;       /* perf rejects a cpu named twice */
			(*bits)[from / 64] |= 1ULL << (from % 64);
		}
		p = *end ? end + 1 : end;
	}
	if (!*p)
		return 0;
bad:
	return error("invalid --cpu '%s': expected a cpu list such as 0-2,4", arg);
}

/* The first event kept that lacks sample_type bit, or NULL. */
static const struct pd_attr *kept_without(const struct pd_reader *r, const struct pd_attr *event,
					  uint64_t bit)
{
	size_t i, n = pd_reader__nr_attrs(r);

	for (i = 0; i < n; i++) {
		const struct pd_attr *a = pd_reader__attr(r, i);

		if ((!event || a == event) && !(a->attr.sample_type & bit))
			return a;
	}
	return NULL;
}

int filter__setup(const struct sample_filter *f, const struct pd_reader *r,
		  const struct pd_attr *event, struct time_range **times, size_t *nr_times)
{
	const struct pd_info *in = pd_reader__info(r);
	const char *path = pd_reader__path(r);
	const struct pd_attr *a;

	if (f->time && (a = kept_without(r, event, PERF_SAMPLE_TIME)))
		return error("'%s': event '%s' was recorded without sample times: --time cannot "
			     "select its samples", path, a->name);
	if (f->cpus && (a = kept_without(r, event, PERF_SAMPLE_CPU)))
		return error("'%s': event '%s' was recorded without sample CPUs (perf record -a, "
			     "-C or --sample-cpu records them): --cpu cannot select its samples",
			     path, a->name);
	if (f->cpus && in->nr_cpus_avail) {
		uint32_t cpu;

		/* as perf: a cpu past those the recording's machine had is a mistake */
		for (cpu = in->nr_cpus_avail; cpu < FILTER_MAX_CPUS; cpu++)
			if (cpu_filter__keep(f->cpus, cpu))
				return error("'%s' was recorded on a machine of %" PRIu32 " CPUs: "
					     "--cpu '%s' names cpu %" PRIu32, path,
					     in->nr_cpus_avail, f->cpu_list, cpu);
	}
	if (!f->time)
		return 0;
	if (time_filter__is_percent(f->time) &&
	    (!in->has_sample_time || (!in->first_sample_time && !in->last_sample_time)))
		return error("'%s' does not say when its first and last samples were (perf's "
			     "HEADER_SAMPLE_TIME%s): --time '%s' cannot take percent slices of it",
			     path, in->pipe_mode ? ", which a pipe does not carry" : "", f->time);
	return time_filter__parse(f->time, in->first_sample_time, in->last_sample_time,
				  times, nr_times);
}

int parse_id_list(const char *arg, uint32_t **list, size_t *nr)
{
	const char *p = arg;
	size_t alloc = 0;

	while (*p) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || errno || v > UINT32_MAX || (*end && *end != ','))
			return error("invalid id list '%s'", arg);
		ALLOC_GROW(*list, *nr + 1, alloc);
		(*list)[(*nr)++] = (uint32_t)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

void parse_str_list(const char *arg, const char ***list, size_t *nr)
{
	char *copy = xstrdup(arg), *p = copy;
	size_t alloc = 0;

	for (;;) {
		char *comma = strchr(p, ',');

		if (comma)
			*comma = '\0';
		ALLOC_GROW(*list, *nr + 1, alloc);
		(*list)[(*nr)++] = p;
		if (!comma)
			break;
		p = comma + 1;
	}
}
