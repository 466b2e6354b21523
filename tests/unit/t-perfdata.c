/*
 * Unit tests for the perf.data reader: the bounds checks on untrusted
 * input, byte-swapped files, compressed records and pipe mode. Each test
 * builds a small file in memory (one attr, a few records), writes it to
 * a temporary file and reads it back through pd_reader.
 */
#include "common/common.h"
#include "reader/order.h"
#include "reader/perfdata.h"
#include "common/sbuf.h"
#include "test.h"

#include <perf/event.h>
#include <unistd.h>
#include <zstd.h>

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | \
	    PERF_SAMPLE_CALLCHAIN)
/* What --call-graph dwarf adds; REGS_INTR after them is skipped. */
#define ST_DWARF (ST | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_INTR)

static struct sbuf msgs = SBUF_INIT;

static void capture(const char *line)
{
	sbuf_addstr(&msgs, line);
	sbuf_addch(&msgs, '\n');
}

static bool said(const char *needle)
{
	return strstr(msgs.buf, needle) != NULL;
}

/* Byte order of the file being built. */
static bool big;

static void put(struct sbuf *b, uint64_t v, int size)
{
	uint8_t bytes[8];
	int i;

	for (i = 0; i < size; i++)
		bytes[big ? size - 1 - i : i] = (uint8_t)(v >> (8 * i));
	sbuf_add(b, bytes, (size_t)size);
}

static void rec_header(struct sbuf *b, uint32_t type, uint16_t misc, uint16_t size)
{
	put(b, type, 4);
	put(b, misc, 2);
	put(b, size, 2);
}

/* sample_id trailer for ST with sample_id_all: pid/tid, time. */
static void trailer(struct sbuf *b, uint32_t pid, uint64_t time)
{
	put(b, pid, 4);
	put(b, pid, 4);
	put(b, time, 8);
}

