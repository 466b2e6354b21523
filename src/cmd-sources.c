/*
 * jitsym sources: per process, where its frames' names came from (ELF,
 * kernel, jitdump, perf map) and which files were found, read or missed.
 * The answer to "why are my JIT frames [unknown]?".
 */
#include "common.h"
#include "cmds.h"
#include "input-opts.h"
#include "jitmap.h"
#include "machine.h"

#include <uthash.h>

static const char *const sources_usage[] = {
	"usage: jitsym sources [options] [perf.data]",
	"",
	"For each process with samples: the jitdump and perf map used (or the",
	"paths tried), and how many frames ELF symbols, the kernel, the jitdump",
	"and the perf map resolved, and how many stayed [unknown] (by mapping).",
	"",
	"  -o, --output FILE     write to FILE (default: stdout)",
	NULL,
};

static const struct option sources_options[] = {
	INPUT_LONG_OPTIONS,
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

enum { K_NATIVE, K_KERNEL, K_JIT, K_PERFMAP, K_UNKNOWN, K_MAX };

struct unresolved {
	const char *dso;        /* interned by the session: compare by pointer */
	uint64_t count;
};

struct proc_stats {
	uint32_t pid;
	const char *comm;
	uint64_t samples;
	uint64_t frames[K_MAX];
	struct unresolved *unres;
	size_t nr_unres, alloc_unres;
	UT_hash_handle hh;
};

struct sources_cmd {
	struct input_opts in;
	const char *output;
	FILE *out;
	struct proc_stats *procs;
};

static int kind_index(enum frame_kind k)
{
	switch (k) {
	case FRAME_NATIVE:  return K_NATIVE;
	case FRAME_KERNEL:  return K_KERNEL;
	case FRAME_JIT:     return K_JIT;
	case FRAME_PERFMAP: return K_PERFMAP;
	default:            return K_UNKNOWN;
	}
}

static void count_unresolved(struct proc_stats *ps, const char *dso)
{
	size_t i;

	for (i = 0; i < ps->nr_unres; i++)
		if (ps->unres[i].dso == dso) {
			ps->unres[i].count++;
			return;
		}
	ALLOC_GROW(ps->unres, ps->nr_unres + 1, ps->alloc_unres);
	ps->unres[ps->nr_unres].dso = dso;
	ps->unres[ps->nr_unres++].count = 1;
}

static void sources_sample(void *ctx, const struct resolved_sample *rs)
{
	struct sources_cmd *cmd = ctx;
	uint32_t pid = rs->sample->pid;
	struct proc_stats *ps;
	size_t i;

	HASH_FIND(hh, cmd->procs, &pid, sizeof(pid), ps);
	if (!ps) {
		ps = xcalloc(1, sizeof(*ps));
		ps->pid = pid;
		HASH_ADD(hh, cmd->procs, pid, sizeof(ps->pid), ps);
	}
	if (!ps->comm || rs->sample->tid == pid)
		ps->comm = rs->thread->comm;   /* interned: lives as long as the session */
	ps->samples++;
	for (i = 0; i < rs->nr_frames; i++) {
		const struct frame *f = &rs->frames[i];
		int k = f->sym ? kind_index(f->kind) : K_UNKNOWN;

		ps->frames[k]++;
		if (k == K_UNKNOWN)
			count_unresolved(ps, f->dso);
	}
}

static int by_samples(const void *a, const void *b)
{
	const struct proc_stats *x = *(const struct proc_stats *const *)a;
	const struct proc_stats *y = *(const struct proc_stats *const *)b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int by_count(const void *a, const void *b)
{
	const struct unresolved *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->dso, y->dso);
}

static void print_files(FILE *out, const struct jitmap_proc_info *in)
{
	if (in->jitdump) {
		fprintf(out, "  jitdump   %s: %zu records (%zu loads, %zu moves, %zu debug info)%s%s\n",
			in->jitdump, in->nr_records, in->nr_loads, in->nr_moves, in->nr_debug,
			in->jitdump_problem ? "; stopped early: " : "",
			in->jitdump_problem ? in->jitdump_problem : "");
	} else if (in->jitdump_tried) {
		fprintf(out, "  jitdump   not found (tried %s)\n", in->jitdump_tried);
	}
	if (in->perfmap)
		fprintf(out, "  perf map  %s: %zu entries, %zu bad lines\n", in->perfmap,
			in->nr_perfmap_entries, in->nr_perfmap_bad);
	else if (in->perfmap_tried)
		fprintf(out, "  perf map  not found (tried %s)\n", in->perfmap_tried);
}

static void print_proc(FILE *out, const struct proc_stats *ps, const struct jitmap *jm)
{
	struct jitmap_proc_info info;
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < K_MAX; i++)
		total += ps->frames[i];
	fprintf(out, "pid %" PRIu32 " (%s): %" PRIu64 " sample%s\n", ps->pid,
		ps->comm ? ps->comm : "?", ps->samples, ps->samples == 1 ? "" : "s");
	if (jitmap__proc_info(jm, ps->pid, &info))
		print_files(out, &info);
	fprintf(out, "  frames    %" PRIu64 ": %" PRIu64 " ELF, %" PRIu64 " kernel, %" PRIu64
		" jitdump, %" PRIu64 " perf map, %" PRIu64 " unresolved\n", total,
		ps->frames[K_NATIVE], ps->frames[K_KERNEL], ps->frames[K_JIT],
		ps->frames[K_PERFMAP], ps->frames[K_UNKNOWN]);
	if (ps->nr_unres)
		qsort(ps->unres, ps->nr_unres, sizeof(*ps->unres), by_count);
	for (i = 0; i < ps->nr_unres; i++)
		fprintf(out, "            %" PRIu64 " unresolved in %s\n", ps->unres[i].count,
			ps->unres[i].dso);
}

