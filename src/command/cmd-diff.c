#include "common/common.h"
#include "command/cmds.h"
#include "command/command.h"
#include "output/diff.h"
#include "output/out-flamegraph.h"

static const char *const diff_usage[] = {
	"usage: jitsym diff [options] BASE.data NEW.data",
	"",
	"Compare two recordings of the same program: what grew and what shrank",
	"from BASE to NEW. JIT frames are matched by function, whatever their tier",
	"or address in each run (V8's JS:*/~/^/+ markers and LazyCompile:-style",
	"prefixes, .NET's [Tier0]-style suffixes, heap addresses and pids in JIT",
	"names are left out), processes by name.",
	"",
	NULL,
};

static const char *const diff_usage_tail[] = {
	"",
	"Both recordings are read with the same options (--pid, --comm, --event",
	"and the rest apply to each).",
	NULL,
};

enum {
	OPT_FORMAT = OPT_COMMAND_LAST, OPT_ABSOLUTE, OPT_NO_NORMALIZE, OPT_TOP,
	OPT_TITLE, OPT_WIDTH, OPT_MINWIDTH,
};

static const struct cmd_option diff_options[] = {
	{ .name = "format", .id = OPT_FORMAT, .arg = " folded",
	  .help = "'stack BASE NEW' per distinct stack of either run,\n"
		  "raw weights, sorted as fold sorts: difffolded.pl's\n"
		  "output, for flamegraph.pl (the default)" },
	{ .more = true, .arg = " table",
	  .help = "the functions that grew and shrank most, by self\n"
		  "and by total weight" },
	{ .more = true, .arg = " svg",
	  .help = "NEW's flame graph, frames red where their self\n"
		  "weight grew and blue where it shrank" },
	{ .name = "absolute", .id = OPT_ABSOLUTE,
	  .help = "table and colours by raw weight; default: by\n"
		  "shares of each run's total" },
	{ .name = "no-normalize", .id = OPT_NO_NORMALIZE,
	  .help = "match JIT frames by their names as written" },
	{ .name = "top", .id = OPT_TOP, .arg = " N",
	  .help = "the table's rows per ranking (default: 10)" },
	CMD_OPTION_SHARED(CMD_NO_KERNEL),
	CMD_OPTION_SHARED(CMD_WEIGHT),
	{ .name = "title", .id = OPT_TITLE, .arg = " TEXT",
	  .help = "svg: the heading (default: Differential Flame Graph)" },
	{ .name = "width", .id = OPT_WIDTH, .arg = " PX",
	  .help = "svg: image width in pixels (default: 1200)" },
	{ .name = "minwidth", .id = OPT_MINWIDTH, .arg = " PX",
	  .help = "svg: leave out frames narrower than PX pixels, or\n"
		  "than PX% of NEW's samples with a '%' (default: 0.1)" },
	CMD_OPTION_END,
};

struct diff_cmd {
	struct diff_opts opts;
	enum diff_format format;
	struct differ *differ;
	unsigned run;               /* start hooks seen */
};

static int parse_uint(const char *option, const char *arg, unsigned lo, unsigned hi,
		      unsigned *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (end == arg || *end || errno || *arg == '-' || n < lo || n > hi)
		return error("%s takes a number from %u to %u, not '%s'", option, lo, hi, arg);
	*v = (unsigned)n;
	return 0;
}

static int parse_format(const char *arg, enum diff_format *f)
{
	if (!strcmp(arg, "folded"))
		*f = DIFF_FOLDED;
	else if (!strcmp(arg, "table"))
		*f = DIFF_TABLE;
	else if (!strcmp(arg, "svg"))
		*f = DIFF_SVG;
	else
		return error("--format takes 'folded', 'table' or 'svg', not '%s'", arg);
	return 0;
}

static int diff_opt(void *ctx, int c, const char *arg)
{
	struct diff_cmd *cmd = ctx;
	struct flamegraph_opts fo = { 0 };

	switch (c) {
	case OPT_FORMAT:       return parse_format(arg, &cmd->format);
	case OPT_ABSOLUTE:     cmd->opts.absolute = true; return 0;
	case OPT_NO_NORMALIZE: cmd->opts.normalize = false; return 0;
	case OPT_TOP:          return parse_uint("--top", arg, 1, 1000000, &cmd->opts.top);
	case OPT_TITLE:        cmd->opts.title = arg; return 0;
	case OPT_WIDTH:
		return parse_uint("--width", arg, FLAMEGRAPH_MIN_WIDTH, FLAMEGRAPH_MAX_WIDTH,
				  &cmd->opts.width);
	case OPT_MINWIDTH:
		if (flamegraph__parse_minwidth(&fo, arg))
			return -1;
		cmd->opts.minwidth = fo.minwidth;
		cmd->opts.minwidth_pct = fo.minwidth_pct;
		return 0;
	default:
		BUG("diff option %d", c);
	}
}

static void diff_prepare(void *ctx, struct command_opts *o)
{
	struct diff_cmd *cmd = ctx;

	cmd->opts.stack = o->stack;
	cmd->differ = differ__new(&cmd->opts);
}

/* Once per recording, BASE's then NEW's, before their samples. */
static int diff_start(void *ctx, const struct session *s, FILE *out)
{
	struct diff_cmd *cmd = ctx;

	(void)s;
	(void)out;
	differ__set_run(cmd->differ, cmd->run++);
	return 0;
}

static void diff_sample(void *ctx, const struct resolved_sample *rs)
{
	struct diff_cmd *cmd = ctx;

	differ__add(cmd->differ, rs);
}

static int diff_finish(void *ctx, const struct session *s, FILE *out)
{
	struct diff_cmd *cmd = ctx;

	(void)s;
	return differ__write(cmd->differ, cmd->format, out);
}

static void diff_release(void *ctx)
{
	struct diff_cmd *cmd = ctx;

	differ__delete(cmd->differ);
}

/* The stacks of fold, of two recordings. */
static const struct command diff_command = {
	.stacks = true,
	.nr_inputs = 2,
	.sample_anywhere = true,
	.usage = diff_usage,
	.usage_tail = diff_usage_tail,
	.options = diff_options,
	.weight_period = false,            /* count samples */
	.parse = diff_opt,
	.prepare = diff_prepare,
	.start = diff_start,
	.sample = diff_sample,
	.finish = diff_finish,
	.release = diff_release,
};

int cmd_diff(int argc, char **argv)
{
	struct diff_cmd cmd = {
		.opts = { .normalize = true, .top = 10, .minwidth = 0.1 },
		.format = DIFF_FOLDED,
	};

	return command__run(&diff_command, &cmd, argc, argv);
}
