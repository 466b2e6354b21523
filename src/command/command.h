/*
 * command: the lifecycle every subcommand shares, so that they fail the
 * same way. command__run():
 *  1. parses the command line: the input options (input-opts.h), the
 *     shared options the command takes (enum command_shared), then its
 *     own through its parse function. -h prints the usage on stdout (exit
 *     0); a bad option prints one error line (exit EXIT_USAGE);
 *  2. calls prepare(), which builds the command's writer;
 *  3. runs the session. Its start hook opens the output (-o FILE, or
 *     stdout) once the recording's header has been read and before any
 *     sample: a missing or invalid input leaves no output file behind, an
 *     unwritable one fails before the samples are read (EXIT_OUTPUT);
 *     A command of two inputs (nr_inputs 2: diff) reads two recordings
 *     named on the command line, one session after the other, through
 *     the same hooks: start() once per input (the output opened before
 *     the first), finish() once, after the last. An input that cannot be
 *     opened ends the run (EXIT_INPUT, nothing written); damage in either
 *     still lets finish() write, and exits EXIT_INPUT.
 *     A command that merges (merges: fold, flamegraph, pprof, report) reads each
 *     recording named (one or more; none: -i or perf.data) the same way,
 *     in order, each with its own side files (a session each), and calls
 *     finish() once, in the last session, or after it with s NULL when
 *     the last recording could not be read: what the command keeps must
 *     outlive each session (aggregator__new_session()). An
 *     input that cannot be opened or is damaged makes the exit
 *     EXIT_INPUT, the others still merged and written (the rule of one
 *     damaged recording); a filter a recording cannot apply
 *     (SESSION_BAD_FILTER) stops the run, EXIT_USAGE, nothing written;
 *  4. finish() writes what it collected (also after damage: the part
 *     read before it), then the output is closed and the exit status
 *     chosen from enum jitsym_exit (msg.h). The output is an outfile
 *     (outfile.h): -o FILE goes into place only when the run stopped for
 *     no usage or output error and every byte was written; otherwise an
 *     existing FILE stays as it was. A signal (SIGINT, SIGTERM, SIGHUP,
 *     SIGPIPE) at any point leaves FILE as it was and ends the process
 *     by that signal (128 + N), from outfile's handler.
 * Messages go through msg.h; a command prints nothing of its own about
 * the output or the input file.
 */
#ifndef JITSYM_COMMAND_H
#define JITSYM_COMMAND_H

#include <stdio.h>

#include "aggregate/stack-opts.h"
#include "command/input-opts.h"

struct pd_event;

/* Options several commands take; a command lists the ones it accepts. */
enum command_shared {
	CMD_WEIGHT      = 1u << 0,   /* --weight=period|count */
	CMD_INCLUDE_PID = 1u << 1,   /* --include-pid */
	CMD_INCLUDE_TID = 1u << 2,   /* --include-tid */
	CMD_NO_KERNEL   = 1u << 3,   /* --no-kernel */
	CMD_OFF_CPU     = 1u << 4,   /* --off-cpu, --on-off-cpu (session_opts.offcpu; weight: period) */
};

/* getopt_long values of the shared options; a command's own start at OPT_COMMAND_LAST. */
enum {
	OPT_WEIGHT = OPT_INPUT_LAST, OPT_INCLUDE_PID, OPT_INCLUDE_TID, OPT_NO_KERNEL,
	OPT_OFF_CPU, OPT_ON_OFF_CPU,
	OPT_COMMAND_LAST,
};

/* The parsed command line, as prepare() sees it. */
struct command_opts {
	struct input_opts in;      /* prepare() may set in.session.jit_lines */
	/* --include-pid, --include-tid, --no-kernel, --weight (sum periods or count samples) */
	struct stack_opts stack;
	unsigned nr_inputs;        /* the recordings named: 1, 2 (diff), or 1..N (merges) */
};

