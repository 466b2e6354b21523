#include "common/common.h"
#include "common/cursor.h"
#include "reader/tracedata.h"
#include "common/sbuf.h"

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

/*
 * A tracepoint payload is at most a record (u16 size) long. Its fields are
 * read by libtraceevent at offsets the format gives; dynamic ones
 * (__data_loc, __rel_loc) through a u16 offset and a u16 length from the
 * payload. So every read stays within 64 KiB of static offsets plus 128 KiB
 * of dynamic reach: the payload is copied into a buffer that large, zero
 * past the payload, and formats with a static field past 64 KiB are not
 * used.
 */
#define RAW_MAX        65536u
#define STATIC_MAX     65536u
#define SCRATCH_SIZE   (RAW_MAX + STATIC_MAX + 2 * 65536u + 64u)
#define VERSION_MAX    16u
#define MAGIC          "\027\010\104tracing"
#define MAGIC_LEN      10u

struct tracedata {
	struct tep_handle *tep;
	size_t nr_events, nr_bad_formats;
	int big_endian;
	bool have_kallsyms;
	tracedata_ksym_fn ksym_fn;
	void *ksym_priv;
	uint8_t *scratch;        /* SCRATCH_SIZE bytes, zero past 'dirty' */
	size_t dirty;
};

/* The container is read with common/cursor.h; a read past its end is "cut short". */
_Static_assert((int)TRACEDATA_E_TRUNCATED == CURSOR_E_SHORT, "tracedata's cut short is the cursor's");

/* A section's text, preceded by its size in width bytes. */
static const char *cursor_sized(struct cursor *c, size_t width, size_t *len)
{
	uint64_t n = width == 4 ? cursor_u32(c) : cursor_u64(c);
	const uint8_t *p = cursor_bytes(c, n);

	*len = p ? (size_t)n : 0;
	return (const char *)p;
}

const char *tracedata__strerror(enum tracedata_err err)
{
	switch (err) {
	case TRACEDATA_OK:            return "no error";
	case TRACEDATA_E_TRUNCATED:   return "cut short";
	case TRACEDATA_E_BAD_MAGIC:   return "bad magic";
	case TRACEDATA_E_BAD_HEADER:  return "bad version, byte order or long size";
	case TRACEDATA_E_BAD_SECTION: return "header_page or header_event missing";
	case TRACEDATA_E_BAD_FORMAT:  return "header_page not understood, or an event format with fields past 64 KiB";
	}
	return "unknown error";
}

/* The fixed part: magic, version, byte order, long size, page size. */
static bool parse_preamble(struct tracedata *td, struct cursor *c)
{
	const uint8_t *magic = cursor_bytes(c, MAGIC_LEN);
	const char *version;
	const uint8_t *b;
	uint32_t page_size;

	if (!magic)
		return false;
	if (memcmp(magic, MAGIC, MAGIC_LEN)) {
		c->p = c->base;
		return cursor_fail(c, TRACEDATA_E_BAD_MAGIC);
	}
	version = cursor_cstr(c, VERSION_MAX, TRACEDATA_E_BAD_HEADER);
	b = cursor_bytes(c, 2);
	if (!version || !b)
		return false;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8)) {
		c->p -= 2;
		return cursor_fail(c, TRACEDATA_E_BAD_HEADER);
	}
	td->big_endian = b[0];
	c->swap = (b[0] != 0) != cursor_host_big_endian();
	page_size = (uint32_t)cursor_u32(c);
	if (c->err)
		return false;
	tep_set_file_bigendian(td->tep, b[0] ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(td->tep, cursor_host_big_endian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(td->tep, b[1]);
	tep_set_page_size(td->tep, (int)(page_size > INT32_MAX ? 4096 : page_size));
	return true;
}

static bool brackets_balance(const char *p, const char *end, bool strings);

/* Printable ASCII, tabs and newlines, ending in a newline. */
static bool text_printable(const char *text, size_t len)
{
	size_t i;

	if (!len || text[len - 1] != '\n')
		return false;
	for (i = 0; i < len; i++)
		if ((text[i] < 0x20 || text[i] > 0x7e) && text[i] != '\t' && text[i] != '\n')
			return false;
	return true;
}

/* Printable lines with their brackets balanced, line by line. */
static bool lines_sound(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	if (!text_printable(text, len))
		return false;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!brackets_balance(p, nl, false))
			return false;
		p = nl + 1;
	}
	return true;
}

