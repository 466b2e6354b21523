/*
 * sample: what the session hands a command for each kept sample, the
 * resolved frames of its call chain leaf first, and what a frame says
 * about the code it is in. The contract between the resolver and the
 * writers: a writer reads these types (and srcline.h, by frame) and
 * nothing the resolver resolves from. Includes nothing above common/.
 */
#ifndef JITSYM_SAMPLE_H
#define JITSYM_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jit_sym;
struct pd_event;
struct pd_sample;
struct thread;
struct unwind_result;

/* What --off-cpu and --on-off-cpu ask of the session. */
enum offcpu_mode {
	OFFCPU_NONE,
	OFFCPU_ONLY,     /* off-CPU stacks alone */
	OFFCPU_BOTH,     /* on-CPU samples too; off-CPU stacks get a leaf frame OFFCPU_FRAME */
};

/* The leaf frame marking off-CPU stacks with --on-off-cpu. */
#define OFFCPU_FRAME "[off-cpu]"

/* Longest build id a view holds (DSO_BUILD_ID_MAX, dso.h). */
#define OBJ_BUILD_ID_MAX 32

/*
 * A file as the writers see it (a mapped file, the kernel or a module):
 * filled once by the resolver, on its thread, when it first resolves a
 * frame in the file (its symbols are loaded then), and never changed
 * after, so a hook on any thread may read it. Lives, with its strings, as
 * long as the session's strings. Frames without a file (JIT code, no
 * mapping) have none.
 */
struct obj_view {
	const char *path;          /* as the MMAP record named it, interned */
	/*
	 * The files read: the binary, and the one the symbols came from (a
	 * debug file, or the binary; DWARF is tried there, then in the binary).
	 * NULL when no binary was usable or it has no file (the running
	 * kernel's vdso read from memory).
	 */
	const char *file, *symfile;
	/*
	 * The file's build id, by the one rule (resolve.c, for every writer):
	 * the MMAP2 record's, else the recording header's for its path (of
	 * cpumode kernel for the kernel's and its modules'), else the one read
	 * from the file; the header's as it is when the file is first met (in
	 * pipe mode its records come as the recording goes). NULL (and size 0)
	 * when none has one.
	 */
	const uint8_t *build_id;
	size_t build_id_size;
};

/* The DSO perf script prints for core kernel frames (kernel.h's KSYM_DSO_KERNEL is this). */
#define SAMPLE_DSO_KERNEL "[kernel.kallsyms]"

/*
 * The MMAP record a frame's ip was in (the kernel's or a module's for
 * kernel frames), as the resolver saw it: copied by value, so it says
 * what the record said whatever mmaps came after.
 */
struct frame_map {
	bool present;         /* ip was in one; else the rest is 0 */
	bool anon;            /* its name is an anonymous mapping's (machine.h's map.anon) */
	uint64_t start, len, pgoff;   /* the record's range and file offset */
};

enum frame_kind {
	FRAME_UNKNOWN,      /* no mapping, or a mapping without symbols */
	FRAME_KERNEL,
	FRAME_NATIVE,       /* ELF */
	FRAME_JIT,          /* from a jitdump */
	FRAME_PERFMAP,      /* from a perf map */
};

/*
 * How long a resolved frame lives. The frames a session hands to a sample
 * hook (struct resolved_sample) are its scratch array: valid only during
 * that call; copy the struct frame to keep it. What its pointers point to
 * lives longer:
 *  - sym, dso (and a JIT function's name, source and file names): interned
 *    in the session's strpool, valid until session__run() returns (the
 *    finish hook still sees them; after it they are gone);
 *  - obj: owned by the resolver's DSO cache, valid until session__run()
 *    returns, like the strings;
 *  - jit, FRAME_JIT (jitdump): jitmap keeps every function it made until
 *    the session ends, also after the runtime replaced or moved its code,
 *    so the pointer (and its lines) stays valid to the end of the session,
 *    while only the frames resolved since say which code is there now;
 *  - jit, FRAME_PERFMAP (perf map): jitmap keeps it to the end of the
 *    session too (jitmap.h), also after the process whose perf map held
 *    it (the sampled one, or for a forked child its parent) execs or its
 *    pid is reused, when that process's perf map is read again into new
 *    ones. Its name and source are interned and live for the session.
 */
/* struct frame's inline_mode. */
enum frame_inline {
	FRAME_INLINE_NO,        /* none (the sample's own ip, JIT code, an inlined frame) */
	FRAME_INLINE_CHAIN,     /* a call chain's address: the inlined functions added */
	FRAME_INLINE_UNWOUND,   /* unwound from a stack dump: added, the real frame renamed */
};

