/*
 * Unit tests for src/reader/tracedata.c: the tracing-data container is built
 * here byte by byte, in either byte order, then parsed whole, cut short
 * at every length, given bad magic, bad headers and huge sizes and counts,
 * and randomly corrupted; samples are formatted from whole, short and
 * mismatched payloads. Under ASan (scripts/check.sh) any read past a
 * buffer fails the run.
 */
#include "common/common.h"
#include "reader/tracedata.h"
#include "common/sbuf.h"
#include "test.h"

/*
 * libtraceevent 1.7.1 leaks a few bytes on some malformed formats (the
 * random corruption below makes them); LeakSanitizer reads this hook.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static const char header_event[] = "# compressed entry header\n\ttype_len    :    5 bits\n";

/* A cut-down sched_switch: id 372, 40 bytes of payload. */
static const char switch_fmt[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_state=%s\", REC->prev_comm, REC->prev_pid, "
	"(REC->prev_state & 3) ? __print_flags(REC->prev_state & 3, \"|\", "
	"{ 0x01, \"S\" }, { 0x02, \"D\" }) : \"R\"\n";

/* An event whose field lies far past any payload. */
static const char far_fmt[] =
	"name: far\n"
	"ID: 7\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int far_away;\toffset:1000000;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"x=%d\", REC->far_away\n";

static const char kallsyms[] = "ffffffff81000000 T _stext\nffffffffc0001000 t modfn\t[mod]\nbad line\n";
static const char printk[] = "0xffffffff8281942f : \"thaw_processes\"\n";
static const char cmdlines[] = "1 init\n42 some comm\n";

struct builder {
	struct sbuf sb;
	bool big;
};

static void put_uint(struct builder *b, uint64_t v, size_t width)
{
	size_t i;

	for (i = 0; i < width; i++) {
		size_t shift = b->big ? 8 * (width - 1 - i) : 8 * i;

		sbuf_addch(&b->sb, (char)(v >> shift));
	}
}

static void put_sized(struct builder *b, const char *text, size_t width)
{
	put_uint(b, strlen(text), width);
	sbuf_addstr(&b->sb, text);
}

/* Offsets of interesting places in the container, for the tests to poke. */
struct layout {
	size_t version, header_page_size, ftrace_nr, systems_nr, event_size;
	size_t kallsyms_size, printk_size, cmdlines_size, end_of_printk, end;
	size_t header_page_text, header_event_tag, event_text, event_text_end;
};

static void build(struct builder *b, bool big, const char *event_fmt, struct layout *l)
{
	sbuf_init(&b->sb, SBUF_MAX_DEFAULT);
	b->big = big;
	sbuf_add(&b->sb, "\027\010\104tracing", 10);
	l->version = b->sb.len;
	sbuf_add(&b->sb, "0.6", 4);
	sbuf_addch(&b->sb, big);
	sbuf_addch(&b->sb, 8);
	put_uint(b, 4096, 4);
	sbuf_add(&b->sb, "header_page", 12);
	l->header_page_size = b->sb.len;
	l->header_page_text = l->header_page_size + 8;
	put_sized(b, header_page, 8);
	l->header_event_tag = b->sb.len;
	sbuf_add(&b->sb, "header_event", 13);
	put_sized(b, header_event, 8);
	l->ftrace_nr = b->sb.len;
	put_uint(b, 0, 4);
	l->systems_nr = b->sb.len;
	put_uint(b, 1, 4);
	sbuf_add(&b->sb, "sched", 6);
	put_uint(b, 1, 4);
	l->event_size = b->sb.len;
	l->event_text = l->event_size + 8;
	put_sized(b, event_fmt, 8);
	l->event_text_end = b->sb.len;
	l->kallsyms_size = b->sb.len;
	put_sized(b, kallsyms, 4);
	l->printk_size = b->sb.len;
	put_sized(b, printk, 4);
	l->end_of_printk = l->cmdlines_size = b->sb.len;
	put_sized(b, cmdlines, 8);
	l->end = b->sb.len;
}

/* The payload of a sched_switch from "perf" 1234 in state D. */
static void switch_payload(uint8_t *p, bool big, uint16_t type)
{
	memset(p, 0, 40);
	p[big ? 1 : 0] = (uint8_t)type;
	p[big ? 0 : 1] = (uint8_t)(type >> 8);
	memcpy(p + 8, "perf", 4);
	p[big ? 27 : 24] = 0xd2;          /* 1234 = 0x4d2 */
	p[big ? 26 : 25] = 0x04;
	p[big ? 39 : 32] = 2;             /* prev_state D */
}

static bool parse_fails(const void *buf, size_t len, enum tracedata_err want, size_t want_off)
{
	enum tracedata_err err = TRACEDATA_OK;
	size_t off = (size_t)-1;
	struct tracedata *td = tracedata__new(buf, len, &err, &off);

	tracedata__delete(td);
	return !td && err == want && (want_off == (size_t)-1 || off == want_off);
}

static void test_tracedata__parses_and_formats(bool big)
{
	struct builder b;
	struct layout l;
	struct tracedata *td;
	enum tracedata_err err;
	struct sbuf out = SBUF_INIT;
	uint8_t raw[40];
	const char *name = big ? "big-endian container parses" : "little-endian container parses";

	build(&b, big, switch_fmt, &l);
	td = tracedata__new(b.sb.buf, b.sb.len, &err, NULL);
	T(name, td && err == TRACEDATA_OK);
	if (!td)
		return;
	T("one event, none bad", tracedata__nr_events(td) == 1 && !tracedata__nr_bad_formats(td));
	T("byte order noted", tracedata__big_endian(td) == big);
	switch_payload(raw, big, 372);
	T("payload formats", tracedata__format(td, 372, raw, sizeof(raw), 0, &out) == TRACEDATA_FMT_OK);
	T("fields as the print fmt says",
	  !strcmp(out.buf, "prev_comm=perf prev_pid=1234 prev_state=D"));
	sbuf_reset(&out);
	T("unknown id", tracedata__format(td, 373, raw, sizeof(raw), 0, &out) == TRACEDATA_FMT_NO_EVENT &&
	  out.len == 0);
	T("id past int", tracedata__format(td, 1ULL << 40, raw, sizeof(raw), 0, &out) ==
	  TRACEDATA_FMT_NO_EVENT);
	switch_payload(raw, big, 371);
	T("payload of another event", tracedata__format(td, 372, raw, sizeof(raw), 0, &out) ==
	  TRACEDATA_FMT_MISMATCH && out.len == 0);
	/* a payload cut to its type: the rest reads as zeros, never past the copy */
	switch_payload(raw, big, 372);
	T("short payload formats", tracedata__format(td, 372, raw, 2, 0, &out) == TRACEDATA_FMT_OK);
	T("short payload reads zeros", !strcmp(out.buf, "prev_comm= prev_pid=0 prev_state=R"));
	sbuf_reset(&out);
	/* the long one before left bytes behind: they must be zero again */
	T("empty payload", tracedata__format(td, 372, raw, 0, 0, &out) == TRACEDATA_FMT_MISMATCH);
	T("payload too big", tracedata__format(td, 372, raw, 70000, 0, &out) == TRACEDATA_FMT_TOO_BIG);
	tracedata__delete(td);
	sbuf_release(&out);
	sbuf_release(&b.sb);
}

static void test_tracedata__truncated_everywhere(void)
{
	struct builder b;
	struct layout l;
	size_t n;
	bool all = true;

	build(&b, false, switch_fmt, &l);
	/* saved cmdlines may be absent: a container ending after printk is whole */
	for (n = 0; n < l.end; n++) {
		enum tracedata_err err;
		struct tracedata *td = tracedata__new(b.sb.buf, n, &err, NULL);
		bool ok = n == l.end_of_printk ? td != NULL
					       : !td && err == TRACEDATA_E_TRUNCATED;

		if (!ok) {
			printf("# cut at %zu of %zu: td=%p err=%d\n", n, l.end, (void *)td, (int)err);
			all = false;
		}
		tracedata__delete(td);
	}
	T("every cut short container is rejected as truncated", all);
	sbuf_release(&b.sb);
}

static void set_u32(struct builder *b, size_t off, uint32_t v)
{
	memcpy(b->sb.buf + off, &v, 4);    /* little-endian host, little-endian container */
}

static void set_u64(struct builder *b, size_t off, uint64_t v)
{
	memcpy(b->sb.buf + off, &v, 8);
}

static void test_tracedata__huge_lengths(void)
{
	struct builder b;
	struct layout l;
	static const uint64_t huge[] = { 1ULL << 63, UINT64_MAX, 0xffffffffULL, 1ULL << 32 };
	size_t i;

	build(&b, false, switch_fmt, &l);
	for (i = 0; i < ARRAY_SIZE(huge); i++) {
		struct builder c = { SBUF_INIT, false };

		sbuf_add(&c.sb, b.sb.buf, b.sb.len);
		set_u64(&c, l.header_page_size, huge[i]);
		T("huge header_page size", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_TRUNCATED,
						       l.header_page_size + 8));
		sbuf_reset(&c.sb);
		sbuf_add(&c.sb, b.sb.buf, b.sb.len);
		set_u64(&c, l.event_size, huge[i]);
		T("huge event format size", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_TRUNCATED,
							l.event_size + 8));
		sbuf_reset(&c.sb);
		sbuf_add(&c.sb, b.sb.buf, b.sb.len);
		set_u64(&c, l.cmdlines_size, huge[i]);
		T("huge cmdlines size", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_TRUNCATED, (size_t)-1));
		sbuf_release(&c.sb);
	}
	{
		struct builder c = { SBUF_INIT, false };

		sbuf_add(&c.sb, b.sb.buf, b.sb.len);
		set_u32(&c, l.ftrace_nr, UINT32_MAX);
		T("huge ftrace count", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_TRUNCATED, (size_t)-1));
		sbuf_reset(&c.sb);
		sbuf_add(&c.sb, b.sb.buf, b.sb.len);
		set_u32(&c, l.systems_nr, UINT32_MAX);
		T("huge system count", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_TRUNCATED, (size_t)-1));
		sbuf_reset(&c.sb);
		sbuf_add(&c.sb, b.sb.buf, b.sb.len);
		set_u32(&c, l.systems_nr, 2);
		T("a system more than there is", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_TRUNCATED,
							     (size_t)-1));
		sbuf_reset(&c.sb);
		sbuf_add(&c.sb, b.sb.buf, b.sb.len);
		set_u32(&c, l.kallsyms_size, UINT32_MAX);
		T("huge kallsyms size", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_TRUNCATED,
						    l.kallsyms_size + 4));
		sbuf_reset(&c.sb);
		sbuf_add(&c.sb, b.sb.buf, b.sb.len);
		set_u32(&c, l.printk_size, (uint32_t)(l.end - l.printk_size));
		T("printk size one past", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_TRUNCATED,
						      l.printk_size + 4));
		sbuf_release(&c.sb);
	}
	sbuf_release(&b.sb);
}

