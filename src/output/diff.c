#include "common/common.h"
#include "output/diff.h"
#include "aggregate/aggregate.h"
#include "output/out-flamegraph.h"
#include "common/sbuf.h"

#include <uthash.h>

/*
 * The merged tree is kept as the aggregator keeps its own (struct
 * agg_node: parent, label, weight), its weight NEW's self weight, beside
 * it BASE's; a child's id is above its parent's, as both runs' trees are
 * walked parents first. Labels are interned by text (the aggregators'
 * strings, which live as long as the differ); nodes are found by
 * (parent, label) in an open-addressing table.
 */

struct label_entry {
	UT_hash_handle hh;
	uint32_t id;
};

struct differ {
	struct diff_opts opts;
	struct aggregator *agg[2];
	unsigned run;
	bool merged;
	struct agg_node *nodes;         /* weight: NEW's self */
	uint64_t *base;                 /* per node: BASE's self */
	size_t nr_nodes, alloc_nodes, alloc_base;
	struct agg_label *labels;
	size_t nr_labels, alloc_labels;
	struct label_entry *label_hash, *label_entries;
	uint32_t *table;                /* node id + 1; 0: empty */
	size_t table_size;              /* a power of two */
	uint64_t sum[2];                /* each run's total weight */
	uint64_t nr_samples[2];
	const char *event;
	uint8_t *in_base;               /* per label: BASE has a frame of it */
	size_t alloc_in_base;
	/* NEW's JIT-leaf weight; of it, by name in BASE, by whole stack in BASE */
	uint64_t jit_leaf, jit_matched, jit_stack_matched;
	size_t nr_base_nodes;           /* merged nodes made by BASE: ids below */
};

struct differ *differ__new(const struct diff_opts *opts)
{
	struct aggregate_opts ao = {
		.stack = opts->stack, .normalize = opts->normalize, .node_frames = true,
	};
	struct differ *d = xcalloc(1, sizeof(*d));

	d->opts = *opts;
	d->agg[0] = aggregator__new(&ao);
	d->agg[1] = aggregator__new(&ao);
	return d;
}

void differ__delete(struct differ *d)
{
	struct label_entry *e, *tmp;

	if (!d)
		return;
	HASH_ITER(hh, d->label_hash, e, tmp)
		HASH_DELETE(hh, d->label_hash, e);
	free(d->label_entries);
	free(d->labels);
	free(d->nodes);
	free(d->base);
	free(d->table);
	free(d->in_base);
	aggregator__delete(d->agg[0]);
	aggregator__delete(d->agg[1]);
	free(d);
}

void differ__set_run(struct differ *d, unsigned run)
{
	if (run > 1 || d->merged)
		BUG("differ run %u", run);
	d->run = run;
}

void differ__add(struct differ *d, const struct resolved_sample *rs)
{
	aggregator__add(d->agg[d->run], rs);
}

/* ---- merging ------------------------------------------------------------- */

/* The merged id of a label's text, new or not. */
static uint32_t merged_label(struct differ *d, const struct agg_label *l)
{
	struct label_entry *e;

	HASH_FIND(hh, d->label_hash, l->str, l->len, e);
	if (e)
		return e->id;
	if (d->nr_labels >= UINT32_MAX)
		die("more than 2^32 distinct labels");
	ALLOC_GROW(d->labels, d->nr_labels + 1, d->alloc_labels);
	d->labels[d->nr_labels] = *l;
	/* entries are allocated as one array, sized for both runs' labels up front */
	e = &d->label_entries[d->nr_labels];
	e->id = (uint32_t)d->nr_labels++;
	HASH_ADD_KEYPTR(hh, d->label_hash, d->labels[e->id].str, l->len, e);
	return e->id;
}

static size_t node_hash(uint32_t parent, uint32_t label)
{
	uint64_t h = ((uint64_t)parent << 32 | label) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 20);
}

