#include "common/common.h"
#include "command/cmds.h"
#include "command/command.h"
#include "output/out-fold.h"

static const char *const fold_usage[] = {
	"usage: jitsym fold [options] [perf.data...]",
	"",
	"Write one line per distinct call stack, 'comm;outer;...;leaf COUNT',",
	"the input format of flamegraph.pl, inferno and speedscope.",
	"",
	"Several recordings (a fleet's, a day's) make one profile: their stacks",
	"summed, each recording read with its own jitdumps and perf maps.",
	"",
	NULL,
};

enum { OPT_ANNOTATE = OPT_COMMAND_LAST, OPT_UNKNOWN };

static const struct cmd_option fold_options[] = {
	CMD_OPTION_SHARED(CMD_INCLUDE_PID),
	CMD_OPTION_SHARED(CMD_INCLUDE_TID),
	{ .name = "annotate", .id = OPT_ANNOTATE,
	  .help = "suffix inlined functions' frames _[i], kernel frames _[k]\nand JIT frames _[j]" },
	{ .name = "unknown", .id = OPT_UNKNOWN, .arg = "=dso|unknown",
	  .help = "\nname an unresolved frame in a known file after it,\n"
		  "[libc.so.6], as stackcollapse-perf.pl does, or\n"
		  "[unknown] (the default)" },
	CMD_OPTION_SHARED(CMD_NO_KERNEL),
	CMD_OPTION_SHARED(CMD_WEIGHT),
	CMD_OPTION_SHARED(CMD_OFF_CPU),
	CMD_OPTION_END,
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

/* Each recording's, before its samples: those of several are merged. */
static int fold_start(void *ctx, const struct session *s, FILE *out)
{
	struct fold_cmd *cmd = ctx;

	(void)s;
	(void)out;
	folder__new_recording(cmd->folder);
	return 0;
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

/* A recording's part of the output, read on a thread of its own (command.h). */
static void *fold_part_new(void *ctx)
{
	struct fold_cmd *cmd = ctx;

	return folder__new(&cmd->opts);
}

static int fold_part_start(void *part, const struct session *s)
{
	(void)s;
	folder__new_recording(part);
	return 0;
}

static void fold_part_sample(void *part, const struct resolved_sample *rs)
{
	folder__add(part, rs);
}

static void fold_part_join(void *ctx, void *part)
{
	struct fold_cmd *cmd = ctx;

	folder__merge(cmd->folder, part);
	folder__delete(part);
}

static void fold_part_delete(void *part)
{
	folder__delete(part);
}

static void fold_release(void *ctx)
{
	struct fold_cmd *cmd = ctx;

	folder__delete(cmd->folder);
}

static const struct command fold_command = {
	.stacks = true,
	.sample_anywhere = true,
	.merges = true,
	.usage = fold_usage,
	.options = fold_options,
	.weight_period = false,            /* count samples */
	.parse = fold_opt,
	.prepare = fold_prepare,
	.start = fold_start,
	.sample = fold_sample,
	.finish = fold_finish,
	.release = fold_release,
	.part_new = fold_part_new,
	.part_start = fold_part_start,
	.part_sample = fold_part_sample,
	.part_join = fold_part_join,
	.part_delete = fold_part_delete,
};

int cmd_fold(int argc, char **argv)
{
	struct fold_cmd cmd = { 0 };

	return command__run(&fold_command, &cmd, argc, argv);
}