static void rec_comm(struct sbuf *b, uint32_t pid, const char *comm, uint64_t time)
{
	rec_header(b, PERF_RECORD_COMM, 0, 8 + 8 + 16 + 16);
	put(b, pid, 4);
	put(b, pid, 4);
	sbuf_add(b, comm, strlen(comm));
	sbuf_add(b, "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16 - strlen(comm));
	trailer(b, pid, time);
}

static void rec_sample(struct sbuf *b, uint32_t pid, uint64_t time, uint64_t ip, int nr_chain)
{
	int i;

	rec_header(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
		   (uint16_t)(8 + 8 + 8 + 8 + 8 + 8 + 8 * nr_chain));
	put(b, ip, 8);
	put(b, pid, 4);
	put(b, pid, 4);
	put(b, time, 8);
	put(b, 1000, 8);
	put(b, (uint64_t)nr_chain, 8);
	for (i = 0; i < nr_chain; i++)
		put(b, ip + (uint64_t)i, 8);
}

/* The attr's sample_type and, for ST_DWARF, its register masks. */
static uint64_t attr_st = ST, attr_regs_user, attr_regs_intr;

/* The attr as a big-endian compiler lays it out when big is set. */
static void put_attr(struct sbuf *b)
{
	size_t start = b->len;
	uint64_t flags = 1ULL << 18 | 1ULL << 10;      /* sample_id_all, freq */

	put(b, PERF_TYPE_SOFTWARE, 4);
	put(b, PERF_ATTR_SIZE_VER7, 4);
	put(b, PERF_COUNT_SW_CPU_CLOCK, 8);
	put(b, 4000, 8);                               /* sample_freq */
	put(b, attr_st, 8);
	put(b, 0, 8);                                  /* read_format */
	if (big) {
		/* bitfields allocated from the most significant bit */
		uint64_t rev = 0;
		int i;

		for (i = 0; i < 64; i++)
			if (flags & (1ULL << i))
				rev |= 1ULL << (63 - i);
		put(b, rev, 8);
	} else {
		put(b, flags, 8);
	}
	while (b->len - start < offsetof(struct perf_event_attr, sample_regs_user))
		sbuf_addch(b, 0);
	put(b, attr_regs_user, 8);
	put(b, 64, 4);                                 /* sample_stack_user */
	while (b->len - start < offsetof(struct perf_event_attr, sample_regs_intr))
		sbuf_addch(b, 0);
	put(b, attr_regs_intr, 8);
	while (b->len - start < PERF_ATTR_SIZE_VER7)
		sbuf_addch(b, 0);
}

/* A file-mode perf.data around data; data_size_override replaces data.size when set. */
static void file_mode(struct sbuf *out, const struct sbuf *data, uint64_t attr_entries_size,
		      uint64_t data_size_override)
{
	uint64_t attr_off = 104, entry = PERF_ATTR_SIZE_VER7 + 16;
	uint64_t data_off = attr_off + entry;

	sbuf_add(out, "PERFILE2", 8);
	if (big) {
		/* the magic is a u64 too */
		sbuf_reset(out);
		sbuf_add(out, "2ELIFREP", 8);
	}
	put(out, 104, 8);
	put(out, entry, 8);
	put(out, attr_off, 8);
	put(out, attr_entries_size ? attr_entries_size : entry, 8);
	put(out, data_off, 8);
	put(out, data_size_override ? data_size_override : data->len, 8);
	put(out, 0, 8);
	put(out, 0, 8);
	put(out, 0, 8);
	put(out, 0, 8);
	put(out, 0, 8);
	put(out, 0, 8);
	put_attr(out);
	put(out, 0, 8);                /* ids: none */
	put(out, 0, 8);
	sbuf_add(out, data->buf, data->len);
}

static char path[] = "/tmp/t-perfdata-XXXXXX";

static void write_file(const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	fwrite(buf, 1, len, f);
	fclose(f);
}

struct walk {
	int nr, samples, comms;
	int ret;
	uint64_t last_ip, last_time;
	uint64_t chain_sum;
	char comm[32];
	/* the last sample's user registers and stack, copied out */
	uint64_t abi, mask, regs[8];
	uint64_t stack_size;
	uint8_t stack[64];
	bool chain_null, regs_null, stack_null;
};

static void walk_dwarf(struct walk *w, const struct pd_sample *s)
{
	size_t n = (size_t)__builtin_popcountll(s->user_regs_mask);

	w->abi = s->user_regs_abi;
	w->mask = s->user_regs_mask;
	w->regs_null = !s->user_regs;
	w->chain_null = !s->callchain;
	if (s->user_regs)
		memcpy(w->regs, s->user_regs, (n < 8 ? n : 8) * sizeof(uint64_t));
	w->stack_size = s->user_stack_size;
	w->stack_null = !s->user_stack;
	if (s->user_stack)
		memcpy(w->stack, s->user_stack, s->user_stack_size < 64 ? s->user_stack_size : 64);
}

static struct walk walk_file(const void *buf, size_t len)
{
	struct walk w = { 0 };
	struct pd_reader *r;
	struct pd_event ev;

	sbuf_reset(&msgs);
	write_file(buf, len);
	r = pd_reader__open(path);
	if (!r) {
		w.ret = -2;
		return w;
	}
	while ((w.ret = pd_reader__next(r, &ev)) > 0) {
		w.nr++;
		if (ev.type == PERF_RECORD_SAMPLE) {
			uint64_t i;

			w.samples++;
			w.last_ip = ev.sample.ip;
			w.last_time = ev.sample.time;
			for (i = 0; i < ev.sample.nr_callchain; i++)
				w.chain_sum += ev.sample.callchain[i];
			walk_dwarf(&w, &ev.sample);
		} else if (ev.type == PERF_RECORD_COMM) {
			w.comms++;
			snprintf(w.comm, sizeof(w.comm), "%s", ev.u.comm.comm);
			w.last_time = ev.sample.time;
		}
	}
	pd_reader__delete(r);
	return w;
}

static void basic_data(struct sbuf *d)
{
	rec_comm(d, 42, "prog", 100);
	rec_sample(d, 42, 200, 0x401000, 3);
	rec_sample(d, 42, 300, 0x402000, 2);
}

static void test_reads_whole_file(void)
{
	struct sbuf d = SBUF_INIT, f = SBUF_INIT;
	struct walk w;

	basic_data(&d);
	file_mode(&f, &d, 0, 0);
	w = walk_file(f.buf, f.len);
	T("whole file: ends cleanly", w.ret == 0);
	T("whole file: 3 records", w.nr == 3);
	T("whole file: comm decoded", !strcmp(w.comm, "prog"));
	T("whole file: sample fields", w.samples == 2 && w.last_ip == 0x402000 && w.last_time == 300);
	T("whole file: callchain", w.chain_sum == 3 * 0x401000 + 3 + 2 * 0x402000 + 1);
	T("whole file: no messages", msgs.len == 0);
	sbuf_release(&d);
	sbuf_release(&f);
}

static void test_byte_swapped(void)
{
	struct sbuf d = SBUF_INIT, f = SBUF_INIT;
	struct walk w;

	big = true;
	basic_data(&d);
	file_mode(&f, &d, 0, 0);
	big = false;
	w = walk_file(f.buf, f.len);
	T("swapped: ends cleanly", w.ret == 0 && msgs.len == 0);
	T("swapped: same records", w.nr == 3 && w.samples == 2 && !strcmp(w.comm, "prog"));
	T("swapped: same fields", w.last_ip == 0x402000 && w.last_time == 300 &&
	  w.chain_sum == 3 * 0x401000 + 3 + 2 * 0x402000 + 1);
	sbuf_release(&d);
	sbuf_release(&f);
}

static void test_truncated_header(void)
{
	struct sbuf d = SBUF_INIT, f = SBUF_INIT;
	struct walk w;

	basic_data(&d);
	file_mode(&f, &d, 0, 0);
	w = walk_file(f.buf, 60);
	T("truncated header: refused", w.ret == -2);
	T("truncated header: says so", said("file header is truncated (60 of 104 bytes)"));
	w = walk_file(f.buf, 5);
	T("5-byte file: refused", w.ret == -2 && said("too short"));
	w = walk_file("PERFILE3xxxxxxxxxxxxxxxxx", 24);
	T("bad magic: refused", w.ret == -2 && said("bad magic at offset 0"));
	sbuf_release(&d);
	sbuf_release(&f);
}

static void test_truncated_record(void)
{
	struct sbuf d = SBUF_INIT, f = SBUF_INIT;
	size_t data_off = 104 + PERF_ATTR_SIZE_VER7 + 16;
	struct walk w;

	basic_data(&d);
	file_mode(&f, &d, 0, 0);
	/* cut inside the last sample (comm 48 bytes, first sample 72) */
	w = walk_file(f.buf, f.len - 10);
	T("truncated record: records before it", w.nr == 2 && w.samples == 1);
	T("truncated record: damaged", w.ret == -1);
	{
		char want[128];

		snprintf(want, sizeof(want), "record at offset %zu (type 9, size 64) is cut short at 54 bytes",
			 data_off + 48 + 72);
		T("truncated record: names the offset", said(want));
		if (!said(want)) printf("# want: %s\n# got: %s", want, msgs.buf);
	}
	T("truncated record: data section cut short", said("is cut short at"));
	/* a record header cut in the middle */
	w = walk_file(f.buf, data_off + 48 + 4);
	T("truncated record header: named", w.ret == -1 && w.nr == 1 && said("record header at offset"));
	sbuf_release(&d);
	sbuf_release(&f);
}

static void test_bad_sizes(void)
{
	struct sbuf d = SBUF_INIT, f = SBUF_INIT;
	size_t data_off = 104 + PERF_ATTR_SIZE_VER7 + 16;
	char want[128];
	struct walk w;

	rec_comm(&d, 42, "prog", 100);
	rec_header(&d, PERF_RECORD_MMAP, 0, 0);
	rec_sample(&d, 42, 200, 0x401000, 1);
	file_mode(&f, &d, 0, 0);
	w = walk_file(f.buf, f.len);
	snprintf(want, sizeof(want), "record at offset %zu has invalid size 0", data_off + 48);
	T("size 0: stops there", w.ret == -1 && w.nr == 1 && said(want));

	sbuf_reset(&d);
	sbuf_reset(&f);
	rec_comm(&d, 42, "prog", 100);
	rec_header(&d, PERF_RECORD_MMAP, 0, 4000);      /* past the end */
	file_mode(&f, &d, 0, 0);
	w = walk_file(f.buf, f.len);
	T("size past end: stops there", w.ret == -1 && w.nr == 1 && said("(type 1, size 4000) is cut short at 8 bytes"));

	/* data.size in the header larger than the file */
	sbuf_reset(&f);
	file_mode(&f, &d, 0, 1 << 20);
	w = walk_file(f.buf, f.len);
	T("data size past end of file: warned", said("is cut short at"));
	sbuf_release(&d);
	sbuf_release(&f);
}

static void test_unknown_and_malformed(void)
{
	struct sbuf d = SBUF_INIT, f = SBUF_INIT;
	struct walk w;

	rec_comm(&d, 42, "prog", 100);
	rec_header(&d, 200, 0, 24);                      /* unknown kernel type */
	put(&d, 1, 8);
	put(&d, 2, 8);
	rec_header(&d, PERF_RECORD_SAMPLE, 0, 16);       /* sample too short for its fields */
	put(&d, 0x400000, 8);
	rec_sample(&d, 42, 300, 0x402000, 1);
	file_mode(&f, &d, 0, 0);
	w = walk_file(f.buf, f.len);
	T("unknown type: skipped by size, walk goes on", w.ret == 0 && w.samples == 1 &&
	  w.last_ip == 0x402000);
	T("unknown type: counted, said at the end", said("skipped 1 record of unknown type 200\n"));
	T("short sample: skipped with a warning", said("does not match its event's sample_type"));
	sbuf_reset(&d);
	sbuf_reset(&f);
	/* a callchain nr of 2^32 in a small record */
	rec_header(&d, PERF_RECORD_SAMPLE, 0, 48);
	put(&d, 0x400000, 8);
	put(&d, 42, 4);
	put(&d, 42, 4);
	put(&d, 5, 8);
	put(&d, 1, 8);
	put(&d, 1ULL << 32, 8);
	file_mode(&f, &d, 0, 0);
	w = walk_file(f.buf, f.len);
	T("huge callchain nr: rejected, not allocated", w.ret == 0 && w.samples == 0 &&
	  said("does not match"));
	sbuf_release(&d);
	sbuf_release(&f);
}

/* pd_reader__sideband_only(): samples come back undecoded, the sideband as ever. */
static void test_sideband_only(void)
{
	struct sbuf d = SBUF_INIT, f = SBUF_INIT;
	struct pd_reader *r;
	struct pd_event ev;
	int ret, samples = 0, undecoded = 0, comms = 0;

	rec_comm(&d, 42, "prog", 100);
	rec_sample(&d, 42, 200, 0x401000, 3);
	rec_header(&d, PERF_RECORD_SAMPLE, 0, 16);       /* too short for its fields */
	put(&d, 0x400000, 8);
	rec_comm(&d, 43, "other", 300);
	file_mode(&f, &d, 0, 0);
	sbuf_reset(&msgs);
	write_file(f.buf, f.len);
	r = pd_reader__open(path);
	if (r)
		pd_reader__sideband_only(r);
	while (r && (ret = pd_reader__next(r, &ev)) > 0) {
		if (ev.type == PERF_RECORD_SAMPLE) {
			samples++;
			undecoded += !ev.sample.ip && !ev.sample.time && !ev.sample.callchain &&
				     ev.size >= 16;
		} else if (ev.type == PERF_RECORD_COMM) {
			comms += !strcmp(ev.u.comm.comm, comms ? "other" : "prog") &&
				 ev.sample.time == (comms ? 300u : 100u);
		}
	}
	T("sideband only: every sample returned, none decoded", r && samples == 2 && undecoded == 2);
	T("sideband only: the sideband decoded as ever", comms == 2);
	T("sideband only: no sample counted bad, nothing said",
	  r && !pd_reader__nr_bad_samples(r) && msgs.len == 0);
	pd_reader__delete(r);
	sbuf_release(&d);
	sbuf_release(&f);
}

/* Unknown types of every kind are counted by type and said once, at the end. */
static void test_unknown_counted(void)
{
	static const uint32_t types[] = { 90, 30, 90, 70000, 23, 90, 100000, 63 };
	struct sbuf d = SBUF_INIT, f = SBUF_INIT;
	struct walk w;
	size_t i;

	rec_comm(&d, 42, "prog", 100);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		rec_header(&d, types[i], 0, 16);
		put(&d, i, 8);
	}
	/* known types jitsym has no use for: not counted */
	rec_header(&d, PERF_RECORD_TEXT_POKE, 0, 16);
	put(&d, 0, 8);
	rec_header(&d, 84, 0, 16);                       /* BPF_METADATA, perf 6.16 */
	put(&d, 0, 8);
	rec_sample(&d, 42, 300, 0x402000, 1);
	file_mode(&f, &d, 0, 0);
	w = walk_file(f.buf, f.len);
	T("unknown types: walk goes on", w.ret == 0 && w.samples == 1 && w.nr == 3);
	T("unknown types: one warning, counts per type",
	  said("': skipped 1 record of unknown type 23, 1 of type 30, 1 of type 63, "
	       "3 of type 90, 2 of types above 255\n"));
	T("unknown types: said once", !strstr(strstr(msgs.buf, "skipped") + 1, "skipped"));
	sbuf_release(&d);
	sbuf_release(&f);
}

