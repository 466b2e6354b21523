/*
 * aggregate: the stage between the session and the writers that print
 * stacks (fold, flamegraph). Samples go in; out comes a prefix tree of
 * their stacks, labelled the way "jitsym fold" writes them:
 *
 *	comm[-pid[/tid]];outermost;...;leaf
 *
 * Each distinct frame (symbol, kind) is interned once and given a frame
 * id; each distinct label text a label id (frames of different kinds can
 * print the same, and are then one node). A node is the path from the
 * root through its ancestors; it sums the weight of the samples whose
 * stack ends there: their number, or their periods (opts.stack.weight_period),
 * one or the other, as every writer needs only one (16 bytes a node: 4 M
 * nodes for node-large's 2.6 M samples).
 * Memory grows with the distinct stack prefixes, not with the samples;
 * nothing is allocated per sample once the labels are known.
 *
 * The label rules live here and only here: agg_frame_label() and
 * agg_process_label().
 */
#ifndef JITSYM_AGGREGATE_H
#define JITSYM_AGGREGATE_H

#include <stdbool.h>
#include <stdint.h>

#include "aggregate/stack-opts.h"
#include "resolve/sample.h"

struct sbuf;

#define AGG_ROOT 0
#define AGG_NO_FRAME UINT32_MAX      /* the frame id of the root and of process nodes */

struct aggregate_opts {
	struct stack_opts stack;        /* which stacks, labelled and weighed how */
	bool annotate;                  /* frame labels get "_[k]" (kernel), "_[j]" (JIT) */
	bool unknown_dso;               /* an unresolved frame in a known DSO is "[DSO basename]" */
	bool node_frames;               /* remember each node's first frame (aggregator__node_frame) */
	bool normalize;                 /* frame labels in the form diffs match (frame-normalize.h) */
	/*
	 * Key nodes by identity, not by label: a process node by (comm,
	 * pid, tid) and its key a process id, a frame node by (symbol, kind,
	 * DSO) and its key a frame id. Frames that print alike stay apart
	 * (the report's rows are per DSO).
	 */
	bool by_frame;
};

/* A label: interned text, len bytes, no NUL inside. */
struct agg_label {
	const char *str;
	uint32_t len;
};

/* A stack prefix; the root is node AGG_ROOT, its children the processes. */
struct agg_node {
	uint32_t parent;
	uint32_t label;                 /* with by_frame: a process id (the root's
	                                   children) or a frame id (below them) */
	uint64_t weight;                /* samples whose stack ends here, or their periods */
};

/*
 * A distinct frame: its symbol (NULL: unresolved) and DSO name, the
 * aggregator's copies, valid after the session's strings are gone; its
 * kind; its label's id.
 */
struct agg_frame {
	const char *sym;
	const char *dso;
	enum frame_kind kind;
	bool inlined;           /* an inlined function's frame (sample.h) */
	uint32_t label;
};

/* A distinct process head: comm (the aggregator's copy), pid and tid as kept (0 when not). */
struct agg_process {
	const char *comm;
	uint32_t pid, tid;
	uint32_t label;
};

/* The tree's child lists: children of v are child[first[v] .. first[v + 1]). */
struct agg_index {
	uint32_t *first, *child;
};

struct aggregator;

/* Never NULL; opts is copied. */
struct aggregator *aggregator__new(const struct aggregate_opts *opts);
void aggregator__delete(struct aggregator *a);     /* accepts NULL */
/*
 * The samples added next come from another session (a recording merged
 * with the ones before: command.h): forget what was keyed by the last
 * one's pointers (its strings are gone). Frames and processes it made
 * are found again by their text, with the same ids and labels, so the
 * tree sums the stacks of every session as if they were one.
 */
void aggregator__new_session(struct aggregator *a);
/* Add one sample; returns the node its stack ends at. BUG() after aggregator__freeze(). */
uint32_t aggregator__add(struct aggregator *a, const struct resolved_sample *rs);
/*
 * Add src's stacks and weights to a's, by their labels' text, as if src's
 * samples had come to a (both made with the same options, a not frozen,
 * neither keeping node frames nor keyed by frame: fold's trees). What
 * several recordings read at once (each into its own tree) make, merged
 * in the recordings' order.
 */
void aggregator__merge(struct aggregator *a, const struct aggregator *src);
/*
 * No more samples: free what only adding needs (the child table), before
 * a writer allocates its own. Reading works before and after.
 */
void aggregator__freeze(struct aggregator *a);

/*
 * After aggregator__freeze(): each node's weight becomes its subtree's,
 * its own and its descendants' (the totals a writer needs, without an
 * array of them beside the tree); a node's own weight is then its weight
 * less its children's. Once: BUG() before freezing or a second time.
 */
void aggregator__sum_subtrees(struct aggregator *a);

/* The nodes, *nr of them (node 0 the root); valid until the next add. */
const struct agg_node *aggregator__nodes(const struct aggregator *a, size_t *nr);
/* The labels by id, *nr of them; label 0 is "" (the root's). */
const struct agg_label *aggregator__labels(const struct aggregator *a, size_t *nr);
/* The distinct processes by id, *nr of them. */
const struct agg_process *aggregator__processes(const struct aggregator *a, size_t *nr);
/* The process node above node v (v itself for one); AGG_ROOT for the root. */
uint32_t aggregator__node_process(const struct aggregator *a, uint32_t v);
/* The distinct frames by id, *nr of them. */
const struct agg_frame *aggregator__frames(const struct aggregator *a, size_t *nr);
/*
 * The id of the first frame that made node v (with opts.node_frames);
 * AGG_NO_FRAME for the root, processes, or without node_frames.
 */
uint32_t aggregator__node_frame(const struct aggregator *a, uint32_t v);
/* Samples added, and the periods summed over them. */
uint64_t aggregator__nr_samples(const struct aggregator *a);
uint64_t aggregator__period(const struct aggregator *a);
/* The event name of the first sample that named one, or NULL. */
const char *aggregator__event(const struct aggregator *a);

/* Fill idx with the tree's child lists (unsorted); free with agg_index__release(). */
void aggregator__index(const struct aggregator *a, struct agg_index *idx);
/* The same for any nodes[nr] whose parents come before their children (diff's merged tree). */
void agg_index__build(const struct agg_node *nodes, size_t nr, struct agg_index *idx);
void agg_index__release(struct agg_index *idx);

/*
 * The label of a frame: its symbol or "[unknown]" (with unknown_dso and a
 * DSO other than "[unknown]": "[" the DSO's basename "]", "[libc.so.6]",
 * as stackcollapse-perf.pl names them), ';' (the folded format's
 * separator) as ':' and a newline as a space; with annotate, "_[i]" after
 * an inlined function's (as stackcollapse-perf.pl marks the inlined ones
 * it finds), "_[k]" after kernel frames and "_[j]" after JIT (jitdump,
 * perf map) ones. Appended
 * to sb.
 */
void agg_frame_label(struct sbuf *sb, const char *sym, const char *dso, enum frame_kind kind,
		     bool inlined, bool annotate, bool unknown_dso);
/*
 * The label of a process: comm with ';' as ':', a newline as a space and
 * a space as '_' (stackcollapse-perf.pl joins words), then "-PID/TID" with
 * tid, or "-PID" with pid. Appended to sb.
 */
void agg_process_label(struct sbuf *sb, const char *comm, uint32_t pid, uint32_t tid,
		       bool with_pid, bool with_tid);

#endif
