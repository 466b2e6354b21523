/*
 * Allocation helpers for the jitsym tool.
 *
 * Every allocation in src/ goes through these: they die with a message on
 * out-of-memory (a profiler that cannot allocate has nothing useful left to
 * do) and they check size arithmetic for overflow, so no caller ever writes
 * malloc(n * size) by hand.
 */
#ifndef JITSYM_ALLOC_H
#define JITSYM_ALLOC_H

#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
/*
 * xcalloc(), zeroed by writing every page now. For a large cache probed
 * before it is filled: calloc()'s fresh pages are mapped to the shared
 * zero page by the first read, so each page's first write is then a
 * copy-on-write fault, and with a second thread running, a TLB shootdown
 * (an IPI to every CPU the process runs on): 5-8% of a short recording's
 * CPU. Written first, a page costs one ordinary fault.
 */
void *xcalloc_written(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Reallocate an array of nmemb elements of size bytes, checking the product. */
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a fresh heap string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* path's directory, a copy: "." when it names none (or is "-", stdin), "/" for the root's files. */
char *xdirname(const char *path);

/* Dies: a op b overflowed. */
void st_overflow(size_t a, char op, size_t b) __attribute__((noreturn));

/* a + b and a * b, dying on overflow; inline, as they are on every per-frame path. */
static inline size_t st_add(size_t a, size_t b)
{
	size_t r;

	if (__builtin_add_overflow(a, b, &r))
		st_overflow(a, '+', b);
	return r;
}

static inline size_t st_mult(size_t a, size_t b)
{
	size_t r;

	if (__builtin_mul_overflow(a, b, &r))
		st_overflow(a, '*', b);
	return r;
}

/*
 * Grow array x (with alloc slots) so that it holds at least nr elements.
 * Grows geometrically; x, nr and alloc are evaluated more than once.
 */
#define ALLOC_GROW(x, nr, alloc)                                          \
	do {                                                              \
		if ((size_t)(nr) > (size_t)(alloc)) {                     \
			size_t alloc_grow_n__ = (size_t)(alloc) < 8 ?     \
				16 : st_add((size_t)(alloc), (size_t)(alloc) / 2); \
			if (alloc_grow_n__ < (size_t)(nr))                \
				alloc_grow_n__ = (size_t)(nr);            \
			(x) = xreallocarray((x), alloc_grow_n__, sizeof(*(x))); \
			(alloc) = alloc_grow_n__;                         \
		}                                                         \
	} while (0)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