static void test_attr_mismatch(void)
{
	struct sbuf d = SBUF_INIT, f = SBUF_INIT;
	struct walk w;

	basic_data(&d);
	file_mode(&f, &d, PERF_ATTR_SIZE_VER7 + 16 + 20, 0);
	w = walk_file(f.buf, f.len);
	T("attr count mismatch: warned", said("attr count mismatch"));
	T("attr count mismatch: whole entries used", w.samples == 2);
	sbuf_reset(&f);
	file_mode(&f, &d, 10, 0);
	w = walk_file(f.buf, f.len);
	T("no whole attr: refused", w.ret == -2 && said("no events in the attrs section"));
	sbuf_release(&d);
	sbuf_release(&f);
}

static void test_compressed(void)
{
	struct sbuf d = SBUF_INIT, f = SBUF_INIT, c = SBUF_INIT;
	size_t bound, n, half;
	char *z;
	struct walk w;

	basic_data(&d);
	/* split into two frames in the middle of a record, as perf may */
	half = d.len / 2 + 3;
	bound = ZSTD_compressBound(d.len);
	/* the records keep the frames' exact sizes: padding after a frame is not zstd */
	z = xmalloc(bound);
	n = ZSTD_compress(z, bound, d.buf, half, 3);
	rec_header(&c, PERF_RECORD_COMPRESSED, 0, (uint16_t)(8 + n));
	sbuf_add(&c, z, n);
	n = ZSTD_compress(z, bound, d.buf + half, d.len - half, 3);
	rec_header(&c, PERF_RECORD_COMPRESSED, 0, (uint16_t)(8 + n));
	sbuf_add(&c, z, n);
	free(z);
	file_mode(&f, &c, 0, 0);
	w = walk_file(f.buf, f.len);
	T("compressed: all records", w.ret == 0 && w.nr == 3 && w.samples == 2 && !strcmp(w.comm, "prog"));
	T("compressed: fields", w.last_ip == 0x402000 && w.chain_sum == 3 * 0x401000 + 3 + 2 * 0x402000 + 1);
	/* corrupt the zstd payload */
	f.buf[f.len - 5] ^= 0x5a;
	f.buf[f.len - 6] ^= 0x5a;
	w = walk_file(f.buf, f.len);
	T("corrupt compressed: damaged, no crash", w.ret == -1 || said("compressed"));
	sbuf_release(&d);
	sbuf_release(&f);
	sbuf_release(&c);
}

