/*
 * A growable string buffer.
 *
 * Invariants: buf is never NULL and is always NUL-terminated, len is the
 * length of the string in it, and len never exceeds the cap given at init
 * (appends past it are cut short and set "truncated"), so a name read from
 * a hostile file cannot grow a buffer without bound. SBUF_INIT gives an
 * empty buffer with the default cap.
 */
#ifndef JITSYM_SBUF_H
#define JITSYM_SBUF_H

#include <stdbool.h>
#include <stddef.h>

/* Caps, in one place. */
#define SBUF_MAX_DEFAULT (64u << 20)
#define SBUF_MAX_SYMNAME (64u << 10)
#define SBUF_MAX_LINE    (1u << 20)

struct sbuf {
	char *buf;
	size_t len;
	size_t alloc;
	size_t max;
	bool truncated;
};

extern char sbuf_empty[];
#define SBUF_INIT { sbuf_empty, 0, 0, SBUF_MAX_DEFAULT, false }

void sbuf_init(struct sbuf *sb, size_t max);
void sbuf_release(struct sbuf *sb);
void sbuf_reset(struct sbuf *sb);
/* Cut to len bytes (len <= sb->len). */
void sbuf_setlen(struct sbuf *sb, size_t len);
void sbuf_add(struct sbuf *sb, const void *data, size_t len);
void sbuf_addstr(struct sbuf *sb, const char *s);
void sbuf_addch(struct sbuf *sb, char c);
void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Hand the string over to the caller (free() it); sb is left empty. */
char *sbuf_detach(struct sbuf *sb, size_t *len);

#endif