static void sources_finish(void *ctx, const struct session *s)
{
	struct sources_cmd *cmd = ctx;
	size_t nr = HASH_COUNT(cmd->procs), i = 0;
	struct proc_stats **list = xcalloc(nr ? nr : 1, sizeof(*list));
	struct proc_stats *ps;

	for (ps = cmd->procs; ps; ps = ps->hh.next)
		list[i++] = ps;
	if (nr)
		qsort(list, nr, sizeof(*list), by_samples);
	for (i = 0; i < nr; i++)
		print_proc(cmd->out, list[i], session__jitmap(s));
	free(list);
}

/* 0 to run, 1 for a usage error, -2 for --help. */
static int parse_sources(struct sources_cmd *cmd, int argc, char **argv)
{
	int c, ret;

	while ((c = getopt_long(argc, argv, INPUT_SHORT_OPTIONS "o:", sources_options, NULL)) != -1) {
		ret = input_opts__parse(&cmd->in, c, optarg);
		if (ret < 0)
			return 1;
		if (ret > 0)
			continue;
		switch (c) {
		case 'h': return -2;
		case 'o': cmd->output = optarg; break;
		default: return 1;
		}
	}
	return input_opts__positional(&cmd->in, argc, argv, optind) ? 1 : 0;
}

static void free_stats(struct sources_cmd *cmd)
{
	struct proc_stats *ps, *tmp;

	HASH_ITER(hh, cmd->procs, ps, tmp) {
		HASH_DEL(cmd->procs, ps);
		free(ps->unres);
		free(ps);
	}
}

int cmd_sources(int argc, char **argv)
{
	struct sources_cmd cmd = { .out = stdout };
	struct session_hooks hooks = { NULL, sources_sample, sources_finish, &cmd };
	int ret;

	input_opts__init(&cmd.in);
	cmd.in.session.filter.first_event_only = true;
	ret = parse_sources(&cmd, argc, argv);
	if (ret) {
		print_usage(ret == -2 ? stdout : stderr, sources_usage);
		input_opts__release(&cmd.in);
		return ret == -2 ? EXIT_OK : EXIT_USAGE;
	}
	if (cmd.output && !(cmd.out = fopen(cmd.output, "w"))) {
		input_opts__release(&cmd.in);
		error("cannot open '%s' for writing: %s", cmd.output, strerror(errno));
		return EXIT_USAGE;
	}
	ret = session__run(cmd.in.path, &cmd.in.session, &hooks);
	if (fflush(cmd.out) || ferror(cmd.out))
		ret = error("cannot write output: %s", strerror(errno));
	if (cmd.out != stdout)
		fclose(cmd.out);
	free_stats(&cmd);
	input_opts__release(&cmd.in);
	return ret ? EXIT_INPUT : EXIT_OK;
}
