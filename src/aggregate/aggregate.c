#include "common/common.h"
#include "aggregate/aggregate.h"
#include "session/session.h"
#include "aggregate/frame-normalize.h"
#include "resolve/kernel.h"
#include "timeline/machine.h"
#include "common/sbuf.h"
#include "common/strpool.h"

#include <uthash.h>

/*
 * Stacks are paths in a prefix tree of labels: the root's children are
 * heads (comm, with pid and tid when asked), then frames outermost first.
 * Distinct stacks of a JIT runtime share long prefixes (1.06 M stacks of
 * ~31 frames were 4 M nodes), so a node beats keeping each stack whole.
 *
 * A node's children are found through one open-addressing table of
 * nodes, each at a hash of its path's labels and told apart by (parent,
 * label). Consecutive samples of a thread share most of their stack, so
 * each thread slot remembers its last stacks (frames, labels, nodes): a
 * sample walks the table only below the first frame that differs.
 * Nothing is allocated per sample.
 */
#define FRAME_CACHE_BITS 16
#define PATH_SLOTS 128
#define PATH_WAYS 8

/* Label ids by interned text: frames of different kinds can print the same. */
struct text_entry {
	UT_hash_handle hh;
	const char *str;
	uint32_t id;
};

struct head_entry {
	UT_hash_handle hh;
	struct { const char *comm; uint32_t pid, tid; } k;
	uint32_t key;           /* the head node's key: label id, or process id (by_frame) */
};

/*
 * Frames by (symbol, kind, DSO), the session's pointers: an
 * open-addressing table of frame ids + 1 (0: empty), and in front of it a
 * direct-mapped cache that answers most frames, with their key, in one
 * compare.
 */
struct frame_slot {
	const char *sym, *dso;
	int kind;
	uint32_t id;            /* frame id + 1; 0: empty */
	uint32_t key;           /* the node key: label id, or frame id (by_frame) */
};

/*
 * A distinct frame by its copies (the pool's sym and dso, kind with
 * FRAME_ID_INLINED): what finds it again once the session that keyed
 * frame_table is gone (aggregator__new_session()).
 */
struct copy_entry {
	UT_hash_handle hh;
	struct { const char *sym, *dso; uint64_t n; } k;   /* n: kind, or pid << 32 | tid */
	uint32_t id;            /* frame id, or process id */
};

/* What makes a frame a distinct one: the session's pointers, the kind and FRAME_ID_INLINED. */
struct frame_id {
	const char *sym, *dso;
	int kind;
};

/* In frame_id.kind: an inlined function's frame (sample.h), apart from its real one. */
#define FRAME_ID_INLINED 0x100

/*
 * The last stack seen in a slot of threads: its labels, the nodes of its
 * path and (below the head) its frames, which a new stack is compared
 * with: the labels of the frames it shares come without a lookup.
 */
struct path_slot {
	uint32_t *labels, *nodes;
	struct frame_id *frames;
	size_t n, alloc;
};

struct aggregator {
	struct aggregate_opts opts;
	struct strpool *pool;
	struct agg_label *labels;
	size_t nr_labels, alloc_labels;
	struct agg_frame *frames;
	size_t nr_frames, alloc_frames;
	struct agg_process *processes;
	size_t nr_processes, alloc_processes;
	struct frame_slot *frame_table;
	size_t frame_table_size;            /* a power of two */
	size_t nr_slots;                    /* its entries: this session's frames */
	struct text_entry *texts;
	struct head_entry *heads;
	/*
	 * From the second session on (merging): frames by their copies, and
	 * with by_frame processes by (comm copy, pid, tid). One recording
	 * needs neither.
	 */
	bool merging;
	struct copy_entry *frame_copies;
	struct copy_entry *process_copies;
	struct frame_slot frame_cache[1u << FRAME_CACHE_BITS];
	const char *last_comm;              /* the session's pointer */
	uint32_t last_pid, last_tid, last_head;
	bool last_valid;
	struct agg_node *nodes;
	size_t nr_nodes, alloc_nodes;
	/*
	 * opts.node_frames: a frame node's frame is, nearly always, the first
	 * one that made a node of its key (key_frames, by key); the few others
	 * (a label that frames of two DSOs print) are exceptions, kept in
	 * node order. 4 bytes a node was 17 MB for node-large; 838 of its
	 * 4.17 M nodes are exceptions.
	 */
	uint32_t *key_frames;               /* AGG_NO_FRAME: no frame node has the key yet */
	size_t alloc_key_frames;
	struct { uint32_t node, frame; } *exceptions;
	size_t nr_exceptions, alloc_exceptions;
	uint32_t *table;                    /* child node ids; 0 (the root): empty */
	size_t table_size;                  /* a power of two; 0: frozen */
	struct path_slot paths[PATH_SLOTS];
	uint32_t *key, *fkey;               /* the sample's labels and frame ids */
	uint64_t *hash;                     /* its path's hashes, by depth */
	struct frame_id *ids;               /* its frames, root first (ids[0]: the head's, unused) */
	size_t key_alloc, fkey_alloc, hash_alloc, ids_alloc;
	uint64_t nr_samples, period;
	const char *event;
	bool summed;                        /* aggregator__sum_subtrees() done */
};

