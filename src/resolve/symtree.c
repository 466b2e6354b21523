/*
 * The kernel's red-black tree algorithm (as in lib/rbtree.c, written anew
 * over array indexes), so that a tree built with the same inserts and
 * erases has the same shape as perf's: see symtree.h.
 */
#include "common/common.h"
#include "resolve/symtree.h"

#define NIL SYMTREE_NIL

static struct symtree_node *N(const struct symtree *t, uint32_t i)
{
	return &t->v[i];
}

static bool is_red(const struct symtree *t, uint32_t i)
{
	return i != NIL && t->v[i].red;
}

/* Put y where x was under x's parent. */
static void symtree__replace_child(struct symtree *t, uint32_t x, uint32_t y)
{
	uint32_t p = N(t, x)->parent;

	if (p == NIL)
		t->root = y;
	else if (N(t, p)->left == x)
		N(t, p)->left = y;
	else
		N(t, p)->right = y;
	if (y != NIL)
		N(t, y)->parent = p;
}

/* x's right child when right, else its left one. */
static uint32_t *kid(const struct symtree *t, uint32_t x, bool right)
{
	return right ? &N(t, x)->right : &N(t, x)->left;
}

/*
 * Rotate x down to the left (left) or to the right: its child on the
 * other side takes its place, and that child's inner subtree moves to x.
 */
static void symtree__rotate(struct symtree *t, uint32_t x, bool left)
{
	uint32_t y = *kid(t, x, left), inner = *kid(t, y, !left);

	*kid(t, x, left) = inner;
	if (inner != NIL)
		N(t, inner)->parent = x;
	symtree__replace_child(t, x, y);
	*kid(t, y, !left) = x;
	N(t, x)->parent = y;
}

static void symtree__insert_fixup(struct symtree *t, uint32_t z)
{
	while (is_red(t, N(t, z)->parent)) {
		uint32_t p = N(t, z)->parent, g = N(t, p)->parent;
		bool left = N(t, g)->left == p;
		uint32_t u = left ? N(t, g)->right : N(t, g)->left;

		if (is_red(t, u)) {
			N(t, p)->red = N(t, u)->red = false;
			N(t, g)->red = true;
			z = g;
			continue;
		}
		if (z == (left ? N(t, p)->right : N(t, p)->left)) {
			z = p;
			symtree__rotate(t, z, left);
			p = N(t, z)->parent;
		}
		N(t, p)->red = false;
		N(t, g)->red = true;
		symtree__rotate(t, g, !left);
	}
	N(t, t->root)->red = false;
}


void symtree__add(struct symtree *t, uint32_t z, uint64_t key)
{
	uint32_t x = t->root, p = NIL;

	while (x != NIL) {
		p = x;
		x = key < N(t, x)->key ? N(t, x)->left : N(t, x)->right;
	}
	*N(t, z) = (struct symtree_node){ .key = key, .left = NIL, .right = NIL,
					  .parent = p, .red = true };
	if (p == NIL)
		t->root = z;
	else if (key < N(t, p)->key)
		N(t, p)->left = z;
	else
		N(t, p)->right = z;
	symtree__insert_fixup(t, z);
}

static uint32_t symtree__min(const struct symtree *t, uint32_t x)
{
	while (x != NIL && N(t, x)->left != NIL)
		x = N(t, x)->left;
	return x;
}

uint32_t symtree__first(const struct symtree *t)
{
	return symtree__min(t, t->root);
}

uint32_t symtree__next(const struct symtree *t, uint32_t x)
{
	uint32_t p;

	if (N(t, x)->right != NIL)
		return symtree__min(t, N(t, x)->right);
	while ((p = N(t, x)->parent) != NIL && N(t, p)->right == x)
		x = p;
	return p;
}

/* Restore the colours after removing a black node; x (maybe NIL) is under xp. */
static void symtree__erase_fixup(struct symtree *t, uint32_t x, uint32_t xp)
{
	while (x != t->root && !is_red(t, x)) {
		bool left = N(t, xp)->left == x;
		uint32_t w = left ? N(t, xp)->right : N(t, xp)->left;

		if (is_red(t, w)) {
			N(t, w)->red = false;
			N(t, xp)->red = true;
			symtree__rotate(t, xp, left);
			w = left ? N(t, xp)->right : N(t, xp)->left;
		}
		if (!is_red(t, N(t, w)->left) && !is_red(t, N(t, w)->right)) {
			N(t, w)->red = true;
			x = xp;
			xp = N(t, x)->parent;
			continue;
		}
		if (!is_red(t, left ? N(t, w)->right : N(t, w)->left)) {
			N(t, left ? N(t, w)->left : N(t, w)->right)->red = false;
			N(t, w)->red = true;
			symtree__rotate(t, w, !left);
			w = left ? N(t, xp)->right : N(t, xp)->left;
		}
		N(t, w)->red = N(t, xp)->red;
		N(t, xp)->red = false;
		N(t, left ? N(t, w)->right : N(t, w)->left)->red = false;
		symtree__rotate(t, xp, left);
		x = t->root;
	}
	if (x != NIL)
		N(t, x)->red = false;
}

void symtree__erase(struct symtree *t, uint32_t z)
{
	struct symtree_node *zn = N(t, z);
	uint32_t x, xp, y = z;
	bool y_red = zn->red;

	if (zn->left == NIL || zn->right == NIL) {
		x = zn->left == NIL ? zn->right : zn->left;
		xp = zn->parent;
		symtree__replace_child(t, z, x);
	} else {
		y = symtree__min(t, zn->right);
		y_red = N(t, y)->red;
		x = N(t, y)->right;
		if (N(t, y)->parent == z) {
			xp = y;
		} else {
			xp = N(t, y)->parent;
			symtree__replace_child(t, y, x);
			N(t, y)->right = zn->right;
			N(t, zn->right)->parent = y;
		}
		symtree__replace_child(t, z, y);
		N(t, y)->left = zn->left;
		N(t, zn->left)->parent = y;
		N(t, y)->red = zn->red;
	}
	if (!y_red)
		symtree__erase_fixup(t, x, xp);
}

void symtree__init(struct symtree *t, size_t n)
{
	t->v = xcalloc(n ? n : 1, sizeof(*t->v));
	t->root = NIL;
}

void symtree__release(struct symtree *t)
{
	free(t->v);
	t->v = NULL;
	t->root = NIL;
}
