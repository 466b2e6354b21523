#include "common.h"
#include "jitmap.h"
#include "rangeset.h"
#include "sbuf.h"
#include "strpool.h"

#include <ctype.h>
#include <unistd.h>

#include <jitdump-reader/jitdump-reader.h>
#include <perfmap/perfmap.h>
#include <uthash.h>

/* How far up the fork tree a perf map lookup goes (a forked child runs code its parent described). */
#define PERFMAP_PARENT_DEPTH 8
/* V8 writes debug-info addresses this far past the instruction (an ELF header's size). */
#define V8_DEBUG_BIAS 0x40

enum jit_event_kind { JIT_EV_LOAD, JIT_EV_MOVE };

struct jit_event {
	uint64_t time, seq;
	enum jit_event_kind kind;
	struct jit_sym *sym;                  /* LOAD */
	uint64_t old_addr, new_addr, size;    /* MOVE */
	uint64_t code_index;
};

struct perfmap_sym {
	const struct perfmap_entry *entry;    /* key */
	struct jit_sym sym;
	UT_hash_handle hh;
};

struct jitproc {
	uint32_t pid;
	uint32_t ppid;                        /* 0: none known */
	uint64_t epoch;                       /* records before this (an exec) are the old image's */
	struct jit_event *events;             /* sorted by time from next on */
	size_t nr_events, next, alloc_events;
	struct rangeset code;                 /* jitdump code now; data: struct jit_sym */
	struct perfmap *pm;
	bool pm_tried;
	struct perfmap_sym *pm_syms;
	bool dump_read;                       /* the jitdump was read (or looked for) */
	struct jitmap_proc_info info;
	UT_hash_handle hh;
};

struct jitmap {
	struct jitmap_opts opts;
	struct strpool *pool;
	struct jitproc *procs;
	struct jit_sym **syms;                /* every jitdump function, owned */
	size_t nr_syms, alloc_syms;
	/*
	 * syms by (code_index, start), the last made winning; open addressing,
	 * size a power of two. Built on the first move that needs it.
	 */
	struct jit_sym **by_index;
	size_t by_index_size, by_index_nr;
	struct jit_line **line_arrays;
	size_t nr_line_arrays, alloc_line_arrays;
	uint64_t seq;
};

static int perfmap_print(enum perfmap_print_level level, const char *fmt, va_list ap)
{
	if (level == PERFMAP_WARN)
		vwarning(fmt, ap);
	return 0;
}

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

	jm->opts = *opts;
	jm->opts.perf_data_dir = strpool__intern(pool, opts->perf_data_dir);
	jm->opts.jit_dirs = copy_dirs(pool, opts->jit_dirs, opts->nr_jit_dirs);
	jm->opts.perfmap_dirs = copy_dirs(pool, opts->perfmap_dirs, opts->nr_perfmap_dirs);
	jm->pool = pool;
	perfmap__set_print(perfmap_print);
	return jm;
}

void jitmap__delete(struct jitmap *jm)
{
	struct jitproc *p, *tmp;

	if (!jm)
		return;
	HASH_ITER(hh, jm->procs, p, tmp) {
		struct perfmap_sym *ps, *pstmp;

		HASH_ITER(hh, p->pm_syms, ps, pstmp) {
			HASH_DEL(p->pm_syms, ps);
			free(ps);
		}
		HASH_DEL(jm->procs, p);
		rangeset__release(&p->code);
		perfmap__delete(p->pm);
		free(p->events);
		free(p);
	}
	while (jm->nr_syms)
		free(jm->syms[--jm->nr_syms]);
	while (jm->nr_line_arrays)
		free(jm->line_arrays[--jm->nr_line_arrays]);
	free(jm->syms);
	free(jm->by_index);
	free(jm->line_arrays);
	free((void *)jm->opts.jit_dirs);
	free((void *)jm->opts.perfmap_dirs);
	free(jm);
}