/* ---- labels -------------------------------------------------------------- */

/* Append s with ';' (it separates frames) as ':' and a newline (it ends the line) as ' '. */
static void add_name(struct sbuf *sb, const char *s)
{
	for (; *s; s++)
		sbuf_addch(sb, *s == ';' ? ':' : *s == '\n' ? ' ' : *s);
}

void agg_frame_label(struct sbuf *sb, const char *sym, const char *dso, enum frame_kind kind,
		     bool inlined, bool annotate, bool unknown_dso)
{
	if (sym) {
		add_name(sb, sym);
	} else if (unknown_dso && dso && dso[0] && strcmp(dso, UNKNOWN_LABEL)) {
		const char *base = strrchr(dso, '/');

		sbuf_addch(sb, '[');
		add_name(sb, base ? base + 1 : dso);
		sbuf_addch(sb, ']');
	} else {
		sbuf_addstr(sb, UNKNOWN_LABEL);
	}
	if (annotate && inlined)
		sbuf_addstr(sb, "_[i]");
	else if (annotate && kind == FRAME_KERNEL)
		sbuf_addstr(sb, "_[k]");
	else if (annotate && (kind == FRAME_JIT || kind == FRAME_PERFMAP))
		sbuf_addstr(sb, "_[j]");
}

void agg_process_label(struct sbuf *sb, const char *comm, uint32_t pid, uint32_t tid,
		       bool with_pid, bool with_tid)
{
	const char *s;

	for (s = comm ? comm : ""; *s; s++)
		sbuf_addch(sb, *s == ';' ? ':' : *s == '\n' ? ' ' : *s == ' ' ? '_' : *s);
	if (with_tid)
		sbuf_addf(sb, "-%" PRId32 "/%" PRId32, (int32_t)pid, (int32_t)tid);
	else if (with_pid)
		sbuf_addf(sb, "-%" PRId32, (int32_t)pid);
}

/* The id of a label's text, new or not. */
static uint32_t new_label(struct aggregator *a, const char *s, size_t len)
{
	struct text_entry *t;
	const char *str;

	if (len > UINT32_MAX)
		len = UINT32_MAX;
	str = strpool__intern_len(a->pool, s, len);
	HASH_FIND_PTR(a->texts, &str, t);
	if (t)
		return t->id;
	if (a->nr_labels >= UINT32_MAX)
		die("more than 2^32 distinct frame names");
	ALLOC_GROW(a->labels, a->nr_labels + 1, a->alloc_labels);
	a->labels[a->nr_labels].str = str;
	a->labels[a->nr_labels].len = (uint32_t)len;
	t = xmalloc(sizeof(*t));
	t->str = str;
	t->id = (uint32_t)a->nr_labels;
	HASH_ADD_PTR(a->texts, str, t);
	return (uint32_t)a->nr_labels++;
}

struct aggregator *aggregator__new(const struct aggregate_opts *opts)
{
	struct aggregator *a = xcalloc(1, sizeof(*a));

	a->opts = *opts;
	a->pool = strpool__new();
	new_label(a, "", 0);        /* id 0: the root's */
	a->frame_table_size = 1u << 12;
	a->frame_table = xcalloc_written(a->frame_table_size, sizeof(*a->frame_table));
	a->table_size = 1u << 12;
	a->table = xcalloc_written(a->table_size, sizeof(*a->table));
	ALLOC_GROW(a->nodes, 1, a->alloc_nodes);
	memset(&a->nodes[AGG_ROOT], 0, sizeof(a->nodes[AGG_ROOT]));
	a->nr_nodes = 1;
	return a;
}

