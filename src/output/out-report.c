#include "common/common.h"
#include "output/out-report.h"
#include "aggregate/aggregate.h"
#include "common/sbuf.h"
#include "resolve/srcline.h"
#include "common/strpool.h"

#include <uthash.h>

/*
 * The stacks are the aggregator's (aggregate.h), keyed by identity: a
 * process per comm, below it a frame per (symbol, kind, DSO), which is
 * what a row is. Writing walks that tree once: a node adds its own weight
 * to its row's self when its frame is a leaf, and its whole subtree's
 * weight to its row's total unless the row is already on the path above
 * (recursion counts once per sample, as perf's children do).
 */
struct row_key {
	const char *comm;
	const char *dso;
	const char *sym;          /* NULL: unresolved */
	int kind;                 /* enum frame_kind */
};

/*
 * Where a self sample's leaf was, for the source-line breakdown. Native
 * leaves are kept by (DSO, address) and looked up when written; JIT ones
 * are looked up at once (cheap, and a perf map's function may be gone by
 * the end) and kept by (file, line << 32 | column).
 */
enum leaf_type { LEAF_NONE, LEAF_NATIVE, LEAF_LINE };

struct leaf_key {
	const void *obj;
	uint64_t addr;
	int type;
};

struct leaf {
	struct leaf_key key;
	uint64_t weight;
	const struct obj_view *obj;   /* native: the frame's file and symbol, for srcline */
	const char *sym;
	UT_hash_handle hh;
};

struct row {
	struct { uint32_t process, frame; } id;     /* the aggregator's */
	struct row_key key;                         /* their names, when writing */
	uint64_t self, total;
	uint64_t sort_value;      /* set before sorting */
	bool on_path;             /* while walking the tree */
	struct leaf *leaves;
};

struct reporter {
	struct report_opts opts;
	struct strpool *pool;
	struct srcline_cache *lines;
	struct aggregator *agg;
	/*
	 * The rows in the order made, and an open-addressing table of their
	 * indices + 1 by (process, frame), at most half full: the tree walk
	 * looks a row up for every node (4 M on node-large).
	 */
	struct row **rows;
	size_t nr_rows, alloc_rows;
	uint32_t *row_table;
	size_t row_table_size;
	const char *event;
	uint64_t nr_samples;
	uint64_t weight, period;  /* sums over all samples */
	bool summed;              /* the rows are made (the tree is frozen) */
};

struct reporter *reporter__new(const struct report_opts *opts)
{
	struct aggregate_opts ao = { .by_frame = true, .stack = opts->stack };
	struct reporter *r = xcalloc(1, sizeof(*r));

	r->opts = *opts;
	r->pool = strpool__new();
	r->lines = srcline_cache__new(r->pool);
	r->agg = aggregator__new(&ao);
	return r;
}

void reporter__delete(struct reporter *r)
{
	struct leaf *l, *ltmp;
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->nr_rows; i++) {
		HASH_ITER(hh, r->rows[i]->leaves, l, ltmp) {
			HASH_DEL(r->rows[i]->leaves, l);
			free(l);
		}
		free(r->rows[i]);
	}
	free(r->rows);
	free(r->row_table);
	aggregator__delete(r->agg);
	srcline_cache__delete(r->lines);
	strpool__delete(r->pool);
	free(r);
}

void reporter__set_event(struct reporter *r, const char *name)
{
	if (name && !r->event)
		r->event = strpool__intern(r->pool, name);
}

/* ---- adding samples ----------------------------------------------------- */

static size_t row_hash(uint32_t process, uint32_t frame)
{
	uint64_t h = ((uint64_t)process << 32 | frame) * 0x9E3779B97F4A7C15ULL;

	return (size_t)(h ^ h >> 29);
}