/* A COMPRESSED2 record (perf 6.15): header, u64 data_size, payload padded to 8. */
static void put_compressed2(struct sbuf *out, const void *z, size_t n, uint64_t data_size)
{
	static const char zero[8];
	size_t padded = (n + 7) / 8 * 8;

	rec_header(out, 83, 0, (uint16_t)(16 + padded));
	put(out, data_size, 8);
	sbuf_add(out, z, n);
	sbuf_add(out, zero, padded - n);
}

static void test_compressed2(void)
{
	struct sbuf d = SBUF_INIT, f = SBUF_INIT, c = SBUF_INIT;
	size_t bound, n, half;
	char *z;
	struct walk w;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		big = pass;
		basic_data(&d);
		half = d.len / 2 + 3;
		bound = ZSTD_compressBound(d.len);
		z = xmalloc(bound);
		n = ZSTD_compress(z, bound, d.buf, half, 3);
		put_compressed2(&c, z, n, n);
		n = ZSTD_compress(z, bound, d.buf + half, d.len - half, 3);
		put_compressed2(&c, z, n, n);
		file_mode(&f, &c, 0, 0);
		big = false;
		w = walk_file(f.buf, f.len);
		T(pass ? "compressed2, swapped: all records" : "compressed2: all records",
		  w.ret == 0 && w.nr == 3 && w.samples == 2 && !strcmp(w.comm, "prog") && msgs.len == 0);
		T(pass ? "compressed2, swapped: fields" : "compressed2: fields", w.last_ip == 0x402000 &&
		  w.chain_sum == 3 * 0x401000 + 3 + 2 * 0x402000 + 1);
		sbuf_reset(&c);
		sbuf_reset(&f);
		/* data_size one past the record: damage, named with its offset */
		big = pass;
		put_compressed2(&c, z, n, (n + 7) / 8 * 8 + 1);
		file_mode(&f, &c, 0, 0);
		big = false;
		w = walk_file(f.buf, f.len);
		T("compressed2, data_size past the record: damaged", w.ret == -1 && w.nr == 0);
		T("compressed2, data_size past the record: said",
		  said("': compressed record at offset ") && said(" is malformed: ") &&
		  said(" data bytes stated, "));
		sbuf_reset(&c);
		sbuf_reset(&f);
		/* too short to hold data_size */
		rec_header(&c, 83, 0, 8);
		file_mode(&f, &c, 0, 0);
		w = walk_file(f.buf, f.len);
		T("compressed2, no data_size: damaged", w.ret == -1 &&
		  said("is malformed (size 8)"));
		free(z);
		sbuf_reset(&d);
		sbuf_reset(&c);
		sbuf_reset(&f);
	}
	sbuf_release(&d);
	sbuf_release(&f);
	sbuf_release(&c);
}

