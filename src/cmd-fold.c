#include "common.h"
#include "cmds.h"
#include "input-opts.h"
#include "out-fold.h"

static const char *const fold_usage[] = {
	"usage: jitsym fold [options] [perf.data]",
	"",
	"Write one line per distinct call stack, 'comm;outer;...;leaf COUNT',",
	"the input format of flamegraph.pl, inferno and speedscope.",
	"",
	"  -o, --output FILE     write to FILE (default: stdout)",
	"      --include-pid     append -PID to the process name",
	"      --include-tid     append -PID/TID to the process name",
	"      --annotate        suffix kernel frames _[k] and JIT frames _[j]",
	"      --no-kernel       leave kernel frames out",
	"      --weight=period   sum sample periods instead of counting samples",
	NULL,
};

enum { OPT_INCLUDE_PID = OPT_INPUT_LAST, OPT_INCLUDE_TID, OPT_ANNOTATE,
       OPT_NO_KERNEL, OPT_WEIGHT };

static const struct option fold_options[] = {
	INPUT_LONG_OPTIONS,
	{ "output", required_argument, NULL, 'o' },
	{ "include-pid", no_argument, NULL, OPT_INCLUDE_PID },
	{ "include-tid", no_argument, NULL, OPT_INCLUDE_TID },
	{ "annotate", no_argument, NULL, OPT_ANNOTATE },
	{ "no-kernel", no_argument, NULL, OPT_NO_KERNEL },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ NULL, 0, NULL, 0 },
};

struct fold_cmd {
	struct input_opts in;
	struct fold_opts fold;
	const char *output;
};

/* 0 to run, 1 for a usage error, -2 for --help. */
static int parse_fold(struct fold_cmd *cmd, int argc, char **argv)
{
	int c, ret;

	while ((c = getopt_long(argc, argv, INPUT_SHORT_OPTIONS "o:", fold_options, NULL)) != -1) {
		ret = input_opts__parse(&cmd->in, c, optarg);
		if (ret < 0)
			return 1;
		if (ret > 0)
			continue;
		switch (c) {
		case 'h': return -2;
		case 'o': cmd->output = optarg; break;
		case OPT_INCLUDE_PID: cmd->fold.include_pid = true; break;
		case OPT_INCLUDE_TID: cmd->fold.include_tid = true; break;
		case OPT_ANNOTATE: cmd->fold.annotate = true; break;
		case OPT_NO_KERNEL: cmd->fold.no_kernel = true; break;
		case OPT_WEIGHT:
			if (!strcmp(optarg, "period"))
				cmd->fold.weight_period = true;
			else if (strcmp(optarg, "count") && strcmp(optarg, "samples"))
				return error("--weight takes 'period' or 'count', not '%s'", optarg), 1;
			break;
		default:
			return 1;
		}
	}
	return input_opts__positional(&cmd->in, argc, argv, optind) ? 1 : 0;
}

static void fold_sample(void *ctx, const struct resolved_sample *rs)
{
	folder__add(ctx, rs);
}

int cmd_fold(int argc, char **argv)
{
	struct fold_cmd cmd = { 0 };
	struct session_hooks hooks = { .sample = fold_sample };
	struct folder *folder;
	FILE *out = stdout;
	int ret;

	input_opts__init(&cmd.in);
	cmd.in.session.filter.first_event_only = true;
	ret = parse_fold(&cmd, argc, argv);
	if (ret) {
		print_usage(ret == -2 ? stdout : stderr, fold_usage);
		input_opts__release(&cmd.in);
		return ret == -2 ? EXIT_OK : EXIT_USAGE;
	}
	folder = folder__new(&cmd.fold);
	hooks.ctx = folder;
	ret = session__run(cmd.in.path, &cmd.in.session, &hooks);
	if (cmd.output && !(out = fopen(cmd.output, "w"))) {
		error("cannot open '%s' for writing: %s", cmd.output, strerror(errno));
		ret = -1;
	} else if (folder__write(folder, out)) {
		ret = -1;
	}
	if (out && out != stdout)
		fclose(out);
	folder__delete(folder);
	input_opts__release(&cmd.in);
	return ret ? EXIT_INPUT : EXIT_OK;
}
