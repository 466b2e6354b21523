#include "common/common.h"
#include "command/cmds.h"
#include "command/command.h"
#include "output/out-pprof.h"
#include "reader/perfdata.h"
#include "session/session.h"

#include <linux/perf_event.h>

static const char *const pprof_usage[] = {
	"usage: jitsym pprof [options] [perf.data...]",
	"",
	"Write a gzipped pprof profile (profile.proto) of one event, for",
	"go tool pprof, Pyroscope and Parca: sample counts and periods per",
	"stack, with functions, source lines and mappings. Standard output",
	"is used only when it is not a terminal.",
	"",
	"Several recordings of one event (a fleet's, a day's) make one profile,",
	"for a profile store: functions and mappings shared, each recording's",
	"locations its own, the duration the sum of their spans.",
	"",
	NULL,
};

enum { OPT_LABELS = OPT_COMMAND_LAST };

static const struct cmd_option pprof_options[] = {
	{ .name = "labels", .id = OPT_LABELS, .arg = " LIST",
	  .help = "label samples with any of pid,tid,comm,category,tier\n"
		  "(string labels; category and tier: the leaf's\n"
		  "frame kind and JIT tier; default: none)" },
	{ .shared = CMD_OFF_CPU, .id = OPT_OFF_CPU,
	  .help = "weigh each stack by the time its thread was off the\n"
		  "CPU, in ns, from the recording's context switches\n"
		  "(perf record -e sched:sched_switch -g, --switch-events\n"
		  "or --off-cpu): sample type off-cpu" },
	{ .shared = CMD_OFF_CPU, .id = OPT_ON_OFF_CPU,
	  .help = "both: on-CPU samples weighed by their period (ns for\n"
		  "cpu-clock) and off-CPU stacks under a leaf [off-cpu]:\n"
		  "sample type on-off-cpu, nanoseconds" },
	CMD_OPTION_END,
};

struct pprof_cmd {
	struct pprof_opts opts;
	struct pprof_builder *b;
	unsigned nr_started;        /* recordings begun */
	char *first_event;          /* the first one's event (NULL: none) */
	char *first_path;           /* and its path */
};

static int parse_labels(struct pprof_opts *o, const char *arg)
{
	const char **names = NULL;
	size_t nr = 0, i;
	int ret = 0;

	parse_str_list(arg, &names, &nr);
	for (i = 0; i < nr && !ret; i++) {
		if (!strcmp(names[i], "pid"))
			o->label_pid = true;
		else if (!strcmp(names[i], "tid"))
			o->label_tid = true;
		else if (!strcmp(names[i], "comm"))
			o->label_comm = true;
		else if (!strcmp(names[i], "category"))
			o->label_category = true;
		else if (!strcmp(names[i], "tier"))
			o->label_tier = true;
		else
			ret = error("--labels takes pid, tid, comm, category and tier, not '%s'",
				    names[i]);
	}
	free((void *)names[0]);
	free(names);
	return ret;
}

static int pprof_opt(void *ctx, int c, const char *arg)
{
	struct pprof_cmd *cmd = ctx;

	if (c != OPT_LABELS)
		BUG("pprof option %d", c);
	return parse_labels(&cmd->opts, arg);
}

static void pprof_prepare(void *ctx, struct command_opts *o)
{
	struct pprof_cmd *cmd = ctx;

	cmd->opts.event = o->in.session.filter.event;
	cmd->opts.offcpu = o->in.session.offcpu;
	o->in.session.jit_lines = true;          /* locations carry their lines */
	o->in.session.no_inline = true;          /* and their inlined functions */
	cmd->b = pprof_builder__new(&cmd->opts);
}

/* The attr the samples are of: the one --event names, else the first (as fold). */
static const struct pd_attr *profiled_attr(const struct pd_reader *r, const char *event)
{
	size_t i, n = pd_reader__nr_attrs(r);

	for (i = 0; event && i < n; i++)
		if (!strcmp(pd_reader__attr(r, i)->name, event))
			return pd_reader__attr(r, i);
	return n && !event ? pd_reader__attr(r, 0) : NULL;
}

static int pprof_start(void *ctx, const struct session *s, FILE *out)
{
	struct pprof_cmd *cmd = ctx;
	const struct pd_attr *a = profiled_attr(session__reader(s), cmd->opts.event);
	struct sample_event se;
	struct pprof_event ev;

	(void)out;
	if (cmd->nr_started++) {
		/* a recording merged with those before: one sample type */
		const char *name = a ? a->name : NULL;

		if (!name != !cmd->first_event || (name && strcmp(name, cmd->first_event)))
			return error("'%s' is of event '%s', '%s' of '%s': a profile has one "
				     "sample type (--event NAME picks one they all have)",
				     pd_reader__path(session__reader(s)), name ? name : "none",
				     cmd->first_path, cmd->first_event ? cmd->first_event : "none");
		pprof_builder__new_session(cmd->b);
	} else {
		cmd->first_event = a ? xstrdup(a->name) : NULL;
		cmd->first_path = xstrdup(pd_reader__path(session__reader(s)));
	}
	if (a) {
		session__sample_event(a, &se);
		ev.name = se.name;
		ev.is_clock = se.is_clock;
		ev.freq = a->attr.freq;
		ev.has_period = a->attr.sample_type & PERF_SAMPLE_PERIOD;
		ev.sample_period = a->attr.sample_period;
		ev.sample_freq = a->attr.sample_freq;
	}
	pprof_builder__start(cmd->b, a ? &ev : NULL);
	return 0;
}

static void pprof_sample(void *ctx, const struct resolved_sample *rs)
{
	struct pprof_cmd *cmd = ctx;

	pprof_builder__add(cmd->b, rs);
}

/* A recording merged with the next: its source lines' files go with its session. */
static void pprof_input_end(void *ctx, const struct session *s)
{
	struct pprof_cmd *cmd = ctx;

	(void)s;
	pprof_builder__finish(cmd->b);
}

static int pprof_finish(void *ctx, const struct session *s, FILE *out)
{
	struct pprof_cmd *cmd = ctx;

	(void)s;
	pprof_builder__finish(cmd->b);
	return pprof_builder__write(cmd->b, out);
}

static void pprof_release(void *ctx)
{
	struct pprof_cmd *cmd = ctx;

	pprof_builder__delete(cmd->b);
	free(cmd->first_event);
	free(cmd->first_path);
}

static const struct command pprof_command = {
	.stacks = true,
	/* its hook reads only the sample and its frames' views */
	.sample_anywhere = true,
	.merges = true,
	.usage = pprof_usage,
	.options = pprof_options,
	.binary_output = "a gzipped profile",
	.parse = pprof_opt,
	.prepare = pprof_prepare,
	.start = pprof_start,
	.sample = pprof_sample,
	.input_end = pprof_input_end,
	.finish = pprof_finish,
	.release = pprof_release,
};

int cmd_pprof(int argc, char **argv)
{
	struct pprof_cmd cmd = { 0 };

	return command__run(&pprof_command, &cmd, argc, argv);
}
