#include "common.h"
#include "out-fold.h"
#include "machine.h"
#include "sbuf.h"
#include "strpool.h"

#include <uthash.h>

/*
 * A stack's key is its words, compared and hashed as bytes: the comm
 * pointer, pid and tid (0 unless included), then the frame label pointers
 * outermost first. Labels are interned, so equal names share a pointer.
 */
struct stack {
	UT_hash_handle hh;
	uint64_t count;
	size_t key_len;
	uintptr_t key[];
};

struct label_entry {
	UT_hash_handle hh;
	struct { const char *sym; int kind; } k;
	const char *label;
};

/*
 * Per-frame work is what costs: a direct-mapped cache in front of the
 * label table, keyed by the resolver's interned symbol pointer and kind,
 * answers most frames with one compare.
 */
#define LABEL_CACHE_BITS 12

struct label_slot {
	const char *sym;
	int kind;
	const char *label;
};

struct folder {
	struct fold_opts opts;
	struct strpool *pool;
	struct stack *stacks;
	struct label_entry *labels;
	struct label_slot label_cache[1u << LABEL_CACHE_BITS];
	const char *last_comm, *last_comm_label;   /* the session's pointer, ours */
	uintptr_t *key;
	size_t key_alloc;
	const char *unknown;
};

struct folder *folder__new(const struct fold_opts *opts)
{
	struct folder *f = xcalloc(1, sizeof(*f));

	f->opts = *opts;
	f->pool = strpool__new();
	f->unknown = strpool__intern(f->pool, "[unknown]");
	return f;
}

void folder__delete(struct folder *f)
{
	struct stack *s, *stmp;
	struct label_entry *l, *ltmp;

	if (!f)
		return;
	HASH_ITER(hh, f->stacks, s, stmp) {
		HASH_DEL(f->stacks, s);
		free(s);
	}
	HASH_ITER(hh, f->labels, l, ltmp) {
		HASH_DEL(f->labels, l);
		free(l);
	}
	strpool__delete(f->pool);
	free(f->key);
	free(f);
}

static const char *frame_label_slow(struct folder *f, const struct frame *fr);

/* The folded name of a frame: symbol or [unknown], with the annotation. */
static const char *frame_label(struct folder *f, const struct frame *fr)
{
	uint64_t h = ((uintptr_t)fr->sym ^ (uint64_t)fr->kind) * 0x9E3779B97F4A7C15ULL;
	struct label_slot *slot = &f->label_cache[h >> (64 - LABEL_CACHE_BITS)];

	if (slot->label && slot->sym == fr->sym && slot->kind == (int)fr->kind)
		return slot->label;
	slot->sym = fr->sym;
	slot->kind = fr->kind;
	slot->label = frame_label_slow(f, fr);
	return slot->label;
}

static const char *frame_label_slow(struct folder *f, const struct frame *fr)
{
	struct label_entry key, *e;
	const char *suffix = "";
	struct sbuf sb = SBUF_INIT;
	const char *s;

	memset(&key.k, 0, sizeof(key.k));
	key.k.sym = fr->sym;
	key.k.kind = fr->kind;
	HASH_FIND(hh, f->labels, &key.k, sizeof(key.k), e);
	if (e)
		return e->label;
	if (f->opts.annotate && fr->kind == FRAME_KERNEL)
		suffix = "_[k]";
	else if (f->opts.annotate && (fr->kind == FRAME_JIT || fr->kind == FRAME_PERFMAP))
		suffix = "_[j]";
	/* ';' separates frames and a newline ends the line: keep them out of names */
	for (s = fr->sym ? fr->sym : "[unknown]"; *s; s++)
		sbuf_addch(&sb, *s == ';' ? ':' : *s == '\n' ? ' ' : *s);
	sbuf_addstr(&sb, suffix);
	e = xcalloc(1, sizeof(*e));
	e->k = key.k;
	e->label = strpool__intern_len(f->pool, sb.buf, sb.len);
	sbuf_release(&sb);
	HASH_ADD(hh, f->labels, k, sizeof(e->k), e);
	return e->label;
}

