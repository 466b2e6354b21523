/*
 * jitsym tiers: the share of time each execution tier (interpreter,
 * baseline JIT, optimizing JIT, stubs, the runtime's own code, native,
 * kernel) takes per process over time, and when the process warmed up.
 */
#include "common/common.h"

#include <ctype.h>

#include "command/cmds.h"
#include "command/command.h"
#include "aggregate/tiers.h"

static const char *const tiers_usage[] = {
	"usage: jitsym tiers [options] [perf.data]",
	"",
	"Attribute each sample by its leaf frame to an execution tier (interpreted,",
	"baseline JIT, optimizing JIT with the runtime's tier names, JIT stubs and",
	"builtins, runtime native code, native, kernel, unknown) and show the",
	"shares per process over time, with the point after which the interpreted",
	"share stays low (warm-up); a partial last interval (less than half the",
	"median interval's samples: the runtime's shutdown) does not count.",
	"\"interpreted innermost\": the samples whose innermost frame of program code",
	"(the leaf, or the nearest interpreted or JIT caller of its stubs, builtins",
	"and native code) is interpreted; outer frames (node's top-level script and",
	"module loader) do not count.",
	"",
	NULL,
};

enum { OPT_BY = OPT_COMMAND_LAST, OPT_INTERVAL, OPT_WARM_BELOW, OPT_FORMAT };

static const struct cmd_option tiers_options[] = {
	{ .name = "by", .id = OPT_BY, .arg = " process|thread",
	  .help = "one group per process (default) or per thread" },
	{ .name = "interval", .id = OPT_INTERVAL, .arg = " DURATION",
	  .help = "interval length: 100ms, 2s, 500us (bare number:\n"
		  "seconds); default: about 50 over the recording" },
	{ .name = "warm-below", .id = OPT_WARM_BELOW, .arg = " PCT",
	  .help = "warm-up threshold of the interpreted share (5%)" },
	{ .name = "format", .id = OPT_FORMAT, .arg = " table|csv|json|svg",
	  .help = "the output format (table); svg: a\n"
		  "stacked-area chart of the shares per group" },
	CMD_OPTION_SHARED(CMD_WEIGHT),
	CMD_OPTION_END,
};

typedef int (*tiers_writer)(const struct tiers_view *v, FILE *out);

static const struct {
	const char *name;
	tiers_writer write;
} formats[] = {
	{ "table", tiers__write_table },
	{ "csv", tiers__write_csv },
	{ "json", tiers__write_json },
	{ "svg", tiers__write_svg },
};

struct tiers_cmd {
	struct tiers_opts opts;
	tiers_writer write;
	struct tiers *tiers;
};

/* "100ms", "2s", "500us", "1.5" (seconds): ns, at least 1 us, rounded to whole us */
static int parse_interval(const char *arg, uint64_t *ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
	};
	char *end;
	double v;
	size_t i;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || errno || !(v > 0) ||
	    (!isdigit((unsigned char)arg[0]) && arg[0] != '.'))
		goto bad;
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(end, units[i].unit)) {
			v *= units[i].ns;
			if (v < 1000 || v > 1e18)
				break;
			*ns = (uint64_t)(v / 1000 + 0.5) * 1000;   /* whole us: exact in outputs */
			return 0;
		}
	}
bad:
	return error("--interval takes a duration from 1us to 1e9s (100ms, 2s, 500us), not '%s'", arg);
}

static int parse_warm(const char *arg, double *frac)
{
	double pct;

	if (command__parse_percent("--warm-below", arg, &pct))
		return -1;
	*frac = pct / 100.0;
	return 0;
}

static int parse_format(const char *arg, tiers_writer *w)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(formats); i++) {
		if (!strcmp(arg, formats[i].name)) {
			*w = formats[i].write;
			return 0;
		}
	}
	return error("--format takes table, csv, json or svg, not '%s'", arg);
}

static int tiers_opt(void *ctx, int c, const char *arg)
{
	struct tiers_cmd *cmd = ctx;

	switch (c) {
	case OPT_BY:
		if (strcmp(arg, "process") && strcmp(arg, "thread"))
			return error("--by takes process or thread, not '%s'", arg);
		cmd->opts.by_thread = !strcmp(arg, "thread");
		return 0;
	case OPT_INTERVAL:
		return parse_interval(arg, &cmd->opts.interval);
	case OPT_WARM_BELOW:
		return parse_warm(arg, &cmd->opts.warm_below);
	case OPT_FORMAT:
		return parse_format(arg, &cmd->write);
	default:
		BUG("tiers option %d", c);
	}
}

static void tiers_prepare(void *ctx, struct command_opts *o)
{
	struct tiers_cmd *cmd = ctx;

	cmd->opts.stack = o->stack;
	cmd->tiers = tiers__new(&cmd->opts);
}

static void tiers_sample(void *ctx, const struct resolved_sample *rs)
{
	struct tiers_cmd *cmd = ctx;

	tiers__add(cmd->tiers, rs);
}

static int tiers_finish(void *ctx, const struct session *s, FILE *out)
{
	struct tiers_cmd *cmd = ctx;
	const struct tiers_view *v = tiers__finish(cmd->tiers);

	(void)s;
	if (cmd->opts.interval && v->interval != cmd->opts.interval)
		warning("--interval: %" PRIu64 " us would make more than 10000 intervals; using %" PRIu64 " us",
			cmd->opts.interval / 1000, v->interval / 1000);
	if (v->nr_early)
		warning("%" PRIu64 " samples older than the first (out of order) counted in the first interval",
			v->nr_early);
	return cmd->write(v, out);
}

static void tiers_release(void *ctx)
{
	struct tiers_cmd *cmd = ctx;

	tiers__delete(cmd->tiers);
}

static const struct command tiers_command = {
	.stacks = true,                    /* warns about leaf-only events: inclusive = self */
	.sample_anywhere = true,
	.usage = tiers_usage,
	.help_column = 28,
	.options = tiers_options,
	.weight_period = false,            /* count samples */
	.parse = tiers_opt,
	.prepare = tiers_prepare,
	.sample = tiers_sample,
	.finish = tiers_finish,
	.release = tiers_release,
};

int cmd_tiers(int argc, char **argv)
{
	struct tiers_cmd cmd = { .opts.warm_below = 0.05, .write = tiers__write_table };

	return command__run(&tiers_command, &cmd, argc, argv);
}
