#include "common.h"
#include "cmds.h"
#include "input-opts.h"
#include "out-flamegraph.h"

static const char *const flamegraph_usage[] = {
	"usage: jitsym flamegraph [options] [perf.data]",
	"",
	"Write an interactive SVG flame graph of the stacks 'jitsym fold' writes:",
	"click to zoom, Ctrl-F to search; frames coloured by kernel, native, JIT",
	"tier (V8 JS:* optimised, JS:+ Maglev, JS:^ baseline, JS:~ interpreted),",
	"perf map and unknown. Self-contained: opens in any browser, offline.",
	"",
	"      --include-pid     append -PID to the process name",
	"      --include-tid     append -PID/TID to the process name",
	"      --no-kernel       leave kernel frames out",
	"      --weight=period   sum sample periods instead of counting samples",
	"      --title TEXT      the heading (default: Flame Graph)",
	"      --width PX        image width in pixels (default: 1200)",
	"      --minwidth PX     leave out frames narrower than PX pixels, or than",
	"                        PX% of all samples with a '%' (default: 0.1)",
	NULL,
};

enum { OPT_INCLUDE_PID = OPT_INPUT_LAST, OPT_INCLUDE_TID, OPT_NO_KERNEL, OPT_WEIGHT,
       OPT_TITLE, OPT_WIDTH, OPT_MINWIDTH };

static const struct option flamegraph_options[] = {
	INPUT_LONG_OPTIONS,
	{ "include-pid", no_argument, NULL, OPT_INCLUDE_PID },
	{ "include-tid", no_argument, NULL, OPT_INCLUDE_TID },
	{ "no-kernel", no_argument, NULL, OPT_NO_KERNEL },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
	{ NULL, 0, NULL, 0 },
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
	struct flamegraph_opts *fg = ctx;

	switch (c) {
	case OPT_INCLUDE_PID: fg->include_pid = true; return 0;
	case OPT_INCLUDE_TID: fg->include_tid = true; return 0;
	case OPT_NO_KERNEL:   fg->no_kernel = true; return 0;
	case OPT_TITLE:       fg->title = arg; return 0;
	case OPT_WIDTH:       return parse_width(arg, &fg->width);
	case OPT_MINWIDTH:    return flamegraph__parse_minwidth(fg, arg);
	case OPT_WEIGHT:
		if (!strcmp(arg, "period"))
			fg->weight_period = true;
		else if (strcmp(arg, "count") && strcmp(arg, "samples"))
			return error("--weight takes 'period' or 'count', not '%s'", arg);
		return 0;
	default:
		return -1;
	}
}

static void flamegraph_sample(void *ctx, const struct resolved_sample *rs)
{
	flamegraph__add(ctx, rs);
}

int cmd_flamegraph(int argc, char **argv)
{
	struct input_opts in;
	struct flamegraph_opts opts = { .width = FLAMEGRAPH_DEFAULT_WIDTH, .minwidth = 0.1 };
	struct session_hooks hooks = { .sample = flamegraph_sample };
	struct flamegraph *fg;
	int ret, code;
	FILE *out;

	input_opts__init(&in);
	/* the stacks of fold: the first event unless --event */
	in.session.filter.first_event_only = true;
	if (!input_opts__parse_argv(&in, argc, argv, flamegraph_options, flamegraph_usage,
				    flamegraph_opt, &opts, &code)) {
		input_opts__release(&in);
		return code;
	}
	fg = flamegraph__new(&opts);
	hooks.ctx = fg;
	/* what was read before any damage is still drawn */
	ret = session__run(in.path, &in.session, &hooks);
	out = input_opts__open_output(&in);
	if (!out || flamegraph__write(fg, out))
		ret = -1;
	if (input_opts__close_output(out))
		ret = -1;
	flamegraph__delete(fg);
	input_opts__release(&in);
	return ret ? EXIT_INPUT : EXIT_OK;
}
