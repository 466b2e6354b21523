#include "common/common.h"
#include "aggregate/timeline.h"
#include "resolve/srcline.h"
#include "timeline/jitmap.h"
#include "timeline/user-markers.h"
#include "timeline/jit-loader.h"
#include "common/strpool.h"
#include "common/sbuf.h"
#include "reader/perfdata.h"
#include "timeline/machine.h"

#include <linux/perf_event.h>

#include <uthash.h>

/*
 * A resolved frame's answer (its timeline frames, outermost first) is kept
 * in a direct-mapped cache keyed by what decides it: a hot loop's frames
 * look nothing up twice. Chains deeper than CHAIN_MAX are not kept.
 */
#define FRONT_BITS 15
#define CHAIN_MAX 8

struct front_key {
	const char *sym, *dso;
	const void *obj, *jit;
	uint64_t elf_addr, symoff, ip;
	uint32_t kind;
};

struct front_slot {
	struct front_key key;
	uint32_t chain[CHAIN_MAX];
	uint32_t n;             /* 0: empty */
};

/*
 * An entry of the tables' indexes: the key's bytes (a struct, zeroed
 * before it is filled, so that padding compares equal) and the row.
 */
struct key_entry {
	UT_hash_handle hh;
	uint32_t index;
	unsigned char key[];
};

/* The keys of resources, functions, frames and threads. */
struct res_key { const char *path; bool jit; };
struct func_key { const char *name, *file; uint32_t resource; };
struct frame_key { uint32_t func, line, column, depth, category, subcategory; };
/* a thread that execs starts a new track; one that renames itself does not */
struct thread_key { uintptr_t id; uint32_t pid, tid, execs; };

/* A marker file a process mapped (timeline__record(): the session's thread). */
struct marker_file {
	uint32_t pid;
	char *path;
};

/* A function seen optimized (tier-ups): its name without the tier's mark. */
struct optimized_entry {
	const char *key;
	UT_hash_handle hh;
};

struct timeline {
	struct timeline_opts opts;
	struct strpool *pool;
	struct srcline_cache *srcline;
	struct front_slot *front;
	struct key_entry *res_hash, *func_hash, *frame_hash, *thread_hash;
	struct tl_resource *resources;
	size_t nr_resources, alloc_resources;
	struct tl_func *funcs;
	size_t nr_funcs, alloc_funcs;
	struct tl_frame *frames;
	size_t nr_frames, alloc_frames;
	struct tl_stack *stacks;
	size_t nr_stacks, alloc_stacks;
	uint32_t *stack_slots;          /* open addressing: stack index + 1; 0 empty */
	size_t stack_slots_size;        /* a power of two, at most half full */
	struct tl_thread *threads;
	size_t nr_threads, alloc_threads;
	struct key_entry *last_thread;
	struct tl_subcategories subcats[TL_NR_CATEGORIES];
	uint32_t offcpu_frame;          /* the "[off-cpu]" leaf's frame; TL_NONE: not made yet */
	/* TLM_OFFCPU markers: the sample hook's, apart from timeline__record()'s */
	struct tl_marker *off_markers;
	size_t nr_off_markers, alloc_off_markers;
	FILE *spill;                    /* the threads' chunks; NULL: none yet, or failed */
	uint64_t spill_size;
	bool spill_failed;
	size_t chunk;                   /* spill a thread's samples past this many */
	size_t max_chunk;               /* the largest chunk spilled */
	uint32_t *rd_stack;             /* timeline__chunk()'s buffers, max_chunk each */
	uint64_t *rd_time, *rd_weight;
	struct tl_marker *markers;      /* timeline__record()'s, then timeline__end()'s */
	size_t nr_markers, alloc_markers;
	struct marker_file *marker_files;
	size_t nr_marker_files, alloc_marker_files;
	struct timeline_view view;
	bool finished;
};

struct timeline *timeline__new(const struct timeline_opts *opts)
{
	struct timeline *t = xcalloc(1, sizeof(*t));
	size_t i;

	t->opts = *opts;
	t->pool = strpool__new();
	t->srcline = srcline_cache__new(t->pool);
	/* the front cache asks each address once */
	srcline_cache__no_memo(t->srcline);
	t->front = xcalloc_written((size_t)1 << FRONT_BITS, sizeof(*t->front));
	t->stack_slots_size = 1u << 12;
	t->stack_slots = xcalloc_written(t->stack_slots_size, sizeof(*t->stack_slots));
	t->offcpu_frame = TL_NONE;
	/* a test hook: tests make small recordings spill (tests/golden/timeline-synth) */
	t->chunk = TL_CHUNK;
	if (getenv("JITSYM_TEST_TIMELINE_CHUNK"))
		t->chunk = (size_t)strtoul(getenv("JITSYM_TEST_TIMELINE_CHUNK"), NULL, 10);
	for (i = 0; i < TL_NR_CATEGORIES; i++) {
		ALLOC_GROW(t->subcats[i].names, 1, t->subcats[i].alloc);
		t->subcats[i].names[t->subcats[i].nr++] = "Other";
	}
	return t;
}

