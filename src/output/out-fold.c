#include "common/common.h"
#include "output/out-fold.h"
#include "aggregate/aggregate.h"
#include "common/sbuf.h"

/*
 * The stacks come from the aggregator (aggregate.h), which labels them;
 * this file only writes its tree as folded lines. Writing walks the tree
 * depth first, each node's children in the order their lines sort
 * bytewise, keeping the line's prefix in one buffer.
 */
#define OUT_BUF_SIZE (1u << 20)

struct folder {
	struct fold_opts opts;
	struct aggregator *agg;
};

struct folder *folder__new(const struct fold_opts *opts)
{
	struct aggregate_opts ao = {
		.stack = opts->stack, .annotate = opts->annotate,
		.unknown_dso = opts->unknown_dso,
	};
	struct folder *f = xcalloc(1, sizeof(*f));

	f->opts = *opts;
	f->agg = aggregator__new(&ao);
	return f;
}

void folder__delete(struct folder *f)
{
	if (!f)
		return;
	aggregator__delete(f->agg);
	free(f);
}

void folder__new_recording(struct folder *f)
{
	aggregator__new_session(f->agg);
}

void folder__add(struct folder *f, const struct resolved_sample *rs)
{
	aggregator__add(f->agg, rs);
}

void folder__merge(struct folder *f, const struct folder *part)
{
	aggregator__merge(f->agg, part->agg);
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
static int cmp_text(const struct agg_label *a, char ta, const struct agg_label *b, char tb)
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

/* qsort_r: items are label id * 2, + 1 for the group of lines ending at the label. */
static int cmp_items(const void *a, const void *b, void *labels)
{
	const struct agg_label *l = labels;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return cmp_text(&l[x / 2], x & 1 ? ' ' : ';', &l[y / 2], y & 1 ? ' ' : ';');
}

/* rank[label * 2 + end]: the order of "label;" and "label " among all of them. */
static uint32_t *rank_items(const struct agg_label *labels, size_t nr_labels)
{
	size_t n = st_mult(nr_labels, 2), i;
	uint32_t *items = xcalloc(n, sizeof(*items)), *rank = xcalloc(n, sizeof(*rank));

	for (i = 0; i < n; i++)
		items[i] = (uint32_t)i;
	qsort_r(items, n, sizeof(*items), cmp_items, (void *)labels);
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

static void write_line(struct outbuf *o, const struct sbuf *prefix, const struct agg_label *l,
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

/* A node's own lines' number: its samples, or their periods. */
static uint64_t weight(const struct agg_node *n)
{
	return n->weight;
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
	const struct agg_node *nodes;
	const struct agg_label *labels;
	size_t nr_nodes, nr_labels;
	struct agg_index t;
	uint32_t *rank;
	uint32_t v = AGG_ROOT;
	int ret = 0;

	/* the child table is not needed any more: free it before the index */
	aggregator__freeze(f->agg);
	nodes = aggregator__nodes(f->agg, &nr_nodes);
	labels = aggregator__labels(f->agg, &nr_labels);
	rank = rank_items(labels, nr_labels);
	aggregator__index(f->agg, &t);
	for (;;) {
		size_t start = nr_groups, i;

		/* push v's children's groups, sorted, as a new frame */
		for (i = t.first[v]; i < t.first[v + 1]; i++) {
			uint32_t c = t.child[i];
			const struct agg_node *n = &nodes[c];

			ALLOC_GROW(groups, nr_groups + 2, alloc_groups);
			if (weight(n)) {
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
			const struct agg_label *l;

			if (fr->next == nr_groups) {
				nr_groups = fr->groups_start;
				sbuf_setlen(&prefix, fr->prefix_len);
				if (!--depth)
					goto done;
				continue;
			}
			g = &groups[fr->next++];
			v = (uint32_t)g->key;
			l = &labels[nodes[v].label];
			sbuf_setlen(&prefix, fr->prefix_len);
			if (g->end) {
				write_line(&o, &prefix, l, weight(&nodes[v]));
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
	agg_index__release(&t);
	free(groups);
	free(stack);
	sbuf_release(&prefix);
	/* the command reports it once, when it closes the output */
	if (o.failed || fflush(out) || ferror(out))
		ret = -1;
	return ret;
}
