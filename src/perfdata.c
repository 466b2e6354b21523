/*
 * perfdata: the perf.data reader. See perfdata.h for the contract.
 *
 * Input comes from one of two sources behind the same peek/advance calls:
 * a regular file is mapped read-only; a pipe (or stdin) is read into a
 * buffer that only ever holds the record being looked at (plus read-ahead).
 * Records inside PERF_RECORD_COMPRESSED containers are decompressed with a
 * zstd stream into a second buffer and handed out from there; a record may
 * be split across two containers, so a partial record is kept until the
 * next container arrives.
 */
#include "common.h"
#include "perfdata.h"
#include "strpool.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <perf/event.h>
#include <uthash.h>
#include <zstd.h>

#define PERF_MAGIC2      0x32454c4946524550ULL   /* "PERFILE2" */
#define PD_MAX_TRACING   (256u << 20)            /* tracing data cap */
/*
 * What one COMPRESSED record may decompress to: perf compresses one ring
 * buffer read at a time, so no more than the COMPRESSED feature's mmap_len
 * (plus the part of a record left over from the previous one). Without the
 * feature, a generous default. Either way a small hostile record cannot
 * make the reader allocate more than this.
 */
#define PD_DECOMP_DEFAULT (64u << 20)
#define PD_DECOMP_MAX     (1u << 30)
/*
 * Decompressed bytes buffered at most before the records in them are
 * handed out (more than the largest record, 64 KiB, plus one zstd block):
 * a container is inflated step by step, so memory stays at this however
 * much it decompresses to.
 */
#define PD_DECOMP_STEP    (256u << 10)
#define PD_MAX_ATTRS     4096
#define PD_MAX_IDS       (1u << 20)
#define PD_READ_CHUNK    (256u << 10)

/* Feature bits (perf.data-file-format.txt). */
enum {
	FEAT_TRACING_DATA = 1, FEAT_BUILD_ID = 2, FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4, FEAT_VERSION = 5, FEAT_ARCH = 6, FEAT_NRCPUS = 7,
	FEAT_CPUDESC = 8, FEAT_CPUID = 9, FEAT_TOTAL_MEM = 10, FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12, FEAT_CLOCKID = 23, FEAT_COMPRESSED = 27,
	FEAT_MAX = 256,
};

/* A bounded, byte-order-aware cursor over untrusted bytes. */
struct cursor {
	const uint8_t *p;
	size_t left;
	bool swap;
	bool bad;          /* set by the first read past the end */
};

static struct cursor cursor_make(const void *p, size_t len, bool swap)
{
	struct cursor c = { p, len, swap, false };

	return c;
}

static bool cursor_need(struct cursor *c, size_t n)
{
	if (c->bad || n > c->left) {
		c->bad = true;
		return false;
	}
	return true;
}

static uint64_t cursor_u64(struct cursor *c)
{
	uint64_t v;

	if (!cursor_need(c, 8))
		return 0;
	memcpy(&v, c->p, 8);
	c->p += 8;
	c->left -= 8;
	return c->swap ? __builtin_bswap64(v) : v;
}

static uint32_t cursor_u32(struct cursor *c)
{
	uint32_t v;

	if (!cursor_need(c, 4))
		return 0;
	memcpy(&v, c->p, 4);
	c->p += 4;
	c->left -= 4;
	return c->swap ? __builtin_bswap32(v) : v;
}

static const uint8_t *cursor_bytes(struct cursor *c, uint64_t n)
{
	const uint8_t *p = c->p;

	if (n > SIZE_MAX || !cursor_need(c, (size_t)n))
		return NULL;
	c->p += n;
	c->left -= n;
	return p;
}

static void cursor_skip(struct cursor *c, uint64_t n)
{
	cursor_bytes(c, n);
}