#define FREE_HASH(head, type)                          \
	do {                                            \
		type *e_, *tmp_;                        \
		HASH_ITER(hh, head, e_, tmp_) {         \
			HASH_DEL(head, e_);             \
			free(e_);                       \
		}                                       \
	} while (0)

void timeline__delete(struct timeline *t)
{
	size_t i;

	if (!t)
		return;
	FREE_HASH(t->res_hash, struct key_entry);
	FREE_HASH(t->func_hash, struct key_entry);
	FREE_HASH(t->frame_hash, struct key_entry);
	FREE_HASH(t->thread_hash, struct key_entry);
	for (i = 0; i < t->nr_threads; i++) {
		free(t->threads[i].stack);
		free(t->threads[i].time);
		free(t->threads[i].weight);
	}
	for (i = 0; i < TL_NR_CATEGORIES; i++)
		free(t->subcats[i].names);
	free(t->off_markers);
	for (i = 0; i < t->nr_threads; i++)
		free(t->threads[i].chunks);
	if (t->spill)
		fclose(t->spill);
	free(t->rd_stack);
	free(t->rd_time);
	free(t->rd_weight);
	for (i = 0; i < t->nr_marker_files; i++)
		free(t->marker_files[i].path);
	free(t->marker_files);
	free(t->markers);
	free(t->threads);
	free(t->stacks);
	free(t->stack_slots);
	free(t->frames);
	free(t->funcs);
	free(t->resources);
	free(t->front);
	srcline_cache__delete(t->srcline);
	strpool__delete(t->pool);
	free(t);
}

static uint32_t index_of(size_t n, const char *what)
{
	if (n >= TL_NONE)
		die("more than 2^32 %s in one timeline", what);
	return (uint32_t)n;
}

/*
 * The row of key (len bytes) in the index *head; when it has none, *added
 * and the row next, which the caller then fills.
 */
static struct key_entry *intern_key(struct key_entry **head, const void *key, size_t len,
				    size_t next, const char *what, bool *added)
{
	struct key_entry *e;

	HASH_FIND(hh, *head, key, len, e);
	*added = !e;
	if (e)
		return e;
	e = xmalloc(sizeof(*e) + len);
	memcpy(e->key, key, len);
	e->index = index_of(next, what);
	HASH_ADD_KEYPTR(hh, *head, e->key, len, e);
	return e;
}

/* The basename of a path ("/usr/lib/libc.so.6": "libc.so.6"). */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

static const char *hex_build_id(struct timeline *t, const uint8_t *id, size_t size)
{
	static const char digits[] = "0123456789abcdef";
	char hex[2 * 64 + 1];
	size_t i;

	if (!id || !size || size > 64)
		return NULL;
	for (i = 0; i < size; i++) {
		hex[2 * i] = digits[id[i] >> 4];
		hex[2 * i + 1] = digits[id[i] & 15];
	}
	hex[2 * size] = '\0';
	return strpool__intern(t->pool, hex);
}

/* The resource of a frame: its JIT side file, or its native file; TL_NONE for none. */
static uint32_t frame_resource(struct timeline *t, const struct frame *f)
{
	struct key_entry *e;
	struct res_key key;
	struct tl_resource *r;
	const char *path;
	bool jit = f->kind == FRAME_JIT || f->kind == FRAME_PERFMAP, added;

	if (jit)
		path = f->jit && f->jit->source ? f->jit->source : NULL;
	else
		path = f->dso && strcmp(f->dso, "[unknown]") ? f->dso : NULL;
	if (!path)
		return TL_NONE;
	path = strpool__intern(t->pool, path);
	memset(&key, 0, sizeof(key));
	key.path = path;
	key.jit = jit;
	e = intern_key(&t->res_hash, &key, sizeof(key), t->nr_resources, "resources", &added);
	if (!added)
		return e->index;
	ALLOC_GROW(t->resources, t->nr_resources + 1, t->alloc_resources);
	r = &t->resources[t->nr_resources++];
	r->path = path;
	r->name = strpool__intern(t->pool, base_name(path));
	r->jit = jit;
	r->build_id = !jit && f->obj ? hex_build_id(t, f->obj->build_id, f->obj->build_id_size) : NULL;
	return e->index;
}