static void clear_copies(struct copy_entry **table)
{
	struct copy_entry *c, *ctmp;

	HASH_ITER(hh, *table, c, ctmp) {
		HASH_DEL(*table, c);
		free(c);
	}
}

/* The entry of key (sym, dso: copies; n) in table, or NULL. */
static struct copy_entry *find_copy(struct copy_entry *table, const char *sym, const char *dso,
				    uint64_t n)
{
	struct copy_entry key, *e;

	memset(&key.k, 0, sizeof(key.k));
	key.k.sym = sym;
	key.k.dso = dso;
	key.k.n = n;
	HASH_FIND(hh, table, &key.k, sizeof(key.k), e);
	return e;
}

static void add_copy(struct copy_entry **table, const char *sym, const char *dso, uint64_t n,
		     uint32_t id)
{
	struct copy_entry *e = xcalloc(1, sizeof(*e));

	e->k.sym = sym;
	e->k.dso = dso;
	e->k.n = n;
	e->id = id;
	HASH_ADD(hh, *table, k, sizeof(e->k), e);
}

void aggregator__new_session(struct aggregator *a)
{
	struct head_entry *h, *htmp;
	size_t i;

	if (!a->merging && (a->nr_frames || a->nr_processes)) {
		/* the second session: what the first made, by its copies */
		a->merging = true;
		for (i = 0; i < a->nr_frames; i++)
			add_copy(&a->frame_copies, a->frames[i].sym, a->frames[i].dso,
				 (uint64_t)a->frames[i].kind |
				 (a->frames[i].inlined ? FRAME_ID_INLINED : 0), (uint32_t)i);
		for (i = 0; i < a->nr_processes; i++)
			add_copy(&a->process_copies, a->processes[i].comm, NULL,
				 (uint64_t)a->processes[i].pid << 32 | a->processes[i].tid,
				 (uint32_t)i);
	}

	if (a->frame_table)     /* NULL once frozen */
		memset(a->frame_table, 0, a->frame_table_size * sizeof(*a->frame_table));
	memset(a->frame_cache, 0, sizeof(a->frame_cache));
	HASH_ITER(hh, a->heads, h, htmp) {
		HASH_DEL(a->heads, h);
		free(h);
	}
	a->nr_slots = 0;
	a->last_valid = false;
	a->last_comm = NULL;
	for (i = 0; i < PATH_SLOTS; i++)
		a->paths[i].n = 0;
}

void aggregator__delete(struct aggregator *a)
{
	struct head_entry *h, *htmp;
	struct text_entry *t, *ttmp;
	size_t i;

	if (!a)
		return;
	HASH_ITER(hh, a->texts, t, ttmp) {
		HASH_DEL(a->texts, t);
		free(t);
	}
	HASH_ITER(hh, a->heads, h, htmp) {
		HASH_DEL(a->heads, h);
		free(h);
	}
	clear_copies(&a->frame_copies);
	clear_copies(&a->process_copies);
	for (i = 0; i < PATH_SLOTS; i++) {
		free(a->paths[i].labels);
		free(a->paths[i].nodes);
		free(a->paths[i].frames);
	}
	strpool__delete(a->pool);
	free(a->frame_table);
	free(a->frames);
	free(a->processes);
	free(a->labels);
	free(a->nodes);
	free(a->key_frames);
	free(a->exceptions);
	free(a->table);
	free(a->key);
	free(a->fkey);
	free(a->hash);
	free(a->ids);
	free(a);
}

static uint64_t frame_hash64(const char *sym, const char *dso, int kind)
{
	return ((uintptr_t)sym ^ (uint64_t)kind ^ ((uint64_t)(uintptr_t)dso << 7)) *
	       0x9E3779B97F4A7C15ULL;
}

static size_t frame_hash(const char *sym, const char *dso, int kind)
{
	return (size_t)(frame_hash64(sym, dso, kind) >> 32);
}

static bool same_frame(const struct frame_slot *e, const struct frame_id *fr)
{
	return e->sym == fr->sym && e->dso == fr->dso && e->kind == fr->kind;
}

