#include "common/common.h"
#include "command/input-opts.h"
#include "common/outfile.h"
#include "resolve/debuginfod.h"
#include "session/filter.h"
#include "timeline/jitmap.h"
#include "common/pipeline.h"

#include <ctype.h>

const struct cmd_option input_options[] = {
	{ .name = "input", .short_name = 'i', .arg = " FILE",
	  .help = "perf.data to read (default: perf.data; '-' for stdin)" },
	{ .name = "output", .short_name = 'o', .arg = " FILE",
	  .help = "write to FILE (default, and with -o -: stdout)" },
	{ .name = "symfs", .id = OPT_SYMFS, .arg = " DIR",
	  .help = "look for every binary under DIR" },
	{ .name = "kallsyms", .id = OPT_KALLSYMS, .arg = " FILE",
	  .help = "kernel symbols (default: /proc/kallsyms when the\n"
		  "recording was made on the running kernel)" },
	{ .name = "vmlinux", .id = OPT_VMLINUX, .arg = " FILE",
	  .help = "the recorded kernel's image: core kernel symbols\n"
		  "(relocated for KASLR) and inline frames from its\n"
		  "DWARF (modules: kallsyms)" },
	{ .name = "buildid-dir", .id = OPT_BUILDID_DIR, .arg = " DIR",
	  .help = "perf build-id cache (default: ~/.debug)" },
	{ .name = "debuginfod", .id = OPT_DEBUGINFOD, .arg = "[=URLS]",
	  .help = "fetch the debug files of native code without\n"
		  "symbols here, by recorded build id, from debuginfod\n"
		  "servers (URLS apart by blanks; default:\n"
		  "$DEBUGINFOD_URLS); DEBUGINFOD_MAXTIME (default 30)\n"
		  "seconds a run at most" },
	{ .name = "no-demangle", .id = OPT_NO_DEMANGLE,
	  .help = "keep C++ and Rust names mangled" },
	{ .name = "no-inline", .id = OPT_NO_INLINE,
	  .help = "no frames for the functions inlined at an\n"
		  "address (perf script --no-inline): one frame per\n"
		  "address, named after its ELF symbol" },
	{ .name = "pid", .id = OPT_PID, .arg = " PID,...",
	  .help = "only samples of these processes" },
	{ .name = "tid", .id = OPT_TID, .arg = " TID,...",
	  .help = "only samples of these threads" },
	{ .name = "comm", .id = OPT_COMM, .arg = " NAME,...",
	  .help = "only samples of threads with these names" },
	{ .name = "event", .id = OPT_EVENT, .arg = " NAME",
	  .help = "only samples of this event" },
	{ .name = "time", .id = OPT_TIME, .arg = " START,END",
	  .help = "only samples in this time window, as perf script\n"
		  "takes it: seconds of the sample clock, either side\n"
		  "may be empty, ranges apart by blanks; or percent\n"
		  "slices of the recording: 10%/2, 0%-10%,30%-40%" },
	{ .name = "cpu", .id = OPT_CPU, .arg = " LIST",
	  .help = "only samples taken on these CPUs (0-2,4)" },
	{ .name = "jit-dir", .id = OPT_JIT_DIR, .arg = " DIR",
	  .help = "look for jit-PID.dump files in DIR too (repeatable)" },
	{ .name = "perfmap-dir", .id = OPT_PERFMAP_DIR, .arg = " DIR",
	  .help = "look for perf-PID.map files in DIR too (repeatable)" },
	{ .name = "jitdump", .id = OPT_JITDUMP, .arg = " PID=FILE",
	  .help = "\nprocess PID's jitdump is FILE (PID as the recording\n"
		  "shows it, e.g. in a container; repeatable)" },
	{ .name = "perfmap", .id = OPT_PERFMAP, .arg = " PID=FILE",
	  .help = "\nprocess PID's perf map is FILE (repeatable)" },
	{ .name = "threads", .id = OPT_THREADS, .arg = " N",
	  .help = "threads to work with (default: one per CPU): two\n"
		  "read a recording, and fold reads N/2 of several at\n"
		  "a time; the output is the same with any N" },
	{ .name = "quiet", .short_name = 'q',
	  .help = "no warnings" },
	{ .name = "verbose", .short_name = 'v',
	  .help = "more detail on stderr" },
	{ .name = "help", .short_name = 'h',
	  .help = "this help" },
	CMD_OPTION_END,
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
	free(o->lookup);
	debuginfod__delete(o->session.resolve.debuginfod);
	o->session.resolve.debuginfod = NULL;
}

int input_opts__finish(struct input_opts *o)
{
	return debuginfod__new(o->debuginfod, o->debuginfod_urls,
			       &o->session.resolve.debuginfod);
}

void input_opts__clear_lookup(struct input_opts *o)
{
	struct session_opts *so = &o->session;

	so->resolve.symfs = so->resolve.kallsyms = so->resolve.vmlinux = NULL;
	so->resolve.buildid_dir = NULL;
	free(so->jit_dirs);
	free(so->perfmap_dirs);
	free(so->given);
	so->jit_dirs = so->perfmap_dirs = NULL;
	so->given = NULL;
	so->nr_jit_dirs = so->nr_perfmap_dirs = so->nr_given = 0;
	o->nr_lookup = 0;
}

const char *input_opts__name(int id)
{
	const struct cmd_option *opt;

	for (opt = input_options; !cmd_option__is_end(opt); opt++)
		if (opt->name && opt->id == id)
			return opt->name;
	return NULL;
}

int input_opts__id(const char *name)
{
	const struct cmd_option *opt;

	for (opt = input_options; !cmd_option__is_end(opt); opt++)
		if (opt->name && !strcmp(opt->name, name))
			return opt->id;
	return -1;
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
	case OPT_SYMFS: case OPT_KALLSYMS: case OPT_VMLINUX: case OPT_BUILDID_DIR:
	case OPT_JIT_DIR: case OPT_PERFMAP_DIR: case OPT_JITDUMP: case OPT_PERFMAP:
		ALLOC_GROW(o->lookup, o->nr_lookup + 1, o->alloc_lookup);
		o->lookup[o->nr_lookup++] = (struct input_lookup){ c, arg };
		break;
	default:
		break;
	}
	switch (c) {
	case 'i':             o->path = arg; return 1;
	/* '-' is standard output, as '-' for the input is standard input */
	case 'o':             o->output = strcmp(arg, "-") ? arg : NULL; return 1;
	case OPT_SYMFS:       o->session.resolve.symfs = arg; return 1;
	case OPT_KALLSYMS:    o->session.resolve.kallsyms = arg; return 1;
	case OPT_VMLINUX:     o->session.resolve.vmlinux = arg; return 1;
	case OPT_BUILDID_DIR: o->session.resolve.buildid_dir = arg; return 1;
	case OPT_NO_DEMANGLE: o->session.resolve.demangle = false; return 1;
	case OPT_DEBUGINFOD:
		o->debuginfod = true;
		o->debuginfod_urls = arg;
		return 1;
	case OPT_NO_INLINE: o->session.no_inline = true; return 1;
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
	const struct cmd_option *o;

	fprintf(fp, "\n" INPUT_OPTS_HEADING ":\n");
	for (o = input_options; !cmd_option__is_end(o); o++)
		if (nr_inputs != 2 || o->short_name != 'i')
			cmd_option__print(o, 24, fp);
}