static uint32_t func_intern(struct timeline *t, const char *name, const char *file,
			    uint32_t resource, uint32_t category)
{
	struct func_key key;
	struct key_entry *e;
	struct tl_func *fn;
	bool added;

	memset(&key, 0, sizeof(key));
	key.name = name;
	key.file = file;
	key.resource = resource;
	e = intern_key(&t->func_hash, &key, sizeof(key), t->nr_funcs, "functions", &added);
	if (added) {
		ALLOC_GROW(t->funcs, t->nr_funcs + 1, t->alloc_funcs);
		fn = &t->funcs[t->nr_funcs++];
		fn->name = name;
		fn->file = file;
		fn->resource = resource;
		fn->category = category;
	}
	return e->index;
}

static uint32_t frame_intern(struct timeline *t, const struct tl_frame *want)
{
	struct frame_key key;
	struct key_entry *e;
	bool added;

	memset(&key, 0, sizeof(key));
	key.func = want->func;
	key.line = want->line;
	key.column = want->column;
	key.depth = want->inline_depth;
	key.category = want->category;
	key.subcategory = want->subcategory;
	e = intern_key(&t->frame_hash, &key, sizeof(key), t->nr_frames, "frames", &added);
	if (added) {
		ALLOC_GROW(t->frames, t->nr_frames + 1, t->alloc_frames);
		t->frames[t->nr_frames++] = *want;
	}
	return e->index;
}

/* The index of tier in category c's subcategories, added when new; 0 ("Other") for none. */
static uint32_t subcategory(struct timeline *t, enum frame_category c, const char *tier)
{
	struct tl_subcategories *s = &t->subcats[c];
	size_t i;

	if (!tier)
		return 0;
	for (i = 1; i < s->nr; i++)
		if (!strcmp(s->names[i], tier))
			return (uint32_t)i;
	ALLOC_GROW(s->names, s->nr + 1, s->alloc);
	s->names[s->nr] = strpool__intern(t->pool, tier);
	return (uint32_t)s->nr++;
}

/*
 * The timeline frames of a resolved frame into chain[SRCLINE_MAX_DEPTH],
 * outermost (the real function) first; how many.
 */
static size_t frame_chain(struct timeline *t, const struct frame *f, uint32_t *chain)
{
	struct src_loc src[SRCLINE_MAX_DEPTH];
	struct frame_class fc;
	uint32_t resource, subcat;
	size_t n = 0, i;

	frameclass__classify(f->kind, f->sym, &fc);
	subcat = subcategory(t, fc.category, fc.tier);
	resource = frame_resource(t, f);
	if (f->sym)
		n = srcline__lookup(t->srcline, f, src, SRCLINE_MAX_DEPTH);
	if (!n) {
		memset(src, 0, sizeof(src[0]));
		n = 1;
	}
	for (i = 0; i < n; i++) {
		/* src[n - 1] is the real function, named by its symbol */
		const struct src_loc *s = &src[n - 1 - i];
		const char *name = i ? s->function : f->sym;
		struct tl_frame want = {
			.line = s->line,
			.column = s->column,
			.inline_depth = (uint32_t)i,
			.category = fc.category,
			.subcategory = subcat,
			.gc = fc.category == FC_RUNTIME && fc.tier && !strcmp(fc.tier, "GC"),
		};

		name = strpool__intern(t->pool, name ? name : "[unknown]");
		want.func = func_intern(t, name, s->file, resource, fc.category);
		chain[i] = frame_intern(t, &want);
	}
	return n;
}

static uint64_t front_hash(const struct front_key *k)
{
	uint64_t h = (k->elf_addr ^ k->symoff * 0x100000001b3ULL ^ k->ip) * 0x9E3779B97F4A7C15ULL;

	h ^= (uintptr_t)k->sym * 0xff51afd7ed558ccdULL;
	h ^= (uintptr_t)k->jit + k->kind;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h >> (64 - FRONT_BITS);
}

/* frame_chain() through the front cache; *chain points at the answer. */
static size_t frame_chain_cached(struct timeline *t, const struct frame *f, uint32_t *scratch,
				 const uint32_t **chain)
{
	struct front_key k;
	struct front_slot *slot;
	size_t n;

	memset(&k, 0, sizeof(k));
	k.sym = f->sym;
	k.dso = f->dso;
	k.obj = f->obj;
	k.jit = f->jit;
	k.elf_addr = f->elf_addr;
	k.symoff = f->symoff;
	k.ip = f->ip;
	k.kind = f->kind;
	slot = &t->front[front_hash(&k)];
	if (slot->n && !memcmp(&slot->key, &k, sizeof(k))) {
		*chain = slot->chain;
		return slot->n;
	}
	n = frame_chain(t, f, scratch);
	*chain = scratch;
	if (n <= CHAIN_MAX) {
		slot->key = k;
		memcpy(slot->chain, scratch, n * sizeof(*scratch));
		slot->n = (uint32_t)n;
	}
	return n;
}

