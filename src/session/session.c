#include "common/common.h"
#include "session/session.h"
#include "session/inline-expand.h"
#include "session/deferred.h"
#include "session/filter.h"
#include "session/explain.h"
#include "session/handoff.h"
#include "session/tracing.h"
#include "unwind/user-stack.h"
#include "timeline/jitmap.h"
#include "timeline/machine.h"
#include "timeline/mmap-scan.h"
#include "reader/order.h"
#include "common/progress.h"
#include "common/strpool.h"

#include <perf/event.h>

#define MAX_FRAMES 65536

struct session {
	const struct session_opts *opts;
	struct pd_reader *reader;
	struct strpool *pool;
	struct machine *machine;
	struct jitmap *jitmap;
	struct resolver *resolver;
	const struct pd_attr *event;  /* the event kept, or NULL for all */
	const struct pd_attr *marker; /* --marker-event's, or NULL */
	const struct session_hooks *hooks;
	struct frame_buf own_frames;  /* the frames of a sample the hook gets at once */
	struct frame_buf *frames;     /* where samples are resolved: own_frames, or a batch */
	struct handoff *handoff;      /* the hook on a second thread, or NULL */
	bool aborted;                 /* session__abort() */
	struct user_stack *user_stack;  /* --call-graph dwarf: made at the first dump */
	uint64_t *user_ips;           /* its walks' addresses */
	struct session_tally tally;
	struct time_range *times;     /* --time, made at the start */
	size_t nr_times;
	bool bad_filter;              /* SESSION_BAD_FILTER */
	bool filtering;               /* any of --pid, --tid, --comm, --time, --cpu */
	struct mmap_scan *scan;       /* exec mmaps ahead of the samples: made on first need */
	struct offcpu *offcpu;        /* --off-cpu, --on-off-cpu */
	const char *offcpu_sym;       /* OFFCPU_FRAME, interned */
	uint64_t now;                 /* the time of the last record with one */
	struct deferred *deferred;    /* samples waiting for their user part (deferred.h) */
	struct tracing *tracing;      /* the one parse of the tracing data, at the first need */
	struct inline_expander *expander;  /* the inlined functions' frames, unless opts->no_inline */
};

static bool id_in(const uint32_t *list, size_t nr, uint32_t id)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (list[i] == id)
			return true;
	return false;
}

static bool comm_in(const struct sample_filter *f, const char *comm)
{
	size_t i;

	for (i = 0; i < f->nr_comms; i++)
		if (!strcmp(f->comms[i], comm))
			return true;
	return false;
}

/* Count a sample of attr index i in counts (grown to fit). */
static void tally_attr(uint64_t **counts, size_t *alloc, unsigned int i)
{
	size_t old = *alloc;

	ALLOC_GROW(*counts, (size_t)i + 1, *alloc);
	memset(*counts + old, 0, (*alloc - old) * sizeof(**counts));
	(*counts)[i]++;
}

/* Remember comm among the first MAX_SEEN_COMMS distinct ones (comms are interned). */
static void tally_comm(struct session_tally *c, const char *comm)
{
	size_t i;

	for (i = 0; i < c->nr_comms; i++)
		if (c->comms[i] == comm || !strcmp(c->comms[i], comm))
			return;
	if (c->nr_comms < MAX_SEEN_COMMS)
		c->comms[c->nr_comms++] = comm;
	else
		c->more_comms = true;
}

