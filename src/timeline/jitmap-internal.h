/*
 * jitmap-internal: what the JIT timeline's files share. Not for use
 * outside src/timeline/jitmap*.c: everything else goes through jitmap.h
 * (and the loaders through jit-loader.h's jit_feed__*()).
 *
 *  jitmap.c           the timeline's life cycle, its processes (fork,
 *                     exec, a reused pid), what sources and the end of a
 *                     run read (jitmap__file(), jitmap__report())
 *  jitmap-timed.c     timed entries: the loads and moves a timed loader
 *                     feeds, applied as samples pass them (jitmap__advance())
 *  jitmap-fallback.c  untimed entries: read on the first fallback lookup,
 *                     timed where the recording allows (jitmap-clock.h),
 *                     held back where they repeat a timed load; the lookups
 *  jitmap-read.c      when a process's file is read (a marker mapped, a
 *                     given file, a fallback lookup) and the feed's life
 *  jitmap-whose.c     whose a file and its records are: pids, pid
 *                     namespaces, times (jitmap.h's rules)
 *  jit-locate.c       where a process's file may be (jit-locate.h)
 *
 * Everything here runs on the session's thread; nothing is locked.
 */
#ifndef JITSYM_JITMAP_INTERNAL_H
#define JITSYM_JITMAP_INTERNAL_H

#include "timeline/jitmap.h"
#include "timeline/jit-loader.h"
#include "timeline/jitmap-untimed.h"
#include "timeline/rangeset.h"

#include <uthash.h>

struct jit_block;
struct jit_locator;
struct jit_search;
struct untimed_clock;

enum jit_event_kind { JIT_EV_LOAD, JIT_EV_MOVE };

/* What a MOVE record says, owned by the timeline (jitmap__alloc()). */
struct jit_move_event {
	uint64_t old_addr, new_addr, size;
	uint64_t code_index;
	const char *source;                   /* the file that said so */
	const struct jit_loader *loader;
};

/*
 * A timed entry queued for its process: 32 bytes, since a node jitdump
 * queues one per load (~60,000), grown by realloc as they are read.
 */
struct jit_event {
	uint64_t time, seq;
	union {
		struct jit_sym *sym;                  /* LOAD */
		const struct jit_move_event *move;    /* MOVE */
	};
	enum jit_event_kind kind;
};

/*
 * One copy of identical unwinding rules: key is the eh_frame_off, sizes
 * and bytes, which u points into.
 */
struct unwind_copy {
	struct jit_unwind u;
	uint8_t *key;
	size_t key_len;
	UT_hash_handle hh;
};

/* A pid namespace seen in PERF_RECORD_NAMESPACES; key: dev, ino. */
struct pidns {
	uint64_t key[2];
	uint32_t first_pid;                   /* the first process seen in it */
	UT_hash_handle hh;
};

/* When a pid's process image began: its latest fork or exec seen; key: pid. */
struct birth {
	uint32_t pid;
	uint64_t time;
	bool exec;                            /* an exec, else a fork */
	UT_hash_handle hh;
};

/* A process's file of one format. */
struct jit_source {
	struct jit_file_info info;
	bool looked;                          /* looked for (and read if found) in this image */
};

struct jitproc {
	uint32_t pid;
	uint32_t ppid;                        /* 0: none known */
	uint64_t epoch;                       /* timed entries before this (an exec) are the old image's */
	struct jit_event *events;             /* sorted by time from next on */
	size_t nr_events, next, alloc_events;
	struct rangeset code;                 /* timed code now; data: struct jit_sym */
	struct untimed untimed;               /* untimed entries, indexed */
	struct untimed_clock *clock;          /* their times, when the recording gives them */
	struct jit_source *files;             /* one per loader, as in jit_loaders[] */
	struct jit_ns_info ns;                /* its pid namespace, as far as known */
	bool nspid_from_file;                 /* ns.nspid is its writer's own (beats a guess) */
	const struct pidns *pidns;            /* from PERF_RECORD_NAMESPACES; NULL: none */
	/* made for another process's file's records (shared after a fork): a later fork keeps them */
	bool adopted;
	bool cut;                             /* a timed file of it stopped early */
	UT_hash_handle hh;
};

struct jitmap {
	struct jitmap_opts opts;              /* its directories and given files: in loc */
	struct strpool *pool;
	struct jitproc *procs;
	size_t nr_loaders;
	struct jit_sym **syms;                /* every function, timed or not (in blocks) */
	size_t nr_syms, alloc_syms;
	/*
	 * Timed syms by (code_index, start), the last made winning; open
	 * addressing, size a power of two. Built on the first move that needs it.
	 */
	struct jit_sym **by_index;
	size_t by_index_size, by_index_nr;
	struct jit_line **line_arrays;
	size_t nr_line_arrays, alloc_line_arrays;
	struct jit_calls **calls;             /* every load's, owned (moves share them) */
	size_t nr_calls, alloc_calls;
	struct jit_code_file *code_files;     /* files loads' code is read from again, a list */
	struct jit_code_file *open_code_file; /* the one of them open; NULL: none */
	struct unwind_copy *unwinds;          /* every jit_feed__unwind() copy, by contents */
	struct pidns *pidns;                  /* every pid namespace seen */
	struct birth *births;                 /* every pid's latest fork or exec (with a time) */
	const struct pidns *recorder_ns;      /* the first one seen */
	struct jit_locator *loc;              /* where files are; holds opts' dirs and given files */
	struct jit_block *blocks;             /* jitmap__alloc()'s, the one being filled first */
	uint64_t seq;
	uint64_t now;                         /* the latest jitmap__advance() time */
	struct jitproc *last;                 /* the last process looked up (never freed before the end) */
};

