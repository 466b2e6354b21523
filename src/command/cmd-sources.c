/*
 * jitsym sources: per process, where its frames' names came from (ELF,
 * kernel, jitdump, perf map) and which files were found, read or missed.
 * The answer to "why are my JIT frames [unknown]?".
 */
#include "common/common.h"
#include "common/vfs.h"
#include "command/cmds.h"
#include "command/command.h"
#include "resolve/debuginfod.h"
#include "resolve/dwarf-cache.h"
#include "timeline/jit-loader.h"
#include "timeline/jitmap.h"
#include "timeline/machine.h"
#include "common/sbuf.h"

#include "unwind/unwind.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uthash.h>

static const char *const sources_usage[] = {
	"usage: jitsym sources [options] [perf.data]",
	"",
	"For each process with samples: the jitdump and perf map used (or the",
	"paths tried), and how many frames ELF symbols, the kernel, the jitdump",
	"and the perf map resolved, and how many stayed [unknown] (by mapping);",
	"for --call-graph dwarf recordings, the user stacks unwound from their",
	"stack dumps, the frames CFI and frame pointers found, why stacks ended",
	"early, and what to record with where that would have let them go on;",
	"for samples whose user call chain the kernel deferred, how many were",
	"joined to it and how many never got it. With --vmlinux, whether that",
	"image named the kernel's frames, and why not. When the DWARF cache was",
	"read or written (JITSYM_CACHE_DIR), what it gave and took. With",
	"--debuginfod, each build id asked for: fetched (from where, to where,",
	"its size), not found, or failed and why.",
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
	uint64_t stack_need;          /* the most bytes a too short dump needed past its SIZE */
	struct unresolved *no_cfi;    /* "no CFI" ends by object (interned: by pointer) */
	size_t nr_no_cfi, alloc_no_cfi;
};

struct proc_stats {
	uint32_t pid;
	const char *comm;
	uint64_t samples;
	uint64_t frames[K_MAX];
	/* frames of inlined functions (sample.h), and the ELF frames they came with */
	uint64_t inlined, with_inlined;
	uint64_t kernel_with_inlined;   /* of with_inlined, kernel frames (named from --vmlinux) */
	struct unresolved *unres;
	size_t nr_unres, alloc_unres;
	struct unwound uw;
	uint64_t py_samples;          /* samples with a CPython -X perf trampoline (py::) */
	/* after the last whole record of its jitdump that stopped early: samples, and those a perf map named */
	uint64_t after_cut, after_cut_perfmap;
	uint64_t deferred[3];         /* by enum deferred_join: joined, never came */
	UT_hash_handle hh;
};

