#include "common.h"
#include "out-fold.h"
#include "machine.h"
#include "sbuf.h"
#include "strpool.h"

#include <pthread.h>
#include <unistd.h>

#include <uthash.h>

/*
 * A stack is a sequence of 32-bit label ids: its head (comm, with pid and
 * tid when asked) then its frames outermost first. Keys live in large
 * chunks, stacks in one array, and an open-addressing table of stack
 * indices finds them: a sample costs one hash of its ids and, when the
 * stack was seen before, one compare; nothing is allocated per sample.
 * Memory is four bytes per frame of each distinct stack plus a few words.
 */
#define KEY_CHUNK_WORDS (1u << 20)
#define LABEL_CACHE_BITS 16
#define OUT_BUF_SIZE (1u << 20)
/* Fewer stacks than this sort faster than a thread starts. */
#define SORT_PARALLEL_MIN 65536

struct label {
	const char *str;        /* interned in the folder's pool */
	uint32_t len;
};


/* Label ids by interned text: frames of different kinds can print the same. */
struct text_entry {
	UT_hash_handle hh;
	const char *str;
	uint32_t id;
};

struct head_entry {
	UT_hash_handle hh;
	struct { const char *comm; uint32_t pid, tid; } k;
	uint32_t id;
};

/*
 * Frame labels by (symbol, kind): an open-addressing table, and in front
 * of it a direct-mapped cache that answers most frames with one compare.
 */
struct label_slot {
	const char *sym;
	int kind;
	uint32_t id;            /* 0: empty (id 0 is never a frame label) */
};

struct stack {
	const uint32_t *key;
	uint32_t len;
	uint32_t hash;
	uint64_t count;
};

struct key_chunk {
	struct key_chunk *next;
	size_t used, size;
	uint32_t words[];
};

struct folder {
	struct fold_opts opts;
	struct strpool *pool;
	struct label *labels;
	size_t nr_labels, alloc_labels;
	struct label_slot *label_table;
	size_t label_table_size, nr_frame_labels;   /* a power of two; entries */
	struct text_entry *texts;
	struct head_entry *heads;
	struct label_slot label_cache[1u << LABEL_CACHE_BITS];
	const char *last_comm;              /* the session's pointer */
	uint32_t last_pid, last_tid, last_head;
	struct stack *stacks;
	size_t nr_stacks, alloc_stacks;
	uint32_t *table;                    /* stack index + 1; 0: empty */
	size_t table_size;                  /* a power of two */
	struct key_chunk *chunks;
	uint32_t *key;
	size_t key_alloc;
	uint32_t *by_rank;                  /* at write: label ids in output order */
	bool written;                       /* keys hold ranks from then on */
};

/* The id of a label's text, new or not. */
static uint32_t new_label(struct folder *f, const char *s, size_t len)
{
	struct text_entry *t;
	const char *str;

	if (len > UINT32_MAX)
		len = UINT32_MAX;
	str = strpool__intern_len(f->pool, s, len);
	HASH_FIND_PTR(f->texts, &str, t);
	if (t)
		return t->id;
	if (f->nr_labels >= UINT32_MAX)
		die("more than 2^32 distinct frame names");
	ALLOC_GROW(f->labels, f->nr_labels + 1, f->alloc_labels);
	f->labels[f->nr_labels].str = str;
	f->labels[f->nr_labels].len = (uint32_t)len;
	t = xmalloc(sizeof(*t));
	t->str = str;
	t->id = (uint32_t)f->nr_labels;
	HASH_ADD_PTR(f->texts, str, t);
	return (uint32_t)f->nr_labels++;
}

struct folder *folder__new(const struct fold_opts *opts)
{
	struct folder *f = xcalloc(1, sizeof(*f));

	f->opts = *opts;
	f->pool = strpool__new();
	new_label(f, "", 0);        /* id 0: the cache's empty mark */
	f->label_table_size = 1u << 12;
	f->label_table = xcalloc(f->label_table_size, sizeof(*f->label_table));
	f->table_size = 1u << 12;
	f->table = xcalloc(f->table_size, sizeof(*f->table));
	return f;
}

void folder__delete(struct folder *f)
{
	struct head_entry *h, *htmp;
	struct text_entry *t, *ttmp;

	if (!f)
		return;
	HASH_ITER(hh, f->texts, t, ttmp) {
		HASH_DEL(f->texts, t);
		free(t);
	}
	free(f->label_table);
	HASH_ITER(hh, f->heads, h, htmp) {
		HASH_DEL(f->heads, h);
		free(h);
	}
	while (f->chunks) {
		struct key_chunk *c = f->chunks;

		f->chunks = c->next;
		free(c);
	}
	strpool__delete(f->pool);
	free(f->labels);
	free(f->stacks);
	free(f->table);
	free(f->key);
	free(f->by_rank);
	free(f);
}

