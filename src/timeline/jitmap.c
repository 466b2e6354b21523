#include "common/common.h"
#include "timeline/jitmap.h"
#include "common/callsite.h"
#include "timeline/jit-loader.h"
#include "timeline/jitmap-untimed.h"
#include "timeline/jitmap-clock.h"
#include "timeline/rangeset.h"
#include "common/sbuf.h"
#include "common/strpool.h"

#include <unistd.h>

#include <uthash.h>

/* How far up the fork tree a fallback lookup goes (a forked child runs code its parent described). */
#define UNTIMED_PARENT_DEPTH 8

enum jit_event_kind { JIT_EV_LOAD, JIT_EV_MOVE };

struct jit_event {
	uint64_t time, seq;
	enum jit_event_kind kind;
	struct jit_sym *sym;                  /* LOAD */
	uint64_t old_addr, new_addr, size;    /* MOVE */
	uint64_t code_index;
	const char *source;                   /* MOVE: the file that said so */
	const struct jit_loader *loader;      /* MOVE */
};

/*
 * One copy of identical unwinding rules: key is the eh_frame_off, sizes
 * and bytes, which u points into.
 */
struct unwind_copy {
	struct jit_unwind u;
	uint8_t *key;
	size_t key_len;
	UT_hash_handle hh;
};

/* A pid namespace seen in PERF_RECORD_NAMESPACES; key: dev, ino. */
struct pidns {
	uint64_t key[2];
	uint32_t first_pid;                   /* the first process seen in it */
	UT_hash_handle hh;
};

/* When a pid's process image began: its latest fork or exec seen; key: pid. */
struct birth {
	uint32_t pid;
	uint64_t time;
	bool exec;                            /* an exec, else a fork */
	UT_hash_handle hh;
};

/* Most candidate paths a file is looked for at. */
#define MAX_CANDIDATES 64

/* Where a file may be, in order, and how each was chosen (NULL: by the process's own pid). */
struct candidates {
	char *path[MAX_CANDIDATES];
	const char *how[MAX_CANDIDATES];
	size_t n;
};

/* A process's file of one format. */
struct jit_source {
	struct jit_file_info info;
	bool looked;                          /* looked for (and read if found) in this image */
};

struct jitproc {
	uint32_t pid;
	uint32_t ppid;                        /* 0: none known */
	uint64_t epoch;                       /* timed entries before this (an exec) are the old image's */
	struct jit_event *events;             /* sorted by time from next on */
	size_t nr_events, next, alloc_events;
	struct rangeset code;                 /* timed code now; data: struct jit_sym */
	struct untimed untimed;               /* untimed entries, indexed */
	struct untimed_clock *clock;          /* their times, when the recording gives them */
	struct jit_source *files;             /* one per loader, as in jit_loaders[] */
	struct jit_ns_info ns;                /* its pid namespace, as far as known */
	bool nspid_from_file;                 /* ns.nspid is its writer's own (beats a guess) */
	const struct pidns *pidns;            /* from PERF_RECORD_NAMESPACES; NULL: none */
	/* made for another process's file's records (shared after a fork): a later fork keeps them */
	bool adopted;
	bool cut;                             /* a timed file of it stopped early */
	UT_hash_handle hh;
};

struct jitmap {
	struct jitmap_opts opts;
	struct strpool *pool;
	struct jitproc *procs;
	size_t nr_loaders;
	struct jit_sym **syms;                /* every function, timed or not, owned */
	size_t nr_syms, alloc_syms;
	/*
	 * Timed syms by (code_index, start), the last made winning; open
	 * addressing, size a power of two. Built on the first move that needs it.
	 */
	struct jit_sym **by_index;
	size_t by_index_size, by_index_nr;
	struct jit_line **line_arrays;
	size_t nr_line_arrays, alloc_line_arrays;
	struct callsite_set **call_sets;      /* every load's, owned (moves share them) */
	size_t nr_call_sets, alloc_call_sets;
	struct unwind_copy *unwinds;          /* every jit_feed__unwind() copy, by contents */
	struct pidns *pidns;                  /* every pid namespace seen */
	struct birth *births;                 /* every pid's latest fork or exec (with a time) */
	const struct pidns *recorder_ns;      /* the first one seen */
	struct jit_given *given;              /* opts.given, copied */
	uint64_t seq;
	uint64_t now;                         /* the latest jitmap__advance() time */
	struct jitproc *last;                 /* the last process looked up (never freed before the end) */
};

