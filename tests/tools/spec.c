/*
 * spec: the spec language and output plumbing that mkperf and mkjitdump
 * share; see spec.h.
 */
#define _GNU_SOURCE
#include <byteswap.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spec.h"

/* ---- Messages and memory ------------------------------------------------ */

static void vreport(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* "PROG: " or "PROG: prefix", the message, a newline. */
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", spec_prog, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(SPEC_EXIT_DATA);
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory");
	return q;
}

/* ---- Output buffers ----------------------------------------------------- */

/* n more bytes at the end of b, to be written by the caller. */
static uint8_t *buf__room(struct buf *b, size_t n)
{
	uint8_t *at;

	if (n > SPEC_MAX_OUTPUT - b->len)
		die("output larger than %zu bytes", SPEC_MAX_OUTPUT);
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;

		while (cap < b->len + n)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	at = b->p + b->len;
	b->len += n;
	return at;
}

void buf__put(struct buf *b, const void *src, size_t n)
{
	if (n)
		memcpy(buf__room(b, n), src, n);
}

void buf__fill(struct buf *b, int byte, size_t n)
{
	if (n)
		memset(buf__room(b, n), byte, n);
}

void buf__zero(struct buf *b, size_t n)
{
	buf__fill(b, 0, n);
}

void buf__u8(struct buf *b, uint8_t v)
{
	buf__put(b, &v, 1);
}

void buf__u16(struct buf *b, uint16_t v)
{
	if (b->swap)
		v = bswap_16(v);
	buf__put(b, &v, sizeof(v));
}

void buf__u32(struct buf *b, uint32_t v)
{
	if (b->swap)
		v = bswap_32(v);
	buf__put(b, &v, sizeof(v));
}

void buf__u64(struct buf *b, uint64_t v)
{
	if (b->swap)
		v = bswap_64(v);
	buf__put(b, &v, sizeof(v));
}

void buf__set_u16(struct buf *b, size_t at, uint16_t v)
{
	if (b->swap)
		v = bswap_16(v);
	memcpy(b->p + at, &v, sizeof(v));
}

void buf__set_u32(struct buf *b, size_t at, uint32_t v)
{
	if (b->swap)
		v = bswap_32(v);
	memcpy(b->p + at, &v, sizeof(v));
}

void buf__set_u64(struct buf *b, size_t at, uint64_t v)
{
	if (b->swap)
		v = bswap_64(v);
	memcpy(b->p + at, &v, sizeof(v));
}

