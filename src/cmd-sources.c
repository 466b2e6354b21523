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

#include "unwind.h"

#include <uthash.h>

static const char *const sources_usage[] = {
	"usage: jitsym sources [options] [perf.data]",
	"",
	"For each process with samples: the jitdump and perf map used (or the",
	"paths tried), and how many frames ELF symbols, the kernel, the jitdump",
	"and the perf map resolved, and how many stayed [unknown] (by mapping);",
	"for --call-graph dwarf recordings, the user stacks unwound from their",
	"stack dumps, the frames CFI and frame pointers found, and why stacks",
	"ended early; for samples whose user call chain the kernel deferred,",
	"how many were joined to it and how many never got it.",
	NULL,
};

enum { K_NATIVE, K_KERNEL, K_JIT, K_PERFMAP, K_UNKNOWN, K_MAX };

struct unresolved {
	const char *dso;        /* interned by the session: compare by pointer */
	uint64_t count;
};

/* The user stacks unwound from --call-graph dwarf dumps, and how they ended. */
struct unwound {
	uint64_t stacks, by_cfi, by_fp;
	uint64_t ends[UNWIND_END__NR];
	struct unresolved *no_cfi;    /* "no CFI" ends by object (interned: by pointer) */
	size_t nr_no_cfi, alloc_no_cfi;
};

struct proc_stats {
	uint32_t pid;
	const char *comm;
	uint64_t samples;
	uint64_t frames[K_MAX];
	struct unresolved *unres;
	size_t nr_unres, alloc_unres;
	struct unwound uw;
	uint64_t deferred[3];         /* by enum deferred_join: joined, never came */
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

/* One more for name (interned) in the list. */
static void count_in(struct unresolved **list, size_t *nr, size_t *alloc, const char *name)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if ((*list)[i].dso == name) {
			(*list)[i].count++;
			return;
		}
	ALLOC_GROW(*list, *nr + 1, *alloc);
	(*list)[*nr].dso = name;
	(*list)[(*nr)++].count = 1;
}

static void count_unwound(struct unwound *uw, const struct unwind_result *res)
{
	uw->stacks++;
	uw->by_cfi += res->nr_cfi;
	uw->by_fp += res->nr_fp;
	uw->ends[res->end < UNWIND_END__NR ? res->end : UNWIND_END_BAD_RULE]++;
	if (res->end == UNWIND_END_NO_CFI)
		count_in(&uw->no_cfi, &uw->nr_no_cfi, &uw->alloc_no_cfi,
			 res->object ? res->object : "[unknown]");
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
	/* the main thread's name; not the ":TID" of one seen after its EXIT */
	if (!ps->comm || (rs->sample->tid == pid && rs->thread->comm[0] != ':'))
		ps->comm = rs->thread->comm;   /* interned: lives as long as the session */
	ps->samples++;
	for (i = 0; i < rs->nr_frames; i++) {
		const struct frame *f = &rs->frames[i];
		int k = f->sym ? kind_index(f->kind) : K_UNKNOWN;

		ps->frames[k]++;
		if (k == K_UNKNOWN)
			count_in(&ps->unres, &ps->nr_unres, &ps->alloc_unres, f->dso);
	}
	if (rs->unwind)
		count_unwound(&ps->uw, rs->unwind);
	ps->deferred[rs->deferred]++;
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
			if (fi->rule)
				sbuf_addf(&what, "; %s", fi->rule);
			if (fi->not_used)
				sbuf_addf(&what, "; %zu record%s of other processes of its pid "
					  "namespace not used (their host pids are unknown)",
					  fi->not_used, fi->not_used == 1 ? "" : "s");
			fprintf(out, "  %-9s %s%s%s%s: %s%s%s\n", (*l)->name, fi->path,
				fi->how ? " (" : "", fi->how ? fi->how : "", fi->how ? ")" : "",
				what.buf, fi->problem ? "; stopped early: " : "",
				fi->problem ? fi->problem : "");
		} else if (fi->tried) {
			fprintf(out, "  %-9s not found (%s%stried %s)\n", (*l)->name,
				fi->how ? fi->how : "", fi->how ? ": " : "", fi->tried);
		}
	}
	sbuf_release(&what);
}

/*
 * What is known of pid's pid namespace: its pid there and how that is
 * known, or why none is (a NAMESPACES record says it is elsewhere).
 */
static void print_ns(FILE *out, const struct jitmap *jm, uint32_t pid)
{
	const struct jit_ns_info *ns = jitmap__ns(jm, pid);
	const char *other = "in another pid namespace than perf's (NAMESPACES)";

	if (!ns)
		return;
	if (ns->nspid)
		fprintf(out, "  pid ns    namespace pid %" PRIu32 " (%s)%s%s\n", ns->nspid, ns->why,
			ns->other_ns ? "; " : "", ns->other_ns ? other : "");
	else
		fprintf(out, "  pid ns    %s; its pid there is unknown: give its files with "
			"--perfmap %" PRIu32 "=FILE, --jitdump %" PRIu32 "=FILE\n", other, pid, pid);
}

/* "unwound N user stacks: F caller frames by CFI, G by frame pointer; ended early: ..." */
static void print_unwound(FILE *out, const struct unwound *uw)
{
	const char *sep = "; ended early: ";
	size_t i;
	int e;

	if (!uw->stacks)
		return;
	fprintf(out, "  unwound   %" PRIu64 " user stack%s: %" PRIu64 " caller frames by CFI, %"
		PRIu64 " by frame pointer", uw->stacks, uw->stacks == 1 ? "" : "s", uw->by_cfi,
		uw->by_fp);
	if (uw->nr_no_cfi)
		qsort(uw->no_cfi, uw->nr_no_cfi, sizeof(*uw->no_cfi), by_count);
	for (i = 0; i < uw->nr_no_cfi; i++) {
		fprintf(out, "%s%" PRIu64 " no CFI for '%s'", sep, uw->no_cfi[i].count,
			uw->no_cfi[i].dso);
		sep = ", ";
	}
	for (e = 0; e < UNWIND_END__NR; e++) {
		if (e == UNWIND_END_COMPLETE || e == UNWIND_END_NO_CFI || !uw->ends[e])
			continue;
		fprintf(out, "%s%" PRIu64 " %s", sep, uw->ends[e], unwind_end__name(e));
		sep = ", ";
	}
	fputc('\n', out);
}

static void print_proc(FILE *out, const struct proc_stats *ps, const struct jitmap *jm)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < K_MAX; i++)
		total += ps->frames[i];
	fprintf(out, "pid %" PRId32 " (%s): %" PRIu64 " sample%s\n", (int32_t)ps->pid,
		ps->comm ? ps->comm : "?", ps->samples, ps->samples == 1 ? "" : "s");
	print_ns(out, jm, ps->pid);
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
	print_unwound(out, &ps->uw);
	if (ps->deferred[DEFERRED_JOINED] || ps->deferred[DEFERRED_MISSING])
		fprintf(out, "  deferred  %" PRIu64 " user call chain%s joined from CALLCHAIN_DEFERRED "
			"records, %" PRIu64 " never came\n", ps->deferred[DEFERRED_JOINED],
			ps->deferred[DEFERRED_JOINED] == 1 ? "" : "s", ps->deferred[DEFERRED_MISSING]);
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
		free(ps->uw.no_cfi);
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