/* What a loader's read() feeds: one file of one process. */
struct jit_feed {
	struct jitmap *jm;
	struct jitproc *p;
	const struct jit_loader *loader;
	const char *path;                     /* interned */
	struct jit_file_info *info;
	uint32_t ns_pid;                      /* the writer's namespace pid, if not P (jitmap.h); or 0 */
	uint64_t marker_time;                 /* when P mapped the file; 0: not known */
	uint32_t marker_pid;                  /* the pid in the name of the file P mapped; 0: none */
	bool given;                           /* the user gave the file */
	char *refused;                        /* why it is not P's (jitmap.h); NULL: no reason */
	bool drop;                            /* refused and not given: its records are not used */
	uint64_t nr_own;                      /* records that are P's */
	uint64_t last_own;                    /* the latest time of those */
	/* the processes records went to, and how many events each had before */
	struct touched { struct jitproc *p; size_t nr_events; } *touched;
	size_t nr_touched, alloc_touched;
};

/* A copy of a list of directory names, the names interned in pool. */
static const char *const *copy_dirs(struct strpool *pool, const char *const *dirs, size_t nr)
{
	const char **copy = xcalloc(nr ? nr : 1, sizeof(*copy));
	size_t i;

	for (i = 0; i < nr; i++)
		copy[i] = strpool__intern(pool, dirs[i]);
	return copy;
}

struct jitmap *jitmap__new(const struct jitmap_opts *opts, struct strpool *pool)
{
	struct jitmap *jm = xcalloc(1, sizeof(*jm));
	size_t i;

	jm->opts = *opts;
	jm->opts.perf_data_dir = strpool__intern(pool, opts->perf_data_dir);
	jm->opts.jit_dirs = copy_dirs(pool, opts->jit_dirs, opts->nr_jit_dirs);
	jm->opts.perfmap_dirs = copy_dirs(pool, opts->perfmap_dirs, opts->nr_perfmap_dirs);
	jm->pool = pool;
	jm->given = xcalloc(opts->nr_given ? opts->nr_given : 1, sizeof(*jm->given));
	for (i = 0; i < opts->nr_given; i++) {
		jm->given[i] = opts->given[i];
		jm->given[i].loader = strpool__intern(pool, opts->given[i].loader);
		jm->given[i].path = strpool__intern(pool, opts->given[i].path);
	}
	jm->opts.given = jm->given;
	while (jit_loaders[jm->nr_loaders])
		jm->nr_loaders++;
	return jm;
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
	while (jm->nr_syms)
		free(jm->syms[--jm->nr_syms]);
	while (jm->nr_line_arrays)
		free(jm->line_arrays[--jm->nr_line_arrays]);
	while (jm->nr_call_sets)
		callsite_set__delete(jm->call_sets[--jm->nr_call_sets]);
	free(jm->syms);
	free(jm->by_index);
	free(jm->line_arrays);
	free(jm->call_sets);
	free((void *)jm->opts.jit_dirs);
	free((void *)jm->opts.perfmap_dirs);
	free(jm->given);
	free(jm);
}

static struct jitproc *find_proc(const struct jitmap *jm, uint32_t pid)
{
	struct jitproc *p;

	HASH_FIND(hh, jm->procs, &pid, sizeof(pid), p);
	return p;
}

/* find_proc() for the calls made per sample and per frame: most are for the last process. */
static struct jitproc *find_proc_fast(struct jitmap *jm, uint32_t pid)
{
	struct jitproc *p = jm->last;

	if (p && p->pid == pid)
		return p;
	p = find_proc(jm, pid);
	if (p)
		jm->last = p;
	return p;
}

