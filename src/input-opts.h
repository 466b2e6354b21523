/*
 * input-opts: the options every command that reads a recording takes
 * (which file, where symbols come from, which samples to keep), parsed
 * into a struct session_opts.
 */
#ifndef JITSYM_INPUT_OPTS_H
#define JITSYM_INPUT_OPTS_H

#include <getopt.h>

#include "session.h"

/* getopt_long values for the shared long options. */
enum {
	OPT_SYMFS = 1000, OPT_KALLSYMS, OPT_NO_DEMANGLE, OPT_BUILDID_DIR,
	OPT_PID, OPT_TID, OPT_COMM, OPT_EVENT, OPT_JIT_DIR, OPT_PERFMAP_DIR,
	OPT_INPUT_LAST,
};

#define INPUT_LONG_OPTIONS \
	{ "input", required_argument, NULL, 'i' }, \
	{ "output", required_argument, NULL, 'o' }, \
	{ "symfs", required_argument, NULL, OPT_SYMFS }, \
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS }, \
	{ "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR }, \
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE }, \
	{ "pid", required_argument, NULL, OPT_PID }, \
	{ "tid", required_argument, NULL, OPT_TID }, \
	{ "comm", required_argument, NULL, OPT_COMM }, \
	{ "event", required_argument, NULL, OPT_EVENT }, \
	{ "jit-dir", required_argument, NULL, OPT_JIT_DIR }, \
	{ "perfmap-dir", required_argument, NULL, OPT_PERFMAP_DIR }, \
	{ "quiet", no_argument, NULL, 'q' }, \
	{ "verbose", no_argument, NULL, 'v' }, \
	{ "help", no_argument, NULL, 'h' }

#define INPUT_SHORT_OPTIONS "i:o:qvh"

/* The usage lines for the shared options. */
extern const char *const input_opts_usage[];

struct input_opts {
	const char *path;            /* default "perf.data" */
	const char *output;          /* -o FILE; NULL: stdout */
	struct session_opts session;
};

/* A command's own options: 0, or -1 after error() for a bad one. */
typedef int (*cmd_opt_fn)(void *cmd, int c, const char *arg);

void input_opts__init(struct input_opts *o);
void input_opts__release(struct input_opts *o);
/*
 * Handle one getopt_long result if it is a shared option: 1 handled,
 * 0 not a shared option, -1 bad argument (error printed).
 */
int input_opts__parse(struct input_opts *o, int c, const char *arg);
/*
 * Parse a command line: the shared options, the command's own through fn
 * (options getopt_long returns that are not shared ones), and the input
 * file. Returns true to run the command; false when it is done: after
 * --help (*exit_code EXIT_OK) or a usage error (EXIT_USAGE; usage printed).
 */
bool input_opts__parse_argv(struct input_opts *o, int argc, char **argv,
			    const struct option *longopts, const char *const *usage,
			    cmd_opt_fn fn, void *cmd, int *exit_code);

/* Open -o FILE for writing (stdout without -o); NULL after error(). */
FILE *input_opts__open_output(const struct input_opts *o);
/* Flush and close what open_output gave; -1 after error() if writing failed. */
int input_opts__close_output(FILE *out);

/* Print usage (the command's own lines, then the shared ones). */
void print_usage(FILE *fp, const char *const *usage);

#endif
