/*
 * jitmap: the JIT timeline. Per process (thread group), which JIT-compiled
 * function covered an address at a time, from whatever side files the
 * loaders (jit-loader.h) read; this module knows no file format.
 *
 * Timed entries (loads and moves, e.g. a jitdump's) are sorted by time and
 * applied to the process's current JIT code as its samples move past them
 * (jitmap__advance()): a load replaces whatever code it covers (a later
 * load over the same bytes ends the earlier function), a move ends the old
 * range and starts the new one. Since samples are resolved in time order,
 * "the code at ip now" is "the entry that covered ip at the sample's time".
 * A timed loader's file is read when the process maps its marker.
 * Mappings are not consulted at all: an anonymous or memfd MMAP2 over
 * coalesced JIT code says only that memory is mapped, so it can never
 * erase a JIT symbol.
 *
 * Untimed entries (ranges, e.g. a perf map's) are read on the process's
 * first fallback lookup and answer for addresses no timed entry covers.
 * Where they overlap, the later one wins for the whole recording, unless
 * the process's exec mmaps over the whole recording (opts->exec_mmaps)
 * pair one to one with them: then each line takes its mmap's time and is
 * applied as samples pass it, like a timed load but still after ELF
 * symbols (jitmap-clock.h states the rule; sources gets it in
 * jit_file_info.rule). A forked child's fallback into its parent's
 * entries uses the parent's later-wins index.
 * Each process is decided on its own: timed only, untimed only, both, or
 * neither.
 *
 * fork: the child starts with its parent's timed code as of the fork and
 * adds its own files; exec starts empty, and so does a new process that
 * reuses a pid. A forked child's fallback looks in its parent's untimed
 * entries after its own (they have no times, so they may also hold what
 * the parent compiled after the fork).
 *
 * Pid namespaces (containers): a process's files may carry the pid it had
 * in its own pid namespace, not the host pid the recording shows. The
 * file found through a process's marker mapping is that process's, and so
 * are the records in it, by this rule (H the pid the file's writer gave
 * itself, e.g. a jitdump header's; R a record's pid; P the host pid of the
 * process that mapped the marker):
 *  - R is 0 or P: P's.
 *  - H is neither 0 nor P, and H is not a host process tied to this file
 *    (one that mapped and read the same file itself, as a parent whose
 *    child inherited it): H is P's namespace pid. Then R == H is
 *    P's, and any other R is another process of that namespace, whose host
 *    pid the recording does not say: not used, counted for sources.
 *  - Otherwise R is a host pid: that process's (a child writing into a
 *    file it inherited from its parent); the fork that starts it later
 *    keeps them.
 * A file is the process's (P; M the time P mapped the file, E the time
 * of P's latest fork or exec, each where the recording gives one; H, R as
 * above), and used, only when:
 *  - H is the pid the name of the file P mapped gives (jit-H.dump): a
 *    runtime names its file after the pid it writes in the header, so a
 *    file under that name saying another pid is a copy of another's;
 *  - H other than P (a namespace pid) is allowed by what the recording
 *    says of P's namespace: not when NAMESPACES puts P in perf's own pid
 *    namespace, nor when it gave P another pid there (the first of a new
 *    namespace is 1); without NAMESPACES records nothing is known and H
 *    is taken, as above;
 *  - with times on the samples' clock, P's records (R is P's by the rule
 *    above) do not all end before max(M, E): a runtime maps its file,
 *    then writes. Synthesized records (perf record -p, -a) have no time
 *    and bound nothing. The header's own timestamp is no test (V8, perf's
 *    jvmti agent and QEMU take it after mapping the file).
 * A file that fails is named in one warning, with why and the fix, and
 * counted in sources (jit_file_info.refused); its records are taken back
 * from every process they went to, and P learns no namespace pid from it,
 * so no perf map is looked for through it. A file the user gave
 * (--jitdump PID=FILE) that fails is used with the warning, its records
 * P's, but its pid is still not taken for P's namespace pid. Records after
 * P's end are not tested (the file is read when P maps it, before).
 *
 * An untimed line for exactly the range [start, start + size) of one of
 * P's timed loads repeats that load without its time: it is not used
 * before the first such load (it answers nothing, as if absent), and at
 * any time after. Lines no timed load repeats (a perf map alone, as a JVM
 * writes at exit, or stubs only the perf map has) are used as ever.
 *
 * A timed file that stops early (jit_file_info.problem) keeps the time of
 * its last whole record; P's samples after it are counted, said in one
 * warning at the end (jitmap__report()) and in sources.
 *
 * A perf-map-like file is looked for by the host pid first, then by the
 * namespace pid where one is known: the writer's own (from a timed file),
 * else 1 when PERF_RECORD_NAMESPACES shows the process is the first of a
 * pid namespace other than its parent's (a container's init). Names by
 * the namespace pid are looked for next to perf.data, in the user's
 * directories, then in the runtime's directory (a container may have had
 * its own /tmp). Files given by the user for a host pid (jit_given) are
 * taken instead of any search.
 *
 * The code is in src/timeline/jitmap*.c, split by concern
 * (jitmap-internal.h lists the files); where files are looked for is
 * jit-locate.h's.
 */
