#include "common/common.h"
#include "command/cmds.h"
#include "command/command.h"
#include "output/out-fold.h"

static const char *const fold_usage[] = {
	"usage: jitsym fold [options] [perf.data]",
	"",
	"Write one line per distinct call stack, 'comm;outer;...;leaf COUNT',",
	"the input format of flamegraph.pl, inferno and speedscope.",
	"",
	"      --include-pid     append -PID to the process name",
	"      --include-tid     append -PID/TID to the process name",
	"      --annotate        suffix kernel frames _[k] and JIT frames _[j]",
	"      --unknown=dso|unknown",
	"                        name an unresolved frame in a known file after it,",
	"                        [libc.so.6], as stackcollapse-perf.pl does, or",
	"                        [unknown] (the default)",
	"      --no-kernel       leave kernel frames out",
	"      --weight=period   sum sample periods instead of counting samples",
	CMD_OFF_CPU_USAGE,
	NULL,
};

enum { OPT_ANNOTATE = OPT_COMMAND_LAST, OPT_UNKNOWN };

static const struct option fold_options[] = {
	{ "annotate", no_argument, NULL, OPT_ANNOTATE },
	{ "unknown", required_argument, NULL, OPT_UNKNOWN },
	{ NULL, 0, NULL, 0 },
};

struct fold_cmd {
	struct fold_opts opts;
	struct folder *folder;
};

static int fold_opt(void *ctx, int c, const char *arg)
{
	struct fold_cmd *cmd = ctx;

	if (c == OPT_UNKNOWN) {
		if (strcmp(arg, "dso") && strcmp(arg, "unknown"))
			return error("--unknown takes dso or unknown, not '%s'", arg);
		cmd->opts.unknown_dso = !strcmp(arg, "dso");
		return 0;
	}
	if (c != OPT_ANNOTATE)
		BUG("fold option %d", c);
	cmd->opts.annotate = true;
	return 0;
}

static void fold_prepare(void *ctx, struct command_opts *o)
{
	struct fold_cmd *cmd = ctx;

	cmd->opts.stack = o->stack;
	cmd->folder = folder__new(&cmd->opts);
}

static void fold_sample(void *ctx, const struct resolved_sample *rs)
{
	struct fold_cmd *cmd = ctx;

	folder__add(cmd->folder, rs);
}

static int fold_finish(void *ctx, const struct session *s, FILE *out)
{
	struct fold_cmd *cmd = ctx;

	(void)s;
	return folder__write(cmd->folder, out);
}

static void fold_release(void *ctx)
{
	struct fold_cmd *cmd = ctx;

	folder__delete(cmd->folder);
}

static const struct command fold_command = {
	.stacks = true,
	.sample_anywhere = true,
	.usage = fold_usage,
	.options = fold_options,
	.shared = CMD_WEIGHT | CMD_INCLUDE_PID | CMD_INCLUDE_TID | CMD_NO_KERNEL |
		  CMD_OFF_CPU,
	.weight_period = false,            /* count samples */
	.parse = fold_opt,
	.prepare = fold_prepare,
	.sample = fold_sample,
	.finish = fold_finish,
	.release = fold_release,
};

int cmd_fold(int argc, char **argv)
{
	struct fold_cmd cmd = { 0 };

	return command__run(&fold_command, &cmd, argc, argv);
}