/* Read a field of a libperf record struct at its offset and natural size. */
static uint64_t rec_u64(const uint8_t *rec, size_t off, bool swap)
{
	uint64_t v;

	memcpy(&v, rec + off, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static uint32_t rec_u32(const uint8_t *rec, size_t off, bool swap)
{
	uint32_t v;

	memcpy(&v, rec + off, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static uint16_t rec_u16(const uint8_t *rec, size_t off, bool swap)
{
	uint16_t v;

	memcpy(&v, rec + off, 2);
	return swap ? __builtin_bswap16(v) : v;
}

#define REC64(rec, type, field, swap) rec_u64(rec, offsetof(type, field), swap)
#define REC32(rec, type, field, swap) rec_u32(rec, offsetof(type, field), swap)

struct id_entry {
	uint64_t id;
	struct pd_attr *attr;
	UT_hash_handle hh;
};

struct pd_input {
	int fd;
	const uint8_t *map;     /* regular file: the whole file, mapped */
	uint64_t map_size;
	uint8_t *buf;           /* pipe: read-ahead buffer */
	size_t buf_pos, buf_len, buf_alloc;
	bool eof;
	uint64_t pos;           /* file offset of the next unread byte */
	uint64_t end;           /* file mode: end of the data section */
	bool borrowed;          /* map is the caller's buffer */
	uint64_t released;      /* map pages before this were given back */
};

struct pd_reader {
	char *path;
	struct pd_input in;
	struct pd_info info;
	struct strpool *pool;
	struct pd_attr **attrs;
	size_t nr_attrs, alloc_attrs;
	struct id_entry *ids;
	int id_pos;             /* sample: u64 index of the id, or -1 */
	int id_pos_end;         /* sideband trailer: u64 index from the end, or -1 */
	bool damaged;
	uint64_t data_size_stated;  /* the header's data size when the file is shorter, else 0 */
	uint64_t nr_bad_samples;
	/* decompression */
	ZSTD_DStream *zds;
	uint8_t *dbuf;
	size_t dpos, dlen, dalloc;
	uint64_t doff;          /* offset of dbuf[dpos] in the decompressed stream */
	uint64_t last_comp_off;
	uint8_t *zin;           /* the COMPRESSED record being inflated */
	size_t zin_pos, zin_len, zin_alloc;
	bool zin_full;          /* the last step filled its output: zstd may hold more */
	uint64_t zout;          /* bytes this record has decompressed to so far */
	/* scratch for native-order copies */
	uint64_t *chain;
	size_t chain_alloc;
	uint8_t *rec;           /* copy of a record from a pipe */
	size_t rec_alloc;
	struct pd_build_id *bids;
	size_t bids_alloc;
	uint8_t *tracing_buf;   /* pipe-mode tracing data */
};

/* ---- input ---------------------------------------------------------- */

static int input_open(struct pd_input *in, const char *path)
{
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (in->fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(in->fd, &st) < 0)
		return error("cannot stat '%s': %s", path, strerror(errno));
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, in->fd, 0);

		if (m == MAP_FAILED)
			return error("cannot map '%s': %s", path, strerror(errno));
		in->map = m;
		in->map_size = (uint64_t)st.st_size;
	}
	in->end = UINT64_MAX;
	return 0;
}

/* A buffer the caller owns stands in for a mapped file. */
static void input_buffer(struct pd_input *in, const void *buf, size_t len)
{
	memset(in, 0, sizeof(*in));
	in->fd = -1;
	in->map = len ? buf : NULL;
	in->map_size = len;
	in->borrowed = true;
	in->end = UINT64_MAX;
	in->eof = true;
}

static void input_close(struct pd_input *in)
{
	if (in->map && !in->borrowed)
		munmap((void *)in->map, in->map_size);
	if (in->fd > STDIN_FILENO)
		close(in->fd);
	free(in->buf);
}

static uint64_t input_limit(const struct pd_input *in)
{
	return in->map && in->end > in->map_size ? in->map_size : in->end;
}

/* Fill the pipe buffer until n bytes are available or the input ends. */
static void input_fill(struct pd_input *in, size_t n)
{
	if (in->buf_pos && in->buf_len - in->buf_pos < n) {
		memmove(in->buf, in->buf + in->buf_pos, in->buf_len - in->buf_pos);
		in->buf_len -= in->buf_pos;
		in->buf_pos = 0;
	}
	while (!in->eof && in->buf_len - in->buf_pos < n) {
		ssize_t got;

		ALLOC_GROW(in->buf, st_add(in->buf_len, PD_READ_CHUNK), in->buf_alloc);
		got = read(in->fd, in->buf + in->buf_len, in->buf_alloc - in->buf_len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got < 0)
				warning("read error: %s", strerror(errno));
			in->eof = true;
			break;
		}
		in->buf_len += (size_t)got;
	}
}

/* Pointer to the next n bytes, or NULL (and *avail set) if fewer remain. */
static const uint8_t *input_peek(struct pd_input *in, size_t n, size_t *avail)
{
	if (in->map) {
		uint64_t lim = input_limit(in);
		uint64_t left = in->pos < lim ? lim - in->pos : 0;

		*avail = left > SIZE_MAX ? SIZE_MAX : (size_t)left;
		return left >= n ? in->map + in->pos : NULL;
	}
	input_fill(in, n);
	*avail = in->buf_len - in->buf_pos;
	return *avail >= n ? in->buf + in->buf_pos : NULL;
}

/*
 * A mapped file is read front to back once: the pages behind the reader
 * are handed back to the kernel as it goes, so resident memory stays at
 * about PD_MAP_WINDOW however large the file (nothing keeps pointers
 * into records already returned: the order queue copies what it keeps,
 * and the feature sections lie after the data).
 */
#define PD_MAP_WINDOW (8u << 20)

static void input_release_behind(struct pd_input *in)
{
	uint64_t keep_from = in->pos > PD_MAP_WINDOW / 2 ? in->pos - PD_MAP_WINDOW / 2 : 0;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t upto = keep_from & ~(page - 1);

	if (in->borrowed || upto <= in->released + PD_MAP_WINDOW)
		return;
	madvise((void *)(in->map + in->released), (size_t)(upto - in->released), MADV_DONTNEED);
	in->released = upto;
}

static void input_advance(struct pd_input *in, size_t n)
{
	in->pos += n;
	if (!in->map)
		in->buf_pos += n;
	else
		input_release_behind(in);
}

/* Skip n bytes (auxtrace payloads); false if the input ends first. */
static bool input_skip(struct pd_input *in, uint64_t n)
{
	while (n) {
		size_t avail, step = n > PD_READ_CHUNK ? PD_READ_CHUNK : (size_t)n;

		if (!input_peek(in, step, &avail)) {
			input_advance(in, avail);
			return false;
		}
		input_advance(in, step);
		n -= step;
	}
	return true;
}

/* ---- header --------------------------------------------------------- */

static const char *intern_str(struct pd_reader *r, const uint8_t *p, size_t len)
{
	return strpool__intern_len(r->pool, (const char *)p, strnlen((const char *)p, len));
}

/* A perf_header_string: u32 len, then len bytes holding a NUL-terminated string. */
static const char *cursor_header_string(struct pd_reader *r, struct cursor *c)
{
	uint32_t len = cursor_u32(c);
	const uint8_t *s = cursor_bytes(c, len);

	return s ? intern_str(r, s, len) : NULL;
}

const char *pd_attr_default_name(const struct perf_event_attr *a)
{
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults",
		"alignment-faults", "emulation-faults", "dummy", "bpf-output",
		"cgroup-switches",
	};
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
	};

	if (a->type == PERF_TYPE_SOFTWARE && a->config < ARRAY_SIZE(sw))
		return sw[a->config];
	if (a->type == PERF_TYPE_HARDWARE && a->config < ARRAY_SIZE(hw))
		return hw[a->config];
	if (a->type == PERF_TYPE_TRACEPOINT)
		return "tracepoint";
	return "unknown-event";
}

/*
 * Copy an attr of attr_size bytes into native order. A larger attr than
 * ours is a newer perf: the fields we know are read, the rest skipped. The
 * bitfield word after read_format was laid out from the other end of the
 * word by a compiler of the other byte order, so each of its bytes has its
 * bits reversed (its bytes are not swapped).
 */
/* perf_event_attr fields narrower than a u64, swapped at their own size. */
#define ATTR_FIELD(f) { offsetof(struct perf_event_attr, f), sizeof(((struct perf_event_attr *)0)->f) }
static const struct { size_t off, size; } attr_narrow[] = {
	ATTR_FIELD(type), ATTR_FIELD(size), ATTR_FIELD(wakeup_events),
	ATTR_FIELD(bp_type), ATTR_FIELD(sample_stack_user), ATTR_FIELD(clockid),
	ATTR_FIELD(aux_watermark), ATTR_FIELD(sample_max_stack),
	ATTR_FIELD(__reserved_2), ATTR_FIELD(aux_sample_size),
	ATTR_FIELD(__reserved_3),
};

static void swap_in_place(uint8_t *p, size_t size)
{
	size_t i;

	for (i = 0; i < size / 2; i++) {
		uint8_t t = p[i];

		p[i] = p[size - 1 - i];
		p[size - 1 - i] = t;
	}
}

static uint8_t bit_reverse8(uint8_t b)
{
	uint8_t r = 0;
	int k;

	for (k = 0; k < 8; k++)
		if (b & (1u << k))
			r |= (uint8_t)(0x80u >> k);
	return r;
}

/*
 * Copy an attr of attr_size bytes into native order. A larger attr than
 * ours is a newer perf: the fields we know are read, the rest skipped. The
 * bitfield word after read_format was laid out from the other end of the
 * word by a compiler of the other byte order, so each of its bytes has its
 * bits reversed and its bytes stay where they are.
 */
