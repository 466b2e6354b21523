#include "common/common.h"
#include "command/cmds.h"
#include "command/command.h"
#include "output/out-flamegraph.h"

static const char *const flamegraph_usage[] = {
	"usage: jitsym flamegraph [options] [perf.data...]",
	"",
	"Write an interactive SVG flame graph of the stacks 'jitsym fold' writes:",
	"click to zoom, Ctrl-F to search; frames coloured by kernel, native, JIT",
	"tier (V8 JS:* optimised, JS:+ Maglev, JS:^ baseline, JS:~ interpreted),",
	"perf map and unknown. Self-contained: opens in any browser, offline.",
	"The root is at the top, callees below their callers, so the first",
	"screenful shows the root and the busiest frames however deep the",
	"deepest stack goes; scroll down for the deep ones.",
	"",
	"Several recordings make one graph of their stacks summed, as fold's.",
	"",
	NULL,
};

enum { OPT_TITLE = OPT_COMMAND_LAST, OPT_WIDTH, OPT_MINWIDTH, OPT_ROOT_AT_BOTTOM };

static const struct cmd_option flamegraph_options[] = {
	CMD_OPTION_SHARED(CMD_INCLUDE_PID),
	CMD_OPTION_SHARED(CMD_INCLUDE_TID),
	CMD_OPTION_SHARED(CMD_NO_KERNEL),
	CMD_OPTION_SHARED(CMD_WEIGHT),
	CMD_OPTION_SHARED(CMD_OFF_CPU),
	{ .name = "title", .id = OPT_TITLE, .arg = " TEXT",
	  .help = "the heading (default: Flame Graph)" },
	{ .name = "width", .id = OPT_WIDTH, .arg = " PX",
	  .help = "image width in pixels (default: 1200)" },
	{ .name = "minwidth", .id = OPT_MINWIDTH, .arg = " PX",
	  .help = "leave out frames narrower than PX pixels, or than\n"
		  "PX% of all samples with a '%' (default: 0.1)" },
	{ .name = "root-at-bottom", .id = OPT_ROOT_AT_BOTTOM,
	  .help = "the root at the bottom, callees above their callers,\n"
		  "as flamegraph.pl draws it (a deep stack then makes\n"
		  "the image open on its tip: scroll down to the root)" },
	CMD_OPTION_END,
};

struct flamegraph_cmd {
	struct flamegraph_opts opts;
	struct flamegraph *fg;
};

static int parse_width(const char *arg, unsigned *width)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (end == arg || *end || errno || *arg == '-' ||
	    v < FLAMEGRAPH_MIN_WIDTH || v > FLAMEGRAPH_MAX_WIDTH)
		return error("--width takes pixels from %d to %d, not '%s'",
			     FLAMEGRAPH_MIN_WIDTH, FLAMEGRAPH_MAX_WIDTH, arg);
	*width = (unsigned)v;
	return 0;
}

static int flamegraph_opt(void *ctx, int c, const char *arg)
{
	struct flamegraph_opts *fg = &((struct flamegraph_cmd *)ctx)->opts;

	switch (c) {
	case OPT_TITLE:    fg->title = arg; return 0;
	case OPT_WIDTH:    return parse_width(arg, &fg->width);
	case OPT_MINWIDTH: return flamegraph__parse_minwidth(fg, arg);
	case OPT_ROOT_AT_BOTTOM: fg->root_at_bottom = true; return 0;
	default:           BUG("flamegraph option %d", c);
	}
}

static void flamegraph_prepare(void *ctx, struct command_opts *o)
{
	struct flamegraph_cmd *cmd = ctx;

	cmd->opts.stack = o->stack;
	cmd->opts.offcpu = o->in.session.offcpu;
	cmd->fg = flamegraph__new(&cmd->opts);
}

/* Each recording's, before its samples: those of several are merged. */
static int flamegraph_start(void *ctx, const struct session *s, FILE *out)
{
	struct flamegraph_cmd *cmd = ctx;

	(void)s;
	(void)out;
	flamegraph__new_recording(cmd->fg);
	return 0;
}

static void flamegraph_sample(void *ctx, const struct resolved_sample *rs)
{
	struct flamegraph_cmd *cmd = ctx;

	flamegraph__add(cmd->fg, rs);
}

static int flamegraph_finish(void *ctx, const struct session *s, FILE *out)
{
	struct flamegraph_cmd *cmd = ctx;

	(void)s;
	return flamegraph__write(cmd->fg, out);
}

static void flamegraph_release(void *ctx)
{
	struct flamegraph_cmd *cmd = ctx;

	flamegraph__delete(cmd->fg);
}

/* The stacks of fold: the first event unless --event. */
static const struct command flamegraph_command = {
	.stacks = true,
	.sample_anywhere = true,
	.merges = true,
	.usage = flamegraph_usage,
	.options = flamegraph_options,
	.weight_period = false,            /* count samples */
	.parse = flamegraph_opt,
	.prepare = flamegraph_prepare,
	.start = flamegraph_start,
	.sample = flamegraph_sample,
	.finish = flamegraph_finish,
	.release = flamegraph_release,
};

int cmd_flamegraph(int argc, char **argv)
{
	struct flamegraph_cmd cmd = {
		.opts = { .width = FLAMEGRAPH_DEFAULT_WIDTH, .minwidth = 0.1 },
	};

	return command__run(&flamegraph_command, &cmd, argc, argv);
}