/* ';' separates frames and a newline ends the line: keep them out of names. */
static void add_clean(struct sbuf *sb, const char *s, bool underscores)
{
	for (; *s; s++)
		sbuf_addch(sb, *s == ';' ? ':' : *s == '\n' ? ' ' :
			       underscores && *s == ' ' ? '_' : *s);
}

static size_t label_hash(const char *sym, int kind)
{
	return (size_t)((((uintptr_t)sym ^ (uint64_t)kind) * 0x9E3779B97F4A7C15ULL) >> 32);
}

static void grow_label_table(struct folder *f)
{
	size_t size = f->label_table_size * 2, mask = size - 1, i;
	struct label_slot *table = xcalloc(size, sizeof(*table));

	for (i = 0; i < f->label_table_size; i++) {
		const struct label_slot *e = &f->label_table[i];
		size_t pos;

		if (!e->id)
			continue;
		for (pos = label_hash(e->sym, e->kind) & mask; table[pos].id; pos = (pos + 1) & mask)
			;
		table[pos] = *e;
	}
	free(f->label_table);
	f->label_table = table;
	f->label_table_size = size;
}

static uint32_t frame_label_slow(struct folder *f, const struct frame *fr)
{
	size_t mask = f->label_table_size - 1, pos;
	const char *suffix = "";
	struct sbuf sb = SBUF_INIT;
	struct label_slot *e;

	for (pos = label_hash(fr->sym, fr->kind) & mask; f->label_table[pos].id; pos = (pos + 1) & mask) {
		e = &f->label_table[pos];
		if (e->sym == fr->sym && e->kind == (int)fr->kind)
			return e->id;
	}
	if (f->opts.annotate && fr->kind == FRAME_KERNEL)
		suffix = "_[k]";
	else if (f->opts.annotate && (fr->kind == FRAME_JIT || fr->kind == FRAME_PERFMAP))
		suffix = "_[j]";
	add_clean(&sb, fr->sym ? fr->sym : "[unknown]", false);
	sbuf_addstr(&sb, suffix);
	e = &f->label_table[pos];
	e->sym = fr->sym;
	e->kind = fr->kind;
	e->id = new_label(f, sb.buf, sb.len);
	sbuf_release(&sb);
	if (++f->nr_frame_labels * 2 > f->label_table_size) {
		uint32_t id = e->id;

		grow_label_table(f);
		return id;
	}
	return e->id;
}

/* The folded name of a frame: symbol or [unknown], with the annotation. */
static uint32_t frame_label(struct folder *f, const struct frame *fr)
{
	uint64_t h = ((uintptr_t)fr->sym ^ (uint64_t)fr->kind) * 0x9E3779B97F4A7C15ULL;
	struct label_slot *slot = &f->label_cache[h >> (64 - LABEL_CACHE_BITS)];

	if (slot->id && slot->sym == fr->sym && slot->kind == (int)fr->kind)
		return slot->id;
	slot->sym = fr->sym;
	slot->kind = fr->kind;
	slot->id = frame_label_slow(f, fr);
	return slot->id;
}

/* The line's first word: comm (words joined by '_', as stackcollapse-perf.pl does) [-pid[/tid]]. */
static uint32_t head_label(struct folder *f, const char *comm, uint32_t pid, uint32_t tid)
{
	struct head_entry key, *e;
	struct sbuf sb = SBUF_INIT;

	if (!f->opts.include_pid && !f->opts.include_tid)
		pid = 0;
	if (!f->opts.include_tid)
		tid = 0;
	if (f->last_head && comm == f->last_comm && pid == f->last_pid && tid == f->last_tid)
		return f->last_head;
	memset(&key.k, 0, sizeof(key.k));
	key.k.comm = comm;
	key.k.pid = pid;
	key.k.tid = tid;
	HASH_FIND(hh, f->heads, &key.k, sizeof(key.k), e);
	if (!e) {
		add_clean(&sb, comm, true);
		if (f->opts.include_tid)
			sbuf_addf(&sb, "-%" PRIu32 "/%" PRIu32, pid, tid);
		else if (f->opts.include_pid)
			sbuf_addf(&sb, "-%" PRIu32, pid);
		e = xcalloc(1, sizeof(*e));
		e->k = key.k;
		e->id = new_label(f, sb.buf, sb.len);
		sbuf_release(&sb);
		HASH_ADD(hh, f->heads, k, sizeof(e->k), e);
	}
	f->last_comm = comm;
	f->last_pid = pid;
	f->last_tid = tid;
	f->last_head = e->id;
	return e->id;
}