static void attr_from_file(struct perf_event_attr *dst, const uint8_t *src,
			   size_t attr_size, bool swap)
{
	size_t n = attr_size < sizeof(*dst) ? attr_size : sizeof(*dst);
	size_t flags_off = offsetof(struct perf_event_attr, read_format) + 8;
	uint8_t *d = (uint8_t *)dst;
	size_t off, i;

	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, n);
	if (swap) {
		for (off = 0; off + 8 <= n; off += 8) {
			bool narrow = false;

			for (i = 0; i < ARRAY_SIZE(attr_narrow); i++)
				if (attr_narrow[i].off / 8 == off / 8)
					narrow = true;
			if (off == flags_off)
				for (i = 0; i < 8; i++)
					d[off + i] = bit_reverse8(d[off + i]);
			else if (!narrow)
				swap_in_place(d + off, 8);
		}
		for (i = 0; i < ARRAY_SIZE(attr_narrow); i++)
			if (attr_narrow[i].off + attr_narrow[i].size <= n)
				swap_in_place(d + attr_narrow[i].off, attr_narrow[i].size);
	}
	if (dst->size == 0)
		dst->size = PERF_ATTR_SIZE_VER0;
}

static unsigned int id_trailer_size(uint64_t st)
{
	unsigned int n = 0;

	n += !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
	     !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
	     !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER);
	return n * 8;
}

static struct pd_attr *add_attr(struct pd_reader *r, const struct perf_event_attr *a)
{
	struct pd_attr *pa;

	if (r->nr_attrs >= PD_MAX_ATTRS) {
		error("'%s': more than %d events", r->path, PD_MAX_ATTRS);
		return NULL;
	}
	pa = xcalloc(1, sizeof(*pa));
	pa->attr = *a;
	pa->index = (unsigned int)r->nr_attrs;
	pa->name = pd_attr_default_name(a);
	pa->id_trailer_size = a->sample_id_all ? id_trailer_size(a->sample_type) : 0;
	ALLOC_GROW(r->attrs, r->nr_attrs + 1, r->alloc_attrs);
	r->attrs[r->nr_attrs++] = pa;
	return pa;
}

static void attr_add_id(struct pd_reader *r, struct pd_attr *pa, uint64_t id)
{
	struct id_entry *e;

	HASH_FIND(hh, r->ids, &id, sizeof(id), e);
	if (e)
		return;
	e = xmalloc(sizeof(*e));
	e->id = id;
	e->attr = pa;
	HASH_ADD(hh, r->ids, id, sizeof(e->id), e);
	pa->ids = xreallocarray(pa->ids, pa->nr_ids + 1, sizeof(*pa->ids));
	pa->ids[pa->nr_ids++] = id;
}

/* Where the id sits in samples and in sideband trailers (from the first attr). */
static void compute_id_pos(struct pd_reader *r)
{
	uint64_t st;
	int pos = 0;

	r->id_pos = r->id_pos_end = -1;
	if (!r->nr_attrs)
		return;
	st = r->attrs[0]->attr.sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		r->id_pos = 0;
		r->id_pos_end = 1;
		return;
	}
	if (!(st & PERF_SAMPLE_ID))
		return;
	pos += !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
	       !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
	r->id_pos = pos;
	r->id_pos_end = 1 + !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU);
}

/*
 * The attrs section: entries of the header's attr_size bytes, each a
 * perf_event_attr followed by the file section of its ids.
 */
static int read_attr_section(struct pd_reader *r, const uint8_t *base, uint64_t fsize,
			     uint64_t entry, uint64_t off, uint64_t size)
{
	uint64_t attr_size = entry - 16, nr, i;
	bool swap = r->info.swapped;

	if (entry < PERF_ATTR_SIZE_VER0 + 16 || entry > 4096)
		return error("'%s': header attr_size %" PRIu64 " (at offset 16) is invalid",
			     r->path, entry);
	if (off > fsize || size > fsize - off)
		return error("'%s': attrs section (offset %" PRIu64 ", size %" PRIu64
			     ") is past the end of the file (%" PRIu64 " bytes)", r->path, off, size, fsize);
	if (size % entry)
		warning("'%s': attrs section size %" PRIu64 " is not a multiple of %" PRIu64
			" (attr count mismatch); reading the whole entries", r->path, size, entry);
	nr = size / entry;
	for (i = 0; i < nr; i++) {
		const uint8_t *p = base + off + i * entry;
		struct perf_event_attr a;
		struct pd_attr *pa;
		uint64_t ids_off = rec_u64(p, attr_size, swap);
		uint64_t ids_size = rec_u64(p, attr_size + 8, swap), k;

		attr_from_file(&a, p, attr_size, swap);
		pa = add_attr(r, &a);
		if (!pa)
			return -1;
		if (ids_off > fsize || ids_size > fsize - ids_off || ids_size / 8 > PD_MAX_IDS) {
			warning("'%s': ids of event %" PRIu64 " (offset %" PRIu64 ", size %" PRIu64
				") are past the end of the file", r->path, i, ids_off, ids_size);
			continue;
		}
		for (k = 0; k < ids_size / 8; k++)
			attr_add_id(r, pa, rec_u64(base + ids_off, k * 8, swap));
	}
	if (!r->nr_attrs)
		return error("'%s': no events in the attrs section", r->path);
	return 0;
}

static void add_build_id(struct pd_reader *r, const uint8_t *rec, size_t size, bool swap)
{
	size_t fn_off = offsetof(struct perf_record_header_build_id, filename);
	uint16_t misc = rec_u16(rec, offsetof(struct perf_event_header, misc), swap);
	struct pd_build_id *b;

	if (size <= fn_off)
		return;
	ALLOC_GROW(r->bids, r->info.nr_build_ids + 1, r->bids_alloc);
	b = &r->bids[r->info.nr_build_ids++];
	b->pid = (int32_t)REC32(rec, struct perf_record_header_build_id, pid, swap);
	b->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	memcpy(b->id, rec + offsetof(struct perf_record_header_build_id, data), 20);
	b->size = 20;
	if (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) {
		uint8_t sz = rec[offsetof(struct perf_record_header_build_id, size)];

		b->size = sz <= 20 ? sz : 20;
	}
	b->filename = intern_str(r, rec + fn_off, size - fn_off);
	r->info.build_ids = r->bids;
}

static void parse_build_ids(struct pd_reader *r, struct cursor *c)
{
	while (c->left >= sizeof(struct perf_event_header)) {
		uint16_t size = rec_u16(c->p, offsetof(struct perf_event_header, size), c->swap);

		if (size < sizeof(struct perf_event_header) || size > c->left) {
			warning("'%s': build-id table entry of size %u does not fit; ignoring the rest",
				r->path, size);
			return;
		}
		add_build_id(r, c->p, size, c->swap);
		cursor_skip(c, size);
	}
}