static void grow_frame_table(struct aggregator *a)
{
	size_t size = a->frame_table_size * 2, mask = size - 1, i;
	struct frame_slot *table = xcalloc_written(size, sizeof(*table));

	for (i = 0; i < a->frame_table_size; i++) {
		const struct frame_slot *e = &a->frame_table[i];
		size_t pos;

		if (!e->id)
			continue;
		for (pos = frame_hash(e->sym, e->dso, e->kind) & mask; table[pos].id;
		     pos = (pos + 1) & mask)
			;
		table[pos] = *e;
	}
	free(a->frame_table);
	a->frame_table = table;
	a->frame_table_size = size;
}

/* The label in sb in its normal form (frame-normalize.h). */
static void normal_label(struct sbuf *sb, enum frame_kind kind)
{
	struct sbuf n = SBUF_INIT;

	frame_normalize(&n, sb->buf, sb->len, kind);
	sbuf_reset(sb);
	sbuf_add(sb, n.buf, n.len);
	sbuf_release(&n);
}

/* The slot of fr's frame, interned (with its label) if new. */
static struct frame_slot frame_slow(struct aggregator *a, const struct frame_id *fr)
{
	size_t mask = a->frame_table_size - 1, pos;
	struct sbuf sb = SBUF_INIT;
	struct frame_slot *e, ret;
	struct agg_frame *nf;
	struct copy_entry *c;
	const char *sym, *dso;

	for (pos = frame_hash(fr->sym, fr->dso, fr->kind) & mask; a->frame_table[pos].id;
	     pos = (pos + 1) & mask) {
		e = &a->frame_table[pos];
		if (same_frame(e, fr))
			return *e;
	}
	sym = fr->sym ? strpool__intern(a->pool, fr->sym) : NULL;
	dso = fr->dso ? strpool__intern(a->pool, fr->dso) : NULL;
	/* a frame an earlier session made: the same id, found by its copies */
	c = a->merging ? find_copy(a->frame_copies, sym, dso, (uint64_t)fr->kind) : NULL;
	if (c) {
		e = &a->frame_table[pos];
		e->sym = fr->sym;
		e->dso = fr->dso;
		e->kind = fr->kind;
		e->id = c->id + 1;
		e->key = a->opts.by_frame ? c->id : a->frames[c->id].label;
		a->nr_slots++;
		ret = *e;
		if (a->nr_slots * 2 > a->frame_table_size)
			grow_frame_table(a);
		return ret;
	}
	if (a->nr_frames >= UINT32_MAX - 1)
		die("more than 2^32 distinct frames");
	agg_frame_label(&sb, fr->sym, fr->dso, (enum frame_kind)(fr->kind & ~FRAME_ID_INLINED),
			fr->kind & FRAME_ID_INLINED, a->opts.annotate, a->opts.unknown_dso);
	if (a->opts.normalize)
		normal_label(&sb, (enum frame_kind)(fr->kind & ~FRAME_ID_INLINED));
	ALLOC_GROW(a->frames, a->nr_frames + 1, a->alloc_frames);
	nf = &a->frames[a->nr_frames];
	/* the resolver's strings go with the session: keep a copy */
	nf->sym = sym;
	nf->dso = dso;
	nf->kind = (enum frame_kind)(fr->kind & ~FRAME_ID_INLINED);
	nf->inlined = fr->kind & FRAME_ID_INLINED;
	nf->label = new_label(a, sb.buf, sb.len);
	sbuf_release(&sb);
	e = &a->frame_table[pos];
	e->sym = fr->sym;
	e->dso = fr->dso;
	e->kind = fr->kind;
	e->id = (uint32_t)++a->nr_frames;
	e->key = a->opts.by_frame ? e->id - 1 : nf->label;
	if (a->merging)
		add_copy(&a->frame_copies, sym, dso, (uint64_t)fr->kind, e->id - 1);
	a->nr_slots++;
	ret = *e;
	if (a->nr_slots * 2 > a->frame_table_size)
		grow_frame_table(a);
	return ret;
}

/* fr's frame (its id + 1 and label), through the cache. */
static const struct frame_slot *frame_lookup(struct aggregator *a, const struct frame_id *fr)
{
	uint64_t h = frame_hash64(fr->sym, fr->dso, fr->kind);
	struct frame_slot *slot = &a->frame_cache[h >> (64 - FRAME_CACHE_BITS)];

	if (slot->id && same_frame(slot, fr))
		return slot;
	*slot = frame_slow(a, fr);
	return slot;
}

