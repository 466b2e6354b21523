/*
 * Whose a JIT side file and its records are (jitmap.h states the rules):
 * the pid the file's writer gave itself against the pid in the name of
 * the file the process mapped and what PERF_RECORD_NAMESPACES says of the
 * process's pid namespace; each record's pid; the records' times against
 * the process's mapping of the file and its latest fork or exec. A file
 * that is not the process's is named in one warning and its records are
 * taken back (unless the user gave it); one that is tells the process
 * its namespace pid. The loaders reach this through jit_feed__pid() and
 * jit_feed__writer_pid(); jitmap-read.c calls jit_feed__judge() after a
 * read, jitmap-timed.c jit_feed__record_proc() for each record.
 */
#include "common/common.h"
#include "timeline/jitmap-internal.h"
#include "timeline/jit-locate.h"
#include "common/strpool.h"

/* ---- pid namespaces --------------------------------------------------- */

/*
 * p's pid in its own namespace is nspid (why says how that is known). A
 * writer's own word (from_file) beats a guess. Its untimed files not
 * found yet are looked for again, now by this pid too.
 */
static void learn_nspid(struct jitmap *jm, struct jitproc *p, uint32_t nspid, const char *why,
			bool from_file)
{
	size_t i;

	if (p->ns.nspid && p->nspid_from_file && !from_file)
		return;
	if (p->ns.nspid == nspid && !from_file)
		return;
	if (p->ns.nspid == nspid) {
		/* the guess confirmed: the writer's own word says more */
		p->ns.why = strpool__intern(jm->pool, why);
		p->nspid_from_file = true;
		return;
	}
	p->ns.nspid = nspid;
	p->ns.why = strpool__intern(jm->pool, why);
	p->nspid_from_file = from_file;
	for (i = 0; i < jm->nr_loaders; i++)
		if (jit_loaders[i]->kind == JIT_UNTIMED && !p->files[i].info.path)
			p->files[i].looked = false;
}

/*
 * Whether the pid a file's writer gave itself (h) is a host process tied
 * to the file p mapped: one that mapped and read the same file itself
 * (path is interned), as a parent does whose child inherited it. Being
 * p's ancestor is not enough: host pid 1 is every process's, and pid 1 is
 * what a container's init writes.
 */
static bool writer_is_host(const struct jitmap *jm, uint32_t h, const char *path, size_t loader)
{
	const struct jitproc *q = jitmap__find_proc(jm, h);

	return q && q->files[loader].info.path == path;
}

/* ---- the feed: whose the file and its records are --------------------- */

uint32_t jit_feed__pid(const struct jit_feed *f)
{
	return f->p->pid;
}

/* "12.000150": a time on the samples' clock as perf script prints it (s, to the microsecond). */
const char *jitmap__fmt_time(char *buf, size_t size, uint64_t ns)
{
	uint64_t usec = ns / 1000;

	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, usec / 1000000, usec % 1000000);
	return buf;
}

/* The first reason f's file is not its process's wins; why is taken. */
static void refuse(struct jit_feed *f, char *why)
{
	if (f->refused) {
		free(why);
		return;
	}
	f->refused = why;
	f->drop = !f->given;
}

void jit_feed__writer_pid(struct jit_feed *f, uint32_t pid)
{
	struct jitmap *jm = f->jm;
	const struct jitproc *p = f->p;

	/* the name P mapped is its writer's pid too: a file under that name saying another is a copy */
	if (pid && f->marker_pid && pid != f->marker_pid)
		refuse(f, xasprintf("its header's pid %" PRIu32 " is not %" PRIu32 ", the pid in the "
				    "name of the file pid %" PRIu32 " mapped", pid, f->marker_pid,
				    p->pid));
	if (!pid || pid == p->pid || writer_is_host(jm, pid, f->path, jitmap__loader_index(jm, f->loader)))
		return;
	f->ns_pid = pid;
	/* the session's evidence of p's namespace must allow it a pid of its own there */
	if (p->pidns && p->pidns == jm->recorder_ns)
		refuse(f, xasprintf("its header's pid %" PRIu32 " is not %" PRIu32 ", and NAMESPACES "
				    "puts %" PRIu32 " in perf's own pid namespace", pid, p->pid,
				    p->pid));
	else if (p->ns.nspid && p->ns.nspid != pid)
		refuse(f, xasprintf("its header's pid %" PRIu32 " is not %" PRIu32 "'s pid in its "
				    "namespace, %" PRIu32 " (%s)", pid, p->pid, p->ns.nspid,
				    p->ns.why));
}

/* f's process takes its file: what the writer's pid says of its namespace (jitmap.h). */
static void take_writer_pid(struct jit_feed *f)
{
	struct jitmap *jm = f->jm;
	char *why;

	if (!f->ns_pid)
		return;
	why = xasprintf("from %s's header", jit_locate__base_name(f->path));
	learn_nspid(jm, f->p, f->ns_pid, why, true);
	free(why);
	/* after "given by --jitdump", if it was */
	why = xasprintf("%s%snamespace pid %" PRIu32 ", from its header",
			f->info->how ? f->info->how : "", f->info->how ? "; " : "", f->ns_pid);
	f->info->how = strpool__intern(jm->pool, why);
	free(why);
}

/* Remember p's events before f's records go to it, so that they can be taken back. */
static void touch(struct jit_feed *f, struct jitproc *p)
{
	size_t i;

	for (i = 0; i < f->nr_touched; i++)
		if (f->touched[i].p == p)
			return;
	ALLOC_GROW(f->touched, f->nr_touched + 1, f->alloc_touched);
	f->touched[f->nr_touched].p = p;
	f->touched[f->nr_touched++].nr_events = p->nr_events;
}

