#include "common.h"
#include "cmds.h"
#include "input-opts.h"
#include "out-script.h"

static const char *const script_usage[] = {
	"usage: jitsym script [options] [perf.data]",
	"",
	"Write each sample as perf script does by default, sorted by time:",
	"a header line, then one line per frame 'ADDR SYMBOL+OFFSET (DSO)'.",
	"",
	"      --header          first print what the recording's header says",
	"  -F, --fields LIST     the fields to print, as perf script -F: a list",
	"                        (comm,tid,time,...) or changes to the defaults",
	"                        (+pid,-cpu); fields: comm pid tid cpu time period",
	"                        event trace ip sym symoff dso srcline",
	NULL,
};

enum { OPT_HEADER = OPT_INPUT_LAST };

static const struct option script_options[] = {
	INPUT_LONG_OPTIONS,
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "fields", required_argument, NULL, 'F' },
	{ NULL, 0, NULL, 0 },
};

struct script_cmd {
	bool header;
	struct script_fields fields;
	struct script_out_opts out_opts;
	FILE *out;
	struct script_out *so;
	bool bad_fields;          /* -F cannot be printed for this recording */
};

static int script_opt(void *ctx, int c, const char *arg)
{
	struct script_cmd *cmd = ctx;

	switch (c) {
	case OPT_HEADER: cmd->header = true; return 0;
	case 'F':        return script_fields__parse(&cmd->fields, arg);
	default:         return -1;
	}
}

static void script_start(void *ctx, const struct session *s)
{
	struct script_cmd *cmd = ctx;

	cmd->so = script_out__new(cmd->out, session__reader(s), &cmd->out_opts);
	if (!cmd->so) {
		cmd->bad_fields = true;
		session__abort(s);
		return;
	}
	if (cmd->header)
		script__print_header(cmd->out, session__reader(s));
}

static void script_sample(void *ctx, const struct resolved_sample *rs)
{
	struct script_cmd *cmd = ctx;

	if (cmd->so)
		script_out__sample(cmd->so, rs);
}

int cmd_script(int argc, char **argv)
{
	struct script_cmd cmd = { 0 };
	struct session_hooks hooks = { script_start, script_sample, NULL, &cmd };
	struct input_opts in;
	int ret, code;

	input_opts__init(&in);
	if (!input_opts__parse_argv(&in, argc, argv, script_options, script_usage,
				    script_opt, &cmd, &code)) {
		input_opts__release(&in);
		return code;
	}
	cmd.out = input_opts__open_output(&in);
	if (!cmd.out) {
		input_opts__release(&in);
		return EXIT_USAGE;
	}
	cmd.out_opts.fields = &cmd.fields;
	cmd.out_opts.resolve = &in.session.resolve;
	in.session.jit_lines = script_fields__want(&cmd.fields, SF_SRCLINE);
	ret = session__run(in.path, &in.session, &hooks);
	script_out__delete(cmd.so);
	if (input_opts__close_output(cmd.out))
		ret = -1;
	input_opts__release(&in);
	if (cmd.bad_fields)
		return EXIT_USAGE;
	return ret ? EXIT_INPUT : EXIT_OK;
}