/* Whether the sample passes --pid, --tid, --comm, --time and --cpu, counted for the warnings. */
static bool filters_pass(struct session *s, const struct pd_sample *smp, const struct thread *t)
{
	const struct sample_filter *f = &s->opts->filter;
	struct session_tally *c = &s->tally;
	bool pid_ok, tid_ok, comm_ok, time_ok, cpu_ok;

	/* the span the --time warning names */
	if (f->time && (c->of_event == 1 || smp->time < c->first_time))
		c->first_time = smp->time;
	if (f->time && smp->time > c->last_time)
		c->last_time = smp->time;
	pid_ok = !f->nr_pids || id_in(f->pids, f->nr_pids, smp->pid);
	tid_ok = !f->nr_tids || id_in(f->tids, f->nr_tids, smp->tid);
	comm_ok = !f->nr_comms || comm_in(f, t->comm);
	time_ok = !s->nr_times || time_filter__keep(s->times, s->nr_times, smp->time);
	cpu_ok = !f->cpus || cpu_filter__keep(f->cpus, smp->cpu);
	c->pid_ok += pid_ok;
	c->tid_ok += tid_ok;
	c->comm_ok += comm_ok;
	c->time_ok += time_ok;
	c->cpu_ok += cpu_ok;
	if (f->nr_comms)
		tally_comm(c, t->comm);
	return pid_ok && tid_ok && comm_ok && time_ok && cpu_ok;
}

/* off_cpu: a switch-out stack (offcpu.h), of whichever event. */
static bool keep_sample(struct session *s, const struct pd_sample *smp, const struct thread *t,
			bool off_cpu)
{
	struct session_tally *c = &s->tally;

	c->samples++;
	if (smp->attr)
		tally_attr(&c->read, &c->alloc_read, smp->attr->index);
	if (s->event && smp->attr != s->event && !off_cpu)
		return false;
	c->of_event++;
	if (s->filtering && !filters_pass(s, smp, t))
		return false;
	c->nr_kept++;
	if (smp->attr)
		tally_attr(&c->kept, &c->alloc_kept, smp->attr->index);
	return true;
}

/* Mark the sample's frame number nr - 1 (counted up) for its inlined functions (inline-expand.h). */
static void mark_inline(struct session *s, size_t nr, enum frame_inline mode)
{
	if (s->expander)
		s->frames->v[st_add(s->frames->nr, nr - 1)].inline_mode = (uint8_t)mode;
}

/* Resolve the sample's frame number *nr (counted up) after s->frames->nr; the frame. */
static struct frame *push_frame(struct session *s, size_t *nr, struct thread *t,
				uint16_t cpumode, uint64_t ip, bool caller)
{
	struct frame_buf *fb = s->frames;
	size_t at = st_add(fb->nr, *nr);

	ALLOC_GROW(fb->v, at + 1, fb->alloc);
	resolver__frame(s->resolver, t, cpumode, ip, caller, &fb->v[at]);
	fb->v[at].inline_mode = FRAME_INLINE_NO;
	(*nr)++;
	return &fb->v[at];
}

static bool user_mode(uint16_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_USER || cpumode == PERF_RECORD_MISC_GUEST_USER;
}

/*
 * Walk the call chain: context markers switch cpumode; the first real
 * entry is the leaf. The first entry of each context is where that
 * context was interrupted (the kernel stores the user registers' ip after
 * PERF_CONTEXT_USER), not a return address, so it is looked up exactly;
 * the others are callers, looked up at ip - 1 where they are return
 * addresses (resolve.h decides, from the code bytes where it has them).
 *
 * When the chain has no user part (none recorded, a --call-graph dwarf
 * recording whose kernel chain stops at PERF_CONTEXT_USER, or an empty
 * chain), the sample's own ip is its first user frame if the sample was
 * taken in user mode; a sample with no frame at all gets its ip in its
 * own mode. So the leaf appears whatever the chain holds.
 */
/* The user part from the sample's registers and stack dump, after nr frames. */
static size_t unwind_user(struct session *s, const struct pd_sample *smp, struct thread *t,
			  size_t nr, const struct unwind_result **res)
{
	size_t n, i;

	if (!s->user_stack) {
		s->user_stack = user_stack__new(s->resolver, s->jitmap, s->pool,
						pd_reader__info(s->reader)->arch);
		s->user_ips = xcalloc(MAX_FRAMES, sizeof(*s->user_ips));
	}
	n = user_stack__unwind(s->user_stack, t->proc, smp, s->user_ips, MAX_FRAMES - nr, res);
	/*
	 * The first is where the user code was interrupted; the rest are
	 * callers, which perf script prints as the call site's last byte
	 * (ip - 1, and its offset) when it unwound them from a dump: print
	 * them so too where they were looked up there (at_call: the bytes
	 * before end in a call, or there are none to tell), else as they are.
	 */
	for (i = 0; i < n; i++) {
		struct frame *f = push_frame(s, &nr, t, PERF_RECORD_MISC_USER, s->user_ips[i], i > 0);

		if (f->at_call && f->print_addr)
			f->print_addr--;
		if (f->at_call && f->sym && f->symoff)
			f->symoff--;
		mark_inline(s, nr, FRAME_INLINE_UNWOUND);
	}
	return nr;
}