/*
 * After the records: those that are P's all end before P could have
 * written them (it mapped the file, or exec'd, later) is a reason too.
 */
static void judge_records(struct jit_feed *f)
{
	const struct birth *bt;
	uint64_t born = f->marker_time;
	const char *what = "mapped the file";
	uint32_t pid = f->p->pid;
	char a[32], b[32];

	HASH_FIND(hh, f->jm->births, &pid, sizeof(pid), bt);
	if (bt && bt->time > born) {
		born = bt->time;
		what = bt->exec ? "exec'd" : "was forked";
	}
	if (f->jm->opts.timeless || !born || !f->nr_own || f->last_own >= born)
		return;
	refuse(f, xasprintf("its %" PRIu64 " record%s for pid %" PRIu32 " end%s at %s, before it "
			    "%s at %s", f->nr_own, f->nr_own == 1 ? "" : "s", pid,
			    f->nr_own == 1 ? "s" : "", jitmap__fmt_time(a, sizeof(a), f->last_own),
			    what, jitmap__fmt_time(b, sizeof(b), born)));
}

/*
 * The process whose record pid (r) it is, by the rule in jitmap.h; NULL
 * for another process of the writer's pid namespace (counted).
 */
struct jitproc *jit_feed__record_proc(struct jit_feed *f, uint32_t r)
{
	struct jitproc *p;

	if (f->drop)
		return NULL;
	if (!r || r == f->p->pid || (f->ns_pid && r == f->ns_pid)) {
		touch(f, f->p);
		return f->p;
	}
	if (f->ns_pid) {
		f->info->not_used++;
		return NULL;
	}
	p = jitmap__find_proc(f->jm, r);
	if (!p) {
		p = jitmap__findnew_proc(f->jm, r);
		p->adopted = true;
	}
	touch(f, p);
	return p;
}

/* A record at time for process p: the file's last one so far. */
void jit_feed__note_record(struct jit_feed *f, const struct jitproc *p, uint64_t time)
{
	f->info->last_time = time;
	f->info->has_last_time = true;
	if (p != f->p)
		return;
	f->nr_own++;
	if (time > f->last_own)
		f->last_own = time;
}

/* ---- after reading ---------------------------------------------------- */

/* f's records taken back from every process they went to: f's file is not used. */
static void take_back(struct jit_feed *f)
{
	size_t i;

	for (i = 0; i < f->nr_touched; i++)
		f->touched[i].p->nr_events = f->touched[i].nr_events;
}

/*
 * After reading: whether f's file is its process's (jitmap.h); if not,
 * one line says why and, unless the user gave it, it is not used.
 */
void jit_feed__judge(struct jit_feed *f)
{
	struct jit_file_info *info = f->info;
	uint32_t pid = f->p->pid;

	judge_records(f);
	if (!f->refused) {
		take_writer_pid(f);
		return;
	}
	info->refused = strpool__intern(f->jm->pool, f->refused);
	info->used_anyway = f->given;
	if (f->given) {
		warning("pid %" PRIu32 ": %s '%s' (given by --%s) looks like another process's or "
			"run's: %s; used as given", pid, f->loader->name, f->path, f->loader->name,
			f->refused);
		/* its records are P's, as the user says; its pid says nothing of P's namespace */
	} else {
		take_back(f);
		warning("pid %" PRIu32 ": %s '%s' not used: %s; it is another process's or run's "
			"(give pid %" PRIu32 "'s own with --%s %" PRIu32 "=FILE)", pid,
			f->loader->name, f->path, f->refused, pid, f->loader->name, pid);
	}
	free(f->refused);
	f->refused = NULL;
}

/* ---- PERF_RECORD_NAMESPACES ------------------------------------------- */

static struct pidns *findnew_pidns(struct jitmap *jm, uint64_t dev, uint64_t ino)
{
	uint64_t key[2] = { dev, ino };
	struct pidns *ns;

	HASH_FIND(hh, jm->pidns, key, sizeof(key), ns);
	if (!ns) {
		ns = xcalloc(1, sizeof(*ns));
		memcpy(ns->key, key, sizeof(key));
		HASH_ADD(hh, jm->pidns, key, sizeof(ns->key), ns);
		if (!jm->recorder_ns)
			jm->recorder_ns = ns;
	}
	return ns;
}

void jitmap__namespace(struct jitmap *jm, uint32_t pid, uint64_t dev, uint64_t ino)
{
	struct pidns *ns = findnew_pidns(jm, dev, ino);
	struct jitproc *p = jitmap__findnew_proc(jm, pid), *parent;

	if (p->pidns == ns)
		return;        /* another thread's record, or said again */
	p->pidns = ns;
	p->ns.other_ns = ns != jm->recorder_ns;
	parent = p->ppid ? jitmap__find_proc(jm, p->ppid) : NULL;
	/* the first process of a namespace its parent is not in: pid 1 there (a container's init) */
	if (!ns->first_pid && parent && parent->pidns && parent->pidns != ns)
		learn_nspid(jm, p, 1, "the first process of its pid namespace, per NAMESPACES", false);
	if (!ns->first_pid)
		ns->first_pid = pid;
}

const struct jit_ns_info *jitmap__ns(const struct jitmap *jm, uint32_t pid)
{
	const struct jitproc *p = jitmap__find_proc(jm, pid);

	return p && (p->ns.nspid || p->ns.other_ns) ? &p->ns : NULL;
}