/* A new process; its id. */
static uint32_t new_process(struct aggregator *a, const char *comm, uint32_t pid, uint32_t tid,
			    uint32_t label)
{
	struct agg_process *p;

	if (a->nr_processes >= UINT32_MAX)
		die("more than 2^32 distinct processes");
	ALLOC_GROW(a->processes, a->nr_processes + 1, a->alloc_processes);
	p = &a->processes[a->nr_processes];
	p->comm = strpool__intern(a->pool, comm ? comm : "");
	p->pid = pid;
	p->tid = tid;
	p->label = label;
	return (uint32_t)a->nr_processes++;
}

/* Merging: the id of the process (comm, pid, tid), one an earlier session made or a new one. */
static uint32_t process_id(struct aggregator *a, const char *comm, uint32_t pid, uint32_t tid,
			   uint32_t label)
{
	const char *copy = strpool__intern(a->pool, comm ? comm : "");
	uint64_t n = (uint64_t)pid << 32 | tid;
	struct copy_entry *c = find_copy(a->process_copies, copy, NULL, n);
	uint32_t id;

	if (c)
		return c->id;
	id = new_process(a, comm, pid, tid, label);
	add_copy(&a->process_copies, copy, NULL, n, id);
	return id;
}

/* The head node's key: the label comm[-pid[/tid]], or with by_frame the process. */
static uint32_t head_key(struct aggregator *a, const char *comm, uint32_t pid, uint32_t tid)
{
	struct head_entry key, *e;
	struct sbuf sb = SBUF_INIT;

	if (!a->opts.stack.include_pid && !a->opts.stack.include_tid)
		pid = 0;
	if (!a->opts.stack.include_tid)
		tid = 0;
	if (a->last_valid && comm == a->last_comm && pid == a->last_pid && tid == a->last_tid)
		return a->last_head;
	memset(&key.k, 0, sizeof(key.k));
	key.k.comm = comm;
	key.k.pid = pid;
	key.k.tid = tid;
	HASH_FIND(hh, a->heads, &key.k, sizeof(key.k), e);
	if (!e) {
		agg_process_label(&sb, comm, pid, tid, a->opts.stack.include_pid, a->opts.stack.include_tid);
		e = xcalloc(1, sizeof(*e));
		e->k = key.k;
		e->key = new_label(a, sb.buf, sb.len);
		sbuf_release(&sb);
		if (a->opts.by_frame)
			e->key = a->merging ? process_id(a, comm, pid, tid, e->key) :
					      new_process(a, comm, pid, tid, e->key);
		HASH_ADD(hh, a->heads, k, sizeof(e->k), e);
	}
	a->last_comm = comm;
	a->last_pid = pid;
	a->last_tid = tid;
	a->last_head = e->key;
	a->last_valid = true;
	return e->key;
}

/* ---- the tree ------------------------------------------------------------ */

/*
 * A node's slot in the child table is a hash of its path, the labels from
 * the root down (not of its parent's id): the slots of a whole stack are
 * known before the walk, so they are fetched together rather than one
 * dependent cache miss per frame.
 */
#define PATH_SEED 0x243F6A8885A308D3ULL

static inline uint64_t path_hash(uint64_t parent_hash, uint32_t label)
{
	uint64_t h = (parent_hash + label + 1) * 0x9E3779B97F4A7C15ULL;

	return h ^ h >> 29;
}

static inline size_t table_pos(const struct aggregator *a, uint64_t h)
{
	return (size_t)(h >> 32) & (a->table_size - 1);
}

static void grow_table(struct aggregator *a)
{
	size_t size = a->table_size * 2, i;
	uint32_t *table = xcalloc_written(size, sizeof(*table));
	/* the nodes' path hashes: a parent comes before its children */
	uint64_t *hash = xcalloc(a->nr_nodes, sizeof(*hash));

	a->table_size = size;
	hash[AGG_ROOT] = PATH_SEED;
	for (i = 1; i < a->nr_nodes; i++) {
		size_t pos;

		hash[i] = path_hash(hash[a->nodes[i].parent], a->nodes[i].label);
		for (pos = table_pos(a, hash[i]); table[pos]; pos = (pos + 1) & (size - 1))
			;
		table[pos] = (uint32_t)i;
	}
	free(hash);
	free(a->table);
	a->table = table;
}

