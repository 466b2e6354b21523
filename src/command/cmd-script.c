#include "common/common.h"
#include "command/cmds.h"
#include "command/command.h"
#include "output/out-script.h"
#include "reader/perfdata-print.h"
#include "session/session.h"

static const char *const script_usage[] = {
	"usage: jitsym script [options] [perf.data]",
	"",
	"Write each sample as perf script does by default, sorted by time:",
	"a header line, then one line per frame 'ADDR SYMBOL+OFFSET (DSO)'.",
	"",
	NULL,
};

enum { OPT_HEADER = OPT_COMMAND_LAST };

static const struct cmd_option script_options[] = {
	{ .name = "header", .id = OPT_HEADER,
	  .help = "first print what the recording's header says" },
	{ .name = "fields", .short_name = 'F', .arg = " LIST",
	  .help = "the fields to print, as perf script -F: a list\n"
		  "(comm,tid,time,...) or changes to the defaults\n"
		  "(+pid,-cpu); fields: comm pid tid cpu time period\n"
		  "event trace ip sym symoff dso srcline" },
	CMD_OPTION_END,
};

struct script_cmd {
	bool header;
	struct script_fields fields;
	struct script_out_opts out_opts;
	struct script_out *so;
};

static int script_opt(void *ctx, int c, const char *arg)
{
	struct script_cmd *cmd = ctx;

	switch (c) {
	case OPT_HEADER: cmd->header = true; return 0;
	case 'F':        return script_fields__parse(&cmd->fields, arg);
	default:         BUG("script option %d", c);
	}
}

static void script_prepare(void *ctx, struct command_opts *o)
{
	struct script_cmd *cmd = ctx;

	cmd->out_opts.fields = &cmd->fields;
	o->in.session.jit_lines = script_fields__want(&cmd->fields, SF_SRCLINE);
	o->in.session.trace_fields = script_fields__want(&cmd->fields, SF_TRACE);
}

/* The writer for the events r knows now. */
static struct script_out *new_writer(struct script_cmd *cmd, const struct pd_reader *r, FILE *out)
{
	size_t i, n = pd_reader__nr_attrs(r);
	struct sample_event *ev = xcalloc(n ? n : 1, sizeof(*ev));
	struct script_out *so;

	for (i = 0; i < n; i++)
		session__sample_event(pd_reader__attr(r, i), &ev[i]);
	cmd->out_opts.path = pd_reader__path(r);
	so = script_out__new(out, ev, n, &cmd->out_opts);
	free(ev);
	return so;
}

/* -1 after error() when -F names a field the recording's samples lack. */
static int script_start(void *ctx, const struct session *s, FILE *out)
{
	struct script_cmd *cmd = ctx;

	cmd->so = new_writer(cmd, session__reader(s), out);
	if (!cmd->so)
		return -1;
	if (cmd->header)
		pd_reader__print_header(out, session__reader(s));
	return 0;
}

static void script_sample(void *ctx, const struct resolved_sample *rs)
{
	struct script_cmd *cmd = ctx;

	script_out__sample(cmd->so, rs);
}

static void script_release(void *ctx)
{
	struct script_cmd *cmd = ctx;

	script_out__delete(cmd->so);
}

/* Every event, as perf script prints them; samples are written as they come. */
static const struct command script_command = {
	.usage = script_usage,
	.options = script_options,
	.all_events = true,
	.output_thread = true,             /* with --threads: it writes as it reads */
	.parse = script_opt,
	.prepare = script_prepare,
	.start = script_start,
	.sample = script_sample,
	.release = script_release,
};

int cmd_script(int argc, char **argv)
{
	struct script_cmd cmd = { 0 };

	return command__run(&script_command, &cmd, argc, argv);
}
