#include "common/common.h"
#include "session/offcpu.h"
#include "session/tracing.h"
#include "reader/tracedata.h"

/* A sample kept past the reader's buffer: its call chain, registers and stack copied. */
struct ev_copy {
	struct pd_event ev;
	uint64_t *chain, *regs;
	uint8_t *stack;
	size_t alloc_chain, alloc_regs, alloc_stack;
	bool valid;
};

/* One thread: whether it is off the CPU, since when, with what stack. */
struct tstate {
	uint32_t tid;             /* 0: a free slot (tid 0 is the idle task, never kept) */
	bool pending;
	uint64_t out_time;
	struct ev_copy out;       /* the stack charged */
	struct ev_copy last;      /* its last sample (switch records only) */
};

struct offcpu {
	const char *path;
	struct tracedata *td;     /* for sched_switch's prev_pid/next_pid (the session's); or NULL */
	offcpu_fn fn;
	void *ctx;
	struct tstate *slots;     /* open addressing by tid, a power of 2 of them */
	size_t nr_slots, nr_used;
	bool switch_records;      /* an attr asks for PERF_RECORD_SWITCH */
	uint64_t charged, uncharged;
};

static bool is_sched_switch(const struct pd_attr *a)
{
	return a->attr.type == PERF_TYPE_TRACEPOINT && !strcmp(a->name, "sched:sched_switch");
}

static bool is_offcpu_time(const struct pd_attr *a)
{
	return !strcmp(a->name, "offcpu-time");
}

bool offcpu__is_source(const struct pd_attr *a)
{
	return is_sched_switch(a) || is_offcpu_time(a);
}

static size_t slot_of(const struct offcpu *oc, uint32_t tid)
{
	return (size_t)((tid * 0x9e3779b1u) & (uint32_t)(oc->nr_slots - 1));
}

static struct tstate *lookup(struct offcpu *oc, uint32_t tid, bool create);

static void grow(struct offcpu *oc)
{
	struct tstate *old = oc->slots;
	size_t i, n = oc->nr_slots;

	oc->nr_slots = n ? n * 2 : 64;
	oc->slots = xcalloc(oc->nr_slots, sizeof(*oc->slots));
	oc->nr_used = 0;
	for (i = 0; i < n; i++)
		if (old[i].tid)
			*lookup(oc, old[i].tid, true) = old[i];
	free(old);
}

/* Thread tid's state; NULL when unknown and !create, or for tid 0. */
static struct tstate *lookup(struct offcpu *oc, uint32_t tid, bool create)
{
	size_t i;

	if (!tid || (!oc->nr_slots && !create))
		return NULL;
	if (create && (oc->nr_used + 1) * 2 > oc->nr_slots)
		grow(oc);
	for (i = slot_of(oc, tid); oc->slots[i].tid; i = (i + 1) & (oc->nr_slots - 1))
		if (oc->slots[i].tid == tid)
			return &oc->slots[i];
	if (!create)
		return NULL;
	oc->nr_used++;
	oc->slots[i].tid = tid;
	return &oc->slots[i];
}

static void *copy_bytes(void *dst, size_t *alloc, const void *src, size_t n)
{
	if (!src)
		return NULL;
	if (n > *alloc) {
		free(dst);
		dst = xmalloc(n);
		*alloc = n;
	}
	memcpy(dst, src, n);
	return dst;
}

/* Keep sample ev in c, with what its pointers point to (but the raw payload). */
static void copy_event(struct ev_copy *c, const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->sample;
	size_t nr_regs = (size_t)__builtin_popcountll(s->user_regs_mask);

	c->ev = *ev;
	c->chain = copy_bytes(c->chain, &c->alloc_chain, s->callchain,
			      st_mult((size_t)s->nr_callchain, sizeof(uint64_t)));
	c->regs = copy_bytes(c->regs, &c->alloc_regs, s->user_regs, nr_regs * sizeof(uint64_t));
	c->stack = copy_bytes(c->stack, &c->alloc_stack, s->user_stack, (size_t)s->user_stack_size);
	c->ev.sample.callchain = s->callchain ? c->chain : NULL;
	c->ev.sample.user_regs = s->user_regs ? c->regs : NULL;
	c->ev.sample.user_stack = s->user_stack ? c->stack : NULL;
	c->ev.sample.raw_data = NULL;
	c->ev.sample.raw_size = 0;
	c->valid = true;
}

