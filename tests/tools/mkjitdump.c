/*
 * mkjitdump: write a jitdump file (jit-PID.dump) described by a small text
 * spec, so that jitsym's tests can build exact JIT event sequences to go
 * with the perf.data files that mkperf writes. The spec language is
 * documented in tests/tools/mkjitdump.md.
 *
 *   mkjitdump [--swap] SPEC OUT     (SPEC, OUT "-": stdin, stdout)
 *
 * The layout follows the kernel's
 * tools/perf/Documentation/jitdump-specification.txt; no installed header
 * declares it, so the sizes are spelled out here under mkjitdump names.
 *
 * The spec is read twice: first its header lines, so that a record
 * anywhere can default its pid to the header's; then every other line,
 * records encoded in spec order as they are read. The file header is
 * built last, since its pid and timestamp default to the records'. Every
 * multi-byte field goes through struct buf, which writes it in the other
 * byte order under --swap.
 *
 * It is one file, like mkperf, so that it builds with one compiler command
 * and no library; everything is static, in sections: limits and formats,
 * messages, buffers, values, spec lines, the spec, the header, records,
 * reading, output, main.
 *
 * Exit codes: 0 ok, 1 bad command line, 2 bad spec or I/O error.
 */
#define _GNU_SOURCE
#include <byteswap.h>
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- Limits and formats ------------------------------------------------ */

enum mkjitdump_exit {
	MKJITDUMP_EXIT_OK = 0,
	MKJITDUMP_EXIT_USAGE = 1,	/* bad command line */
	MKJITDUMP_EXIT_DATA = 2,	/* bad spec, or cannot read or write */
};

enum {
	MKJITDUMP_MAX_LINE = 1 << 16,	/* bytes in one spec line */
	MKJITDUMP_MAX_WORDS = 256,	/* words on one spec line */
	MKJITDUMP_MAX_ITEM = 128,	/* bytes in one number of a list */
};
#define MKJITDUMP_MAX_SPEC ((size_t)64 << 20)
#define MKJITDUMP_MAX_OUTPUT ((size_t)1 << 30)

/*
 * The file header: u32 magic, version, total_size, elf_mach, pad1, pid;
 * u64 timestamp, flags. Each record: u32 id, total_size; u64 timestamp;
 * then its payload.
 */
#define MKJITDUMP_MAGIC 0x4A695444u	/* "JiTD" as a u32 */
#define MKJITDUMP_HEADER_SIZE 40u
#define MKJITDUMP_RECORD_HEADER_SIZE 16u
#define MKJITDUMP_VERSION 1u		/* what V8 and perf's JVMTI agent write */
#define MKJITDUMP_FLAGS_ARCH_TIMESTAMP 1u
#define MKJITDUMP_CODE_FILL 0xcc	/* load size= without code=: int3 */

enum mkjitdump_id {
	MKJITDUMP_CODE_LOAD = 0,
	MKJITDUMP_CODE_MOVE = 1,
	MKJITDUMP_CODE_DEBUG_INFO = 2,
	MKJITDUMP_CODE_CLOSE = 3,
	MKJITDUMP_CODE_UNWINDING_INFO = 4,
};

/* ---- Messages and memory ----------------------------------------------- */

static int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

static int error(const char *fmt, ...)
{
	va_list ap;

	fputs("mkjitdump: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("mkjitdump: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(MKJITDUMP_EXIT_DATA);
}

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die("out of memory");
	return q;
}

/* ---- Output buffers ---------------------------------------------------- */

/*
 * A growable byte buffer. p is NULL until the first write; len never
 * passes MKJITDUMP_MAX_OUTPUT (die() if it would). With swap set, the
 * buf__uN() writers store values in the opposite byte order; bytes and
 * strings are never swapped.
 */
struct buf {
	uint8_t *p;
	size_t len, cap;
	bool swap;
};

