/*
 * progress: a one-line progress report on stderr for work that takes a
 * while, such as reading a big recording:
 *
 *	jitsym: reading 'perf.data': 812.4 MiB of 2.1 GiB (38%), 3.2M samples, 410k samples/s
 *
 * Shown only when stderr is a terminal that the output is not written to
 * (output on the same screen would mix with it): stdout, or the -o file
 * progress__set_output() names; so "-o FILE" on a terminal shows it, and
 * so does "> FILE". Never with -q (verbosity < 0), and only once the
 * work has run for a second; redrawn
 * at most four times a second and erased when done, so what stays on the
 * terminal is the same as without it. msg.c erases the line before a
 * message and the next update draws it again.
 *
 * One report at a time; progress__* functions accept NULL (nothing shown).
 */
#ifndef JITSYM_PROGRESS_H
#define JITSYM_PROGRESS_H

#include <stdint.h>

struct progress;

/*
 * Start a report on "what" (e.g. "reading 'perf.data'") over total bytes
 * (0: unknown). Returns NULL when no progress is to be shown here.
 */
struct progress *progress__new(const char *what, uint64_t total);
/* done bytes of total, and items (samples) so far; cheap enough for every record. */
void progress__update(struct progress *p, uint64_t done, uint64_t items);
/*
 * A report of bytes alone, for a download: "jitsym: WHAT: 1.2 MiB of
 * 3.4 MiB (35%)"; shown as progress__new()'s (NULL when not).
 */
struct progress *progress__new_bytes(const char *what);
/* done bytes of total (0: unknown); reads the clock each call: for a caller called seldom. */
void progress__update_bytes(struct progress *p, uint64_t done, uint64_t total);
/* Erase the line and free p. Accepts NULL. */
void progress__delete(struct progress *p);

/*
 * Where the command writes: path (-o FILE; need not exist yet), or NULL
 * for stdout, the default. Call before progress__new(); path must live
 * until the report is done.
 */
void progress__set_output(const char *path);

/* Erase the progress line if one is showing (before writing to stderr). */
void progress__clear_line(void);
/*
 * The same, async-signal-safe (one write(2)), for a signal handler that
 * ends the process: what stdio had buffered for stderr may follow it.
 */
void progress__erase_async(void);

/* The size of the input at path ("-": standard input), 0 when it is not a regular file. */
uint64_t progress__input_size(const char *path);

#endif