/* "header_page\0", u64 size, text: handed to libtraceevent. */
static bool parse_header_section(struct tracedata *td, struct cursor *c, const char *tag,
				 bool page)
{
	size_t tlen = strlen(tag) + 1, len;
	const uint8_t *t = cursor_bytes(c, tlen);
	const char *text;
	char *copy;
	int ret;

	if (!t)
		return false;
	if (memcmp(t, tag, tlen)) {
		c->p -= tlen;
		return cursor_fail(c, TRACEDATA_E_BAD_SECTION);
	}
	text = cursor_sized(c, 8, &len);
	if (!text)
		return false;
	if (!page)
		return true;      /* perf does not use header_event either */
	/* an empty header_page is the old-kernel default, not an error */
	if (!len)
		return true;
	/* libtraceevent's parser is no safer on a cut header_page than on a cut format */
	if (!lines_sound(text, len)) {
		c->p -= len;
		return cursor_fail(c, TRACEDATA_E_BAD_FORMAT);
	}
	copy = xstrndup(text, len);
	ret = tep_parse_header_page(td->tep, copy, len, tep_get_long_size(td->tep));
	free(copy);
	if (ret) {
		c->p -= len;
		return cursor_fail(c, TRACEDATA_E_BAD_FORMAT);
	}
	return true;
}

/* Is every static field of e inside STATIC_MAX? */
static bool event_bounded(struct tep_event *e)
{
	struct tep_format_field *lists[2] = { e->format.common_fields, e->format.fields };
	struct tep_format_field *f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		for (f = lists[i]; f; f = f->next)
			if (f->offset < 0 || f->size < 0 ||
			    (uint64_t)f->offset + (uint64_t)f->size > STATIC_MAX)
				return false;
	return true;
}

/* Inside a string literal at *p: step over an escape, or leave at a closing quote. */
static void string_step(const char **p, const char *end, bool *in_str)
{
	if (**p == '\\' && *p + 1 < end)
		(*p)++;
	else if (**p == '"')
		*in_str = false;
}

/* Brackets in [p, end) balance and never close more than they opened. */
static bool brackets_balance(const char *p, const char *end, bool strings)
{
	int depth = 0;
	bool in_str = false;

	for (; p < end; p++) {
		if (in_str) {
			string_step(&p, end, &in_str);
			continue;
		}
		if (strings && *p == '"')
			in_str = true;
		else if (*p == '(' || *p == '[' || *p == '{')
			depth++;
		else if ((*p == ')' || *p == ']' || *p == '}') && --depth < 0)
			return false;
	}
	return !in_str && depth == 0;
}

static bool is_ident(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_';
}

/* Field names of the format's "field:" lines, in text. */
struct field_names {
	const char *name[128];
	size_t len[128];
	size_t nr;
};

/* "\tfield:char prev_comm[16];\toffset:..." gives "prev_comm" */
static bool add_field_name(struct field_names *fn, const char *line, const char *nl)
{
	const char *semi = memchr(line, ';', (size_t)(nl - line));
	const char *e;

	if (!semi)
		return false;
	e = semi;
	if (e > line && e[-1] == ']')
		while (e > line && *e != '[')
			e--;
	while (e > line && e[-1] == ' ')
		e--;
	if (fn->nr == ARRAY_SIZE(fn->name))
		return false;
	fn->len[fn->nr] = 0;
	while (e > line && is_ident(e[-1])) {
		e--;
		fn->len[fn->nr]++;
	}
	fn->name[fn->nr++] = e;
	return fn->len[fn->nr - 1] > 0;
}

