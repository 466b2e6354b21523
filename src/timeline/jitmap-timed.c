/*
 * The timed entries of the JIT timeline (jitmap.h): the loads and moves a
 * timed loader feeds (jit_feed__load(), jit_feed__move(), with their line
 * tables, call sites and unwinding rules, all owned by the timeline until
 * jitmap__delete()), queued per process and applied in time order as its
 * samples pass them (jitmap__advance()), each change told to the session
 * (opts.code_changed). A move finds the code it moves where it is now, or
 * else by its code_index.
 */
#include "common/common.h"
#include "common/vfs.h"
#include "timeline/jitmap-internal.h"
#include "common/callsite.h"
#include "timeline/jitmap-clock.h"
#include "common/strpool.h"
#include "common/bsearch.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- timed entries ---------------------------------------------------- */

struct jit_sym *jitmap__new_sym(struct jitmap *jm)
{
	struct jit_sym *sym = jitmap__alloc(jm, sizeof(*sym));

	ALLOC_GROW(jm->syms, jm->nr_syms + 1, jm->alloc_syms);
	jm->syms[jm->nr_syms++] = sym;
	return sym;
}

static void keep_lines(struct jitmap *jm, struct jit_line *lines)
{
	ALLOC_GROW(jm->line_arrays, jm->nr_line_arrays + 1, jm->alloc_line_arrays);
	jm->line_arrays[jm->nr_line_arrays++] = lines;
}

/* The feed's file, to read loads' code from again; NULL when it is not a regular file. */
static struct jit_code_file *feed_code_file(struct jit_feed *f)
{
	char vbuf[VFS_PATH_BUF];
	struct jit_code_file *cf;
	struct stat st;

	if (f->code_file_tried)
		return f->code_file;
	f->code_file_tried = true;
	if (stat(vfs_path(f->path, VFS_JITDUMP, vbuf), &st) || !S_ISREG(st.st_mode))
		return NULL;
	cf = xcalloc(1, sizeof(*cf));
	cf->path = f->path;
	cf->dev = (uint64_t)st.st_dev;
	cf->ino = (uint64_t)st.st_ino;
	cf->fd = -1;
	cf->jm = f->jm;
	cf->info = f->info;
	cf->next = f->jm->code_files;
	f->jm->code_files = cf;
	return f->code_file = cf;
}

/*
 * Where calls end in a load's code (a jitdump's load carries its bytes):
 * made now from the bytes when they cannot be read again, else the first
 * time a frame asks (jitmap__call_ends_at()): loads far outnumber the
 * code samples land in, and the set costs a pass over every byte.
 */
static struct jit_calls *keep_calls(struct jit_feed *f, const struct jit_load *ld)
{
	struct jitmap *jm = f->jm;
	struct jit_calls *c;

	if (!ld->code || !ld->size)
		return NULL;
	c = jitmap__alloc(jm, sizeof(*c));
	c->size = ld->size;
	if (ld->code_off)
		c->file = feed_code_file(f);
	if (c->file) {
		size_t n = ld->size < 8 ? (size_t)ld->size : 8;

		c->off = ld->code_off;
		memcpy(c->head, ld->code, n);
		memcpy(c->tail, ld->code + ld->size - n, n);
	} else
		c->set = callsite_set__new(ld->code, ld->size);
	ALLOC_GROW(jm->calls, jm->nr_calls + 1, jm->alloc_calls);
	jm->calls[jm->nr_calls++] = c;
	return c;
}