static uint64_t stack_hash(uint32_t prefix, uint32_t frame)
{
	uint64_t h = ((uint64_t)prefix << 32 | frame) * 0x9E3779B97F4A7C15ULL;

	return h ^ h >> 31;
}

static void grow_stack_slots(struct timeline *t)
{
	size_t size = t->stack_slots_size * 2, mask = size - 1, i;
	uint32_t *slots = xcalloc_written(size, sizeof(*slots));

	for (i = 0; i < t->nr_stacks; i++) {
		size_t pos = stack_hash(t->stacks[i].prefix, t->stacks[i].frame) & mask;

		while (slots[pos])
			pos = (pos + 1) & mask;
		slots[pos] = (uint32_t)i + 1;
	}
	free(t->stack_slots);
	t->stack_slots = slots;
	t->stack_slots_size = size;
}

static uint32_t stack_intern(struct timeline *t, uint32_t prefix, uint32_t frame)
{
	size_t mask = t->stack_slots_size - 1, pos = stack_hash(prefix, frame) & mask;
	uint32_t s;

	for (; (s = t->stack_slots[pos]); pos = (pos + 1) & mask) {
		const struct tl_stack *st = &t->stacks[s - 1];

		if (st->prefix == prefix && st->frame == frame)
			return s - 1;
	}
	if (t->nr_stacks + 1 >= TL_NONE)
		die("more than 2^32 stacks in one timeline");
	ALLOC_GROW(t->stacks, t->nr_stacks + 1, t->alloc_stacks);
	t->stacks[t->nr_stacks].prefix = prefix;
	t->stacks[t->nr_stacks].frame = frame;
	t->stack_slots[pos] = (uint32_t)++t->nr_stacks;
	if (t->nr_stacks * 2 > t->stack_slots_size)
		grow_stack_slots(t);
	return (uint32_t)(t->nr_stacks - 1);
}

static struct tl_thread *find_thread(struct timeline *t, const struct resolved_sample *rs)
{
	struct key_entry *e = t->last_thread;
	struct thread_key key;
	struct tl_thread *th;
	bool added = false;

	memset(&key, 0, sizeof(key));
	key.id = rs->thread_id;
	key.pid = rs->facts.pid;
	key.tid = rs->facts.tid;
	key.execs = rs->thread ? rs->thread->execs : 0;
	if (!e || memcmp(e->key, &key, sizeof(key)))
		e = intern_key(&t->thread_hash, &key, sizeof(key), t->nr_threads, "threads", &added);
	if (added) {
		ALLOC_GROW(t->threads, t->nr_threads + 1, t->alloc_threads);
		th = &t->threads[t->nr_threads++];
		memset(th, 0, sizeof(*th));
		th->pid = rs->facts.pid;
		th->tid = rs->facts.tid;
	}
	t->last_thread = e;
	th = &t->threads[e->index];
	/* a thread that renames itself (a JVM's) stays one track, named as it was last */
	if (rs->comm != th->last_comm) {
		th->last_comm = rs->comm;
		th->comm = strpool__intern(t->pool, rs->comm ? rs->comm : "[unknown]");
	}
	return th;
}

static void grow_buf(struct tl_thread *th)
{
	th->alloc = th->alloc ? th->alloc * 2 : 64;
	th->stack = xrealloc(th->stack, th->alloc * sizeof(*th->stack));
	th->time = xrealloc(th->time, th->alloc * sizeof(*th->time));
	th->weight = xrealloc(th->weight, th->alloc * sizeof(*th->weight));
}

static bool write_at(FILE *f, uint64_t off, const void *buf, size_t len)
{
	return !fseeko(f, (off_t)off, SEEK_SET) && fwrite(buf, 1, len, f) == len;
}

/* Write th's samples in memory to the spill file as a chunk; false: keep them in memory. */
static bool spill_chunk(struct timeline *t, struct tl_thread *th)
{
	size_t n = th->nr_buf;
	uint64_t off = t->spill_size;

	if (t->spill_failed)
		return false;
	if (!t->spill && !(t->spill = tmpfile())) {
		warning("cannot make a temporary file for the timeline's samples (%s): they stay "
			"in memory", strerror(errno));
		t->spill_failed = true;
		return false;
	}
	if (!write_at(t->spill, off, th->stack, n * sizeof(*th->stack)) ||
	    !write_at(t->spill, off + n * sizeof(*th->stack), th->time, n * sizeof(*th->time)) ||
	    !write_at(t->spill, off + n * (sizeof(*th->stack) + sizeof(*th->time)), th->weight,
		      n * sizeof(*th->weight))) {
		warning("cannot write the timeline's samples to a temporary file (%s): they stay "
			"in memory", strerror(errno));
		t->spill_failed = true;
		return false;
	}
	ALLOC_GROW(th->chunks, th->nr_chunks + 1, th->alloc_chunks);
	th->chunks[th->nr_chunks].off = off;
	th->chunks[th->nr_chunks].n = (uint32_t)n;
	th->nr_chunks++;
	if (n > t->max_chunk)
		t->max_chunk = n;
	t->spill_size += n * (sizeof(*th->stack) + sizeof(*th->time) + sizeof(*th->weight));
	return true;
}