static struct jitproc *findnew_proc(struct jitmap *jm, uint32_t pid)
{
	struct jitproc *p = find_proc(jm, pid);
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

static size_t loader_index(const struct jitmap *jm, const struct jit_loader *l)
{
	size_t i;

	for (i = 0; i < jm->nr_loaders; i++)
		if (jit_loaders[i] == l)
			return i;
	BUG("JIT loader '%s' is not in jit_loaders[]", l->name);
}

/* ---- timed entries ---------------------------------------------------- */

static struct jit_sym *new_sym(struct jitmap *jm)
{
	struct jit_sym *sym = xcalloc(1, sizeof(*sym));

	ALLOC_GROW(jm->syms, jm->nr_syms + 1, jm->alloc_syms);
	jm->syms[jm->nr_syms++] = sym;
	return sym;
}

static void keep_lines(struct jitmap *jm, struct jit_line *lines)
{
	ALLOC_GROW(jm->line_arrays, jm->nr_line_arrays + 1, jm->alloc_line_arrays);
	jm->line_arrays[jm->nr_line_arrays++] = lines;
}

/* Where calls end in a load's code, from its bytes (a jitdump's load carries them). */
static const struct callsite_set *keep_calls(struct jitmap *jm, const struct jit_load *ld)
{
	struct callsite_set *cs;

	if (!ld->code || !ld->size)
		return NULL;
	cs = callsite_set__new(ld->code, ld->size);
	ALLOC_GROW(jm->call_sets, jm->nr_call_sets + 1, jm->alloc_call_sets);
	jm->call_sets[jm->nr_call_sets++] = cs;
	return cs;
}

static size_t index_slot(const struct jitmap *jm, uint64_t index, uint64_t addr)
{
	uint64_t h = (index * 0x9e3779b97f4a7c15ull) ^ addr;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)h & (jm->by_index_size - 1);
}

static void index_add(struct jitmap *jm, struct jit_sym *sym)
{
	size_t i = index_slot(jm, sym->code_index, sym->start);
	struct jit_sym *s;

	while ((s = jm->by_index[i]) &&
	       (s->code_index != sym->code_index || s->start != sym->start))
		i = (i + 1) & (jm->by_index_size - 1);
	if (!s)
		jm->by_index_nr++;
	jm->by_index[i] = sym;
}

/* Index a timed sym once its code_index and start are final; a no-op until the index is wanted. */
static void index_sym(struct jitmap *jm, struct jit_sym *sym)
{
	struct jit_sym **old = jm->by_index;
	size_t i, old_size = jm->by_index_size;

	if (!old)
		return;
	if (jm->by_index_nr + 1 > old_size / 2) {
		jm->by_index_size = st_mult(old_size, 2);
		jm->by_index = xcalloc(jm->by_index_size, sizeof(*jm->by_index));
		jm->by_index_nr = 0;
		for (i = 0; i < old_size; i++)
			if (old[i])
				index_add(jm, old[i]);
		free(old);
	}
	index_add(jm, sym);
}

/* The last timed sym made with this code_index at addr, or NULL. */
static struct jit_sym *find_by_index(struct jitmap *jm, uint64_t index, uint64_t addr)
{
	struct jit_sym *s;
	size_t i;

	if (!jm->by_index) {
		jm->by_index_size = 64;
		jm->by_index = xcalloc(jm->by_index_size, sizeof(*jm->by_index));
		/* untimed syms have no code_index: a move never takes one */
		for (i = 0; i < jm->nr_syms; i++)
			if (jm->syms[i]->loader->kind == JIT_TIMED)
				index_sym(jm, jm->syms[i]);
	}
	for (i = index_slot(jm, index, addr); (s = jm->by_index[i]);
	     i = (i + 1) & (jm->by_index_size - 1))
		if (s->code_index == index && s->start == addr)
			return s;
	return NULL;
}

static void push_event(struct jitmap *jm, struct jitproc *p, const struct jit_event *ev)
{
	if (ev->time < p->epoch)
		return;
	ALLOC_GROW(p->events, p->nr_events + 1, p->alloc_events);
	p->events[p->nr_events] = *ev;
	p->events[p->nr_events++].seq = jm->seq++;
}