/* Thread tid runs at time: charge the time it was off the CPU, if it was. */
static void runs(struct offcpu *oc, uint32_t tid, uint64_t time)
{
	struct tstate *t = lookup(oc, tid, false);

	if (!t || !t->pending)
		return;
	t->pending = false;
	t->out.ev.sample.period = time > t->out_time ? time - t->out_time : 0;
	oc->charged++;
	oc->fn(oc->ctx, &t->out.ev);
}

static void switch_out(struct offcpu *oc, struct tstate *t, uint64_t time)
{
	if (t->pending)
		oc->uncharged++;        /* it ran unseen: that time is lost */
	t->pending = true;
	t->out_time = time;
}

static void on_sched_switch(struct offcpu *oc, const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->sample;
	int64_t prev = s->tid, next = 0;
	struct tstate *t;

	if (oc->td && s->raw_data) {
		tracedata__field_int(oc->td, s->attr->attr.config, s->raw_data, s->raw_size,
				     "prev_pid", &prev);
		tracedata__field_int(oc->td, s->attr->attr.config, s->raw_data, s->raw_size,
				     "next_pid", &next);
	}
	if (prev > 0 && prev <= UINT32_MAX && (t = lookup(oc, (uint32_t)prev, true))) {
		runs(oc, (uint32_t)prev, s->time);
		switch_out(oc, t, s->time);
		copy_event(&t->out, ev);
	}
	if (next > 0 && next <= UINT32_MAX)
		runs(oc, (uint32_t)next, s->time);
}

bool offcpu__sample(struct offcpu *oc, const struct pd_event *ev)
{
	const struct pd_attr *a = ev->sample.attr;
	struct tstate *t;

	if (a && is_offcpu_time(a)) {
		oc->charged++;
		oc->fn(oc->ctx, ev);
		return true;
	}
	if (a && is_sched_switch(a)) {
		on_sched_switch(oc, ev);
		return true;
	}
	runs(oc, ev->sample.tid, ev->sample.time);
	if (oc->switch_records && (t = lookup(oc, ev->sample.tid, true)))
		copy_event(&t->last, ev);
	return false;
}

void offcpu__switch(struct offcpu *oc, const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->sample;
	struct tstate *t;

	if (!(ev->misc & PERF_RECORD_MISC_SWITCH_OUT)) {
		runs(oc, s->tid, s->time);
		return;
	}
	/* beside sched_switch samples, only the switch-ins: those have the stacks */
	if (!oc->switch_records)
		return;
	t = lookup(oc, s->tid, true);
	if (!t || t->pending)
		return;                 /* the same switch from another event */
	switch_out(oc, t, s->time);
	if (t->last.valid) {
		copy_event(&t->out, &t->last.ev);
	} else {
		/* no sample of it yet: no stack, its ip 0 */
		memset(&t->out.ev, 0, sizeof(t->out.ev));
		t->out.ev.type = PERF_RECORD_SAMPLE;
		t->out.ev.misc = PERF_RECORD_MISC_USER;
		t->out.ev.sample = *s;
		t->out.ev.sample.callchain = NULL;
		t->out.ev.sample.nr_callchain = 0;
		t->out.valid = true;
	}
	t->out.ev.sample.time = s->time;
	if (s->attr && (s->attr->attr.sample_type & PERF_SAMPLE_CPU))
		t->out.ev.sample.cpu = s->cpu;
}

void offcpu__exit(struct offcpu *oc, uint32_t tid, uint64_t time)
{
	runs(oc, tid, time);
}

static struct tracedata *switch_formats(const struct pd_reader *r, struct tracing *tr)
{
	struct tracedata *td = tracing__data(tr);
	const struct trace_parse *p = tracing__facts(tr);