static void push_hook_marker(struct timeline *t, enum tl_marker_kind kind, uint32_t pid,
			     uint32_t tid, uint64_t start, uint64_t end, uint32_t category)
{
	struct tl_marker *m;

	ALLOC_GROW(t->off_markers, t->nr_off_markers + 1, t->alloc_off_markers);
	m = &t->off_markers[t->nr_off_markers++];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->pid = pid;
	m->tid = tid;
	m->start = start;
	m->end = end;
	m->category = category;
}

/*
 * A thread's samples in GC (a frame of the runtime's GC on the stack) in
 * a row make a GC marker, from the first of them to the thread's next
 * sample out of GC (to the last in GC when none comes).
 */
static void gc_mark(struct timeline *t, struct tl_thread *th, bool gc, uint64_t time)
{
	if (gc) {
		if (!th->in_gc)
			th->gc_start = time;
		th->in_gc = true;
		th->gc_last = time;
	} else if (th->in_gc) {
		push_hook_marker(t, TLM_GC, th->pid, th->tid, th->gc_start, time, FC_RUNTIME);
		th->in_gc = false;
	}
}

bool timeline__chunk(const struct timeline_view *v, const struct tl_thread *th, size_t c,
		     const uint32_t **stack, const uint64_t **time, const uint64_t **weight,
		     size_t *n)
{
	struct timeline *t = v->owner;
	const struct tl_chunk *ch;
	size_t k;

	if (c > th->nr_chunks || (c == th->nr_chunks && !th->nr_buf))
		return false;
	if (c == th->nr_chunks) {
		*stack = th->stack;
		*time = th->time;
		*weight = th->weight;
		*n = th->nr_buf;
		return true;
	}
	ch = &th->chunks[c];
	k = ch->n;
	if (!t->rd_stack) {
		t->rd_stack = xmalloc(t->max_chunk * sizeof(*t->rd_stack));
		t->rd_time = xmalloc(t->max_chunk * sizeof(*t->rd_time));
		t->rd_weight = xmalloc(t->max_chunk * sizeof(*t->rd_weight));
	}
	if (k > t->max_chunk || fseeko(t->spill, (off_t)ch->off, SEEK_SET) ||
	    fread(t->rd_stack, sizeof(*t->rd_stack), k, t->spill) != k ||
	    fread(t->rd_time, sizeof(*t->rd_time), k, t->spill) != k ||
	    fread(t->rd_weight, sizeof(*t->rd_weight), k, t->spill) != k)
		die("cannot read the timeline's samples back from their temporary file");
	*stack = t->rd_stack;
	*time = t->rd_time;
	*weight = t->rd_weight;
	*n = k;
	return true;
}

/* The "[off-cpu]" leaf of off-CPU stacks: the profiler's idle category. */
static uint32_t offcpu_frame(struct timeline *t)
{
	struct tl_frame want = { .category = TL_CATEGORY_IDLE };

	if (t->offcpu_frame == TL_NONE) {
		want.func = func_intern(t, strpool__intern(t->pool, OFFCPU_FRAME), NULL, TL_NONE,
					TL_CATEGORY_IDLE);
		t->offcpu_frame = frame_intern(t, &want);
	}
	return t->offcpu_frame;
}

static bool is_offcpu(const struct timeline *t, const struct resolved_sample *rs)
{
	if (t->opts.offcpu == OFFCPU_ONLY)
		return true;
	return t->opts.offcpu == OFFCPU_BOTH && rs->nr_frames && rs->frames[0].sym &&
	       rs->frames[0].kind == FRAME_UNKNOWN && !strcmp(rs->frames[0].sym, OFFCPU_FRAME);
}