static int cmp_event(const void *a, const void *b)
{
	const struct jit_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Runtimes write records nearly always in time order: most lists are sorted already. */
static bool events_sorted(const struct jit_event *ev, size_t nr)
{
	size_t i;

	for (i = 1; i < nr; i++)
		if (cmp_event(&ev[i - 1], &ev[i]) > 0)
			return false;
	return true;
}

static void sort_pending(struct jitmap *jm)
{
	struct jitproc *p;

	for (p = jm->procs; p; p = p->hh.next)
		if (p->nr_events > p->next &&
		    !events_sorted(p->events + p->next, p->nr_events - p->next))
			qsort(p->events + p->next, p->nr_events - p->next,
			      sizeof(*p->events), cmp_event);
}

/* ---- pid namespaces ---------------------------------------------------- */

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
	const struct jitproc *q = find_proc(jm, h);

	return q && q->files[loader].info.path == path;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* ---- the feed: what loaders call -------------------------------------- */

uint32_t jit_feed__pid(const struct jit_feed *f)
{
	return f->p->pid;
}

/* "12.000150": a time on the samples' clock as perf script prints it (s, to the microsecond). */
static const char *fmt_time(char *buf, size_t size, uint64_t ns)
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
	if (!pid || pid == p->pid || writer_is_host(jm, pid, f->path, loader_index(jm, f->loader)))
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
	why = xasprintf("from %s's header", base_name(f->path));
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
			    f->nr_own == 1 ? "s" : "", fmt_time(a, sizeof(a), f->last_own), what,
			    fmt_time(b, sizeof(b), born)));
}

/*
 * The process whose record pid (r) it is, by the rule in jitmap.h; NULL
 * for another process of the writer's pid namespace (counted).
 */
static struct jitproc *record_proc(struct jit_feed *f, uint32_t r)
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
	p = find_proc(f->jm, r);
	if (!p) {
		p = findnew_proc(f->jm, r);
		p->adopted = true;
	}
	touch(f, p);
	return p;
}

/* A record at time for process p: the file's last one so far. */
static void note_record(struct jit_feed *f, const struct jitproc *p, uint64_t time)
{
	f->info->last_time = time;
	f->info->has_last_time = true;
	if (p != f->p)
		return;
	f->nr_own++;
	if (time > f->last_own)
		f->last_own = time;
}

