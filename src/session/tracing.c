#include "common/common.h"
#include "session/tracing.h"
#include "resolve/kernel.h"
#include "reader/tracedata.h"
#include "common/sbuf.h"

#include <perf/event.h>

struct tracing {
	const struct pd_reader *reader;
	struct resolver *resolver;    /* kernel symbols for %pS fields, or NULL */
	struct tracedata *td;
	struct trace_parse facts;
	bool parsed;
	struct sbuf text;             /* the last sample's fields */
	struct sample_trace last;     /* and what tracing__sample() said of it */
};

struct tracing *tracing__new(const struct pd_reader *r)
{
	struct tracing *t = xcalloc(1, sizeof(*t));

	t->reader = r;
	sbuf_init(&t->text, SBUF_MAX_LINE);
	return t;
}

void tracing__delete(struct tracing *t)
{
	if (!t)
		return;
	tracedata__delete(t->td);
	sbuf_release(&t->text);
	free(t);
}

void tracing__set_resolver(struct tracing *t, struct resolver *res)
{
	t->resolver = res;
}

/* tracedata_ksym_fn: kernel symbols for %pS fields, the resolver's */
static const char *ksym_of(void *priv, uint64_t *addr, const char **mod)
{
	struct tracing *t = priv;
	const struct ksym *s = t->resolver ? resolver__kernel_symbol(t->resolver, *addr) : NULL;

	if (!s)
		return NULL;
	*addr = s->start;
	*mod = s->module;
	return s->name;
}

/* The one parse, at the first call; what it found in t->facts. */
static void parse(struct tracing *t)
{
	const struct pd_info *in = pd_reader__info(t->reader);
	enum tracedata_err err;
	size_t off = 0;

	if (t->parsed)
		return;
	t->parsed = true;
	t->facts.present = in->tracing_data != NULL;
	t->facts.size = in->tracing_data_size;
	if (!t->facts.present)
		return;
	t->td = tracedata__new(in->tracing_data, (size_t)in->tracing_data_size, &err, &off);
	if (!t->td) {
		t->facts.error = tracedata__strerror(err);
		t->facts.error_off = off;
		return;
	}
	t->facts.nr_events = tracedata__nr_events(t->td);
	t->facts.nr_bad_formats = tracedata__nr_bad_formats(t->td);
	tracedata__set_ksym_resolver(t->td, ksym_of, t);
}

struct tracedata *tracing__data(struct tracing *t)
{
	parse(t);
	return t->td;
}

const struct trace_parse *tracing__facts(struct tracing *t)
{
	parse(t);
	return &t->facts;
}

const struct sample_trace *tracing__sample(struct tracing *t, const struct pd_sample *smp)
{
	struct sample_trace *out = &t->last;
	struct tracedata *td;

	if (!smp->attr || smp->attr->attr.type != PERF_TYPE_TRACEPOINT)
		return NULL;
	td = tracing__data(t);

	out->parse = &t->facts;
	out->fmt = SAMPLE_TRACE_NONE;
	out->text = NULL;
	out->len = 0;
	if (!td || !smp->raw_data)
		return out;
	sbuf_reset(&t->text);
	switch (tracedata__format(td, smp->attr->attr.config, smp->raw_data, smp->raw_size,
				  smp->cpu, &t->text)) {
	case TRACEDATA_FMT_OK:
		out->fmt = SAMPLE_TRACE_OK;
		out->text = t->text.buf;
		out->len = t->text.len;
		break;
	case TRACEDATA_FMT_NO_EVENT: out->fmt = SAMPLE_TRACE_NO_EVENT; break;
	case TRACEDATA_FMT_MISMATCH: out->fmt = SAMPLE_TRACE_MISMATCH; break;
	case TRACEDATA_FMT_TOO_BIG:  out->fmt = SAMPLE_TRACE_TOO_BIG; break;
	}
	return out;
}