/* The OFFCPU_FRAME leaf, as the sample's frame *nr (counted up). */
static void push_offcpu_frame(struct session *s, size_t *nr)
{
	struct frame_buf *fb = s->frames;
	size_t at = st_add(fb->nr, *nr);

	ALLOC_GROW(fb->v, at + 1, fb->alloc);
	memset(&fb->v[at], 0, sizeof(fb->v[at]));
	fb->v[at].sym = s->offcpu_sym;
	fb->v[at].dso = s->offcpu_sym;
	fb->v[at].kind = FRAME_UNKNOWN;
	(*nr)++;
}

/* first: frames already pushed for this sample (the off-CPU leaf) */
static size_t resolve_chain(struct session *s, const struct pd_event *ev, struct thread *t,
			    size_t first, const struct unwind_result **unwound)
{
	const struct pd_sample *smp = &ev->sample;
	uint16_t sample_mode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	uint16_t cpumode = sample_mode;
	bool exact = true, user_part = false;
	size_t nr = first;
	uint64_t i;

	if (smp->callchain)
		resolver__prefetch_chain(s->resolver, t, cpumode, smp->callchain,
					 (size_t)(smp->nr_callchain < MAX_FRAMES ? smp->nr_callchain : MAX_FRAMES));
	for (i = 0; smp->callchain && i < smp->nr_callchain && nr < MAX_FRAMES; i++) {
		uint64_t ip = smp->callchain[i];

		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_KERNEL:       cpumode = PERF_RECORD_MISC_KERNEL; break;
			case PERF_CONTEXT_USER:         cpumode = PERF_RECORD_MISC_USER; break;
			case PERF_CONTEXT_HV:           cpumode = PERF_RECORD_MISC_HYPERVISOR; break;
			case PERF_CONTEXT_GUEST_KERNEL: cpumode = PERF_RECORD_MISC_GUEST_KERNEL; break;
			case PERF_CONTEXT_GUEST_USER:   cpumode = PERF_RECORD_MISC_GUEST_USER; break;
			default: break;
			}
			exact = true;
			continue;
		}
		push_frame(s, &nr, t, cpumode, ip, !exact);
		mark_inline(s, nr, FRAME_INLINE_CHAIN);
		user_part |= user_mode(cpumode);
		exact = false;
	}
	*unwound = NULL;
	if (nr < MAX_FRAMES && !user_part && user_stack__has(smp)) {
		size_t before = nr;

		nr = unwind_user(s, smp, t, nr, unwound);
		user_part = nr > before;
	}
	if (nr < MAX_FRAMES && !user_part && (user_mode(sample_mode) || nr == first)) {
		push_frame(s, &nr, t, sample_mode, smp->ip, false);
		/* perf shows inlined functions in call chains only */
		if (smp->callchain)
			mark_inline(s, nr, FRAME_INLINE_CHAIN);
	}
	return nr;
}

/* Whether a's period is in ns: the cpu-clock and task-clock events. */
static bool attr_is_clock(const struct pd_attr *a)
{
	return a->attr.type == PERF_TYPE_SOFTWARE &&
		(a->attr.config == PERF_COUNT_SW_CPU_CLOCK ||
		 a->attr.config == PERF_COUNT_SW_TASK_CLOCK);
}

void session__sample_event(const struct pd_attr *a, struct sample_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (!a)
		return;
	ev->name = a->name;
	ev->index = a->index;
	ev->type = a->attr.type;
	ev->config = a->attr.config;
	ev->sample_type = a->attr.sample_type;
	ev->is_clock = attr_is_clock(a);
}

