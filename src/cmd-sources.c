/*
 * jitsym sources: per process, where its frames' names came from (ELF,
 * kernel, jitdump, perf map) and which files were found, read or missed.
 * The answer to "why are my JIT frames [unknown]?".
 */
#include "common.h"
#include "cmds.h"
#include "command.h"
#include "jit-loader.h"
#include "jitmap.h"
#include "machine.h"
#include "sbuf.h"

#include <uthash.h>

static const char *const sources_usage[] = {
	"usage: jitsym sources [options] [perf.data]",
	"",
	"For each process with samples: the jitdump and perf map used (or the",
	"paths tried), and how many frames ELF symbols, the kernel, the jitdump",
	"and the perf map resolved, and how many stayed [unknown] (by mapping).",
	NULL,
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

/* Each JIT side file pid's loaders read (what it held) or looked for (where). */
static void print_files(FILE *out, const struct jitmap *jm, uint32_t pid)
{
	const struct jit_loader *const *l;
	struct sbuf what = SBUF_INIT;

	for (l = jit_loaders; *l; l++) {
		const struct jit_file_info *fi = jitmap__file(jm, pid, *l);

		if (!fi)
			break;    /* nothing known of pid */
		if (fi->path) {
			sbuf_reset(&what);
			(*l)->describe(fi, &what);
			fprintf(out, "  %-9s %s: %s%s%s\n", (*l)->name, fi->path, what.buf,
				fi->problem ? "; stopped early: " : "",
				fi->problem ? fi->problem : "");
		} else if (fi->tried) {
			fprintf(out, "  %-9s not found (tried %s)\n", (*l)->name, fi->tried);
		}
	}
	sbuf_release(&what);
}

static void print_proc(FILE *out, const struct proc_stats *ps, const struct jitmap *jm)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < K_MAX; i++)
		total += ps->frames[i];
	fprintf(out, "pid %" PRIu32 " (%s): %" PRIu64 " sample%s\n", ps->pid,
		ps->comm ? ps->comm : "?", ps->samples, ps->samples == 1 ? "" : "s");
	print_files(out, jm, ps->pid);
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

static int sources_finish(void *ctx, const struct session *s, FILE *out)
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
		print_proc(out, list[i], session__jitmap(s));
	free(list);
	return ferror(out) ? -1 : 0;
}

static void sources_release(void *ctx)
{
	struct sources_cmd *cmd = ctx;
	struct proc_stats *ps, *tmp;

	HASH_ITER(hh, cmd->procs, ps, tmp) {
		HASH_DEL(cmd->procs, ps);
		free(ps->unres);
		free(ps);
	}
}

static const struct command sources_command = {
	.usage = sources_usage,
	.sample = sources_sample,
	.finish = sources_finish,
	.release = sources_release,
};

int cmd_sources(int argc, char **argv)
{
	struct sources_cmd cmd = { 0 };

	return command__run(&sources_command, &cmd, argc, argv);
}