static void grow_table(struct differ *d)
{
	size_t size = d->table_size ? d->table_size * 2 : 1024, mask = size - 1, i, pos;
	uint32_t *t = xcalloc(size, sizeof(*t));

	for (i = 0; i < d->table_size; i++) {
		const struct agg_node *n;

		if (!d->table[i])
			continue;
		n = &d->nodes[d->table[i] - 1];
		for (pos = node_hash(n->parent, n->label) & mask; t[pos]; pos = (pos + 1) & mask)
			;
		t[pos] = d->table[i];
	}
	free(d->table);
	d->table = t;
	d->table_size = size;
}

/* The merged node (parent, label), new or not. */
static uint32_t merged_node(struct differ *d, uint32_t parent, uint32_t label)
{
	size_t mask, pos;
	const struct agg_node *n;

	if ((d->nr_nodes + 1) * 2 > d->table_size)
		grow_table(d);
	mask = d->table_size - 1;
	for (pos = node_hash(parent, label) & mask; d->table[pos]; pos = (pos + 1) & mask) {
		n = &d->nodes[d->table[pos] - 1];
		if (n->parent == parent && n->label == label)
			return d->table[pos] - 1;
	}
	if (d->nr_nodes >= UINT32_MAX - 1)
		die("more than 2^32 distinct stack prefixes");
	ALLOC_GROW(d->nodes, d->nr_nodes + 1, d->alloc_nodes);
	ALLOC_GROW(d->base, d->nr_nodes + 1, d->alloc_base);
	d->nodes[d->nr_nodes] = (struct agg_node){ parent, label, 0 };
	d->base[d->nr_nodes] = 0;
	d->table[pos] = (uint32_t)++d->nr_nodes;
	return (uint32_t)(d->nr_nodes - 1);
}

/*
 * Whether BASE has a frame of label l, and with NEW's node i (merged node
 * v, label l) as a JIT leaf, its weight matched or not.
 */
static void match_jit(struct differ *d, unsigned r, uint32_t i, uint32_t v, uint32_t l,
		      uint64_t w)
{
	const struct agg_frame *frames;
	size_t nr_frames;
	uint32_t f;

	size_t n;

	if (!r) {
		if (l >= d->alloc_in_base) {
			n = st_mult(st_add(l, 1), 2);
			d->in_base = xrealloc(d->in_base, n);
			memset(d->in_base + d->alloc_in_base, 0, n - d->alloc_in_base);
			d->alloc_in_base = n;
		}
		d->in_base[l] = 1;
		return;
	}
	if (!w)
		return;
	f = aggregator__node_frame(d->agg[1], i);
	frames = aggregator__frames(d->agg[1], &nr_frames);
	if (f == AGG_NO_FRAME || f >= nr_frames ||
	    (frames[f].kind != FRAME_JIT && frames[f].kind != FRAME_PERFMAP))
		return;
	d->jit_leaf += w;
	if (l < d->alloc_in_base && d->in_base[l])
		d->jit_matched += w;
	if (v < d->nr_base_nodes)
		d->jit_stack_matched += w;
}

/* Add run r's tree to the merged one. */
static void merge_run(struct differ *d, unsigned r)
{
	size_t nr_nodes, nr_labels, i;
	const struct agg_node *nodes = aggregator__nodes(d->agg[r], &nr_nodes);
	const struct agg_label *labels = aggregator__labels(d->agg[r], &nr_labels);
	uint32_t *map = xcalloc(nr_nodes ? nr_nodes : 1, sizeof(*map));
	uint32_t *lmap = xmalloc(st_mult(nr_labels ? nr_labels : 1, sizeof(*lmap)));
	uint32_t v;

	memset(lmap, 0xff, nr_labels * sizeof(*lmap));
	for (i = 0; i < nr_nodes; i++) {
		const struct agg_node *n = &nodes[i];

		if (i) {
			if (lmap[n->label] == UINT32_MAX)
				lmap[n->label] = merged_label(d, &labels[n->label]);
			map[i] = merged_node(d, map[n->parent], lmap[n->label]);
			if (n->parent != AGG_ROOT)
				match_jit(d, r, (uint32_t)i, map[i], lmap[n->label], n->weight);
		}
		v = map[i];
		if (r)
			d->nodes[v].weight += n->weight;
		else
			d->base[v] += n->weight;
		d->sum[r] += n->weight;
	}
	d->nr_samples[r] = aggregator__nr_samples(d->agg[r]);
	if (!d->event)
		d->event = aggregator__event(d->agg[r]);
	free(map);
	free(lmap);
}