#ifndef JITSYM_JITMAP_H
#define JITSYM_JITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strpool;
struct jitmap;
struct jit_loader;
struct jit_file_info;
struct jit_calls;

/* A source line of JIT code (a jitdump's JIT_CODE_DEBUG_INFO). */
struct jit_line {
	uint64_t addr;          /* of the first instruction of the line */
	uint32_t line;
	uint32_t column;        /* 0 when unknown */
	const char *file;       /* interned */
};

/*
 * Unwinding rules a runtime wrote for a function's code (a jitdump's
 * JIT_CODE_UNWINDING_INFO): an .eh_frame and its .eh_frame_hdr, laid out
 * in the runtime's memory eh_frame_off bytes past the code's start, the
 * header right after the .eh_frame. Owned by the timeline, which keeps one
 * copy of identical ones (the same bytes at the same offset mean the same
 * rules for the code relative to its start), so a pointer stands for its
 * rules; it lives as long as the timeline.
 */
struct jit_unwind {
	const uint8_t *eh_frame;
	size_t eh_frame_size;
	const uint8_t *hdr;     /* NULL when hdr_size is 0 */
	size_t hdr_size;
	uint64_t eh_frame_off;
};

/*
 * A JIT-compiled function as loaded (or moved) by the runtime. Every one
 * the timeline hands out lives, unchanged, until jitmap__delete(): also
 * those of untimed entries that an exec or a reused pid made it forget, so
 * a frame resolved before (which a sample hook on another thread may still
 * be reading, handoff.h) stays valid.
 */
struct jit_sym {
	uint64_t start, size;
	/*
	 * Exactly as the runtime wrote it; interned in every sym handed out.
	 * A timed load's is the timeline's copy until jitmap__find() first
	 * finds it (name_pending): a node jitdump has ~60,000 names, few of
	 * which a sample ever lands in, and interning each was a cache miss.
	 */
	const char *name;
	const char *source;     /* the file it came from, interned */
	const struct jit_loader *loader;   /* which format; its kind says timed or not */
	uint64_t load_time;     /* 0 for untimed entries */
	uint64_t code_index;
	const struct jit_line *lines;  /* sorted by addr; NULL when none */
	size_t nr_lines;
	const struct jit_unwind *unwind;   /* its unwinding rules; NULL when none */
	/* where calls end in its code: jitmap__call_ends_at(); NULL when its bytes were not given */
	struct jit_calls *calls;
	bool name_pending;      /* name is not interned yet (never so once handed out) */
};

/*
 * Whether a call ends at offset off of js's code (callsite.h: is a caller
 * in it looked up at ip - 1); true when its bytes were not given. A
 * jitdump's code is read again from the file, and the answers for the
 * load made, the first time one of its frames asks (a recording's
 * samples touch few of the loads), so this runs on the thread that
 * resolves frames only.
 */
bool jitmap__call_ends_at(const struct jit_sym *js, uint64_t off);

/*
 * A process's anonymous executable mapping: an MMAP or MMAP2 of "//anon"
 * (or "[anon:NAME]") with PROT_EXEC, as the kernel reports one for mmap
 * and for an mprotect that makes memory executable.
 */
struct jit_exec_mmap {
	uint64_t time, start, len;
};

/* A process image's exec mmaps, in time order (opts->exec_mmaps). */
struct jit_exec_mmaps {
	const struct jit_exec_mmap *v;
	size_t nr;
	const char *unknown;    /* non-NULL: they cannot be known, and why ("pipe input") */
};

/* A file the user gave for a process (--perfmap PID=FILE, --jitdump PID=FILE). */
struct jit_given {
	uint32_t pid;            /* the host pid, as the recording shows it */
	const char *loader;      /* a jit_loader's name: "jitdump", "perfmap" */
	const char *path;
};

/* What is known of a process's pid namespace, for "jitsym sources". */
struct jit_ns_info {
	uint32_t nspid;          /* its pid in its own namespace; 0: not known */
	const char *why;         /* how nspid was learnt, e.g. "from jit-1.dump's header" */
	/* PERF_RECORD_NAMESPACES put it in another pid namespace than the recorder's */
	bool other_ns;
};