static uint8_t *buf__room(struct buf *b, size_t n)
{
	uint8_t *at;

	if (n > MKJITDUMP_MAX_OUTPUT - b->len)
		die("output larger than %zu bytes", MKJITDUMP_MAX_OUTPUT);
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

static void buf__put(struct buf *b, const void *src, size_t n)
{
	if (n)
		memcpy(buf__room(b, n), src, n);
}

static void buf__fill(struct buf *b, int byte, size_t n)
{
	if (n)
		memset(buf__room(b, n), byte, n);
}

static void buf__u8(struct buf *b, uint8_t v)
{
	buf__put(b, &v, 1);
}

static void buf__u32(struct buf *b, uint32_t v)
{
	if (b->swap)
		v = bswap_32(v);
	buf__put(b, &v, sizeof(v));
}

static void buf__u64(struct buf *b, uint64_t v)
{
	if (b->swap)
		v = bswap_64(v);
	buf__put(b, &v, sizeof(v));
}

static void buf__set_u32(struct buf *b, size_t at, uint32_t v)
{
	if (b->swap)
		v = bswap_32(v);
	memcpy(b->p + at, &v, sizeof(v));
}

static void buf__set_u64(struct buf *b, size_t at, uint64_t v)
{
	if (b->swap)
		v = bswap_64(v);
	memcpy(b->p + at, &v, sizeof(v));
}

static void buf__release(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* ---- Values: numbers, names, hex --------------------------------------- */

struct name_val {
	const char *name;
	uint64_t val;
};

/*
 * A decimal or 0x number, or a negative one stored in two's complement
 * within bits; -1 is the all-ones value. Fails on trailing junk or range.
 */
static int parse_num(const char *s, unsigned bits, uint64_t *out)
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

static int name_val__find(const struct name_val *t, const char *name,
			  uint64_t *out)
{
	for (; t && t->name; t++) {
		if (!strcasecmp(t->name, name)) {
			*out = t->val;
			return 0;
		}
	}
	return -1;
}

/*
 * Copy the next item of the list at *s, items separated by any of seps,
 * into item. Returns 1 for an item, 0 at the end, -1 if it is too long.
 */
static int list__next(const char **s, const char *seps, char *item,
		      size_t max)
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

/* Names from t or numbers, joined by ',' or '|', or'ed together. */
static int parse_flags(const char *s, const struct name_val *t, uint64_t *out)
{
	char item[MKJITDUMP_MAX_ITEM];
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

/* Append the bytes of an even-length hex string ("00ab12") to out. */
static int parse_hex(const char *s, struct buf *out)
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

static const struct name_val elf_mach_names[] = {
	{ "x86_64", EM_X86_64 }, { "i386", EM_386 }, { "aarch64", EM_AARCH64 },
	{ "arm", EM_ARM }, { "ppc64", EM_PPC64 }, { "s390", EM_S390 },
	{ "riscv", EM_RISCV }, { "mips", EM_MIPS },
	{ NULL, 0 }
};

static const struct name_val header_flag_names[] = {
	{ "arch_timestamp", MKJITDUMP_FLAGS_ARCH_TIMESTAMP },
	{ NULL, 0 }
};

/* ---- Spec lines --------------------------------------------------------- */

struct kv {
	const char *key, *val;
	bool used;			/* read by the verb */
};

/*
 * One spec line, split in place into words; key=value verbs also get kv[].
 * Getters mark keys used and, on a bad value, print the error and set err
 * (sticky), returning the default, so a verb checks err once at the end
 * with line__finish(), which also rejects keys nobody read.
 */
struct line {
	const char *path;
	unsigned int no;
	char *word[MKJITDUMP_MAX_WORDS];
	size_t nword;
	struct kv kv[MKJITDUMP_MAX_WORDS];
	size_t nkv;
	bool err;
};

static int line__error(struct line *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int line__error(struct line *l, const char *fmt, ...)
{
	va_list ap;

	if (l->err)
		return -1;	/* report only the first problem of a line */
	fprintf(stderr, "mkjitdump: %s:%u: ", l->path, l->no);
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
	for (;;) {
		bool quoted = false;
		char end;

		while (isspace((unsigned char)*r))
			r++;
		if (!*r || *r == '#')
			return 0;
		if (l->nword == MKJITDUMP_MAX_WORDS)
			return line__error(l, "more than %d words",
					   MKJITDUMP_MAX_WORDS);
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

/* Split the words after the verb into key=value pairs. */
static int line__pairs(struct line *l)
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

static const char *line__str(struct line *l, const char *key)
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

static bool line__has(struct line *l, const char *key)
{
	return line__str(l, key) != NULL;
}

static const char *line__cstr(struct line *l, const char *key)
{
	const char *v = line__str(l, key);

	return v ? v : "";
}

static uint64_t line__num(struct line *l, const char *key, unsigned bits,
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

#define line__u64(l, key, def) line__num((l), (key), 64, (def))
#define line__u32(l, key, def) ((uint32_t)line__num((l), (key), 32, (def)))
#define line__bool(l, key, def) (line__num((l), (key), 1, (def)) != 0)

/* A name from names, or a number. */
static uint64_t line__enum(struct line *l, const char *key,
			   const struct name_val *names, unsigned bits,
			   uint64_t def)
{
	const char *v = line__str(l, key);
	uint64_t n;

	if (!v)
		return def;
	if (name_val__find(names, v, &n) < 0 && parse_num(v, bits, &n) < 0) {
		line__error(l, "bad value '%s' for '%s': expected a name or a %u-bit number",
			    v, key, bits);
		return def;
	}
	return n;
}

static uint64_t line__flags(struct line *l, const char *key,
			    const struct name_val *names, uint64_t def)
{
	const char *v = line__str(l, key);
	uint64_t n;

	if (!v)
		return def;
	if (parse_flags(v, names, &n) < 0) {
		line__error(l, "bad value '%s' for '%s': expected names or numbers joined by ',' or '|'",
			    v, key);
		return def;
	}
	return n;
}

/* A hex value for key, appended to out; false if absent or bad. */
static bool line__hex(struct line *l, const char *key, struct buf *out)
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

/* Reject unread keys; -1 if this line had any error. */
static int line__finish(struct line *l)
{
	size_t i;

	for (i = 0; i < l->nkv; i++) {
		if (!l->kv[i].used)
			return line__error(l, "key '%s' is not used by '%s'",
					   l->kv[i].key, l->word[0]);
	}
	return l->err ? -1 : 0;
}

/* ---- The spec ----------------------------------------------------------- */

/* An optional value: set only when the spec gives it. */
struct opt_u64 {
	bool set;
	uint64_t v;
};

static uint64_t opt_or(struct opt_u64 o, uint64_t def)
{
	return o.set ? o.v : def;
}

/* The file header as the header lines give it; see mkjitdump.md. */
struct header_def {
	struct opt_u64 version, total_size, elf_mach, pad1, pid, timestamp;
	struct opt_u64 flags;
	char magic[4];
	bool has_magic;
	struct buf ext;			/* bytes after the 40 known ones */
	bool has_ext;
};

struct spec {
	const char *path;
	bool swap;
	struct header_def hdr;
	struct buf records;		/* encoded records, back to back */
	size_t nr_recs, nr_loads;
	uint64_t first_time;		/* of the first record */
	struct opt_u64 first_pid;	/* of the first load or move */
	struct {
		bool set, from_end;
		uint64_t n;
	} trunc;
};

/* ---- The header --------------------------------------------------------- */

static const struct header_key {
	const char *key;
	size_t off;			/* of the opt_u64 in struct header_def */
	unsigned bits;
	const struct name_val *names;	/* a name or a number */
	bool flags;			/* names joined by ',' or '|' */
} header_keys[] = {
	{ "version", offsetof(struct header_def, version), 32, NULL, false },
	{ "total_size", offsetof(struct header_def, total_size), 32, NULL, false },
	{ "elf_mach", offsetof(struct header_def, elf_mach), 32, elf_mach_names, false },
	{ "pad1", offsetof(struct header_def, pad1), 32, NULL, false },
	{ "pid", offsetof(struct header_def, pid), 32, NULL, false },
	{ "timestamp", offsetof(struct header_def, timestamp), 64, NULL, false },
	{ "flags", offsetof(struct header_def, flags), 64, header_flag_names, true },
};
#define NR_HEADER_KEYS (sizeof(header_keys) / sizeof(header_keys[0]))

static void header__parse_magic(struct header_def *h, struct line *l)
{
	const char *v = line__str(l, "magic");

	if (!v)
		return;
	if (h->has_magic) {
		line__error(l, "'magic' already given on an earlier header line");
		return;
	}
	if (strlen(v) != sizeof(h->magic)) {
		line__error(l, "magic must be %zu characters, got '%s'",
			    sizeof(h->magic), v);
		return;
	}
	memcpy(h->magic, v, sizeof(h->magic));
	h->has_magic = true;
}

static void header__parse_ext(struct header_def *h, struct line *l)
{
	if (!line__has(l, "ext"))
		return;
	if (h->has_ext) {
		line__error(l, "'ext' already given on an earlier header line");
		return;
	}
	h->has_ext = line__hex(l, "ext", &h->ext);
}

/* A header line; each key may be given once across all header lines. */
static int verb_header(struct spec *s, struct line *l, uint32_t arg)
{
	struct header_def *h = &s->hdr;
	size_t i;

	(void)arg;
	for (i = 0; i < NR_HEADER_KEYS; i++) {
		const struct header_key *k = &header_keys[i];
		struct opt_u64 *o = (struct opt_u64 *)((char *)h + k->off);

		if (!line__has(l, k->key))
			continue;
		if (o->set) {
			line__error(l, "'%s' already given on an earlier header line",
				    k->key);
			continue;
		}
		if (k->flags)
			o->v = line__flags(l, k->key, k->names, 0);
		else
			o->v = line__enum(l, k->key, k->names, k->bits, 0);
		o->set = true;
	}
	header__parse_magic(h, l);
	header__parse_ext(h, l);
	return line__finish(l);
}

/* The 40-byte header, ext= and zero bytes up to total_size. */
static int header__build(const struct spec *s, struct buf *out)
{
	const struct header_def *h = &s->hdr;
	uint64_t known = MKJITDUMP_HEADER_SIZE + h->ext.len;
	uint64_t size = opt_or(h->total_size, known);

	if (size >= MKJITDUMP_HEADER_SIZE && size < known)
		return error("%s: header total_size=%llu leaves no room for the %zu bytes of ext=",
			     s->path, (unsigned long long)size, h->ext.len);
	if (h->has_magic)
		buf__put(out, h->magic, sizeof(h->magic));
	else
		buf__u32(out, MKJITDUMP_MAGIC);
	buf__u32(out, (uint32_t)opt_or(h->version, MKJITDUMP_VERSION));
	buf__u32(out, (uint32_t)size);
	buf__u32(out, (uint32_t)opt_or(h->elf_mach, EM_X86_64));
	buf__u32(out, (uint32_t)opt_or(h->pad1, 0));
	buf__u32(out, (uint32_t)opt_or(h->pid, opt_or(s->first_pid, 0)));
	buf__u64(out, opt_or(h->timestamp, s->first_time));
	buf__u64(out, opt_or(h->flags, 0));
	buf__put(out, h->ext.p, h->ext.len);
	if (size > known)
		buf__fill(out, 0, (size_t)(size - known));
	return 0;
}

/* ---- Records ------------------------------------------------------------ */

/* Start a record: its header, total_size 0 until rec__end(). */
static size_t rec__begin(struct spec *s, struct line *l, uint32_t id)
{
	size_t at = s->records.len;
	uint64_t time = line__u64(l, "time", 0);

	if (!s->nr_recs++)
		s->first_time = time;
	buf__u32(&s->records, line__u32(l, "id", id));
	buf__u32(&s->records, 0);
	buf__u64(&s->records, time);
	return at;
}

/*
 * Finish a record: extra= bytes appended, cut= bytes dropped, then
 * total_size (or total_size=), and the line checked.
 */
static int rec__end(struct spec *s, struct line *l, size_t at)
{
	uint64_t cut;
	size_t len;

	line__hex(l, "extra", &s->records);
	cut = line__u64(l, "cut", 0);
	len = s->records.len - at;
	if (cut > len - MKJITDUMP_RECORD_HEADER_SIZE)
		return line__error(l, "cut=%llu: the record has only %zu bytes after its header",
				   (unsigned long long)cut,
				   len - MKJITDUMP_RECORD_HEADER_SIZE);
	s->records.len -= (size_t)cut;
	len -= (size_t)cut;
	if (len > UINT32_MAX)
		return line__error(l, "record is %zu bytes, more than total_size's u32 can say",
				   len);
	buf__set_u32(&s->records, at + 4,
		     line__u32(l, "total_size", (uint32_t)len));
	return line__finish(l);
}

/* pid= (default: the header's pid=) and tid= (default: pid). */
static void rec__pid_tid(struct spec *s, struct line *l)
{
	uint32_t pid = line__u32(l, "pid", (uint32_t)opt_or(s->hdr.pid, 0));

	if (!s->first_pid.set) {
		s->first_pid.set = true;
		s->first_pid.v = pid;
	}
	buf__u32(&s->records, pid);
	buf__u32(&s->records, line__u32(l, "tid", pid));
}

/*
 * The variable bytes of a load or unwind record into out: hex_key=HEX, or
 * size= bytes of fill. With both, size= must match the hex length.
 */
static void rec__body_bytes(struct line *l, const char *hex_key,
			    const char *field_key, int fill, struct buf *out)
{
	bool has_hex = line__hex(l, hex_key, out);
	bool has_size = line__has(l, "size");
	uint64_t size = line__u64(l, "size", 0);

	if (has_hex && has_size && size != out->len)
		line__error(l, "size=%llu but %s= has %zu bytes (%s= states another size)",
			    (unsigned long long)size, hex_key, out->len, field_key);
	else if (!has_hex && size > MKJITDUMP_MAX_OUTPUT)
		line__error(l, "size=%llu: more than %zu bytes",
			    (unsigned long long)size, MKJITDUMP_MAX_OUTPUT);
	else if (!has_hex)
		buf__fill(out, fill, (size_t)size);
}

/* pad=N: N zero bytes, a count checked against the output limit. */
static void rec__pad(struct spec *s, struct line *l)
{
	uint64_t pad = line__u64(l, "pad", 0);

	if (pad > MKJITDUMP_MAX_OUTPUT)
		line__error(l, "pad=%llu: more than %zu bytes",
			    (unsigned long long)pad, MKJITDUMP_MAX_OUTPUT);
	else
		buf__fill(&s->records, 0, (size_t)pad);
}

/*
 * JIT_CODE_LOAD: pid, tid, vma, code_addr, code_size, code_index, the name
 * and its NUL (unless nul=0), pad= zero bytes, the code.
 */
static int rec_load(struct spec *s, struct line *l, uint32_t id)
{
	struct buf *b = &s->records, code = { NULL, 0, 0, false };
	size_t at = rec__begin(s, l, id);
	uint64_t addr = line__u64(l, "addr", 0);
	const char *name = line__cstr(l, "name");
	int ret;

	s->nr_loads++;
	rec__body_bytes(l, "code", "code_size", MKJITDUMP_CODE_FILL, &code);
	rec__pid_tid(s, l);
	buf__u64(b, line__u64(l, "vma", addr));
	buf__u64(b, addr);
	buf__u64(b, line__u64(l, "code_size", code.len));
	buf__u64(b, line__u64(l, "index", s->nr_loads));
	buf__put(b, name, strlen(name) + line__bool(l, "nul", 1));
	rec__pad(s, l);
	buf__put(b, code.p, code.len);
	ret = rec__end(s, l, at);
	buf__release(&code);
	return ret;
}

/* JIT_CODE_MOVE: pid, tid, vma, old_code_addr, new_code_addr, size, index. */
static int rec_move(struct spec *s, struct line *l, uint32_t id)
{
	struct buf *b = &s->records;
	size_t at = rec__begin(s, l, id);
	uint64_t new_addr = line__u64(l, "new", 0);

	rec__pid_tid(s, l);
	buf__u64(b, line__u64(l, "vma", new_addr));
	buf__u64(b, line__u64(l, "old", 0));
	buf__u64(b, new_addr);
	buf__u64(b, line__u64(l, "size", 0));
	buf__u64(b, line__u64(l, "index", 0));
	return rec__end(s, l, at);
}

/* Where a debug entry's address comes from. */
struct debug_ctx {
	uint64_t addr;			/* the record's addr=, for "+OFF" */
	uint64_t bias;			/* bias=, added to every entry */
	bool nul;			/* nul=: terminate the last file name */
};

/* The number in [from, to) into *out; -1 if it is not one. */
static int entry__num(const char *from, const char *to, unsigned bits,
		      uint64_t *out)
{
	char num[MKJITDUMP_MAX_ITEM];
	size_t n = (size_t)(to - from);

	if (n >= sizeof(num))
		return -1;
	memcpy(num, from, n);
	num[n] = '\0';
	return parse_num(num, bits, out);
}

/*
 * One debug entry from "ADDR:LINE:DISCRIM:FILE": FILE is the rest of the
 * item, ':' included, and "same" is the 0xff 0x00 marker; ADDR "+OFF" is
 * relative to the record's addr=. last: the record's last entry.
 */
static int debug__entry(struct spec *s, struct line *l, const char *item,
			const struct debug_ctx *c, bool last)
{
	struct buf *b = &s->records;
	const char *c1 = strchr(item, ':');
	const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	const char *c3 = c2 ? strchr(c2 + 1, ':') : NULL;
	bool rel = *item == '+';
	uint64_t addr, lineno, discrim;
	const char *file;

	if (!c3 || entry__num(item + rel, c1, 64, &addr) < 0 ||
	    entry__num(c1 + 1, c2, 32, &lineno) < 0 ||
	    entry__num(c2 + 1, c3, 32, &discrim) < 0)
		return line__error(l, "bad entry '%s': expected ADDR:LINE:DISCRIM:FILE (ADDR may be +OFFSET)",
				   item);
	file = strcmp(c3 + 1, "same") ? c3 + 1 : "\xff";
	buf__u64(b, (rel ? c->addr : 0) + addr + c->bias);
	buf__u32(b, (uint32_t)lineno);
	buf__u32(b, (uint32_t)discrim);
	buf__put(b, file, strlen(file) + (!last || c->nul));
	return 0;
}

/* The entries= list, items separated by ','; returns how many, or -1. */
static long debug__entries(struct spec *s, struct line *l,
			   const struct debug_ctx *c)
{
	const char *v = line__str(l, "entries");
	char *list, *item, *comma;
	long nr = 0;

	if (!v || !*v)
		return 0;
	list = xrealloc(NULL, strlen(v) + 1);
	memcpy(list, v, strlen(v) + 1);
	for (item = list; item; item = comma ? comma + 1 : NULL, nr++) {
		comma = strchr(item, ',');
		if (comma)
			*comma = '\0';
		if (debug__entry(s, l, item, c, !comma) < 0) {
			nr = -1;
			break;
		}
	}
	free(list);
	return nr;
}

/*
 * JIT_CODE_DEBUG_INFO: code_addr, nr_entry, then per entry u64 addr,
 * u32 line, u32 discrim and the NUL-terminated file name.
 */
static int rec_debug(struct spec *s, struct line *l, uint32_t id)
{
	struct buf *b = &s->records;
	size_t at = rec__begin(s, l, id), nr_at;
	struct debug_ctx c;
	long nr;

	c.addr = line__u64(l, "addr", 0);
	c.bias = line__u64(l, "bias", 0);
	c.nul = line__bool(l, "nul", 1);
	buf__u64(b, c.addr);
	nr_at = b->len;
	buf__u64(b, 0);
	nr = debug__entries(s, l, &c);
	if (nr < 0)
		return -1;
	buf__set_u64(b, nr_at, line__u64(l, "nr_entry", (uint64_t)nr));
	return rec__end(s, l, at);
}

/* JIT_CODE_CLOSE: the record header alone. */
static int rec_close(struct spec *s, struct line *l, uint32_t id)
{
	return rec__end(s, l, rec__begin(s, l, id));
}

/*
 * JIT_CODE_UNWINDING_INFO: unwinding_size, eh_frame_hdr_size,
 * mapped_size, the data, pad= zero bytes.
 */
static int rec_unwind(struct spec *s, struct line *l, uint32_t id)
{
	struct buf *b = &s->records, data = { NULL, 0, 0, false };
	size_t at = rec__begin(s, l, id);
	int ret;

	rec__body_bytes(l, "data", "unwinding_size", 0, &data);
	buf__u64(b, line__u64(l, "unwinding_size", data.len));
	buf__u64(b, line__u64(l, "eh_frame_hdr_size", 0));
	buf__u64(b, line__u64(l, "mapped_size", data.len));
	buf__put(b, data.p, data.len);
	rec__pad(s, l);
	ret = rec__end(s, l, at);
	buf__release(&data);
	return ret;
}

/* Any id, bytes= as the payload. */
static int rec_raw(struct spec *s, struct line *l, uint32_t arg)
{
	size_t at;

	(void)arg;
	if (!line__has(l, "id"))
		return line__error(l, "raw needs id=");
	at = rec__begin(s, l, 0);
	line__hex(l, "bytes", &s->records);
	return rec__end(s, l, at);
}

static int verb_truncate(struct spec *s, struct line *l, uint32_t arg)
{
	const char *n = l->nword == 2 ? l->word[1] : "";

	(void)arg;
	if (s->trunc.set)
		return line__error(l, "truncate given twice");
	s->trunc.from_end = *n == '-';
	if (parse_num(s->trunc.from_end ? n + 1 : n, 64, &s->trunc.n) < 0)
		return line__error(l, "expected: truncate OFFSET, or truncate -BYTES");
	s->trunc.set = true;
	return 0;
}

/* ---- Reading the spec --------------------------------------------------- */

static const struct verb {
	const char *name;
	int (*fn)(struct spec *s, struct line *l, uint32_t arg);
	uint32_t arg;
	bool kv;			/* takes KEY=VALUE words */
} verbs[] = {
	{ "header", verb_header, 0, true },
	{ "truncate", verb_truncate, 0, false },
	{ "load", rec_load, MKJITDUMP_CODE_LOAD, true },
	{ "move", rec_move, MKJITDUMP_CODE_MOVE, true },
	{ "debug", rec_debug, MKJITDUMP_CODE_DEBUG_INFO, true },
	{ "close", rec_close, MKJITDUMP_CODE_CLOSE, true },
	{ "unwind", rec_unwind, MKJITDUMP_CODE_UNWINDING_INFO, true },
	{ "raw", rec_raw, 0, true },
};

enum pass {
	PASS_HEADER,			/* header lines; unknown verbs */
	PASS_RECORDS,			/* everything else */
};

static int spec__line(struct spec *s, struct line *l, char *text,
		      enum pass pass)
{
	size_t i;

	if (line__split(l, text) < 0)
		return -1;
	if (!l->nword)
		return 0;
	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		if (strcmp(verbs[i].name, l->word[0]))
			continue;
		if ((verbs[i].fn == verb_header) != (pass == PASS_HEADER))
			return 0;
		if (verbs[i].kv && line__pairs(l) < 0)
			return -1;
		return verbs[i].fn(s, l, verbs[i].arg);
	}
	if (pass == PASS_HEADER)
		return line__error(l, "unknown verb '%s'", l->word[0]);
	return 0;
}

/* One pass over the spec text, line by line; stops at the first error. */
static int spec__pass(struct spec *s, const struct buf *text, enum pass pass)
{
	char *copy = xrealloc(NULL, MKJITDUMP_MAX_LINE);
	struct line *l = xrealloc(NULL, sizeof(*l));
	size_t pos = 0;
	int ret = 0;

	memset(l, 0, sizeof(*l));
	l->path = s->path;
	while (!ret && pos < text->len) {
		const uint8_t *p = text->p + pos;
		const uint8_t *nl = memchr(p, '\n', text->len - pos);
		size_t n = nl ? (size_t)(nl - p) : text->len - pos;

		pos += n + (nl != NULL);
		l->no++;
		l->err = false;
		if (n > MKJITDUMP_MAX_LINE - 2)
			ret = line__error(l, "line longer than %d bytes",
					  MKJITDUMP_MAX_LINE - 2);
		else if (memchr(p, '\0', n))
			ret = line__error(l, "NUL byte in the line");
		if (ret)
			break;
		memcpy(copy, p, n);
		copy[n] = '\0';
		ret = spec__line(s, l, copy, pass);
	}
	free(copy);
	free(l);
	return ret;
}

/* The whole spec into text (at most MKJITDUMP_MAX_SPEC bytes). */
static int spec__load(const char *path, struct buf *text)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	int ret = 0;

	if (!f)
		return error("cannot open '%s': %s", path, strerror(errno));
	for (;;) {
		uint8_t chunk[8192];
		size_t n = fread(chunk, 1, sizeof(chunk), f);

		if (n > MKJITDUMP_MAX_SPEC - text->len) {
			ret = error("'%s' is larger than %zu bytes", path,
				    MKJITDUMP_MAX_SPEC);
			break;
		}
		buf__put(text, chunk, n);
		if (n < sizeof(chunk))
			break;
	}
	if (!ret && ferror(f))
		ret = error("cannot read '%s': %s", path, strerror(errno));
	if (f != stdin)
		fclose(f);
	return ret;
}

/* Header lines first, so records anywhere see the header's pid=. */
static int spec__read(struct spec *s)
{
	struct buf text = { NULL, 0, 0, false };
	int ret = spec__load(s->path, &text);

	if (!ret)
		ret = spec__pass(s, &text, PASS_HEADER);
	if (!ret)
		ret = spec__pass(s, &text, PASS_RECORDS);
	buf__release(&text);
	return ret;
}

/* ---- Output ------------------------------------------------------------- */

static int output__truncate(const struct spec *s, struct buf *out)
{
	if (!s->trunc.set)
		return 0;
	if (s->trunc.n > out->len)
		return error("truncate %s%llu: the output is only %zu bytes",
			     s->trunc.from_end ? "-" : "",
			     (unsigned long long)s->trunc.n, out->len);
	out->len = s->trunc.from_end ? out->len - (size_t)s->trunc.n
				     : (size_t)s->trunc.n;
	return 0;
}

static int output__write(const char *path, const struct buf *out)
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

/* ---- main --------------------------------------------------------------- */

struct mkjitdump_opts {
	bool swap;
	const char *spec, *out;
};

static const char *const usage[] = {
	"usage: mkjitdump [--swap] SPEC OUT",
	"",
	"Write the jitdump file described by SPEC to OUT (\"-\" for stdout).",
	"",
	"  --swap      opposite byte order (big-endian on x86)",
	"  -h, --help  this text",
	"",
	"The spec language is described in tests/tools/mkjitdump.md.",
	NULL
};

static void print_usage(FILE *f)
{
	const char *const *u;

	for (u = usage; *u; u++)
		fprintf(f, "%s\n", *u);
}

/* 0 to run; -1 to stop with *code (after --help, or a bad command line). */
static int opts__parse(struct mkjitdump_opts *o, int argc, char **argv,
		       int *code)
{
	static const struct option longopts[] = {
		{ "swap", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 's')
			o->swap = true;
		else
			break;
	}
	if (c == 'h') {
		print_usage(stdout);
		*code = MKJITDUMP_EXIT_OK;
		return -1;
	}
	if (c != -1 || argc - optind != 2) {
		print_usage(stderr);
		*code = MKJITDUMP_EXIT_USAGE;
		return -1;
	}
	o->spec = argv[optind];
	o->out = argv[optind + 1];
	return 0;
}

static int mkjitdump__run(const struct mkjitdump_opts *o)
{
	struct spec s;
	struct buf out = { NULL, 0, 0, o->swap };
	int ret;

	memset(&s, 0, sizeof(s));
	s.path = o->spec;
	s.swap = o->swap;
	s.records.swap = o->swap;
	ret = spec__read(&s);
	if (!ret)
		ret = header__build(&s, &out);
	if (!ret) {
		buf__put(&out, s.records.p, s.records.len);
		ret = output__truncate(&s, &out);
	}
	if (!ret)
		ret = output__write(o->out, &out);
	buf__release(&out);
	buf__release(&s.records);
	buf__release(&s.hdr.ext);
	return ret;
}

int main(int argc, char **argv)
{
	struct mkjitdump_opts o;
	int code;

	if (opts__parse(&o, argc, argv, &code) < 0)
		return code;
	return mkjitdump__run(&o) < 0 ? MKJITDUMP_EXIT_DATA : MKJITDUMP_EXIT_OK;
}
