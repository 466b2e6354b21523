#include "common/common.h"
#include "command/command.h"
#include "command/bundle.h"
#include "common/outfile.h"
#include "common/progress.h"
#include "common/sbuf.h"

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

/* The options of enum command_shared: a command's CMD_OPTION_SHARED rows stand for them. */
static const struct cmd_option shared_options[] = {
	{ .name = "include-pid", .id = OPT_INCLUDE_PID, .shared = CMD_INCLUDE_PID,
	  .help = "append -PID to the process name" },
	{ .name = "include-tid", .id = OPT_INCLUDE_TID, .shared = CMD_INCLUDE_TID,
	  .help = "append -PID/TID to the process name" },
	{ .name = "no-kernel", .id = OPT_NO_KERNEL, .shared = CMD_NO_KERNEL,
	  .help = "leave kernel frames out" },
	{ .name = "weight", .id = OPT_WEIGHT, .shared = CMD_WEIGHT, .arg = "=period",
	  .help = "sum sample periods instead of counting samples" },
	{ .name = "off-cpu", .id = OPT_OFF_CPU, .shared = CMD_OFF_CPU,
	  .help = "weigh each stack by the time its thread was off the\n"
		  "CPU, in ns, from the recording's context switches\n"
		  "(perf record -e sched:sched_switch -g, --switch-events\n"
		  "or --off-cpu); implies --weight=period" },
	{ .name = "on-off-cpu", .id = OPT_ON_OFF_CPU, .shared = CMD_OFF_CPU,
	  .help = "both: on-CPU samples weighed by their period (ns for\n"
		  "cpu-clock) and off-CPU stacks under a leaf [off-cpu]" },
};

/* One run of a command: what command__run() and the session hooks share. */
struct command_run {
	const struct command *c;
	void *ctx;
	const char *name;          /* argv[0], for messages */
	struct command_opts opts;
	struct outfile *output;    /* open once the first header was read */
	FILE *out;                 /* its stream */
	int status;                /* the failure that stopped the run, or EXIT_OK */
	bool write_failed;         /* finish() could not write */
	const char **inputs;       /* the recordings, in order: argv's, or &opts.in.path */
	unsigned nr_inputs;        /* of them: 1, 2 for nr_inputs 2, 1..N for merges */
	unsigned input;            /* the one being read */
	bool started;              /* its start hook ran: it could be opened */
	bool any_started;          /* merges: some input's start hook ran */
	bool finished;             /* merges: finish() ran */
	bool any_bundle;           /* some input is a bundle (bundle.h) */
	struct bundle *bundle;     /* the one being read, when it is one */
	const char *first_path;    /* input 0's recording, entered before prepare() */
};

/*
 * Bundles (bundle.h) among the inputs: whether there are any, and a
 * lookup option given with them, which is refused (a bundle says where
 * its files are). 0, or an exit status after error().
 */
static int check_bundles(struct command_run *run)
{
	struct input_opts *in = &run->opts.in;
	unsigned i, n = run->nr_inputs ? run->nr_inputs : 1;

	for (i = 0; i < n; i++) {
		const char *p = run->inputs ? run->inputs[i] : in->path;

		if (!bundle__is(p))
			continue;
		run->any_bundle = true;
		if (in->nr_lookup)
			return error("'%s' is a bundle: it is read with the lookup options it was "
				     "archived with, not --%s", p, input_opts__name(in->lookup[0].id)),
			       EXIT_USAGE;
	}
	return 0;
}

/*
 * Before reading input i: leave the last one's bundle, and when input i
 * is one, open it (vfs in bundle mode) with its lookup options; *path
 * the recording to read, under its name in the bundle. 0, or -1 after
 * error() (the bundle cannot be read).
 */
static int enter_input(struct command_run *run, unsigned i, const char **path)
{
	struct input_opts *in = &run->opts.in;
	const char *name, *arg;
	size_t k;

	*path = run->inputs ? run->inputs[i] : in->path;
	if (!run->any_bundle)
		return 0;
	bundle__close(run->bundle);
	run->bundle = NULL;
	input_opts__clear_lookup(in);
	if (!bundle__is(*path))
		return 0;
	run->bundle = bundle__open(*path);
	if (!run->bundle)
		return -1;
	for (k = 0; bundle__option(run->bundle, k, &name, &arg); k++) {
		int id = input_opts__id(name);

		if (id < 0 || input_opts__parse(in, id, arg) != 1)
			return error("'%s': cannot take its option --%s '%s'", *path, name, arg);
	}
	*path = bundle__input(run->bundle);
	return 0;
}

