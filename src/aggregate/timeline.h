/*
 * timeline: samples in time order per thread, over shared tables of
 * functions, frames and stacks: what the timeline formats (the Firefox
 * Profiler's processed profile, speedscope's file format) are made of.
 *
 * Each sample's resolved frames (the session's, without its inlined
 * functions' frames: session_opts.no_inline) become one frame per source
 * level (srcline.h): a native frame in code the compiler inlined gives
 * its inlined functions' frames too, innermost deepest, as pprof's
 * locations do, each with its file and line; a JIT frame gets its
 * jitdump's line. A frame is a function at a line and inline depth, in
 * a category (frameclass.h: kernel, native, interpreted, baseline,
 * optimizing JIT, ...) and a subcategory (the runtime's tier name, or
 * "Other"); a function is a name, its file and its resource (the native
 * file, or the JIT side file, its code came from). A stack is a frame
 * and the stack it was called from, the root's prefix TL_NONE.
 * Functions, frames, stacks, resources and threads are numbered in the
 * order the samples first use them, so the tables are the same whoever
 * resolved the samples (--threads).
 *
 * Memory grows with the distinct functions, frames and stacks, not with
 * the samples: a thread's samples (20 bytes each: stack, time, weight)
 * are kept in memory up to TL_CHUNK of them, then written in chunks to a
 * temporary file (tmpfile(): unlinked at once, gone with the process),
 * read back by the writers chunk by chunk. Without a writable temporary
 * directory they stay in memory, with a warning.
 *
 * Lifecycle: timeline__new(), timeline__add() per sample (one thread at
 * a time), timeline__finish() once, the view read until
 * timeline__delete(). Strings in the view are the timeline's own.
 */
#ifndef JITSYM_TIMELINE_H
#define JITSYM_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "aggregate/frameclass.h"
#include "aggregate/stack-opts.h"
#include "resolve/sample.h"

#define TL_NONE UINT32_MAX
/* The category after frameclass's: off-CPU time (the profiler's "Idle") */
#define TL_CATEGORY_IDLE FC_NR_CATEGORIES
#define TL_NR_CATEGORIES (FC_NR_CATEGORIES + 1)

struct timeline_opts {
	struct stack_opts stack;        /* no_kernel; weight_period: weigh by period */
	/*
	 * --off-cpu, --on-off-cpu: which samples are off-CPU stacks (all, or
	 * those under an OFFCPU_FRAME leaf). They get an "[off-cpu]" leaf
	 * of TL_CATEGORY_IDLE, weigh the ns their thread was off the CPU
	 * (weight_period), and make an off-CPU marker from their time.
	 */
	enum offcpu_mode offcpu;
};

/* Where a function's code came from: a native file (a library), or a JIT side file. */
struct tl_resource {
	const char *name;               /* basename */
	const char *path;               /* the DSO's name, or the side file's path */
	const char *build_id;           /* hex; NULL: none known, or JIT */
	bool jit;
};

struct tl_func {
	const char *name;
	const char *file;               /* source file; NULL: none known */
	uint32_t resource;              /* TL_NONE: none */
	uint32_t category;      /* of its first frame: enum frame_category, or TL_CATEGORY_IDLE */
};

struct tl_frame {
	uint32_t func;
	bool gc;                        /* the runtime's GC (frameclass: runtime, tier "GC") */
	uint32_t line, column;          /* 0: unknown */
	uint32_t inline_depth;          /* 0: the real function; its inlined callees 1, 2, ... */
	uint32_t category;              /* enum frame_category, or TL_CATEGORY_IDLE */
	uint32_t subcategory;           /* index into the category's tiers; 0: "Other" */
};

struct tl_stack {
	uint32_t prefix;                /* the caller's stack; TL_NONE at the root */
	uint32_t frame;
};

/* A run of a thread's samples written to the timeline's spill file. */
struct tl_chunk {
	uint64_t off;                   /* n stacks (u32), then n times, then n weights (u64) */
	uint32_t n;
};

/*
 * A thread's samples, in the recording's order: the spilled chunks, then
 * the ones still in memory (read them with timeline__chunk()).
 */
struct tl_thread {
	uint32_t pid, tid;
	const char *comm;               /* its comm at its last sample (the timeline's copy) */
	const char *last_comm;          /* that sample's, the session's: compared only */
	size_t nr_samples;
	uint64_t first_time;            /* its first sample's */
	uint64_t total_weight;
	struct tl_chunk *chunks;
	size_t nr_chunks, alloc_chunks;
	uint32_t *stack;                /* [nr_buf] (TL_NONE: a sample without frames) */
	uint64_t *time;                 /* [nr_buf], ns */
	uint64_t *weight;               /* [nr_buf] */
	size_t nr_buf, alloc;
	/* GC markers: the thread's run of samples in GC, from gc_start; gc_last its last */
	bool in_gc;
	uint64_t gc_start, gc_last;
};

/* The tiers seen in one category: its subcategories, "Other" first. */
struct tl_subcategories {
	const char **names;
	size_t nr, alloc;
};

