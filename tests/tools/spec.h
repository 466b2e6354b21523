/*
 * spec: what mkperf and mkjitdump share. Each reads a line-oriented text
 * spec and writes one binary file; this is the spec language they both
 * speak (lines of words, KEY=VALUE pairs, numbers, flag names, hex bytes)
 * and the plumbing around it (messages, the output buffer, reading the
 * spec, truncating and writing the output).
 *
 * The language: one statement per line, a verb then words. Words are split
 * at blanks; '"' toggles quoting (and is dropped), so a quoted part keeps
 * its blanks; '#' at the start of a word starts a comment. Numbers are
 * decimal or 0x hex; a negative one is stored in two's complement at the
 * field's width.
 *
 * Error convention: a function that fails prints why on stderr, prefixed
 * with "PROG: " (spec_prog) or "PROG: FILE:LINE: " (line__error()), and
 * returns -1, or NULL for a pointer; the line getters return their default
 * instead (see struct line). die() is for running out of memory or output
 * room; it exits with SPEC_EXIT_DATA.
 */
#ifndef JITSYM_TESTS_TOOLS_SPEC_H
#define JITSYM_TESTS_TOOLS_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- Limits ------------------------------------------------------------- */

enum spec_exit {
	SPEC_EXIT_OK = 0,
	SPEC_EXIT_USAGE = 1,		/* bad command line */
	SPEC_EXIT_DATA = 2,		/* bad spec, or cannot read or write */
};

enum {
	SPEC_MAX_LINE = 1 << 16,	/* bytes in a line: this - 2 at most */
	SPEC_MAX_WORDS = 256,		/* words on one line */
	SPEC_MAX_ITEM = 128,		/* bytes in one item of a list */
};
#define SPEC_MAX_OUTPUT ((size_t)1 << 30)	/* bytes in one struct buf */

/* ---- Messages and memory ------------------------------------------------ */

/* The program name that starts every message; each tool defines it. */
extern const char spec_prog[];

/* "PROG: message" on stderr; returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: warning: message" on stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: message" on stderr, then exit(SPEC_EXIT_DATA). */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* realloc() that dies instead of returning NULL; n may be 0. */
void *xrealloc(void *p, size_t n);

/* ---- Output buffers ----------------------------------------------------- */

/*
 * A growable byte buffer. p is NULL until the first write; len never
 * passes SPEC_MAX_OUTPUT (die() if it would). With swap set, the
 * buf__uN() and buf__set_uN() writers store values in the opposite byte
 * order; bytes and strings are never swapped.
 */
struct buf {
	uint8_t *p;
	size_t len, cap;
	bool swap;
};

void buf__put(struct buf *b, const void *src, size_t n);
void buf__fill(struct buf *b, int byte, size_t n);
void buf__zero(struct buf *b, size_t n);
void buf__u8(struct buf *b, uint8_t v);
void buf__u16(struct buf *b, uint16_t v);
void buf__u32(struct buf *b, uint32_t v);
void buf__u64(struct buf *b, uint64_t v);
/* Overwrite a value already in the buffer, at byte offset at. */
void buf__set_u16(struct buf *b, size_t at, uint16_t v);
void buf__set_u32(struct buf *b, size_t at, uint32_t v);
void buf__set_u64(struct buf *b, size_t at, uint64_t v);
/* Free the bytes; the buffer is empty and reusable, swap is kept. */
void buf__release(struct buf *b);

/* ---- Values ------------------------------------------------------------- */

/* A table of names, ended by { NULL, 0 }. */
struct name_val {
	const char *name;
	uint64_t val;
};

/* An optional value: set only when the spec gives it. */
struct opt_u64 {
	bool set;
	uint64_t v;
};

uint64_t opt_or(struct opt_u64 o, uint64_t def);

/*
 * A decimal or 0x number that fits bits (1..64), or a negative one stored
 * in two's complement within bits (-1 is all ones). 0, or -1 on trailing
 * junk, a missing digit or a value out of range.
 */
int parse_num(const char *s, unsigned bits, uint64_t *out);
/* Names from t (case-insensitive) or numbers, joined by ',' or '|', or'ed. */
int parse_flags(const char *s, const struct name_val *t, uint64_t *out);
/* Append the bytes of an even-length hex string ("00ab12") to out. */
int parse_hex(const char *s, struct buf *out);
/* The value of name in t (case-insensitive; t may be NULL): 0, or -1. */
int name_val__find(const struct name_val *t, const char *name, uint64_t *out);
/*
 * Copy the next item of the list at *s, items separated by any of seps,
 * into item (max bytes with its NUL) and move *s past it. Returns 1 for an
 * item, 0 at the end, -1 if the item does not fit.
 */