struct jitmap_opts {
	const char *perf_data_dir;            /* directory of the perf.data */
	const char *const *jit_dirs;          /* --jit-dir, in order */
	size_t nr_jit_dirs;
	const char *const *perfmap_dirs;      /* --perfmap-dir, in order */
	size_t nr_perfmap_dirs;
	/*
	 * The samples have no CLOCK_MONOTONIC time (not recorded with -k 1,
	 * or without sample times), so timed entries cannot be compared with
	 * them: apply every one at once (the last load at an address wins).
	 */
	bool timeless;
	/*
	 * Keep line tables (struct jit_sym's lines). Without it the loaders
	 * still read and count the records that hold them (their entries'
	 * bad file names only with file_stats) but every sym has no lines.
	 */
	bool lines;
	/*
	 * Count all that the loaders drop from a file (jit_file_info.count,
	 * which sources prints). Without it and without lines, a line table's
	 * file names are not looked at (a node jitdump has ~500,000), so the
	 * count of those dropped stays 0.
	 */
	bool file_stats;
	const struct jit_given *given;        /* files given by the user; copied */
	size_t nr_given;
	/*
	 * Called when pid's JIT code in [start, end) changes (a load or a
	 * move applied), so caches of resolved addresses can drop just those.
	 */
	void (*code_changed)(void *ctx, uint32_t pid, uint64_t start, uint64_t end);
	/*
	 * The exec mmaps of pid's image that is live at time at, over the
	 * whole recording (including those after at): what times perf-map
	 * lines (jitmap-clock.h). NULL: never known.
	 */
	struct jit_exec_mmaps (*exec_mmaps)(void *ctx, uint32_t pid, uint64_t at);
	void *ctx;
};

/* pool must outlive the map; opts and the names in it are copied. */
struct jitmap *jitmap__new(const struct jitmap_opts *opts, struct strpool *pool);
void jitmap__delete(struct jitmap *jm);   /* accepts NULL */

/*
 * Process pid mapped path: if it is a timed loader's marker, find and read
 * that file (once per process image; a missing one is a warning).
 */
void jitmap__mmap(struct jitmap *jm, uint32_t pid, const char *path);
/* The same, mapped at time (the MMAP record's): what the file's times must agree with. */
void jitmap__mmap_at(struct jitmap *jm, uint32_t pid, const char *path, uint64_t time);
void jitmap__fork(struct jitmap *jm, uint32_t pid, uint32_t ppid, uint64_t time);
void jitmap__exec(struct jitmap *jm, uint32_t pid, uint64_t time);
/*
 * PERF_RECORD_NAMESPACES: process pid is in the pid namespace (dev, ino).
 * The first such record's namespace is the recorder's (perf writes those
 * of the processes it found running first).
 */
void jitmap__namespace(struct jitmap *jm, uint32_t pid, uint64_t dev, uint64_t ino);

/*
 * Apply pid's timed entries up to time; true when its JIT code changed
 * (opts->code_changed has been told where).
 */
bool jitmap__advance(struct jitmap *jm, uint32_t pid, uint64_t time);
/*
 * The function at ip in pid now (after jitmap__advance()), or NULL: timed
 * code first; with fallback, then the untimed entries (read on first use)
 * of pid and its parents. sym->loader->kind tells which answered.
 */
const struct jit_sym *jitmap__find(struct jitmap *jm, uint32_t pid, uint64_t ip, bool fallback);
/* A timed entry of a process, as jitmap__each_timed() gives it. */
struct jit_timed {
	uint64_t time;
	const struct jit_sym *sym;      /* a load: the function; NULL for a move */
	/* a move: where the code at old_addr (size bytes, code_index) went */
	uint64_t old_addr, new_addr, size, code_index;
	const char *source;             /* the file that said so */
};

/*
 * Call fn for each timed entry (load or move) of pid's process image as
 * the timeline has it now, in time order; for a run's end (markers), not
 * while samples are resolved.
 */
void jitmap__each_timed(const struct jitmap *jm, uint32_t pid,
			void (*fn)(void *ctx, const struct jit_timed *e), void *ctx);

/* The untimed entry alone: what jitmap__find() falls back to when no timed code is at ip. */
const struct jit_sym *jitmap__find_untimed(struct jitmap *jm, uint32_t pid, uint64_t ip);
/* The source line of addr in sym, or NULL. */
const struct jit_line *jit_sym__line(const struct jit_sym *sym, uint64_t addr);

/*
 * What pid's file of loader's format was (read, or paths tried), for
 * "jitsym sources"; NULL when nothing is known of pid. Its path and
 * tried are both NULL when the file was not looked for. Owned by jm.
 */
const struct jit_file_info *jitmap__file(const struct jitmap *jm, uint32_t pid,
					 const struct jit_loader *loader);

/*
 * At the end of a run: one warning per timed file that stopped early with
 * samples of its process after its last whole record, how many.
 */
void jitmap__report(const struct jitmap *jm);

/* What is known of pid's namespace; NULL when nothing (the same namespace, or no record says). */
const struct jit_ns_info *jitmap__ns(const struct jitmap *jm, uint32_t pid);

#endif
