/*
 * jitmap: per process (thread group), which JIT-compiled function covered
 * an address at a time, from the process's jitdump and perf map.
 *
 * A jitdump is loaded when the MMAP record of its marker mapping
 * (".../jit-PID.dump") is seen; its records are sorted by timestamp and
 * applied to the process's current JIT code as samples of the process move
 * past them (jitmap__advance()): a JIT_CODE_LOAD replaces whatever code it
 * covers (a later load over the same bytes ends the earlier function), a
 * JIT_CODE_MOVE ends the old range and starts the new one. Since samples
 * are resolved in time order, "the code at ip now" is "the entry that
 * covered ip at the sample's time". Mappings are not consulted at all: an
 * anonymous or memfd MMAP2 over coalesced JIT code says only that memory
 * is mapped, so it can never erase a JIT symbol.
 *
 * A perf map (/tmp/perf-PID.map) has no times; it is read on first need
 * and is the fallback for addresses no jitdump entry covers. Each process
 * is decided on its own: jitdump only, perf map only, both, or neither.
 *
 * fork: the child starts with its parent's JIT code as of the fork and
 * adds its own jitdump and perf map; exec starts empty, and so does a
 * new process that reuses a pid. A forked child looks in its parent's
 * perf map after its own (the map has no times, so it may also hold what
 * the parent compiled after the fork).
 */
#ifndef JITSYM_JITMAP_H
#define JITSYM_JITMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strpool;
struct jitmap;

/* A source line of JIT code, from JIT_CODE_DEBUG_INFO. */
struct jit_line {
	uint64_t addr;          /* of the first instruction of the line */
	uint32_t line;
	uint32_t column;        /* 0 when unknown */
	const char *file;       /* interned */
};

/* A JIT-compiled function as loaded (or moved) by the runtime. */
struct jit_sym {
	uint64_t start, size;
	const char *name;       /* interned; exactly as the runtime wrote it */
	const char *source;     /* the jitdump or perf map it came from, interned */
	bool from_perfmap;
	uint64_t load_time;
	uint64_t code_index;
	const struct jit_line *lines;  /* sorted by addr; NULL when none */
	size_t nr_lines;
};

struct jitmap_opts {
	const char *perf_data_dir;            /* directory of the perf.data */
	const char *const *jit_dirs;          /* --jit-dir, in order */
	size_t nr_jit_dirs;
	const char *const *perfmap_dirs;      /* --perfmap-dir, in order */
	size_t nr_perfmap_dirs;
	/*
	 * The samples have no CLOCK_MONOTONIC time (not recorded with -k 1,
	 * or without sample times), so jitdump times cannot be compared with
	 * them: apply every record at once (the last load at an address wins).
	 */
	bool timeless;
	/*
	 * Keep JIT_CODE_DEBUG_INFO line tables (struct jit_sym's lines). Without
	 * it the records are still read and counted but every sym has no lines.
	 */
	bool lines;
	/*
	 * Called when pid's JIT code in [start, end) changes (a load or a
	 * move applied), so caches of resolved addresses can drop just those.
	 */
	void (*code_changed)(void *ctx, uint32_t pid, uint64_t start, uint64_t end);
	void *ctx;
};

/* pool must outlive the map; opts and the names in it are copied. */
struct jitmap *jitmap__new(const struct jitmap_opts *opts, struct strpool *pool);
void jitmap__delete(struct jitmap *jm);   /* accepts NULL */

/* Whether an MMAP'd path names a jitdump marker (basename jit-N.dump). */
bool jitmap__is_marker(const char *path);
/* Process pid mapped its jitdump marker at path: find and load the file. */
void jitmap__marker(struct jitmap *jm, uint32_t pid, const char *path);
void jitmap__fork(struct jitmap *jm, uint32_t pid, uint32_t ppid, uint64_t time);
void jitmap__exec(struct jitmap *jm, uint32_t pid, uint64_t time);

/*
 * Apply pid's jitdump records up to time; true when its JIT code changed
 * (opts->code_changed has been told where).
 */
bool jitmap__advance(struct jitmap *jm, uint32_t pid, uint64_t time);
/* The jitdump function at ip in pid now (after jitmap__advance()), or NULL. */
const struct jit_sym *jitmap__find_jitdump(struct jitmap *jm, uint32_t pid, uint64_t ip);
/* The perf map function at ip in pid, or NULL; the map is read on first use. */
const struct jit_sym *jitmap__find_perfmap(struct jitmap *jm, uint32_t pid, uint64_t ip);
/* The source line of addr in sym, or NULL. */
const struct jit_line *jit_sym__line(const struct jit_sym *sym, uint64_t addr);

/* What was found for a process, for "jitsym sources". */
struct jitmap_proc_info {
	const char *jitdump;          /* path read, or NULL */
	const char *jitdump_tried;    /* paths tried when none was found, or NULL */
	size_t nr_loads, nr_moves, nr_debug, nr_records;
	const char *jitdump_problem;  /* why reading stopped early, or NULL */
	const char *perfmap;          /* path read, or NULL */
	const char *perfmap_tried;    /* paths tried when none was found, or NULL */
	size_t nr_perfmap_entries, nr_perfmap_bad;
};
bool jitmap__proc_info(const struct jitmap *jm, uint32_t pid, struct jitmap_proc_info *info);

#endif