/* The recording to read for input i, its bundle entered; NULL after error(). */
static const char *input_path(struct command_run *run, unsigned i)
{
	const char *path;

	if (!i)
		return run->first_path;     /* entered before prepare() */
	return enter_input(run, i, &path) ? NULL : path;
}

/*
 * Append to all[*nr] row r of a command's table, or for a CMD_OPTION_SHARED
 * row the shared options it stands for, with its arg and help where set.
 * all has room for every shared option.
 */
static void expand_row(const struct cmd_option *r, struct cmd_option *all, size_t *nr)
{
	size_t i;

	if (r->more) {
		if (!*nr)
			BUG("option table starts with a .more row");
		all[*nr] = *r;
		all[*nr].name = all[*nr - 1].name;
		all[*nr].short_name = all[*nr - 1].short_name;
		(*nr)++;
		return;
	}
	if (r->name) {
		all[(*nr)++] = *r;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(shared_options); i++) {
		const struct cmd_option *s = &shared_options[i];

		if (s->shared != r->shared || (r->id && s->id != r->id))
			continue;
		all[*nr] = *s;
		if (r->arg)
			all[*nr].arg = r->arg;
		if (r->help)
			all[*nr].help = r->help;
		(*nr)++;
	}
}

struct cmd_option *command__options(const struct command *c, size_t *nr)
{
	const struct cmd_option *r;
	size_t n = 0;
	struct cmd_option *all;

	for (r = c->options; r && !cmd_option__is_end(r); r++)
		n++;
	all = xcalloc(st_add(st_mult(n, ARRAY_SIZE(shared_options)), 1), sizeof(*all));
	*nr = 0;
	for (r = c->options; r && !cmd_option__is_end(r); r++)
		expand_row(r, all, nr);
	return all;
}

/* getopt_long's table for c: the input options, then c's own and shared ones. */
static struct option *long_options(const struct command *c)
{
	const struct cmd_option *o;
	struct cmd_option *own;
	size_t n_in = 0, n_own, i, n;
	struct option *all;

	for (o = input_options; !cmd_option__is_end(o); o++)
		n_in++;
	own = command__options(c, &n_own);
	all = xcalloc(st_add(st_add(n_in, n_own), 1), sizeof(*all));
	for (n = 0; n < n_in; n++)
		cmd_option__to_getopt(&input_options[n], &all[n]);
	for (i = 0; i < n_own; i++)
		if (!own[i].more)
			cmd_option__to_getopt(&own[i], &all[n++]);
	free(own);
	return all;
}

/*
 * ":" (missing values reported, not printed by getopt), then the short
 * form of each option that has one, as in the long table lo: an entry
 * whose value is a letter is "-F LIST" too.
 */
static char *short_options(const struct option *lo)
{
	struct sbuf sb = SBUF_INIT;

	sbuf_addch(&sb, ':');
	for (; lo->name; lo++) {
		int v = lo->val;

		if (!((v >= 'a' && v <= 'z') || (v >= 'A' && v <= 'Z')))
			continue;
		sbuf_addch(&sb, (char)v);
		if (lo->has_arg == required_argument)
			sbuf_addch(&sb, ':');
	}
	return sbuf_detach(&sb, NULL);
}

/* The one line for an option getopt_long did not accept (c: '?' or ':'). */
static int bad_option(const char *name, int c, const char *arg)
{
	bool is_long = !strncmp(arg, "--", 2);
	int len = (int)strcspn(arg, "=");

	if (c == ':')
		return is_long ? error("option '%s' needs a value", arg) :
				 error("option '-%c' needs a value", optopt);
	if (is_long && optopt)
		return error("option '%.*s' takes no value", len, arg);
	if (is_long)
		return error("unknown option '%.*s'; see 'jitsym %s --help'", len, arg, name);
	return error("unknown option '-%c'; see 'jitsym %s --help'", optopt, name);
}

static int parse_weight(struct command_opts *o, const char *arg)
{
	if (!strcmp(arg, "period"))
		o->stack.weight_period = true;
	else if (!strcmp(arg, "count") || !strcmp(arg, "samples"))
		o->stack.weight_period = false;
	else
		return error("--weight takes 'period' or 'count', not '%s'", arg);
	return 0;
}

