#include "common/common.h"
#include "command/input-opts.h"
#include "common/outfile.h"
#include "session/filter.h"
#include "timeline/jitmap.h"
#include "common/pipeline.h"

#include <ctype.h>

const char *const input_opts_usage[] = {
	"  -i, --input FILE      perf.data to read (default: perf.data; '-' for stdin)",
	"  -o, --output FILE     write to FILE (default, and with -o -: stdout)",
	"      --symfs DIR       look for every binary under DIR",
	"      --kallsyms FILE   kernel symbols (default: /proc/kallsyms when the",
	"                        recording was made on the running kernel)",
	"      --buildid-dir DIR perf build-id cache (default: ~/.debug)",
	"      --no-demangle     keep C++ and Rust names mangled",
	"      --pid PID,...     only samples of these processes",
	"      --tid TID,...     only samples of these threads",
	"      --comm NAME,...   only samples of threads with these names",
	"      --event NAME      only samples of this event",
	"      --time START,END  only samples in this time window, as perf script",
	"                        takes it: seconds of the sample clock, either side",
	"                        may be empty, ranges apart by blanks; or percent",
	"                        slices of the recording: 10%/2, 0%-10%,30%-40%",
	"      --cpu LIST        only samples taken on these CPUs (0-2,4)",
	"      --jit-dir DIR     look for jit-PID.dump files in DIR too (repeatable)",
	"      --perfmap-dir DIR look for perf-PID.map files in DIR too (repeatable)",
	"      --jitdump PID=FILE",
	"                        process PID's jitdump is FILE (PID as the recording",
	"                        shows it, e.g. in a container; repeatable)",
	"      --perfmap PID=FILE",
	"                        process PID's perf map is FILE (repeatable)",
	"      --threads N       threads to work with (default: one per CPU, at",
	"                        most 2); the output is the same with any N",
	"  -q, --quiet           no warnings",
	"  -v, --verbose         more detail on stderr",
	"  -h, --help            this help",
	NULL,
};

const struct option input_long_options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "comm", required_argument, NULL, OPT_COMM },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "jit-dir", required_argument, NULL, OPT_JIT_DIR },
	{ "perfmap-dir", required_argument, NULL, OPT_PERFMAP_DIR },
	{ "jitdump", required_argument, NULL, OPT_JITDUMP },
	{ "perfmap", required_argument, NULL, OPT_PERFMAP },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

void input_opts__init(struct input_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->path = "perf.data";
	o->session.resolve.demangle = true;
	o->session.threads = pipeline__default_threads(INPUT_MAX_THREADS);
}

void input_opts__release(struct input_opts *o)
{
	struct sample_filter *f = &o->session.filter;

	free(f->pids);
	free(f->tids);
	if (f->nr_comms)
		free((void *)f->comms[0]);
	free(f->comms);
	free(f->cpus);
	free(o->session.jit_dirs);
	free(o->session.perfmap_dirs);
	free(o->session.given);
}

static void add_dir(const char ***dirs, size_t *nr, const char *dir)
{
	*dirs = xreallocarray(*dirs, st_add(*nr, 1), sizeof(**dirs));
	(*dirs)[(*nr)++] = dir;
}

/* --jitdump/--perfmap PID=FILE: the loader named after the option reads FILE for PID. */
static int add_given(struct session_opts *so, const char *loader, const char *arg)
{
	const char *eq = strchr(arg, '=');
	unsigned long pid;
	char *end;

	errno = 0;
	pid = strtoul(arg, &end, 10);
	if (!isdigit((unsigned char)*arg) || end != eq || errno || !pid || pid > UINT32_MAX ||
	    !eq[1])
		return error("invalid --%s '%s': expected PID=FILE, PID a process id", loader,
			     arg);
	so->given = xreallocarray(so->given, st_add(so->nr_given, 1), sizeof(*so->given));
	so->given[so->nr_given].pid = (uint32_t)pid;
	so->given[so->nr_given].loader = loader;
	so->given[so->nr_given++].path = eq + 1;
	return 0;
}

/* --threads N: 1 and up; more than INPUT_MAX_THREADS run as that many. */
static int parse_threads(struct session_opts *so, const char *arg)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (!isdigit((unsigned char)*arg) || *end || errno || n < 1 || n > 1024)
		return error("--threads takes a number from 1 to 1024, not '%s'", arg);
	so->threads = n < INPUT_MAX_THREADS ? (unsigned int)n : INPUT_MAX_THREADS;
	return 0;
}

/* --time: checked here; percent slices are made when the recording's times are known. */
static int parse_time(struct sample_filter *f, const char *arg)
{
	struct time_range *ranges = NULL;
	size_t nr = 0;
	int ret = time_filter__parse(arg, 0, 0, &ranges, &nr);

	free(ranges);
	f->time = arg;
	return ret;
}

int input_opts__parse(struct input_opts *o, int c, const char *arg)
{
	struct sample_filter *f = &o->session.filter;

	switch (c) {
	case 'i':             o->path = arg; return 1;
	/* '-' is standard output, as '-' for the input is standard input */
	case 'o':             o->output = strcmp(arg, "-") ? arg : NULL; return 1;
	case OPT_SYMFS:       o->session.resolve.symfs = arg; return 1;
	case OPT_KALLSYMS:    o->session.resolve.kallsyms = arg; return 1;
	case OPT_BUILDID_DIR: o->session.resolve.buildid_dir = arg; return 1;
	case OPT_NO_DEMANGLE: o->session.resolve.demangle = false; return 1;
	case OPT_PID:         return parse_id_list(arg, &f->pids, &f->nr_pids) ? -1 : 1;
	case OPT_TID:         return parse_id_list(arg, &f->tids, &f->nr_tids) ? -1 : 1;
	case OPT_COMM:
		if (f->nr_comms)
			return error("--comm given twice; list the names with commas") , -1;
		parse_str_list(arg, &f->comms, &f->nr_comms);
		return 1;
	case OPT_EVENT:       f->event = arg; return 1;
	case OPT_TIME:        return parse_time(f, arg) ? -1 : 1;
	case OPT_CPU:
		if (f->cpus)
			return error("--cpu given twice; list the cpus with commas"), -1;
		f->cpu_list = arg;
		return cpu_filter__parse(arg, &f->cpus) ? -1 : 1;
	case OPT_JIT_DIR:
		add_dir(&o->session.jit_dirs, &o->session.nr_jit_dirs, arg);
		return 1;
	case OPT_PERFMAP_DIR:
		add_dir(&o->session.perfmap_dirs, &o->session.nr_perfmap_dirs, arg);
		return 1;
	case OPT_JITDUMP:     return add_given(&o->session, "jitdump", arg) ? -1 : 1;
	case OPT_PERFMAP:     return add_given(&o->session, "perfmap", arg) ? -1 : 1;
	case OPT_THREADS:     return parse_threads(&o->session, arg) ? -1 : 1;
	case 'q':             verbosity = -1; return 1;
	case 'v':             verbosity++; return 1;
	default:              return 0;
	}
}

struct outfile *input_opts__open_output(const struct input_opts *o)
{
	return outfile__open(o->output, o->session.threads > 1 && o->output_thread);
}

int input_opts__close_output(struct outfile *out, bool keep)
{
	return outfile__close(out, keep);
}

void input_opts__usage(FILE *fp, unsigned nr_inputs)
{
	const char *const *usage;

	fprintf(fp, "\nOptions for reading the recording:\n");
	for (usage = input_opts_usage; *usage; usage++)
		if (nr_inputs != 2 || strncmp(*usage, "  -i, --input ", 14))
			fprintf(fp, "%s\n", *usage);
}
