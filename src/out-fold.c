#include "common.h"
#include "out-fold.h"
#include "machine.h"
#include "sbuf.h"
#include "strpool.h"

#include <uthash.h>

/*
 * Stacks are paths in a prefix tree of frame labels: the root's children
 * are heads (comm, with pid and tid when asked), then frames outermost
 * first; a node counts the samples whose stack ends there. Distinct stacks
 * of a JIT runtime share long prefixes (1.06 M stacks of ~31 frames were
 * 4 M nodes), so a node of 16 bytes beats keeping each stack whole.
 *
 * A node's children are found through one open-addressing table keyed by
 * (parent, label). Consecutive samples of a thread share most of their
 * stack, so each thread slot remembers the last path: a sample walks the
 * table only below the first frame that differs. Nothing is allocated per
 * sample.
 *
 * Writing walks the tree depth first, each node's children in the order
 * their lines sort bytewise, keeping the line's prefix in one buffer.
 */
#define LABEL_CACHE_BITS 16
#define PATH_SLOTS 128
#define PATH_WAYS 8
#define OUT_BUF_SIZE (1u << 20)
#define ROOT 0

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

struct node {
	uint32_t parent, label;
	uint64_t count;         /* samples (or periods) whose stack ends here */
};

/* The last stack seen in a slot of threads, as labels and the nodes of its path. */
struct path_slot {
	uint32_t *labels, *nodes;
	size_t n, alloc;
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
	struct node *nodes;
	size_t nr_nodes, alloc_nodes;
	uint32_t *table;                    /* child node ids; 0 (the root): empty */
	size_t table_size;                  /* a power of two */
	struct path_slot paths[PATH_SLOTS];
	uint32_t *key;
	size_t key_alloc;
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
	ALLOC_GROW(f->nodes, 1, f->alloc_nodes);
	f->nodes[ROOT].parent = ROOT;
	f->nodes[ROOT].label = 0;
	f->nodes[ROOT].count = 0;
	f->nr_nodes = 1;
	return f;
}