/* Every REC->name outside the print fmt's strings is a field. */
static bool fields_known(const struct field_names *fn, const char *p, const char *end)
{
	bool in_str = false;

	for (; p < end; p++) {
		size_t n = 0, i;

		if (in_str) {
			string_step(&p, end, &in_str);
			continue;
		}
		if (*p == '"') {
			in_str = true;
			continue;
		}
		if ((size_t)(end - p) < 5 || strncmp(p, "REC->", 5))
			continue;
		p += 5;
		while (p + n < end && is_ident(p[n]))
			n++;
		for (i = 0; i < fn->nr; i++)
			if (fn->len[i] == n && !memcmp(fn->name[i], p, n))
				break;
		if (i == fn->nr)
			return false;
	}
	return true;
}

/*
 * libtraceevent 1.7.1 crashes on some malformed format texts: cut short
 * (inside a field's "[...]" or the print fmt), as a wrong size in the
 * container makes them, with a stray byte in an array length, or with a
 * print fmt naming a field the format does not have. So a format must look
 * sound before it is parsed: printable ASCII ending in a newline; brackets
 * balanced on each line before the print fmt and in the print fmt (which
 * runs to the end: its strings may hold newlines), its strings closed;
 * every REC->field declared. This does not make libtraceevent safe against
 * any text whatever, only against cut, spliced and lightly garbled ones.
 */
static bool format_looks_whole(const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	struct field_names fn = { .nr = 0 };

	if (!text_printable(text, len))
		return false;
	while (p < end) {
		/* never NULL: the text ends in a newline */
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *q = p + strspn(p, "\t ");

		/* the print fmt runs to the end: its strings may hold newlines */
		if ((size_t)(end - p) > 10 && !strncmp(p, "print fmt:", 10))
			return brackets_balance(p, end, true) && fields_known(&fn, p + 10, end);
		if (!brackets_balance(p, nl, false))
			return false;
		if ((size_t)(nl - q) > 6 && !strncmp(q, "field:", 6) && !add_field_name(&fn, q, nl))
			return false;
		p = nl + 1;
	}
	return false;
}

/*
 * A format libtraceevent cannot parse is counted and skipped (perf goes on
 * too); one with a field past STATIC_MAX rejects the container: libtraceevent
 * would read that field of every payload, even to say it failed to parse,
 * and takes common_type's offset from whichever event has the lowest id.
 */
static bool parse_one_format(struct tracedata *td, struct cursor *c, const char *text,
			     size_t len, const char *sys)
{
	struct tep_event *e = NULL;

	td->nr_events++;
	if (!format_looks_whole(text, len)) {
		td->nr_bad_formats++;
		return true;
	}
	if (tep_parse_format(td->tep, &e, text, len, sys) != 0 && !e) {
		td->nr_bad_formats++;
		return true;
	}
	if (e && !event_bounded(e)) {
		c->p = (const uint8_t *)text;
		return cursor_fail(c, TRACEDATA_E_BAD_FORMAT);
	}
	if (!e || (e->flags & TEP_EVENT_FL_FAILED))
		td->nr_bad_formats++;
	return true;
}

/* u32 count, then count times: u64 size, format text. */
static bool parse_formats(struct tracedata *td, struct cursor *c, const char *sys)
{
	uint64_t nr = cursor_u32(c), i;

	/* each format takes at least its 8-byte size */
	if (nr > c->left / 8)
		return cursor_fail(c, TRACEDATA_E_TRUNCATED);
	for (i = 0; i < nr; i++) {
		size_t len;
		const char *text = cursor_sized(c, 8, &len);

		if (!text || !parse_one_format(td, c, text, len, sys))
			return false;
	}
	return !c->err;
}

static bool parse_systems(struct tracedata *td, struct cursor *c)
{
	uint64_t nr = cursor_u32(c), i;

	/* each system takes at least a NUL and a u32 count */
	if (nr > c->left / 5)
		return cursor_fail(c, TRACEDATA_E_TRUNCATED);
	for (i = 0; i < nr; i++) {
		const char *sys = cursor_cstr(c, c->left, TRACEDATA_E_BAD_HEADER);

		if (!sys || !parse_formats(td, c, sys))
			return false;
	}
	return true;
}

