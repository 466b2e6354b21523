/*
 * The JIT timeline (jitmap.h): its life cycle, its processes and how a
 * fork, an exec or a reused pid changes what each has, and what sources
 * and the end of a run read of it. The rest is split by concern
 * (jitmap-internal.h lists the files); everything runs on the session's
 * thread.
 */
#include "common/common.h"
#include "timeline/jitmap-internal.h"
#include "common/callsite.h"
#include "timeline/jit-locate.h"
#include "timeline/jitmap-clock.h"

#include <unistd.h>

struct jitmap *jitmap__new(const struct jitmap_opts *opts, struct strpool *pool)
{
	struct jitmap *jm = xcalloc(1, sizeof(*jm));

	jm->opts = *opts;
	/* the locator keeps copies of these; nothing else reads them */
	jm->opts.perf_data_dir = NULL;
	jm->opts.jit_dirs = jm->opts.perfmap_dirs = NULL;
	jm->opts.given = NULL;
	jm->loc = jit_locator__new(opts, pool);
	jm->pool = pool;
	while (jit_loaders[jm->nr_loaders])
		jm->nr_loaders++;
	return jm;
}

/* The blocks jitmap__alloc() carves; a bigger request gets a block of its own. */
#define JIT_BLOCK_SIZE (64u << 10)

struct jit_block {
	struct jit_block *next;
	size_t used, size;
	uint64_t data[];                      /* 8-aligned */
};

void *jitmap__alloc(struct jitmap *jm, size_t size)
{
	struct jit_block *b = jm->blocks;

	size = st_add(size, 7) & ~(size_t)7;
	if (size > JIT_BLOCK_SIZE / 4) {
		/* its own block, behind the one being filled */
		b = xcalloc(1, st_add(sizeof(*b), size));
		b->used = b->size = size;
		if (jm->blocks) {
			b->next = jm->blocks->next;
			jm->blocks->next = b;
		} else {
			jm->blocks = b;
		}
		return b->data;
	}
	if (!b || b->size - b->used < size) {
		b = xmalloc(sizeof(*b) + JIT_BLOCK_SIZE);
		b->used = 0;
		b->size = JIT_BLOCK_SIZE;
		b->next = jm->blocks;
		jm->blocks = b;
	}
	b->used += size;
	/* zeroed as carved: a block's pages are first touched as it fills */
	return memset((uint8_t *)b->data + b->used - size, 0, size);
}

void jitmap__delete(struct jitmap *jm)
{
	struct jitproc *p, *tmp;
	struct unwind_copy *uc, *uc_tmp;
	struct pidns *ns, *ns_tmp;
	struct birth *b, *b_tmp;

	if (!jm)
		return;
	HASH_ITER(hh, jm->births, b, b_tmp) {
		HASH_DEL(jm->births, b);
		free(b);
	}
	HASH_ITER(hh, jm->pidns, ns, ns_tmp) {
		HASH_DEL(jm->pidns, ns);
		free(ns);
	}
	HASH_ITER(hh, jm->unwinds, uc, uc_tmp) {
		HASH_DEL(jm->unwinds, uc);
		free(uc->key);
		free(uc);
	}
	HASH_ITER(hh, jm->procs, p, tmp) {
		HASH_DEL(jm->procs, p);
		rangeset__release(&p->code);
		untimed_clock__delete(p->clock);
		untimed__release(&p->untimed);
		free(p->events);
		free(p->files);
		free(p);
	}
	while (jm->nr_line_arrays)
		free(jm->line_arrays[--jm->nr_line_arrays]);
	while (jm->nr_calls) {
		struct jit_calls *c = jm->calls[--jm->nr_calls];

		callsite_set__delete(c->set);
	}
	while (jm->code_files) {
		struct jit_code_file *cf = jm->code_files;

		jm->code_files = cf->next;
		if (cf->fd >= 0)
			close(cf->fd);
		free(cf->buf);
		free(cf);
	}
	while (jm->blocks) {
		struct jit_block *blk = jm->blocks;

		jm->blocks = blk->next;
		free(blk);
	}
	free(jm->syms);
	free(jm->by_index);
	free(jm->line_arrays);
	free(jm->calls);
	jit_locator__delete(jm->loc);
	free(jm);
}

struct jitproc *jitmap__find_proc(const struct jitmap *jm, uint32_t pid)
{
	struct jitproc *p;

	HASH_FIND(hh, jm->procs, &pid, sizeof(pid), p);
	return p;
}

/* Most calls, per sample and per frame, are for the last process. */
struct jitproc *jitmap__find_proc_fast(struct jitmap *jm, uint32_t pid)
{
	struct jitproc *p = jm->last;

	if (p && p->pid == pid)
		return p;
	p = jitmap__find_proc(jm, pid);
	if (p)
		jm->last = p;
	return p;
}

struct jitproc *jitmap__findnew_proc(struct jitmap *jm, uint32_t pid)
{
	struct jitproc *p = jitmap__find_proc(jm, pid);
	size_t i;

	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		p->files = xcalloc(jm->nr_loaders, sizeof(*p->files));
		for (i = 0; i < jm->nr_loaders; i++)
			p->files[i].info.loader = jit_loaders[i];
		HASH_ADD(hh, jm->procs, pid, sizeof(p->pid), p);
	}
	return p;
}