/* Remember that frame made node id, of key key (opts.node_frames; not a process node). */
static void set_node_frame(struct aggregator *a, uint32_t id, uint32_t key, uint32_t frame)
{
	if (key >= a->alloc_key_frames) {
		size_t old = a->alloc_key_frames;

		ALLOC_GROW(a->key_frames, st_add(key, 1), a->alloc_key_frames);
		memset(a->key_frames + old, 0xff, (a->alloc_key_frames - old) * sizeof(uint32_t));
	}
	if (a->key_frames[key] == AGG_NO_FRAME) {
		a->key_frames[key] = frame;
	} else if (a->key_frames[key] != frame) {
		ALLOC_GROW(a->exceptions, a->nr_exceptions + 1, a->alloc_exceptions);
		a->exceptions[a->nr_exceptions].node = id;
		a->exceptions[a->nr_exceptions++].frame = frame;
	}
}

/* A new node under parent, at table slot pos (empty). */
static uint32_t new_node(struct aggregator *a, uint32_t parent, uint32_t label, uint32_t frame,
			 size_t pos)
{
	uint32_t id;
	struct agg_node *n;

	if (a->nr_nodes >= UINT32_MAX)
		die("more than 2^32 distinct stack prefixes");
	id = (uint32_t)a->nr_nodes;
	ALLOC_GROW(a->nodes, a->nr_nodes + 1, a->alloc_nodes);
	if (a->opts.node_frames && parent != AGG_ROOT)
		set_node_frame(a, id, label, frame);
	n = &a->nodes[a->nr_nodes++];
	n->parent = parent;
	n->label = label;
	n->weight = 0;
	a->table[pos] = id;
	return id;
}

/*
 * parent's child labelled label, whose path hashes to h, made if new (for
 * frame id frame). A parent made by this sample has no children to look
 * for (fresh): only a free slot is.
 */
static uint32_t child(struct aggregator *a, uint32_t parent, uint32_t label, uint32_t frame,
		      uint64_t h, bool fresh)
{
	size_t mask = a->table_size - 1, pos;
	uint32_t id;

	for (pos = table_pos(a, h); (id = a->table[pos]); pos = (pos + 1) & mask) {
		const struct agg_node *n = &a->nodes[id];

		if (!fresh && n->parent == parent && n->label == label)
			return id;
	}
	return new_node(a, parent, label, frame, pos);
}

/* How deep path's stack and the sample's (its head a->key[0], frames a->ids, n) are the same. */
static size_t same_prefix(const struct aggregator *a, const struct path_slot *path, size_t n)
{
	size_t i, max = n < path->n ? n : path->n;

	if (!max || path->labels[0] != a->key[0])
		return 0;
	for (i = 1; i < max; i++) {
		const struct frame_id *x = &path->frames[i], *y = &a->ids[i];

		if (x->sym != y->sym || x->dso != y->dso || x->kind != y->kind)
			break;
	}
	return i;
}

/*
 * The sample's head label into a->key[0] and its frames, root first, into
 * a->ids[1 ..]; their number with the head.
 */
static size_t sample_ids(struct aggregator *a, const struct resolved_sample *rs)
{
	size_t n = 1, i;

	ALLOC_GROW(a->key, st_add(rs->nr_frames, 1), a->key_alloc);
	ALLOC_GROW(a->hash, st_add(rs->nr_frames, 1), a->hash_alloc);
	ALLOC_GROW(a->ids, st_add(rs->nr_frames, 1), a->ids_alloc);
	if (a->opts.node_frames) {
		ALLOC_GROW(a->fkey, st_add(rs->nr_frames, 1), a->fkey_alloc);
		a->fkey[0] = AGG_NO_FRAME;
	}
	a->key[0] = head_key(a, rs->thread->comm, rs->sample->pid, rs->sample->tid);
	memset(&a->ids[0], 0, sizeof(a->ids[0]));
	for (i = rs->nr_frames; i-- > 0;) {
		const struct frame *fr = &rs->frames[i];

		if (a->opts.stack.no_kernel && fr->kind == FRAME_KERNEL)
			continue;
		a->ids[n].sym = fr->sym;
		a->ids[n].dso = fr->dso;
		a->ids[n++].kind = (int)fr->kind | (fr->inlined ? FRAME_ID_INLINED : 0);
	}
	return n;
}

/* The labels (and frame ids) of the sample's frames from depth same on: looked up. */
static void sample_keys(struct aggregator *a, size_t same, size_t n)
{
	size_t i;

	/* the frames' cache slots, fetched together before they are read */
	for (i = same; i < n; i++) {
		const struct frame_id *fr = &a->ids[i];

		__builtin_prefetch(&a->frame_cache[frame_hash64(fr->sym, fr->dso, fr->kind) >>
						   (64 - FRAME_CACHE_BITS)]);
	}
	for (i = same; i < n; i++) {
		const struct frame_slot *s = frame_lookup(a, &a->ids[i]);

		if (a->opts.node_frames)
			a->fkey[i] = s->id - 1;
		a->key[i] = s->key;
	}
}