	if (!p->present) {
		warning("'%s' has no tracing data: sched_switch samples do not say which thread "
			"comes on the CPU; a thread's time off it ends at the next sign that it "
			"ran (a sample, a switch-out, its exit)", pd_reader__path(r));
		return NULL;
	}
	if (!td)
		warning("'%s': tracing data unreadable (%s): sched_switch samples do not say "
			"which thread comes on the CPU; a thread's time off it ends at the next "
			"sign that it ran (a sample, a switch-out, its exit)", pd_reader__path(r),
			p->error);
	return td;
}

/* Whether the recording's perf record command line (header) has word. */
static bool cmdline_has(const struct pd_reader *r, const char *word)
{
	const char *line = pd_reader__info(r)->cmdline, *at;
	size_t n = strlen(word);

	for (at = line; at && (at = strstr(at, word)); at += n)
		if ((at == line || at[-1] == ' ') && (at[n] == ' ' || !at[n]))
			return true;
	return false;
}

/*
 * A recording without switches. perf record --off-cpu needs a perf built
 * with BPF skeletons (BUILD_BPF_SKEL=1); Debian's perf 6.1 is not, and
 * takes the option with "Warning: option `off-cpu' is being ignored
 * because no BUILD_BPF_SKEL=1", recording no offcpu-time event: so it is
 * named as the fix only with that condition, and the ways any perf
 * records come first.
 */
static void no_switches(const struct pd_reader *r)
{
	if (cmdline_has(r, "--off-cpu"))
		error("'%s' holds no context switches: its perf record --off-cpu recorded none "
		      "(a perf built without BPF skeletons, BUILD_BPF_SKEL=1, ignores --off-cpu); "
		      "record them with perf record -e sched:sched_switch -g, or --switch-events",
		      pd_reader__path(r));
	else
		error("'%s' holds no context switches: record them with perf record "
		      "-e sched:sched_switch -g, or --switch-events (or --off-cpu, where perf "
		      "was built with BPF skeletons, BUILD_BPF_SKEL=1)", pd_reader__path(r));
}

struct offcpu *offcpu__new(struct pd_reader *r, struct tracing *tr, offcpu_fn fn, void *ctx)
{
	size_t i, n = pd_reader__nr_attrs(r);
	bool sched = false, bpf = false, sw = false;
	struct offcpu *oc;

	for (i = 0; i < n; i++) {
		const struct pd_attr *a = pd_reader__attr(r, i);

		sched |= is_sched_switch(a);
		bpf |= is_offcpu_time(a);
		sw |= a->attr.context_switch;
	}
	if (!sched && !bpf && !sw) {
		no_switches(r);
		return NULL;
	}
	oc = xcalloc(1, sizeof(*oc));
	oc->path = pd_reader__path(r);
	oc->fn = fn;
	oc->ctx = ctx;
	oc->switch_records = sw && !sched;
	if (sched)
		oc->td = switch_formats(r, tr);
	if (oc->switch_records)
		warning("'%s': switch records carry no stacks: a thread's time off the CPU goes "
		     "to its last sampled stack before it left", oc->path);
	return oc;
}

static void release_copy(struct ev_copy *c)
{
	free(c->chain);
	free(c->regs);
	free(c->stack);
}

void offcpu__report(const struct offcpu *oc)
{
	size_t i;
	uint64_t left = oc->uncharged;

	for (i = 0; i < oc->nr_slots; i++)
		left += oc->slots[i].tid && oc->slots[i].pending;
	if (left)
		note("'%s': %" PRIu64 " time%s off the CPU not charged: the thread did not run "
		     "again before it exited or the recording ended", oc->path, left,
		     left == 1 ? "" : "s");
}

void offcpu__delete(struct offcpu *oc)
{
	size_t i;

	if (!oc)
		return;
	for (i = 0; i < oc->nr_slots; i++) {
		release_copy(&oc->slots[i].out);
		release_copy(&oc->slots[i].last);
	}
	free(oc->slots);
	free(oc);
}
