#include "common/common.h"
#include "output/out-script.h"
#include "resolve/srcline.h"
#include "common/strpool.h"

#include <perf/event.h>

static const struct {
	const char *name;
	unsigned int field;
	uint64_t needs;       /* sample_type bit the field prints, 0 if none */
	const char *needs_name;
} field_table[] = {
	{ "comm",    SF_COMM,    0, NULL },
	{ "pid",     SF_PID,     PERF_SAMPLE_TID, "TID" },
	{ "tid",     SF_TID,     PERF_SAMPLE_TID, "TID" },
	{ "cpu",     SF_CPU,     PERF_SAMPLE_CPU, "CPU" },
	{ "time",    SF_TIME,    PERF_SAMPLE_TIME, "TIME" },
	{ "period",  SF_PERIOD,  PERF_SAMPLE_PERIOD, "PERIOD" },
	{ "event",   SF_EVENT,   0, NULL },
	{ "trace",   SF_TRACE,   PERF_SAMPLE_RAW, "RAW" },
	{ "ip",      SF_IP,      PERF_SAMPLE_IP, "IP" },
	{ "sym",     SF_SYM,     PERF_SAMPLE_IP, "IP" },
	{ "symoff",  SF_SYMOFF,  PERF_SAMPLE_IP, "IP" },
	{ "dso",     SF_DSO,     PERF_SAMPLE_IP, "IP" },
	{ "srcline", SF_SRCLINE, PERF_SAMPLE_IP, "IP" },
};

#define SF_FRAME     (SF_IP | SF_SYM | SF_SYMOFF | SF_DSO)
/* perf 6.1's defaults: hardware, software and other events; tracepoints */
#define SF_DEFAULT   (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_PERIOD | SF_EVENT | SF_FRAME)
#define SF_DEFAULT_TP (SF_COMM | SF_TID | SF_CPU | SF_TIME | SF_EVENT | SF_TRACE)

static int field_by_name(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(field_table); i++)
		if (strlen(field_table[i].name) == len && !memcmp(field_table[i].name, name, len))
			return (int)i;
	return -1;
}