size_t jitmap__loader_index(const struct jitmap *jm, const struct jit_loader *l)
{
	size_t i;

	for (i = 0; i < jm->nr_loaders; i++)
		if (jit_loaders[i] == l)
			return i;
	BUG("JIT loader '%s' is not in jit_loaders[]", l->name);
}

/*
 * Forget what a process had: a new process under a reused pid, or a new
 * image after exec. Timed entries before epoch belong to what came before;
 * a marker mapped again afterwards has its file read again, and only its
 * later entries are kept. keep_info keeps what "sources" reports.
 */
static void proc_reset(struct jitmap *jm, struct jitproc *p, uint64_t epoch, bool keep_info)
{
	size_t i;

	rangeset__release(&p->code);
	untimed_clock__delete(p->clock);
	p->clock = NULL;
	untimed__release(&p->untimed);
	p->nr_events = p->next = 0;
	p->ppid = 0;
	p->epoch = epoch;
	p->adopted = false;
	if (!keep_info) {
		/* a new process: its namespace is its own (exec keeps pid and namespace) */
		memset(&p->ns, 0, sizeof(p->ns));
		p->nspid_from_file = false;
		p->pidns = NULL;
	}
	for (i = 0; i < jm->nr_loaders; i++) {
		p->files[i].looked = false;
		if (!keep_info) {
			memset(&p->files[i].info, 0, sizeof(p->files[i].info));
			p->files[i].info.loader = jit_loaders[i];
		}
	}
}

/* pid's image began at time (0: not known), by an exec or a fork. */
static void note_birth(struct jitmap *jm, uint32_t pid, uint64_t time, bool exec)
{
	struct birth *b;

	if (!time)
		return;
	HASH_FIND(hh, jm->births, &pid, sizeof(pid), b);
	if (!b) {
		b = xcalloc(1, sizeof(*b));
		b->pid = pid;
		HASH_ADD(hh, jm->births, pid, sizeof(b->pid), b);
	}
	b->time = time;
	b->exec = exec;
}

void jitmap__fork(struct jitmap *jm, uint32_t pid, uint32_t ppid, uint64_t time)
{
	struct jitproc *parent, *child;

	if (pid == ppid)
		return;
	note_birth(jm, pid, time, false);
	child = jitmap__find_proc(jm, pid);
	/* a pid used again; but records its parent's file gave it are the new child's own */
	if (child && !child->adopted)
		proc_reset(jm, child, time, false);
	if (child)
		child->adopted = false;
	parent = jitmap__find_proc(jm, ppid);
	if (!parent && !child)
		return;
	child = jitmap__findnew_proc(jm, pid);
	child->ppid = ppid;
	if (!parent)
		return;
	jitmap__advance(jm, ppid, time);
	rangeset__copy(&child->code, &parent->code);
}

void jitmap__exec(struct jitmap *jm, uint32_t pid, uint64_t time)
{
	struct jitproc *p = jitmap__find_proc(jm, pid);

	note_birth(jm, pid, time, true);
	/* "sources" still reports what the old image used */
	if (p)
		proc_reset(jm, p, time, true);
}

const struct jit_file_info *jitmap__file(const struct jitmap *jm, uint32_t pid,
					 const struct jit_loader *loader)
{
	struct jitproc *p = jitmap__find_proc(jm, pid);

	return p ? &p->files[jitmap__loader_index(jm, loader)].info : NULL;
}

void jitmap__report(const struct jitmap *jm)
{
	const struct jitproc *p;
	char t[32];
	size_t i, k;

	for (p = jm->procs; p; p = p->hh.next) {
		if (!p->cut)
			continue;
		for (i = 0; i < jm->nr_loaders; i++) {
			const struct jit_file_info *fi = &p->files[i].info, *map = NULL;

			if (fi->loader->kind != JIT_TIMED || !fi->problem || !fi->path ||
			    !fi->samples_after)
				continue;
			for (k = 0; k < jm->nr_loaders && !map; k++)
				if (jit_loaders[k]->kind == JIT_UNTIMED && p->files[k].info.path)
					map = &p->files[k].info;
			if (fi->has_last_time)
				jitmap__fmt_time(t, sizeof(t), fi->last_time);
			warning("pid %" PRIu32 ": %s '%s' stops early (%s) %s%s: %" PRIu64 " of its "
				"samples %s; %s%s%s", p->pid, fi->loader->name, fi->path, fi->problem,
				fi->has_last_time ? "after its last whole record, at " :
				"before any whole record", fi->has_last_time ? t : "",
				fi->samples_after, fi->has_last_time ? "come after it" :
				"get no names from it", map ? "its perf map '" : "",
				map ? map->path : "no perf map was read for it (run the runtime with "
				"its perf-map option too, e.g. node --perf-basic-prof, to name what "
				"the jitdump misses)",
				map ? "' names what it covers (jitsym sources counts them)" : "");
		}
	}
}