bool jit_feed__want_lines(const struct jit_feed *f)
{
	return f->jm->opts.lines;
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

void jit_feed__load(struct jit_feed *f, const struct jit_load *ld)
{
	struct jitmap *jm = f->jm;
	struct jitproc *p = record_proc(f, ld->pid);
	struct jit_event ev = { .time = ld->time, .kind = JIT_EV_LOAD };
	struct jit_sym *sym;

	if (!p) {
		free(ld->lines);
		return;
	}
	note_record(f, p, ld->time);
	sym = ev.sym = new_sym(jm);
	sym->start = ld->start;
	sym->size = ld->size;
	sym->name = strpool__intern(jm->pool, ld->name);
	sym->source = f->path;
	sym->loader = f->loader;
	sym->load_time = ld->time;
	sym->code_index = ld->code_index;
	sym->unwind = ld->unwind;
	sym->calls = keep_calls(jm, ld);
	if (ld->lines && jm->opts.lines) {
		sym->lines = ld->lines;
		sym->nr_lines = ld->nr_lines;
		keep_lines(jm, ld->lines);
	} else {
		free(ld->lines);
	}
	index_sym(jm, sym);
	push_event(jm, p, &ev);
}

void jit_feed__move(struct jit_feed *f, const struct jit_move *mv)
{
	struct jit_event ev = {
		.time = mv->time, .kind = JIT_EV_MOVE,
		.old_addr = mv->old_start, .new_addr = mv->new_start,
		.size = mv->size, .code_index = mv->code_index,
		.source = f->path, .loader = f->loader,
	};

	struct jitproc *p = record_proc(f, mv->pid);

	if (!p)
		return;
	note_record(f, p, mv->time);
	push_event(f->jm, p, &ev);
}

const struct jit_unwind *jit_feed__unwind(struct jit_feed *f, const struct jit_unwind *u)
{
	struct jitmap *jm = f->jm;
	uint64_t head[3] = { u->eh_frame_off, u->eh_frame_size, u->hdr_size };
	struct unwind_copy *uc;
	size_t len;
	uint8_t *key;

	if (!u->eh_frame_size)
		return NULL;
	len = st_add(st_add(sizeof(head), u->eh_frame_size), u->hdr_size);
	key = xmalloc(len);
	memcpy(key, head, sizeof(head));
	memcpy(key + sizeof(head), u->eh_frame, u->eh_frame_size);
	if (u->hdr_size)
		memcpy(key + sizeof(head) + u->eh_frame_size, u->hdr, u->hdr_size);
	HASH_FIND(hh, jm->unwinds, key, len, uc);
	if (uc) {
		free(key);
		return &uc->u;
	}
	uc = xcalloc(1, sizeof(*uc));
	uc->key = key;
	uc->key_len = len;
	uc->u = *u;
	uc->u.eh_frame = key + sizeof(head);
	uc->u.hdr = u->hdr_size ? key + sizeof(head) + u->eh_frame_size : NULL;
	HASH_ADD_KEYPTR(hh, jm->unwinds, uc->key, uc->key_len, uc);
	return &uc->u;
}

void jit_feed__range(struct jit_feed *f, uint64_t start, uint64_t size, const char *name)
{
	/* its sym is made on the first lookup that hits it: most entries never are */
	untimed__add(&f->p->untimed, start, size, name, f->path, f->loader);
}

/* ---- finding and reading a process's files ---------------------------- */

static void add_candidate(struct candidates *c, char *path, const char *how)
{
	if (c->n == MAX_CANDIDATES) {
		free(path);
		return;
	}
	c->path[c->n] = path;
	c->how[c->n++] = how;
}

/* base next to perf.data, then in each of l's user directories. */
static void add_in_dirs(const struct jitmap *jm, const struct jit_loader *l,
			struct candidates *c, const char *base, const char *how)
{
	bool jit_dirs = l->dirs == JIT_DIRS_JIT;
	const char *const *dirs = jit_dirs ? jm->opts.jit_dirs : jm->opts.perfmap_dirs;
	size_t i, nr = jit_dirs ? jm->opts.nr_jit_dirs : jm->opts.nr_perfmap_dirs;

	add_candidate(c, xasprintf("%s/%s", jm->opts.perf_data_dir, base), how);
	for (i = 0; i < nr; i++)
		add_candidate(c, xasprintf("%s/%s", dirs[i], base), how);
}

/* The file the user gave for pid in l's format (the last one given), or NULL. */
static const char *given_file(const struct jitmap *jm, uint32_t pid, const struct jit_loader *l)
{
	const char *found = NULL;
	size_t i;

	for (i = 0; i < jm->opts.nr_given; i++)
		if (jm->given[i].pid == pid && !strcmp(jm->given[i].loader, l->name))
			found = jm->given[i].path;
	return found;
}

/* "given by --perfmap": the options are named after the loaders. */
static const char *given_how(struct jitmap *jm, const struct jit_loader *l)
{
	char *how = xasprintf("given by --%s", l->name);
	const char *interned = strpool__intern(jm->pool, how);

	free(how);
	return interned;
}

/* The first readable candidate's index (c->n if none); the others tried go to tried. */
static size_t first_readable(const struct candidates *c, struct sbuf *tried)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (!access(c->path[i], R_OK))
			return i;
		sbuf_addf(tried, "%s'%s'", tried->len ? ", " : "", c->path[i]);
	}
	return c->n;
}

static void warn_missing(const struct jitproc *p, const struct jit_loader *l, const char *what,
			 const char *how, bool given, const char *tried)
{
	if (given)
		warning("pid %" PRIu32 ": %s '%s' (%s) not found%s%s", p->pid, l->name, what, how,
			l->if_missing ? "; " : "", l->if_missing ? l->if_missing : "");
	else if (l->if_missing)
		warning("pid %" PRIu32 ": %s '%s' not found (tried %s); %s", p->pid, l->name,
			what, tried, l->if_missing);
}

static void mark_repeats(struct jitmap *jm, struct jitproc *p);

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
static void judge(struct jit_feed *f)
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

/*
 * Read p's file of format l from the first readable candidate (what
 * names it in the warning when there is none; given: the user gave it;
 * mk: the marker p mapped, if any); frees c's paths.
 */
/* The marker p mapped, when (0: none), and the pid its name gives (0: none). */
struct marker {
	uint64_t time;
	uint32_t pid;
};