int script_fields__parse(struct script_fields *f, const char *arg)
{
	const char *p = arg;
	int signs = 0, plain = 0;

	memset(f, 0, sizeof(*f));
	f->given = true;
	while (*p) {
		size_t len = strcspn(p, ",");
		char sign = (*p == '+' || *p == '-') ? *p : 0;
		const char *name = sign ? p + 1 : p;
		size_t nlen = sign ? len - 1 : len;
		int i;

		if (len) {
			i = field_by_name(name, nlen);
			if (i < 0)
				return error("unknown field '%.*s' in -F '%s' (known: comm, pid, tid, "
					     "cpu, time, period, event, trace, ip, sym, symoff, dso, srcline)",
					     (int)nlen, name, arg);
			if (sign == '+')
				f->add |= field_table[i].field;
			else if (sign == '-')
				f->del |= field_table[i].field;
			else
				f->set |= field_table[i].field;
			sign ? signs++ : plain++;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (signs && plain)
		return error("-F '%s' mixes +field/-field with a list of fields", arg);
	f->replace = !signs;
	return 0;
}

bool script_fields__want(const struct script_fields *f, unsigned int field)
{
	unsigned int dflt = SF_DEFAULT | SF_DEFAULT_TP;

	if (!f || !f->given)
		return dflt & field;
	if (f->replace)
		return f->set & field;
	return (dflt | f->add) & ~f->del & field;
}

struct script_out {
	FILE *out;
	const struct script_out_opts *opts;
	const char *path;             /* the recording's, for warnings */
	unsigned int *fields;         /* per attr index */
	size_t nr_fields;
	bool tp_callchain;            /* some tracepoint recorded call chains */
	int name_width;
	bool trace_warned;            /* what the tracing data lacks, said once */
	struct strpool *pool;         /* srcline's strings */
	struct srcline_cache *srcline;
	char *frames;                 /* a sample's frame lines, written at once */
	size_t frames_alloc;
};

static bool is_tracepoint(const struct sample_event *a)
{
	return a->type == PERF_TYPE_TRACEPOINT;
}

/* perf's dummy event carries sideband records, never samples: not checked */
static bool is_dummy(const struct sample_event *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
}

static unsigned int default_fields(const struct script_out *so, const struct sample_event *a)
{
	if (!is_tracepoint(a))
		return SF_DEFAULT;
	return SF_DEFAULT_TP | (so->tp_callchain ? SF_FRAME : 0);
}

/*
 * The fields an event prints, or -1 after error() when one named
 * explicitly cannot be printed for it. Defaults the event's samples lack
 * are dropped quietly, as is trace for anything but a tracepoint.
 */
static int event_fields(const struct script_out *so, const struct sample_event *a, bool check,
			unsigned int *out)
{
	const struct script_fields *f = so->opts->fields;
	unsigned int want, named = 0;
	size_t i;

	if (!f || !f->given) {
		want = default_fields(so, a);
	} else if (f->replace) {
		want = named = f->set;
	} else {
		/* any -F makes tracepoints lose their call chain default, as in perf */
		want = (is_tracepoint(a) ? SF_DEFAULT_TP : SF_DEFAULT) | f->add;
		want &= ~f->del;
		named = f->add;
	}
	if (!is_tracepoint(a))
		want &= ~SF_TRACE;
	if (check && (want & SF_SYMOFF) && !(want & SF_SYM))
		return error("-F symoff needs sym, which event '%s' does not print", a->name);
	if (check && (want & SF_SRCLINE) && !(want & SF_IP))
		return error("-F srcline needs ip, which event '%s' does not print", a->name);
	for (i = 0; i < ARRAY_SIZE(field_table); i++) {
		unsigned int bit = field_table[i].field;

		if (!(want & bit) || !field_table[i].needs ||
		    (a->sample_type & field_table[i].needs))
			continue;
		if (check && (named & bit))
			return error("samples of event '%s' have no %s: cannot print field '%s'",
				     a->name, field_table[i].needs_name, field_table[i].name);
		want &= ~bit;
	}
	*out = want;
	return 0;
}

/* The fields slot of attr index idx, growing the table (~0u: not computed yet). */
static unsigned int *fields_slot(struct script_out *so, unsigned int idx)
{
	size_t i;

	if (idx >= so->nr_fields) {
		so->fields = xreallocarray(so->fields, st_add(idx, 1), sizeof(*so->fields));
		for (i = so->nr_fields; i <= idx; i++)
			so->fields[i] = ~0u;
		so->nr_fields = (size_t)idx + 1;
	}
	return &so->fields[idx];
}

static unsigned int fields_for(struct script_out *so, const struct sample_event *a)
{
	unsigned int *slot = fields_slot(so, a->index);

	/* an attr that arrived after the start (pipe mode) */
	if (*slot == ~0u)
		event_fields(so, a, false, slot);
	return *slot;
}

/* The fields of every event, checked; the widest event name. */
static int setup_events(struct script_out *so, const struct sample_event *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct sample_event *a = &ev[i];
		size_t len = strlen(a->name);

		if (is_tracepoint(a) && (a->sample_type & PERF_SAMPLE_CALLCHAIN))
			so->tp_callchain = true;
		if (len > (size_t)so->name_width)
			so->name_width = len > 256 ? 256 : (int)len;
	}
	for (i = 0; i < n; i++) {
		const struct sample_event *a = &ev[i];

		if (event_fields(so, a, !is_dummy(a), fields_slot(so, a->index)))
			return -1;
	}
	return 0;
}

struct script_out *script_out__new(FILE *out, const struct sample_event *ev, size_t nr_events,
				   const struct script_out_opts *opts)
{
	struct script_out *so = xcalloc(1, sizeof(*so));

	so->out = out;
	so->opts = opts;
	so->path = opts->path;
	if (setup_events(so, ev, nr_events)) {
		script_out__delete(so);
		return NULL;
	}
	return so;
}

void script_out__delete(struct script_out *so)
{
	if (!so)
		return;
	srcline_cache__delete(so->srcline);
	strpool__delete(so->pool);
	free(so->frames);
	free(so->fields);
	free(so);
}

static struct strpool *pool_of(struct script_out *so)
{
	if (!so->pool)
		so->pool = strpool__new();
	return so->pool;
}

/* ---- tracepoint fields ------------------------------------------------ */

/* Once, at the first tracepoint fields asked for: why none will print, if so. */
static void warn_parse(struct script_out *so, const struct trace_parse *p)
{
	const char *path = so->path;

	so->trace_warned = true;
	if (!p->present)
		warning("'%s': no tracing data in the recording: tracepoint fields are not printed",
			path);
	else if (p->error)
		warning("'%s': tracing data (%" PRIu64 " bytes) %s at offset %zu: tracepoint "
			"fields are not printed", path, p->size, p->error, p->error_off);
	else if (p->nr_bad_formats)
		warning("'%s': %zu of %zu tracepoint formats could not be parsed", path,
			p->nr_bad_formats, p->nr_events);
}

/* The fields the session formatted (rs->trace), or a warning why they are not there. */
static void print_trace(struct script_out *so, const struct resolved_sample *rs)
{
	const struct sample_trace *t = rs->trace;
	const struct sample_event *a = &rs->facts.event;

	if (!t)
		return;
	if (!so->trace_warned)
		warn_parse(so, t->parse);
	switch (t->fmt) {
	case SAMPLE_TRACE_OK:
		fwrite(t->text, 1, t->len, so->out);
		break;
	case SAMPLE_TRACE_NONE:
		break;
	case SAMPLE_TRACE_NO_EVENT:
		warning("'%s': no format for tracepoint '%s' (id %" PRIu64 ") in the tracing data",
			so->path, a->name, a->config);
		break;
	case SAMPLE_TRACE_MISMATCH:
		warning("'%s': a sample of '%s' holds another tracepoint's data; fields not printed",
			so->path, a->name);
		break;
	case SAMPLE_TRACE_TOO_BIG:
		warning("'%s': a sample of '%s' is too big to format", so->path, a->name);
		break;
	}
}

/* ---- frames ------------------------------------------------------------ */

/* perf prints the file's base name, as without --full-source-path */
static void print_srcline(struct script_out *so, const struct frame *f)
{
	struct src_loc loc[32];
	const char *base;

	if (!so->srcline)
		so->srcline = srcline_cache__new(pool_of(so));
	if (srcline__lookup(so->srcline, f, loc, ARRAY_SIZE(loc)) && loc[0].file) {
		base = strrchr(loc[0].file, '/');
		fprintf(so->out, "\n  %s:%" PRIu32, base ? base + 1 : loc[0].file, loc[0].line);
	} else if (f->dso[0] == '[' && strcmp(f->dso, UNKNOWN_LABEL)) {
		/* perf's fallback for the kernel, modules, [vdso]: DSO[ADDR] */
		fprintf(so->out, "\n  %s[%" PRIx64 "]", f->dso, f->print_addr);
	}
}

/* Hex digits of v into the end of buf (at least width, space-padded); returns the start. */
static char *fmt_hex(char *end, uint64_t v, int width)
{
	char *p = end;

	do {
		*--p = "0123456789abcdef"[v & 0xf];
		width--;
	} while (v >>= 4);
	while (width-- > 0)
		*--p = ' ';
	return p;
}

/*
 * One frame per line, millions of them: formatted by hand, as printf's
 * format parsing was a quarter of script's time.
 */
static void print_frame(struct script_out *so, unsigned int fl, const struct frame *f,
			uint64_t addr)
{
	FILE *out = so->out;
	char num[24], *end = num + sizeof(num), *p;

	p = fmt_hex(end, addr, 16);
	fwrite_unlocked(p, 1, (size_t)(end - p), out);
	if (fl & SF_SYM) {
		if (!f->sym) {
			fputs_unlocked(" [unknown]", out);
		} else {
			putc_unlocked(' ', out);
			fputs_unlocked(f->sym, out);
			if (fl & SF_SYMOFF) {
				p = fmt_hex(end, f->symoff, 0);
				*--p = 'x';
				*--p = '0';
				*--p = '+';
				fwrite_unlocked(p, 1, (size_t)(end - p), out);
			}
		}
	}
	/* perf: an inlined function's frame has no DSO, and says so last */
	if ((fl & SF_DSO) && !f->inlined) {
		fputs_unlocked(" (", out);
		fputs_unlocked(f->dso, out);
		putc_unlocked(')', out);
	}
	if (fl & SF_SRCLINE)
		print_srcline(so, f);
	if (f->inlined)
		fputs_unlocked(" (inlined)", out);
}

/*
 * The frame lines of a call chain, as print_frame() writes them, made in
 * one buffer and written at once: a few stdio calls a line were a tenth
 * of script's time. Without source lines only.
 */
static void print_chain(struct script_out *so, unsigned int fl, const struct resolved_sample *rs)
{
	size_t i, len = 0;

	for (i = 0; i < rs->nr_frames; i++) {
		const struct frame *f = &rs->frames[i];
		size_t sym = (fl & SF_SYM) && f->sym ? strlen(f->sym) : 0;
		size_t dso = fl & SF_DSO ? strlen(f->dso) : 0;
		char num[24], *end = num + sizeof(num), *p, *o;

		/* tab, 16+ hex digits, " sym+0x" and 16, " [unknown]", " (dso)", " (inlined)", newline */
		ALLOC_GROW(so->frames, st_add(len, sym + dso + 64), so->frames_alloc);
		o = so->frames + len;
		*o++ = '\t';
		p = fmt_hex(end, f->print_addr, 16);
		memcpy(o, p, (size_t)(end - p));
		o += end - p;
		if ((fl & SF_SYM) && !f->sym) {
			memcpy(o, " [unknown]", 10);
			o += 10;
		} else if (fl & SF_SYM) {
			*o++ = ' ';
			memcpy(o, f->sym, sym);
			o += sym;
			if (fl & SF_SYMOFF) {
				p = fmt_hex(end, f->symoff, 0);
				memcpy(o, "+0x", 3);
				memcpy(o + 3, p, (size_t)(end - p));
				o += 3 + (end - p);
			}
		}
		if ((fl & SF_DSO) && !f->inlined) {
			*o++ = ' ';
			*o++ = '(';
			memcpy(o, f->dso, dso);
			o += dso;
			*o++ = ')';
		}
		if (f->inlined) {
			memcpy(o, " (inlined)", 10);
			o += 10;
		}
		*o++ = '\n';
		len = (size_t)(o - so->frames);
	}
	fwrite_unlocked(so->frames, 1, len, so->out);
}

static void print_frames(struct script_out *so, unsigned int fl, const struct resolved_sample *rs)
{
	size_t i;

	if (rs->facts.has_callchain && !(fl & SF_SRCLINE)) {
		fputc('\n', so->out);
		print_chain(so, fl, rs);
		return;
	}
	if (!rs->facts.has_callchain) {
		fputc(' ', so->out);
		/* perf prints the sample's own ip in full, unlike chain entries */
		if (rs->nr_frames)
			print_frame(so, fl, &rs->frames[0], rs->facts.ip);
		return;
	}
	fputc('\n', so->out);
	for (i = 0; i < rs->nr_frames; i++) {
		fputc('\t', so->out);
		print_frame(so, fl, &rs->frames[i], rs->frames[i].print_addr);
		fputc('\n', so->out);
	}
}

/* ---- the sample --------------------------------------------------------- */

static void print_start(struct script_out *so, unsigned int fl, const struct resolved_sample *rs)
{
	const struct sample_facts *s = &rs->facts;
	FILE *out = so->out;

	if (fl & SF_COMM) {
		if ((fl & SF_IP) && (s->event.sample_type & PERF_SAMPLE_CALLCHAIN))
			fprintf(out, "%s ", rs->comm);
		else
			fprintf(out, "%16s ", rs->comm);
	}
	/* signed, as perf prints them: -1 where no task is known */
	if ((fl & SF_PID) && (fl & SF_TID))
		fprintf(out, "%5" PRId32 "/%-5" PRId32 " ", (int32_t)s->pid, (int32_t)s->tid);
	else if (fl & SF_PID)
		fprintf(out, "%5" PRId32 " ", (int32_t)s->pid);
	else if (fl & SF_TID)
		fprintf(out, "%5" PRId32 " ", (int32_t)s->tid);
	if (fl & SF_CPU)
		fprintf(out, "[%03" PRIu32 "] ", s->cpu);
	if (fl & SF_TIME) {
		uint64_t usec = s->time / 1000;

		fprintf(out, "%5" PRIu64 ".%06" PRIu64 ": ", usec / 1000000, usec % 1000000);
	}
	if (fl & SF_PERIOD)
		fprintf(out, "%10" PRIu64 " ", s->period);
	if (fl & SF_EVENT)
		fprintf(out, "%*s: ", so->name_width, s->event.name);
}

void script_out__sample(struct script_out *so, const struct resolved_sample *rs)
{
	unsigned int fl = fields_for(so, &rs->facts.event);

	/* perf prints nothing, not even the newline, for an event without fields */
	if (!fl)
		return;
	print_start(so, fl, rs);
	if (fl & SF_TRACE)
		print_trace(so, rs);
	if (fl & SF_IP)
		print_frames(so, fl, rs);
	fputc('\n', so->out);
}