/*
 * Walk path from its node at depth same down to the sample's leaf (key[0
 * .. n)), making what is missing; the leaf's node. The path's hashes are
 * computed first and their table slots fetched ahead of the walk.
 */
static uint32_t walk(struct aggregator *a, struct path_slot *path, size_t same, size_t n)
{
	uint64_t h = PATH_SEED;
	uint32_t node = same ? path->nodes[same - 1] : AGG_ROOT;
	bool fresh = false;
	size_t i;

	for (i = 0; i < n; i++) {
		h = path_hash(h, a->key[i]);
		a->hash[i] = h;
		if (i >= same)
			__builtin_prefetch(&a->table[table_pos(a, h)]);
	}
	/* then the nodes their first probes name, all in flight at once */
	for (i = same; i < n; i++) {
		uint32_t id = a->table[table_pos(a, a->hash[i])];

		if (id)
			__builtin_prefetch(&a->nodes[id]);
	}
	for (i = same; i < n; i++) {
		size_t before = a->nr_nodes;

		node = child(a, node, a->key[i], a->opts.node_frames ? a->fkey[i] : AGG_NO_FRAME,
			     a->hash[i], fresh);
		fresh = a->nr_nodes != before;
		path->labels[i] = a->key[i];
		path->frames[i] = a->ids[i];
		path->nodes[i] = node;
		/* a deep new stack can fill the table by itself */
		if (fresh && a->nr_nodes * 2 > a->table_size)
			grow_table(a);
	}
	return node;
}

uint32_t aggregator__add(struct aggregator *a, const struct resolved_sample *rs)
{
	struct path_slot *ways = &a->paths[rs->sample->tid % (PATH_SLOTS / PATH_WAYS) * PATH_WAYS];
	struct path_slot *path = &ways[0];
	size_t n, same = 0, w;
	uint32_t node;

	if (!a->table_size)
		BUG("aggregator__add() after aggregator__freeze()");
	if (!a->event && rs->sample->attr && rs->sample->attr->name)
		a->event = strpool__intern(a->pool, rs->sample->attr->name);
	a->nr_samples++;
	a->period += rs->sample->period;
	n = sample_ids(a, rs);
	/*
	 * Start from the remembered stack sharing most with this one; it
	 * becomes this stack, and the ways rotate so the oldest goes first.
	 */
	for (w = 0; w < PATH_WAYS; w++) {
		size_t k = same_prefix(a, &ways[w], n);

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
		path->frames = xrealloc(path->frames, st_mult(path->alloc, sizeof(*path->frames)));
	}
	if (same)
		memcpy(a->key, path->labels, same * sizeof(*a->key));
	sample_keys(a, same ? same : 1, n);
	node = walk(a, path, same, n);
	path->n = n;
	/* most recent first */
	if (path != &ways[0]) {
		struct path_slot tmp = *path;

		memmove(&ways[1], &ways[0], (size_t)(path - ways) * sizeof(*ways));
		ways[0] = tmp;
	}
	a->nodes[node].weight += a->opts.stack.weight_period ? rs->sample->period : 1;
	return node;
}

void aggregator__merge(struct aggregator *a, const struct aggregator *src)
{
	uint32_t *labels, *nodes;
	uint64_t *hash;
	size_t i;

	if (!a->table_size || a->opts.node_frames || a->opts.by_frame || src->opts.node_frames ||
	    src->opts.by_frame)
		BUG("aggregator__merge() of frozen, by-frame or node-frame trees");
	labels = xmalloc(st_mult(src->nr_labels ? src->nr_labels : 1, sizeof(*labels)));
	for (i = 0; i < src->nr_labels; i++)
		labels[i] = new_label(a, src->labels[i].str, src->labels[i].len);
	/* a node's parent comes before it: each node's is known when it comes */
	nodes = xmalloc(st_mult(src->nr_nodes, sizeof(*nodes)));
	hash = xmalloc(st_mult(src->nr_nodes, sizeof(*hash)));
	nodes[AGG_ROOT] = AGG_ROOT;
	hash[AGG_ROOT] = PATH_SEED;
	for (i = 1; i < src->nr_nodes; i++) {
		const struct agg_node *n = &src->nodes[i];
		uint32_t label = labels[n->label];

		hash[i] = path_hash(hash[n->parent], label);
		nodes[i] = child(a, nodes[n->parent], label, AGG_NO_FRAME, hash[i], false);
		a->nodes[nodes[i]].weight += n->weight;
		if (a->nr_nodes * 2 > a->table_size)
			grow_table(a);
	}
	if (!a->event && src->event)
		a->event = strpool__intern(a->pool, src->event);
	a->nr_samples += src->nr_samples;
	a->period += src->period;
	/* the next session's pointers are not src's */
	a->last_valid = false;
	free(labels);
	free(nodes);
	free(hash);
}