int list__next(const char **s, const char *seps, char *item, size_t max);

/* ---- Spec lines --------------------------------------------------------- */

struct kv {
	const char *key, *val;
	bool used;			/* read by the verb */
};

/*
 * One spec line, split in place into words; key=value verbs also get kv[]
 * from line__pairs(). The getters mark keys used and, on a bad value,
 * print the error, set err and return the default, so that a verb checks
 * once at the end, with line__finish(), which also rejects the keys that
 * nothing read. Only the first error of a line is printed.
 */
struct line {
	const char *path;
	unsigned int no;		/* 1-based */
	char *word[SPEC_MAX_WORDS];
	size_t nword;
	struct kv kv[SPEC_MAX_WORDS];
	size_t nkv;
	bool err;
	/* said in parentheses after "key 'K' is not used by 'VERB'"; or NULL */
	const char *unused_hint;
};

/* "PROG: PATH:NO: message", unless the line already had an error; -1. */
int line__error(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Split the words after the verb into kv[]; -1 on a word with no key. */
int line__pairs(struct line *l);

/* key's value, or NULL if the line has no such key. */
const char *line__str(struct line *l, const char *key);
bool line__has(struct line *l, const char *key);
/* key's value, or "" if absent. */
const char *line__cstr(struct line *l, const char *key);
/* key's value as parse_num() within bits; def if absent or bad. */
uint64_t line__num(struct line *l, const char *key, unsigned bits,
		   uint64_t def);
/*
 * key's value as parse_flags() with names, within bits; def if absent or
 * bad.
 */
uint64_t line__flags(struct line *l, const char *key,
		     const struct name_val *names, unsigned bits, uint64_t def);
/* key's hex bytes appended to out; false if absent or bad. */
bool line__hex(struct line *l, const char *key, struct buf *out);
/* Reject unread keys; -1 if the line had any error. */
int line__finish(struct line *l);

#define line__u64(l, key, def) line__num((l), (key), 64, (def))
#define line__u32(l, key, def) ((uint32_t)line__num((l), (key), 32, (def)))
#define line__u16(l, key, def) ((uint16_t)line__num((l), (key), 16, (def)))
#define line__bool(l, key, def) (line__num((l), (key), 1, (def)) != 0)

/* ---- Reading the spec --------------------------------------------------- */

/* path, or stdin for "-"; NULL after printing why it cannot be opened. */
FILE *input__open(const char *path);
/* Close f unless it is stdin. */
void input__close(FILE *f);

/*
 * Reads a spec from a stream, one line at a time, into line. Lines are
 * numbered from 1 and counted whether they hold words or not.
 */
struct spec_reader {
	FILE *f;
	char *text;			/* the line; line->word[] point in it */
	struct line *line;
	/*
	 * false: a NUL byte in a line is an error. true, as mkperf has always
	 * read its specs (with fgets()): the line's words end at its first
	 * NUL, and such a line is never too long: what follows its first
	 * SPEC_MAX_LINE - 1 bytes is read as the next line.
	 */
	bool nul_ends_line;
};

/* Read f, named path in messages; the line and text are allocated here. */
void spec_reader__init(struct spec_reader *r, FILE *f, const char *path);
/*
 * The next line that has words into r->line, split. 1 for a line, 0 at
 * the end, -1 after printing the error: a line longer than
 * SPEC_MAX_LINE - 2 bytes, a NUL byte, a '"' left open, more than
 * SPEC_MAX_WORDS words, or a read error.
 */
int spec_reader__next(struct spec_reader *r);
/* Free the line and text; f stays open. */
void spec_reader__exit(struct spec_reader *r);

/* ---- Output ------------------------------------------------------------- */

/* "truncate N" ends the output at byte N; "truncate -N" drops N bytes. */
struct truncation {
	bool set, from_end;
	uint64_t n;
};

/* The words of a truncate line; -1 if bad or given twice. */
int truncation__parse(struct truncation *t, struct line *l);
/* Shorten out as t says (if set); -1 if out is shorter than that. */
int truncation__apply(const struct truncation *t, struct buf *out);
/* Write out to path, or stdout for "-". */
int output__write(const char *path, const struct buf *out);

#endif