/* What the writers read of smp, by value (sample.h). */
static void sample_facts(const struct pd_sample *smp, struct sample_facts *sf)
{
	sf->ip = smp->ip;
	sf->time = smp->time;
	sf->period = smp->period;
	sf->pid = smp->pid;
	sf->tid = smp->tid;
	sf->cpu = smp->cpu;
	sf->has_time = smp->has_time;
	sf->has_callchain = smp->callchain != NULL;
	session__sample_event(smp->attr, &sf->event);
}

/*
 * off_cpu: a switch-out stack offcpu gave, delivered when its thread ran
 * again; join: what became of a deferred user part
 */
static void deliver_sample(struct session *s, const struct pd_event *ev, bool off_cpu,
			   enum deferred_join join)
{
	struct thread *t = machine__findnew_thread(s->machine, ev->sample.pid, ev->sample.tid);
	struct resolved_sample rs;
	size_t first = 0;

	if (!keep_sample(s, &ev->sample, t, off_cpu))
		return;
	/*
	 * the process's JIT code as of this sample (code_changed() drops stale
	 * frames); an off-CPU stack is resolved now, when its time is known
	 */
	jitmap__advance(s->jitmap, ev->sample.pid, off_cpu ? s->now : ev->sample.time);
	sample_facts(&ev->sample, &rs.facts);
	rs.ev = ev;
	rs.sample = &ev->sample;
	rs.thread = t;
	rs.thread_id = (uintptr_t)t;
	s->frames = s->handoff ? handoff__frames(s->handoff) : &s->own_frames;
	if (off_cpu && s->opts->offcpu == OFFCPU_BOTH)
		push_offcpu_frame(s, &first);
	rs.nr_frames = resolve_chain(s, ev, t, first, &rs.unwind);
	rs.frames = s->frames->v ? s->frames->v + s->frames->nr : NULL;
	/* with the hook on its thread, the inlined functions are added there */
	if (s->expander && !s->handoff)
		rs.nr_frames = inline_expander__run(s->expander, rs.frames, rs.nr_frames, &rs.frames);
	rs.deferred = join;
	rs.comm = t->comm;
	rs.trace = s->opts->trace_fields ? tracing__sample(s->tracing, &ev->sample) : NULL;
	if (s->handoff)
		handoff__add(s->handoff, &rs);
	else
		s->hooks->sample(s->hooks->ctx, &rs);
}

static void on_offcpu(void *ctx, const struct pd_event *ev)
{
	deliver_sample(ctx, ev, true, DEFERRED_NONE);
}

static void on_sample(struct session *s, const struct pd_event *ev, enum deferred_join join)
{
	/* with --off-cpu, on-CPU samples only tell offcpu that their thread runs */
	if (s->offcpu && (offcpu__sample(s->offcpu, ev) || s->opts->offcpu == OFFCPU_ONLY))
		return;
	deliver_sample(s, ev, false, join);
}

/* A sample deferred.c held, now with its user part or without. */
static void on_joined(void *ctx, const struct pd_event *ev, enum deferred_join join)
{
	on_sample(ctx, ev, join);
}

static void on_mmap(struct session *s, const struct pd_event *ev)
{
	struct map map = {
		.filename = ev->u.mmap.filename,
		.prot = ev->u.mmap.prot,
		.build_id_size = ev->u.mmap.build_id_size,
	};

	memcpy(map.build_id, ev->u.mmap.build_id, sizeof(map.build_id));
	machine__mmap(s->machine, ev->u.mmap.pid, ev->u.mmap.start, ev->u.mmap.len,
		      ev->u.mmap.pgoff, &map);
	jitmap__mmap_at(s->jitmap, ev->u.mmap.pid, ev->u.mmap.filename, ev->sample.time);
}

