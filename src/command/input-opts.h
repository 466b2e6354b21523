/*
 * input-opts: the options every command that reads a recording takes
 * (which file, where symbols come from, which samples to keep), parsed
 * into a struct session_opts. command.c runs the parser.
 */
#ifndef JITSYM_INPUT_OPTS_H
#define JITSYM_INPUT_OPTS_H

#include "command/option.h"
#include "session/session.h"

struct outfile;

/* getopt_long values for the input options. */
enum {
	OPT_SYMFS = 1000, OPT_KALLSYMS, OPT_NO_DEMANGLE, OPT_NO_INLINE, OPT_BUILDID_DIR,
	OPT_PID, OPT_TID, OPT_COMM, OPT_EVENT, OPT_JIT_DIR, OPT_PERFMAP_DIR,
	OPT_JITDUMP, OPT_PERFMAP, OPT_THREADS, OPT_TIME, OPT_CPU,
	OPT_VMLINUX, OPT_DEBUGINFOD, OPT_INPUT_LAST,
};

/*
 * The most threads a run puts to work at once (--threads). One recording
 * is read by two: the session's and one more, which takes the sample
 * hook (handoff.h) or the writing of the output (async-out.h), as the
 * command chooses. Several recordings merged by fold are read that many
 * at a time, each by one thread (struct command's parts), each with a
 * session of its own in memory.
 */
#define INPUT_MAX_THREADS 64

/* The heading of the input options in --help, with a ':' after it, and in jitsym.1 */
#define INPUT_OPTS_HEADING "Options for reading the recording"

/* The input options, their help and getopt values: the table, ended by CMD_OPTION_END. */
extern const struct cmd_option input_options[];

struct input_opts {
	const char *path;            /* default "perf.data" */
	const char *output;          /* -o FILE; NULL: stdout */
	/* with more than one thread, write the output from one of its own (async-out.h) */
	bool output_thread;
	bool debuginfod;             /* --debuginfod */
	const char *debuginfod_urls; /* --debuginfod=URLS; NULL: $DEBUGINFOD_URLS */
	struct session_opts session;
	/*
	 * The options that say where files are looked for (--symfs,
	 * --kallsyms, --vmlinux, --buildid-dir, --jit-dir, --perfmap-dir,
	 * --jitdump, --perfmap) as given, in order: jitsym archive keeps them
	 * in the bundle, and a bundle's are taken in their place.
	 */
	struct input_lookup {
		int id;
		const char *arg;
	} *lookup;
	size_t nr_lookup, alloc_lookup;
};

/* Defaults; --threads: the CPUs online, at most INPUT_MAX_THREADS. */
void input_opts__init(struct input_opts *o);
void input_opts__release(struct input_opts *o);
/*
 * Handle one getopt_long result if it is an input option: 1 handled,
 * 0 not an input option, -1 bad argument (error printed).
 */
int input_opts__parse(struct input_opts *o, int c, const char *arg);
/*
 * After the last option, before any thread starts: what the options say
 * together (debuginfod's client, into session.resolve.debuginfod,
 * debuginfod.h). 0, or -1 after error() (a usage error).
 */
int input_opts__finish(struct input_opts *o);
/*
 * Open -o FILE for writing (stdout without -o) as outfile.h writes it:
 * a regular FILE through a temporary file beside it, renamed into place
 * when closed with keep. NULL after error(). With more than one thread and
 * output_thread, a stream a thread of its own writes (async-out.h).
 */
struct outfile *input_opts__open_output(const struct input_opts *o);
/*
 * Flush and close what open_output gave, then keep it (rename into place)
 * or not (remove the temporary file); -1 after one error() naming the
 * file if writing failed (here or before: the stream's error flag).
 */
int input_opts__close_output(struct outfile *out, bool keep);
/*
 * Print the usage lines of the input options, under a heading; for a
 * command of two recordings (nr_inputs 2) without -i, --input, which it
 * refuses: it reads the two it is given.
 */
void input_opts__usage(FILE *fp, unsigned nr_inputs);
/*
 * Forget the lookup options (o->lookup): the session's symfs, kallsyms,
 * vmlinux, build-id dir, JIT dirs and given files back to none. A
 * bundle's are taken so, one recording at a time.
 */
void input_opts__clear_lookup(struct input_opts *o);
/* An input option's long name by its id, and back; NULL, -1 when none. */
const char *input_opts__name(int id);
int input_opts__id(const char *name);

#endif
