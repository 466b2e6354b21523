/*
 * The silent cases: see explain.h. Each explain_*() says one reason in
 * one warning; explain__silent_cases() chooses which apply, in the order
 * a user would look for them.
 */
#include "common/common.h"
#include "session/explain.h"
#include "session/session.h"
#include "common/sbuf.h"

#include <perf/event.h>

/* "'a', 'b'": the names of the attrs i (but skip) with counts[i] > 0, into sb; how many. */
static size_t add_event_names(struct sbuf *sb, const struct pd_reader *r, const uint64_t *counts,
			      size_t nr_counts, const struct pd_attr *skip)
{
	size_t i, n = 0;

	for (i = 0; i < nr_counts && i < pd_reader__nr_attrs(r); i++) {
		const struct pd_attr *a = pd_reader__attr(r, i);

		if (!counts[i] || a == skip)
			continue;
		sbuf_addf(sb, "%s'%s'", n++ ? ", " : "", a->name);
	}
	return n;
}

/* The first event was used alone while others have samples: say which, and how to choose. */
static void explain_first_event(const struct explain_run *s)
{
	const struct session_tally *c = s->tally;
	struct sbuf others = SBUF_INIT;

	/* with --on-off-cpu the switches' event is used too, as it should be */
	if (s->opts->filter.first_event_only && !s->opts->filter.event && s->event &&
	    !s->opts->offcpu &&
	    add_event_names(&others, s->reader, c->read, c->alloc_read, s->event))
		warning("'%s' has %zu events; using '%s' only (also: %s); choose with --event",
			pd_reader__path(s->reader), pd_reader__nr_attrs(s->reader), s->event->name,
			others.buf);
	sbuf_release(&others);
}

/* "--pid 1,2" */
static void add_id_filter(struct sbuf *sb, const char *opt, const uint32_t *ids, size_t nr)
{
	size_t i;

	sbuf_addf(sb, "%s%s ", sb->len ? " and " : "", opt);
	for (i = 0; i < nr; i++)
		sbuf_addf(sb, "%s%" PRIu32, i ? "," : "", ids[i]);
}

static void add_comm_filter(struct sbuf *sb, const struct sample_filter *f)
{
	size_t i;

	sbuf_addf(sb, "%s--comm '", sb->len ? " and " : "");
	for (i = 0; i < f->nr_comms; i++)
		sbuf_addf(sb, "%s%s", i ? "," : "", f->comms[i]);
	sbuf_addch(sb, '\'');
}

/* "--time '1,2'" */
static void add_str_filter(struct sbuf *sb, const char *opt, const char *arg)
{
	sbuf_addf(sb, "%s%s '%s'", sb->len ? " and " : "", opt, arg);
}

/* No sample passed --pid, --tid, --comm, --time and --cpu: name the filter(s) that matched nothing. */
static void explain_no_match(const struct explain_run *s)
{
	const struct sample_filter *f = &s->opts->filter;
	const struct session_tally *c = s->tally;
	struct sbuf what = SBUF_INIT, seen = SBUF_INIT;
	/* a filter that alone matched nothing is to blame; else all of them together */
	bool alone = (f->nr_pids && !c->pid_ok) || (f->nr_tids && !c->tid_ok) ||
		     (f->nr_comms && !c->comm_ok) || (f->time && !c->time_ok) ||
		     (f->cpus && !c->cpu_ok);
	size_t i;

	if (f->nr_pids && (!alone || !c->pid_ok))
		add_id_filter(&what, "--pid", f->pids, f->nr_pids);
	if (f->nr_tids && (!alone || !c->tid_ok))
		add_id_filter(&what, "--tid", f->tids, f->nr_tids);
	if (f->nr_comms && (!alone || !c->comm_ok)) {
		add_comm_filter(&what, f);
		for (i = 0; !c->comm_ok && i < c->nr_comms; i++)
			sbuf_addf(&seen, "%s'%s'", i ? ", " : "", c->comms[i]);
	}
	if (f->time && (!alone || !c->time_ok)) {
		add_str_filter(&what, "--time", f->time);
		if (!c->time_ok)
			sbuf_addf(&what, " (samples are from %" PRIu64 ".%06" PRIu64 " to %" PRIu64
				  ".%06" PRIu64 ")", c->first_time / 1000000000,
				  c->first_time % 1000000000 / 1000, c->last_time / 1000000000,
				  c->last_time % 1000000000 / 1000);
	}
	if (f->cpus && (!alone || !c->cpu_ok))
		add_str_filter(&what, "--cpu", f->cpu_list);
	if (!what.len)
		BUG("no sample kept, and no filter to blame");
	warning("no sample matched %s%s%s%s%s", what.buf, alone ? "" : " together",
		seen.len ? " (comms: " : "", seen.buf,
		seen.len ? (c->more_comms ? ", ...)" : ")") : "");
	sbuf_release(&what);
	sbuf_release(&seen);
}

/* Events whose samples were kept but have no call chains: their stacks are the ip alone. */
static void explain_leaf_only(const struct explain_run *s)
{
	const struct session_tally *c = s->tally;
	struct sbuf names = SBUF_INIT;
	size_t i, n = 0;

	for (i = 0; i < c->alloc_kept && i < pd_reader__nr_attrs(s->reader); i++) {
		const struct pd_attr *a = pd_reader__attr(s->reader, i);

		if (!c->kept[i] ||
		    (a->attr.sample_type & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER)))
			continue;
		sbuf_addf(&names, "%s'%s'", n++ ? ", " : "", a->name);
	}
	if (n)
		warning("'%s' has no call chains for %s (recorded without -g): stacks are leaf-only",
			pd_reader__path(s->reader), names.buf);
	sbuf_release(&names);
}

/*
 * After a run read fine: one line for each reason the output is empty or
 * partial that the user may not see from the output. Exit status stays 0,
 * as perf's: the recording was read.
 */
void explain__silent_cases(const struct explain_run *s)
{
	const struct sample_filter *f = &s->opts->filter;
	const struct session_tally *c = s->tally;
	struct sbuf events = SBUF_INIT;

	if (!c->samples && s->opts->offcpu == OFFCPU_ONLY) {
		warning("'%s': no thread left the CPU and ran again: no off-CPU time",
			pd_reader__path(s->reader));
		return;
	}
	if (!c->samples) {
		warning("'%s' holds no samples", pd_reader__path(s->reader));
		return;
	}
	explain_first_event(s);
	if (!c->of_event && f->event) {
		add_event_names(&events, s->reader, c->read, c->alloc_read, NULL);
		warning("no sample matched --event '%s' (samples are of %s)", f->event, events.buf);
		sbuf_release(&events);
		return;
	}
	if (!c->of_event)
		return;        /* the first event alone has none: explain_first_event() said */
	if (!c->nr_kept) {
		explain_no_match(s);
		return;
	}
	if (s->opts->stacks)
		explain_leaf_only(s);
}
