/*
 * user-markers: a program's own phase marks, in samply's marker files:
 * marker-PID-*.txt, which the program writes and maps (so that the
 * recording names it, as a jitdump's marker does), one span a line:
 *
 *	START END NAME
 *
 * START and END in ns of CLOCK_MONOTONIC (the clock of `perf record -k 1`
 * and of jitdumps), decimal, END >= START; NAME the rest of the line,
 * blanks inside kept, at most USER_MARKER_NAME_MAX bytes (longer is cut).
 * Lines that are not so are counted, the first one's number kept, and
 * left out; a file holds at most USER_MARKERS_MAX spans (the rest are
 * counted as not read).
 */
#ifndef JITSYM_USER_MARKERS_H
#define JITSYM_USER_MARKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define USER_MARKER_NAME_MAX 1024
#define USER_MARKERS_MAX (1u << 20)
#define USER_MARKERS_FILE_MAX (64u << 20)

struct strpool;

struct user_marker {
	uint64_t start, end;
	const char *name;      /* interned in the pool given */
	const char *source;    /* the file, interned (a marker set's); NULL from parse/read */
};

struct user_markers {
	struct user_marker *v;
	size_t nr, alloc;
	size_t nr_bad;         /* lines that are not spans */
	size_t first_bad;      /* the first one's line number (1-based); 0: none */
	size_t nr_dropped;     /* spans past USER_MARKERS_MAX */
};

/* Add the spans of text[0..len) to m, names interned in pool. */
void user_markers__parse(struct user_markers *m, const char *text, size_t len,
			 struct strpool *pool);
/*
 * Read the file at path (read-only, at most USER_MARKERS_FILE_MAX bytes:
 * more is a warning and the first part) into m; -1 when it cannot be
 * read (nothing said: the caller knows where else to look).
 */
int user_markers__read(struct user_markers *m, const char *path, struct strpool *pool);
void user_markers__release(struct user_markers *m);

/*
 * Whether path's last component is a marker file's name of pid:
 * "marker-PID-" ... ".txt"; *file_pid gets the PID it names.
 */
bool user_markers__is_marker_file(const char *path, uint32_t *file_pid);

/*
 * A recording's marker files, each read once (by device and inode), their
 * spans by process: those found in directories (marker_set__scan_dir():
 * next to perf.data, --jit-dir) and those the recording shows mapped
 * (marker_set__mapped(): samply's programs map their file, so that perf
 * records its path, as a runtime maps its jitdump; perf records only
 * executable mappings unless `perf record -d`). Messages name the file
 * and line. Not thread-safe.
 */
struct marker_set;

struct marker_set *marker_set__new(struct strpool *pool);   /* never NULL */
void marker_set__delete(struct marker_set *ms);             /* accepts NULL */
/* Read every marker-PID-*.txt in dir, in name order; a missing dir is no error. */
void marker_set__scan_dir(struct marker_set *ms, const char *dir);
/*
 * pid mapped the marker file at path: read it there, else next to the
 * recording (data_dir), else say so in one warning.
 */
void marker_set__mapped(struct marker_set *ms, uint32_t pid, const char *path,
			const char *data_dir);
/*
 * A mark of pid at time (a sample of --marker-event name, in time order):
 * it ends pid's span of the last mark and starts "NAME N" (N from 1),
 * open (end UINT64_MAX) until the next.
 */
void marker_set__hit(struct marker_set *ms, uint32_t pid, uint64_t time, const char *name);
/* pid's spans, sorted by start (then end, name, source); *nr of them. */
const struct user_marker *marker_set__spans(struct marker_set *ms, uint32_t pid, size_t *nr);
/* Whether any file gave spans. */
bool marker_set__any(const struct marker_set *ms);

#endif
