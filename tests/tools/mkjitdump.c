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
 * The spec language, messages and output buffers are spec.c's, shared
 * with mkperf; what is here is static, in sections: limits and formats,
 * names, the spec, the header, records, reading, main.
 *
 * Exit codes: 0 ok, 1 bad command line, 2 bad spec or I/O error.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"

const char spec_prog[] = "mkjitdump";

/* ---- Limits and formats ------------------------------------------------ */

#define MKJITDUMP_MAX_SPEC ((size_t)64 << 20)

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

/* ---- Names -------------------------------------------------------------- */

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

/* ---- The spec ----------------------------------------------------------- */

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
	struct truncation trunc;
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
			o->v = line__flags(l, k->key, k->names, k->bits, 0);
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
		buf__zero(out, (size_t)(size - known));
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
	else if (!has_hex && size > SPEC_MAX_OUTPUT)
		line__error(l, "size=%llu: more than %zu bytes",
			    (unsigned long long)size, SPEC_MAX_OUTPUT);
	else if (!has_hex)
		buf__fill(out, fill, (size_t)size);
}

/* pad=N: N zero bytes, a count checked against the output limit. */
static void rec__pad(struct spec *s, struct line *l)
{
	uint64_t pad = line__u64(l, "pad", 0);

	if (pad > SPEC_MAX_OUTPUT)
		line__error(l, "pad=%llu: more than %zu bytes",
			    (unsigned long long)pad, SPEC_MAX_OUTPUT);
	else
		buf__zero(&s->records, (size_t)pad);
}

/* The value of hex digit c, or -1. */
static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * A name or file name's bytes, without a NUL: "\xNN" is the byte NN (any
 * but 0), "\\" a backslash, any other byte itself. Returns 0, or -1 (the
 * line has the error).
 */
static int put_escaped(struct buf *b, struct line *l, const char *s)
{
	for (; *s; s++) {
		int hi, lo;

		if (*s != '\\') {
			buf__u8(b, (uint8_t)*s);
			continue;
		}
		if (s[1] == '\\') {
			buf__u8(b, '\\');
			s++;
			continue;
		}
		hi = s[1] == 'x' ? hex_digit(s[2]) : -1;
		lo = hi < 0 ? -1 : hex_digit(s[3]);
		if (lo < 0 || !(hi | lo))
			return line__error(l, "bad escape in '%s': expected \\xNN (not 00) or \\\\", s);
		buf__u8(b, (uint8_t)(hi << 4 | lo));
		s += 3;
	}
	return 0;
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
	if (put_escaped(b, l, name) < 0) {
		buf__release(&code);
		return -1;
	}
	if (line__bool(l, "nul", 1))
		buf__u8(b, 0);
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
	char num[SPEC_MAX_ITEM];
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
	file = strcmp(c3 + 1, "same") ? c3 + 1 : "\\xff";
	buf__u64(b, (rel ? c->addr : 0) + addr + c->bias);
	buf__u32(b, (uint32_t)lineno);
	buf__u32(b, (uint32_t)discrim);
	if (put_escaped(b, l, file) < 0)
		return -1;
	if (!last || c->nul)
		buf__u8(b, 0);
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
	(void)arg;
	return truncation__parse(&s->trunc, l);
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

static int spec__line(struct spec *s, struct line *l, enum pass pass)
{
	size_t i;

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
static int spec__pass(struct spec *s, FILE *text, enum pass pass)
{
	struct spec_reader r;
	int ret;

	rewind(text);
	spec_reader__init(&r, text, s->path);
	while ((ret = spec_reader__next(&r)) > 0) {
		ret = spec__line(s, r.line, pass);
		if (ret < 0)
			break;
	}
	spec_reader__exit(&r);
	return ret;
}

/* The whole spec into text (at most MKJITDUMP_MAX_SPEC bytes). */
static int spec__load(const char *path, struct buf *text)
{
	FILE *f = input__open(path);
	int ret = 0;

	if (!f)
		return -1;
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
	input__close(f);
	return ret;
}

/*
 * Header lines first, so records anywhere see the header's pid=. The spec
 * may be stdin, so both passes read a copy in memory.
 */
static int spec__read(struct spec *s)
{
	struct buf text = { NULL, 0, 0, false };
	int ret = spec__load(s->path, &text);

	if (!ret) {
		FILE *f = fmemopen(text.p, text.len, "r");

		if (!f)
			die("out of memory");
		ret = spec__pass(s, f, PASS_HEADER);
		if (!ret)
			ret = spec__pass(s, f, PASS_RECORDS);
		fclose(f);
	}
	buf__release(&text);
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
		*code = SPEC_EXIT_OK;
		return -1;
	}
	if (c != -1 || argc - optind != 2) {
		print_usage(stderr);
		*code = SPEC_EXIT_USAGE;
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
		ret = truncation__apply(&s.trunc, &out);
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
	return mkjitdump__run(&o) < 0 ? SPEC_EXIT_DATA : SPEC_EXIT_OK;
}