/* One getopt_long result: 0, or -1 after error(). */
static int parse_one(struct command_run *run, int c, const char *arg)
{
	struct command_opts *o = &run->opts;
	int ret = input_opts__parse(&o->in, c, arg);

	if (ret)
		return ret < 0 ? -1 : 0;
	switch (c) {
	case OPT_WEIGHT:      return parse_weight(o, arg);
	case OPT_INCLUDE_PID: o->stack.include_pid = true; return 0;
	case OPT_INCLUDE_TID: o->stack.include_tid = true; return 0;
	case OPT_NO_KERNEL:   o->stack.no_kernel = true; return 0;
	case OPT_OFF_CPU:     o->in.session.offcpu = OFFCPU_ONLY; return 0;
	case OPT_ON_OFF_CPU:  o->in.session.offcpu = OFFCPU_BOTH; return 0;
	default:
		if (!run->c->parse)
			BUG("option %d of '%s' has no parser", c, run->name);
		return run->c->parse(run->ctx, c, arg) ? -1 : 0;
	}
}

/* BASE and NEW, the arguments left after the options; -1 after error(). */
static int two_inputs(struct command_run *run, int argc, char **argv, const char *dflt)
{
	if (run->opts.in.path != dflt)
		return error("'%s' reads the two recordings it is given, not -i: "
			     "jitsym %s BASE.data NEW.data", run->name, run->name);
	if (argc - optind != 2)
		return argc - optind > 2 ? error("unexpected argument '%s'", argv[optind + 2]) :
		       error("'%s' needs two recordings: jitsym %s BASE.data NEW.data",
			     run->name, run->name);
	run->inputs = (const char **)argv + optind;
	run->nr_inputs = 2;
	return 0;
}

/*
 * A command that merges: every argument left a recording, or the one of
 * -i (perf.data by default) when there is none.
 */
static int many_inputs(struct command_run *run, int argc, char **argv)
{
	if (optind < argc) {
		run->inputs = (const char **)argv + optind;
		run->nr_inputs = (unsigned)(argc - optind);
	} else {
		run->inputs = &run->opts.in.path;
		run->nr_inputs = 1;
	}
	return 0;
}

/* 0 to run; -1 after error() for a usage error; 1 after -h. */
static int parse_argv(struct command_run *run, int argc, char **argv)
{
	struct option *longopts = long_options(run->c);
	char *shortopts = short_options(longopts);
	const char *dflt = run->opts.in.path;
	int c, ret = 0;

	opterr = 0;   /* bad_option() says it, in the form of every other message */
	while (!ret && (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == 'h')
			ret = 1;
		else if (c == '?' || c == ':')
			ret = bad_option(run->name, c, argv[optind - 1]);
		else
			ret = parse_one(run, c, optarg);
	}
	free(shortopts);
	free(longopts);
	if (ret)
		return ret;
	if (run->c->nr_inputs == 2)
		return two_inputs(run, argc, argv, dflt);
	if (run->c->merges)
		return many_inputs(run, argc, argv);
	if (optind < argc)
		run->opts.in.path = argv[optind++];
	if (optind < argc)
		return error("unexpected argument '%s': '%s' reads one recording "
			     "(fold, flamegraph, pprof and report merge several)", argv[optind], run->name);
	return 0;
}

static void print_usage(const struct command *c)
{
	const char *const *usage;
	struct cmd_option *own;
	size_t nr, i;

	for (usage = c->usage; *usage; usage++)
		printf("%s\n", *usage);
	own = command__options(c, &nr);
	for (i = 0; i < nr; i++)
		cmd_option__print(&own[i], c->help_column ? c->help_column : 24, stdout);
	free(own);
	for (usage = c->usage_tail; usage && *usage; usage++)
		printf("%s\n", *usage);
	input_opts__usage(stdout, c->nr_inputs);
}

/* -o FILE, or stdout; -1 after error(). */
static int open_output(struct command_run *run)
{
	run->output = input_opts__open_output(&run->opts.in);
	run->out = run->output ? outfile__stream(run->output) : NULL;
	return run->output ? 0 : -1;
}

/*
 * Close the output: into place when every byte of it was written; a run
 * stopped by a usage or output error, or one whose writing failed, leaves
 * the file there was (if any) as it was.
 */
static void close_output(struct command_run *run)
{
	if (!run->output)
		return;
	if (input_opts__close_output(run->output, run->status == EXIT_OK && !run->write_failed))
		run->write_failed = true;
	run->output = NULL;
	run->out = NULL;
}

