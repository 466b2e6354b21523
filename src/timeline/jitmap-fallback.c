/*
 * The untimed entries of the JIT timeline (jitmap.h): a process's
 * perf-map-like files, read on its first fallback lookup (and again
 * when a namespace pid is learnt or a new image starts), indexed
 * (jitmap-untimed.h), timed where the recording pairs them with exec
 * mmaps (jitmap-clock.h), and held back before the first timed load whose
 * range a line repeats. Also the lookups: jitmap__find() asks the timed
 * code first, then these, of the process and then of its parents.
 */
#include "common/common.h"
#include "common/vfs.h"
#include "timeline/jitmap-internal.h"
#include "timeline/jit-locate.h"
#include "timeline/jitmap-clock.h"
#include "common/sbuf.h"
#include "common/strpool.h"

/* How far up the fork tree a fallback lookup goes (a forked child runs code its parent described). */
#define UNTIMED_PARENT_DEPTH 8

void jit_feed__range(struct jit_feed *f, uint64_t start, uint64_t size, const char *name)
{
	/* its sym is made on the first lookup that hits it: most entries never are */
	untimed__add(&f->p->untimed, start, size, name, f->path, f->loader);
}

/*
 * Give p's untimed entries from first on the times of its exec mmaps where
 * they pair (jitmap-clock.h); say in sources which rule they got. Maps
 * without overlapping lines keep their description as it was.
 */
static void time_untimed(struct jitmap *jm, struct jitproc *p, size_t first)
{
	struct jit_exec_mmaps m = { NULL, 0, "exec mmaps not known" };
	struct sbuf rule = SBUF_INIT;
	const char *interned;
	size_t i;

	if (!untimed_clock__overlaps(&p->untimed, first))
		return;
	if (jm->opts.exec_mmaps)
		m = jm->opts.exec_mmaps(jm->opts.ctx, p->pid, jm->now);
	p->clock = untimed_clock__pair(&p->untimed, first, &m, &rule);
	interned = strpool__intern(jm->pool, rule.buf);
	sbuf_release(&rule);
	for (i = 0; i < jm->nr_loaders; i++)
		if (jit_loaders[i]->kind == JIT_UNTIMED && p->files[i].info.path)
			p->files[i].info.rule = interned;
	if (p->clock)
		untimed_clock__advance(p->clock, jm->now, jitmap__clock_changed, NULL);
}

/* A timed load's range and its first time, for the untimed lines that repeat it. */
struct load_key {
	uint64_t start, size, time;
};

static int cmp_load_key(const void *a, const void *b)
{
	const struct load_key *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->time < y->time ? -1 : x->time > y->time;
}

/*
 * An untimed line for the same range as one of p's timed loads says what
 * that load says, without its time: it is not used before the first such
 * load (jitmap.h). Marks p's untimed entries and counts them per file.
 */
void jitmap__mark_repeats(struct jitmap *jm, struct jitproc *p)
{
	struct load_key *keys;
	size_t i, k, nr = 0;

	if (!p->nr_events || !p->untimed.nr_entries || jm->opts.timeless)
		return;
	keys = xcalloc(p->nr_events, sizeof(*keys));
	for (i = 0; i < p->nr_events; i++)
		if (p->events[i].kind == JIT_EV_LOAD)
			keys[nr++] = (struct load_key){ p->events[i].sym->start,
							p->events[i].sym->size,
							p->events[i].time };
	qsort(keys, nr, sizeof(*keys), cmp_load_key);
	for (i = 0; i < jm->nr_loaders; i++)
		p->files[i].info.repeats = 0;
	for (i = 0; i < p->untimed.nr_entries; i++) {
		struct untimed_entry *e = &p->untimed.entries[i];
		struct load_key key = { e->start, e->size, 0 };
		size_t lo = 0, hi = nr;

		/* the first key not below (start, size, 0): the earliest load of the range */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_load_key(&keys[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		e->not_before = lo < nr && keys[lo].start == e->start && keys[lo].size == e->size ?
				keys[lo].time : 0;
		if (!e->not_before)
			continue;
		for (k = 0; k < jm->nr_loaders; k++)
			if (p->files[k].info.loader == e->loader && p->files[k].info.path == e->source)
				p->files[k].info.repeats++;
	}
	free(keys);
}

/* Read p's untimed files not read yet in this image. */
static void read_untimed(struct jitmap *jm, struct jitproc *p)
{
	size_t i, before = p->untimed.nr_entries;

	for (i = 0; i < jm->nr_loaders; i++) {
		const struct jit_loader *l = jit_loaders[i];
		struct jit_search c;

		if (l->kind != JIT_UNTIMED || p->files[i].looked)
			continue;
		jit_locator__untimed(jm->loc, p->pid, &p->ns, l, &c);
		jitmap__read_file(jm, p, l, &c, (struct marker){ 0, 0 });
	}
	if (p->untimed.nr_entries != before) {
		untimed__index(&p->untimed);
		time_untimed(jm, p, before);
		jitmap__mark_repeats(jm, p);
	}
}


/* The sym of an untimed entry, made on its first hit. */
static struct jit_sym *untimed_sym(struct jitmap *jm, struct untimed_entry *e)
{
	struct jit_sym *sym = jitmap__new_sym(jm);

	sym->start = e->start;
	sym->size = e->size;
	sym->name = strpool__intern(jm->pool, e->name);
	sym->source = e->source;
	sym->loader = e->loader;
	e->sym = sym;
	return sym;
}

/* The untimed entry at ip in pid, else in its parents' (a forked child runs code they described). */
static const struct jit_sym *find_untimed(struct jitmap *jm, uint32_t pid, uint64_t ip)
{
	int depth;

	for (depth = 0; depth < UNTIMED_PARENT_DEPTH && pid; depth++) {
		struct jitproc *p = jitmap__findnew_proc(jm, pid);
		struct untimed_entry *e;

		read_untimed(jm, p);
		/* a parent's timed lines are as of its own last sample: its later-wins index serves */
		if (depth == 0 && p->clock)
			e = untimed_clock__find(p->clock, ip);
		else
			e = untimed__find(&p->untimed, ip);
		/* a line that repeats a timed load says nothing before that load */
		if (e && e->not_before > jm->now && !jm->opts.timeless)
			return NULL;
		if (e)
			return e->sym ? e->sym : untimed_sym(jm, e);
		pid = p->ppid;
	}
	return NULL;
}

const struct jit_sym *jitmap__find(struct jitmap *jm, uint32_t pid, uint64_t ip, bool fallback)
{
	struct jitproc *p = jitmap__find_proc_fast(jm, pid);
	const struct range *r = p ? rangeset__find(&p->code, ip) : NULL;
	struct jit_sym *sym;

	/* jitsym archive keeps the side files' entries at the addresses looked up */
	vfs_record_jit_addr(ip);
	if (!r)
		return fallback ? find_untimed(jm, pid, ip) : NULL;
	sym = r->data;
	if (sym->name_pending) {
		sym->name = strpool__intern(jm->pool, sym->name);
		sym->name_pending = false;
	}
	return sym;
}

const struct jit_sym *jitmap__find_untimed(struct jitmap *jm, uint32_t pid, uint64_t ip)
{
	vfs_record_jit_addr(ip);
	return find_untimed(jm, pid, ip);
}
