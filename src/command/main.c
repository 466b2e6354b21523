/*
 * jitsym: symbolized profiles of JIT-compiled code from perf.data.
 *
 * main() dispatches to a subcommand (see cmds.h) and returns its result,
 * an enum jitsym_exit (msg.h): 0 ok, 1 usage error, 2 unreadable or
 * invalid input, 3 output that cannot be written; 128 + N when signal N
 * ends it (outfile.h).
 */
#include "common/common.h"
#include "command/cmds.h"
#include "command/command.h"

#include <getopt.h>

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
};

static const struct cmd commands[] = {
	{ "fold", cmd_fold, "folded stacks for flamegraph.pl, inferno, speedscope" },
	{ "flamegraph", cmd_flamegraph, "an interactive SVG flame graph, coloured by frame kind" },
	{ "script", cmd_script, "samples as perf script prints them" },
	{ "report", cmd_report, "flat profile: children and self per symbol, source lines" },
	{ "tiers", cmd_tiers, "time per execution tier (interpreter, JIT tiers, GC) over time" },
	{ "timeline", cmd_timeline, "samples over time per thread: Firefox Profiler, speedscope" },
	{ "diff", cmd_diff, "what grew and shrank between two recordings (folded, table, SVG)" },
	{ "sources", cmd_sources, "per process: the JIT files used, and who resolved its frames" },
	{ "pprof", cmd_pprof, "a gzipped pprof profile for go tool pprof, Pyroscope, Parca" },
	{ "archive", cmd_archive, "the recording and what reading it needs, in one file" },
};

static void main_usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: jitsym [--version] [--help] COMMAND [options] [perf.data]\n\n"
		"Commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(fp, "\n'jitsym COMMAND --help' describes a command's options.\n"
		"Exit status: 0 ok, 1 usage error, 2 unreadable or invalid input,\n"
		"3 the output (-o FILE or standard output) cannot be written.\n");
}

/* The COMMANDS overview of jitsym.1: a .TP item per command. */
static void man_command_list(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		printf(".TP\n\\fB%s\\fR\n", commands[i].name);
		command__man_text(stdout, commands[i].help);
	}
}

/* Each command's part of jitsym.1 (its own COMMAND_MAN_SOURCE), then the shared options. */
static int man_commands(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		char *argv[] = { (char *)commands[i].name, (char *)COMMAND_MAN_SOURCE, NULL };

		if (commands[i].fn(2, argv) != EXIT_OK)
			return EXIT_USAGE;
	}
	command__man_shared(stdout);
	return EXIT_OK;
}

/* A line of the prose, "@VERSION@" in it as this jitsym's version. */
static void man_prose_line(const char *line)
{
	const char *at;

	while ((at = strstr(line, "@VERSION@"))) {
		printf("%.*s%s", (int)(at - line), line, PACKAGE_VERSION);
		line = at + strlen("@VERSION@");
	}
	fputs(line, stdout);
}

/*
 * jitsym --man-source: jitsym.1 on stdout, from doc/jitsym.1.prose on
 * stdin: its lines @COMMAND_LIST@ and @COMMANDS@ replaced by the commands
 * and their options, @VERSION@ by the version.
 */
static int man_source(void)
{
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		if (!strcmp(line, "@COMMAND_LIST@\n"))
			man_command_list();
		else if (!strcmp(line, "@COMMANDS@\n") && man_commands())
			return EXIT_USAGE;
		else if (strcmp(line, "@COMMANDS@\n"))
			man_prose_line(line);
	}
	return ferror(stdin) || fflush(stdout) || ferror(stdout) ? EXIT_OUTPUT : EXIT_OK;
}

int main(int argc, char **argv)
{
	size_t i;
	int ret;

	if (argc < 2) {
		main_usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		main_usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], COMMAND_MAN_SOURCE) && argc == 2)
		return man_source();
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("jitsym %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		optind = 1;
		ret = commands[i].fn(argc - 1, argv + 1);
		msg_summary();
		return ret;
	}
	error("'%s' is not a jitsym command; see 'jitsym --help'", argv[1]);
	return EXIT_USAGE;
}