static uint32_t key_hash(const uint32_t *key, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
	size_t i = 0;

	for (; i + 2 <= n; i += 2) {
		h ^= (uint64_t)key[i] | (uint64_t)key[i + 1] << 32;
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (i < n) {
		h ^= key[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	h *= 0xc4ceb9fe1a85ec53ULL;
	return (uint32_t)(h >> 32);
}

static const uint32_t *store_key(struct folder *f, const uint32_t *key, size_t n)
{
	struct key_chunk *c = f->chunks;
	uint32_t *dst;

	if (!c || c->size - c->used < n) {
		size_t size = n > KEY_CHUNK_WORDS ? n : KEY_CHUNK_WORDS;

		c = xmalloc(st_add(sizeof(*c), st_mult(size, sizeof(uint32_t))));
		c->next = f->chunks;
		c->used = 0;
		c->size = size;
		f->chunks = c;
	}
	dst = c->words + c->used;
	c->used += n;
	memcpy(dst, key, n * sizeof(*key));
	return dst;
}

static void grow_table(struct folder *f)
{
	size_t size = f->table_size * 2, mask = size - 1, i;
	uint32_t *table = xcalloc(size, sizeof(*table));

	for (i = 0; i < f->nr_stacks; i++) {
		size_t pos = f->stacks[i].hash & mask;

		while (table[pos])
			pos = (pos + 1) & mask;
		table[pos] = (uint32_t)(i + 1);
	}
	free(f->table);
	f->table = table;
	f->table_size = size;
}

void folder__add(struct folder *f, const struct resolved_sample *rs)
{
	size_t n = 0, i, mask, pos;
	struct stack *s;
	uint32_t hash;

	ALLOC_GROW(f->key, st_add(rs->nr_frames, 1), f->key_alloc);
	f->key[n++] = head_label(f, rs->thread->comm, rs->sample->pid, rs->sample->tid);
	for (i = rs->nr_frames; i-- > 0;) {
		const struct frame *fr = &rs->frames[i];

		if (f->opts.no_kernel && fr->kind == FRAME_KERNEL)
			continue;
		f->key[n++] = frame_label(f, fr);
	}
	hash = key_hash(f->key, n);
	mask = f->table_size - 1;
	for (pos = hash & mask; f->table[pos]; pos = (pos + 1) & mask) {
		s = &f->stacks[f->table[pos] - 1];
		if (s->hash == hash && s->len == n && !memcmp(s->key, f->key, n * sizeof(*f->key)))
			goto found;
	}
	if (f->nr_stacks >= UINT32_MAX - 1 || n > UINT32_MAX)
		die("more than 2^32 distinct stacks");
	ALLOC_GROW(f->stacks, f->nr_stacks + 1, f->alloc_stacks);
	s = &f->stacks[f->nr_stacks++];
	s->key = store_key(f, f->key, n);
	s->len = (uint32_t)n;
	s->hash = hash;
	s->count = 0;
	f->table[pos] = (uint32_t)f->nr_stacks;
	if (f->nr_stacks * 2 > f->table_size)
		grow_table(f);
found:
	s->count += f->opts.weight_period ? rs->sample->period : 1;
}

/* ---- writing ------------------------------------------------------------ */

/*
 * Lines come out in bytewise order of the whole line, "head;f1;...;fn N".
 * Comparing two stacks id by id gives that order if each label is ranked
 * as it compares followed by ';' (the separator after it), except where a
 * stack ends: there the label is followed by ' ' and is compared as text.
 */
static int cmp_text(const struct label *a, char ta, const struct label *b, char tb)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->str, b->str, n);
	unsigned char ca, cb;

	if (c)
		return c;
	ca = n < a->len ? (unsigned char)a->str[n] : (unsigned char)ta;
	cb = n < b->len ? (unsigned char)b->str[n] : (unsigned char)tb;
	return ca < cb ? -1 : ca > cb;
}

static const struct label *sort_labels;

static int cmp_label_ids(const void *a, const void *b)
{
	return cmp_text(&sort_labels[*(const uint32_t *)a], ';',
			&sort_labels[*(const uint32_t *)b], ';');
}

/*
 * Rewrite every key from label ids to ranks, so sorting compares integers
 * in the key alone; f->by_rank[rank] is the label id. Done once, at write.
 */
static void rank_keys(struct folder *f)
{
	uint32_t *rank = xcalloc(f->nr_labels, sizeof(*rank));
	struct key_chunk *c;
	size_t i;

	f->by_rank = xcalloc(f->nr_labels, sizeof(*f->by_rank));
	for (i = 0; i < f->nr_labels; i++)
		f->by_rank[i] = (uint32_t)i;
	sort_labels = f->labels;
	qsort(f->by_rank, f->nr_labels, sizeof(*f->by_rank), cmp_label_ids);
	for (i = 0; i < f->nr_labels; i++)
		rank[f->by_rank[i]] = (uint32_t)i;
	for (c = f->chunks; c; c = c->next)
		for (i = 0; i < c->used; i++)
			c->words[i] = rank[c->words[i]];
	free(rank);
}

struct sort_entry {
	const uint32_t *key;    /* ranks */
	uint32_t len;
	uint32_t stack;
};

static const struct folder *sort_folder;

static int cmp_stacks(const void *pa, const void *pb)
{
	const struct sort_entry *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len, i;

	for (i = 0; i < n; i++) {
		uint32_t x = a->key[i], y = b->key[i];
		const struct label *labels;
		const uint32_t *by_rank;

		if (x == y)
			continue;
		if (i + 1 < a->len && i + 1 < b->len)
			return x < y ? -1 : 1;
		labels = sort_folder->labels;
		by_rank = sort_folder->by_rank;
		return cmp_text(&labels[by_rank[x]], i + 1 == a->len ? ' ' : ';',
				&labels[by_rank[y]], i + 1 == b->len ? ' ' : ';');
	}
	/* one is a prefix of the other: its ' ' sorts before the other's ';' */
	return a->len < b->len ? -1 : a->len > b->len;
}

struct sort_job {
	struct sort_entry *v;
	size_t n;
};

static void *sort_thread(void *arg)
{
	struct sort_job *job = arg;

	qsort(job->v, job->n, sizeof(*job->v), cmp_stacks);
	return NULL;
}

/*
 * Sort v (n entries): with a second CPU, each half in its own thread and
 * then merged. Stacks are distinct, so the order is total and the result
 * the same either way.
 */
static void sort_stacks(struct sort_entry *v, size_t n)
{
	struct sort_job lo = { v, n / 2 }, hi = { v + n / 2, n - n / 2 };
	struct sort_entry *tmp;
	size_t i = 0, j = 0, k = 0;
	pthread_t th;

	if (n < SORT_PARALLEL_MIN || sysconf(_SC_NPROCESSORS_ONLN) < 2 ||
	    pthread_create(&th, NULL, sort_thread, &hi)) {
		qsort(v, n, sizeof(*v), cmp_stacks);
		return;
	}
	sort_thread(&lo);
	pthread_join(th, NULL);
	tmp = xmalloc(st_mult(n, sizeof(*tmp)));
	while (i < lo.n && j < hi.n)
		tmp[k++] = cmp_stacks(&lo.v[i], &hi.v[j]) <= 0 ? lo.v[i++] : hi.v[j++];
	while (i < lo.n)
		tmp[k++] = lo.v[i++];
	while (j < hi.n)
		tmp[k++] = hi.v[j++];
	memcpy(v, tmp, st_mult(n, sizeof(*v)));
	free(tmp);
}

struct outbuf {
	FILE *out;
	char *buf;
	size_t len;
	bool failed;
};

static void out_flush(struct outbuf *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->out) != o->len)
		o->failed = true;
	o->len = 0;
}

