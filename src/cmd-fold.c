#include "common.h"
#include "cmds.h"
#include "input-opts.h"
#include "out-fold.h"

static const char *const fold_usage[] = {
	"usage: jitsym fold [options] [perf.data]",
	"",
	"Write one line per distinct call stack, 'comm;outer;...;leaf COUNT',",
	"the input format of flamegraph.pl, inferno and speedscope.",
	"",
	"      --include-pid     append -PID to the process name",
	"      --include-tid     append -PID/TID to the process name",
	"      --annotate        suffix kernel frames _[k] and JIT frames _[j]",
	"      --no-kernel       leave kernel frames out",
	"      --weight=period   sum sample periods instead of counting samples",
	NULL,
};

enum { OPT_INCLUDE_PID = OPT_INPUT_LAST, OPT_INCLUDE_TID, OPT_ANNOTATE,
       OPT_NO_KERNEL, OPT_WEIGHT };

static const struct option fold_options[] = {
	INPUT_LONG_OPTIONS,
	{ "include-pid", no_argument, NULL, OPT_INCLUDE_PID },
	{ "include-tid", no_argument, NULL, OPT_INCLUDE_TID },
	{ "annotate", no_argument, NULL, OPT_ANNOTATE },
	{ "no-kernel", no_argument, NULL, OPT_NO_KERNEL },
	{ "weight", required_argument, NULL, OPT_WEIGHT },
	{ NULL, 0, NULL, 0 },
};

static int fold_opt(void *ctx, int c, const char *arg)
{
	struct fold_opts *fold = ctx;

	switch (c) {
	case OPT_INCLUDE_PID: fold->include_pid = true; return 0;
	case OPT_INCLUDE_TID: fold->include_tid = true; return 0;
	case OPT_ANNOTATE:    fold->annotate = true; return 0;
	case OPT_NO_KERNEL:   fold->no_kernel = true; return 0;
	case OPT_WEIGHT:
		if (!strcmp(arg, "period"))
			fold->weight_period = true;
		else if (strcmp(arg, "count") && strcmp(arg, "samples"))
			return error("--weight takes 'period' or 'count', not '%s'", arg);
		return 0;
	default:
		return -1;
	}
}

static void fold_sample(void *ctx, const struct resolved_sample *rs)
{
	folder__add(ctx, rs);
}

int cmd_fold(int argc, char **argv)
{
	struct input_opts in;
	struct fold_opts fold = { 0 };
	struct session_hooks hooks = { .sample = fold_sample };
	struct folder *folder;
	int ret, code;
	FILE *out;

	input_opts__init(&in);
	in.session.filter.first_event_only = true;
	if (!input_opts__parse_argv(&in, argc, argv, fold_options, fold_usage,
				    fold_opt, &fold, &code)) {
		input_opts__release(&in);
		return code;
	}
	folder = folder__new(&fold);
	hooks.ctx = folder;
	/* what was read before any damage is still written */
	ret = session__run(in.path, &in.session, &hooks);
	out = input_opts__open_output(&in);
	if (!out || folder__write(folder, out))
		ret = -1;
	if (input_opts__close_output(out))
		ret = -1;
	folder__delete(folder);
	input_opts__release(&in);
	return ret ? EXIT_INPUT : EXIT_OK;
}
