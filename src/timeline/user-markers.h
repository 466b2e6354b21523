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

#endif