static struct jitproc *find_proc(const struct jitmap *jm, uint32_t pid)
{
	struct jitproc *p;

	HASH_FIND(hh, jm->procs, &pid, sizeof(pid), p);
	return p;
}

static struct jitproc *findnew_proc(struct jitmap *jm, uint32_t pid)
{
	struct jitproc *p = find_proc(jm, pid);

	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		HASH_ADD(hh, jm->procs, pid, sizeof(p->pid), p);
	}
	return p;
}

bool jitmap__is_marker(const char *path)
{
	const char *base = strrchr(path, '/');
	unsigned long pid;
	char *end;

	base = base ? base + 1 : path;
	if (strncmp(base, "jit-", 4) || !isdigit((unsigned char)base[4]))
		return false;
	pid = strtoul(base + 4, &end, 10);
	return pid <= UINT32_MAX && !strcmp(end, ".dump");
}

/* ---- loading a jitdump ------------------------------------------------ */

static struct jit_sym *new_sym(struct jitmap *jm)
{
	struct jit_sym *sym = xcalloc(1, sizeof(*sym));

	ALLOC_GROW(jm->syms, jm->nr_syms + 1, jm->alloc_syms);
	jm->syms[jm->nr_syms++] = sym;
	return sym;
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

/* Index sym once its code_index and start are final; a no-op until the index is wanted. */
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

/* The last sym made with this code_index at addr, or NULL. */
static struct jit_sym *find_by_index(struct jitmap *jm, uint64_t index, uint64_t addr)
{
	struct jit_sym *s;
	size_t i;