static void run_start(void *ctx, const struct session *s)
{
	struct command_run *run = ctx;

	run->started = true;
	run->any_started = true;
	if (!run->output && open_output(run))
		run->status = EXIT_OUTPUT;
	else if (run->c->start && run->c->start(run->ctx, s, run->out))
		run->status = EXIT_USAGE;
	if (run->status != EXIT_OK)
		session__abort(s);
}

static void run_sample(void *ctx, const struct resolved_sample *rs)
{
	struct command_run *run = ctx;

	run->c->sample(run->ctx, rs);
}

static void run_record(void *ctx, const struct pd_event *ev)
{
	struct command_run *run = ctx;

	run->c->record(run->ctx, ev);
}

static void run_finish(void *ctx, const struct session *s)
{
	struct command_run *run = ctx;

	if (run->c->nr_inputs == 2 && run->input == 0)
		return;    /* after the last input only */
	if (run->c->merges && run->input + 1 < run->nr_inputs) {
		if (run->c->input_end)
			run->c->input_end(run->ctx, s);
		return;    /* finish after the last input only (or run_merged()'s) */
	}
	run->finished = true;
	/* what finish() says is about the output, not the last recording */
	if (run->c->merges)
		msg_set_context(NULL);
	if (run->c->finish && run->c->finish(run->ctx, s, run->out))
		run->write_failed = true;
	if (run->c->merges && run->nr_inputs > 1)
		msg_set_context(run->inputs[run->input]);
}

/*
 * Read each recording in turn through the same hooks, then finish once:
 * in the last session (as for one recording), or when the last could
 * not be read, after it with no session. A recording that
 * cannot be read, whole or in part, is an input error (exit EXIT_INPUT),
 * the others still merged and written; a filter one of them cannot
 * apply (SESSION_BAD_FILTER) stops the run as a usage error. A session's
 * own return: 0, or -1 for an input error.
 */
static int run_merged(struct command_run *run, const struct session_hooks *hooks)
{
	const char *path;
	int ret = 0, r;

	for (run->input = 0; run->input < run->nr_inputs && run->status == EXIT_OK; run->input++) {
		/* with several, each message names the recording it is about */
		if (run->nr_inputs > 1)
			msg_set_context(run->inputs[run->input]);
		path = input_path(run, run->input);
		r = path ? session__run(path, &run->opts.in.session, hooks) : -1;
		msg_set_context(NULL);
		if (r == SESSION_BAD_FILTER && run->status == EXIT_OK)
			run->status = EXIT_USAGE;
		else if (r)
			ret = -1;
	}
	if (run->any_started && !run->finished && run->status == EXIT_OK && run->c->finish &&
	    run->c->finish(run->ctx, NULL, run->out))
		run->write_failed = true;
	return ret;
}

/*
 * Several recordings read at once (struct command's part hooks), with
 * --threads 4 and more: each worker takes the next recording and reads it
 * into a part, on its own thread and the hook's (the two threads a
 * recording read alone has), its messages kept; the command's thread
 * takes the parts in the recordings' order, says each one's messages and
 * merges it, as run_merged() would have read them one after another. At
 * most as many recordings as there are workers are taken and not yet
 * merged, so memory holds that many sessions and parts at most.
 *
 * With two threads, one recording after another on both is as fast: read
 * two at a time on one thread each, ten node-medium recordings took as
 * long (6.8-7.2 s against 6.7-8.4 s) with 2.4 times the memory.
 */
struct part_slot {
	const char *path;
	void *part;
	struct msg_capture *msgs;
	int ret;                   /* session__run()'s */
	bool started;              /* part_start() ran */
	bool failed_start;         /* and said it cannot go on (a usage error) */
	bool done;
};

struct parallel {
	struct command_run *run;
	struct session_opts opts;  /* the run's, one thread a recording */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct part_slot *slots;
	size_t next;               /* the next recording to take */
	size_t joined;             /* recordings merged (or let go) so far */
	size_t window;             /* the most taken and not yet merged */
	bool stop;                 /* take no more */
};

/* A part's own session hooks' context. */
struct part_run {
	struct command_run *run;
	struct part_slot *slot;
};

static void part_run_start(void *ctx, const struct session *s)
{
	struct part_run *pr = ctx;

	pr->slot->started = true;
	if (pr->run->c->part_start(pr->slot->part, s)) {
		pr->slot->failed_start = true;
		session__abort(s);
	}
}

static void part_run_sample(void *ctx, const struct resolved_sample *rs)
{
	struct part_run *pr = ctx;

	pr->run->c->part_sample(pr->slot->part, rs);
}