void folder__delete(struct folder *f)
{
	struct head_entry *h, *htmp;
	struct text_entry *t, *ttmp;
	size_t i;

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
	for (i = 0; i < PATH_SLOTS; i++) {
		free(f->paths[i].labels);
		free(f->paths[i].nodes);
	}
	strpool__delete(f->pool);
	free(f->labels);
	free(f->nodes);
	free(f->table);
	free(f->key);
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

/* ---- the tree ------------------------------------------------------------ */

static size_t child_hash(uint32_t parent, uint32_t label)
{
	return (size_t)((((uint64_t)parent << 32 | label) * 0x9E3779B97F4A7C15ULL) >> 32);
}

static void grow_table(struct folder *f)
{
	size_t size = f->table_size * 2, mask = size - 1, i;
	uint32_t *table = xcalloc(size, sizeof(*table));

	for (i = 1; i < f->nr_nodes; i++) {
		size_t pos = child_hash(f->nodes[i].parent, f->nodes[i].label) & mask;

		while (table[pos])
			pos = (pos + 1) & mask;
		table[pos] = (uint32_t)i;
	}
	free(f->table);
	f->table = table;
	f->table_size = size;
}

/* parent's child labelled label, made if new. */
static uint32_t child(struct folder *f, uint32_t parent, uint32_t label)
{
	size_t mask = f->table_size - 1, pos;
	struct node *n;
	uint32_t id;

	for (pos = child_hash(parent, label) & mask; (id = f->table[pos]); pos = (pos + 1) & mask) {
		n = &f->nodes[id];
		if (n->parent == parent && n->label == label)
			return id;
	}
	if (f->nr_nodes >= UINT32_MAX)
		die("more than 2^32 distinct stack prefixes");
	id = (uint32_t)f->nr_nodes;
	ALLOC_GROW(f->nodes, f->nr_nodes + 1, f->alloc_nodes);
	n = &f->nodes[f->nr_nodes++];
	n->parent = parent;
	n->label = label;
	n->count = 0;
	f->table[pos] = id;
	if (f->nr_nodes * 2 > f->table_size)
		grow_table(f);
	return id;
}

/* Common leading labels of key (n) and path's stack. */
static size_t same_prefix(const struct path_slot *path, const uint32_t *key, size_t n)
{
	size_t i, max = n < path->n ? n : path->n;

	for (i = 0; i < max && path->labels[i] == key[i]; i++)
		;
	return i;
}

void folder__add(struct folder *f, const struct resolved_sample *rs)
{
	struct path_slot *ways = &f->paths[rs->sample->tid % (PATH_SLOTS / PATH_WAYS) * PATH_WAYS];
	struct path_slot *path = &ways[0];
	size_t n = 0, i, same = 0, w;
	uint32_t node;

	ALLOC_GROW(f->key, st_add(rs->nr_frames, 1), f->key_alloc);
	f->key[n++] = head_label(f, rs->thread->comm, rs->sample->pid, rs->sample->tid);
	for (i = rs->nr_frames; i-- > 0;) {
		const struct frame *fr = &rs->frames[i];

		if (f->opts.no_kernel && fr->kind == FRAME_KERNEL)
			continue;
		f->key[n++] = frame_label(f, fr);
	}
	/*
	 * Start from the remembered stack sharing most with this one; it
	 * becomes this stack, and the ways rotate so the oldest goes first.
	 */
	for (w = 0; w < PATH_WAYS; w++) {
		size_t k = same_prefix(&ways[w], f->key, n);

		if (k > same) {
			same = k;
			path = &ways[w];
		}
	}
	if (same == 0)
		path = &ways[PATH_WAYS - 1];
	if (path->alloc < n) {
		path->alloc = n + n / 2;
		path->labels = xrealloc(path->labels, st_mult(path->alloc, sizeof(uint32_t)));
		path->nodes = xrealloc(path->nodes, st_mult(path->alloc, sizeof(uint32_t)));
	}
	node = same ? path->nodes[same - 1] : ROOT;
	for (i = same; i < n; i++) {
		node = child(f, node, f->key[i]);
		path->labels[i] = f->key[i];
		path->nodes[i] = node;
	}
	path->n = n;
	/* most recent first */
	if (path != &ways[0]) {
		struct path_slot tmp = *path;

		memmove(&ways[1], &ways[0], (size_t)(path - ways) * sizeof(*ways));
		ways[0] = tmp;
	}
	f->nodes[node].count += f->opts.weight_period ? rs->sample->period : 1;
}

/* ---- writing ------------------------------------------------------------ */

/*
 * Lines come out in bytewise order of the whole line, "head;f1;...;fn N".
 * Below a node, a child c stands for two groups of lines: its own, "c N"
 * (c followed by ' '), and those of its children, "c;..." (followed by
 * ';'). Both are ranked among the labels followed by either character,
 * and the groups are written in that order: "foo N", "foo(int);...",
 * "foo;..." sort as strcmp sorts them.
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
	if (ca != cb || (n == a->len && n == b->len))
		return ca < cb ? -1 : ca > cb;
	/* one label continues where the other ended with its character */
	return n == a->len ? -1 : 1;
}

static const struct label *sort_labels;

/* Items: label id * 2, + 1 for the group of lines ending at the label. */
static int cmp_items(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return cmp_text(&sort_labels[x / 2], x & 1 ? ' ' : ';',
			&sort_labels[y / 2], y & 1 ? ' ' : ';');
}