static void read_file(struct jitmap *jm, struct jitproc *p, const struct jit_loader *l,
		      struct candidates *c, const char *what, bool given, struct marker mk)
{
	struct jit_source *src = &p->files[loader_index(jm, l)];
	struct jit_feed feed = { .jm = jm, .p = p, .loader = l, .info = &src->info,
				 .given = given, .marker_time = mk.time, .marker_pid = mk.pid };
	struct sbuf tried = SBUF_INIT;
	size_t i, found = first_readable(c, &tried);

	src->looked = true;
	src->info.how = found < c->n ? c->how[found] : c->n ? c->how[0] : NULL;
	if (found == c->n) {
		/* a given file is looked for again in each image: said once */
		if (!given || !src->info.tried)
			warn_missing(p, l, what, src->info.how, given, tried.buf);
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
	for (i = 0; i < c->n; i++)
		free(c->path[i]);
	if (found == c->n)
		return;
	src->info.problem = NULL;
	src->info.refused = NULL;
	src->info.has_last_time = false;
	if (!l->read(&feed, feed.path))
		src->info.path = feed.path;
	judge(&feed);
	free(feed.touched);
	if (l->kind == JIT_TIMED && src->info.problem && !src->info.refused)
		p->cut = true;
	if (l->kind == JIT_TIMED)
		mark_repeats(jm, p);
	if (l->kind == JIT_TIMED)
		sort_pending(jm);
}

/*
 * Read p's timed file of format l: the one given for p, else as its marker
 * recorded names it; marker_time: when p mapped recorded (0: it did not).
 */
static void read_timed(struct jitmap *jm, struct jitproc *p, const struct jit_loader *l,
		       const char *recorded, uint64_t marker_time)
{
	const char *given = given_file(jm, p->pid, l);
	struct candidates c = { .n = 0 };
	struct marker mk = { .time = marker_time };

	if (marker_time && l->marker_pid)
		mk.pid = l->marker_pid(recorded);

	if (jm->opts.timeless)
		warning("pid %" PRIu32 ": samples have no CLOCK_MONOTONIC time (record with perf "
			"record -k 1), so %s times cannot be matched: each address gets its "
			"last JIT load", p->pid, l->name);
	if (given) {
		add_candidate(&c, xstrdup(given), given_how(jm, l));
		read_file(jm, p, l, &c, given, true, mk);
		return;
	}
	add_candidate(&c, xstrdup(recorded), NULL);
	add_in_dirs(jm, l, &c, base_name(recorded), NULL);
	read_file(jm, p, l, &c, base_name(recorded), false, mk);
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
	p = findnew_proc(jm, pid);
	if (p->files[loader_index(jm, l)].looked)
		return;        /* mapped again: already read (or looked for) */
	read_timed(jm, p, l, path, time);
}

/* pid's given timed files not read yet: a process need not map a marker for them. */
static void read_given_timed(struct jitmap *jm, uint32_t pid)
{
	size_t i, k;

	for (i = 0; i < jm->opts.nr_given; i++) {
		const struct jit_given *g = &jm->given[i];
		struct jitproc *p;

		if (g->pid != pid)
			continue;
		for (k = 0; k < jm->nr_loaders; k++)
			if (jit_loaders[k]->kind == JIT_TIMED &&
			    !strcmp(jit_loaders[k]->name, g->loader))
				break;
		if (k == jm->nr_loaders)
			continue;
		p = findnew_proc(jm, pid);
		if (!p->files[k].looked)
			read_timed(jm, p, jit_loaders[k], g->path, 0);
	}
}

/*
 * Where p's untimed file of format l may be: by its host pid where the
 * runtime writes it, next to perf.data and in the user's directories;
 * then by its namespace pid, if known, there and in the runtime's.
 */
static void untimed_candidates(struct jitmap *jm, const struct jitproc *p,
			       const struct jit_loader *l, struct candidates *c, char *base,
			       size_t size)
{
	char nsbase[256];
	const char *how;
	char *s;

	l->file_name(p->pid, base, size);
	if (l->runtime_dir)
		add_candidate(c, xasprintf("%s/%s", l->runtime_dir, base), NULL);
	add_in_dirs(jm, l, c, base, NULL);
	if (!p->ns.nspid || p->ns.nspid == p->pid)
		return;
	s = xasprintf("namespace pid %" PRIu32 ", %s", p->ns.nspid, p->ns.why);
	how = strpool__intern(jm->pool, s);
	free(s);
	l->file_name(p->ns.nspid, nsbase, sizeof(nsbase));
	add_in_dirs(jm, l, c, nsbase, how);
	if (l->runtime_dir)
		add_candidate(c, xasprintf("%s/%s", l->runtime_dir, nsbase), how);
}

static void clock_changed(void *ctx, uint64_t start, uint64_t size);

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
		untimed_clock__advance(p->clock, jm->now, clock_changed, NULL);
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
static void mark_repeats(struct jitmap *jm, struct jitproc *p)
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
		struct candidates c = { .n = 0 };
		const char *given;
		char base[256];