static void merge(struct differ *d)
{
	size_t nr0, nr1;
	struct agg_label root = { "", 0 };

	if (d->merged)
		return;
	d->merged = true;
	aggregator__freeze(d->agg[0]);
	aggregator__freeze(d->agg[1]);
	aggregator__labels(d->agg[0], &nr0);
	aggregator__labels(d->agg[1], &nr1);
	d->label_entries = xcalloc(st_add(nr0, nr1), sizeof(*d->label_entries));
	merged_label(d, &root);
	merged_node(d, AGG_ROOT, 0);     /* the root: node 0 */
	merge_run(d, 0);
	d->nr_base_nodes = d->nr_nodes;
	merge_run(d, 1);
}

/* ---- folded -------------------------------------------------------------- */

/*
 * Lines sort bytewise, as fold's: "P;f 3" < "P;f;g 1" < "P;f_x 2", since
 * ' ' < ';' < most bytes. So a node's children are visited in the order
 * of their label followed by the byte that comes next: ' ' for the line
 * that ends there, ';' for the lines that go on.
 */
struct fold_item {
	uint32_t node;
	bool line;          /* the line ending at node; else the lines below it */
	size_t len;         /* the path's length before node's label */
};

/* qsort_r: fold items by their label's text; ctx is the differ. */
static int cmp_fold_items(const void *a, const void *b, void *ctx)
{
	const struct differ *d = ctx;
	const struct fold_item *x = a, *y = b;
	const struct agg_label *lx = &d->labels[d->nodes[x->node].label];
	const struct agg_label *ly = &d->labels[d->nodes[y->node].label];
	size_t n = lx->len < ly->len ? lx->len : ly->len;
	int c = memcmp(lx->str, ly->str, n);
	unsigned char cx, cy;

	if (c)
		return c;
	cx = lx->len > n ? (unsigned char)lx->str[n] : x->line ? ' ' : ';';
	cy = ly->len > n ? (unsigned char)ly->str[n] : y->line ? ' ' : ';';
	if (cx != cy)
		return cx < cy ? -1 : 1;
	/* a label that is a prefix of the other: the shorter one's terminator came first */
	return lx->len == ly->len ? 0 : lx->len < ly->len ? -1 : 1;
}

/* Push v's children's items, sorted, onto the stack (the first on top). */
static void push_children(struct differ *d, const struct agg_index *idx, uint32_t v, size_t len,
			  struct fold_item **stack, size_t *nr, size_t *alloc)
{
	size_t first = idx->first[v], end = idx->first[v + 1], start = *nr, i, j;
	struct fold_item tmp;

	for (i = first; i < end; i++) {
		uint32_t c = idx->child[i];

		ALLOC_GROW(*stack, st_add(*nr, 2), *alloc);
		if (d->base[c] || d->nodes[c].weight)
			(*stack)[(*nr)++] = (struct fold_item){ c, true, len };
		if (idx->first[c + 1] > idx->first[c])
			(*stack)[(*nr)++] = (struct fold_item){ c, false, len };
	}
	qsort_r(*stack + start, *nr - start, sizeof(**stack), cmp_fold_items, d);
	for (i = start, j = *nr; i + 1 < j; i++, j--) {
		tmp = (*stack)[i];
		(*stack)[i] = (*stack)[j - 1];
		(*stack)[j - 1] = tmp;
	}
}

static int write_folded(struct differ *d, FILE *out)
{
	struct agg_index idx;
	struct fold_item *stack = NULL, it;
	size_t nr = 0, alloc = 0;
	struct sbuf path = SBUF_INIT;

	agg_index__build(d->nodes, d->nr_nodes, &idx);
	push_children(d, &idx, AGG_ROOT, 0, &stack, &nr, &alloc);
	while (nr) {
		const struct agg_label *l;

		it = stack[--nr];
		l = &d->labels[d->nodes[it.node].label];
		sbuf_setlen(&path, it.len);
		if (it.len)
			sbuf_addch(&path, ';');
		sbuf_add(&path, l->str, l->len);
		if (it.line)
			fprintf(out, "%s %" PRIu64 " %" PRIu64 "\n", path.buf, d->base[it.node],
				d->nodes[it.node].weight);
		else
			push_children(d, &idx, it.node, path.len, &stack, &nr, &alloc);
	}
	free(stack);
	sbuf_release(&path);
	agg_index__release(&idx);
	return fflush(out) || ferror(out) ? -1 : 0;
}