	if (!jm->by_index) {
		jm->by_index_size = 64;
		jm->by_index = xcalloc(jm->by_index_size, sizeof(*jm->by_index));
		for (i = 0; i < jm->nr_syms; i++)
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

/* The last DEBUG_INFO record: it describes the LOAD that follows it. */
struct pending_debug {
	uint64_t code_addr;
	struct jit_line *lines;
	size_t nr;
};

static void keep_debug(struct jitmap *jm, struct pending_debug *pd, const struct jitdump_record *rec)
{
	size_t i;

	free(pd->lines);
	pd->code_addr = rec->u.debug.code_addr;
	pd->nr = rec->u.debug.nr_entry;
	pd->lines = xcalloc(pd->nr ? pd->nr : 1, sizeof(*pd->lines));
	for (i = 0; i < pd->nr; i++) {
		const struct jitdump_debug_entry *e = &rec->u.debug.entries[i];

		pd->lines[i].addr = e->addr;
		pd->lines[i].line = e->lineno;
		pd->lines[i].column = e->discrim;
		pd->lines[i].file = strpool__intern(jm->pool, e->filename);
	}
}

static int cmp_line(const void *a, const void *b)
{
	const struct jit_line *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Give sym the pending debug info if it is for sym's address. V8 (its JS
 * functions are named "JS:...") biases each address by 0x40 and puts the
 * column in the discriminator; other producers give the discriminator,
 * which is no column.
 */
static void attach_debug(struct jitmap *jm, struct jit_sym *sym, struct pending_debug *pd)
{
	bool v8 = !strncmp(sym->name, "JS:", 3);
	size_t i;

	if (!pd->lines || pd->code_addr != sym->start)
		return;
	for (i = 0; i < pd->nr; i++) {
		if (v8 && pd->lines[i].addr >= sym->start + V8_DEBUG_BIAS)
			pd->lines[i].addr -= V8_DEBUG_BIAS;
		if (!v8)
			pd->lines[i].column = 0;
	}
	qsort(pd->lines, pd->nr, sizeof(*pd->lines), cmp_line);
	sym->lines = pd->lines;
	sym->nr_lines = pd->nr;
	ALLOC_GROW(jm->line_arrays, jm->nr_line_arrays + 1, jm->alloc_line_arrays);
	jm->line_arrays[jm->nr_line_arrays++] = pd->lines;
	pd->lines = NULL;
}

static void add_load(struct jitmap *jm, uint32_t pid, const char *path,
		     const struct jitdump_record *rec, struct pending_debug *pd)
{
	struct jit_sym *sym = new_sym(jm);
	struct jit_event ev = { .time = rec->timestamp, .kind = JIT_EV_LOAD, .sym = sym };
	struct jitproc *p = findnew_proc(jm, pid);

	sym->start = rec->u.load.code_addr;
	sym->size = rec->u.load.code_size;
	sym->name = strpool__intern(jm->pool, rec->u.load.name);
	sym->source = path;
	sym->load_time = rec->timestamp;
	sym->code_index = rec->u.load.code_index;
	index_sym(jm, sym);
	attach_debug(jm, sym, pd);
	push_event(jm, p, &ev);
	p->info.nr_loads++;
}

static void add_move(struct jitmap *jm, uint32_t pid, const struct jitdump_record *rec)
{
	struct jit_event ev = {
		.time = rec->timestamp, .kind = JIT_EV_MOVE,
		.old_addr = rec->u.move.old_code_addr, .new_addr = rec->u.move.new_code_addr,
		.size = rec->u.move.code_size, .code_index = rec->u.move.code_index,
	};
	struct jitproc *p = findnew_proc(jm, pid);

	push_event(jm, p, &ev);
	p->info.nr_moves++;
}

static int cmp_event(const void *a, const void *b)
{
	const struct jit_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Records name their writer's pid; a record without one belongs to the marker's process. */
static uint32_t record_pid(const struct jitdump_record *rec, uint32_t marker_pid)
{
	uint32_t pid = rec->type == JITDUMP_CODE_LOAD ? rec->u.load.pid :
		       rec->type == JITDUMP_CODE_MOVE ? rec->u.move.pid : 0;

	return pid ? pid : marker_pid;
}

/* Read every record; returns why reading stopped early, or NULL. */
static const char *read_records(struct jitmap *jm, struct jitdump_reader *r, uint32_t pid,
				const char *path, size_t *nr_records)
{
	struct pending_debug pd = { 0 };
	struct jitdump_record rec;
	const char *problem = NULL;
	int ret;

	while ((ret = jitdump_reader__next(r, &rec)) != 0) {
		if (ret == -JITDUMP_E_BAD_RECORD) {
			warning("'%s': record at offset %" PRIu64 " is malformed (%s); skipped", path,
				jitdump_reader__offset(r), jitdump_reader__error_detail(r));
			continue;
		}
		if (ret < 0) {
			problem = strpool__intern(jm->pool, jitdump__strerror(ret));
			warning("'%s': %s at offset %" PRIu64 "; using the %zu records before it",
				path, problem, jitdump_reader__offset(r), *nr_records);
			break;
		}
		++*nr_records;
		switch (rec.type) {
		case JITDUMP_CODE_LOAD:
			add_load(jm, record_pid(&rec, pid), path, &rec, &pd);
			break;
		case JITDUMP_CODE_MOVE:
			add_move(jm, record_pid(&rec, pid), &rec);
			break;
		case JITDUMP_CODE_DEBUG_INFO:
			if (jm->opts.lines)
				keep_debug(jm, &pd, &rec);
			findnew_proc(jm, pid)->info.nr_debug++;
			break;
		default:
			break;
		}
	}
	free(pd.lines);
	return problem;
}

/* Candidate paths for a file named base: as recorded, next to perf.data, then dirs. */
static char *find_file(const struct jitmap *jm, const char *recorded, const char *base,
		       const char *const *dirs, size_t nr_dirs, struct sbuf *tried)
{
	size_t i, n = 0;
	char *cand[64];

	if (recorded)
		cand[n++] = xstrdup(recorded);
	cand[n++] = xasprintf("%s/%s", jm->opts.perf_data_dir, base);
	for (i = 0; i < nr_dirs && n < ARRAY_SIZE(cand); i++)
		cand[n++] = xasprintf("%s/%s", dirs[i], base);
	for (i = 0; i < n; i++) {
		if (!access(cand[i], R_OK)) {
			char *found = cand[i];

			while (++i < n)
				free(cand[i]);
			return found;
		}
		sbuf_addf(tried, "%s'%s'", tried->len ? ", " : "", cand[i]);
		free(cand[i]);
	}
	return NULL;
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

void jitmap__marker(struct jitmap *jm, uint32_t pid, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct jitproc *p = findnew_proc(jm, pid);
	struct sbuf tried = SBUF_INIT;
	struct jitdump_reader *r;
	char *found;

	if (p->dump_read)
		return;        /* mapped again: already read (or looked for) */
	p->dump_read = true;
	if (jm->opts.timeless)
		warning("pid %" PRIu32 ": samples have no CLOCK_MONOTONIC time (record with perf "
			"record -k 1), so jitdump times cannot be matched: each address gets its "
			"last JIT load", pid);
	found = find_file(jm, path, base, jm->opts.jit_dirs, jm->opts.nr_jit_dirs, &tried);
	if (!found) {
		warning("pid %" PRIu32 ": jitdump '%s' not found (tried %s); its JIT frames fall "
			"back to the perf map", pid, base, tried.buf);
		p->info.jitdump_tried = strpool__intern(jm->pool, tried.buf);
		sbuf_release(&tried);
		return;
	}
	sbuf_release(&tried);
	p->info.jitdump = strpool__intern(jm->pool, found);
	free(found);
	r = jitdump_reader__open(p->info.jitdump,
				 jm->opts.lines ? 0 : JITDUMP_READER_NO_DEBUG_ENTRIES);
	if (!r) {
		p->info.jitdump_problem = strpool__intern(jm->pool, jitdump__strerror(errno));
		warning("pid %" PRIu32 ": cannot read jitdump '%s': %s", pid, p->info.jitdump,
			p->info.jitdump_problem);
		return;
	}
	p->info.jitdump_problem = read_records(jm, r, pid, p->info.jitdump, &p->info.nr_records);
	jitdump_reader__delete(r);
	sort_pending(jm);
}

/* ---- the timeline ----------------------------------------------------- */

static void apply_move(struct jitmap *jm, struct jitproc *p, const struct jit_event *ev)
{
	const struct range *old = rangeset__find(&p->code, ev->old_addr);
	const struct jit_sym *from = old ? old->data : find_by_index(jm, ev->code_index, ev->old_addr);
	struct jit_sym *sym;

	rangeset__remove(&p->code, ev->old_addr, ev->old_addr + ev->size);
	sym = new_sym(jm);
	if (from)
		*sym = *from;
	else
		sym->name = strpool__intern(jm->pool, "[moved JIT code]");
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
		ALLOC_GROW(jm->line_arrays, jm->nr_line_arrays + 1, jm->alloc_line_arrays);
		jm->line_arrays[jm->nr_line_arrays++] = lines;
	}
	rangeset__insert(&p->code, sym->start, sym->start + sym->size, 0, sym);
}

static void code_changed(struct jitmap *jm, uint32_t pid, uint64_t start, uint64_t size)
{
	if (jm->opts.code_changed)
		jm->opts.code_changed(jm->opts.ctx, pid, start,
				      start + size < start ? UINT64_MAX : start + size);
}

bool jitmap__advance(struct jitmap *jm, uint32_t pid, uint64_t time)
{
	struct jitproc *p = find_proc(jm, pid);
	bool changed = false;

	if (!p)
		return false;
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
 * image after exec. Records before epoch belong to what came before; a
 * jitdump mapped again afterwards is read again, and only its later
 * records are kept. keep_info keeps what "sources" reports.
 */
static void proc_reset(struct jitproc *p, uint64_t epoch, bool keep_info)
{
	struct perfmap_sym *ps, *tmp;

	rangeset__release(&p->code);
	p->nr_events = p->next = 0;
	p->ppid = 0;
	p->epoch = epoch;
	p->dump_read = false;
	if (!keep_info)
		memset(&p->info, 0, sizeof(p->info));
	HASH_ITER(hh, p->pm_syms, ps, tmp) {
		HASH_DEL(p->pm_syms, ps);
		free(ps);
	}
	perfmap__delete(p->pm);
	p->pm = NULL;
	p->pm_tried = false;
}

void jitmap__fork(struct jitmap *jm, uint32_t pid, uint32_t ppid, uint64_t time)
{
	struct jitproc *parent, *child;

	if (pid == ppid)
		return;
	child = find_proc(jm, pid);
	if (child)
		proc_reset(child, time, false);        /* a pid used again */
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

	/* "sources" still reports what the old image used */
	if (p)
		proc_reset(p, time, true);
}

const struct jit_sym *jitmap__find_jitdump(struct jitmap *jm, uint32_t pid, uint64_t ip)
{
	struct jitproc *p = find_proc(jm, pid);
	const struct range *r = p ? rangeset__find(&p->code, ip) : NULL;

	return r ? r->data : NULL;
}

/* ---- perf maps -------------------------------------------------------- */

static void read_perfmap(struct jitmap *jm, struct jitproc *p)
{
	struct sbuf tried = SBUF_INIT;
	char base[64], tmp[80];
	char *found;

	p->pm_tried = true;
	snprintf(base, sizeof(base), "perf-%" PRIu32 ".map", p->pid);
	snprintf(tmp, sizeof(tmp), "/tmp/%s", base);
	found = find_file(jm, tmp, base, jm->opts.perfmap_dirs, jm->opts.nr_perfmap_dirs, &tried);
	if (!found) {
		p->info.perfmap_tried = strpool__intern(jm->pool, tried.buf);
		sbuf_release(&tried);
		return;
	}
	sbuf_release(&tried);
	p->pm = perfmap__read(found);
	if (!p->pm) {
		warning("pid %" PRIu32 ": cannot read perf map '%s': %s", p->pid, found,
			strerror(errno));
	} else {
		p->info.perfmap = strpool__intern(jm->pool, found);
		p->info.nr_perfmap_entries = perfmap__nr_entries(p->pm);
		p->info.nr_perfmap_bad = perfmap__nr_bad_lines(p->pm);
	}
	free(found);
}

static const struct jit_sym *perfmap_sym(struct jitmap *jm, struct jitproc *p,
					 const struct perfmap_entry *e)
{
	struct perfmap_sym *ps;

	HASH_FIND_PTR(p->pm_syms, &e, ps);
	if (ps)
		return &ps->sym;
	ps = xcalloc(1, sizeof(*ps));
	ps->entry = e;
	ps->sym.start = e->start;
	ps->sym.size = e->size;
	ps->sym.name = strpool__intern(jm->pool, e->name);
	ps->sym.source = p->info.perfmap;
	ps->sym.from_perfmap = true;
	HASH_ADD_PTR(p->pm_syms, entry, ps);
	return &ps->sym;
}

const struct jit_sym *jitmap__find_perfmap(struct jitmap *jm, uint32_t pid, uint64_t ip)
{
	int depth;

	/* a forked child runs code its parent described, in the parent's map */
	for (depth = 0; depth < PERFMAP_PARENT_DEPTH && pid; depth++) {
		struct jitproc *p = findnew_proc(jm, pid);
		const struct perfmap_entry *e;

		if (!p->pm_tried)
			read_perfmap(jm, p);
		e = p->pm ? perfmap__lookup(p->pm, ip) : NULL;
		if (e)
			return perfmap_sym(jm, p, e);
		pid = p->ppid;
	}
	return NULL;
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

bool jitmap__proc_info(const struct jitmap *jm, uint32_t pid, struct jitmap_proc_info *info)
{
	struct jitproc *p = find_proc(jm, pid);

	if (!p)
		return false;
	*info = p->info;
	return true;
}