static void grow_row_table(struct reporter *r)
{
	size_t size = r->row_table_size ? 2 * r->row_table_size : 1024, mask = size - 1, i, pos;

	free(r->row_table);
	r->row_table = xcalloc(size, sizeof(*r->row_table));
	r->row_table_size = size;
	for (i = 0; i < r->nr_rows; i++) {
		const struct row *row = r->rows[i];

		for (pos = row_hash(row->id.process, row->id.frame) & mask; r->row_table[pos];
		     pos = (pos + 1) & mask)
			;
		r->row_table[pos] = (uint32_t)(i + 1);
	}
}

static struct row *find_row(struct reporter *r, uint32_t process, uint32_t frame)
{
	struct row *row;
	size_t mask, pos;

	if (2 * (r->nr_rows + 1) > r->row_table_size)
		grow_row_table(r);
	mask = r->row_table_size - 1;
	for (pos = row_hash(process, frame) & mask; r->row_table[pos]; pos = (pos + 1) & mask) {
		row = r->rows[r->row_table[pos] - 1];
		if (row->id.process == process && row->id.frame == frame)
			return row;
	}
	if (r->nr_rows >= UINT32_MAX - 1)
		die("more than 2^32 report rows");
	row = xcalloc(1, sizeof(*row));
	row->id.process = process;
	row->id.frame = frame;
	ALLOC_GROW(r->rows, r->nr_rows + 1, r->alloc_rows);
	r->rows[r->nr_rows++] = row;
	r->row_table[pos] = (uint32_t)r->nr_rows;
	return row;
}

static void add_leaf(struct reporter *r, struct row *row, const struct frame *f, uint64_t w)
{
	struct leaf_key key;
	struct src_loc loc;
	struct leaf *l;

	memset(&key, 0, sizeof(key));
	if (f->kind == FRAME_NATIVE && f->obj) {
		key.type = LEAF_NATIVE;
		key.obj = f->obj;
		key.addr = f->elf_addr;
	} else if (srcline__lookup(r->lines, f, &loc, 1)) {
		key.type = LEAF_LINE;
		key.obj = loc.file;
		key.addr = (uint64_t)loc.line << 32 | loc.column;
	}
	HASH_FIND(hh, row->leaves, &key, sizeof(key), l);
	if (!l) {
		l = xcalloc(1, sizeof(*l));
		l->key = key;
		l->obj = f->obj;
		l->sym = f->sym;
		HASH_ADD(hh, row->leaves, key, sizeof(l->key), l);
	}
	l->weight += w;
}

void reporter__new_recording(struct reporter *r)
{
	if (r->opts.source_lines)
		BUG("reporter__new_recording() with source lines");
	aggregator__new_session(r->agg);
}

void reporter__add(struct reporter *r, const struct resolved_sample *rs)
{
	uint64_t w = r->opts.stack.weight_period ? rs->facts.period : 1;
	const struct agg_node *nodes;
	uint32_t leaf, process;
	size_t nr;

	r->nr_samples++;
	r->weight += w;
	r->period += rs->facts.period;
	if (rs->facts.event.name)
		reporter__set_event(r, rs->facts.event.name);
	leaf = aggregator__add(r->agg, rs);
	if (!r->opts.source_lines || !rs->nr_frames)
		return;
	/* the stack ends at its leaf frame's node */
	nodes = aggregator__nodes(r->agg, &nr);
	process = aggregator__node_process(r->agg, leaf);
	add_leaf(r, find_row(r, nodes[process].label, nodes[leaf].label), &rs->frames[0], w);
}

/* ---- the rows ----------------------------------------------------------- */

struct walk {
	uint32_t node;
	uint32_t next;            /* the next child to enter */
	struct row *row;          /* NULL: a process, or its row was already on the path */
};

/* Node v's own weight: its subtree's (aggregator__sum_subtrees()) less its children's. */
static uint64_t own_weight(const struct agg_node *nodes, const struct agg_index *idx, uint32_t v)
{
	uint64_t w = nodes[v].weight;
	uint32_t i;

	for (i = idx->first[v]; i < idx->first[v + 1]; i++)
		w -= nodes[idx->child[i]].weight;
	return w;
}