/* The key is pointers and ids: mix whole words rather than hash bytes. */
static unsigned key_hash(const uintptr_t *key, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
	size_t i;

	for (i = 0; i < n; i++) {
		h ^= (uint64_t)key[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return (unsigned)(h ^ (h >> 29));
}

void folder__add(struct folder *f, const struct resolved_sample *rs)
{
	size_t n = 0, i;
	struct stack *s;
	unsigned hash;

	ALLOC_GROW(f->key, st_add(rs->nr_frames, 3), f->key_alloc);
	/* comms are interned by the session, but it is gone when we write */
	if (rs->thread->comm != f->last_comm) {
		f->last_comm = rs->thread->comm;
		f->last_comm_label = strpool__intern(f->pool, rs->thread->comm);
	}
	f->key[n++] = (uintptr_t)f->last_comm_label;
	f->key[n++] = f->opts.include_pid || f->opts.include_tid ? rs->sample->pid : 0;
	f->key[n++] = f->opts.include_tid ? rs->sample->tid : 0;
	for (i = rs->nr_frames; i-- > 0;) {
		const struct frame *fr = &rs->frames[i];

		if (f->opts.no_kernel && fr->kind == FRAME_KERNEL)
			continue;
		f->key[n++] = (uintptr_t)frame_label(f, fr);
	}
	hash = key_hash(f->key, n);
	HASH_FIND_BYHASHVALUE(hh, f->stacks, f->key, n * sizeof(uintptr_t), hash, s);
	if (!s) {
		s = xmalloc(st_add(sizeof(*s), st_mult(n, sizeof(uintptr_t))));
		s->count = 0;
		s->key_len = n;
		memcpy(s->key, f->key, n * sizeof(uintptr_t));
		HASH_ADD_KEYPTR_BYHASHVALUE(hh, f->stacks, s->key, n * sizeof(uintptr_t), hash, s);
	}
	s->count += f->opts.weight_period ? rs->sample->period : 1;
}

static void stack_line(struct folder *f, const struct stack *s, struct sbuf *sb)
{
	const char *comm = (const char *)s->key[0];
	size_t i;

	sbuf_reset(sb);
	/* stackcollapse-perf.pl joins words of a comm with underscores */
	for (; *comm; comm++)
		sbuf_addch(sb, *comm == ' ' ? '_' : *comm == ';' ? ':' : *comm);
	if (f->opts.include_tid)
		sbuf_addf(sb, "-%" PRIuPTR "/%" PRIuPTR, s->key[1], s->key[2]);
	else if (f->opts.include_pid)
		sbuf_addf(sb, "-%" PRIuPTR, s->key[1]);
	for (i = 3; i < s->key_len; i++) {
		sbuf_addch(sb, ';');
		sbuf_addstr(sb, (const char *)s->key[i]);
	}
	sbuf_addf(sb, " %" PRIu64 "\n", s->count);
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int folder__write(struct folder *f, FILE *out)
{
	size_t nr = HASH_COUNT(f->stacks), i = 0;
	char **lines = xcalloc(nr ? nr : 1, sizeof(*lines));
	struct sbuf sb = SBUF_INIT;
	struct stack *s;
	int ret = 0;

	for (s = f->stacks; s; s = s->hh.next) {
		stack_line(f, s, &sb);
		lines[i++] = sbuf_detach(&sb, NULL);
	}
	qsort(lines, nr, sizeof(*lines), cmp_lines);
	for (i = 0; i < nr; i++) {
		fputs(lines[i], out);
		free(lines[i]);
	}
	free(lines);
	sbuf_release(&sb);
	if (fflush(out) || ferror(out))
		ret = error("cannot write output: %s", strerror(errno));
	return ret;
}