/* Call fn on each line of text[0..len) (no newline, not NUL-terminated). */
static void for_each_line(struct tracedata *td, const char *text, size_t len,
			  void (*fn)(struct tracedata *td, char *line))
{
	while (len) {
		const char *nl = memchr(text, '\n', len);
		size_t n = nl ? (size_t)(nl - text) : len;
		char *line = xstrndup(text, n);

		fn(td, line);
		free(line);
		text += n;
		len -= n;
		if (nl) {
			text++;
			len--;
		}
	}
}

/* "ffffffff81000000 T name" or "... T name\t[module]" */
static void kallsyms_line(struct tracedata *td, char *line)
{
	char *end, *name, *mod = NULL, *p;
	unsigned long long addr;

	errno = 0;
	addr = strtoull(line, &end, 16);
	if (end == line || errno || *end != ' ' || !end[1] || end[2] != ' ')
		return;
	name = end + 3;
	p = strpbrk(name, " \t");
	if (p) {
		*p++ = '\0';
		p += strspn(p, " \t");
		if (*p == '[' && p[1] && p[strlen(p) - 1] == ']') {
			p[strlen(p) - 1] = '\0';
			mod = p + 1;
		}
	}
	if (*name && !tep_register_function(td->tep, name, addr, mod))
		td->have_kallsyms = true;
}

/*
 * 0xffffffff8281942f : "thaw_processes"
 * libtraceevent strips the quotes (and a trailing \n) itself, reading two
 * bytes before the closing quote: only quoted, non-empty formats go to it.
 */
static void printk_line(struct tracedata *td, char *line)
{
	char *end, *fmt;
	unsigned long long addr;
	size_t n;

	errno = 0;
	addr = strtoull(line, &end, 16);
	if (end == line || errno || strncmp(end, " : ", 3))
		return;
	fmt = end + 3;
	n = strlen(fmt);
	if (n >= 3 && fmt[0] == '"' && fmt[n - 1] == '"')
		tep_register_print_string(td->tep, fmt, addr);
}

/* "1234 comm name" */
static void cmdline_line(struct tracedata *td, char *line)
{
	char *end;
	long pid;

	errno = 0;
	pid = strtol(line, &end, 10);
	if (end == line || errno || *end != ' ' || pid < 0 || pid > INT32_MAX)
		return;
	tep_register_comm(td->tep, end + 1, (int)pid);
}

static bool parse_tail(struct tracedata *td, struct cursor *c, const char *version)
{
	const char *text;
	size_t len;

	if (!(text = cursor_sized(c, 4, &len)))
		return false;
	for_each_line(td, text, len, kallsyms_line);
	if (!(text = cursor_sized(c, 4, &len)))
		return false;
	for_each_line(td, text, len, printk_line);
	/* saved cmdlines came with version 0.6; accept their absence */
	if (!c->left || strcmp(version, "0.6") < 0)
		return true;
	if (!(text = cursor_sized(c, 8, &len)))
		return false;
	for_each_line(td, text, len, cmdline_line);
	return true;
}

static bool parse_container(struct tracedata *td, struct cursor *c)
{
	const char *version;

	if (!parse_preamble(td, c))
		return false;
	version = (const char *)c->base + MAGIC_LEN;
	return parse_header_section(td, c, "header_page", true) &&
	       parse_header_section(td, c, "header_event", false) &&
	       parse_formats(td, c, "ftrace") &&
	       parse_systems(td, c) &&
	       parse_tail(td, c, version);
}

struct tracedata *tracedata__new(const void *buf, size_t len, enum tracedata_err *err,
				 size_t *err_off)
{
	struct tracedata *td = xcalloc(1, sizeof(*td));
	struct cursor c = cursor_make(buf, len, false);

	tep_set_loglevel(TEP_LOG_NONE);
	td->tep = tep_alloc();
	if (!td->tep)
		die("out of memory");
	if (!parse_container(td, &c)) {
		if (err)
			*err = (enum tracedata_err)c.err;
		if (err_off)
			*err_off = c.err_off;
		tracedata__delete(td);
		return NULL;
	}
	td->scratch = xcalloc(1, SCRATCH_SIZE);
	if (err)
		*err = TRACEDATA_OK;
	return td;
}

