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
#include "timeline/user-markers.h"
#include "timeline/jit-loader.h"
#include "common/strpool.h"
#include "session/session.h"

#include <linux/perf_event.h>

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

enum { OPT_BY = OPT_COMMAND_LAST, OPT_INTERVAL, OPT_WARM_BELOW, OPT_FORMAT, OPT_MARKER_EVENT };

static const struct cmd_option tiers_options[] = {
	{ .name = "by", .id = OPT_BY, .arg = " process|thread|marker",
	  .help = "one group per process (default), per thread,\nor per span of the process's marker files\n(marker-PID-*.txt: START END NAME, ns)" },
	{ .name = "interval", .id = OPT_INTERVAL, .arg = " DURATION",
	  .help = "interval length: 100ms, 2s, 500us (bare number:\n"
		  "seconds); default: about 50 over the recording" },
	{ .name = "marker-event", .id = OPT_MARKER_EVENT, .arg = " NAME",
	  .help = "each sample of event NAME (a perf probe on\na function) starts a span \"NAME N\" of its\nprocess, to its next; implies --by marker" },
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
	bool by_marker;
	const char *marker_event;       /* --marker-event */
	struct strpool *marker_pool;    /* --by marker: the spans' names */
	const char *const *jit_dirs;    /* --jit-dir: marker files are looked for there too */
	size_t nr_jit_dirs;
	char *data_dir;                 /* perf.data's directory */
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
		if (strcmp(arg, "process") && strcmp(arg, "thread") && strcmp(arg, "marker"))
			return error("--by takes process, thread or marker, not '%s'", arg);
		cmd->opts.by_thread = !strcmp(arg, "thread");
		cmd->by_marker = !strcmp(arg, "marker");
		return 0;
	case OPT_INTERVAL:
		return parse_interval(arg, &cmd->opts.interval);
	case OPT_WARM_BELOW:
		return parse_warm(arg, &cmd->opts.warm_below);
	case OPT_FORMAT:
		return parse_format(arg, &cmd->write);
	case OPT_MARKER_EVENT:
		cmd->marker_event = arg;
		return 0;
	default:
		BUG("tiers option %d", c);
	}
}

static void tiers_prepare(void *ctx, struct command_opts *o)
{
	struct tiers_cmd *cmd = ctx;

	cmd->opts.stack = o->stack;
	if (cmd->marker_event) {
		cmd->by_marker = true;
		cmd->opts.by_thread = false;
	}
	if (cmd->by_marker) {
		cmd->marker_pool = strpool__new();
		cmd->opts.markers = marker_set__new(cmd->marker_pool);
		cmd->jit_dirs = o->in.session.jit_dirs;
		cmd->nr_jit_dirs = o->in.session.nr_jit_dirs;
		/* the spans grow as the recording shows marker files mapped: one thread */
		o->in.session.sample_anywhere = false;
		o->in.session.marker_event = cmd->marker_event;
	}
	cmd->tiers = tiers__new(&cmd->opts);
}

/* --by marker: the marker files next to the recording and in --jit-dir. */
static int tiers_start(void *ctx, const struct session *s, FILE *out)
{
	struct tiers_cmd *cmd = ctx;
	size_t i;

	(void)out;
	if (!cmd->by_marker)
		return 0;
	cmd->data_dir = xdirname(pd_reader__path(session__reader(s)));
	marker_set__scan_dir(cmd->opts.markers, cmd->data_dir);
	for (i = 0; i < cmd->nr_jit_dirs; i++)
		marker_set__scan_dir(cmd->opts.markers, cmd->jit_dirs[i]);
	return 0;
}

/* --by marker: a marker file mapped (samply's way of naming it to the recording). */
static void tiers_record(void *ctx, const struct pd_event *ev)
{
	struct tiers_cmd *cmd = ctx;
	uint32_t pid;

	if (!cmd->by_marker)
		return;
	if (ev->type == PERF_RECORD_SAMPLE) {       /* --marker-event's */
		if (ev->sample.has_time)
			marker_set__hit(cmd->opts.markers, ev->sample.pid, ev->sample.time,
					cmd->marker_event);
		return;
	}
	if ((ev->type != PERF_RECORD_MMAP && ev->type != PERF_RECORD_MMAP2) || !ev->u.mmap.filename)
		return;
	/* a jitdump's marker: marker files next to the jitdump too */
	if (jit_loader__for_marker(ev->u.mmap.filename)) {
		char *dir = xdirname(ev->u.mmap.filename);

		marker_set__scan_dir(cmd->opts.markers, dir);
		free(dir);
		return;
	}
	if (!user_markers__is_marker_file(ev->u.mmap.filename, &pid))
		return;
	marker_set__mapped(cmd->opts.markers, ev->u.mmap.pid, ev->u.mmap.filename, cmd->data_dir);
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
	if (cmd->by_marker && !marker_set__any(cmd->opts.markers))
		warning("--by marker: no marker spans: no marker-PID-*.txt next to the recording, in "
			"--jit-dir, or mapped by a process (perf records a file's mapping when it is "
			"executable, or with perf record -d)");
	else if (v->nr_outside)
		warning("--by marker: %" PRIu64 " samples in no marker span are not shown", v->nr_outside);
	return cmd->write(v, out);
}

static void tiers_release(void *ctx)
{
	struct tiers_cmd *cmd = ctx;

	tiers__delete(cmd->tiers);
	marker_set__delete(cmd->opts.markers);
	strpool__delete(cmd->marker_pool);
	free(cmd->data_dir);
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
	.start = tiers_start,
	.sample = tiers_sample,
	.record = tiers_record,
	.finish = tiers_finish,
	.release = tiers_release,
};

int cmd_tiers(int argc, char **argv)
{
	struct tiers_cmd cmd = { .opts.warm_below = 0.05, .write = tiers__write_table };

	return command__run(&tiers_command, &cmd, argc, argv);
}