/* rank[label * 2 + end]: the order of "label;" and "label " among all of them. */
static uint32_t *rank_items(const struct folder *f)
{
	size_t n = st_mult(f->nr_labels, 2), i;
	uint32_t *items = xcalloc(n, sizeof(*items)), *rank = xcalloc(n, sizeof(*rank));

	for (i = 0; i < n; i++)
		items[i] = (uint32_t)i;
	sort_labels = f->labels;
	qsort(items, n, sizeof(*items), cmp_items);
	for (i = 0; i < n; i++)
		rank[items[i]] = (uint32_t)i;
	free(items);
	return rank;
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

static void write_line(struct outbuf *o, const struct sbuf *prefix, const struct label *l,
		       uint64_t count)
{
	char num[24], *p = num + sizeof(num);

	out_add(o, prefix->buf, prefix->len);
	if (prefix->len)
		out_add(o, ";", 1);
	out_add(o, l->str, l->len);
	*--p = '\n';
	do
		*--p = (char)('0' + count % 10);
	while (count /= 10);
	*--p = ' ';
	out_add(o, p, (size_t)(num + sizeof(num) - p));
}

/* The tree's child lists: children of v are child[first[v] .. first[v + 1]). */
struct tree_index {
	uint32_t *first, *child;
};

static void index_children(const struct folder *f, struct tree_index *t)
{
	size_t i;

	t->first = xcalloc(st_add(f->nr_nodes, 1), sizeof(*t->first));
	t->child = xcalloc(f->nr_nodes, sizeof(*t->child));
	for (i = 1; i < f->nr_nodes; i++)
		t->first[f->nodes[i].parent + 1]++;
	for (i = 0; i < f->nr_nodes; i++)
		t->first[i + 1] += t->first[i];
	/* first[v] is the cursor of v's list; it ends where v + 1's begins */
	for (i = 1; i < f->nr_nodes; i++)
		t->child[t->first[f->nodes[i].parent]++] = (uint32_t)i;
	for (i = f->nr_nodes; i > 0; i--)
		t->first[i] = t->first[i - 1];
	t->first[0] = 0;
}

/* A pending group: (rank << 32 | node), its lines or its own line (end). */
struct group {
	uint64_t key;
	bool end;
};

static int cmp_groups(const void *a, const void *b)
{
	uint64_t x = ((const struct group *)a)->key, y = ((const struct group *)b)->key;

	return x < y ? -1 : x > y;
}

struct dfs_frame {
	size_t groups_start, next, prefix_len;
};

int folder__write(struct folder *f, FILE *out)
{
	struct outbuf o = { .out = out, .buf = xmalloc(OUT_BUF_SIZE) };
	struct sbuf prefix = SBUF_INIT;
	struct group *groups = NULL;
	struct dfs_frame *stack = NULL;
	size_t nr_groups = 0, alloc_groups = 0, depth = 0, alloc_stack = 0;
	struct tree_index t;
	uint32_t *rank;
	uint32_t v = ROOT;
	int ret = 0;

	/* the child table is not needed any more: free it before the index */
	free(f->table);
	f->table = NULL;
	f->table_size = 0;
	rank = rank_items(f);
	index_children(f, &t);
	for (;;) {
		size_t start = nr_groups, i;

		/* push v's children's groups, sorted, as a new frame */
		for (i = t.first[v]; i < t.first[v + 1]; i++) {
			uint32_t c = t.child[i];
			const struct node *n = &f->nodes[c];

			ALLOC_GROW(groups, nr_groups + 2, alloc_groups);
			if (n->count) {
				groups[nr_groups].key = (uint64_t)rank[n->label * 2 + 1] << 32 | c;
				groups[nr_groups++].end = true;
			}
			if (t.first[c + 1] > t.first[c]) {
				groups[nr_groups].key = (uint64_t)rank[n->label * 2] << 32 | c;
				groups[nr_groups++].end = false;
			}
		}
		/* no samples: the root has no groups and groups is still NULL */
		if (nr_groups > start)
			qsort(groups + start, nr_groups - start, sizeof(*groups), cmp_groups);
		ALLOC_GROW(stack, depth + 1, alloc_stack);
		stack[depth].groups_start = start;
		stack[depth].next = start;
		stack[depth].prefix_len = prefix.len;
		depth++;
		/* take the next group of the innermost frame that has one */
		for (;;) {
			struct dfs_frame *fr = &stack[depth - 1];
			const struct group *g;
			const struct label *l;

			if (fr->next == nr_groups) {
				nr_groups = fr->groups_start;
				sbuf_setlen(&prefix, fr->prefix_len);
				if (!--depth)
					goto done;
				continue;
			}
			g = &groups[fr->next++];
			v = (uint32_t)g->key;
			l = &f->labels[f->nodes[v].label];
			sbuf_setlen(&prefix, fr->prefix_len);
			if (g->end) {
				write_line(&o, &prefix, l, f->nodes[v].count);
				if (o.failed)
					goto done;
				continue;
			}
			if (prefix.len)
				sbuf_addch(&prefix, ';');
			sbuf_add(&prefix, l->str, l->len);
			break;
		}
	}
done:
	out_flush(&o);
	free(o.buf);
	free(rank);
	free(t.first);
	free(t.child);
	free(groups);
	free(stack);
	sbuf_release(&prefix);
	if (o.failed || fflush(out) || ferror(out))
		ret = error("cannot write output: %s", strerror(errno));
	return ret;
}
