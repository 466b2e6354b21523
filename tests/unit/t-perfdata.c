/*
 * Unit tests for the perf.data reader: the bounds checks on untrusted
 * input, byte-swapped files, compressed records and pipe mode. Each test
 * builds a small file in memory (one attr, a few records), writes it to
 * a temporary file and reads it back through pd_reader.
 */
#include "common.h"
#include "perfdata.h"
#include "sbuf.h"
#include "test.h"

#include <perf/event.h>
#include <unistd.h>
#include <zstd.h>

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | \
	    PERF_SAMPLE_CALLCHAIN)

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

/* The attr as a big-endian compiler lays it out when big is set. */
static void put_attr(struct sbuf *b)
{
	size_t start = b->len;
	uint64_t flags = 1ULL << 18 | 1ULL << 10;      /* sample_id_all, freq */

	put(b, PERF_TYPE_SOFTWARE, 4);
	put(b, PERF_ATTR_SIZE_VER7, 4);
	put(b, PERF_COUNT_SW_CPU_CLOCK, 8);
	put(b, 4000, 8);                               /* sample_freq */
	put(b, ST, 8);
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
};

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
	test_attr_mismatch();
	test_compressed();
	test_pipe_mode();
	unlink(path);
	sbuf_release(&msgs);
	return test_done();
}