void timeline__add(struct timeline *t, const struct resolved_sample *rs)
{
	uint32_t scratch[SRCLINE_MAX_DEPTH];
	uint32_t stack = TL_NONE;
	struct tl_thread *th;
	bool off = is_offcpu(t, rs), gc = false;
	size_t i, j, leaf = off && t->opts.offcpu == OFFCPU_BOTH;  /* frames below it: the off-CPU leaf */
	uint64_t w;

	if (t->finished)
		BUG("timeline__add() after timeline__finish()");
	for (i = rs->nr_frames; i-- > leaf;) {
		const struct frame *f = &rs->frames[i];
		const uint32_t *chain;
		size_t n;

		if (t->opts.stack.no_kernel && f->kind == FRAME_KERNEL)
			continue;
		n = frame_chain_cached(t, f, scratch, &chain);
		for (j = 0; j < n; j++) {
			stack = stack_intern(t, stack, chain[j]);
			gc |= t->frames[chain[j]].gc;
		}
	}
	if (off) {
		stack = stack_intern(t, stack, offcpu_frame(t));
		push_hook_marker(t, TLM_OFFCPU, rs->facts.pid, rs->facts.tid, rs->facts.time,
				 rs->facts.time + rs->facts.period, TL_CATEGORY_IDLE);
	}
	th = find_thread(t, rs);
	w = t->opts.stack.weight_period ? rs->facts.period : 1;
	gc_mark(t, th, gc && !off, rs->facts.time);
	if (th->nr_buf == th->alloc) {
		if (th->nr_buf >= t->chunk && spill_chunk(t, th))
			th->nr_buf = 0;
		else
			grow_buf(th);
	}
	th->stack[th->nr_buf] = stack;
	th->time[th->nr_buf] = rs->facts.time;
	th->weight[th->nr_buf] = w;
	th->nr_buf++;
	if (!th->nr_samples++)
		th->first_time = rs->facts.time;
	th->total_weight += w;
	if (!t->view.nr_samples++) {
		t->view.first_time = t->view.last_time = rs->facts.time;
		t->view.event = rs->facts.event.name ? strpool__intern(t->pool, rs->facts.event.name) : NULL;
		t->view.event_is_clock = rs->facts.event.is_clock;
	}
	if (rs->facts.time < t->view.first_time)
		t->view.first_time = rs->facts.time;
	if (rs->facts.time > t->view.last_time)
		t->view.last_time = rs->facts.time;
}

static struct tl_marker *new_marker(struct timeline *t, enum tl_marker_kind kind, uint32_t pid,
				     uint32_t tid, uint64_t start, uint64_t end)
{
	struct tl_marker *m;

	ALLOC_GROW(t->markers, t->nr_markers + 1, t->alloc_markers);
	m = &t->markers[t->nr_markers];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->pid = pid;
	m->tid = tid;
	m->start = start;
	m->end = end;
	m->category = FC_UNKNOWN;
	m->seq = t->nr_markers++;
	return m;
}

void timeline__record(struct timeline *t, const struct pd_event *ev)
{
	uint32_t file_pid;
	size_t i;

	if (t->finished)
		BUG("timeline__record() after timeline__finish()");
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (!ev->u.mmap.filename ||
		    !user_markers__is_marker_file(ev->u.mmap.filename, &file_pid))
			return;
		for (i = 0; i < t->nr_marker_files; i++)
			if (t->marker_files[i].pid == ev->u.mmap.pid &&
			    !strcmp(t->marker_files[i].path, ev->u.mmap.filename))
				return;
		ALLOC_GROW(t->marker_files, t->nr_marker_files + 1, t->alloc_marker_files);
		t->marker_files[t->nr_marker_files].pid = ev->u.mmap.pid;
		t->marker_files[t->nr_marker_files].path = xstrdup(ev->u.mmap.filename);
		t->nr_marker_files++;
		return;
	case PERF_RECORD_SAMPLE:        /* --marker-event's */
		if (!ev->sample.has_time)
			return;
		/* the name lives as long as the session, which the writer runs in */
		new_marker(t, TLM_EVENT, ev->sample.pid, ev->sample.tid, ev->sample.time,
			   ev->sample.time)->name = ev->sample.attr ? ev->sample.attr->name : "marker";
		return;
	case PERF_RECORD_LOST:
	case PERF_RECORD_LOST_SAMPLES:
		/* without a time there is nowhere to put it */
		if (!ev->sample.has_time)
			return;
		new_marker(t, ev->type == PERF_RECORD_LOST ? TLM_LOST : TLM_LOST_SAMPLES,
			   ev->sample.pid, ev->sample.tid, ev->sample.time,
			   ev->sample.time)->count = ev->u.lost.lost;
		return;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		if (!ev->sample.has_time)
			return;
		new_marker(t, ev->type == PERF_RECORD_THROTTLE ? TLM_THROTTLE : TLM_UNTHROTTLE,
			   ev->sample.pid, ev->sample.tid, ev->sample.time, ev->sample.time);
		return;
	default:
		return;
	}
}

struct jit_marking {
	struct timeline *t;
	uint32_t pid;
	struct optimized_entry *optimized;
	struct sbuf key;
};