static void test_pipe_mode(void)
{
	struct sbuf f = SBUF_INIT, d = SBUF_INIT;
	size_t attr_start;
	struct walk w;

	sbuf_add(&f, "PERFILE2", 8);
	put(&f, 16, 8);
	attr_start = f.len;
	rec_header(&f, PERF_RECORD_HEADER_ATTR, 0, 8 + PERF_ATTR_SIZE_VER7 + 8);
	put_attr(&f);
	put(&f, 77, 8);                               /* one id */
	(void)attr_start;
	basic_data(&d);
	sbuf_add(&f, d.buf, d.len);
	w = walk_file(f.buf, f.len);
	T("pipe mode: attrs from records, samples decoded", w.ret == 0 && w.samples == 2 &&
	  w.last_ip == 0x402000 && !strcmp(w.comm, "prog"));
	sbuf_release(&f);
	sbuf_release(&d);
}

/* ---- --call-graph dwarf: user registers and stack dumps ------------------ */

/*
 * A ST_DWARF sample, seed telling samples apart: an empty call chain (the
 * kernel part only, and the sample is in user mode), abi and nr_regs
 * registers (seed << 12 | i), a stack dump whose size field says size and
 * which holds dump bytes (seed << 4 | i, wrapping), dyn_size when size is
 * not 0, then REGS_INTR with abi NONE. The fields may say more than the
 * record holds: that is what the bounds are for.
 */
struct dwarf_rec {
	uint64_t abi;
	size_t nr_regs;
	uint64_t size;
	size_t dump;
	uint64_t dyn;
	unsigned seed;
};

