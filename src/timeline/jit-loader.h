/*
 * jit-loader: the JIT side-file formats, behind one interface.
 *
 * A runtime that compiles code describes it in a side file: a jitdump
 * (loads and moves, with times), a perf map (ranges, without times), ...
 * Each format is one struct jit_loader, defined in its own
 * src/jit-loader-NAME.c, and listed once in jit_loaders[] (jit-loader.c).
 * The timeline (jitmap.h) decides when a process's file is wanted, finds
 * it and calls the loader's read() with a feed; the loader parses the file
 * and hands what it holds to the jit_feed__*() functions, its only way
 * into the timeline (it includes jitmap.h for struct jit_line alone); the
 * timeline never sees a file format.
 *
 * Adding a format: write src/jit-loader-NAME.c defining
 * "const struct jit_loader jit_loader_NAME", add it to jit_loaders[] in
 * jit-loader.c and the file to libjitsym_a_SOURCES in Makefile.am.
 */
#ifndef JITSYM_JIT_LOADER_H
#define JITSYM_JIT_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sbuf;
struct jit_line;
struct jit_unwind;

enum jit_loader_kind {
	/*
	 * Loads and moves with times on the samples' clock (CLOCK_MONOTONIC):
	 * applied as samples pass them, and they beat untimed entries.
	 * Their frames are FRAME_JIT. Found through a marker mapping.
	 */
	JIT_TIMED,
	/*
	 * Ranges without times: the fallback for addresses no timed entry
	 * covers, a later range winning where ranges overlap (unless the
	 * recording times them: jitmap-clock.h). Their frames
	 * are FRAME_PERFMAP. Read on the process's first fallback lookup.
	 */
	JIT_UNTIMED,
};

/* The user-given directories a loader's file is also looked for in. */
enum jit_dir_list {
	JIT_DIRS_JIT,       /* --jit-dir */
	JIT_DIRS_PERFMAP,   /* --perfmap-dir */
};

/* Counters a loader keeps per file; what each means is the loader's (describe()). */
#define JIT_FILE_COUNTERS 10

/* What a process's file of one format was, for "jitsym sources". */
struct jit_file_info {
	const struct jit_loader *loader;
	const char *path;       /* the file read, interned; NULL when none */
	const char *tried;      /* the paths tried when it was not found, quoted; or NULL */
	const char *problem;    /* why reading stopped early, interned; or NULL */
	/* JIT_UNTIMED with overlapping lines: which one wins (jitmap-clock.h), interned; or NULL */
	const char *rule;
	/*
	 * How the file was chosen when not by the process's own pid, e.g.
	 * "given by --perfmap", "namespace pid 1, from jit-1.dump's header";
	 * interned, or NULL.
	 */
	const char *how;
	/* records of other processes of the writer's pid namespace: not used (jitmap.h) */
	size_t not_used;
	/*
	 * Why the file is not this process's (jitmap.h, "whose a file is"),
	 * interned; or NULL. Not given: none of it was used; given: used anyway.
	 */
	const char *refused;
	bool used_anyway;       /* refused, but the user gave it: used */
	/* JIT_TIMED: the time of its last whole record, and whether there was one */
	uint64_t last_time;
	bool has_last_time;
	/* JIT_TIMED with a problem: the process's samples after last_time */
	uint64_t samples_after;
	/* JIT_UNTIMED: its lines that repeat a timed load's range, not used before that load */
	size_t repeats;
	/*
	 * JIT_TIMED: loads whose code was to be read again from the file (to
	 * tell where calls end in it) when the file had changed or gone since
	 * it was read: their callers are looked up as in code without bytes
	 */
	size_t code_gone;
	size_t count[JIT_FILE_COUNTERS];
};

struct jit_feed;

/*
 * Where a file is looked for, in order: where the runtime put it (the
 * marker's path, or runtime_dir/file name), next to perf.data, then each
 * directory of the loader's dir list. The first readable one is read.
 */