/* Open cf (closing the one open before) if it is still the file fed (device, inode); false if not. */
static bool code_file_open(struct jit_code_file *cf)
{
	char vbuf[VFS_PATH_BUF];
	struct jitmap *jm = cf->jm;
	struct stat st;

	if (cf->fd >= 0 || cf->gone)
		return !cf->gone;
	if (jm->open_code_file) {
		close(jm->open_code_file->fd);
		jm->open_code_file->fd = -1;
		jm->open_code_file = NULL;
	}
	cf->fd = open(vfs_path(cf->path, VFS_JITDUMP, vbuf), O_RDONLY | O_CLOEXEC);
	if (cf->fd < 0) {
		cf->gone = true;
		return false;
	}
	if (fstat(cf->fd, &st) || !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_dev != cf->dev || (uint64_t)st.st_ino != cf->ino) {
		close(cf->fd);
		cf->fd = -1;
		cf->gone = true;
		return false;
	}
	jm->open_code_file = cf;
	return true;
}

/* The size bytes at off in cf, in its buffer; NULL when they cannot be read. */
static const uint8_t *code_file_read(struct jit_code_file *cf, uint64_t off, uint64_t size)
{
	size_t got = 0;

	if (size > SIZE_MAX || off > (uint64_t)INT64_MAX - size || !code_file_open(cf))
		return NULL;
	ALLOC_GROW(cf->buf, (size_t)size, cf->alloc);
	while (got < size) {
		ssize_t n = pread(cf->fd, cf->buf + got, (size_t)size - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return NULL;
		got += (size_t)n;
	}
	return cf->buf;
}

/*
 * A load's code could not be read again: cf changed or went away after it
 * was read. Counted for sources; said once per file, since the callers in
 * such code are then looked up as in code without bytes.
 */
static void code_gone(struct jit_code_file *cf)
{
	cf->info->code_gone++;
	if (cf->warned)
		return;
	cf->warned = true;
	warning("'%s' changed or went away after it was read: where calls end in its "
		"loads' code is not known, and callers in that code are looked up as in "
		"code without bytes (keep a jitdump until jitsym has read the recording)",
		cf->path);
}

bool jitmap__call_ends_at(const struct jit_sym *js, uint64_t off)
{
	struct jit_calls *c = js->calls;

	if (!c)
		return true;
	if (!c->set && !c->unknown) {
		const uint8_t *code = code_file_read(c->file, c->off, c->size);
		size_t n = c->size < 8 ? (size_t)c->size : 8;

		if (code && !memcmp(code, c->head, n) && !memcmp(code + c->size - n, c->tail, n)) {
			c->set = callsite_set__new(code, c->size);
		} else {
			c->unknown = true;     /* as if the bytes were not given */
			code_gone(c->file);
		}
	}
	return c->unknown || callsite_set__has(c->set, off);
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
		jm->by_index = xcalloc_written(jm->by_index_size, sizeof(*jm->by_index));
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
		jm->by_index = xcalloc_written(jm->by_index_size, sizeof(*jm->by_index));
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

void jitmap__sort_pending(struct jitmap *jm)
{
	struct jitproc *p;

	for (p = jm->procs; p; p = p->hh.next)
		if (p->nr_events > p->next &&
		    !events_sorted(p->events + p->next, p->nr_events - p->next))
			qsort(p->events + p->next, p->nr_events - p->next,
			      sizeof(*p->events), cmp_event);
}


void jit_feed__load(struct jit_feed *f, const struct jit_load *ld)
{
	struct jitmap *jm = f->jm;
	struct jitproc *p = jit_feed__record_proc(f, ld->pid);
	struct jit_event ev = { .time = ld->time, .kind = JIT_EV_LOAD };
	struct jit_sym *sym;
	size_t len;

	if (!p) {
		free(ld->lines);
		return;
	}
	jit_feed__note_record(f, p, ld->time);
	sym = ev.sym = jitmap__new_sym(jm);
	sym->start = ld->start;
	sym->size = ld->size;
	/* interned when first found (jitmap__find()) */
	len = strlen(ld->name);
	sym->name = memcpy(jitmap__alloc(jm, st_add(len, 1)), ld->name, len + 1);
	sym->name_pending = true;
	sym->source = f->path;
	sym->loader = f->loader;
	sym->load_time = ld->time;
	sym->code_index = ld->code_index;
	sym->unwind = ld->unwind;
	sym->calls = keep_calls(f, ld);
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
	struct jit_event ev = { .time = mv->time, .kind = JIT_EV_MOVE };
	struct jit_move_event *me;
	struct jitproc *p = jit_feed__record_proc(f, mv->pid);

	if (!p)
		return;
	jit_feed__note_record(f, p, mv->time);
	if (mv->time < p->epoch)
		return;     /* push_event() would drop it */
	ev.move = me = jitmap__alloc(f->jm, sizeof(*me));
	*me = (struct jit_move_event){
		.old_addr = mv->old_start, .new_addr = mv->new_start,
		.size = mv->size, .code_index = mv->code_index,
		.source = f->path, .loader = f->loader,
	};
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


/* ---- the timeline ----------------------------------------------------- */

static void apply_move(struct jitmap *jm, struct jitproc *p, uint64_t time,
		       const struct jit_move_event *ev)
{
	const struct range *old = rangeset__find(&p->code, ev->old_addr);
	const struct jit_sym *from = old ? old->data : find_by_index(jm, ev->code_index, ev->old_addr);
	struct jit_sym *sym;

	rangeset__remove(&p->code, ev->old_addr, ev->old_addr + ev->size);
	sym = jitmap__new_sym(jm);
	if (from) {
		*sym = *from;
	} else {
		sym->name = strpool__intern(jm->pool, "[moved JIT code]");
		sym->source = ev->source;
		sym->loader = ev->loader;
	}
	sym->start = ev->new_addr;
	sym->size = ev->size;
	sym->load_time = time;
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
void jitmap__clock_changed(void *ctx, uint64_t start, uint64_t size)
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
		jitmap__read_given_timed(jm, pid);
	p = jitmap__find_proc_fast(jm, pid);
	if (!p)
		return false;
	if (p->cut)
		count_after_cut(jm, p, time);
	if (p->clock) {
		struct clock_ctx cc = { jm, pid };

		changed |= untimed_clock__advance(p->clock, time, jitmap__clock_changed, &cc);
	}
	while (p->next < p->nr_events &&
	       (jm->opts.timeless || p->events[p->next].time <= time)) {
		const struct jit_event *ev = &p->events[p->next++];

		if (ev->kind == JIT_EV_LOAD) {
			rangeset__insert(&p->code, ev->sym->start, ev->sym->start + ev->sym->size,
					 0, ev->sym);
			code_changed(jm, pid, ev->sym->start, ev->sym->size);
		} else {
			apply_move(jm, p, ev->time, ev->move);
			code_changed(jm, pid, ev->move->old_addr, ev->move->size);
			code_changed(jm, pid, ev->move->new_addr, ev->move->size);
		}
		changed = true;
	}
	return changed;
}

const struct jit_line *jit_sym__line(const struct jit_sym *sym, uint64_t addr)
{
	size_t n = bsearch_last_le(sym->lines, sym->nr_lines, sizeof(*sym->lines),
				   offsetof(struct jit_line, addr), addr);

	return n ? &sym->lines[n - 1] : NULL;
}

void jitmap__each_timed(const struct jitmap *jm, uint32_t pid,
			void (*fn)(void *ctx, const struct jit_timed *e), void *ctx)
{
	const struct jitproc *p = jitmap__find_proc(jm, pid);
	size_t i;

	for (i = 0; p && i < p->nr_events; i++) {
		const struct jit_event *ev = &p->events[i];
		struct jit_timed e;

		memset(&e, 0, sizeof(e));
		e.time = ev->time;
		if (ev->kind == JIT_EV_LOAD) {
			e.sym = ev->sym;
			e.source = ev->sym->source;
		} else {
			e.old_addr = ev->move->old_addr;
			e.new_addr = ev->move->new_addr;
			e.size = ev->move->size;
			e.code_index = ev->move->code_index;
			e.source = ev->move->source;
		}
		fn(ctx, &e);
	}
}
