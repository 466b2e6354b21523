/*
 * debuginfod: the debug file of a native file fetched from debuginfod
 * servers through libdebuginfod, the last step of dso-locate.h's search,
 * when every local place failed. Opt-in (--debuginfod[=URLS]): a run
 * never talks to a network unless asked to.
 *
 * Which files. Only a file that has a build id in the recording (the
 * server is asked by build id, and one read from a file could be of
 * another build than the one recorded), whose binary was found and has
 * no .symtab, and that owns samples: the DSO cache loads a file at its
 * first frame (dso.h). Never JIT code (that never reaches an ELF
 * lookup), perf inject's jitted-*.so, //anon, memfd, [vdso], the kernel
 * or a path that is no file.
 *
 * Bounded. The run as a whole spends at most DEBUGINFOD_MAXTIME seconds
 * (default DEBUGINFOD_DEFAULT_BUDGET) waiting on servers; libdebuginfod
 * also applies that limit to each download itself (jitsym sets
 * DEBUGINFOD_MAXTIME to the default when unset). DEBUGINFOD_TIMEOUT is
 * the client's limit to connect and get data flowing (its own default,
 * 90 s, is longer than the whole budget, so jitsym sets it to
 * DEBUGINFOD_DEFAULT_TIMEOUT when unset). The budget over several
 * requests is enforced through the client's progress callback: past it
 * the download is cancelled. Once the budget is spent, or a request
 * failed for another reason than "not found" (connection refused, host
 * unknown, timed out), no further request is made in the run, and one
 * warning says so: a dead server costs one connection attempt, not one
 * per build id.
 *
 * Deterministic. One client handle and one lock for the run: requests
 * are made one at a time, whichever thread (several recordings may be
 * read at once), and a build id is asked at most once; later askers get
 * the first answer. Files are kept in the client's standard cache
 * ($DEBUGINFOD_CACHE_PATH, else ~/.cache/debuginfod_client), which a
 * later run reads without asking the server.
 *
 * Progress of a download that takes more than a second is drawn on
 * standard error when it is a terminal (progress.h), never with -q.
 */
#ifndef JITSYM_DEBUGINFOD_H
#define JITSYM_DEBUGINFOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The run's budget without DEBUGINFOD_MAXTIME, in seconds: a dead server cannot stall it longer. */
#define DEBUGINFOD_DEFAULT_BUDGET 30
/* DEBUGINFOD_TIMEOUT (connect, then at least 100 KB per this many seconds) when unset. */
#define DEBUGINFOD_DEFAULT_TIMEOUT "5"

struct debuginfod;

enum debuginfod_state {
	DEBUGINFOD_FETCHED,     /* got, from a server or the client's cache */
	DEBUGINFOD_NOT_FOUND,   /* every server said 404 (or the cache remembers it did) */
	DEBUGINFOD_FAILED,      /* asked but not got, or not asked: reason */
};

/* What became of one build id, for jitsym sources. */
struct debuginfod_result {
	char *path;             /* the recorded path of the first file asked for */
	char *hex;              /* its build id, lowercase hex */
	enum debuginfod_state state;
	char *url;              /* fetched: the URL it came from; NULL: the client's cache */
	char *file;             /* fetched: where it is in the cache */
	uint64_t size;          /* fetched: its bytes */
	const char *reason;     /* failed (a static string), or fetched but unusable */
};

/*
 * Set up debuginfod for a run, before any thread starts (it may set
 * DEBUGINFOD_URLS and DEBUGINFOD_TIMEOUT in the environment, which the
 * client reads). on: --debuginfod was given, with urls (space-separated,
 * as DEBUGINFOD_URLS) or NULL for $DEBUGINFOD_URLS. Returns 0 with *out
 * the run's object, or NULL when there is nothing to do (off, and
 * DEBUGINFOD_URLS unset or jitsym built without libdebuginfod); -1 after
 * error() when on but jitsym was built without libdebuginfod, or no URL
 * was given either way.
 */
int debuginfod__new(bool on, const char *urls, struct debuginfod **out);
/* Accepts NULL. */
void debuginfod__delete(struct debuginfod *d);

/*
 * Whether a file recorded at path may be asked for: a file of its own,
 * not JIT code (jitted-*.so), anonymous memory (//anon, memfd:) or a
 * pseudo-file ([vdso], [kernel.kallsyms]).
 */
bool debuginfod__wants(const char *path);

/*
 * The debug file of path (as recorded) with build id (id, id_size > 0),
 * fetched: its path in the client's cache, to free(); NULL when it was
 * not got (or d is NULL). Off (DEBUGINFOD_URLS set, no --debuginfod), it
 * says once in the run that debuginfod was not used and how to opt in,
 * and returns NULL. Any thread; one request at a time.
 */
char *debuginfod__find_debuginfo(struct debuginfod *d, const char *path, const uint8_t *id,
				 size_t id_size);
/*
 * The file fetched for build id (id, id_size) could not be used (reason,
 * static: "no .symtab", "another build id"): sources says so.
 */
void debuginfod__unusable(struct debuginfod *d, const uint8_t *id, size_t id_size,
			  const char *reason);

/* Whether --debuginfod is on (false for NULL). */
bool debuginfod__on(const struct debuginfod *d);
/* The servers asked (DEBUGINFOD_URLS as used); NULL when off. */
const char *debuginfod__urls(const struct debuginfod *d);
/*
 * What was asked, sorted by path then build id (the order files were
 * asked in depends on the threads), owned by d and valid until the next
 * request; *nr their number.
 */
const struct debuginfod_result *debuginfod__results(struct debuginfod *d, size_t *nr);

#endif