static void rec_dwarf(struct sbuf *b, const struct dwarf_rec *d)
{
	struct sbuf body = SBUF_INIT;
	size_t i;

	put(&body, 0x401000, 8);
	put(&body, 42, 4);
	put(&body, 42, 4);
	put(&body, 500 + d->seed, 8);
	put(&body, 1000, 8);
	put(&body, 0, 8);                      /* callchain nr */
	put(&body, d->abi, 8);
	for (i = 0; i < d->nr_regs; i++)
		put(&body, (uint64_t)d->seed << 12 | i, 8);
	put(&body, d->size, 8);
	for (i = 0; i < d->dump; i++)
		sbuf_addch(&body, (char)(uint8_t)(d->seed << 4 | i));
	if (d->size)
		put(&body, d->dyn, 8);
	put(&body, PERF_SAMPLE_REGS_ABI_NONE, 8);  /* REGS_INTR */
	rec_header(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, (uint16_t)(8 + body.len));
	sbuf_add(b, body.buf, body.len);
	sbuf_release(&body);
}

/* A file of the given dwarf samples, with an attr sampling mask's registers. */
static struct walk walk_dwarf_file(uint64_t mask, const struct dwarf_rec *d, size_t n)
{
	struct sbuf data = SBUF_INIT, f = SBUF_INIT;
	struct walk w;
	size_t i;

	attr_st = ST_DWARF;
	attr_regs_user = mask;
	attr_regs_intr = 0x3;                  /* not sampled: abi NONE */
	for (i = 0; i < n; i++)
		rec_dwarf(&data, &d[i]);
	file_mode(&f, &data, 0, 0);
	w = walk_file(f.buf, f.len);
	attr_st = ST;
	attr_regs_user = attr_regs_intr = 0;
	sbuf_release(&data);
	sbuf_release(&f);
	return w;
}

static bool stack_is(const struct walk *w, unsigned seed, size_t n)
{
	size_t i;

	if (w->stack_size != n || w->stack_null != !n)
		return false;
	for (i = 0; i < n && i < sizeof(w->stack); i++)
		if (w->stack[i] != (uint8_t)(seed << 4 | i))
			return false;
	return true;
}

static bool regs_are(const struct walk *w, unsigned seed, size_t n)
{
	size_t i;

	if (w->regs_null || (size_t)__builtin_popcountll(w->mask) != n)
		return false;
	for (i = 0; i < n; i++)
		if (w->regs[i] != ((uint64_t)seed << 12 | i))
			return false;
	return true;
}

static void test_dwarf_fields(void)
{
	struct dwarf_rec d = { PERF_SAMPLE_REGS_ABI_64, 5, 16, 16, 16, 1 };
	struct walk w;

	w = walk_dwarf_file(0x10f, &d, 1);
	T("dwarf: sample read", w.ret == 0 && w.samples == 1 && msgs.len == 0);
	T("dwarf: abi and mask", w.abi == PERF_SAMPLE_REGS_ABI_64 && w.mask == 0x10f);
	T("dwarf: registers by bit", regs_are(&w, 1, 5));
	T("dwarf: the whole dump", stack_is(&w, 1, 16));
	T("dwarf: an empty call chain is not NULL", !w.chain_null);
	d.dyn = 8;
	w = walk_dwarf_file(0x10f, &d, 1);
	T("dwarf: dyn_size below the dump: that much", w.samples == 1 && stack_is(&w, 1, 8));
	d.dyn = 0;
	w = walk_dwarf_file(0x10f, &d, 1);
	T("dwarf: dyn_size 0: no stack", w.samples == 1 && stack_is(&w, 1, 0));
	d.size = d.dump = 0;
	w = walk_dwarf_file(0x10f, &d, 1);
	T("dwarf: size 0: no dump, no dyn_size", w.samples == 1 && msgs.len == 0 &&
	  stack_is(&w, 1, 0) && regs_are(&w, 1, 5));
}

static void test_dwarf_bounds(void)
{
	struct dwarf_rec d = { PERF_SAMPLE_REGS_ABI_64, 4, 4096, 16, 16, 2 };
	struct walk w;

	w = walk_dwarf_file(0xf, &d, 1);
	T("dwarf: dump size past the record: skipped", w.ret == 0 && w.samples == 0 &&
	  said("does not match its event's sample_type"));
	d.size = UINT64_MAX;
	w = walk_dwarf_file(0xf, &d, 1);
	T("dwarf: dump size 2^64-1: skipped", w.ret == 0 && w.samples == 0 && said("does not match"));
	d.size = 16;
	d.dyn = 64;
	w = walk_dwarf_file(0xf, &d, 1);
	T("dwarf: dyn_size past the dump: clamped", w.samples == 1 && stack_is(&w, 2, 16));
	T("dwarf: dyn_size past the dump: warned",
	  said("claims 64 bytes of user stack in a 16-byte dump"));
	d.dyn = UINT64_MAX;
	w = walk_dwarf_file(0xf, &d, 1);
	T("dwarf: dyn_size 2^64-1: clamped", w.samples == 1 && stack_is(&w, 2, 16));
	d.dyn = 16;
	w = walk_dwarf_file(0xffff, &d, 1);
	T("dwarf: more registers in the mask than the record holds: skipped",
	  w.ret == 0 && w.samples == 0 && said("does not match"));
	w = walk_dwarf_file(~0ULL, &d, 1);
	T("dwarf: mask of 64 registers in a small record: skipped", w.samples == 0);
	d.abi = PERF_SAMPLE_REGS_ABI_NONE;
	d.nr_regs = 0;
	w = walk_dwarf_file(0xf, &d, 1);
	T("dwarf: abi NONE: no registers", w.samples == 1 && w.regs_null && w.abi == 0 &&
	  w.mask == 0);
	T("dwarf: abi NONE: no values skipped, the dump found", stack_is(&w, 2, 16) &&
	  msgs.len == 0);
}

