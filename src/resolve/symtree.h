/*
 * A red-black tree over nodes numbered 0..n-1, keyed by a uint64_t, with
 * the same inserts, erases and shape as the kernel's rbtree that perf
 * keeps symbols in: equal keys go to the right (in the order added). The
 * symbol table replays perf's tree with it where the tree's shape decides
 * which of overlapping symbols a lookup finds (see symtab.c).
 *
 * An embedded struct: symtree__init() and symtree__release(). Never fails
 * (allocation failure dies); never prints.
 */
#ifndef JITSYM_SYMTREE_H
#define JITSYM_SYMTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* No node, in links and as a result. */
#define SYMTREE_NIL UINT32_MAX

struct symtree_node {
	uint64_t key;
	uint32_t left, right, parent;   /* SYMTREE_NIL: none */
	bool red;
};

struct symtree {
	struct symtree_node *v;         /* node i is v[i] */
	uint32_t root;                  /* SYMTREE_NIL: empty */
};

/* An empty tree with room for nodes 0..n-1. */
void symtree__init(struct symtree *t, size_t n);
/* Free the nodes; the tree is empty afterwards. */
void symtree__release(struct symtree *t);

/* Insert node z (not in the tree) with key, after the nodes with an equal key. */
void symtree__add(struct symtree *t, uint32_t z, uint64_t key);
/* Remove node z (in the tree). */
void symtree__erase(struct symtree *t, uint32_t z);
/* The first node in key order, or SYMTREE_NIL when empty. */
uint32_t symtree__first(const struct symtree *t);
/* The node after x in key order, or SYMTREE_NIL. */
uint32_t symtree__next(const struct symtree *t, uint32_t x);

#endif