/* ---- svg ----------------------------------------------------------------- */

static int write_svg(struct differ *d, FILE *out)
{
	struct flamegraph_opts fo = {
		.stack.weight_period = d->opts.stack.weight_period, .title = d->opts.title,
		.width = d->opts.width, .minwidth = d->opts.minwidth,
		.minwidth_pct = d->opts.minwidth_pct,
	};
	struct flamegraph_diff fd = {
		.nodes = d->nodes, .nr_nodes = d->nr_nodes, .labels = d->labels,
		.base_self = d->base, .base_sum = d->sum[0],
		.nr_samples = { d->nr_samples[0], d->nr_samples[1] },
		.absolute = d->opts.absolute, .event = d->event,
	};

	return flamegraph__write_diff(&fo, &fd, out);
}

/* ---- table ---------------------------------------------------------------- */

/* Per function (frame label): self and total weight in each run. */
struct fn_weights {
	uint64_t self[2], total[2];
	bool frame;             /* the label of a frame (not only of a process) */
};

/*
 * Each function's weights. A function's total counts each stack once,
 * however often it recurs in it: a node's self weight goes to each label
 * on its path the first time the walk up meets it.
 */
static struct fn_weights *function_weights(const struct differ *d)
{
	struct fn_weights *fw = xcalloc(d->nr_labels ? d->nr_labels : 1, sizeof(*fw));
	uint32_t *seen = xcalloc(d->nr_labels ? d->nr_labels : 1, sizeof(*seen));
	uint32_t gen = 0, v, u;

	for (v = 1; v < d->nr_nodes; v++) {
		const struct agg_node *n = &d->nodes[v];
		uint64_t w[2] = { d->base[v], n->weight };

		if (n->parent == AGG_ROOT)
			continue;       /* a process */
		fw[n->label].frame = true;
		fw[n->label].self[0] += w[0];
		fw[n->label].self[1] += w[1];
		if (!w[0] && !w[1])
			continue;
		gen++;
		for (u = v; d->nodes[u].parent != AGG_ROOT; u = d->nodes[u].parent) {
			uint32_t l = d->nodes[u].label;

			if (seen[l] == gen)
				continue;
			seen[l] = gen;
			fw[l].total[0] += w[0];
			fw[l].total[1] += w[1];
		}
	}
	free(seen);
	return fw;
}

struct rank {
	uint32_t label;
	double base, new, change;   /* shares in %, or raw weights (absolute) */
};

/* How cmp_ranks() orders: the labels, and whether the shrinkers come first. */
struct rank_order {
	const struct agg_label *labels;
	bool shrank;
};

/* qsort_r: largest change first (most negative when shrank); equal ones by name. */
static int cmp_ranks(const void *a, const void *b, void *ctx)
{
	const struct rank_order *o = ctx;
	const struct rank *x = a, *y = b;
	const struct agg_label *lx = &o->labels[x->label], *ly = &o->labels[y->label];
	size_t n = lx->len < ly->len ? lx->len : ly->len;
	int c;

	if (x->change != y->change)
		return (x->change > y->change) != o->shrank ? -1 : 1;
	c = memcmp(lx->str, ly->str, n);
	return c ? c : lx->len < ly->len ? -1 : lx->len > ly->len;
}

static double share(const struct differ *d, uint64_t w, unsigned r)
{
	if (d->opts.absolute)
		return (double)w;
	return d->sum[r] ? 100.0 * (double)w / (double)d->sum[r] : 0;
}