static void test_tracedata__bad_headers(void)
{
	struct builder b;
	struct layout l;
	struct builder c = { SBUF_INIT, false };

	build(&b, false, switch_fmt, &l);
	sbuf_add(&c.sb, b.sb.buf, b.sb.len);
	c.sb.buf[3] = 'T';
	T("bad magic", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_BAD_MAGIC, 0));
	T("bad magic, short", parse_fails("\027\010\104", 3, TRACEDATA_E_TRUNCATED, 0));
	T("empty", parse_fails("", 0, TRACEDATA_E_TRUNCATED, 0));
	sbuf_reset(&c.sb);
	sbuf_add(&c.sb, b.sb.buf, b.sb.len);
	memset(c.sb.buf + l.version, 'x', 40);   /* no NUL in reach */
	T("version without NUL", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_BAD_HEADER, l.version));
	sbuf_reset(&c.sb);
	sbuf_add(&c.sb, b.sb.buf, b.sb.len);
	c.sb.buf[l.version + 4] = 2;             /* endianness 2 */
	T("bad endianness", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_BAD_HEADER, l.version + 4));
	sbuf_reset(&c.sb);
	sbuf_add(&c.sb, b.sb.buf, b.sb.len);
	c.sb.buf[l.version + 5] = 3;             /* sizeof(long) 3 */
	T("bad long size", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_BAD_HEADER, l.version + 4));
	sbuf_reset(&c.sb);
	sbuf_add(&c.sb, b.sb.buf, b.sb.len);
	c.sb.buf[l.header_page_size - 2] = 'X';  /* "header_pagX" */
	T("header_page tag", parse_fails(c.sb.buf, c.sb.len, TRACEDATA_E_BAD_SECTION,
					 l.header_page_size - 12));
	sbuf_release(&c.sb);
	sbuf_release(&b.sb);
	/* the swapped reading of a little-endian container: sizes become huge */
	build(&b, false, switch_fmt, &l);
	b.sb.buf[l.version + 4] = 1;
	T("wrong byte order flag", parse_fails(b.sb.buf, b.sb.len, TRACEDATA_E_TRUNCATED, (size_t)-1));
	sbuf_release(&b.sb);
}

