/*
 * jit-locate: where a process's JIT side file may be. The twin of
 * resolve/dso-locate.h (which finds a DSO's files): the same shape, a
 * locator made once per run from the user's options and asked per file,
 * here for the JIT timeline (jitmap-*.c, no one else uses this header;
 * the timeline stage cannot include resolve/ headers, nor they this).
 *
 * Where a file is looked for, in order (jit-loader.h): a file the user
 * gave for the process (--jitdump PID=FILE, --perfmap PID=FILE) instead
 * of any search; else where the runtime put it (the marker's recorded
 * path; runtime_dir/file name for the process's host pid), next to
 * perf.data, then in each directory of the loader's dir list (--jit-dir,
 * --perfmap-dir); for an untimed file then the same by the process's
 * namespace pid, where one is known (jitmap.h), runtime_dir last.
 *
 * Errors: nothing fails; a search that finds no readable candidate says
 * so through jit_search__warn_missing(), the only function here that
 * prints (msg.h). Runs on the session's thread.
 */
#ifndef JITSYM_JIT_LOCATE_H
#define JITSYM_JIT_LOCATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jit_given;
struct jit_loader;
struct jit_ns_info;
struct jitmap_opts;
struct sbuf;
struct strpool;

/* Most candidate paths a file is looked for at. */
#define MAX_CANDIDATES 64

/*
 * One search: where a file may be, in order, how each was chosen, and
 * what names it in the missing-file warning. Filled by a
 * jit_locator__*() finder; the paths are the search's until
 * jit_search__release().
 */
struct jit_search {
	char *path[MAX_CANDIDATES];
	const char *how[MAX_CANDIDATES];    /* interned; NULL: by the process's own pid */
	size_t n;
	const char *what;                   /* the file as the warning names it */
	bool given;                         /* the user gave it */
	char base[256];                     /* what, when it is a name made for the search */
};

struct jit_locator;

/*
 * A locator for opts' directories (perf_data_dir, jit_dirs, perfmap_dirs)
 * and given files, copied (names interned in pool, which must outlive
 * it). Never NULL.
 */
struct jit_locator *jit_locator__new(const struct jitmap_opts *opts, struct strpool *pool);
/* Accepts NULL. */
void jit_locator__delete(struct jit_locator *loc);

/* The files the user gave, in the order given (*nr of them); owned by loc. */
const struct jit_given *jit_locator__given(const struct jit_locator *loc, size_t *nr);

/*
 * Where pid's timed file of format l is: the one given for pid (the last
 * given), else recorded (the path pid mapped as l's marker) and its name
 * next to perf.data and in l's directories. recorded must outlive s.
 */
void jit_locator__timed(const struct jit_locator *loc, uint32_t pid, const struct jit_loader *l,
			const char *recorded, struct jit_search *s);
/*
 * Where pid's untimed file of format l may be: the one given for pid,
 * else by its host pid, then by ns's namespace pid when it has one other
 * than pid (the order above).
 */
void jit_locator__untimed(const struct jit_locator *loc, uint32_t pid,
			  const struct jit_ns_info *ns, const struct jit_loader *l,
			  struct jit_search *s);

/* The first readable candidate's index (s->n if none); the others tried go to tried. */
size_t jit_search__first_readable(const struct jit_search *s, struct sbuf *tried);
/*
 * pid's file of format l, searched by s, was not found (how: how its
 * first candidate was chosen; tried: the candidates, quoted): one warning
 * when the user gave it, or when l says what to do about it.
 */
void jit_search__warn_missing(const struct jit_search *s, uint32_t pid,
			      const struct jit_loader *l, const char *how, const char *tried);
/* Frees s's paths. */
void jit_search__release(struct jit_search *s);

/* The file name of path: what follows its last '/'. */
const char *jit_locate__base_name(const char *path);

#endif