void tracedata__delete(struct tracedata *td)
{
	if (!td)
		return;
	if (td->tep)
		tep_free(td->tep);
	free(td->scratch);
	free(td);
}

size_t tracedata__nr_events(const struct tracedata *td)
{
	return td->nr_events;
}

size_t tracedata__nr_bad_formats(const struct tracedata *td)
{
	return td->nr_bad_formats;
}

int tracedata__big_endian(const struct tracedata *td)
{
	return td->big_endian;
}

static char *ksym_trampoline(void *priv, unsigned long long *addrp, char **modp)
{
	struct tracedata *td = priv;
	uint64_t addr = *addrp;
	const char *mod = NULL;
	const char *name = td->ksym_fn(td->ksym_priv, &addr, &mod);

	if (!name)
		return NULL;
	*addrp = addr;
	*modp = (char *)mod;
	return (char *)name;
}

void tracedata__set_ksym_resolver(struct tracedata *td, tracedata_ksym_fn fn, void *priv)
{
	td->ksym_fn = fn;
	td->ksym_priv = priv;
	/* the recording's own kallsyms come first: a resolver would hide them */
	if (fn && !td->have_kallsyms)
		tep_set_function_resolver(td->tep, ksym_trampoline, td);
}

/* Copy a payload of event id into the zero-padded scratch buffer, as rec; its event. */
static enum tracedata_fmt load_record(struct tracedata *td, uint64_t id, const void *raw,
				      size_t size, uint32_t cpu, struct tep_record *rec,
				      struct tep_event **event)
{
	struct tep_event *e = id <= INT32_MAX ? tep_find_event(td->tep, (int)id) : NULL;

	if (!e)
		return TRACEDATA_FMT_NO_EVENT;
	if (size > RAW_MAX)
		return TRACEDATA_FMT_TOO_BIG;
	memcpy(td->scratch, raw, size);
	if (td->dirty > size)
		memset(td->scratch + size, 0, td->dirty - size);
	td->dirty = size;
	memset(rec, 0, sizeof(*rec));
	rec->cpu = (int)cpu;
	rec->size = (int)size;
	rec->record_size = (int)size;
	rec->data = td->scratch;
	/* libtraceevent picks the event by the payload's common_type */
	if (tep_find_event_by_record(td->tep, rec) != e)
		return TRACEDATA_FMT_MISMATCH;
	*event = e;
	return TRACEDATA_FMT_OK;
}

int tracedata__field_int(struct tracedata *td, uint64_t id, const void *raw, size_t size,
			 const char *name, int64_t *val)
{
	struct tep_record rec;
	struct tep_event *e;
	struct tep_format_field *f;
	unsigned long long v;

	if (load_record(td, id, raw, size, 0, &rec, &e) != TRACEDATA_FMT_OK)
		return -1;
	f = tep_find_field(e, name);
	/* within the payload: the scratch past it is zeros, not the field */
	if (!f || f->size > 8 || f->offset < 0 || (size_t)f->offset + (size_t)f->size > size ||
	    tep_read_number_field(f, td->scratch, &v))
		return -1;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && (v >> (f->size * 8 - 1) & 1))
		v |= ~0ULL << (f->size * 8);    /* sign-extend */
	*val = (int64_t)v;
	return 0;
}

enum tracedata_fmt tracedata__format(struct tracedata *td, uint64_t id, const void *raw,
				     size_t size, uint32_t cpu, struct sbuf *out)
{
	struct tep_record rec;
	struct tep_event *e;
	struct trace_seq s;
	enum tracedata_fmt ret = load_record(td, id, raw, size, cpu, &rec, &e);

	if (ret != TRACEDATA_FMT_OK)
		return ret;
	trace_seq_init(&s);
	tep_print_event(td->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	sbuf_add(out, s.buffer, s.len);
	trace_seq_destroy(&s);
	return TRACEDATA_FMT_OK;
}