/*
 * Self and total of every row, walking the tree depth first without
 * recursion. The nodes' weights are their subtrees' (summed in place: an
 * array of totals beside 4 M nodes was the command's peak).
 */
static void sum_rows(struct reporter *r)
{
	size_t nr_nodes, depth = 0, alloc = 0;
	const struct agg_node *nodes;
	struct walk *stack = NULL;
	struct agg_index idx;

	aggregator__freeze(r->agg);
	aggregator__sum_subtrees(r->agg);
	nodes = aggregator__nodes(r->agg, &nr_nodes);
	aggregator__index(r->agg, &idx);
	ALLOC_GROW(stack, 1, alloc);
	stack[depth++] = (struct walk){ AGG_ROOT, idx.first[AGG_ROOT], NULL };
	while (depth) {
		struct walk *top = &stack[depth - 1];
		const struct agg_node *n;
		struct row *row = NULL;
		uint32_t v;

		if (top->next == idx.first[top->node + 1]) {
			if (top->row)
				top->row->on_path = false;
			depth--;
			continue;
		}
		v = idx.child[top->next++];
		n = &nodes[v];
		/* stack[1] is the process; frames below it */
		if (depth >= 2) {
			row = find_row(r, nodes[stack[1].node].label, n->label);
			row->self += own_weight(nodes, &idx, v);
			if (row->on_path) {
				row = NULL;
			} else {
				row->total += n->weight;
				row->on_path = true;
			}
		}
		ALLOC_GROW(stack, depth + 1, alloc);
		stack[depth++] = (struct walk){ v, idx.first[v], row };
	}
	free(stack);
	agg_index__release(&idx);
}

/* The rows' names, from the aggregator's processes and frames. */
static void name_rows(struct reporter *r)
{
	const struct agg_process *procs;
	const struct agg_frame *frames;
	size_t nr_procs, nr_frames, i;

	procs = aggregator__processes(r->agg, &nr_procs);
	frames = aggregator__frames(r->agg, &nr_frames);
	for (i = 0; i < r->nr_rows; i++) {
		struct row *row = r->rows[i];
		const struct agg_frame *f = &frames[row->id.frame];

		row->key.comm = procs[row->id.process].comm;
		row->key.dso = f->dso ? f->dso : UNKNOWN_LABEL;
		row->key.sym = f->sym;
		row->key.kind = f->kind;
	}
}

/* ---- writing ------------------------------------------------------------ */

/* The value a row is sorted and limited by. */
static uint64_t sort_value(const struct reporter *r, const struct row *row)
{
	return r->opts.sort == REPORT_SORT_SELF || r->opts.no_children ? row->self : row->total;
}

static const char *sym_name(const struct row *row)
{
	return row->key.sym ? row->key.sym : UNKNOWN_LABEL;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct row *x = *(const struct row *const *)a, *y = *(const struct row *const *)b;
	int c;

	if (x->sort_value != y->sort_value)
		return x->sort_value > y->sort_value ? -1 : 1;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	if ((c = strcmp(sym_name(x), sym_name(y))))
		return c;
	if ((c = strcmp(x->key.dso, y->key.dso)))
		return c;
	if ((c = strcmp(x->key.comm, y->key.comm)))
		return c;
	return x->key.kind - y->key.kind;
}

static double pct(const struct reporter *r, uint64_t v)
{
	return r->weight ? 100.0 * (double)v / (double)r->weight : 0.0;
}

/* The rows to print, sorted, after --percent-limit and --limit. */
static struct row **select_rows(struct reporter *r, size_t *nr)
{
	size_t n = r->nr_rows, i, keep;
	struct row **rows = xcalloc(n ? n : 1, sizeof(*rows));