static void test_tracedata__far_field_rejected(void)
{
	struct builder b;
	struct layout l;

	build(&b, false, far_fmt, &l);
	T("field past 64 KiB rejects the container",
	  parse_fails(b.sb.buf, b.sb.len, TRACEDATA_E_BAD_FORMAT, l.event_size + 8));
	sbuf_release(&b.sb);
}

/* A format cut short by a wrong size is skipped, never handed to libtraceevent. */
static void test_tracedata__cut_formats_skipped(void)
{
	size_t k, n = strlen(switch_fmt);
	bool all = true;

	for (k = 0; k < n; k++) {
		char *cut = xstrndup(switch_fmt, k);
		struct builder b;
		struct layout l;
		struct tracedata *td;

		build(&b, false, cut, &l);
		td = tracedata__new(b.sb.buf, b.sb.len, NULL, NULL);
		if (!td || tracedata__nr_bad_formats(td) != 1) {
			printf("# format cut at %zu: td=%p\n", k, (void *)td);
			all = false;
		}
		tracedata__delete(td);
		sbuf_release(&b.sb);
		free(cut);
	}
	T("every cut format is skipped", all);
}

static void test_tracedata__bad_format_counted(void)
{
	struct builder b;
	struct layout l;
	struct tracedata *td;

	build(&b, false, "name: broken\nID: x\n", &l);
	td = tracedata__new(b.sb.buf, b.sb.len, NULL, NULL);
	T("unparsable format is counted, not fatal", td && tracedata__nr_bad_formats(td) == 1);
	tracedata__delete(td);
	sbuf_release(&b.sb);
}