static void parse_event_desc(struct pd_reader *r, struct cursor *c)
{
	uint32_t nr = cursor_u32(c), attr_size = cursor_u32(c), i, k;

	if (attr_size < PERF_ATTR_SIZE_VER0 || nr > PD_MAX_ATTRS)
		return;
	for (i = 0; i < nr && !c->bad; i++) {
		struct perf_event_attr a;
		const uint8_t *p = cursor_bytes(c, attr_size);
		uint32_t nr_ids = cursor_u32(c);
		const char *name = cursor_header_string(r, c);
		uint64_t first_id = 0;

		if (!p || !name)
			break;
		attr_from_file(&a, p, attr_size, c->swap);
		for (k = 0; k < nr_ids && !c->bad; k++) {
			uint64_t id = cursor_u64(c);

			if (k == 0)
				first_id = id;
		}
		/* Match by id when there is one, else by position. */
		if (nr_ids) {
			struct id_entry *e;

			HASH_FIND(hh, r->ids, &first_id, sizeof(first_id), e);
			if (e) {
				e->attr->name = name;
				continue;
			}
		}
		if (i < r->nr_attrs)
			r->attrs[i]->name = name;
	}
}

static void parse_cmdline(struct pd_reader *r, struct cursor *c)
{
	uint32_t nr = cursor_u32(c), i;
	char *line = NULL;
	size_t len = 0;

	for (i = 0; i < nr && !c->bad; i++) {
		const char *arg = cursor_header_string(r, c);
		size_t alen;

		if (!arg)
			break;
		alen = strlen(arg);
		line = xrealloc(line, st_add(st_add(len, alen), 2));
		if (len)
			line[len++] = ' ';
		memcpy(line + len, arg, alen);
		len += alen;
		line[len] = '\0';
	}
	r->info.cmdline = line ? strpool__intern(r->pool, line) : NULL;
	free(line);
}

/* One feature section's payload. */
static void parse_feature(struct pd_reader *r, int feat, const uint8_t *p, uint64_t size)
{
	struct cursor c = cursor_make(p, (size_t)size, r->info.swapped);
	struct pd_info *in = &r->info;

	switch (feat) {
	case FEAT_TRACING_DATA:
		in->tracing_data = p;
		in->tracing_data_size = size;
		break;
	case FEAT_BUILD_ID:   parse_build_ids(r, &c); break;
	case FEAT_HOSTNAME:   in->hostname = cursor_header_string(r, &c); break;
	case FEAT_OSRELEASE:  in->osrelease = cursor_header_string(r, &c); break;
	case FEAT_VERSION:    in->version = cursor_header_string(r, &c); break;
	case FEAT_ARCH:       in->arch = cursor_header_string(r, &c); break;
	case FEAT_CPUDESC:    in->cpudesc = cursor_header_string(r, &c); break;
	case FEAT_CPUID:      in->cpuid = cursor_header_string(r, &c); break;
	case FEAT_CMDLINE:    parse_cmdline(r, &c); break;
	case FEAT_EVENT_DESC: parse_event_desc(r, &c); break;
	case FEAT_NRCPUS:
		in->nr_cpus_avail = cursor_u32(&c);
		in->nr_cpus_online = cursor_u32(&c);
		break;
	case FEAT_TOTAL_MEM:
		in->total_mem_kb = cursor_u64(&c);
		break;
	case FEAT_CLOCKID:
		in->clock_res_ns = cursor_u64(&c);
		break;
	case FEAT_COMPRESSED:
		cursor_u32(&c);                 /* version */
		in->comp_type = cursor_u32(&c);
		in->comp_level = cursor_u32(&c);
		cursor_u32(&c);                 /* ratio */
		in->comp_mmap_len = cursor_u32(&c);
		in->compressed = !c.bad;
		break;
	default:
		break;
	}
	if (c.bad)
		warning("'%s': feature %d is truncated (%" PRIu64 " bytes)", r->path, feat, size);
}

static void read_features(struct pd_reader *r, const uint64_t bits[4])
{
	const uint8_t *base = r->in.map;
	uint64_t fsize = r->in.map_size;
	uint64_t off = r->info.data_offset + r->info.data_size;
	int feat;

	for (feat = 0; feat < FEAT_MAX; feat++) {
		uint64_t f_off, f_size;

		if (!(bits[feat / 64] & (1ULL << (feat % 64))))
			continue;
		if (off > fsize || fsize - off < 16) {
			warning("'%s': feature table at offset %" PRIu64 " is past the end of the file",
				r->path, off);
			return;
		}
		f_off = rec_u64(base, off, r->info.swapped);
		f_size = rec_u64(base, off + 8, r->info.swapped);
		off += 16;
		if (f_off > fsize || f_size > fsize - f_off) {
			warning("'%s': feature %d (offset %" PRIu64 ", size %" PRIu64
				") is past the end of the file", r->path, feat, f_off, f_size);
			continue;
		}
		parse_feature(r, feat, base + f_off, f_size);
	}
}

static int read_file_header(struct pd_reader *r)
{
	const uint8_t *h = r->in.map;
	uint64_t fsize = r->in.map_size, hsize, attr_size, bits[4];
	bool swap = r->info.swapped;
	int i;

	if (fsize < 104)
		return error("'%s': file header is truncated (%" PRIu64 " of 104 bytes)",
			     r->path, fsize);
	hsize = rec_u64(h, 8, swap);
	if (hsize < 104 || hsize > fsize)
		return error("'%s': header size %" PRIu64 " is invalid", r->path, hsize);
	attr_size = rec_u64(h, 16, swap);
	r->info.data_offset = rec_u64(h, 40, swap);
	r->info.data_size = rec_u64(h, 48, swap);
	for (i = 0; i < 4; i++)
		bits[i] = rec_u64(h, 72 + 8 * i, swap);
	if (read_attr_section(r, h, fsize, attr_size, rec_u64(h, 24, swap), rec_u64(h, 32, swap)))
		return -1;
	if (r->info.data_offset > fsize)
		return error("'%s': data section offset %" PRIu64 " is past the end of the file (%"
			     PRIu64 " bytes)", r->path, r->info.data_offset, fsize);
	if (r->info.data_size == 0 && fsize > r->info.data_offset) {
		warning("'%s': header says the data section is empty (perf record did not finish?); "
			"reading to the end of the file", r->path);
		r->info.data_size = fsize - r->info.data_offset;
		memset(bits, 0, sizeof(bits));
	} else if (r->info.data_size > fsize - r->info.data_offset) {
		warning("'%s': data section (offset %" PRIu64 ", size %" PRIu64
			") is cut short at %" PRIu64 " bytes", r->path, r->info.data_offset,
			r->info.data_size, fsize);
		r->data_size_stated = r->info.data_size;
		r->info.data_size = fsize - r->info.data_offset;
		memset(bits, 0, sizeof(bits));
	}
	read_features(r, bits);
	r->in.pos = r->info.data_offset;
	r->in.end = r->info.data_offset + r->info.data_size;
	return 0;
}