static void *parallel_worker(void *arg)
{
	struct parallel *par = arg;
	struct command_run *run = par->run;

	for (;;) {
		struct part_slot *slot;
		struct part_run pr = { .run = run };
		struct session_hooks hooks = {
			.start = part_run_start, .sample = part_run_sample, .ctx = &pr,
		};
		int ret;

		pthread_mutex_lock(&par->lock);
		while (!par->stop && par->next < run->nr_inputs &&
		       par->next >= par->joined + par->window)
			pthread_cond_wait(&par->cond, &par->lock);
		if (par->stop || par->next >= run->nr_inputs) {
			pthread_mutex_unlock(&par->lock);
			return NULL;
		}
		slot = &par->slots[par->next++];
		pthread_mutex_unlock(&par->lock);

		pr.slot = slot;
		slot->part = run->c->part_new(run->ctx);
		slot->msgs = msg_capture_new();
		msg_set_context(slot->path);
		msg_capture_begin(slot->msgs);
		ret = session__run(slot->path, &par->opts, &hooks);
		msg_capture_end();
		msg_set_context(NULL);

		pthread_mutex_lock(&par->lock);
		slot->ret = ret;
		slot->done = true;
		pthread_cond_broadcast(&par->cond);
		pthread_mutex_unlock(&par->lock);
	}
}

/* The command's side: slot i's messages said, its part merged (or let go), as run_merged() would. */
static int join_part(struct command_run *run, struct part_slot *slot)
{
	msg_capture_replay(slot->msgs);
	if (slot->started) {
		run->any_started = true;
		if (!run->output && open_output(run))
			run->status = EXIT_OUTPUT;
		else if (slot->failed_start)
			run->status = EXIT_USAGE;
	}
	if (slot->ret == SESSION_BAD_FILTER && run->status == EXIT_OK)
		run->status = EXIT_USAGE;
	if (run->status == EXIT_OK && slot->started)
		run->c->part_join(run->ctx, slot->part);
	else
		run->c->part_delete(slot->part);
	slot->part = NULL;
	return slot->ret && slot->ret != SESSION_BAD_FILTER ? -1 : 0;
}

/* run_merged() with the recordings read nr_workers at a time; -1 when no thread could start. */
static int run_parallel(struct command_run *run, unsigned nr_workers, int *ret)
{
	struct parallel par = { .run = run, .opts = run->opts.in.session, .window = nr_workers };
	pthread_t *workers = xcalloc(nr_workers, sizeof(*workers));
	unsigned started = 0, i;

	/* each recording on the two threads it is read by alone */
	par.opts.threads = 2;
	par.opts.no_progress = true;
	par.slots = xcalloc(run->nr_inputs, sizeof(*par.slots));
	for (i = 0; i < run->nr_inputs; i++)
		par.slots[i].path = run->inputs[i];
	pthread_mutex_init(&par.lock, NULL);
	pthread_cond_init(&par.cond, NULL);
	for (i = 0; i < nr_workers; i++)
		if (!pthread_create(&workers[started], NULL, parallel_worker, &par))
			started++;
	if (started)
		note("reading %u recordings, %u at a time", run->nr_inputs, started);
	if (!started) {
		free(workers);
		free(par.slots);
		pthread_cond_destroy(&par.cond);
		pthread_mutex_destroy(&par.lock);
		return -1;
	}
	*ret = 0;
	/* what stops run_merged() stops here too: the recordings after it are not merged */
	for (i = 0; i < run->nr_inputs && run->status == EXIT_OK; i++) {
		struct part_slot *slot = &par.slots[i];

		pthread_mutex_lock(&par.lock);
		while (!slot->done)
			pthread_cond_wait(&par.cond, &par.lock);
		pthread_mutex_unlock(&par.lock);
		if (join_part(run, slot))
			*ret = -1;
		msg_capture_delete(slot->msgs);
		slot->msgs = NULL;
		pthread_mutex_lock(&par.lock);
		par.joined = i + 1;
		par.stop = run->status != EXIT_OK;
		pthread_cond_broadcast(&par.cond);
		pthread_mutex_unlock(&par.lock);
	}
	for (i = 0; i < started; i++)
		pthread_join(workers[i], NULL);
	/* taken by a worker when the run stopped: read, but neither said nor merged */
	for (i = 0; i < run->nr_inputs; i++) {
		if (par.slots[i].part)
			run->c->part_delete(par.slots[i].part);
		msg_capture_delete(par.slots[i].msgs);
	}
	if (run->any_started && !run->finished && run->status == EXIT_OK && run->c->finish &&
	    run->c->finish(run->ctx, NULL, run->out))
		run->write_failed = true;
	free(workers);
	free(par.slots);
	pthread_cond_destroy(&par.cond);
	pthread_mutex_destroy(&par.lock);
	return 0;
}