static void test_dwarf_swapped(void)
{
	struct dwarf_rec d = { PERF_SAMPLE_REGS_ABI_64, 3, 24, 24, 20, 3 };
	struct sbuf data = SBUF_INIT, f = SBUF_INIT;
	struct walk w;

	attr_st = ST_DWARF;
	attr_regs_user = 0x7;
	big = true;
	rec_dwarf(&data, &d);
	file_mode(&f, &data, 0, 0);
	big = false;
	w = walk_file(f.buf, f.len);
	T("dwarf swapped: read", w.ret == 0 && w.samples == 1 && msgs.len == 0);
	T("dwarf swapped: abi, mask and registers swapped", w.abi == PERF_SAMPLE_REGS_ABI_64 &&
	  w.mask == 0x7 && regs_are(&w, 3, 3));
	T("dwarf swapped: stack bytes as they were, dyn_size swapped", stack_is(&w, 3, 20));
	attr_st = ST;
	attr_regs_user = 0;
	sbuf_release(&data);
	sbuf_release(&f);
}

/* Two COMPRESSED records holding data, split inside a record as perf may. */
static void put_compressed(struct sbuf *out, const struct sbuf *data)
{
	size_t half = data->len / 2 + 3, bound = ZSTD_compressBound(data->len), n;
	char *z = xmalloc(bound);

	n = ZSTD_compress(z, bound, data->buf, half, 3);
	rec_header(out, PERF_RECORD_COMPRESSED, 0, (uint16_t)(8 + n));
	sbuf_add(out, z, n);
	n = ZSTD_compress(z, bound, data->buf + half, data->len - half, 3);
	rec_header(out, PERF_RECORD_COMPRESSED, 0, (uint16_t)(8 + n));
	sbuf_add(out, z, n);
	free(z);
}

static void test_dwarf_pipe_compressed(void)
{
	struct dwarf_rec d = { PERF_SAMPLE_REGS_ABI_64, 4, 64, 64, 40, 4 };
	struct sbuf f = SBUF_INIT, data = SBUF_INIT;
	struct walk w;
	int pass;

	attr_st = ST_DWARF;
	attr_regs_user = 0xf;
	for (pass = 0; pass < 2; pass++) {
		big = pass == 1;
		sbuf_reset(&f);
		sbuf_reset(&data);
		sbuf_add(&f, big ? "2ELIFREP" : "PERFILE2", 8);
		put(&f, 16, 8);
		rec_header(&f, PERF_RECORD_HEADER_ATTR, 0, 8 + PERF_ATTR_SIZE_VER7 + 8);
		put_attr(&f);
		put(&f, 77, 8);
		rec_dwarf(&data, &d);
		d.seed = 5;
		rec_dwarf(&data, &d);
		put_compressed(&f, &data);
		big = false;
		w = walk_file(f.buf, f.len);
		T(pass ? "dwarf pipe, compressed, swapped: read" : "dwarf pipe, compressed: read",
		  w.ret == 0 && w.samples == 2 && msgs.len == 0);
		T(pass ? "dwarf pipe, compressed, swapped: fields" : "dwarf pipe, compressed: fields",
		  regs_are(&w, 5, 4) && stack_is(&w, 5, 40));
		d.seed = 4;
	}
	attr_st = ST;
	attr_regs_user = 0;
	sbuf_release(&f);
	sbuf_release(&data);
}

/* ---- the order queue keeps what a waiting sample points to ------------------ */

static int order_bad, order_seen;

static void order_check(void *ctx, const struct pd_event *ev)
{
	uint64_t seed = ev->sample.time;
	size_t i;

	(void)ctx;
	order_seen++;
	if (ev->sample.user_regs_mask != 0x5 || !ev->sample.user_regs ||
	    ev->sample.user_regs[0] != seed || ev->sample.user_regs[1] != seed + 1 ||
	    ev->sample.user_stack_size != 24 || !ev->sample.user_stack)
		order_bad++;
	for (i = 0; ev->sample.user_stack && i < 24; i++)
		order_bad += ev->sample.user_stack[i] != (uint8_t)(seed + i);
}