/* Read the header of the input r->in holds; r is freed on failure. */
static struct pd_reader *reader_start(struct pd_reader *r)
{
	const char *path = r->path;
	const uint8_t *h;
	uint64_t magic, size;
	size_t avail;

	h = input_peek(&r->in, 16, &avail);
	if (!h) {
		error("'%s': not a perf.data file: too short (%zu bytes)", path, avail);
		goto fail;
	}
	memcpy(&magic, h, 8);
	if (magic == __builtin_bswap64(PERF_MAGIC2))
		r->info.swapped = true;
	else if (magic != PERF_MAGIC2) {
		error("'%s': not a perf.data file (bad magic at offset 0)", path);
		goto fail;
	}
	size = rec_u64(h, 8, r->info.swapped);
	if (size == 16) {
		/* pipe mode: attrs and features arrive as records */
		r->info.pipe_mode = true;
		input_advance(&r->in, 16);
	} else if (!r->in.map) {
		error("'%s': a file-mode perf.data cannot be read from a pipe", path);
		goto fail;
	} else if (read_file_header(r)) {
		goto fail;
	}
	compute_id_pos(r);
	return r;
fail:
	pd_reader__delete(r);
	return NULL;
}

struct pd_reader *pd_reader__open(const char *path)
{
	struct pd_reader *r = xcalloc(1, sizeof(*r));

	r->path = xstrdup(path);
	r->pool = strpool__new();
	if (input_open(&r->in, path)) {
		pd_reader__delete(r);
		return NULL;
	}
	return reader_start(r);
}

struct pd_reader *pd_reader__open_buffer(const void *buf, size_t len, const char *name)
{
	struct pd_reader *r = xcalloc(1, sizeof(*r));

	r->path = xstrdup(name);
	r->pool = strpool__new();
	input_buffer(&r->in, buf, len);
	return reader_start(r);
}

void pd_reader__delete(struct pd_reader *r)
{
	struct id_entry *e, *tmp;
	size_t i;

	if (!r)
		return;
	HASH_ITER(hh, r->ids, e, tmp) {
		HASH_DEL(r->ids, e);
		free(e);
	}
	for (i = 0; i < r->nr_attrs; i++) {
		free(r->attrs[i]->ids);
		free(r->attrs[i]);
	}
	free(r->attrs);
	input_close(&r->in);
	ZSTD_freeDStream(r->zds);
	free(r->dbuf);
	free(r->zin);
	free(r->chain);
	free(r->rec);
	free(r->bids);
	free(r->tracing_buf);
	strpool__delete(r->pool);
	free(r->path);
	free(r);
}

const struct pd_info *pd_reader__info(const struct pd_reader *r) { return &r->info; }
size_t pd_reader__nr_attrs(const struct pd_reader *r) { return r->nr_attrs; }
const struct pd_attr *pd_reader__attr(const struct pd_reader *r, size_t i) { return r->attrs[i]; }
const char *pd_reader__path(const struct pd_reader *r) { return r->path; }
bool pd_reader__damaged(const struct pd_reader *r) { return r->damaged; }
uint64_t pd_reader__nr_bad_samples(const struct pd_reader *r) { return r->nr_bad_samples; }

/* ---- samples -------------------------------------------------------- */

static struct pd_attr *attr_for_id(struct pd_reader *r, uint64_t id)
{
	struct id_entry *e;

	HASH_FIND(hh, r->ids, &id, sizeof(id), e);
	if (e)
		return e->attr;
	return r->nr_attrs == 1 ? r->attrs[0] : NULL;
}