/* Read the recording through the command; the exit status. */
static int run_session(struct command_run *run)
{
	struct session_hooks hooks = {
		.start = run_start,
		.sample = run_sample,
		.finish = run_finish,
		.record = run->c->record ? run_record : NULL,
		.ctx = run,
	};
	struct input_opts *in = &run->opts.in;
	int ret;

	progress__set_output(in->output);
	run->opts.nr_inputs = run->nr_inputs ? run->nr_inputs : 1;
	/* the first input before prepare(): a bundle's lookup options are the command's to see */
	ret = check_bundles(run);
	if (!ret && enter_input(run, 0, &run->first_path))
		run->first_path = NULL;
	if (run->c->prepare)
		run->c->prepare(run->ctx, &run->opts);
	if (ret)
		return ret;
	if (run->c->nr_inputs == 2) {
		ret = 0;
		for (run->input = 0; run->input < 2 && run->status == EXIT_OK; run->input++) {
			const char *path = input_path(run, run->input);

			run->started = false;
			if (!path || session__run(path, &in->session, &hooks))
				ret = -1;
			/* one that cannot be opened: nothing to compare */
			if (!run->started && run->status == EXIT_OK)
				run->status = EXIT_INPUT;
		}
	} else if (run->c->merges && run->c->part_new && run->nr_inputs > 1 &&
		   /* one vfs for the process: bundles are read one after another */
		   in->session.threads / 2 > 1 && !run->any_bundle &&
		   !run_parallel(run, in->session.threads / 2 < run->nr_inputs ?
				 in->session.threads / 2 : run->nr_inputs, &ret)) {
		/* read several at a time, on two threads each */
	} else if (run->c->merges) {
		ret = run_merged(run, &hooks);
	} else {
		ret = run->first_path ? session__run(run->first_path, &in->session, &hooks) : -1;
	}
	close_output(run);
	bundle__close(run->bundle);
	run->bundle = NULL;
	if (run->status != EXIT_OK)
		return run->status;
	if (run->write_failed)
		return EXIT_OUTPUT;
	if (ret == SESSION_BAD_FILTER)
		return EXIT_USAGE;
	return ret ? EXIT_INPUT : EXIT_OK;
}

int command__parse_percent(const char *option, const char *arg, double *pct)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '%')
		end++;
	if (end == arg || *end || errno || !(v >= 0 && v <= 100))
		return error("%s takes a percentage from 0 to 100, not '%s'", option, arg);
	*pct = v;
	return 0;
}

int command__run(const struct command *c, void *ctx, int argc, char **argv)
{
	struct command_run run = { .c = c, .ctx = ctx, .name = argv[0] };
	int ret;

	if (argc == 2 && !strcmp(argv[1], COMMAND_MAN_SOURCE)) {
		command__man(c, argv[0], stdout);
		return EXIT_OK;
	}
	input_opts__init(&run.opts.in);
	run.opts.in.session.filter.first_event_only = !c->all_events;
	run.opts.in.session.stacks = c->stacks;
	run.opts.in.session.sample_anywhere = c->sample_anywhere;
	run.opts.in.output_thread = c->output_thread;
	run.opts.stack.weight_period = c->weight_period;
	outfile__catch_signals();
	ret = parse_argv(&run, argc, argv);
	if (!ret && input_opts__finish(&run.opts.in))
		ret = -1;
	if (ret) {
		if (ret > 0)
			print_usage(c);
		input_opts__release(&run.opts.in);
		return ret > 0 ? EXIT_OK : EXIT_USAGE;
	}
	/* off-CPU stacks weigh the ns their thread was off; on-CPU ones their period */
	if (run.opts.in.session.offcpu)
		run.opts.stack.weight_period = true;
	if (c->binary_output && !run.opts.in.output && isatty(STDOUT_FILENO)) {
		error("not writing %s to a terminal: use -o FILE", c->binary_output);
		input_opts__release(&run.opts.in);
		return EXIT_USAGE;
	}
	ret = run_session(&run);
	if (c->release)
		c->release(ctx);
	input_opts__release(&run.opts.in);
	return ret;
}