static void deliver(void *ctx, const struct pd_event *ev)
{
	struct session *s = ctx;

	if (ev->sample.time > s->now)
		s->now = ev->sample.time;
	switch (ev->type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (s->offcpu)
			offcpu__switch(s->offcpu, ev);
		break;
	case PERF_RECORD_SAMPLE:
		if (s->marker && ev->sample.attr == s->marker) {
			if (s->hooks->record)
				s->hooks->record(s->hooks->ctx, ev);
			return;
		}
		if (!deferred__sample(s->deferred, ev))
			on_sample(s, ev, DEFERRED_NONE);
		break;
	case PD_RECORD_CALLCHAIN_DEFERRED:
		deferred__record(s->deferred, ev);
		break;
	case PERF_RECORD_COMM:
		machine__comm(s->machine, ev->u.comm.pid, ev->u.comm.tid, ev->u.comm.comm,
			      ev->u.comm.exec);
		if (ev->u.comm.exec) {
			jitmap__exec(s->jitmap, ev->u.comm.pid, ev->sample.time);
			resolver__invalidate(s->resolver, ev->u.comm.pid);
		}
		break;
	case PERF_RECORD_FORK:
		machine__fork(s->machine, ev->u.fork.pid, ev->u.fork.ppid, ev->u.fork.tid,
			      ev->u.fork.ptid);
		jitmap__fork(s->jitmap, ev->u.fork.pid, ev->u.fork.ppid, ev->u.fork.time);
		resolver__invalidate(s->resolver, ev->u.fork.pid);
		break;
	case PERF_RECORD_EXIT:
		/* its last time off is charged to it while it is still there */
		if (s->offcpu)
			offcpu__exit(s->offcpu, ev->u.fork.tid, ev->u.fork.time);
		/* its samples still waiting for a user part will not get one */
		deferred__thread_exit(s->deferred, ev->u.fork.tid);
		machine__exit(s->machine, ev->u.fork.pid, ev->u.fork.tid);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		on_mmap(s, ev);
		break;
	case PERF_RECORD_NAMESPACES:
		if (ev->u.ns.has_pid_ns)
			jitmap__namespace(s->jitmap, ev->u.ns.pid, ev->u.ns.pid_ns_dev,
					  ev->u.ns.pid_ns_ino);
		break;
	default:
		break;
	}
	if (s->hooks->record && ev->type != PERF_RECORD_SAMPLE)
		s->hooks->record(s->hooks->ctx, ev);
}

/* The attr samples are kept for, per the filter; -1 if --event names none. */
static int choose_event(struct session *s)
{
	const struct sample_filter *f = &s->opts->filter;
	size_t i, n = pd_reader__nr_attrs(s->reader);

	if (s->opts->marker_event) {
		for (i = 0; i < n && !s->marker; i++)
			if (!strcmp(pd_reader__attr(s->reader, i)->name, s->opts->marker_event))
				s->marker = pd_reader__attr(s->reader, i);
		if (!s->marker)
			return error("'%s': no event named '%s' (--marker-event)",
				     pd_reader__path(s->reader), s->opts->marker_event);
	}
	if (f->event) {
		for (i = 0; i < n; i++)
			if (!strcmp(pd_reader__attr(s->reader, i)->name, f->event)) {
				s->event = pd_reader__attr(s->reader, i);
				return 0;
			}
		return error("'%s': no event named '%s' in the recording",
			     pd_reader__path(s->reader), f->event);
	}
	/* --off-cpu: the switches of every event; --on-off-cpu: the first that samples */
	if (s->opts->offcpu == OFFCPU_ONLY)
		return 0;
	for (i = 0; f->first_event_only && i < n; i++)
		if ((!s->opts->offcpu || !offcpu__is_source(pd_reader__attr(s->reader, i))) &&
		    pd_reader__attr(s->reader, i) != s->marker) {
			s->event = pd_reader__attr(s->reader, i);
			break;
		}
	return 0;
}

/*
 * Set up what needs the header: the event to keep and the resolver (build
 * ids, os release). In pipe mode the header arrives as records, all of
 * them before the first kernel record, so this waits for that record.
 */
