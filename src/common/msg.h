/*
 * Messages to the user: the only way anything in src/ reaches stderr.
 *
 * Messages are lowercase, have no full stop, quote their subject and say
 * what failed first: error("cannot open '%s': %s", path, strerror(errno)).
 * error() returns -1 so that callers can write "return error(...)"; only
 * main() turns failures into exit codes. die() is for setup failures and
 * out-of-memory, BUG() for broken invariants.
 *
 * warning() is rate-limited per call site (its format string): the first
 * MSG_WARN_LIMIT of each kind are printed, the rest only counted, and
 * msg_summary() prints the counts, so a corrupt file cannot flood the
 * terminal.
 *
 * Any thread may call every function here (the resolver's second thread
 * warns). The run's state (the per-site counts and first messages, the
 * warning total, the sink and the output stream's flush hook) is guarded
 * by one mutex, which is also held while a message is flushed and
 * printed: the rate limits, the total and msg_summary() are the run's,
 * whichever thread warned, and a line printed whole under the lock cannot
 * interleave with another thread's. What a thread says of its own work is
 * the thread's: its mute count, the recording its messages name
 * (msg_set_context()) and whether it keeps them (msg_capture_begin()),
 * as several recordings may be read at once, each on its own thread.
 */
#ifndef JITSYM_MSG_H
#define JITSYM_MSG_H

#include <stdarg.h>
#include <stdbool.h>

/*
 * The exit status of every command (command.h maps each failure to one):
 * 1 for a command line that cannot run: an unknown option, a bad value,
 * options the recording cannot satisfy (script -F); 2 when the input
 * cannot be opened, is not a recording, or is damaged (the output of the
 * part before the damage is written); 3 when the output (-o FILE, or
 * standard output) cannot be created or written. The first of 1 and 3
 * ends the run; a damaged input that is also written to a full disk exits
 * 3, since the output is not usable. SIGINT, SIGTERM, SIGHUP and SIGPIPE
 * end the process by the signal, 128 + N in the shell (outfile.h).
 */
enum jitsym_exit {
	EXIT_OK = 0,
	EXIT_USAGE = 1,   /* bad command line */
	EXIT_INPUT = 2,   /* unreadable or invalid input */
	EXIT_OUTPUT = 3,  /* the output cannot be created or written */
};

#define MSG_WARN_LIMIT 5

/* 0: errors and warnings; -1 (-q): errors only; >0: more detail (-v). */
extern int verbosity;

int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vwarning(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* Printed only when verbosity > 0. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
#define BUG(...) bug_fl(__FILE__, __LINE__, __VA_ARGS__)
void bug_fl(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

/*
 * Until the next call, every message of the calling thread names
 * recording (a path) first, "jitsym: warning: 'a.data': ...", unless it
 * quotes it already; NULL: none. command.c sets it while each of several
 * merged recordings is read. recording must outlive the call.
 */
void msg_set_context(const char *recording);
/* The calling thread's recording: what a thread it starts for the same work is to name. */
const char *msg_context(void);
/* Send each message line (no newline) to fn instead of stderr; NULL restores stderr. For tests. */
void msg_set_sink(void (*fn)(const char *line));
/*
 * Call fn(ctx) before printing each message, after stdout is flushed: an
 * output stream that buffers elsewhere (async-out.h) gets its bytes out
 * first, so output and messages keep their order. NULL: none.
 */
void msg_set_flush(void (*fn)(void *ctx), void *ctx);

/*
 * While muted (calls nest), errors, warnings and notes are neither printed
 * nor counted: for a second, silent pass over an input whose first pass
 * says what is wrong with it. The calling thread's messages only, as
 * msg_set_context()'s recording is the calling thread's.
 */
void msg_mute(bool on);
/*
 * Messages kept to be said later, in an order a run decides rather than
 * as threads happen to reach them: between msg_capture_begin(c) and
 * msg_capture_end(), the calling thread's errors, warnings and notes (not
 * die()'s) are formatted, with its recording, and kept in c, neither
 * printed nor counted; msg_capture_replay(c) then says them on the
 * calling thread as if they were issued there and then (each warning
 * counted, and printed within its call site's limit), and may be called
 * once. A capture holds at most MSG_WARN_LIMIT warnings of a call site
 * and counts the rest, which no count could print when they are said.
 * Several recordings read at once each keep their messages so, and
 * the run says them recording by recording (command.c); the threads
 * reading one recording keep theirs in one capture (pipeline.c).
 */
struct msg_capture;
struct msg_capture *msg_capture_new(void);
void msg_capture_begin(struct msg_capture *c);
void msg_capture_end(void);
/* Where the calling thread keeps its messages, or NULL: what a thread it starts is to keep them in. */
struct msg_capture *msg_capturing(void);
void msg_capture_replay(struct msg_capture *c);
void msg_capture_delete(struct msg_capture *c);     /* accepts NULL */

/* Number of warnings issued so far, printed or not. */
unsigned long msg_warning_count(void);
/* Print "N more warnings like ..." lines for the suppressed ones. */
void msg_summary(void);

#endif