void buf__release(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* ---- Values ------------------------------------------------------------- */

uint64_t opt_or(struct opt_u64 o, uint64_t def)
{
	return o.set ? o.v : def;
}

int parse_num(const char *s, unsigned bits, uint64_t *out)
{
	uint64_t max = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	bool neg = *s == '-';
	const char *digits = neg ? s + 1 : s;
	char *end;
	uint64_t v;

	if (!isdigit((unsigned char)*digits))
		return -1;
	errno = 0;
	v = strtoull(digits, &end, 0);
	if (errno || *end)
		return -1;
	if (!neg) {
		if (v > max)
			return -1;
		*out = v;
		return 0;
	}
	if (v > (UINT64_C(1) << (bits - 1)))
		return -1;
	*out = (0 - v) & max;
	return 0;
}

int name_val__find(const struct name_val *t, const char *name, uint64_t *out)
{
	for (; t && t->name; t++) {
		if (!strcasecmp(t->name, name)) {
			*out = t->val;
			return 0;
		}
	}
	return -1;
}

int list__next(const char **s, const char *seps, char *item, size_t max)
{
	const char *p = *s, *end;
	size_t n;

	if (!*p)
		return 0;
	end = strpbrk(p, seps);
	n = end ? (size_t)(end - p) : strlen(p);
	if (n >= max)
		return -1;
	memcpy(item, p, n);
	item[n] = '\0';
	*s = end ? end + 1 : p + n;
	return 1;
}

int parse_flags(const char *s, const struct name_val *t, uint64_t *out)
{
	char item[SPEC_MAX_ITEM];
	uint64_t v, acc = 0;
	int r;

	if (!*s)
		return -1;
	while ((r = list__next(&s, ",|", item, sizeof(item))) > 0) {
		if (name_val__find(t, item, &v) < 0 &&
		    parse_num(item, 64, &v) < 0)
			return -1;
		acc |= v;
	}
	if (r < 0)
		return -1;
	*out = acc;
	return 0;
}

int parse_hex(const char *s, struct buf *out)
{
	size_t i, n = strlen(s);

	if (n % 2)
		return -1;
	for (i = 0; i < n; i += 2) {
		char pair[3] = { s[i], s[i + 1], '\0' };

		if (!isxdigit((unsigned char)pair[0]) ||
		    !isxdigit((unsigned char)pair[1]))
			return -1;
		buf__u8(out, (uint8_t)strtoul(pair, NULL, 16));
	}
	return 0;
}

/* ---- Spec lines --------------------------------------------------------- */

int line__error(struct line *l, const char *fmt, ...)
{
	va_list ap;

	if (l->err)
		return -1;	/* report only the first problem of a line */
	fprintf(stderr, "%s: %s:%u: ", spec_prog, l->path, l->no);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	l->err = true;
	return -1;
}

/*
 * Split text into words at blanks. A '"' toggles quoting (and is dropped),
 * so a quoted part may hold blanks; '#' at the start of a word, outside
 * quotes, starts a comment.
 */
static int line__split(struct line *l, char *text)
{
	char *r = text, *w = text;

	l->nword = 0;
	l->nkv = 0;
	for (;;) {
		bool quoted = false;
		char end;

		while (isspace((unsigned char)*r))
			r++;
		if (!*r || *r == '#')
			return 0;
		if (l->nword == SPEC_MAX_WORDS)
			return line__error(l, "more than %d words",
					   SPEC_MAX_WORDS);
		l->word[l->nword++] = w;
		for (; *r && (quoted || !isspace((unsigned char)*r)); r++) {
			if (*r == '"')
				quoted = !quoted;
			else
				*w++ = *r;
		}
		if (quoted)
			return line__error(l, "unterminated '\"'");
		end = *r;
		*w++ = '\0';
		if (end)
			r++;
	}
}

int line__pairs(struct line *l)
{
	size_t i, j;

	l->nkv = 0;
	for (i = 1; i < l->nword; i++) {
		char *eq = strchr(l->word[i], '=');

		if (!eq || eq == l->word[i])
			return line__error(l, "expected KEY=VALUE, got '%s'",
					   l->word[i]);
		*eq = '\0';
		for (j = 0; j < l->nkv; j++)
			if (!strcmp(l->kv[j].key, l->word[i]))
				return line__error(l, "key '%s' given twice",
						   l->word[i]);
		l->kv[l->nkv].key = l->word[i];
		l->kv[l->nkv].val = eq + 1;
		l->kv[l->nkv].used = false;
		l->nkv++;
	}
	return 0;
}

const char *line__str(struct line *l, const char *key)
{
	size_t i;

	for (i = 0; i < l->nkv; i++) {
		if (!strcmp(l->kv[i].key, key)) {
			l->kv[i].used = true;
			return l->kv[i].val;
		}
	}
	return NULL;
}

bool line__has(struct line *l, const char *key)
{
	return line__str(l, key) != NULL;
}

const char *line__cstr(struct line *l, const char *key)
{
	const char *v = line__str(l, key);

	return v ? v : "";
}

uint64_t line__num(struct line *l, const char *key, unsigned bits,
		   uint64_t def)
{
	const char *v = line__str(l, key);
	uint64_t n;

	if (!v)
		return def;
	if (parse_num(v, bits, &n) < 0) {
		line__error(l, "bad value '%s' for '%s': expected a %u-bit number",
			    v, key, bits);
		return def;
	}
	return n;
}

uint64_t line__flags(struct line *l, const char *key,
		     const struct name_val *names, unsigned bits, uint64_t def)
{
	const char *v = line__str(l, key);
	uint64_t n;

	if (!v)
		return def;
	if (parse_flags(v, names, &n) < 0 || (bits < 64 && n >> bits)) {
		line__error(l, "bad value '%s' for '%s': expected names or numbers joined by ',' or '|'",
			    v, key);
		return def;
	}
	return n;
}

bool line__hex(struct line *l, const char *key, struct buf *out)
{
	const char *v = line__str(l, key);

	if (!v)
		return false;
	if (parse_hex(v, out) < 0) {
		line__error(l, "bad value for '%s': expected an even number of hex digits",
			    key);
		return false;
	}
	return true;
}

int line__finish(struct line *l)
{
	size_t i;

	for (i = 0; i < l->nkv; i++) {
		const char *key = l->kv[i].key, *verb = l->word[0];

		if (l->kv[i].used)
			continue;
		if (l->unused_hint)
			return line__error(l, "key '%s' is not used by '%s' (%s)",
					   key, verb, l->unused_hint);
		return line__error(l, "key '%s' is not used by '%s'",
				   key, verb);
	}
	return l->err ? -1 : 0;
}

/* ---- Reading the spec --------------------------------------------------- */

FILE *input__open(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;

	if (!f)
		error("cannot open '%s': %s", path, strerror(errno));
	return f;
}

void input__close(FILE *f)
{
	if (f != stdin)
		fclose(f);
}

void spec_reader__init(struct spec_reader *r, FILE *f, const char *path)
{
	memset(r, 0, sizeof(*r));
	r->f = f;
	r->text = xrealloc(NULL, SPEC_MAX_LINE);
	r->line = xrealloc(NULL, sizeof(*r->line));
	memset(r->line, 0, sizeof(*r->line));
	r->line->path = path;
}

/*
 * Like fgets(): up to max - 1 bytes, through the first '\n', then a NUL.
 * Unlike it, the count it returns tells NUL bytes from the end.
 */
static size_t read_line(FILE *f, char *text, size_t max)
{
	size_t n = 0;
	int c;

	while (n < max - 1 && (c = getc(f)) != EOF) {
		text[n++] = (char)c;
		if (c == '\n')
			break;
	}
	text[n] = '\0';
	return n;
}

/*
 * Check the n bytes just read: a line too long for the buffer (it filled
 * it and goes on), or one that holds a NUL byte.
 */
static int spec_reader__check(struct spec_reader *r, size_t n)
{
	bool cut = n == SPEC_MAX_LINE - 1 && r->text[n - 1] != '\n';
	bool nul = memchr(r->text, '\0', n) != NULL;

	if (nul && r->nul_ends_line)
		return 0;
	if (cut)
		return line__error(r->line, "line longer than %d bytes",
				   SPEC_MAX_LINE - 2);
	if (nul)
		return line__error(r->line, "NUL byte in the line");
	return 0;
}

int spec_reader__next(struct spec_reader *r)
{
	struct line *l = r->line;

	for (;;) {
		size_t n = read_line(r->f, r->text, SPEC_MAX_LINE);

		if (ferror(r->f))
			return error("cannot read '%s': %s", l->path,
				     strerror(errno));
		if (!n)
			return 0;
		l->no++;
		l->err = false;
		if (spec_reader__check(r, n) < 0 || line__split(l, r->text) < 0)
			return -1;
		if (l->nword)
			return 1;
	}
}

void spec_reader__exit(struct spec_reader *r)
{
	free(r->text);
	free(r->line);
	r->text = NULL;
	r->line = NULL;
}

/* ---- Output ------------------------------------------------------------- */

int truncation__parse(struct truncation *t, struct line *l)
{
	const char *n = l->nword == 2 ? l->word[1] : "";

	if (t->set)
		return line__error(l, "truncate given twice");
	t->from_end = *n == '-';
	if (parse_num(t->from_end ? n + 1 : n, 64, &t->n) < 0)
		return line__error(l, "expected: truncate OFFSET, or truncate -BYTES");
	t->set = true;
	return 0;
}

int truncation__apply(const struct truncation *t, struct buf *out)
{
	if (!t->set)
		return 0;
	if (t->n > out->len)
		return error("truncate %s%llu: the output is only %zu bytes",
			     t->from_end ? "-" : "", (unsigned long long)t->n,
			     out->len);
	out->len = t->from_end ? out->len - (size_t)t->n : (size_t)t->n;
	return 0;
}

int output__write(const char *path, const struct buf *out)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
	int ret = 0;

	if (!f)
		return error("cannot create '%s': %s", path, strerror(errno));
	if (out->len && fwrite(out->p, 1, out->len, f) != out->len)
		ret = error("cannot write '%s': %s", path, strerror(errno));
	if ((f == stdout ? fflush(f) : fclose(f)) && !ret)
		ret = error("cannot write '%s': %s", path, strerror(errno));
	return ret;
}