/*
 * jitdump times are CLOCK_MONOTONIC: usable only if the samples have
 * times on that clock too (perf record -k 1, with sample times).
 */
static bool monotonic_samples(const struct pd_reader *r)
{
	const struct pd_attr *a = pd_reader__nr_attrs(r) ? pd_reader__attr(r, 0) : NULL;

	return a && (a->attr.sample_type & PERF_SAMPLE_TIME) && a->attr.use_clockid &&
	       a->attr.clockid == 1 /* CLOCK_MONOTONIC */;
}

static void code_changed(void *ctx, uint32_t pid, uint64_t start, uint64_t end)
{
	struct session *s = ctx;

	machine__changed_range(s->machine, pid, start, end);
}

/* The timeline asks for a process's exec mmaps to time its perf map: read them all once. */
static struct jit_exec_mmaps exec_mmaps(void *ctx, uint32_t pid, uint64_t at)
{
	struct session *s = ctx;

	if (!s->scan)
		s->scan = mmap_scan__new(pd_reader__path(s->reader));
	return mmap_scan__image(s->scan, pid, at);
}

static struct jitmap *new_jitmap(struct session *s, const char *path)
{
	struct jitmap_opts jo = {
		.jit_dirs = s->opts->jit_dirs,
		.nr_jit_dirs = s->opts->nr_jit_dirs,
		.perfmap_dirs = s->opts->perfmap_dirs,
		.nr_perfmap_dirs = s->opts->nr_perfmap_dirs,
		.given = s->opts->given,
		.nr_given = s->opts->nr_given,
		.timeless = !monotonic_samples(s->reader),
		.lines = s->opts->jit_lines,
		.file_stats = s->opts->jit_file_stats,
		.code_changed = code_changed,
		.exec_mmaps = exec_mmaps,
		.ctx = s,
	};
	const char *slash = strrchr(path, '/');
	struct jitmap *jm;

	if (!strcmp(path, "-"))
		jo.perf_data_dir = ".";
	else if (!slash)
		jo.perf_data_dir = ".";
	else
		jo.perf_data_dir = strpool__intern_len(s->pool, path, slash == path ? 1 : (size_t)(slash - path));
	jm = jitmap__new(&jo, s->pool);
	return jm;
}

static int session_start(struct session *s)
{
	if (choose_event(s))
		return -1;
	if (filter__setup(&s->opts->filter, s->reader, s->event, &s->times, &s->nr_times) ||
	    (s->opts->offcpu && !(s->offcpu = offcpu__new(s->reader, s->tracing, on_offcpu, s)))) {
		s->bad_filter = true;
		return -1;
	}
	s->offcpu_sym = strpool__intern(s->pool, OFFCPU_FRAME);
	/* on-CPU periods in ns are those of the clock events */
	if (s->opts->offcpu == OFFCPU_BOTH && s->event && !attr_is_clock(s->event))
		warning("'%s': the periods of '%s' are not nanoseconds: its on-CPU weights "
			"are not comparable with the off-CPU ones (record -e cpu-clock)",
			pd_reader__path(s->reader), s->event->name);
	s->filtering = s->opts->filter.nr_pids || s->opts->filter.nr_tids ||
		       s->opts->filter.nr_comms || s->nr_times || s->opts->filter.cpus;
	s->jitmap = new_jitmap(s, pd_reader__path(s->reader));
	s->resolver = resolver__new(&s->opts->resolve, s->machine, s->jitmap, s->pool,
				    pd_reader__info(s->reader));
	if (!s->opts->no_inline)
		s->expander = inline_expander__new(s->opts->resolve.demangle, MAX_FRAMES);
	tracing__set_resolver(s->tracing, s->resolver);
	if (s->hooks->start)
		s->hooks->start(s->hooks->ctx, s);
	/* the sample hook on a second thread; when none can be had, here */
	if (!s->aborted && s->opts->threads > 1 && s->opts->sample_anywhere)
		s->handoff = handoff__new(s->hooks->sample, s->hooks->ctx, s->expander);
	return 0;
}

const struct pd_reader *session__reader(const struct session *s)
{
	return s->reader;
}

