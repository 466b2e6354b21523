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
	NULL,
};

enum { OPT_HEADER = OPT_INPUT_LAST };

static const struct option script_options[] = {
	INPUT_LONG_OPTIONS,
	{ "header", no_argument, NULL, OPT_HEADER },
	{ NULL, 0, NULL, 0 },
};

struct script_cmd {
	bool header;
	FILE *out;
};

static int script_opt(void *ctx, int c, const char *arg)
{
	struct script_cmd *cmd = ctx;

	(void)arg;
	if (c != OPT_HEADER)
		return -1;
	cmd->header = true;
	return 0;
}

static void script_start(void *ctx, const struct session *s)
{
	struct script_cmd *cmd = ctx;

	if (cmd->header)
		script__print_header(cmd->out, session__reader(s));
}

static void script_sample(void *ctx, const struct resolved_sample *rs)
{
	struct script_cmd *cmd = ctx;

	script__print_sample(cmd->out, rs);
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
	ret = session__run(in.path, &in.session, &hooks);
	if (input_opts__close_output(cmd.out))
		ret = -1;
	input_opts__release(&in);
	return ret ? EXIT_INPUT : EXIT_OK;
}