static void test_order_keeps_dwarf_fields(void)
{
	struct order_queue *q = order_queue__new(order_check, NULL);
	uint64_t regs[2];
	uint8_t stack[32];
	struct pd_event ev;
	uint64_t t;
	size_t i;

	/* as the reader does: the same scratch under every sample, rewritten */
	for (t = 10; t > 0; t--) {
		memset(&ev, 0, sizeof(ev));
		ev.type = PERF_RECORD_SAMPLE;
		ev.sample.has_time = true;
		ev.sample.time = t * 16;
		regs[0] = t * 16;
		regs[1] = t * 16 + 1;
		for (i = 0; i < sizeof(stack); i++)
			stack[i] = (uint8_t)(t * 16 + i);
		ev.sample.user_regs_abi = PERF_SAMPLE_REGS_ABI_64;
		ev.sample.user_regs_mask = 0x5;
		ev.sample.user_regs = regs;
		ev.sample.user_stack = stack;
		ev.sample.user_stack_size = 24;
		order_queue__push(q, &ev);
	}
	memset(regs, 0xff, sizeof(regs));
	memset(stack, 0xff, sizeof(stack));
	order_queue__flush(q);
	order_queue__delete(q);
	T("order: every waiting sample delivered", order_seen == 10);
	T("order: its registers and stack copied, not pointed to", order_bad == 0);
}

/*
 * Through a reader, the queue borrows the stack dumps of records in the
 * mapped file (order.h) and copies those of records inside COMPRESSED
 * ones, whose buffer the reader reuses: the dumps delivered are the
 * records' either way.
 */
static int borrow_bad, borrow_seen, borrow_in_map;

static void borrow_check(void *ctx, const struct pd_event *ev)
{
	unsigned seed = (unsigned)(ev->sample.time - 500);
	size_t i;

	(void)ctx;
	borrow_seen++;
	borrow_in_map += ev->in_map;
	if (ev->sample.user_stack_size != 40 || !ev->sample.user_stack)
		borrow_bad++;
	for (i = 0; ev->sample.user_stack && i < 40; i++)
		borrow_bad += ev->sample.user_stack[i] != (uint8_t)(seed << 4 | i);
}

static void borrow_walk(const struct sbuf *f)
{
	struct order_queue *q = order_queue__new(borrow_check, NULL);
	struct pd_reader *r;
	struct pd_event ev;

	borrow_bad = borrow_seen = borrow_in_map = 0;
	write_file(f->buf, f->len);
	r = pd_reader__open(path);
	if (!r) {
		borrow_bad = -1;
		order_queue__delete(q);
		return;
	}
	order_queue__borrow_from(q, r);
	while (pd_reader__next(r, &ev) > 0)
		order_queue__push(q, &ev);
	order_queue__flush(q);
	order_queue__delete(q);
	pd_reader__delete(r);
}

static void test_order_borrows_mapped_stacks(void)
{
	struct dwarf_rec d = { PERF_SAMPLE_REGS_ABI_64, 4, 64, 64, 40, 0 };
	struct sbuf data = SBUF_INIT, c = SBUF_INIT, f = SBUF_INIT;
	unsigned i;

	attr_st = ST_DWARF;
	attr_regs_user = 0xf;
	/* newest first: every sample waits in the queue until the flush */
	for (i = 0; i < 40; i++) {
		d.seed = 40 - i;
		rec_dwarf(&data, &d);
	}
	file_mode(&f, &data, 0, 0);
	borrow_walk(&f);
	T("order, mapped file: every sample, in the mapping", borrow_seen == 40 &&
	  borrow_in_map == 40);
	T("order, mapped file: the borrowed dumps are the records'", borrow_bad == 0);
	put_compressed(&c, &data);
	sbuf_reset(&f);
	file_mode(&f, &c, 0, 0);
	borrow_walk(&f);
	T("order, compressed: every sample, none in the mapping", borrow_seen == 40 &&
	  borrow_in_map == 0);
	T("order, compressed: the copied dumps are the records'", borrow_bad == 0);
	attr_st = ST;
	attr_regs_user = 0;
	sbuf_release(&data);
	sbuf_release(&c);
	sbuf_release(&f);
}

int main(void)
{
	int fd = mkstemp(path);

	if (fd < 0)
		return 99;
	close(fd);
	msg_set_sink(capture);
	test_reads_whole_file();
	test_byte_swapped();
	test_truncated_header();
	test_truncated_record();
	test_bad_sizes();
	test_unknown_and_malformed();
	test_sideband_only();
	test_attr_mismatch();
	test_unknown_counted();
	test_compressed();
	test_compressed2();
	test_pipe_mode();
	test_dwarf_fields();
	test_dwarf_bounds();
	test_dwarf_swapped();
	test_dwarf_pipe_compressed();
	test_order_keeps_dwarf_fields();
	test_order_borrows_mapped_stacks();
	unlink(path);
	sbuf_release(&msgs);
	return test_done();
}