/*
 * Flip random bytes anywhere in the container, the format texts included:
 * parsing and formatting must never crash or read out of bounds. (The
 * format texts go to libtraceevent only when they look sound; see
 * format_looks_whole() in tracedata.c.)
 */
static void test_tracedata__random_corruption(void)
{
	struct builder b;
	struct layout l;
	unsigned int seed = 12345, i, parsed = 0;
	uint8_t raw[40];

	build(&b, false, switch_fmt, &l);
	switch_payload(raw, false, 372);
	for (i = 0; i < 20000; i++) {
		char *copy = xmalloc(b.sb.len);
		struct tracedata *td;
		int k;

		memcpy(copy, b.sb.buf, b.sb.len);
		for (k = 0; k < 1 + (int)(i % 4); k++) {
			seed = seed * 1103515245u + 12345u;
			copy[(seed >> 8) % b.sb.len] = (char)(seed >> 20);
		}
		td = tracedata__new(copy, b.sb.len, NULL, NULL);
		if (td) {
			struct sbuf out = SBUF_INIT;

			parsed++;
			tracedata__format(td, 372, raw, sizeof(raw), 1, &out);
			sbuf_release(&out);
		}
		tracedata__delete(td);
		free(copy);
	}
	printf("# %u of 20000 corrupted containers parsed\n", parsed);
	T("random corruption survived", true);
	sbuf_release(&b.sb);
}

int main(void)
{
	test_tracedata__parses_and_formats(false);
	test_tracedata__parses_and_formats(true);
	test_tracedata__truncated_everywhere();
	test_tracedata__huge_lengths();
	test_tracedata__bad_headers();
	test_tracedata__far_field_rejected();
	test_tracedata__cut_formats_skipped();
	test_tracedata__bad_format_counted();
	test_tracedata__random_corruption();
	return test_done();
}
