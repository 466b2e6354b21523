/*
 * minijit: command line and main. See minijit.h and README.md.
 *
 * usage: minijit [--mode=MODE] [--describe=HOW] [--dir DIR] [--perfmap]
 *                [--perfmap-dir DIR] [--debug-info] [SECONDS]
 *
 * Everything minijit says goes to stderr, one "minijit[PID]: ..." line at
 * a time: stdout may be perf's output (perf record -o -).
 *
 * Exit status: 0 done, 1 a system call failed, 2 usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jit.h"
#include "minijit.h"

enum { EXIT_USAGE = 2 };

static const char *const describe_names[] = {
	[0] = "none",
	[MJ_DESCRIBE_JITDUMP] = "jitdump",
	[MJ_DESCRIBE_PERFMAP] = "perfmap",
	[MJ_DESCRIBE_JITDUMP | MJ_DESCRIBE_PERFMAP] = "both",
};

static const char usage_line[] =
	"usage: minijit [--mode=MODE] [--describe=HOW] [--dir DIR] [--perfmap]\n"
	"               [--perfmap-dir DIR] [--debug-info] [SECONDS]\n";

static const char usage_body[] =
	"\n"
	"Generate x86-64 functions at run time, describe them, run them for\n"
	"SECONDS (default 1, fractions allowed), under \"perf record -k 1 -g\".\n"
	"\n"
	"  --mode=MODE         what to generate and run (default basic)\n"
	"  --describe=HOW      jitdump (default), perfmap, both or none\n"
	"  --dir DIR           write jit-PID.dump in DIR (default .)\n"
	"  --perfmap           also write a perf map (--describe=both by default)\n"
	"  --perfmap-dir DIR   write perf-PID.map in DIR (default /tmp)\n"
	"  --debug-info        write JIT_CODE_DEBUG_INFO records (minijit/NAME.mj,\n"
	"                      one line per 16 bytes)\n"
	"  -h, --help          show this help\n"
	"\n"
	"modes:\n";

static const struct option long_options[] = {
	{ "mode", required_argument, NULL, 'm' },
	{ "describe", required_argument, NULL, 'D' },
	{ "dir", required_argument, NULL, 'd' },
	{ "perfmap", no_argument, NULL, 'P' },
	{ "perfmap-dir", required_argument, NULL, 'p' },
	{ "debug-info", no_argument, NULL, 'g' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
	const struct mj_mode *m;

	fputs(usage_line, out);
	fputs(usage_body, out);
	for (m = mj_modes; m->name; m++)
		fprintf(out, "  %-10s %s\n", m->name, m->help);
}

static int usage_error(const char *fmt, const char *arg)
{
	fputs("minijit: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n", stderr);
	fputs(usage_line, stderr);
	return EXIT_USAGE;
}

static const struct mj_mode *find_mode(const char *name)
{
	const struct mj_mode *m;

	for (m = mj_modes; m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

static int find_describe(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(describe_names) / sizeof(describe_names[0]); i++)
		if (!strcmp(describe_names[i], name))
			return (int)i;
	return -1;
}

static int parse_seconds(const char *arg, double *secs)
{
	char *end;

	errno = 0;
	*secs = strtod(arg, &end);
	if (errno || end == arg || *end || !(*secs > 0 && *secs <= 3600))
		return -1;
	return 0;
}

/* Fill O from the command line. Returns 0, EXIT_USAGE, or -1 for --help. */
static int parse_args(int argc, char **argv, struct mj_opts *o)
{
	int c, how, also_perfmap = 0;

	*o = (struct mj_opts){ .mode = &mj_modes[0], .describe = MJ_DESCRIBE_JITDUMP,
			       .dir = ".", .perfmap_dir = "/tmp", .seconds = 1.0 };
	while ((c = getopt_long(argc, argv, "h", long_options, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (!(o->mode = find_mode(optarg)))
				return usage_error("unknown mode '%s'", optarg);
			break;
		case 'D':
			if ((how = find_describe(optarg)) < 0)
				return usage_error("unknown --describe '%s'", optarg);
			o->describe = (unsigned int)how;
			break;
		case 'd': o->dir = optarg; break;
		case 'P': also_perfmap = 1; break;
		case 'p': o->perfmap_dir = optarg; break;
		case 'g': o->debug_info = true; break;
		case 'h': return -1;
		default: return usage_error("%s", "bad option");
		}
	}
	if (also_perfmap)
		o->describe |= MJ_DESCRIBE_PERFMAP;
	if (argc - optind > 1)
		return usage_error("too many arguments, from '%s'", argv[optind + 1]);
	if (optind < argc && parse_seconds(argv[optind], &o->seconds))
		return usage_error("bad SECONDS '%s' (want 0 < SECONDS <= 3600)",
				   argv[optind]);
	return 0;
}

/* Static: the function table holds the call cells JIT code reads. */
static struct mj_jit jit;

int main(int argc, char **argv)
{
	struct mj_opts o;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret < 0) {
		usage(stdout);
		return 0;
	}
	if (ret)
		return ret;
	mj_modes_init();
	mj_jit_init(&jit, &o);
	mj_say("mode=%s describe=%s seconds=%g%s", o.mode->name,
	       describe_names[o.describe], o.seconds,
	       o.debug_info ? " debug-info" : "");
	ret = mj_jit_open(&jit) ? -1 : o.mode->run(&jit, &o);
	mj_print_funcs(&jit);
	if (jit.cut) {
		/* As if killed while writing: no JIT_CODE_CLOSE, nothing flushed or freed. */
		mj_say("exiting in the middle of a record, without JIT_CODE_CLOSE");
		_exit(ret ? 1 : 0);
	}
	if (mj_jit_close(&jit))
		ret = -1;
	mj_say("%s", ret ? "failed" : "done");
	return ret ? 1 : 0;
}
