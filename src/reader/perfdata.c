/*
 * perfdata: the perf.data reader. See perfdata.h for the contract and
 * perfdata-internal.h for the files it is split into.
 *
 * Input comes from one of two sources behind the same peek/advance calls:
 * a regular file is mapped read-only; a pipe (or stdin) is read into a
 * buffer that only ever holds the record being looked at (plus read-ahead).
 * Records inside PERF_RECORD_COMPRESSED containers are decompressed with a
 * zstd stream into a second buffer and handed out from there; a record may
 * be split across two containers, so a partial record is kept until the
 * next container arrives.
 */
#include "reader/perfdata-internal.h"
#include "common/vfs.h"
#include "common/sbuf.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- input ---------------------------------------------------------- */

static int input_open(struct pd_input *in, const char *path)
{
	char vbuf[VFS_PATH_BUF];
	struct stat st;

	memset(in, 0, sizeof(*in));
	in->fd = strcmp(path, "-") ? open(vfs_path(path, VFS_PERFDATA, vbuf), O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
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
	in->hold = UINT64_MAX;
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
	in->hold = UINT64_MAX;
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
 * about PD_MAP_WINDOW however large the file. Pointers into records
 * already returned stay valid (the mapping is private and never written:
 * a page given back is read from the file again if touched), but would
 * cost a fault and a read, so the pages from in->hold on, which the
 * order queue still points into (pd_reader__keep_from()), are kept.
 */
#define PD_MAP_WINDOW (8u << 20)

static void input_release_behind(struct pd_input *in)
{
	uint64_t keep_from = in->pos > PD_MAP_WINDOW / 2 ? in->pos - PD_MAP_WINDOW / 2 : 0;
	uint64_t upto;

	if (keep_from > in->hold)
		keep_from = in->hold;
	/* whole pages only; the page size asked only when there is something to give back */
	if (in->borrowed || keep_from <= in->released + PD_MAP_WINDOW)
		return;
	upto = keep_from & ~((uint64_t)sysconf(_SC_PAGESIZE) - 1);
	if (upto <= in->released + PD_MAP_WINDOW)
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
	} else if (pd_reader__read_header(r)) {
		goto fail;
	}
	pd_reader__compute_id_pos(r);
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
void pd_reader__sideband_only(struct pd_reader *r) { r->samples_undecoded = true; }

/* ---- header records that need the input (pipe mode) ------------------ */

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

/* ---- record types the reader does not know ------------------------- */

/* Whether type is one of perf's up to PD_RECORD_USER_MAX (perf 6.16). */
static bool record_type_known(uint32_t type)
{
	if (type < PERF_RECORD_USER_TYPE_START)
		return type >= PERF_RECORD_MMAP && type <= PD_RECORD_KERNEL_MAX;
	return type <= PD_RECORD_USER_MAX;
}

static void unknown__count(struct pd_reader *r, uint32_t type)
{
	r->nr_unknown[type < PD_UNKNOWN_TYPES ? type : PD_UNKNOWN_TYPES]++;
}

/*
 * Under -v, when the walk ends: perf's own records of no use to symbols,
 * and header features newer than perf 6.12's, that were skipped.
 */
static void perf_only__say(struct pd_reader *r)
{
	static const char *const names[] = { "BPF_METADATA", "SCHEDSTAT_CPU", "SCHEDSTAT_DOMAIN" };
	struct sbuf sb = SBUF_INIT;
	size_t i;
	int feat;

	for (i = 0; i < 3; i++)
		if (r->nr_perf_only[i])
			sbuf_addf(&sb, "%s%" PRIu64 " %s", sb.len ? ", " : "", r->nr_perf_only[i],
				  names[i]);
	if (sb.len)
		note("'%s': skipped perf's own records of no use to symbols: %s", r->path, sb.buf);
	sbuf_reset(&sb);
	for (feat = FEAT_KNOWN_LAST + 1, i = 0; feat < FEAT_MAX; feat++)
		if (r->new_feats[feat / 64] & (1ULL << (feat % 64))) {
			sbuf_addf(&sb, "%s%d", sb.len ? ", " : "", feat);
			i++;
		}
	if (sb.len)
		note("'%s': skipped %zu header feature%s newer than jitsym knows: %s", r->path,
		     i, i == 1 ? "" : "s", sb.buf);
	sbuf_release(&sb);
}

/* Once, when the walk ends: how many records of which unknown types were skipped. */
static void unknown__say(struct pd_reader *r)
{
	struct sbuf sb = SBUF_INIT;
	size_t t;

	if (r->unknown_said)
		return;
	r->unknown_said = true;
	for (t = 0; t <= PD_UNKNOWN_TYPES; t++) {
		uint64_t n = r->nr_unknown[t];

		if (!n)
			continue;
		sbuf_addf(&sb, "%s%" PRIu64 " %s", sb.len ? ", " : "", n,
			  !sb.len ? (n == 1 ? "record of unknown type" : "records of unknown type") :
			  "of type");
		if (t < PD_UNKNOWN_TYPES)
			sbuf_addf(&sb, " %zu", t);
		else
			sbuf_addf(&sb, "s above %d", PD_UNKNOWN_TYPES - 1);
	}
	if (sb.len)
		warning("'%s': skipped %s", r->path, sb.buf);
	sbuf_release(&sb);
	perf_only__say(r);
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
	/* a pipe's buffer and the decompressed stream's are reused; the mapping is not */
	ev->in_map = !in_comp && r->in.map;
	if (!record_type_known(ev->type)) {
		unknown__count(r, ev->type);
		return 0;
	}
	if (ev->type == PERF_RECORD_SAMPLE) {
		if (r->samples_undecoded)
			return 1;
		if (pd_reader__decode_sample(r, rec, size, ev))
			return 1;
		r->nr_bad_samples++;
		warning("'%s': sample at %soffset %" PRIu64 " does not match its event's "
			"sample_type (size %zu); skipped", r->path,
			in_comp ? "decompressed " : "", off, size);
		return 0;
	}
	if (ev->type >= PD_RECORD_BPF_METADATA && ev->type <= PD_RECORD_SCHEDSTAT_DOMAIN) {
		r->nr_perf_only[ev->type - PD_RECORD_BPF_METADATA]++;
		return 0;
	}
	if (ev->type >= PERF_RECORD_USER_TYPE_START)
		return 1;
	if (pd_reader__decode_sideband(r, rec, size, ev))
		return 1;
	warning("'%s': record of type %u at %soffset %" PRIu64 " is malformed (size %zu); skipped",
		r->path, ev->type, in_comp ? "decompressed " : "", off, size);
	return 0;
}

/*
 * A COMPRESSED2 record: its u64 data_size says how many of the bytes after
 * it are zstd's (the rest, to the record's size, is padding).
 */
static int compressed2(struct pd_reader *r, const uint8_t *rec, size_t size, uint64_t off)
{
	uint64_t data_size;

	if (size < 16) {
		error("'%s': compressed record at offset %" PRIu64 " is malformed (size %zu)",
		      r->path, off, size);
		return damaged(r);
	}
	data_size = rec_u64(rec, 8, r->info.swapped);
	if (data_size > size - 16) {
		error("'%s': compressed record at offset %" PRIu64 " is malformed: %" PRIu64
		      " data bytes stated, %zu held", r->path, off, data_size, size - 16);
		return damaged(r);
	}
	if (decompress(r, rec + 16, (size_t)data_size, off))
		return damaged(r);
	return 1;
}

/* Header-ish records consumed here; returns -1 on damage, 1 if consumed, 0 if not. */
static int consume_special(struct pd_reader *r, uint32_t type, const uint8_t *rec,
			   size_t size, uint64_t off)
{
	int feat;

	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
		pd_reader__attr_record(r, rec, size);
		return 1;
	case PERF_RECORD_HEADER_FEATURE:
		if (size < sizeof(struct perf_record_header_feature))
			return 1;
		feat = (int)rec_u64(rec, 8, r->info.swapped) & 0xff;
		/* rec is in a buffer that is reused: the tracing data is copied */
		if (feat == FEAT_TRACING_DATA)
			pd_reader__keep_tracing_data(r, rec + 16, size - 16);
		else
			pd_reader__feature(r, feat, rec + 16, size - 16);
		return 1;
	case PERF_RECORD_HEADER_BUILD_ID:
		pd_reader__build_id(r, rec, size, r->info.swapped);
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
	case PD_RECORD_COMPRESSED2:
		return compressed2(r, rec, size, off);
	case PERF_RECORD_HEADER_EVENT_TYPE: case PERF_RECORD_ID_INDEX:
	case PERF_RECORD_AUXTRACE_INFO: case PERF_RECORD_THREAD_MAP:
	case PERF_RECORD_CPU_MAP: case PERF_RECORD_STAT_CONFIG:
	case PERF_RECORD_STAT: case PERF_RECORD_STAT_ROUND:
	case PERF_RECORD_EVENT_UPDATE: case PERF_RECORD_TIME_CONV:
	case PERF_RECORD_FINISHED_INIT:
		return 1;
	case PD_RECORD_BPF_METADATA: case PD_RECORD_SCHEDSTAT_CPU:
	case PD_RECORD_SCHEDSTAT_DOMAIN:
		r->nr_perf_only[type - PD_RECORD_BPF_METADATA]++;
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

/* The next record for the caller: 1, 0 at the end, -1 on damage. */
static int walk_next(struct pd_reader *r, struct pd_event *ev)
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

void pd_reader__keep_from(struct pd_reader *r, uint64_t offset)
{
	r->in.hold = offset;
}

int pd_reader__next(struct pd_reader *r, struct pd_event *ev)
{
	int ret = walk_next(r, ev);

	if (ret <= 0)
		unknown__say(r);
	return ret;
}