void aggregator__freeze(struct aggregator *a)
{
	free(a->table);
	a->table = NULL;
	a->table_size = 0;
	free(a->frame_table);
	a->frame_table = NULL;
	a->frame_table_size = 0;
	clear_copies(&a->frame_copies);
	clear_copies(&a->process_copies);
}

void aggregator__sum_subtrees(struct aggregator *a)
{
	size_t i;

	if (a->table_size || a->summed)
		BUG("aggregator__sum_subtrees() before aggregator__freeze() or twice");
	a->summed = true;
	/* a child's id is above its parent's: from the last node up, each is whole when added */
	for (i = a->nr_nodes; i-- > 1;)
		a->nodes[a->nodes[i].parent].weight += a->nodes[i].weight;
}

/* ---- reading ------------------------------------------------------------- */

const struct agg_node *aggregator__nodes(const struct aggregator *a, size_t *nr)
{
	*nr = a->nr_nodes;
	return a->nodes;
}

const struct agg_label *aggregator__labels(const struct aggregator *a, size_t *nr)
{
	*nr = a->nr_labels;
	return a->labels;
}

const struct agg_process *aggregator__processes(const struct aggregator *a, size_t *nr)
{
	*nr = a->nr_processes;
	return a->processes;
}

uint32_t aggregator__node_process(const struct aggregator *a, uint32_t v)
{
	while (v != AGG_ROOT && a->nodes[v].parent != AGG_ROOT)
		v = a->nodes[v].parent;
	return v;
}

const struct agg_frame *aggregator__frames(const struct aggregator *a, size_t *nr)
{
	*nr = a->nr_frames;
	return a->frames;
}

uint32_t aggregator__node_frame(const struct aggregator *a, uint32_t v)
{
	size_t lo = 0, hi = a->nr_exceptions;

	if (!a->opts.node_frames || v >= a->nr_nodes || v == AGG_ROOT ||
	    a->nodes[v].parent == AGG_ROOT)
		return AGG_NO_FRAME;
	/* the exceptions are in node order: they were made in it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->exceptions[mid].node == v)
			return a->exceptions[mid].frame;
		if (a->exceptions[mid].node < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return a->key_frames[a->nodes[v].label];
}

uint64_t aggregator__nr_samples(const struct aggregator *a)
{
	return a->nr_samples;
}

uint64_t aggregator__period(const struct aggregator *a)
{
	return a->period;
}

const char *aggregator__event(const struct aggregator *a)
{
	return a->event;
}

void agg_index__build(const struct agg_node *nodes, size_t nr_nodes, struct agg_index *t)
{
	size_t i;

	t->first = xcalloc(st_add(nr_nodes, 1), sizeof(*t->first));
	t->child = xcalloc(nr_nodes ? nr_nodes : 1, sizeof(*t->child));
	for (i = 1; i < nr_nodes; i++)
		t->first[nodes[i].parent + 1]++;
	for (i = 0; i < nr_nodes; i++)
		t->first[i + 1] += t->first[i];
	/* first[v] is the cursor of v's list; it ends where v + 1's begins */
	for (i = 1; i < nr_nodes; i++)
		t->child[t->first[nodes[i].parent]++] = (uint32_t)i;
	for (i = nr_nodes; i > 0; i--)
		t->first[i] = t->first[i - 1];
	t->first[0] = 0;
}

void aggregator__index(const struct aggregator *a, struct agg_index *t)
{
	agg_index__build(a->nodes, a->nr_nodes, t);
}

void agg_index__release(struct agg_index *t)
{
	free(t->first);
	free(t->child);
	t->first = t->child = NULL;
}