static void skip_read_format(struct cursor *c, uint64_t rf)
{
	uint64_t per_value = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

	if (rf & PERF_FORMAT_GROUP) {
		uint64_t nr = cursor_u64(c);

		cursor_skip(c, 8 * (uint64_t)(!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
					      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
		if (nr > c->left / 8 / per_value) {
			c->bad = true;
			return;
		}
		cursor_skip(c, nr * per_value * 8);
		return;
	}
	cursor_skip(c, 8 * (per_value + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
}

static void read_callchain(struct pd_reader *r, struct cursor *c, struct pd_sample *s)
{
	uint64_t nr = cursor_u64(c), i;

	if (nr > c->left / 8) {
		c->bad = true;
		return;
	}
	ALLOC_GROW(r->chain, nr, r->chain_alloc);
	for (i = 0; i < nr; i++)
		r->chain[i] = cursor_u64(c);
	s->nr_callchain = nr;
	s->callchain = r->chain;
}

/* abi, then one u64 per bit of mask when abi is not PERF_SAMPLE_REGS_ABI_NONE. */
static void skip_regs(struct cursor *c, uint64_t mask)
{
	if (cursor_u64(c))
		cursor_skip(c, 8 * (uint64_t)__builtin_popcountll(mask));
}

static void read_sample_tail(struct cursor *c, const struct perf_event_attr *a,
			     struct pd_sample *s)
{
	uint64_t st = a->sample_type;

	if (st & PERF_SAMPLE_RAW) {
		s->raw_size = cursor_u32(c);
		s->raw_data = cursor_bytes(c, s->raw_size);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		s->nr_branches = cursor_u64(c);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			cursor_u64(c);
		if (s->nr_branches > c->left / sizeof(struct perf_branch_entry))
			c->bad = true;
		else
			cursor_skip(c, s->nr_branches * sizeof(struct perf_branch_entry));
	}
	if (st & PERF_SAMPLE_REGS_USER)
		skip_regs(c, a->sample_regs_user);
	if (st & PERF_SAMPLE_STACK_USER) {
		uint64_t size = cursor_u64(c);

		cursor_skip(c, size);
		if (size)
			cursor_u64(c);          /* dyn_size */
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = cursor_u64(c);
	if (st & PERF_SAMPLE_DATA_SRC)
		s->data_src = cursor_u64(c);
	if (st & PERF_SAMPLE_TRANSACTION)
		s->transaction = cursor_u64(c);
	if (st & PERF_SAMPLE_REGS_INTR)
		skip_regs(c, a->sample_regs_intr);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = cursor_u64(c);
	if (st & PERF_SAMPLE_CGROUP)
		s->cgroup = cursor_u64(c);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		cursor_u64(c);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		cursor_u64(c);
	if (st & PERF_SAMPLE_AUX)
		cursor_skip(c, cursor_u64(c));
}

/* Decode a PERF_RECORD_SAMPLE body; false if it does not fit or has no attr. */
static bool decode_sample(struct pd_reader *r, const uint8_t *rec, size_t size,
			  struct pd_sample *s)
{
	struct cursor c = cursor_make(rec + 8, size - 8, r->info.swapped);
	const struct pd_attr *pa;
	uint64_t st;

	if (r->id_pos >= 0) {
		if ((size_t)r->id_pos >= c.left / 8)
			return false;
		pa = attr_for_id(r, rec_u64(c.p, 8 * (size_t)r->id_pos, c.swap));
	} else {
		pa = r->nr_attrs ? r->attrs[0] : NULL;
	}
	if (!pa)
		return false;
	s->attr = pa;
	st = pa->attr.sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER) s->id = cursor_u64(&c);
	if (st & PERF_SAMPLE_IP)         s->ip = cursor_u64(&c);
	if (st & PERF_SAMPLE_TID) {
		s->pid = cursor_u32(&c);
		s->tid = cursor_u32(&c);
	}
	if (st & PERF_SAMPLE_TIME) {
		s->time = cursor_u64(&c);
		s->has_time = true;
	}
	if (st & PERF_SAMPLE_ADDR)       s->addr = cursor_u64(&c);
	if (st & PERF_SAMPLE_ID)         s->id = cursor_u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)  s->stream_id = cursor_u64(&c);
	if (st & PERF_SAMPLE_CPU) {
		s->cpu = cursor_u32(&c);
		cursor_u32(&c);
	}
	s->period = pa->attr.freq ? 1 : pa->attr.sample_period;
	if (st & PERF_SAMPLE_PERIOD)     s->period = cursor_u64(&c);
	if (st & PERF_SAMPLE_READ)       skip_read_format(&c, pa->attr.read_format);
	if (st & PERF_SAMPLE_CALLCHAIN)  read_callchain(r, &c, s);
	read_sample_tail(&c, &pa->attr, s);
	return !c.bad;
}

/* The sample_id trailer of a kernel sideband record, if its attr has one. */
static size_t decode_id_trailer(struct pd_reader *r, const uint8_t *rec, size_t size,
				struct pd_sample *s)
{
	const struct pd_attr *pa;
	struct cursor c;
	uint64_t st;

	if (!r->nr_attrs || !r->attrs[0]->attr.sample_id_all)
		return 0;
	if (r->id_pos_end > 0) {
		if ((size_t)r->id_pos_end * 8 > size - 8)
			return 0;
		pa = attr_for_id(r, rec_u64(rec, size - 8 * (size_t)r->id_pos_end, r->info.swapped));
	} else {
		pa = r->attrs[0];
	}
	if (!pa || pa->id_trailer_size > size - 8)
		return 0;
	s->attr = pa;
	st = pa->attr.sample_type;
	c = cursor_make(rec + size - pa->id_trailer_size, pa->id_trailer_size, r->info.swapped);
	if (st & PERF_SAMPLE_TID) {
		s->pid = cursor_u32(&c);
		s->tid = cursor_u32(&c);
	}
	if (st & PERF_SAMPLE_TIME) {
		s->time = cursor_u64(&c);
		s->has_time = true;
	}
	if (st & PERF_SAMPLE_ID)         s->id = cursor_u64(&c);
	if (st & PERF_SAMPLE_STREAM_ID)  s->stream_id = cursor_u64(&c);
	if (st & PERF_SAMPLE_CPU) {
		s->cpu = cursor_u32(&c);
		cursor_u32(&c);
	}
	if (st & PERF_SAMPLE_IDENTIFIER) s->id = cursor_u64(&c);
	return pa->id_trailer_size;
}

/* ---- sideband records ----------------------------------------------- */

/* A NUL-terminated string at [off, end) of the record, or NULL. */
static const char *rec_string(const uint8_t *rec, size_t off, size_t end)
{
	if (off >= end || !memchr(rec + off, '\0', end - off))
		return NULL;
	return (const char *)rec + off;
}

static bool decode_mmap(struct pd_reader *r, const uint8_t *rec, size_t end,
			struct pd_event *ev)
{
	bool swap = r->info.swapped, v2 = ev->type == PERF_RECORD_MMAP2;
	size_t fn_off = v2 ? offsetof(struct perf_record_mmap2, filename) :
			     offsetof(struct perf_record_mmap, filename);

	if (end < fn_off)
		return false;
	/* pid..pgoff are at the same offsets in both layouts */
	ev->u.mmap.pid = REC32(rec, struct perf_record_mmap, pid, swap);
	ev->u.mmap.tid = REC32(rec, struct perf_record_mmap, tid, swap);
	ev->u.mmap.start = REC64(rec, struct perf_record_mmap, start, swap);
	ev->u.mmap.len = REC64(rec, struct perf_record_mmap, len, swap);
	ev->u.mmap.pgoff = REC64(rec, struct perf_record_mmap, pgoff, swap);
	ev->u.mmap.prot = (ev->misc & PERF_RECORD_MISC_MMAP_DATA) ? 1 /* PROT_READ */ : 5;
	if (v2) {
		ev->u.mmap.prot = REC32(rec, struct perf_record_mmap2, prot, swap);
		ev->u.mmap.flags = REC32(rec, struct perf_record_mmap2, flags, swap);
		if (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			uint8_t n = rec[offsetof(struct perf_record_mmap2, build_id_size)];

			ev->u.mmap.build_id_size = n <= 20 ? n : 20;
			memcpy(ev->u.mmap.build_id,
			       rec + offsetof(struct perf_record_mmap2, build_id), 20);
		}
	}
	ev->u.mmap.filename = rec_string(rec, fn_off, end);
	return ev->u.mmap.filename != NULL;
}

/* Decode a kernel record other than a sample; false if malformed. */
static bool decode_sideband(struct pd_reader *r, const uint8_t *rec, size_t size,
			    struct pd_event *ev)
{
	bool swap = r->info.swapped;
	size_t end = size - decode_id_trailer(r, rec, size, &ev->sample);

	switch (ev->type) {
	case PERF_RECORD_COMM:
		if (end < offsetof(struct perf_record_comm, comm))
			return false;
		ev->u.comm.pid = REC32(rec, struct perf_record_comm, pid, swap);
		ev->u.comm.tid = REC32(rec, struct perf_record_comm, tid, swap);
		ev->u.comm.exec = ev->misc & PERF_RECORD_MISC_COMM_EXEC;
		ev->u.comm.comm = rec_string(rec, offsetof(struct perf_record_comm, comm), end);
		return ev->u.comm.comm != NULL;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (end < sizeof(struct perf_record_fork))
			return false;
		ev->u.fork.pid = REC32(rec, struct perf_record_fork, pid, swap);
		ev->u.fork.ppid = REC32(rec, struct perf_record_fork, ppid, swap);
		ev->u.fork.tid = REC32(rec, struct perf_record_fork, tid, swap);
		ev->u.fork.ptid = REC32(rec, struct perf_record_fork, ptid, swap);
		ev->u.fork.time = REC64(rec, struct perf_record_fork, time, swap);
		return true;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return decode_mmap(r, rec, end, ev);
	case PERF_RECORD_LOST:
		if (end < sizeof(struct perf_record_lost))
			return false;
		ev->u.lost.id = REC64(rec, struct perf_record_lost, id, swap);
		ev->u.lost.lost = REC64(rec, struct perf_record_lost, lost, swap);
		return true;
	case PERF_RECORD_KSYMBOL:
		if (end < offsetof(struct perf_record_ksymbol, name))
			return false;
		ev->u.ksymbol.addr = REC64(rec, struct perf_record_ksymbol, addr, swap);
		ev->u.ksymbol.len = REC32(rec, struct perf_record_ksymbol, len, swap);
		ev->u.ksymbol.ksym_type = rec_u16(rec, offsetof(struct perf_record_ksymbol, ksym_type), swap);
		ev->u.ksymbol.flags = rec_u16(rec, offsetof(struct perf_record_ksymbol, flags), swap);
		ev->u.ksymbol.name = rec_string(rec, offsetof(struct perf_record_ksymbol, name), end);
		return ev->u.ksymbol.name != NULL;
	default:
		return true;
	}
}

/* ---- header records (pipe mode) ------------------------------------- */

static void pipe_attr(struct pd_reader *r, const uint8_t *rec, size_t size)
{
	struct perf_event_attr a;
	uint32_t asize;
	struct pd_attr *pa;
	size_t off;

	if (size < 8 + PERF_ATTR_SIZE_VER0)
		goto bad;
	asize = rec_u32(rec, 8 + offsetof(struct perf_event_attr, size), r->info.swapped);
	if (asize == 0)
		asize = PERF_ATTR_SIZE_VER0;
	if (asize < PERF_ATTR_SIZE_VER0 || asize > size - 8)
		goto bad;
	attr_from_file(&a, rec + 8, asize, r->info.swapped);
	pa = add_attr(r, &a);
	if (!pa)
		return;
	for (off = 8 + asize; off + 8 <= size; off += 8)
		attr_add_id(r, pa, rec_u64(rec, off, r->info.swapped));
	compute_id_pos(r);
	return;
bad:
	warning("'%s': attr record at offset %" PRIu64 " is malformed; ignored",
		r->path, r->in.pos - size);
}

static bool pipe_tracing_data(struct pd_reader *r, const uint8_t *rec, size_t size)
{
	uint32_t len;
	uint64_t padded;
	const uint8_t *p;
	size_t avail;

	if (size < sizeof(struct perf_record_header_tracing_data))
		return true;
	len = REC32(rec, struct perf_record_header_tracing_data, size, r->info.swapped);
	padded = ((uint64_t)len + 7) & ~7ULL;
	if (len > PD_MAX_TRACING || r->tracing_buf) {
		warning("'%s': tracing data of %u bytes ignored", r->path, len);
		return input_skip(&r->in, padded);
	}
	p = input_peek(&r->in, (size_t)padded, &avail);
	if (!p)
		return false;
	r->tracing_buf = xmalloc(len ? len : 1);
	memcpy(r->tracing_buf, p, len);
	input_advance(&r->in, (size_t)padded);
	r->info.tracing_data = r->tracing_buf;
	r->info.tracing_data_size = len;
	return true;
}

/* Tracing data from a HEADER_FEATURE record: kept as a copy, as above. */
static void keep_tracing_data(struct pd_reader *r, const uint8_t *p, size_t size)
{
	if (size > PD_MAX_TRACING || r->tracing_buf) {
		warning("'%s': tracing data feature of %zu bytes ignored", r->path, size);
		return;
	}
	r->tracing_buf = xmalloc(size ? size : 1);
	memcpy(r->tracing_buf, p, size);
	r->info.tracing_data = r->tracing_buf;
	r->info.tracing_data_size = size;
}

/* ---- compressed records --------------------------------------------- */

static size_t decompress_limit(const struct pd_reader *r)
{
	uint64_t lim = r->info.comp_mmap_len ? (uint64_t)r->info.comp_mmap_len + 65536 :
		       PD_DECOMP_DEFAULT;

	return lim > PD_DECOMP_MAX ? PD_DECOMP_MAX : (size_t)lim;
}

/* Compressed input, or output zstd holds back, still to be inflated. */
static bool decompress_pending(const struct pd_reader *r)
{
	return r->zin_pos < r->zin_len || r->zin_full;
}

/* Inflate the current COMPRESSED record until PD_DECOMP_STEP bytes are buffered. */
static int decompress_step(struct pd_reader *r)
{
	ZSTD_inBuffer zin = { r->zin, r->zin_len, r->zin_pos };
	size_t limit = decompress_limit(r);
	uint64_t off = r->last_comp_off;

	if (r->dpos) {
		memmove(r->dbuf, r->dbuf + r->dpos, r->dlen - r->dpos);
		r->dlen -= r->dpos;
		r->dpos = 0;
	}
	while ((zin.pos < zin.size || r->zin_full) && r->dlen < PD_DECOMP_STEP) {
		ZSTD_outBuffer zout;
		size_t ret;

		if (r->zout >= limit)
			return error("'%s': compressed record at offset %" PRIu64
				     " decompresses to more than %zu bytes", r->path, off, limit);
		ALLOC_GROW(r->dbuf, r->dlen + ZSTD_DStreamOutSize(), r->dalloc);
		zout.dst = r->dbuf;
		zout.size = r->dalloc;
		zout.pos = r->dlen;
		ret = ZSTD_decompressStream(r->zds, &zout, &zin);
		if (ZSTD_isError(ret))
			return error("'%s': compressed record at offset %" PRIu64 " is corrupt: %s",
				     r->path, off, ZSTD_getErrorName(ret));
		r->zin_full = zout.pos == zout.size;
		r->zout += zout.pos - r->dlen;
		r->dlen = zout.pos;
	}
	r->zin_pos = zin.pos;
	return 0;
}

/*
 * Start on a COMPRESSED record's payload. It is copied (a pipe's buffer
 * moves on) and inflated a step at a time as its records are handed out.
 */
static int decompress(struct pd_reader *r, const uint8_t *p, size_t len, uint64_t off)
{
	if (!r->zds) {
		r->zds = ZSTD_createDStream();
		if (!r->zds)
			die("cannot create a zstd decompression stream");
		ZSTD_initDStream(r->zds);
	}
	ALLOC_GROW(r->zin, len, r->zin_alloc);
	if (len)        /* an empty payload leaves zin NULL */
		memcpy(r->zin, p, len);
	r->zin_pos = 0;
	r->zin_len = len;
	r->zin_full = false;
	r->zout = 0;
	r->last_comp_off = off;
	return decompress_step(r);
}

/* ---- the record walk ------------------------------------------------ */

static int damaged(struct pd_reader *r)
{
	r->damaged = true;
	return -1;
}

/* Decode one record of a type the caller sees; 1 to return it, 0 to skip. */
static int decode_record(struct pd_reader *r, const uint8_t *rec, size_t size,
			 uint64_t off, bool in_comp, struct pd_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = rec_u32(rec, 0, r->info.swapped);
	ev->misc = rec_u16(rec, 4, r->info.swapped);
	ev->size = (uint16_t)size;
	ev->offset = off;
	ev->in_compressed = in_comp;
	if (ev->type == PERF_RECORD_SAMPLE) {
		if (decode_sample(r, rec, size, &ev->sample))
			return 1;
		r->nr_bad_samples++;
		warning("'%s': sample at %soffset %" PRIu64 " does not match its event's "
			"sample_type (size %zu); skipped", r->path,
			in_comp ? "decompressed " : "", off, size);
		return 0;
	}
	if (ev->type >= PERF_RECORD_USER_TYPE_START)
		return 1;
	if (decode_sideband(r, rec, size, ev))
		return 1;
	warning("'%s': record of type %u at %soffset %" PRIu64 " is malformed (size %zu); skipped",
		r->path, ev->type, in_comp ? "decompressed " : "", off, size);
	return 0;
}

/* Header-ish records consumed here; returns -1 on damage, 1 if consumed, 0 if not. */
static int consume_special(struct pd_reader *r, uint32_t type, const uint8_t *rec,
			   size_t size, uint64_t off)
{
	int feat;

	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
		pipe_attr(r, rec, size);
		return 1;
	case PERF_RECORD_HEADER_FEATURE:
		if (size < sizeof(struct perf_record_header_feature))
			return 1;
		feat = (int)rec_u64(rec, 8, r->info.swapped) & 0xff;
		/* rec is in a buffer that is reused: the tracing data is copied */
		if (feat == FEAT_TRACING_DATA)
			keep_tracing_data(r, rec + 16, size - 16);
		else
			parse_feature(r, feat, rec + 16, size - 16);
		return 1;
	case PERF_RECORD_HEADER_BUILD_ID:
		add_build_id(r, rec, size, r->info.swapped);
		return 1;
	case PERF_RECORD_HEADER_TRACING_DATA:
		if (!pipe_tracing_data(r, rec, size)) {
			error("'%s': tracing data after offset %" PRIu64 " is truncated", r->path, off);
			return damaged(r);
		}
		return 1;
	case PERF_RECORD_AUXTRACE:
		if (size >= sizeof(struct perf_record_auxtrace) &&
		    !input_skip(&r->in, REC64(rec, struct perf_record_auxtrace, size, r->info.swapped))) {
			error("'%s': auxtrace data after offset %" PRIu64 " is truncated", r->path, off);
			return damaged(r);
		}
		return 1;
	case PERF_RECORD_COMPRESSED:
		if (decompress(r, rec + 8, size - 8, off))
			return damaged(r);
		return 1;
	case PERF_RECORD_HEADER_EVENT_TYPE: case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_AUXTRACE_INFO: case PERF_RECORD_THREAD_MAP:
	case PERF_RECORD_CPU_MAP: case PERF_RECORD_STAT_CONFIG:
	case PERF_RECORD_STAT: case PERF_RECORD_STAT_ROUND:
	case PERF_RECORD_EVENT_UPDATE: case PERF_RECORD_TIME_CONV:
	case PERF_RECORD_FINISHED_INIT:
		return 1;
	default:
		return 0;
	}
}

/* The next whole record from the decompressed buffer: 1, 0 if none, -1 damage. */
static int next_decompressed(struct pd_reader *r, struct pd_event *ev)
{
	for (;;) {
		while (r->dlen - r->dpos >= 8) {
			const uint8_t *rec = r->dbuf + r->dpos;
			uint16_t size = rec_u16(rec, 6, r->info.swapped);
			uint64_t off = r->doff;

			if (size < 8) {
				error("'%s': record in the compressed stream (decompressed offset %"
				      PRIu64 ") has invalid size %u; stopping", r->path, off, size);
				return damaged(r);
			}
			if (size > r->dlen - r->dpos)
				break;  /* still compressed, or in the next COMPRESSED record */
			r->dpos += size;
			r->doff += size;
			if (decode_record(r, rec, size, off, true, ev))
				return 1;
		}
		if (!decompress_pending(r))
			return 0;
		if (decompress_step(r))
			return damaged(r);
	}
}

int pd_reader__next(struct pd_reader *r, struct pd_event *ev)
{
	for (;;) {
		const uint8_t *rec;
		size_t avail, size;
		uint64_t off;
		uint32_t type;
		int ret;

		if (r->damaged)
			return -1;
		ret = next_decompressed(r, ev);
		if (ret)
			return ret;
		off = r->in.pos;
		rec = input_peek(&r->in, 8, &avail);
		if (!rec) {
			if (avail) {
				error("'%s': record header at offset %" PRIu64 " is truncated "
				      "(%zu bytes left); stopping there", r->path, off, avail);
				return damaged(r);
			}
			if (r->dlen > r->dpos) {
				error("'%s': compressed stream ends inside a record (compressed record "
				      "at offset %" PRIu64 ")", r->path, r->last_comp_off);
				return damaged(r);
			}
			if (r->data_size_stated) {
				/* cut at a record boundary: still cut short */
				error("'%s': data section ends at offset %" PRIu64 ", not at %" PRIu64
				      " as the header states; stopping there", r->path, off,
				      r->info.data_offset + r->data_size_stated);
				return damaged(r);
			}
			return 0;
		}
		type = rec_u32(rec, 0, r->info.swapped);
		size = rec_u16(rec, 6, r->info.swapped);
		if (size < 8) {
			error("'%s': record at offset %" PRIu64 " has invalid size %zu; stopping there",
			      r->path, off, size);
			return damaged(r);
		}
		rec = input_peek(&r->in, size, &avail);
		if (!rec) {
			error("'%s': record at offset %" PRIu64 " (type %u, size %zu) is cut short "
			      "at %zu bytes; stopping there", r->path, off, type, size, avail);
			return damaged(r);
		}
		input_advance(&r->in, size);
		ret = consume_special(r, type, rec, size, off);
		if (ret < 0)
			return -1;
		if (ret == 0 && decode_record(r, rec, size, off, false, ev))
			return 1;
	}
}