/* One ranking's rows: the top growers (grew) or shrinkers, up to opts.top. */
static void add_ranking(struct sbuf *sb, const struct differ *d, struct rank *r, size_t nr,
			bool grew, const char *what)
{
	size_t i, shown = 0;
	bool abs = d->opts.absolute;

	sbuf_addf(sb, "\n%s by %s:\n", grew ? "Grew most" : "Shrank most", what);
	sbuf_addf(sb, "%12s %12s %12s  %s\n", "base", "new", "change", "function");
	for (i = 0; i < nr && shown < d->opts.top; i++) {
		const struct rank *x = &r[i];
		const struct agg_label *l = &d->labels[x->label];

		if (grew ? !(x->change > 0) : !(x->change < 0))
			break;
		if (abs)
			sbuf_addf(sb, "%12.0f %12.0f %+12.0f  ", x->base, x->new, x->change);
		else
			sbuf_addf(sb, "%11.2f%% %11.2f%% %+11.2f%%  ", x->base, x->new, x->change);
		sbuf_add(sb, l->str, l->len);
		sbuf_addch(sb, '\n');
		shown++;
	}
	if (!shown)
		sbuf_addstr(sb, "  (none)\n");
}

/* The rankings by self (total false) or total weight. */
static void add_rankings(struct sbuf *sb, const struct differ *d, const struct fn_weights *fw,
			 bool total)
{
	struct rank *r = xcalloc(d->nr_labels ? d->nr_labels : 1, sizeof(*r));
	struct rank_order order = { d->labels, false };
	size_t nr = 0;
	uint32_t l;

	for (l = 0; l < d->nr_labels; l++) {
		const uint64_t *w = total ? fw[l].total : fw[l].self;

		if (!fw[l].frame || (!w[0] && !w[1]))
			continue;
		r[nr].label = l;
		r[nr].base = share(d, w[0], 0);
		r[nr].new = share(d, w[1], 1);
		r[nr].change = r[nr].new - r[nr].base;
		nr++;
	}
	qsort_r(r, nr, sizeof(*r), cmp_ranks, &order);
	add_ranking(sb, d, r, nr, true, total ? "total" : "self");
	order.shrank = true;
	qsort_r(r, nr, sizeof(*r), cmp_ranks, &order);
	add_ranking(sb, d, r, nr, false, total ? "total" : "self");
	free(r);
}

static int write_table(struct differ *d, FILE *out)
{
	struct fn_weights *fw = function_weights(d);
	struct sbuf sb = SBUF_INIT;
	const char *unit = d->opts.stack.weight_period ? "period" : "samples";

	sbuf_addf(&sb, "BASE: %" PRIu64 " samples", d->nr_samples[0]);
	if (d->opts.stack.weight_period)
		sbuf_addf(&sb, ", period %" PRIu64, d->sum[0]);
	sbuf_addf(&sb, "; NEW: %" PRIu64 " samples", d->nr_samples[1]);
	if (d->opts.stack.weight_period)
		sbuf_addf(&sb, ", period %" PRIu64, d->sum[1]);
	if (d->jit_leaf)
		sbuf_addf(&sb, "\nJIT frames on top of NEW's stacks that BASE has too: %.1f%% of "
			  "their %s by name, %.1f%% with the whole stack",
			  100.0 * (double)d->jit_matched / (double)d->jit_leaf,
			  d->opts.stack.weight_period ? "period" : "samples",
			  100.0 * (double)d->jit_stack_matched / (double)d->jit_leaf);
	if (d->opts.absolute)
		sbuf_addf(&sb, "\nweights in %s; change: NEW - BASE\n", unit);
	else
		sbuf_addf(&sb, "\nweights as shares of each run's %s; change: NEW - BASE, "
			  "in points\n", d->opts.stack.weight_period ? "period" : "samples");
	add_rankings(&sb, d, fw, false);
	add_rankings(&sb, d, fw, true);
	fwrite(sb.buf, 1, sb.len, out);
	sbuf_release(&sb);
	free(fw);
	return fflush(out) || ferror(out) ? -1 : 0;
}

int differ__write(struct differ *d, enum diff_format f, FILE *out)
{
	merge(d);
	switch (f) {
	case DIFF_FOLDED: return write_folded(d, out);
	case DIFF_TABLE:  return write_table(d, out);
	case DIFF_SVG:    return write_svg(d, out);
	default:          BUG("diff format %d", f);
	}
}