enum tl_marker_kind {
	TLM_USER,               /* a span of the program's own marker file (user-markers.h) */
	TLM_JIT_LOAD,           /* a timed load: JIT code made (a jitdump's) */
	TLM_JIT_MOVE,           /* JIT code moved */
	TLM_TIER_UP,            /* a function's first optimized code */
	TLM_EVENT,              /* a sample of --marker-event (a uprobe's hit, say): an instant */
	TLM_LOST,               /* PERF_RECORD_LOST: records the kernel dropped */
	TLM_LOST_SAMPLES,       /* PERF_RECORD_LOST_SAMPLES */
	TLM_THROTTLE,           /* the kernel throttled sampling */
	TLM_UNTHROTTLE,
	TLM_OFFCPU,             /* a thread off the CPU, from its switch-out for its period */
	TLM_GC,                 /* a thread's run of samples in the runtime's GC (an interval) */
	TLM_NR,
};

struct tl_marker {
	enum tl_marker_kind kind;
	uint32_t pid, tid;      /* tid 0: the process's (its main track) */
	uint64_t start, end;    /* ns; end == start: an instant */
	const char *name;       /* the function (loads, tier-ups), a span's name, the event's; else NULL */
	const char *tier;       /* loads, tier-ups: the runtime's tier name; else NULL */
	uint32_t category;      /* enum frame_category, or TL_CATEGORY_IDLE */
	uint64_t addr, size;    /* loads: the code; moves: where it went, its size */
	uint64_t old_addr;      /* moves: where it was */
	uint64_t count;         /* lost: how many */
	const char *source;     /* loads, moves, spans: the file that said so */
	const char *group;      /* spans: their file's tag (marker-PID-TAG.txt), one chart row */
	size_t seq;             /* the order made: ties keep it */
};

struct timeline_view {
	const struct tl_resource *resources;
	size_t nr_resources;
	const struct tl_func *funcs;
	size_t nr_funcs;
	const struct tl_frame *frames;
	size_t nr_frames;
	const struct tl_stack *stacks;
	size_t nr_stacks;
	/* sorted: pid, the process's main thread (tid == pid) first, tid, comm */
	const struct tl_thread *threads;
	size_t nr_threads;
	const struct tl_subcategories *subcategories;   /* [TL_NR_CATEGORIES] */
	uint64_t first_time, last_time;  /* ns, over every sample; 0, 0: none */
	uint64_t zero_time;     /* the earlier of the first sample and the first marker: time 0 */
	/* sorted by time, then kind; pid, tid as the samples' */
	const struct tl_marker *markers;
	size_t nr_markers;
	uint64_t nr_samples;
	bool weight_period;
	const char *event;              /* the first sample's event name, or NULL */
	bool event_is_clock;            /* its period is in ns */
	bool weight_ns;                 /* weights are ns: periods of a clock event, off-CPU time */
	struct timeline *owner;         /* for timeline__chunk()'s buffers */
};

struct timeline;

struct timeline *timeline__new(const struct timeline_opts *opts);   /* never NULL */
void timeline__delete(struct timeline *t);                         /* accepts NULL */
void timeline__add(struct timeline *t, const struct resolved_sample *rs);
struct pd_event;
struct jitmap;
struct marker_set;

/*
 * A record that is not a sample (the session's record hook), on the
 * session's thread: lost and throttle records and the samples of
 * --marker-event become markers, marker files mapped are remembered.
 * Touches nothing timeline__add() does.
 */
void timeline__record(struct timeline *t, const struct pd_event *ev);
/*
 * At the end, before timeline__finish(): the markers of the sampled
 * processes' JIT code loads and moves (jm's timed entries) and tier-ups,
 * and the spans of their marker files (user-markers.h): those in
 * data_dir (perf.data's) and dirs (--jit-dir), and those they mapped,
 * read where the recording says, else in data_dir.
 */
/*
 * The marker files (timeline/user-markers.h) the timeline of processes
 * pids reads from directories, read into ms: next to the recording
 * (data_dir), in dirs (--jit-dir), next to each one's jitdumps.
 * timeline__end() reads them so, and jitsym archive to pack them.
 */
void timeline__scan_marker_dirs(struct marker_set *ms, const struct jitmap *jm,
				const uint32_t *pids, size_t nr_pids, const char *data_dir,
				const char *const *dirs, size_t nr_dirs);
void timeline__end(struct timeline *t, const struct jitmap *jm, const char *data_dir,
		   const char *const *dirs, size_t nr_dirs);

/* Once, after the last sample; the view lives until timeline__delete(). */
const struct timeline_view *timeline__finish(struct timeline *t);

/*
 * The samples the timeline keeps in memory per thread before it spills
 * them (the environment's JITSYM_TEST_TIMELINE_CHUNK, for tests, instead).
 */
#ifndef TL_CHUNK
#define TL_CHUNK 4096
#endif

/*
 * Chunk c of th's samples (its spilled chunks, then those in memory), in
 * the recording's order: *n of them, in arrays valid until the next call;
 * false past the last. die() when the spill file cannot be read back.
 */
bool timeline__chunk(const struct timeline_view *v, const struct tl_thread *th, size_t c,
		     const uint32_t **stack, const uint64_t **time, const uint64_t **weight,
		     size_t *n);

/* The stack's frames, root first, into out[max]; how many (all of them when <= max). */
size_t timeline__stack_frames(const struct timeline_view *v, uint32_t stack, uint32_t *out,
			      size_t max);

#endif