	for (i = 0; i < n; i++) {
		rows[i] = r->rows[i];
		rows[i]->sort_value = sort_value(r, rows[i]);
	}
	if (n)
		qsort(rows, n, sizeof(*rows), cmp_rows);
	for (keep = 0; keep < n; keep++) {
		uint64_t v = rows[keep]->sort_value;

		/* every row has a total; without children, rows never a leaf are no rows */
		if ((r->opts.no_children && !v) || pct(r, v) < r->opts.percent_limit)
			break;
		if (r->opts.limit && keep == r->opts.limit)
			break;
	}
	*nr = keep;
	return rows;
}

/* "[kernel.kallsyms]", "//anon" and the like whole; paths by their basename. */
static const char *short_dso(const struct reporter *r, const char *dso)
{
	const char *slash;

	if (r->opts.full_paths || dso[0] == '[' || !strncmp(dso, "//", 2))
		return dso;
	slash = strrchr(dso, '/');
	return slash && slash[1] ? slash + 1 : dso;
}

/* A source file's basename; names like "node:internal/timers" stay whole. */
static const char *short_source(const struct reporter *r, const char *file)
{
	const char *slash = strrchr(file, '/'), *colon = strchr(file, ':');

	if (r->opts.full_paths || !slash || !slash[1] || (file[0] != '/' && colon && colon < slash))
		return file;
	return slash + 1;
}

static char kind_mark(int kind)
{
	switch (kind) {
	case FRAME_KERNEL:  return 'k';
	case FRAME_JIT:
	case FRAME_PERFMAP: return 'j';
	default:            return '.';
	}
}

struct widths {
	int comm, dso;
};

static void column_widths(const struct reporter *r, struct row **rows, size_t nr,
			  struct widths *w)
{
	size_t i;

	w->comm = (int)strlen("Command");
	w->dso = (int)strlen("Shared Object");
	for (i = 0; i < nr; i++) {
		int c = (int)strlen(rows[i]->key.comm);
		int d = (int)strlen(short_dso(r, rows[i]->key.dso));

		w->comm = c > w->comm ? c : w->comm;
		w->dso = d > w->dso ? d : w->dso;
	}
}

static void dots(FILE *out, int n)
{
	while (n-- > 0)
		fputc('.', out);
}

static void write_header(const struct reporter *r, FILE *out, const struct widths *w)
{
	fprintf(out, "# Samples: %" PRIu64 " of event '%s'\n", r->nr_samples,
		r->event ? r->event : "unknown");
	fprintf(out, "# Event count (approx.): %" PRIu64 "\n#\n", r->period);
	if (r->opts.no_children)
		fprintf(out, "# Overhead  %-*s  %-*s  Symbol\n# ........  ", w->comm, "Command",
			w->dso, "Shared Object");
	else
		fprintf(out, "# Children      Self  %-*s  %-*s  Symbol\n# ........  ........  ",
			w->comm, "Command", w->dso, "Shared Object");
	dots(out, w->comm);
	fputs("  ", out);
	dots(out, w->dso);
	fputs("  ......\n#\n", out);
}

static void write_row(const struct reporter *r, FILE *out, const struct row *row,
		      const struct widths *w)
{
	if (!r->opts.no_children)
		fprintf(out, "  %7.2f%%", pct(r, row->total));
	fprintf(out, "  %7.2f%%  %-*s  %-*s  [%c] %s\n", pct(r, row->self), w->comm,
		row->key.comm, w->dso, short_dso(r, row->key.dso), kind_mark(row->key.kind),
		sym_name(row));
}

/* ---- source lines ------------------------------------------------------- */

struct line_weight {
	const char *label;        /* interned */
	uint64_t weight;
};

