/*
 * An arena of interned strings that live as long as the run.
 *
 * strpool__intern() returns the pool's copy of a string: equal strings get
 * the same pointer, so interned names compare and hash by pointer. All
 * copies are freed at once by strpool__delete().
 */
#ifndef JITSYM_STRPOOL_H
#define JITSYM_STRPOOL_H

#include <stddef.h>

struct strpool;

struct strpool *strpool__new(void);
void strpool__delete(struct strpool *pool);   /* accepts NULL */
/* The pool's copy of s (len bytes, no NUL needed); never NULL. */
const char *strpool__intern_len(struct strpool *pool, const char *s, size_t len);
const char *strpool__intern(struct strpool *pool, const char *s);

#endif