static void jit_marker(void *ctx, const struct jit_timed *e)
{
	struct jit_marking *jm = ctx;
	struct timeline *t = jm->t;
	struct frame_class fc;
	struct tl_marker *m;
	struct optimized_entry *o;
	const char *key;

	if (!e->sym) {
		m = new_marker(t, TLM_JIT_MOVE, jm->pid, 0, e->time, e->time);
		m->category = FC_JIT;
		m->addr = e->new_addr;
		m->old_addr = e->old_addr;
		m->size = e->size;
		m->source = e->source ? strpool__intern(t->pool, e->source) : NULL;
		return;
	}
	frameclass__classify(FRAME_JIT, e->sym->name, &fc);
	m = new_marker(t, TLM_JIT_LOAD, jm->pid, 0, e->time, e->time);
	m->name = strpool__intern(t->pool, e->sym->name);
	m->tier = fc.tier ? strpool__intern(t->pool, fc.tier) : NULL;
	/* one category for the marker chart's "JIT load" row: the tier is in the payload */
	m->category = FC_JIT;
	m->addr = e->sym->start;
	m->size = e->sym->size;
	m->source = e->source ? strpool__intern(t->pool, e->source) : NULL;
	if (fc.category != FC_OPTIMIZED)
		return;
	/* the first optimized code of the function: its name without the tier's mark */
	sbuf_reset(&jm->key);
	sbuf_add(&jm->key, e->sym->name, fc.mark_off);
	sbuf_addstr(&jm->key, e->sym->name + fc.mark_off + fc.mark_len);
	key = strpool__intern(t->pool, jm->key.buf);
	HASH_FIND_PTR(jm->optimized, &key, o);
	if (o)
		return;
	o = xmalloc(sizeof(*o));
	o->key = key;
	HASH_ADD_PTR(jm->optimized, key, o);
	m = new_marker(t, TLM_TIER_UP, jm->pid, 0, e->time, e->time);
	m->name = t->markers[t->nr_markers - 2].name;
	m->tier = t->markers[t->nr_markers - 2].tier;
	m->category = FC_OPTIMIZED;
	m->source = t->markers[t->nr_markers - 2].source;
}

/* A marker file's tag: "iter" of ".../marker-123-iter.txt" (the name when it has none). */
static const char *marker_tag(struct timeline *t, const char *path)
{
	const char *base = strrchr(path, '/'), *dash, *end;

	base = base ? base + 1 : path;
	dash = strchr(base + strlen("marker-"), '-');
	end = base + strlen(base) - strlen(".txt");
	if (!dash || dash + 1 >= end)
		return strpool__intern(t->pool, "markers");
	return strpool__intern_len(t->pool, dash + 1, (size_t)(end - dash - 1));
}

/* The directories of pid's timed side files (jitdumps) not scanned yet. */
static void scan_jit_dirs(struct marker_set *ms, const struct jitmap *jm, uint32_t pid,
			  const char *data_dir, const char *const *dirs, size_t nr_dirs)
{
	size_t l, i;

	for (l = 0; jit_loaders[l]; l++) {
		const struct jit_file_info *info = jitmap__file(jm, pid, jit_loaders[l]);
		char *dir;
		bool seen;

		if (jit_loaders[l]->kind != JIT_TIMED || !info || !info->path)
			continue;
		dir = xdirname(info->path);
		seen = !strcmp(dir, data_dir);
		for (i = 0; i < nr_dirs && !seen; i++)
			seen = !strcmp(dir, dirs[i]);
		/* a directory scanned twice reads nothing twice (by inode): only the cost */
		if (!seen)
			marker_set__scan_dir(ms, dir);
		free(dir);
	}
}

void timeline__scan_marker_dirs(struct marker_set *ms, const struct jitmap *jm,
				const uint32_t *pids, size_t nr_pids, const char *data_dir,
				const char *const *dirs, size_t nr_dirs)
{
	size_t i, k;

	marker_set__scan_dir(ms, data_dir);
	for (i = 0; i < nr_dirs; i++)
		marker_set__scan_dir(ms, dirs[i]);
	for (k = 0; jm && k < nr_pids; k++)
		scan_jit_dirs(ms, jm, pids[k], data_dir, dirs, nr_dirs);
}

static bool sampled_pid(const struct timeline *t, uint32_t pid)
{
	size_t i;

	for (i = 0; i < t->nr_threads; i++)
		if (t->threads[i].pid == pid)
			return true;
	return false;
}

