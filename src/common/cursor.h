/*
 * cursor: the one bounded reader of untrusted bytes (perf.data records and
 * feature sections, the tracing data container, a JIT's .eh_frame, kernel
 * notes). A read that does not fit fails instead of reading past the end:
 * it returns 0 (or NULL), reads nothing, and marks the cursor bad, after
 * which every read fails; the caller checks c->bad (or err) once, after a
 * run of reads, rather than after each one.
 *
 * Numbers are read in host byte order, or swapped when c->swap is set
 * (cursor_make_order() sets it from the data's byte order). The first
 * failure is kept with its offset from the start: CURSOR_E_SHORT for a
 * read past the end, or a code the caller gives cursor_fail() (a reader's
 * own error enum, whose "cut short" code must then equal CURSOR_E_SHORT).
 *
 * The cursor only points at the bytes, which the caller owns and keeps
 * alive. No allocation, no state of its own: any thread may use its own
 * cursor.
 */
#ifndef JITSYM_CURSOR_H
#define JITSYM_CURSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { CURSOR_OK = 0, CURSOR_E_SHORT = 1 };

struct cursor {
	const uint8_t *base, *p;   /* the first byte; the next one to read */
	size_t left;               /* bytes from p to the end */
	bool swap;                 /* numbers are in the other byte order */
	bool bad;                  /* set by the first failure */
	int err;                   /* that failure's code (CURSOR_OK: none) */
	size_t err_off;            /* and its offset from base */
};

/* A cursor over len bytes at p; numbers byte-swapped when swap. */
static inline struct cursor cursor_make(const void *p, size_t len, bool swap)
{
	struct cursor c = { p, p, len, swap, false, CURSOR_OK, 0 };

	return c;
}

static inline bool cursor_host_big_endian(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* A cursor over len bytes at p whose numbers are big-endian when big. */
static inline struct cursor cursor_make_order(const void *p, size_t len, bool big)
{
	return cursor_make(p, len, big != cursor_host_big_endian());
}

/* The offset of the next byte from the start. */
static inline size_t cursor_offset(const struct cursor *c)
{
	return (size_t)(c->p - c->base);
}

/*
 * Mark the cursor failed with err at the current offset (the first failure
 * is kept); no bytes are left after it. Returns false.
 */
static inline bool cursor_fail(struct cursor *c, int err)
{
	if (!c->bad) {
		c->bad = true;
		c->err = err;
		c->err_off = cursor_offset(c);
	}
	c->left = 0;
	return false;
}

/* Whether n more bytes are there; when not, the cursor goes bad (CURSOR_E_SHORT). */
static inline bool cursor_need(struct cursor *c, uint64_t n)
{
	if (c->bad || n > c->left) {
		if (!c->bad) {
			c->bad = true;
			c->err = CURSOR_E_SHORT;
			c->err_off = cursor_offset(c);
		}
		return false;
	}
	return true;
}

/* The next n bytes (in the caller's buffer), or NULL. */
static inline const uint8_t *cursor_bytes(struct cursor *c, uint64_t n)
{
	const uint8_t *p = c->p;

	if (!cursor_need(c, n))
		return NULL;
	c->p += n;
	c->left -= (size_t)n;
	return p;
}

static inline void cursor_skip(struct cursor *c, uint64_t n)
{
	cursor_bytes(c, n);
}

static inline uint8_t cursor_u8(struct cursor *c)
{
	const uint8_t *p = cursor_bytes(c, 1);

	return p ? *p : 0;
}

/* Copy the next n bytes to v (untouched when they are not there). */
static inline void cursor_copy(struct cursor *c, void *v, size_t n)
{
	const uint8_t *p = cursor_bytes(c, n);

	if (p)
		memcpy(v, p, n);
}

static inline uint32_t cursor_u32(struct cursor *c)
{
	uint32_t v = 0;

	cursor_copy(c, &v, 4);
	return c->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t cursor_u64(struct cursor *c)
{
	uint64_t v = 0;

	cursor_copy(c, &v, 8);
	return c->swap ? __builtin_bswap64(v) : v;
}

/* An unsigned LEB128 (or a signed one's bits); one longer than 10 bytes fails (CURSOR_E_SHORT). */
static inline uint64_t cursor_uleb(struct cursor *c)
{
	unsigned shift = 0;
	uint64_t v = 0;
	uint8_t b;

	do {
		b = cursor_u8(c);
		if (c->bad)
			return 0;
		if (shift > 63) {
			cursor_fail(c, CURSOR_E_SHORT);
			return 0;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return v;
}

/*
 * A NUL-terminated string of at most max bytes before the NUL, the NUL
 * consumed. Fails with CURSOR_E_SHORT when the bytes end first, with
 * too_long when more than max bytes come before a NUL.
 */
static inline const char *cursor_cstr(struct cursor *c, size_t max, int too_long)
{
	size_t lim = c->left < max + 1 ? c->left : max + 1;
	const uint8_t *nul = c->bad ? NULL : memchr(c->p, '\0', lim);

	if (!nul) {
		cursor_fail(c, c->left <= max ? CURSOR_E_SHORT : too_long);
		return NULL;
	}
	return (const char *)cursor_bytes(c, (size_t)(nul - c->p) + 1);
}

#endif