struct jit_loader {
	const char *name;              /* "jitdump": names the file in sources and warnings */
	enum jit_loader_kind kind;
	/* JIT_TIMED: whether a mapped path is this format's marker (its basename is the file's) */
	bool (*is_marker)(const char *path);
	/*
	 * JIT_TIMED, optional: the pid a marker's name gives (its writer's, in
	 * the writer's pid namespace), 0 when none; a file whose writer says
	 * another pid is not the one mapped (jitmap.h).
	 */
	uint32_t (*marker_pid)(const char *path);
	/* JIT_UNTIMED: the file name for pid, written into buf (size bytes) */
	void (*file_name)(uint32_t pid, char *buf, size_t size);
	const char *runtime_dir;       /* JIT_UNTIMED: where runtimes write the file ("/tmp") */
	enum jit_dir_list dirs;
	/* NULL: a missing file is silent; else the missing-file warning ends with it */
	const char *if_missing;
	/*
	 * Read the file at path and feed what it holds. Returns 0, or -1 when
	 * nothing was usable (the loader has warned) and sources should not
	 * list the file. Problems reading part of it go to jit_feed__problem().
	 */
	int (*read)(struct jit_feed *feed, const char *path);
	/* Append what was read (from info->count) to out, e.g. "12 entries, 0 bad lines". */
	void (*describe)(const struct jit_file_info *info, struct sbuf *out);
};

/* Every loader, in the order sources lists them; NULL-terminated. */
extern const struct jit_loader *const jit_loaders[];

/* The timed loader whose marker path is, or NULL. */
const struct jit_loader *jit_loader__for_marker(const char *path);

struct map;
/*
 * Whether m's file is a timed loader's marker (jit_loader__for_marker()
 * of its name), asked once per mapping and kept in it: the unwinder and
 * the resolver ask for each frame. The session's thread only.
 */
bool jit_loader__map_marker(struct map *m);

/*
 * ---- feeding the timeline (called from a loader's read()) ----
 * A feed is for one file of one process; it is valid during read() only.
 */

/* A timed load: code [start, start + size) named name from time on. */
struct jit_load {
	uint32_t pid;               /* the writer's pid in the record; 0: the feed's (jitmap.h) */
	uint64_t time, start, size, code_index;
	const char *name;           /* copied */
	/* sorted by addr; malloc'd, the timeline takes it; NULL when none */
	struct jit_line *lines;
	size_t nr_lines;
	const struct jit_unwind *unwind;   /* from jit_feed__unwind(); NULL when none */
	/* its size bytes of code, read during the call only; NULL when not given */
	const uint8_t *code;
	/*
	 * Where those bytes are in the feed's file, when it is a regular file
	 * they can be read from again later (only then: not a pipe's), so that
	 * the timeline reads them only if a frame needs them; 0: not known.
	 */
	uint64_t code_off;
};

/* A timed move: the code at old_start (found by code_index if gone) now at new_start. */
struct jit_move {
	uint32_t pid;               /* 0: the feed's process */
	uint64_t time, old_start, new_start, size, code_index;
};

/* The process the file is read for (its marker's, or the lookup's). */
uint32_t jit_feed__pid(const struct jit_feed *f);
/*
 * The pid the file's writer gave itself (a jitdump header's), before any
 * load or move: decides whose the records are (jitmap.h, pid namespaces).
 */
void jit_feed__writer_pid(struct jit_feed *f, uint32_t pid);
/* Whether line tables are wanted; without, loads should carry none. */
bool jit_feed__want_lines(const struct jit_feed *f);
/* Whether all a file's counters are wanted (jitmap_opts.file_stats). */
bool jit_feed__want_file_stats(const struct jit_feed *f);
/* s interned in the session's pool (lives as long as the timeline). */
const char *jit_feed__intern(struct jit_feed *f, const char *s);
/* The file's counters (JIT_FILE_COUNTERS): zero at a process's first read, kept after an exec. */
size_t *jit_feed__counters(struct jit_feed *f);
/* Reading stopped early because of problem (copied); sources shows it. */
void jit_feed__problem(struct jit_feed *f, const char *problem);
void jit_feed__load(struct jit_feed *f, const struct jit_load *ld);      /* JIT_TIMED */
void jit_feed__move(struct jit_feed *f, const struct jit_move *mv);      /* JIT_TIMED */
/*
 * JIT_TIMED: unwinding rules for a load (jit_load.unwind): a copy of *u's
 * bytes owned by the timeline, shared with identical ones; NULL when u
 * has no .eh_frame bytes. The loader has checked them (jit-cfi.h).
 */
const struct jit_unwind *jit_feed__unwind(struct jit_feed *f, const struct jit_unwind *u);
/* JIT_UNTIMED: [start, start + size) is name; call in file order (later wins). */
void jit_feed__range(struct jit_feed *f, uint64_t start, uint64_t size, const char *name);

#endif
