/*
 * jitsym timeline: the samples in time order per thread, for the
 * timeline viewers: the Firefox Profiler (its processed profile format)
 * and speedscope (its file format).
 */
#include "common/common.h"
#include "command/cmds.h"
#include "command/command.h"
#include "aggregate/timeline.h"
#include "output/out-timeline.h"
#include "reader/perfdata.h"
#include "session/session.h"

#include <linux/perf_event.h>

static const char *const timeline_usage[] = {
	"usage: jitsym timeline [options] [perf.data]",
	"",
	"Write the samples in time order, one track per thread, with JIT functions",
	"named, their source lines, and each frame's category (kernel, native,",
	"interpreted, baseline, optimizing JIT, stubs, runtime) with the runtime's",
	"tier names as subcategories: for the Firefox Profiler (profiler.firefox.com,",
	"\"Load a profile from file\") or speedscope (speedscope.app, or its npm CLI).",
	"With -o FILE.gz the file is gzipped.",
	"",
	NULL,
};

enum { OPT_FORMAT = OPT_COMMAND_LAST, OPT_MARKER_EVENT };

static const struct cmd_option timeline_options[] = {
	{ .name = "format", .id = OPT_FORMAT, .arg = " firefox|speedscope",
	  .help = "the Firefox Profiler's processed\nprofile (the default), or speedscope's" },
	{ .name = "marker-event", .id = OPT_MARKER_EVENT, .arg = " NAME",
	  .help = "the samples of event NAME (a perf probe on a\nfunction) are markers, not samples" },
	CMD_OPTION_SHARED(CMD_NO_KERNEL),
	CMD_OPTION_SHARED(CMD_WEIGHT),
	CMD_OPTION_SHARED(CMD_OFF_CPU),
	CMD_OPTION_END,
};

typedef int (*timeline_writer)(const struct timeline_view *v, const struct timeline_meta *m,
			       FILE *out);

struct timeline_cmd {
	struct timeline_opts opts;
	timeline_writer write;
	bool gzip;
	const char *marker_event;          /* --marker-event */
	const char *const *jit_dirs;       /* --jit-dir: marker files are looked for there too */
	size_t nr_jit_dirs;
	struct timeline *timeline;
};

static int timeline_opt(void *ctx, int c, const char *arg)
{
	struct timeline_cmd *cmd = ctx;

	if (c == OPT_MARKER_EVENT) {
		cmd->marker_event = arg;
		return 0;
	}
	if (c != OPT_FORMAT)
		BUG("timeline option %d", c);
	if (!strcmp(arg, "firefox"))
		cmd->write = timeline__write_firefox;
	else if (!strcmp(arg, "speedscope"))
		cmd->write = timeline__write_speedscope;
	else
		return error("--format takes firefox or speedscope, not '%s'", arg);
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static void timeline_prepare(void *ctx, struct command_opts *o)
{
	struct timeline_cmd *cmd = ctx;

	o->in.session.jit_lines = true;         /* frames carry their lines */
	o->in.session.no_inline = true;         /* and their inlined functions, by source level */
	cmd->opts.stack = o->stack;
	cmd->opts.offcpu = o->in.session.offcpu;
	o->in.session.marker_event = cmd->marker_event;
	cmd->gzip = o->in.output && ends_with(o->in.output, ".gz");
	cmd->jit_dirs = o->in.session.jit_dirs;
	cmd->nr_jit_dirs = o->in.session.nr_jit_dirs;
	cmd->timeline = timeline__new(&cmd->opts);
}

static void timeline_sample(void *ctx, const struct resolved_sample *rs)
{
	struct timeline_cmd *cmd = ctx;

	timeline__add(cmd->timeline, rs);
}

static void timeline_record(void *ctx, const struct pd_event *ev)
{
	struct timeline_cmd *cmd = ctx;

	timeline__record(cmd->timeline, ev);
}

static int timeline_finish(void *ctx, const struct session *s, FILE *out)
{
	struct timeline_cmd *cmd = ctx;
	const struct pd_reader *r = session__reader(s);
	char *dir = xdirname(pd_reader__path(r));
	const struct pd_info *info = pd_reader__info(r);
	struct timeline_meta m = {
		.name = pd_reader__path(r),
		.command_line = info->cmdline,
		.host = info->hostname,
		.perf_version = info->version,
		.arch = info->arch,
		.gzip = cmd->gzip,
	};
	const struct pd_attr *a = pd_reader__nr_attrs(r) ? pd_reader__attr(r, 0) : NULL;

	timeline__end(cmd->timeline, session__jitmap(s), dir, cmd->jit_dirs, cmd->nr_jit_dirs);
	free(dir);
	if (a && a->attr.freq && a->attr.sample_freq)
		m.interval_ms = 1000.0 / (double)a->attr.sample_freq;
	else if (a && !a->attr.freq && a->attr.sample_period && a->attr.type == PERF_TYPE_SOFTWARE)
		m.interval_ms = (double)a->attr.sample_period / 1e6;

	return cmd->write(timeline__finish(cmd->timeline), &m, out);
}

static void timeline_release(void *ctx)
{
	struct timeline_cmd *cmd = ctx;

	timeline__delete(cmd->timeline);
}

static const struct command timeline_command = {
	.stacks = true,
	.sample_anywhere = true,           /* its hook reads only the sample and its frames */
	.usage = timeline_usage,
	.help_column = 35,
	.options = timeline_options,
	.weight_period = false,            /* count samples */
	.parse = timeline_opt,
	.prepare = timeline_prepare,
	.sample = timeline_sample,
	.record = timeline_record,
	.finish = timeline_finish,
	.release = timeline_release,
};

int cmd_timeline(int argc, char **argv)
{
	struct timeline_cmd cmd = { .write = timeline__write_firefox };

	return command__run(&timeline_command, &cmd, argc, argv);
}
