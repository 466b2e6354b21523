#include "common.h"
#include "cmds.h"
#include "input-opts.h"
#include "out-pprof.h"

#include <unistd.h>

static const char *const pprof_usage[] = {
	"usage: jitsym pprof [options] [perf.data]",
	"",
	"Write a gzipped pprof profile (profile.proto) of one event, for",
	"go tool pprof, Pyroscope and Parca: sample counts and periods per",
	"stack, with functions, source lines and mappings. Standard output",
	"is used only when it is not a terminal.",
	"",
	"      --labels LIST     label samples with any of pid,tid,comm (default: none)",
	NULL,
};

enum { OPT_LABELS = OPT_INPUT_LAST };

static const struct option pprof_options[] = {
	INPUT_LONG_OPTIONS,
	{ "labels", required_argument, NULL, OPT_LABELS },
	{ NULL, 0, NULL, 0 },
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
		else
			ret = error("--labels takes pid, tid and comm, not '%s'", names[i]);
	}
	free((void *)names[0]);
	free(names);
	return ret;
}

static int pprof_opt(void *ctx, int c, const char *arg)
{
	return c == OPT_LABELS ? parse_labels(ctx, arg) : -1;
}

static void pprof_start(void *ctx, const struct session *s)
{
	pprof_builder__start(ctx, s);
}

static void pprof_sample(void *ctx, const struct resolved_sample *rs)
{
	pprof_builder__add(ctx, rs);
}

static void pprof_finish(void *ctx, const struct session *s)
{
	(void)s;
	pprof_builder__finish(ctx);
}

int cmd_pprof(int argc, char **argv)
{
	struct input_opts in;
	struct pprof_opts pprof = { 0 };
	struct session_hooks hooks = {
		.start = pprof_start, .sample = pprof_sample, .finish = pprof_finish,
	};
	struct pprof_builder *b;
	int ret, code;
	FILE *out;

	input_opts__init(&in);
	in.session.filter.first_event_only = true;
	if (!input_opts__parse_argv(&in, argc, argv, pprof_options, pprof_usage,
				    pprof_opt, &pprof, &code)) {
		input_opts__release(&in);
		return code;
	}
	if (!in.output && isatty(STDOUT_FILENO)) {
		error("not writing a gzipped profile to a terminal: use -o FILE");
		input_opts__release(&in);
		return EXIT_USAGE;
	}
	/* before reading: an unwritable output should not cost a whole run */
	out = input_opts__open_output(&in);
	if (!out) {
		input_opts__release(&in);
		return EXIT_INPUT;
	}
	pprof.event = in.session.filter.event;
	in.session.jit_lines = true;          /* locations carry their lines */
	b = pprof_builder__new(&pprof);
	hooks.ctx = b;
	/* what was read before any damage is still written */
	ret = session__run(in.path, &in.session, &hooks);
	if (pprof_builder__write(b, out))
		ret = -1;
	if (input_opts__close_output(out))
		ret = -1;
	pprof_builder__delete(b);
	input_opts__release(&in);
	return ret ? EXIT_INPUT : EXIT_OK;
}