struct frame {
	const char *sym;      /* interned; NULL when unresolved */
	const struct jit_sym *jit;  /* FRAME_JIT, FRAME_PERFMAP: the function */
	const struct obj_view *obj;   /* the file ip is in (FRAME_NATIVE: its symbol's), or NULL */
	uint64_t elf_addr;    /* FRAME_NATIVE: the address in obj's symbol space
	                         (ip, or ip - 1 when at_call: the call site) */
	const char *dso;      /* interned; "[unknown]" when no mapping */
	uint64_t symoff;      /* offset into sym, when sym */
	uint64_t print_addr;  /* the address perf script prints */
	uint64_t ip;          /* the address as sampled (a return address for callers) */
	bool at_call;         /* a caller looked up at ip - 1, its call */
	/*
	 * A function the compiler inlined at this address (inline.h): sym
	 * names it; the real function is the next frame that is not inlined,
	 * whose ip, dso, object and offset this frame shares.
	 */
	bool inlined;
	/*
	 * The session's, not the hooks': whether this address is to get its
	 * inlined functions' frames (session/inline-expand.h) before a hook
	 * sees it. A hook must not read it.
	 */
	uint8_t inline_mode;    /* enum frame_inline */
	enum frame_kind kind;
	struct frame_map map;  /* the MMAP record ip was in, if any */
	/* FRAME_JIT, FRAME_PERFMAP: the function's code, [code_start, code_start + code_size) */
	uint64_t code_start, code_size;
};

/* What became of a sample's deferred user call chain. */
enum deferred_join {
	DEFERRED_NONE,      /* the sample did not defer its user part */
	DEFERRED_JOINED,    /* joined to its CALLCHAIN_DEFERRED record */
	DEFERRED_MISSING,   /* the record never came: kernel part only */
};

/*
 * What a writer reads of an event (a perf_event_attr of the recording),
 * by value. name lives as long as the session.
 */
struct sample_event {
	const char *name;           /* NULL: the sample's attr is not known */
	unsigned int index;         /* the attr's position in the recording's list */
	uint32_t type;              /* PERF_TYPE_* */
	uint64_t config;
	uint64_t sample_type;       /* PERF_SAMPLE_* bits */
	bool is_clock;              /* cpu-clock or task-clock: its period is in ns */
};

/*
 * What a writer reads of a sample itself, copied by value from the
 * recorded sample on the session's thread.
 */
struct sample_facts {
	uint64_t ip;                /* the sampled address */
	uint64_t time;              /* with has_time */
	uint64_t period;
	uint32_t pid, tid, cpu;
	bool has_time;              /* the event's sample_type has PERF_SAMPLE_TIME */
	bool has_callchain;         /* the event samples call chains (PERF_SAMPLE_CALLCHAIN) */
	struct sample_event event;
};

struct resolved_sample {
	struct sample_facts facts;    /* what a writer reads of the sample */
	/*
	 * The recorded sample and its thread, for the stages that may read
	 * them (aggregate/, the commands); a writer reads facts and comm.
	 */
	const struct pd_event *ev;
	const struct pd_sample *sample;
	struct thread *thread;
	/*
	 * The session's thread as a number, equal for the samples of one
	 * struct thread (where thread, handed off, is a copy): for state kept
	 * by thread. Only compared, never followed.
	 */
	uintptr_t thread_id;
	const struct frame *frames;   /* leaf first */
	size_t nr_frames;
	/* the user part was unwound from a stack dump (--call-graph dwarf): how; else NULL */
	const struct unwind_result *unwind;
	/* its user part was deferred (deferred.h): joined, or never came */
	enum deferred_join deferred;

	/* ---- what a writer prints of the thread and of a tracepoint ---- */
	/* the thread's comm as of the sample (interned: lives as long as the session) */
	const char *comm;
	/* with session_opts.trace_fields, for a tracepoint's sample: its fields; else NULL */
	const struct sample_trace *trace;
};

/* The recording's tracing data as the session parsed it, once (tracing.h). */
struct trace_parse {
	bool present;               /* the recording has tracing data */
	uint64_t size;              /* of it, in bytes */
	const char *error;          /* why it could not be parsed, or NULL */
	size_t error_off;           /* where, with error */
	size_t nr_events, nr_bad_formats;   /* formats parsed, and rejected */
};

/* What came of formatting a tracepoint sample's fields. */
enum sample_trace_fmt {
	SAMPLE_TRACE_OK,            /* text holds them */
	SAMPLE_TRACE_NONE,          /* no parse (see parse), or the sample has no payload */
	SAMPLE_TRACE_NO_EVENT,      /* no format for its tracepoint id */
	SAMPLE_TRACE_MISMATCH,      /* its payload is another tracepoint's */
	SAMPLE_TRACE_TOO_BIG,       /* payload or format past what is bounded */
};

/* A tracepoint sample's fields, as perf script prints them after the event name. */
struct sample_trace {
	const struct trace_parse *parse;
	enum sample_trace_fmt fmt;
	const char *text;           /* with SAMPLE_TRACE_OK: len bytes, NUL-terminated */
	size_t len;
};

#endif