		if (l->kind != JIT_UNTIMED || p->files[i].looked)
			continue;
		given = given_file(jm, p->pid, l);
		if (given) {
			add_candidate(&c, xstrdup(given), given_how(jm, l));
			read_file(jm, p, l, &c, given, true, (struct marker){ 0, 0 });
			continue;
		}
		untimed_candidates(jm, p, l, &c, base, sizeof(base));
		read_file(jm, p, l, &c, base, false, (struct marker){ 0, 0 });
	}
	if (p->untimed.nr_entries != before) {
		untimed__index(&p->untimed);
		time_untimed(jm, p, before);
		mark_repeats(jm, p);
	}
}

/* ---- the timeline ----------------------------------------------------- */

static void apply_move(struct jitmap *jm, struct jitproc *p, const struct jit_event *ev)
{
	const struct range *old = rangeset__find(&p->code, ev->old_addr);
	const struct jit_sym *from = old ? old->data : find_by_index(jm, ev->code_index, ev->old_addr);
	struct jit_sym *sym;

	rangeset__remove(&p->code, ev->old_addr, ev->old_addr + ev->size);
	sym = new_sym(jm);
	if (from) {
		*sym = *from;
	} else {
		sym->name = strpool__intern(jm->pool, "[moved JIT code]");
		sym->source = ev->source;
		sym->loader = ev->loader;
	}
	sym->start = ev->new_addr;
	sym->size = ev->size;
	sym->load_time = ev->time;
	sym->code_index = ev->code_index;
	index_sym(jm, sym);
	/* line addresses move with the code */
	sym->lines = NULL;
	sym->nr_lines = 0;
	if (from && from->nr_lines) {
		struct jit_line *lines = xcalloc(from->nr_lines, sizeof(*lines));
		size_t i;

		for (i = 0; i < from->nr_lines; i++) {
			lines[i] = from->lines[i];
			lines[i].addr = lines[i].addr - from->start + sym->start;
		}
		sym->lines = lines;
		sym->nr_lines = from->nr_lines;
		keep_lines(jm, lines);
	}
	rangeset__insert(&p->code, sym->start, sym->start + sym->size, 0, sym);
}

static void code_changed(struct jitmap *jm, uint32_t pid, uint64_t start, uint64_t size)
{
	if (jm->opts.code_changed)
		jm->opts.code_changed(jm->opts.ctx, pid, start,
				      start + size < start ? UINT64_MAX : start + size);
}

struct clock_ctx {
	struct jitmap *jm;
	uint32_t pid;
};

/* A timed perf-map line applied: NULL ctx while the map is first read (nothing cached yet). */
static void clock_changed(void *ctx, uint64_t start, uint64_t size)
{
	struct clock_ctx *cc = ctx;

	if (cc)
		code_changed(cc->jm, cc->pid, start, size);
}

/* A sample of p at time: one more after the last whole record of each of its files cut short. */
static void count_after_cut(struct jitmap *jm, struct jitproc *p, uint64_t time)
{
	size_t i;

	for (i = 0; i < jm->nr_loaders; i++) {
		struct jit_file_info *fi = &p->files[i].info;

		if (fi->loader->kind == JIT_TIMED && fi->problem && fi->path &&
		    (!fi->has_last_time || time > fi->last_time))
			fi->samples_after++;
	}
}