struct sources_cmd {
	struct proc_stats *procs;
	const struct jitmap *jm;
	struct debuginfod *debuginfod;      /* the run's, or NULL */
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

static void count_unwound(struct unwound *uw, const struct unwind_result *res,
			  const struct pd_attr *attr)
{
	uw->stacks++;
	uw->by_cfi += res->nr_cfi;
	uw->by_fp += res->nr_fp;
	uw->ends[res->end < UNWIND_END__NR ? res->end : UNWIND_END_BAD_RULE]++;
	if (res->end == UNWIND_END_NO_CFI)
		count_in(&uw->no_cfi, &uw->nr_no_cfi, &uw->alloc_no_cfi,
			 res->object ? res->object : UNKNOWN_LABEL);
	/* past the SIZE recorded: a larger one helps (else the dump was cut before it) */
	if (res->end == UNWIND_END_STACK_SHORT && res->stack_need > uw->stack_need &&
	    (!attr || res->stack_need > attr->attr.sample_stack_user))
		uw->stack_need = res->stack_need;
}

/* rs after the last whole record of its process's timed file that stopped early: counted. */
static void count_after_cut(const struct jitmap *jm, struct proc_stats *ps,
			    const struct resolved_sample *rs)
{
	const struct jit_loader *const *l;
	size_t i;

	for (l = jit_loaders; jm && *l; l++) {
		const struct jit_file_info *fi = jitmap__file(jm, ps->pid, *l);

		if (!fi)
			return;
		if ((*l)->kind != JIT_TIMED || !fi->problem || !fi->path || fi->refused ||
		    (fi->has_last_time && rs->sample->time <= fi->last_time))
			continue;
		ps->after_cut++;
		for (i = 0; i < rs->nr_frames; i++)
			if (rs->frames[i].sym && rs->frames[i].kind == FRAME_PERFMAP) {
				ps->after_cut_perfmap++;
				break;
			}
		return;
	}
}

static void sources_sample(void *ctx, const struct resolved_sample *rs)
{
	struct sources_cmd *cmd = ctx;
	uint32_t pid = rs->sample->pid;
	struct proc_stats *ps;
	size_t i;
	bool py;

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
	for (i = 0, py = false; i < rs->nr_frames; i++) {
		const struct frame *f = &rs->frames[i];
		int k = f->sym ? kind_index(f->kind) : K_UNKNOWN;

		if (f->inlined) {
			ps->inlined++;
			continue;
		}
		if (i > 0 && rs->frames[i - 1].inlined) {
			ps->with_inlined++;
			ps->kernel_with_inlined += f->kind == FRAME_KERNEL;
		}
		ps->frames[k]++;
		if (k == K_UNKNOWN)
			count_in(&ps->unres, &ps->nr_unres, &ps->alloc_unres, f->dso);
		py |= k == K_PERFMAP && !strncmp(f->sym, "py::", 4);
	}
	ps->py_samples += py;
	if (rs->unwind)
		count_unwound(&ps->uw, rs->unwind, rs->sample->attr);
	count_after_cut(cmd->jm, ps, rs);
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

/*
 * Whether a side file is the process's (jitmap.h): why not, and whether it
 * was used anyway; where one stopped early, when, and what came after.
 */
static void side_file_trust(const struct jit_file_info *fi, const struct proc_stats *ps,
			    struct sbuf *what)
{
	uint64_t usec = fi->last_time / 1000;

	if (fi->refused)
		sbuf_addf(what, "; %s: %s", fi->used_anyway ?
			  "not this process's, used as given" : "NOT USED, not this process's",
			  fi->refused);
	if (fi->repeats)
		sbuf_addf(what, "; %zu line%s repeat%s a jitdump load: not used before it",
			  fi->repeats, fi->repeats == 1 ? "" : "s", fi->repeats == 1 ? "s" : "");
	if (!fi->problem || fi->loader->kind != JIT_TIMED)
		return;
	if (fi->has_last_time)
		sbuf_addf(what, "; last whole record at %" PRIu64 ".%06" PRIu64, usec / 1000000,
			  usec % 1000000);
	else
		sbuf_addf(what, "; no whole record");
	sbuf_addf(what, "; %" PRIu64 " sample%s %s, %" PRIu64 " of them with a frame a perf map "
		  "names", ps->after_cut, ps->after_cut == 1 ? "" : "s",
		  fi->has_last_time ? "after it" : "in all", ps->after_cut_perfmap);
}

/*
 * Each JIT side file pid's loaders read (what it held) or looked for
 * (where); returns how many were refused as not the process's.
 */
static size_t print_files(FILE *out, const struct jitmap *jm, const struct proc_stats *ps)
{
	size_t refused = 0;
	uint32_t pid = ps->pid;
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
			if (fi->code_gone)
				sbuf_addf(&what, "; the code of %zu load%s not read again: the "
					  "file changed or went away after it was read", fi->code_gone,
					  fi->code_gone == 1 ? "" : "s");
			side_file_trust(fi, ps, &what);
			refused += fi->refused != NULL;
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
	return refused;
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

/*
 * "unwound N user stacks: F caller frames by CFI, G by frame pointer; ended
 * early: ...", then the stacks that stopped at JIT code without unwinding
 * info (not early ends: the runtime did not say how to unwind its code),
 * and the fix for the two that have one, a line each.
 */
static void print_unwound(FILE *out, const struct unwound *uw)
{
	static const int fixed[] = { UNWIND_END_STACK_SHORT, UNWIND_END_JIT_NO_CFI };
	const char *sep = "; ended early: ";
	char fix[256];
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
		const char *what = map_name__anon_what(uw->no_cfi[i].dso);

		fprintf(out, "%s%" PRIu64 " no CFI for '%s'%s%s%s", sep, uw->no_cfi[i].count,
			uw->no_cfi[i].dso, what ? " (" : "", what ? what : "", what ? ")" : "");
		sep = ", ";
	}
	for (e = 0; e < UNWIND_END__NR; e++) {
		if (e == UNWIND_END_COMPLETE || e == UNWIND_END_NO_CFI ||
		    e == UNWIND_END_JIT_NO_CFI || !uw->ends[e])
			continue;
		fprintf(out, "%s%" PRIu64 " %s", sep, uw->ends[e], unwind_end__name(e));
		sep = ", ";
	}
	if (uw->ends[UNWIND_END_JIT_NO_CFI])
		fprintf(out, "; %" PRIu64 " stopped at JIT code without unwinding info",
			uw->ends[UNWIND_END_JIT_NO_CFI]);
	fputc('\n', out);
	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		if (uw->ends[fixed[i]])
			fprintf(out, "            %s: %s\n", unwind_end__name(fixed[i]),
				unwind_end__fix(fixed[i], uw->stack_need, fix, sizeof(fix)));
}

/*
 * Whether pid's perf map (as read) names CPython -X perf trampolines
 * ("py::f:file.py"): its first lines are read again (read-only) for one.
 */
static bool perfmap_of_python(const struct jitmap *jm, uint32_t pid)
{
	char vbuf[VFS_PATH_BUF];
	const struct jit_loader *const *l;
	const struct jit_file_info *fi = NULL;
	char line[512];
	bool py = false;
	struct stat st;
	FILE *fp;
	int n, fd;

	for (l = jit_loaders; *l && !fi; l++)
		if ((*l)->kind == JIT_UNTIMED)
			fi = jitmap__file(jm, pid, *l);
	if (!fi || !fi->path)
		return false;
	/* a regular file only: a FIFO given with --perfmap was read once already */
	fd = open(vfs_path(fi->path, VFS_PERFMAP, vbuf), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !(fp = fdopen(fd, "r"))) {
		close(fd);
		return false;
	}
	for (n = 0; n < 4096 && !py && fgets(line, sizeof(line), fp); n++)
		py = strstr(line, " py::") != NULL;
	fclose(fp);
	return py;
}

/*
 * CPython 3.12's -X perf: a perf map of py:: trampolines, which perf's
 * frame-pointer call chains (perf record -g) get through only where
 * CPython itself keeps frame pointers; most builds (pyenv's, -O3) do not,
 * and their stacks end in [unknown] after a frame or two, seldom reaching
 * a trampoline. So: a perf map naming py:: code, py:: frames in under 1
 * sample in 10, [unknown] frames 10% or more, no --call-graph dwarf stack.
 * One line with the two fixes CPython's docs give (3.12: build with frame
 * pointers; 3.13: -X perf_jit with --call-graph dwarf).
 */
static void print_python_hint(FILE *out, const struct proc_stats *ps, uint64_t total,
			      const struct jitmap *jm)
{
	if (ps->uw.stacks || ps->py_samples * 10 >= ps->samples ||
	    ps->frames[K_UNKNOWN] * 10 < total || !perfmap_of_python(jm, ps->pid))
		return;
	fprintf(out, "  python    py:: frames (-X perf) in %" PRIu64 " of %" PRIu64 " samples, %"
		PRIu64 " of %" PRIu64 " frames unresolved: frame-pointer stacks (perf record -g) "
		"need a CPython built with CFLAGS=\"-fno-omit-frame-pointer "
		"-mno-omit-leaf-frame-pointer\", or use CPython 3.13's -X perf_jit with "
		"perf record -k 1 --call-graph dwarf\n", ps->py_samples, ps->samples,
		ps->frames[K_UNKNOWN], total);
}

/* Returns how many of its side files were refused as not its own. */
static size_t print_proc(FILE *out, const struct proc_stats *ps, const struct jitmap *jm)
{
	size_t refused;
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < K_MAX; i++)
		total += ps->frames[i];
	fprintf(out, "pid %" PRId32 " (%s): %" PRIu64 " sample%s\n", (int32_t)ps->pid,
		ps->comm ? ps->comm : "?", ps->samples, ps->samples == 1 ? "" : "s");
	print_ns(out, jm, ps->pid);
	refused = print_files(out, jm, ps);
	fprintf(out, "  frames    %" PRIu64 ": %" PRIu64 " ELF, %" PRIu64 " kernel, %" PRIu64
		" jitdump, %" PRIu64 " perf map, %" PRIu64 " unresolved\n", total,
		ps->frames[K_NATIVE], ps->frames[K_KERNEL], ps->frames[K_JIT],
		ps->frames[K_PERFMAP], ps->frames[K_UNKNOWN]);
	if (ps->inlined && !ps->kernel_with_inlined)
		fprintf(out, "  inlined   %" PRIu64 " frames of inlined functions, in %" PRIu64
			" of the ELF frames (--no-inline leaves them out)\n", ps->inlined,
			ps->with_inlined);
	else if (ps->inlined)
		fprintf(out, "  inlined   %" PRIu64 " frames of inlined functions, in %" PRIu64
			" of the ELF frames and %" PRIu64 " of the kernel frames (--no-inline "
			"leaves them out)\n", ps->inlined,
			ps->with_inlined - ps->kernel_with_inlined, ps->kernel_with_inlined);
	if (ps->nr_unres)
		qsort(ps->unres, ps->nr_unres, sizeof(*ps->unres), by_count);
	for (i = 0; i < ps->nr_unres; i++) {
		/* "/dev/zero (deleted)" is no file: say what it is */
		const char *what = map_name__anon_what(ps->unres[i].dso);

		fprintf(out, "            %" PRIu64 " unresolved in %s%s%s%s\n", ps->unres[i].count,
			ps->unres[i].dso, what ? " (" : "", what ? what : "", what ? ")" : "");
	}
	print_unwound(out, &ps->uw);
	print_python_hint(out, ps, total, jm);
	if (ps->deferred[DEFERRED_JOINED] || ps->deferred[DEFERRED_MISSING])
		fprintf(out, "  deferred  %" PRIu64 " user call chain%s joined from CALLCHAIN_DEFERRED "
			"records, %" PRIu64 " never came\n", ps->deferred[DEFERRED_JOINED],
			ps->deferred[DEFERRED_JOINED] == 1 ? "" : "s", ps->deferred[DEFERRED_MISSING]);
	return refused;
}

/* What the DWARF cache (resolve/dwarf-cache.h) did, when it did anything. */
static void print_dwarf_cache(FILE *out)
{
	struct dwarf_cache_stats st;

	dwarf_cache__stats(&st);
	if (!st.dir || !(st.read + st.written + st.rejected + st.failed))
		return;
	fprintf(out, "DWARF cache %s: %" PRIu64 " debug files' inflated sections read from it, %"
		PRIu64 " written", st.dir, st.read, st.written);
	if (st.rejected)
		fprintf(out, ", %" PRIu64 " stale or damaged (not read; written again)", st.rejected);
	if (st.failed)
		fprintf(out, ", %" PRIu64 " not written (%s)", st.failed, st.reason);
	fputc('\n', out);
}

/* One build id asked of debuginfod: what became of it. */
static void print_debuginfod_result(FILE *out, const struct debuginfod_result *r)
{
	static const char *const state[] = {
		[DEBUGINFOD_FETCHED] = "fetched", [DEBUGINFOD_NOT_FOUND] = "not found",
		[DEBUGINFOD_FAILED] = "failed",
	};

	fprintf(out, "  %-9s %s '%s'", state[r->state], r->hex, r->path);
	if (r->state == DEBUGINFOD_FETCHED) {
		fprintf(out, ": %s%s, %" PRIu64 " bytes, in %s", r->url ? "from " : "from the "
			"client's cache", r->url ? r->url : "", r->size, r->file);
		if (r->reason)
			fprintf(out, "; not used: %s", r->reason);
	} else if (r->state == DEBUGINFOD_FAILED) {
		fprintf(out, ": %s", r->reason);
	}
	fputc('\n', out);
}

/*
 * With --debuginfod: the servers, the counts, then each build id asked
 * for, by path (debuginfod.h), whatever the order they were asked in.
 */
static void print_debuginfod(FILE *out, struct debuginfod *d)
{
	const struct debuginfod_result *res;
	size_t nr, i, n[3] = { 0, 0, 0 };

	if (!debuginfod__on(d))
		return;
	res = debuginfod__results(d, &nr);
	for (i = 0; i < nr; i++)
		n[res[i].state]++;
	fprintf(out, "debuginfod '%s': %zu debug file%s asked for: %zu fetched, %zu not found, "
		"%zu failed\n", debuginfod__urls(d), nr, nr == 1 ? "" : "s",
		n[DEBUGINFOD_FETCHED], n[DEBUGINFOD_NOT_FOUND], n[DEBUGINFOD_FAILED]);
	for (i = 0; i < nr; i++)
		print_debuginfod_result(out, &res[i]);
}

static int sources_finish(void *ctx, const struct session *s, FILE *out)
{
	struct sources_cmd *cmd = ctx;
	size_t nr = HASH_COUNT(cmd->procs), i = 0, refused = 0;
	struct proc_stats **list = xcalloc(nr ? nr : 1, sizeof(*list));
	struct proc_stats *ps;

	for (ps = cmd->procs; ps; ps = ps->hh.next)
		list[i++] = ps;
	if (nr)
		qsort(list, nr, sizeof(*list), by_samples);
	for (i = 0; i < nr; i++)
		refused += print_proc(out, list[i], session__jitmap(s));
	if (refused)
		fprintf(out, "side files not their process's: %zu (see each; give the right one with "
			"--jitdump PID=FILE)\n", refused);
	if (session__vmlinux_status(s))
		fprintf(out, "kernel: %s\n", session__vmlinux_status(s));
	print_dwarf_cache(out);
	print_debuginfod(out, cmd->debuginfod);
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

static void sources_prepare(void *ctx, struct command_opts *o)
{
	struct sources_cmd *cmd = ctx;

	/* what each side file dropped: bad file names in line tables too */
	o->in.session.jit_file_stats = true;
	cmd->debuginfod = o->in.session.resolve.debuginfod;
}

static int sources_start(void *ctx, const struct session *s, FILE *out)
{
	struct sources_cmd *cmd = ctx;

	(void)out;
	cmd->jm = session__jitmap(s);
	return 0;
}

static const struct command sources_command = {
	.usage = sources_usage,
	.prepare = sources_prepare,
	.start = sources_start,
	.sample = sources_sample,
	.finish = sources_finish,
	.release = sources_release,
};

int cmd_sources(int argc, char **argv)
{
	struct sources_cmd cmd = { 0 };

	return command__run(&sources_command, &cmd, argc, argv);
}