static void out_add(struct outbuf *o, const char *s, size_t len)
{
	if (OUT_BUF_SIZE - o->len < len) {
		out_flush(o);
		if (len > OUT_BUF_SIZE) {
			if (fwrite(s, 1, len, o->out) != len)
				o->failed = true;
			return;
		}
	}
	memcpy(o->buf + o->len, s, len);
	o->len += len;
}

static void write_stack(const struct folder *f, const struct stack *s, struct outbuf *o)
{
	char num[24], *p = num + sizeof(num);
	uint64_t c = s->count;
	size_t i;

	for (i = 0; i < s->len; i++) {
		const struct label *l = &f->labels[f->by_rank[s->key[i]]];

		if (i)
			out_add(o, ";", 1);
		out_add(o, l->str, l->len);
	}
	*--p = '\n';
	do
		*--p = (char)('0' + c % 10);
	while (c /= 10);
	*--p = ' ';
	out_add(o, p, (size_t)(num + sizeof(num) - p));
}

int folder__write(struct folder *f, FILE *out)
{
	struct sort_entry *order = xcalloc(f->nr_stacks ? f->nr_stacks : 1, sizeof(*order));
	struct outbuf o = { .out = out, .buf = xmalloc(OUT_BUF_SIZE) };
	size_t i;
	int ret = 0;

	if (f->written)
		BUG("folder written twice");
	f->written = true;
	rank_keys(f);
	for (i = 0; i < f->nr_stacks; i++) {
		order[i].key = f->stacks[i].key;
		order[i].len = f->stacks[i].len;
		order[i].stack = (uint32_t)i;
	}
	sort_folder = f;
	sort_stacks(order, f->nr_stacks);
	for (i = 0; i < f->nr_stacks && !o.failed; i++)
		write_stack(f, &f->stacks[order[i].stack], &o);
	out_flush(&o);
	free(o.buf);
	free(order);
	if (o.failed || fflush(out) || ferror(out))
		ret = error("cannot write output: %s", strerror(errno));
	return ret;
}
