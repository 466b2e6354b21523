/*
 * When and how a process's JIT side file is read (jitmap-internal.h): a
 * timed one when the process maps its marker (jitmap__mmap_at()) or, when
 * the user gave it, at the process's first sample; an untimed one on the
 * first fallback lookup (jitmap-fallback.c). Each is looked for where
 * jit-locate.h says, read through its loader with a feed (the small
 * jit_feed__*() accessors are here; loads and moves go to
 * jitmap-timed.c, ranges to jitmap-fallback.c) and judged
 * (jitmap-whose.c). A process's file of each format is looked for once
 * per process image (an untimed one not found, again once its namespace
 * pid is known).
 */
#include "common/common.h"
#include "timeline/jitmap-internal.h"
#include "timeline/jit-locate.h"
#include "common/sbuf.h"
#include "common/strpool.h"

bool jit_feed__want_lines(const struct jit_feed *f)
{
	return f->jm->opts.lines;
}

bool jit_feed__want_file_stats(const struct jit_feed *f)
{
	return f->jm->opts.file_stats;
}

const char *jit_feed__intern(struct jit_feed *f, const char *s)
{
	return strpool__intern(f->jm->pool, s);
}

size_t *jit_feed__counters(struct jit_feed *f)
{
	return f->info->count;
}

void jit_feed__problem(struct jit_feed *f, const char *problem)
{
	f->info->problem = strpool__intern(f->jm->pool, problem);
}

void jitmap__read_file(struct jitmap *jm, struct jitproc *p, const struct jit_loader *l,
		       struct jit_search *c, struct marker mk)
{
	struct jit_source *src = &p->files[jitmap__loader_index(jm, l)];
	bool given = c->given;
	struct jit_feed feed = { .jm = jm, .p = p, .loader = l, .info = &src->info,
				 .given = given, .marker_time = mk.time, .marker_pid = mk.pid };
	struct sbuf tried = SBUF_INIT;
	size_t found = jit_search__first_readable(c, &tried);

	src->looked = true;
	src->info.how = found < c->n ? c->how[found] : c->n ? c->how[0] : NULL;
	if (found == c->n) {
		/* a given file is looked for again in each image: said once */
		if (!given || !src->info.tried)
			jit_search__warn_missing(c, p->pid, l, src->info.how, tried.buf);
		src->info.tried = strpool__intern(jm->pool, tried.buf);
	} else {
		feed.path = strpool__intern(jm->pool, c->path[found]);
	}
	/* a given file read again (a new image): count what it holds once */
	if (given && found < c->n && src->info.path == feed.path) {
		memset(src->info.count, 0, sizeof(src->info.count));
		src->info.not_used = 0;
		src->info.samples_after = 0;
	}
	sbuf_release(&tried);
	jit_search__release(c);
	if (!feed.path)
		return;
	src->info.problem = NULL;
	src->info.refused = NULL;
	src->info.has_last_time = false;
	if (!l->read(&feed, feed.path))
		src->info.path = feed.path;
	jit_feed__judge(&feed);
	free(feed.touched);
	if (l->kind == JIT_TIMED && src->info.problem && !src->info.refused)
		p->cut = true;
	if (l->kind == JIT_TIMED)
		jitmap__mark_repeats(jm, p);
	if (l->kind == JIT_TIMED)
		jitmap__sort_pending(jm);
}

/*
 * Read p's timed file of format l: the one given for p, else as its marker
 * recorded names it; marker_time: when p mapped recorded (0: it did not).
 */
static void read_timed(struct jitmap *jm, struct jitproc *p, const struct jit_loader *l,
		       const char *recorded, uint64_t marker_time)
{
	struct jit_search c;
	struct marker mk = { .time = marker_time };

	if (marker_time && l->marker_pid)
		mk.pid = l->marker_pid(recorded);

	if (jm->opts.timeless)
		warning("pid %" PRIu32 ": samples have no CLOCK_MONOTONIC time (record with perf "
			"record -k 1), so %s times cannot be matched: each address gets its "
			"last JIT load", p->pid, l->name);
	jit_locator__timed(jm->loc, p->pid, l, recorded, &c);
	jitmap__read_file(jm, p, l, &c, mk);
}

void jitmap__mmap(struct jitmap *jm, uint32_t pid, const char *path)
{
	jitmap__mmap_at(jm, pid, path, 0);
}

void jitmap__mmap_at(struct jitmap *jm, uint32_t pid, const char *path, uint64_t time)
{
	const struct jit_loader *l = jit_loader__for_marker(path);
	struct jitproc *p;

	if (!l)
		return;
	p = jitmap__findnew_proc(jm, pid);
	if (p->files[jitmap__loader_index(jm, l)].looked)
		return;        /* mapped again: already read (or looked for) */
	read_timed(jm, p, l, path, time);
}

void jitmap__read_given_timed(struct jitmap *jm, uint32_t pid)
{
	size_t i, k, nr_given;
	const struct jit_given *given = jit_locator__given(jm->loc, &nr_given);

	for (i = 0; i < nr_given; i++) {
		const struct jit_given *g = &given[i];
		struct jitproc *p;

		if (g->pid != pid)
			continue;
		for (k = 0; k < jm->nr_loaders; k++)
			if (jit_loaders[k]->kind == JIT_TIMED &&
			    !strcmp(jit_loaders[k]->name, g->loader))
				break;
		if (k == jm->nr_loaders)
			continue;
		p = jitmap__findnew_proc(jm, pid);
		if (!p->files[k].looked)
			read_timed(jm, p, jit_loaders[k], g->path, 0);
	}
}
