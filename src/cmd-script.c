#include "common.h"
#include "cmds.h"
#include "input-opts.h"
#include "out-script.h"

static const char *const script_usage[] = {
	"usage: jitsym script [options] [perf.data]",
	"",
	"Write each sample as perf script does by default, sorted by time:",
	"a header line, then one line per frame 'ADDR SYMBOL+OFFSET (DSO)'.",
	"",
	"  -o, --output FILE     write to FILE (default: stdout)",
	"      --header          first print what the recording's header says",
	NULL,
};

enum { OPT_HEADER = OPT_INPUT_LAST };

static const struct option script_options[] = {
	INPUT_LONG_OPTIONS,
	{ "output", required_argument, NULL, 'o' },
	{ "header", no_argument, NULL, OPT_HEADER },
	{ NULL, 0, NULL, 0 },
};

struct script_cmd {
	struct input_opts in;
	const char *output;
	bool header;
	FILE *out;
};

/* 0 to run, 1 for a usage error, -2 for --help. */
static int parse_script(struct script_cmd *cmd, int argc, char **argv)
{
	int c, ret;

	while ((c = getopt_long(argc, argv, INPUT_SHORT_OPTIONS "o:", script_options, NULL)) != -1) {
		ret = input_opts__parse(&cmd->in, c, optarg);
		if (ret < 0)
			return 1;
		if (ret > 0)
			continue;
		switch (c) {
		case 'h': return -2;
		case 'o': cmd->output = optarg; break;
		case OPT_HEADER: cmd->header = true; break;
		default: return 1;
		}
	}
	return input_opts__positional(&cmd->in, argc, argv, optind) ? 1 : 0;
}

static void script_start(void *ctx, const struct session *s)
{
	struct script_cmd *cmd = ctx;

	if (cmd->header)
		script__print_header(cmd->out, session__reader(s));
}

static void script_sample(void *ctx, const struct resolved_sample *rs)
{
	struct script_cmd *cmd = ctx;

	script__print_sample(cmd->out, rs);
}

int cmd_script(int argc, char **argv)
{
	struct script_cmd cmd = { .out = stdout };
	struct session_hooks hooks = { script_start, script_sample, NULL, &cmd };
	int ret;

	input_opts__init(&cmd.in);
	ret = parse_script(&cmd, argc, argv);
	if (ret) {
		print_usage(ret == -2 ? stdout : stderr, script_usage);
		input_opts__release(&cmd.in);
		return ret == -2 ? EXIT_OK : EXIT_USAGE;
	}
	if (cmd.output && !(cmd.out = fopen(cmd.output, "w"))) {
		input_opts__release(&cmd.in);
		error("cannot open '%s' for writing: %s", cmd.output, strerror(errno));
		return EXIT_USAGE;
	}
	ret = session__run(cmd.in.path, &cmd.in.session, &hooks);
	if (fflush(cmd.out) || ferror(cmd.out))
		ret = error("cannot write output: %s", strerror(errno));
	if (cmd.out != stdout)
		fclose(cmd.out);
	input_opts__release(&cmd.in);
	return ret ? EXIT_INPUT : EXIT_OK;
}