bool jitmap__advance(struct jitmap *jm, uint32_t pid, uint64_t time)
{
	struct jitproc *p;
	bool changed = false;

	jm->now = time;
	if (jm->opts.nr_given)
		read_given_timed(jm, pid);
	p = find_proc_fast(jm, pid);
	if (!p)
		return false;
	if (p->cut)
		count_after_cut(jm, p, time);
	if (p->clock) {
		struct clock_ctx cc = { jm, pid };

		changed |= untimed_clock__advance(p->clock, time, clock_changed, &cc);
	}
	while (p->next < p->nr_events &&
	       (jm->opts.timeless || p->events[p->next].time <= time)) {
		const struct jit_event *ev = &p->events[p->next++];

		if (ev->kind == JIT_EV_LOAD) {
			rangeset__insert(&p->code, ev->sym->start, ev->sym->start + ev->sym->size,
					 0, ev->sym);
			code_changed(jm, pid, ev->sym->start, ev->sym->size);
		} else {
			apply_move(jm, p, ev);
			code_changed(jm, pid, ev->old_addr, ev->size);
			code_changed(jm, pid, ev->new_addr, ev->size);
		}
		changed = true;
	}
	return changed;
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
	child = find_proc(jm, pid);
	/* a pid used again; but records its parent's file gave it are the new child's own */
	if (child && !child->adopted)
		proc_reset(jm, child, time, false);
	if (child)
		child->adopted = false;
	parent = find_proc(jm, ppid);
	if (!parent && !child)
		return;
	child = findnew_proc(jm, pid);
	child->ppid = ppid;
	if (!parent)
		return;
	jitmap__advance(jm, ppid, time);
	rangeset__copy(&child->code, &parent->code);
}

void jitmap__exec(struct jitmap *jm, uint32_t pid, uint64_t time)
{
	struct jitproc *p = find_proc(jm, pid);

	note_birth(jm, pid, time, true);
	/* "sources" still reports what the old image used */
	if (p)
		proc_reset(jm, p, time, true);
}

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
	struct jitproc *p = findnew_proc(jm, pid), *parent;

	if (p->pidns == ns)
		return;        /* another thread's record, or said again */
	p->pidns = ns;
	p->ns.other_ns = ns != jm->recorder_ns;
	parent = p->ppid ? find_proc(jm, p->ppid) : NULL;
	/* the first process of a namespace its parent is not in: pid 1 there (a container's init) */
	if (!ns->first_pid && parent && parent->pidns && parent->pidns != ns)
		learn_nspid(jm, p, 1, "the first process of its pid namespace, per NAMESPACES", false);
	if (!ns->first_pid)
		ns->first_pid = pid;
}

const struct jit_ns_info *jitmap__ns(const struct jitmap *jm, uint32_t pid)
{
	const struct jitproc *p = find_proc(jm, pid);

	return p && (p->ns.nspid || p->ns.other_ns) ? &p->ns : NULL;
}

/* The sym of an untimed entry, made on its first hit. */
static struct jit_sym *untimed_sym(struct jitmap *jm, struct untimed_entry *e)
{
	struct jit_sym *sym = new_sym(jm);

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
		struct jitproc *p = findnew_proc(jm, pid);
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
	struct jitproc *p = find_proc_fast(jm, pid);
	const struct range *r = p ? rangeset__find(&p->code, ip) : NULL;

	if (r)
		return r->data;
	return fallback ? find_untimed(jm, pid, ip) : NULL;
}

const struct jit_sym *jitmap__find_untimed(struct jitmap *jm, uint32_t pid, uint64_t ip)
{
	return find_untimed(jm, pid, ip);
}

const struct jit_line *jit_sym__line(const struct jit_sym *sym, uint64_t addr)
{
	size_t lo = 0, hi = sym->nr_lines;

	/* the last line starting at or before addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sym->lines[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &sym->lines[lo - 1] : NULL;
}

const struct jit_file_info *jitmap__file(const struct jitmap *jm, uint32_t pid,
					 const struct jit_loader *loader)
{
	struct jitproc *p = find_proc(jm, pid);

	return p ? &p->files[loader_index(jm, loader)].info : NULL;
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
				fmt_time(t, sizeof(t), fi->last_time);
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
