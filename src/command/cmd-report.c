/*
 * jitsym report: the flat profile a "perf report --stdio --children" user
 * reads at a glance, with JIT functions named and, on request, each top
 * symbol's samples by source line.
 */
#include "common/common.h"
#include "command/cmds.h"
#include "command/command.h"
#include "output/out-report.h"

static const char *const report_usage[] = {
	"usage: jitsym report [options] [perf.data...]",
	"",
	"Write a flat profile as 'perf report --stdio --children' does: for each",
	"command, DSO and symbol the share of samples with it anywhere in the",
	"stack (Children) and as the leaf (Self). Marks: [k] kernel, [.] native,",
	"[j] JIT code (its DSO column names the jitdump or perf map).",
	"",
	"Several recordings of one event make one report of their samples summed",
	"(not with --source-lines, which reads one).",
	"",
	NULL,
};

enum { OPT_SORT = OPT_COMMAND_LAST, OPT_NO_CHILDREN, OPT_LIMIT, OPT_PERCENT_LIMIT,
       OPT_SOURCE_LINES, OPT_FULL_PATHS };

static const struct cmd_option report_options[] = {
	{ .name = "sort", .id = OPT_SORT, .arg = "=total|self",
	  .help = "order rows by Children (default) or Self" },
	{ .name = "no-children", .id = OPT_NO_CHILDREN,
	  .help = "one Overhead column (self), as perf --no-children" },
	{ .name = "limit", .id = OPT_LIMIT, .arg = " N",
	  .help = "print the first N rows" },
	{ .name = "percent-limit", .id = OPT_PERCENT_LIMIT, .arg = " P",
	  .help = "hide rows and source lines below P percent" },
	{ .name = "source-lines", .id = OPT_SOURCE_LINES,
	  .help = "break each row's self samples down by source line" },
	{ .shared = CMD_WEIGHT, .id = OPT_WEIGHT, .arg = "=count",
	  .help = "count samples instead of summing periods" },
	{ .name = "full-paths", .id = OPT_FULL_PATHS,
	  .help = "print DSO and source paths whole" },
	CMD_OPTION_END,
};

struct report_cmd {
	struct report_opts opts;
	struct reporter *reporter;
	const char *event;        /* --event, or NULL: the recording's first */
	unsigned nr_inputs;       /* recordings named */
	unsigned nr_started;      /* recordings begun */
	char *first_event;        /* the first one's event (NULL: none), and its path */
	char *first_path;
};

static int parse_limit(const char *arg, size_t *limit)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end == arg || *end || errno || arg[0] == '-' || v > SIZE_MAX)
		return error("--limit takes a number of rows, not '%s'", arg);
	*limit = (size_t)v;
	return 0;
}

static int report_opt(void *ctx, int c, const char *arg)
{
	struct report_opts *o = &((struct report_cmd *)ctx)->opts;

	switch (c) {
	case OPT_SORT:
		if (!strcmp(arg, "total") || !strcmp(arg, "children"))
			o->sort = REPORT_SORT_TOTAL;
		else if (!strcmp(arg, "self"))
			o->sort = REPORT_SORT_SELF;
		else
			return error("--sort takes 'total' or 'self', not '%s'", arg);
		return 0;
	case OPT_NO_CHILDREN:   o->no_children = true; return 0;
	case OPT_LIMIT:         return parse_limit(arg, &o->limit);
	case OPT_PERCENT_LIMIT: return command__parse_percent("--percent-limit", arg, &o->percent_limit);
	case OPT_SOURCE_LINES:  o->source_lines = true; return 0;
	case OPT_FULL_PATHS:    o->full_paths = true; return 0;
	default:                BUG("report option %d", c);
	}
}

static void report_prepare(void *ctx, struct command_opts *o)
{
	struct report_cmd *cmd = ctx;

	cmd->opts.stack = o->stack;
	cmd->event = o->in.session.filter.event;
	cmd->nr_inputs = o->nr_inputs;
	o->in.session.jit_lines = cmd->opts.source_lines;
	/* symbols by ELF name, as perf report sorts them; --source-lines shows inlining */
	o->in.session.no_inline = true;
	/* source lines are looked up in the session's DSOs and JIT code as samples come */
	if (cmd->opts.source_lines)
		o->in.session.sample_anywhere = false;
	/* self-only columns are right without call chains; children are not */
	o->in.session.stacks = !cmd->opts.no_children;
	cmd->reporter = reporter__new(&cmd->opts);
}

static int report_start(void *ctx, const struct session *s, FILE *out)
{
	struct report_cmd *cmd = ctx;
	const struct pd_reader *rd = session__reader(s);

	(void)out;
	if (cmd->opts.source_lines && cmd->nr_inputs > 1)
		return error("--source-lines reads one recording, not %u", cmd->nr_inputs);
	if (cmd->nr_started++) {
		/* a recording merged with those before: periods of one event */
		const char *name = cmd->event ? cmd->event :
				   pd_reader__nr_attrs(rd) ? pd_reader__attr(rd, 0)->name : NULL;

		if (!name != !cmd->first_event || (name && strcmp(name, cmd->first_event)))
			return error("'%s' is of event '%s', '%s' of '%s': a report sums one "
				     "event's samples (--event NAME picks one they all have)",
				     pd_reader__path(rd), name ? name : "none", cmd->first_path,
				     cmd->first_event ? cmd->first_event : "none");
		reporter__new_recording(cmd->reporter);
	} else {
		const char *name = cmd->event ? cmd->event :
				   pd_reader__nr_attrs(rd) ? pd_reader__attr(rd, 0)->name : NULL;

		cmd->first_event = name ? xstrdup(name) : NULL;
		cmd->first_path = xstrdup(pd_reader__path(rd));
	}
	/* the header names the event even when no sample was kept */
	if (cmd->event)
		reporter__set_event(cmd->reporter, cmd->event);
	else if (pd_reader__nr_attrs(rd))
		reporter__set_event(cmd->reporter, pd_reader__attr(rd, 0)->name);
	return 0;
}

static void report_sample(void *ctx, const struct resolved_sample *rs)
{
	struct report_cmd *cmd = ctx;

	reporter__add(cmd->reporter, rs);
}

/* Written here, while the session's DSOs are open for the source lines. */
static int report_finish(void *ctx, const struct session *s, FILE *out)
{
	struct report_cmd *cmd = ctx;

	(void)s;
	return reporter__write(cmd->reporter, out);
}

static void report_release(void *ctx)
{
	struct report_cmd *cmd = ctx;

	reporter__delete(cmd->reporter);
	free(cmd->first_event);
	free(cmd->first_path);
}

static const struct command report_command = {
	.sample_anywhere = true,            /* but not with --source-lines */
	.merges = true,
	.usage = report_usage,
	.help_column = 26,
	.options = report_options,
	.weight_period = true,             /* as perf report */
	.parse = report_opt,
	.prepare = report_prepare,
	.start = report_start,
	.sample = report_sample,
	.finish = report_finish,
	.release = report_release,
};

int cmd_report(int argc, char **argv)
{
	struct report_cmd cmd = { .opts = { .sort = REPORT_SORT_TOTAL } };

	return command__run(&report_command, &cmd, argc, argv);
}