/* "file:line", and for inlined code each level with its call site. */
static const char *native_label(struct reporter *r, const struct leaf *l, struct sbuf *sb)
{
	struct src_loc locs[SRCLINE_MAX_DEPTH];
	struct frame f;
	size_t n, i;

	memset(&f, 0, sizeof(f));
	f.kind = FRAME_NATIVE;
	f.obj = l->obj;
	f.elf_addr = l->key.addr;
	f.sym = l->sym;
	n = srcline__lookup(r->lines, &f, locs, ARRAY_SIZE(locs));
	if (!n)
		return NULL;
	sbuf_addf(sb, "%s:%" PRIu32, short_source(r, locs[0].file), locs[0].line);
	for (i = 0; i + 1 < n; i++)
		sbuf_addf(sb, "%sinlined %s, called at %s:%" PRIu32, i ? "; " : " (",
			  locs[i].function, short_source(r, locs[i + 1].file), locs[i + 1].line);
	if (n > 1)
		sbuf_addch(sb, ')');
	return sb->buf;
}

static const char *leaf_label(struct reporter *r, const struct leaf *l)
{
	struct sbuf sb = SBUF_INIT;
	const char *label = NULL, *s;
	uint32_t line = (uint32_t)(l->key.addr >> 32), col = (uint32_t)l->key.addr;

	if (l->key.type == LEAF_NATIVE) {
		label = native_label(r, l, &sb);
	} else if (l->key.type == LEAF_LINE) {
		/* JIT runtimes give columns (V8's minified code is one long line) */
		sbuf_addf(&sb, "%s:%" PRIu32, short_source(r, l->key.obj), line);
		if (col)
			sbuf_addf(&sb, ":%" PRIu32, col);
		label = sb.buf;
	}
	s = strpool__intern(r->pool, label ? label : "no line info");
	sbuf_release(&sb);
	return s;
}

static int cmp_label_ptr(const void *a, const void *b)
{
	const struct line_weight *x = a, *y = b;

	uintptr_t px = (uintptr_t)x->label, py = (uintptr_t)y->label;

	return px < py ? -1 : px > py;
}

static int cmp_lines(const void *a, const void *b)
{
	const struct line_weight *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* A row's self weight by source line, one line each, heaviest first. */
static void write_lines(struct reporter *r, FILE *out, const struct row *row)
{
	size_t n = HASH_COUNT(row->leaves), nr = 0, i;
	struct line_weight *lw = xcalloc(n ? n : 1, sizeof(*lw));
	const struct leaf *l;

	for (l = row->leaves, i = 0; l; l = l->hh.next, i++) {
		lw[i].label = leaf_label(r, l);
		lw[i].weight = l->weight;
	}
	/* many addresses share a line: labels are interned, merge equal pointers */
	if (n)
		qsort(lw, n, sizeof(*lw), cmp_label_ptr);
	for (i = 0; i < n; i++) {
		if (nr && lw[nr - 1].label == lw[i].label)
			lw[nr - 1].weight += lw[i].weight;
		else
			lw[nr++] = lw[i];
	}
	if (nr)
		qsort(lw, nr, sizeof(*lw), cmp_lines);
	/* indented one column: under Self, or under Command without children */
	for (i = 0; i < nr && pct(r, lw[i].weight) >= r->opts.percent_limit; i++)
		fprintf(out, "            %7.2f%%  %s\n", pct(r, lw[i].weight), lw[i].label);
	free(lw);
}

int reporter__write(struct reporter *r, FILE *out)
{
	size_t nr, i;
	struct row **rows;
	struct widths w;

	if (!r->summed) {
		sum_rows(r);
		name_rows(r);
		r->summed = true;
	}
	rows = select_rows(r, &nr);

	column_widths(r, rows, nr, &w);
	write_header(r, out, &w);
	for (i = 0; i < nr; i++) {
		write_row(r, out, rows[i], &w);
		if (r->opts.source_lines && rows[i]->self)
			write_lines(r, out, rows[i]);
	}
	free(rows);
	/* the command reports it once, when it closes the output */
	return ferror(out) ? -1 : 0;
}