void session__abort(const struct session *s)
{
	/* hooks get a const session; the flag is the one thing they may change */
	((struct session *)s)->aborted = true;
}

const struct jitmap *session__jitmap(const struct session *s)
{
	return s->jitmap;
}

const char *session__vmlinux_status(const struct session *s)
{
	return s->resolver ? resolver__vmlinux_status(s->resolver) : NULL;
}

/* "reading 'perf.data'" on a terminal, for recordings that take a while */
static struct progress *start_progress(const struct pd_reader *r)
{
	const char *path = pd_reader__path(r);
	char *what = xasprintf("reading '%s'", path);
	struct progress *p = progress__new(what, progress__input_size(path));

	free(what);
	return p;
}

static int run_records(struct session *s)
{
	struct order_queue *q = order_queue__new(deliver, s);
	struct progress *progress = s->opts->no_progress ? NULL : start_progress(s->reader);
	uint64_t nr_samples = 0, done = 0;
	struct pd_event ev;
	int ret;

	/* dwarf stacks stay in the mapped file, not copied (order.h) */
	order_queue__borrow_from(q, s->reader);
	while ((ret = pd_reader__next(s->reader, &ev)) > 0) {
		/* records inside COMPRESSED ones have offsets in the decompressed stream */
		if (!ev.in_compressed)
			done = ev.offset + ev.size;
		nr_samples += ev.type == PERF_RECORD_SAMPLE;
		progress__update(progress, done, nr_samples);
		if (!s->resolver && ev.type < PERF_RECORD_USER_TYPE_START &&
		    (session_start(s) || s->aborted)) {
			ret = -1;
			break;
		}
		if (s->resolver)
			order_queue__push(q, &ev);
	}
	order_queue__flush(q);
	deferred__flush(s->deferred);
	order_queue__delete(q);
	progress__delete(progress);
	if (!s->resolver && ret == 0)
		ret = session_start(s) || s->aborted ? -1 : 0;
	return ret < 0 ? -1 : 0;
}

/* The warnings for an output empty or partial (explain.h). */
static void session_explain(const struct session *s)
{
	struct explain_run run = { s->opts, s->reader, s->event, &s->tally };

	explain__silent_cases(&run);
}

int session__run(const char *path, const struct session_opts *opts,
		 const struct session_hooks *hooks)
{
	struct session s = { .opts = opts, .hooks = hooks };
	int ret;

	s.reader = pd_reader__open(path);
	if (!s.reader)
		return -1;
	s.pool = strpool__new();
	s.machine = machine__new(s.pool);
	s.deferred = deferred__new(on_joined, &s);
	s.tracing = tracing__new(s.reader);
	ret = run_records(&s);
	/* every sample reaches the hook before the warnings and the finish hook */
	handoff__delete(s.handoff);
	s.handoff = NULL;
	if (!ret && s.resolver && !s.aborted)
		session_explain(&s);
	if (!ret && s.resolver && !s.aborted)
		jitmap__report(s.jitmap);
	if (s.resolver && !s.aborted && s.hooks->finish)
		s.hooks->finish(s.hooks->ctx, &s);
	if (s.offcpu)
		offcpu__report(s.offcpu);
	offcpu__delete(s.offcpu);
	tracing__delete(s.tracing);
	deferred__report(s.deferred, pd_reader__path(s.reader));
	deferred__delete(s.deferred);
	user_stack__report(s.user_stack, pd_reader__path(s.reader));
	user_stack__delete(s.user_stack);
	free(s.user_ips);
	/* after the finish hook: the inlined frames' names are the expander's */
	inline_expander__delete(s.expander);
	resolver__delete(s.resolver);
	jitmap__delete(s.jitmap);
	mmap_scan__delete(s.scan);
	machine__delete(s.machine);
	strpool__delete(s.pool);
	pd_reader__delete(s.reader);
	free(s.own_frames.v);
	free(s.tally.read);
	free(s.tally.kept);
	free(s.times);
	return s.bad_filter ? SESSION_BAD_FILTER : ret;
}