void timeline__end(struct timeline *t, const struct jitmap *jm, const char *data_dir,
		   const char *const *dirs, size_t nr_dirs)
{
	uint32_t *pids = xcalloc(t->nr_threads + 1, sizeof(*pids));
	struct strpool *mpool = strpool__new();
	struct marker_set *ms = marker_set__new(mpool);
	size_t nr_pids = 0, i, k;

	if (t->finished)
		BUG("timeline__end() after timeline__finish()");
	for (i = 0; i < t->nr_threads; i++) {
		for (k = 0; k < nr_pids && pids[k] != t->threads[i].pid; k++)
			;
		if (k == nr_pids)
			pids[nr_pids++] = t->threads[i].pid;
	}
	for (k = 0; jm && k < nr_pids; k++) {
		struct jit_marking m = { .t = t, .pid = pids[k], .key = SBUF_INIT };
		struct optimized_entry *o, *tmp;

		jitmap__each_timed(jm, pids[k], jit_marker, &m);
		HASH_ITER(hh, m.optimized, o, tmp) {
			HASH_DEL(m.optimized, o);
			free(o);
		}
		sbuf_release(&m.key);
	}
	/* the program's own spans: in the directories, and mapped */
	timeline__scan_marker_dirs(ms, jm, pids, nr_pids, data_dir, dirs, nr_dirs);
	for (i = 0; i < t->nr_marker_files; i++)
		if (sampled_pid(t, t->marker_files[i].pid))
			marker_set__mapped(ms, t->marker_files[i].pid, t->marker_files[i].path, data_dir);
	for (k = 0; k < nr_pids; k++) {
		size_t n;
		const struct user_marker *v = marker_set__spans(ms, pids[k], &n);

		for (i = 0; i < n; i++) {
			struct tl_marker *m = new_marker(t, TLM_USER, pids[k], 0, v[i].start, v[i].end);

			m->name = strpool__intern(t->pool, v[i].name);
			m->source = strpool__intern(t->pool, v[i].source);
			m->group = marker_tag(t, m->source);
		}
	}
	marker_set__delete(ms);
	strpool__delete(mpool);
	free(pids);
}

static int cmp_marker(const void *a, const void *b)
{
	const struct tl_marker *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct tl_thread *x = a, *y = b;
	bool xm = x->tid == x->pid, ym = y->tid == y->pid;
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (xm != ym)
		return xm ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	c = strcmp(x->comm, y->comm);
	if (c)
		return c;
	/* the same thread and name twice (a reused pid): by first sample */
	if (x->first_time != y->first_time)
		return x->first_time < y->first_time ? -1 : 1;
	return 0;
}

const struct timeline_view *timeline__finish(struct timeline *t)
{
	struct timeline_view *v = &t->view;
	size_t i;

	if (t->finished)
		BUG("timeline__finish() twice");
	t->finished = true;
	t->last_thread = NULL;
	/* a stable order: qsort is not, so equal keys are ordered by their first sample */
	if (t->nr_threads)      /* qsort() wants an array, even of none */
		qsort(t->threads, t->nr_threads, sizeof(*t->threads), cmp_thread);
	for (i = 0; i < t->nr_threads; i++) {
		struct tl_thread *th = &t->threads[i];

		if (th->in_gc)
			push_hook_marker(t, TLM_GC, th->pid, th->tid, th->gc_start, th->gc_last,
					 FC_RUNTIME);
		th->in_gc = false;
	}
	/* the sample hook's markers (off-CPU, GC) after the others, numbered on from them */
	for (i = 0; i < t->nr_off_markers; i++) {
		ALLOC_GROW(t->markers, t->nr_markers + 1, t->alloc_markers);
		t->markers[t->nr_markers] = t->off_markers[i];
		t->markers[t->nr_markers].seq = t->nr_markers;
		t->nr_markers++;
	}
	if (t->nr_markers)
		qsort(t->markers, t->nr_markers, sizeof(*t->markers), cmp_marker);
	v->zero_time = v->first_time;
	if (t->nr_markers && (!v->nr_samples || t->markers[0].start < v->zero_time))
		v->zero_time = t->markers[0].start;
	v->markers = t->markers;
	v->nr_markers = t->nr_markers;
	v->resources = t->resources;
	v->nr_resources = t->nr_resources;
	v->funcs = t->funcs;
	v->nr_funcs = t->nr_funcs;
	v->frames = t->frames;
	v->nr_frames = t->nr_frames;
	v->stacks = t->stacks;
	v->nr_stacks = t->nr_stacks;
	v->threads = t->threads;
	v->nr_threads = t->nr_threads;
	v->subcategories = t->subcats;
	v->weight_period = t->opts.stack.weight_period;
	v->weight_ns = v->weight_period && (v->event_is_clock || t->opts.offcpu != OFFCPU_NONE);
	v->owner = t;
	return v;
}

size_t timeline__stack_frames(const struct timeline_view *v, uint32_t stack, uint32_t *out,
			      size_t max)
{
	size_t n = 0, i;
	uint32_t s;

	for (s = stack; s != TL_NONE; s = v->stacks[s].prefix)
		n++;
	if (n > max)
		return n;
	i = n;
	for (s = stack; s != TL_NONE; s = v->stacks[s].prefix)
		out[--i] = v->stacks[s].frame;
	return n;
}