struct command {
	const char *const *usage;        /* --help's lines before the options, NULL-terminated */
	/*
	 * Its options in --help's order, ended by CMD_OPTION_END, or NULL:
	 * its own, and a CMD_OPTION_SHARED row for each enum command_shared
	 * it takes (a shared row with an id stands for that option alone,
	 * shown with the row's arg and help where they are set).
	 */
	const struct cmd_option *options;
	const char *const *usage_tail;   /* --help's lines after the options, or NULL */
	int help_column;                 /* where the options' help starts; 0: 24 */
	bool weight_period;              /* --weight's default */
	bool all_events;                 /* every event by default, not only the first */
	bool stacks;                     /* writes whole stacks: session_opts.stacks */
	/* 0: one recording (-i or [perf.data]); 2: two, BASE and NEW, both named */
	unsigned nr_inputs;
	/*
	 * With nr_inputs 0: it merges the recordings named (one or more;
	 * none: -i or perf.data) into one output, as step 3 says.
	 */
	bool merges;
	/*
	 * Its sample hook reads only the resolved_sample and its own state
	 * (handoff.h): with --threads, it runs on a second thread. prepare()
	 * may take it back (in.session.sample_anywhere) for options that need
	 * the session in the hook.
	 */
	bool sample_anywhere;
	/*
	 * With --threads, its output is written by a thread of its own
	 * (async-out.h): for output written as the samples are read (script).
	 * Output written at the end in large blocks (fold) goes faster from
	 * the thread that made it: the kernel's copy of bytes another CPU
	 * just wrote costs more than the overlap saves.
	 */
	bool output_thread;
	/* What a binary output is ("a gzipped profile"): not written to a terminal. NULL: text */
	const char *binary_output;
	/* One of its own options; 0, or -1 after error(). NULL: it has none. */
	int (*parse)(void *ctx, int c, const char *arg);
	/* After parsing: build the writer. NULL: nothing to build. */
	void (*prepare)(void *ctx, struct command_opts *o);
	/*
	 * Header read, output open; -1 after error() to stop (a usage error).
	 * With nr_inputs 2 or merges, once per input, in order. NULL: none.
	 */
	int (*start)(void *ctx, const struct session *s, FILE *out);
	void (*sample)(void *ctx, const struct resolved_sample *rs);
	/*
	 * Each record that is not a sample, on the session's thread
	 * (session.h's record hook); NULL: none. Not for commands that merge.
	 */
	void (*record)(void *ctx, const struct pd_event *ev);
	/*
	 * merges: after each recording's samples but the last one's, its
	 * session still there (what is kept of it let go). NULL: none.
	 */
	void (*input_end)(void *ctx, const struct session *s);
	/*
	 * After the last sample, session state still there (merges: s may
	 * be NULL, when the last recording could not be read); -1 when
	 * writing out failed.
	 */
	int (*finish)(void *ctx, const struct session *s, FILE *out);
	/* Free what prepare() and the hooks made; called whenever prepare() may have been. */
	void (*release)(void *ctx);
	/*
	 * merges, several recordings and --threads above 1: the recordings
	 * are read that many at a time, each on its own thread into a part
	 * of the output of its own: part_new() makes one (after prepare()),
	 * part_start() and part_sample() are start() and sample() for it on
	 * the thread reading its recording, and part_join() merges it into
	 * the output and frees it, part by part in the recordings' order, on
	 * the command's thread; part_delete() frees one not merged. The
	 * output must be as if the recordings had been read one after
	 * another. NULL: they are (input_end() is not called for parts).
	 */
	void *(*part_new)(void *ctx);
	int (*part_start)(void *part, const struct session *s);
	void (*part_sample)(void *part, const struct resolved_sample *rs);
	void (*part_join)(void *ctx, void *part);
	void (*part_delete)(void *part);
};

/*
 * An option's percentage: "5", "5%", "2.5" (0 to 100) into *pct; -1 after
 * error() naming option ("--warm-below") when arg is not one.
 */
int command__parse_percent(const char *option, const char *arg, double *pct);

/*
 * c's options in --help's order, its CMD_OPTION_SHARED rows replaced by
 * the shared options they stand for; *nr of them, then CMD_OPTION_END.
 * The caller frees the array (not the strings: the tables').
 */
struct cmd_option *command__options(const struct command *c, size_t *nr);

/*
 * The hidden option "jitsym NAME --man-source" (alone): print command
 * NAME's part of jitsym.1 (man.c's command__man) instead of running it;
 * "jitsym --man-source" makes the whole page (main.c).
 */
#define COMMAND_MAN_SOURCE "--man-source"

/*
 * Write command c (called name) as a subsection of jitsym.1's COMMANDS,
 * in roff: its synopsis, the prose of its --help, its options as .TP
 * items, and a pointer to the section command__man_shared() writes (or
 * its own copy of those options when they differ: nr_inputs 2). Each part
 * is marked for tests/cli/t-man.sh: '.\" command: NAME', '.\" shared: HEADING'.
 */
void command__man(const struct command *c, const char *name, FILE *fp);
/* Write the section of the options for reading the recording, marked '.\" shared-section: HEADING'. */
void command__man_shared(FILE *fp);
/* Write s as one roff text line (escaped: '-', '\\', a leading '.' or '\''). */
void command__man_text(FILE *fp, const char *s);

/* Run command c with state ctx over argv (argv[0]: its name); returns an enum jitsym_exit. */
int command__run(const struct command *c, void *ctx, int argc, char **argv);

#endif
