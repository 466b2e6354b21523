/*
 * session: the pipeline every command shares. It reads a recording,
 * orders its records by time, keeps the machine state (threads, address
 * spaces) current, filters samples and hands each kept sample to the
 * command with its call chain resolved into frames, leaf first.
 */
#ifndef JITSYM_SESSION_H
#define JITSYM_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "session/deferred.h"
#include "session/filter.h"
#include "session/offcpu.h"
#include "reader/perfdata.h"
#include "resolve/resolve.h"
#include "resolve/sample.h"

struct thread;
struct unwind_result;
struct jit_given;

/* Sample filters; empty lists keep everything. */
struct sample_filter {
	uint32_t *pids, *tids;
	size_t nr_pids, nr_tids;
	const char **comms;
	size_t nr_comms;
	const char *event;          /* event name, or NULL for all */
	bool first_event_only;      /* no --event: only the first event (fold) */
	const char *time;           /* --time as given (filter.h; parsed once the header is known) */
	const char *cpu_list;       /* --cpu as given, for messages */
	uint64_t *cpus;             /* --cpu: a bitmap of FILTER_MAX_CPUS bits, or NULL */
};

struct session_opts {
	struct resolve_opts resolve;
	struct sample_filter filter;
	const char **jit_dirs;        /* --jit-dir, in order */
	size_t nr_jit_dirs;
	const char **perfmap_dirs;    /* --perfmap-dir, in order */
	size_t nr_perfmap_dirs;
	struct jit_given *given;      /* --perfmap PID=FILE, --jitdump PID=FILE, in order */
	size_t nr_given;
	bool jit_lines;               /* the command prints JIT source lines */
	bool jit_file_stats;          /* the command prints what JIT side files held (sources) */
	/* the command writes whole stacks: warn when an event it used has no call chains */
	bool stacks;
	/*
	 * Threads the run may use (--threads): with more than one and
	 * sample_anywhere, the sample hook runs on a second thread, fed in
	 * batches (handoff.h says what it may read there); 0 or 1: one thread.
	 */
	unsigned int threads;
	bool sample_anywhere;         /* the hook reads only its resolved_sample */
	bool no_progress;             /* no progress line (several recordings read at once) */
	/*
	 * --off-cpu, --on-off-cpu (offcpu.h): the hook gets each switch-out
	 * stack as a sample whose period is the ns the thread was off the CPU
	 * (with OFFCPU_BOTH, under a leaf frame OFFCPU_FRAME, and the on-CPU
	 * samples of the event chosen, which is then the first event that is no
	 * switch source); the filters apply to it as to a sample at its
	 * switch-out time. A recording without switches is SESSION_BAD_FILTER.
	 */
	enum offcpu_mode offcpu;
	/* the command prints tracepoint fields: give tracepoint samples rs->trace */
	bool trace_fields;
	/*
	 * --no-inline, or a command that shows inlining its own way (report,
	 * pprof: by source lines): no frames for inlined functions (inline.h)
	 */
	bool no_inline;
	/*
	 * --marker-event NAME: the samples of that event (a perf probe uprobe
	 * on a function of the program, say) are marks, not samples: they go
	 * to the record hook, never to the sample hook or the tallies, and
	 * the event is not the first event chosen by default. An event of
	 * no such name is an error (EXIT_USAGE), as --event's.
	 */
	const char *marker_event;
};

struct session;

/*
 * What a command does with a recording; start and finish may be NULL.
 * All run on the thread that called session__run(), but for sample with
 * opts->threads > 1 and opts->sample_anywhere: then it runs on a second
 * thread, on each sample in order, and on what handoff.h says it may read.
 */
struct session_hooks {
	/* Once the header is known (in pipe mode: its records read), before any sample. */
	void (*start)(void *ctx, const struct session *s);
	void (*sample)(void *ctx, const struct resolved_sample *rs);
	/* After the last sample, with the session's state still there. */
	void (*finish)(void *ctx, const struct session *s);
	/*
	 * Each record that is not a sample (MMAP, COMM, LOST, THROTTLE, ...),
	 * and each sample of opts.marker_event, in time order with the
	 * samples, once the session has applied it; NULL: none. Always on the session's thread, also when the sample
	 * hook runs on another (handoff.h): what it keeps must be kept apart
	 * from what the sample hook touches until finish.
	 */
	void (*record)(void *ctx, const struct pd_event *ev);
	void *ctx;
};

const struct pd_reader *session__reader(const struct session *s);
/* What a writer reads of attr a (sample.h), into *ev; all zero (name NULL) when a is NULL. */
void session__sample_event(const struct pd_attr *a, struct sample_event *ev);
/*
 * From the start hook: read no further (a command that cannot go on, e.g.
 * options the recording cannot satisfy; it has printed why). session__run()
 * then returns -1.
 */
void session__abort(const struct session *s);
const struct jitmap *session__jitmap(const struct session *s);
/* With --vmlinux, a line saying whether it was used and why (vmlinux.h); else NULL. */
const char *session__vmlinux_status(const struct session *s);

/*
 * Run the whole recording through the hooks. Returns 0, or -1 when the
 * input could not be opened or was damaged (an error has been printed;
 * the samples before the damage have been delivered), or
 * SESSION_BAD_FILTER when a filter asks for what the recording lacks
 * (--time in percent without HEADER_SAMPLE_TIME, --time or --cpu on an
 * event recorded without sample times or CPUs; an error has been printed,
 * no sample delivered). A recording read
 * fine whose output is empty or partial gets one warning line each, and
 * still returns 0: no samples at all, a filter that matched no sample,
 * other events left out by first_event_only, and (with stacks) events
 * recorded without call chains.
 */
#define SESSION_BAD_FILTER (-2)
int session__run(const char *path, const struct session_opts *opts,
		 const struct session_hooks *hooks);

#endif