/* What a loader's read() feeds: one file of one process. */
struct jit_feed {
	struct jitmap *jm;
	struct jitproc *p;
	const struct jit_loader *loader;
	const char *path;                     /* interned */
	struct jit_file_info *info;
	uint32_t ns_pid;                      /* the writer's namespace pid, if not P (jitmap.h); or 0 */
	uint64_t marker_time;                 /* when P mapped the file; 0: not known */
	uint32_t marker_pid;                  /* the pid in the name of the file P mapped; 0: none */
	bool given;                           /* the user gave the file */
	char *refused;                        /* why it is not P's (jitmap.h); NULL: no reason */
	bool drop;                            /* refused and not given: its records are not used */
	uint64_t nr_own;                      /* records that are P's */
	uint64_t last_own;                    /* the latest time of those */
	/* the processes records went to, and how many events each had before */
	struct touched { struct jitproc *p; size_t nr_events; } *touched;
	size_t nr_touched, alloc_touched;
	struct jit_code_file *code_file;      /* path's, once a load asked (NULL: not regular) */
	bool code_file_tried;
};

/*
 * A file loads' code bytes are read from again when a frame needs them
 * (jitmap__call_ends_at()): identified when it is fed (it must be the
 * same file, device and inode, when read again), read with pread() into
 * buf, not mapped (a recording's samples land in code all over a large
 * jitdump: mapped pages would stay resident). One file at a time is kept
 * open (jitmap's open_code_file); jitmap__delete() closes it.
 */
struct jit_code_file {
	struct jit_code_file *next;
	struct jitmap *jm;
	const char *path;                     /* interned */
	uint64_t dev, ino;
	int fd;                               /* -1: not open */
	bool gone;                            /* no longer the file fed: no bytes */
	bool warned;                          /* said that it changed (jitmap__call_ends_at()) */
	struct jit_file_info *info;           /* the process's file info, for sources' count */
	uint8_t *buf;
	size_t alloc;
};

/*
 * Where calls end in one load's code: the set, or where to read the code
 * to make it. The code's first and last bytes, kept when it was fed,
 * must be what is read again (a file rewritten in place keeps its inode).
 */
struct jit_calls {
	struct callsite_set *set;             /* NULL until made */
	struct jit_code_file *file;           /* with off: where the code is */
	uint64_t off, size;
	uint8_t head[8], tail[8];             /* the first and last min(8, size) bytes */
	bool unknown;                         /* the code could not be read again */
};

/* The marker p mapped, when (0: none), and the pid its name gives (0: none). */
struct marker {
	uint64_t time;
	uint32_t pid;
};

/* ---- jitmap.c: processes ---- */

/*
 * size bytes of zeroed memory, 8-aligned, that live until jitmap__delete():
 * the timeline's syms, call sets and moves, carved from blocks (a node
 * jitdump makes ~60,000 of each; one malloc apiece cost more than using them).
 */
void *jitmap__alloc(struct jitmap *jm, size_t size);
/* pid's process, or NULL. */
struct jitproc *jitmap__find_proc(const struct jitmap *jm, uint32_t pid);
/* The same for the calls made per sample and per frame (remembers the last one). */
struct jitproc *jitmap__find_proc_fast(struct jitmap *jm, uint32_t pid);
/* pid's process, made empty when there is none. */
struct jitproc *jitmap__findnew_proc(struct jitmap *jm, uint32_t pid);
/* l's index in jit_loaders[] (and in a process's files); BUG() when it is none. */
size_t jitmap__loader_index(const struct jitmap *jm, const struct jit_loader *l);

/* ---- jitmap-timed.c: timed entries ---- */

/* A new, zeroed sym owned by jm. */
struct jit_sym *jitmap__new_sym(struct jitmap *jm);
/* Sort every process's events not applied yet by time (after a file is read). */
void jitmap__sort_pending(struct jitmap *jm);
/*
 * untimed_clock__advance()'s callback: ctx a struct clock_ctx, or NULL
 * while a map is first read (nothing cached yet).
 */
void jitmap__clock_changed(void *ctx, uint64_t start, uint64_t size);

/* ---- jitmap-fallback.c: untimed entries ---- */

/* Hold back p's untimed lines that repeat one of its timed loads' ranges (jitmap.h). */
void jitmap__mark_repeats(struct jitmap *jm, struct jitproc *p);

/* ---- jitmap-read.c: reading a process's files ---- */

/*
 * Read p's file of format l from the first readable candidate of c (its
 * what names it in the warning when there is none); mk: the marker p
 * mapped, if any. Frees c's paths.
 */
void jitmap__read_file(struct jitmap *jm, struct jitproc *p, const struct jit_loader *l,
		       struct jit_search *c, struct marker mk);
/* pid's given timed files not read yet: a process need not map a marker for them. */
void jitmap__read_given_timed(struct jitmap *jm, uint32_t pid);

/* ---- jitmap-whose.c: whose a file and its records are ---- */

/*
 * The process whose record pid (r) it is, by the rule in jitmap.h; NULL
 * for another process of the writer's pid namespace (counted), or when
 * f's file is not used.
 */
struct jitproc *jit_feed__record_proc(struct jit_feed *f, uint32_t r);
/* A record at time for process p: the file's last one so far. */
void jit_feed__note_record(struct jit_feed *f, const struct jitproc *p, uint64_t time);
/*
 * After reading: whether f's file is its process's (jitmap.h); if not,
 * one line says why and, unless the user gave it, it is not used.
 */
void jit_feed__judge(struct jit_feed *f);
/* "12.000150": a time on the samples' clock as perf script prints it (s, to the microsecond). */
const char *jitmap__fmt_time(char *buf, size_t size, uint64_t ns);

#endif
