#include "common/common.h"
#include "common/tarzst.h"
#include "common/outfile.h"
#include "common/sbuf.h"

#include <unistd.h>
#include <zstd.h>

/*
 * The tar format as POSIX.1-2008 (pax) describes it: 512-byte blocks; a
 * member is a header block, then its data padded to a whole block; an
 * archive ends with two zero blocks. The ustar header's fields, by offset:
 */
#define BLOCK 512
#define H_NAME      0     /* 100, not always NUL-terminated */
#define H_MODE      100   /* 8, octal */
#define H_UID       108   /* 8 */
#define H_GID       116   /* 8 */
#define H_SIZE      124   /* 12, octal or base-256 */
#define H_MTIME     136   /* 12, octal or base-256 */
#define H_CHKSUM    148   /* 8 */
#define H_TYPE      156   /* 1 */
#define H_LINKNAME  157   /* 100 */
#define H_MAGIC     257   /* 6: "ustar\0" */
#define H_VERSION   263   /* 2: "00" */
#define H_UNAME     265   /* 32 */
#define H_GNAME     297   /* 32 */
#define H_DEVMAJOR  329   /* 8 */
#define H_DEVMINOR  337   /* 8 */
#define H_PREFIX    345   /* 155 */
#define H_GNU_ISEXTENDED 482   /* GNU 'S' headers: more sparse map follows */
#define GNU_SPARSE_ISEXTENDED 504   /* the same flag in a map's extension block */
#define NAME_LEN    100
#define PREFIX_LEN  155

/* 11 octal digits: the largest size and mtime a ustar field holds */
#define OCTAL11_MAX ((UINT64_C(1) << 33) - 1)

/* How much data moves at a time: zstd's own input block size. */
#define CHUNK (128u << 10)
#define SPARSE_BLOCK 4096
_Static_assert(TARZST_MAX_HEADER + BLOCK <= CHUNK, "an extension header and its padding fit the buffer");

static const uint8_t zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

static bool all_zero(const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * Why name (len bytes) cannot be a member's name, or NULL when it can:
 * relative, '/'-separated components that are neither empty, "." nor
 * "..", no NUL. The reader has stripped "./" in front and '/' behind.
 */
static const char *bad_name(const char *name, size_t len)
{
	size_t i = 0;

	if (!len)
		return "it is empty";
	if (memchr(name, '\0', len))
		return "it contains a NUL byte";
	if (name[0] == '/')
		return "it is absolute";
	while (i <= len) {
		size_t end = i;

		while (end < len && name[end] != '/')
			end++;
		if (end == i)
			return "it has an empty component";
		if (end - i == 2 && name[i] == '.' && name[i + 1] == '.')
			return "it has a '..' component";
		if (end - i == 1 && name[i] == '.')
			return "it has a '.' component";
		i = end + 1;
	}
	return NULL;
}

/* ---- writing ------------------------------------------------------------ */

struct tarzst_writer {
	int fd;
	char *name;
	ZSTD_CStream *cs;
	uint8_t *out;
	size_t out_size;
	uint8_t *buf;          /* CHUNK: add_fd()'s reads */
	bool failed;           /* a write error, or a member left half written */
};

/* Write all of p; on failure say so (once) and mark w failed. */
static int write_out(struct tarzst_writer *w, const uint8_t *p, size_t n)
{
	if (!fd_write_all(w->fd, w->name, p, n))
		return 0;
	w->failed = true;
	return -1;
}

/* Compress n bytes (or, with mode ZSTD_e_end, end the frame), writing what comes out. */
static int compress(struct tarzst_writer *w, const void *p, size_t n, ZSTD_EndDirective mode)
{
	ZSTD_inBuffer in = { p, n, 0 };

	for (;;) {
		ZSTD_outBuffer out = { w->out, w->out_size, 0 };
		size_t left = ZSTD_compressStream2(w->cs, &out, &in, mode);

		if (ZSTD_isError(left)) {
			w->failed = true;
			return error("cannot compress '%s': %s", w->name, ZSTD_getErrorName(left));
		}
		if (out.pos && write_out(w, w->out, out.pos))
			return -1;
		if (mode == ZSTD_e_end ? !left : in.pos == in.size)
			return 0;
	}
}

static uint64_t padding(uint64_t size)
{
	return (BLOCK - size % BLOCK) % BLOCK;
}

static int pad_to_block(struct tarzst_writer *w, uint64_t size)
{
	static const uint8_t zeros[BLOCK];
	size_t pad = (size_t)padding(size);

	return pad ? compress(w, zeros, pad, ZSTD_e_continue) : 0;
}

struct tarzst_writer *tarzst_writer__new(int fd, const char *name, int level)
{
	struct tarzst_writer *w;
	size_t ret;

	if (!level)
		level = ZSTD_CLEVEL_DEFAULT;
	if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel()) {
		error("'%s': zstd level %d is not between %d and %d", name, level,
		      ZSTD_minCLevel(), ZSTD_maxCLevel());
		return NULL;
	}
	w = xcalloc(1, sizeof(*w));
	w->fd = fd;
	w->name = xstrdup(name);
	w->cs = ZSTD_createCStream();
	if (!w->cs)
		die("out of memory creating a zstd stream for '%s'", name);
	/* one thread and fixed parameters: the same bytes for the same input */
	ret = ZSTD_CCtx_setParameter(w->cs, ZSTD_c_compressionLevel, level);
	if (!ZSTD_isError(ret))
		ret = ZSTD_CCtx_setParameter(w->cs, ZSTD_c_checksumFlag, 1);
	if (ZSTD_isError(ret)) {
		error("'%s': cannot set up zstd: %s", name, ZSTD_getErrorName(ret));
		tarzst_writer__abort(w);
		return NULL;
	}
	w->out_size = ZSTD_CStreamOutSize();
	w->out = xmalloc(w->out_size);
	w->buf = xmalloc(CHUNK);
	return w;
}

/* width - 1 octal digits and a NUL, as ustar writes numbers; v fits. */
static void put_octal(uint8_t *h, size_t off, size_t width, uint64_t v)
{
	char tmp[24];

	snprintf(tmp, sizeof(tmp), "%0*" PRIo64, (int)(width - 1), v);
	memcpy(h + off, tmp, width);
}

/* The pax record "LEN key=value\n", LEN counting itself. */
static void pax_record(struct sbuf *sb, const char *key, const char *value)
{
	size_t body = 1 + strlen(key) + 1 + strlen(value) + 1, len = body + 1, digits;

	for (;;) {
		char tmp[24];

		digits = (size_t)snprintf(tmp, sizeof(tmp), "%zu", len);
		if (body + digits == len)
			break;
		len = body + digits;
	}
	sbuf_addf(sb, "%zu %s=%s\n", len, key, value);
}

/* One header block, checksum filled in. */
static void make_header(uint8_t *h, const char *name, size_t name_len, const char *prefix,
			size_t prefix_len, char type, unsigned mode, uint64_t size,
			int64_t mtime, const char *link)
{
	unsigned sum = 0;
	char tmp[16];
	size_t i;

	memset(h, 0, BLOCK);
	memcpy(h + H_NAME, name, name_len);
	memcpy(h + H_PREFIX, prefix, prefix_len);
	put_octal(h, H_MODE, 8, mode & 07777);
	put_octal(h, H_UID, 8, 0);
	put_octal(h, H_GID, 8, 0);
	put_octal(h, H_SIZE, 12, size <= OCTAL11_MAX ? size : 0);
	put_octal(h, H_MTIME, 12, mtime < 0 ? 0 : (uint64_t)mtime <= OCTAL11_MAX ?
		  (uint64_t)mtime : OCTAL11_MAX);
	h[H_TYPE] = (uint8_t)type;
	if (link)
		memcpy(h + H_LINKNAME, link, strnlen(link, NAME_LEN));
	memcpy(h + H_MAGIC, "ustar", 6);
	memcpy(h + H_VERSION, "00", 2);
	put_octal(h, H_DEVMAJOR, 8, 0);
	put_octal(h, H_DEVMINOR, 8, 0);
	memset(h + H_CHKSUM, ' ', 8);
	for (i = 0; i < BLOCK; i++)
		sum += h[i];
	snprintf(tmp, sizeof(tmp), "%06o", sum);
	memcpy(h + H_CHKSUM, tmp, 7);      /* six digits, NUL, and the space stays */
}

/* Where to cut name into ustar's prefix and name: the '/' index, or 0 for none. */
static size_t ustar_split(const char *name, size_t len)
{
	size_t i = len < PREFIX_LEN ? len : PREFIX_LEN;

	for (; i > 0; i--)
		if (name[i] == '/')
			return len - i - 1 <= NAME_LEN && len - i - 1 > 0 ? i : 0;
	return 0;
}

/*
 * The headers of a member: a pax 'x' header first when its name, link
 * target, size or mtime does not fit ustar's fields.
 */
static int write_headers(struct tarzst_writer *w, const char *member, char type, unsigned mode,
			 uint64_t size, int64_t mtime, const char *link)
{
	uint8_t h[BLOCK];
	size_t len, split = 0;
	const char *why = NULL;
	struct sbuf pax = SBUF_INIT;
	int ret = 0;

	if (w->failed)
		return -1;
	len = strlen(member);
	why = bad_name(member, len);
	if (why)
		return error("'%s': cannot add member '%s': %s", w->name, member, why);
	if (link && !*link)
		return error("'%s': cannot add symbolic link '%s': its target is empty",
			     w->name, member);
	if (len > NAME_LEN) {
		split = ustar_split(member, len);
		if (!split)
			pax_record(&pax, "path", member);
	}
	if (link && strlen(link) > NAME_LEN)
		pax_record(&pax, "linkpath", link);
	if (size > OCTAL11_MAX) {
		char v[24];

		snprintf(v, sizeof(v), "%" PRIu64, size);
		pax_record(&pax, "size", v);
	}
	if (mtime < 0 || (uint64_t)mtime > OCTAL11_MAX) {
		char v[24];

		snprintf(v, sizeof(v), "%" PRId64, mtime);
		pax_record(&pax, "mtime", v);
	}
	if (pax.len > TARZST_MAX_HEADER) {
		ret = error("'%s': cannot add member '%.64s...': its name and link target "
			    "take over %u bytes", w->name, member, TARZST_MAX_HEADER);
		goto out;
	}
	if (pax.len) {
		/* a name of its own for tars that see the 'x' header as a file */
		const char *base = strrchr(member, '/');
		char xname[NAME_LEN + 1];

		snprintf(xname, sizeof(xname), "PaxHeaders/%s", base ? base + 1 : member);
		make_header(h, xname, strlen(xname), "", 0, 'x', 0644, pax.len, mtime, NULL);
		if (compress(w, h, BLOCK, ZSTD_e_continue) ||
		    compress(w, pax.buf, pax.len, ZSTD_e_continue) || pad_to_block(w, pax.len)) {
			ret = -1;
			goto out;
		}
	}
	if (split)
		make_header(h, member + split + 1, len - split - 1, member, split, type, mode,
			    size, mtime, link);
	else
		make_header(h, member, len < NAME_LEN ? len : NAME_LEN, "", 0, type, mode, size,
			    mtime, link);
	ret = compress(w, h, BLOCK, ZSTD_e_continue);
out:
	sbuf_release(&pax);
	return ret;
}

int tarzst_writer__add_fd(struct tarzst_writer *w, const char *member, int src_fd,
			  const char *src_name, uint64_t size, unsigned mode, int64_t mtime)
{
	uint64_t done = 0;

	if (write_headers(w, member, '0', mode, size, mtime, NULL))
		return -1;
	/* the header is out: from here on a failure leaves the archive unusable */
	while (done < size) {
		size_t want = size - done < CHUNK ? (size_t)(size - done) : CHUNK;
		ssize_t got = read(src_fd, w->buf, want);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			w->failed = true;
			if (got < 0)
				return error("cannot read '%s': %s", src_name, strerror(errno));
			return error("'%s' ended after %" PRIu64 " of its %" PRIu64 " bytes "
				     "(while writing '%s')", src_name, done, size, w->name);
		}
		if (compress(w, w->buf, (size_t)got, ZSTD_e_continue))
			return -1;
		done += (uint64_t)got;
	}
	return pad_to_block(w, size);
}

int tarzst_writer__add_mem(struct tarzst_writer *w, const char *member, const void *buf,
			   size_t len, unsigned mode, int64_t mtime)
{
	if (write_headers(w, member, '0', mode, len, mtime, NULL) ||
	    compress(w, buf, len, ZSTD_e_continue))
		return -1;
	return pad_to_block(w, len);
}

int tarzst_writer__add_symlink(struct tarzst_writer *w, const char *member, const char *target,
			       int64_t mtime)
{
	return write_headers(w, member, '2', 0777, 0, mtime, target);
}

int tarzst_writer__finish(struct tarzst_writer *w)
{
	static const uint8_t end[2 * BLOCK];
	int ret = -1;

	if (!w->failed && !compress(w, end, sizeof(end), ZSTD_e_continue) &&
	    !compress(w, NULL, 0, ZSTD_e_end))
		ret = 0;
	tarzst_writer__abort(w);
	return ret;
}

void tarzst_writer__abort(struct tarzst_writer *w)
{
	if (!w)
		return;
	ZSTD_freeCStream(w->cs);
	free(w->out);
	free(w->buf);
	free(w->name);
	free(w);
}

/* ---- reading ------------------------------------------------------------ */

enum reader_state {
	R_HEADER,     /* between members */
	R_DATA,       /* in a member: data_left bytes of data, then pad */
	R_END,
	R_FAILED,
};

/* What pax and GNU headers said about the member that follows them. */
struct pending {
	struct sbuf path, link;      /* pax path, linkpath */
	struct sbuf long_name, long_link;   /* GNU 'L', 'K' */
	bool has_path, has_link, has_long_name, has_long_link, has_size, has_mtime, sparse;
	bool any;                    /* an extension header came since the last member */
	uint64_t size;
	int64_t mtime;
};

struct tarzst_reader {
	int fd;
	char *name;
	ZSTD_DStream *ds;
	uint8_t *in;
	ZSTD_inBuffer inb;
	bool eof;
	bool frame_end;              /* the last zstd frame read is complete */
	uint64_t pos;                /* bytes of the tar stream read so far */
	enum reader_state state;
	uint64_t data_left, pad;
	bool data_started;
	struct tarzst_entry cur;
	struct sbuf ename, elink;
	struct pending p;
	uint8_t *buf;                /* CHUNK: skipped data, pax headers, copies */
	uint8_t warned[256 / 8];     /* the member kinds skipped and said */
};

static int fail(struct tarzst_reader *r)
{
	r->state = R_FAILED;
	return -1;
}

/* Fill the input buffer from fd: 1 with bytes, 0 at its end, -1 after error(). */
static int refill(struct tarzst_reader *r)
{
	size_t cap = ZSTD_DStreamInSize();

	if (r->eof)
		return 0;
	for (;;) {
		ssize_t got = read(r->fd, r->in, cap);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return error("cannot read '%s': %s", r->name, strerror(errno));
		r->inb.src = r->in;
		r->inb.size = (size_t)got;
		r->inb.pos = 0;
		if (!got)
			r->eof = true;
		return got > 0;
	}
}

/* Exactly n bytes of the tar stream into p (what: for the message); -1 after error(). */
static int read_tar(struct tarzst_reader *r, void *p, size_t n, const char *what)
{
	ZSTD_outBuffer out = { p, n, 0 };

	while (out.pos < out.size) {
		if (r->inb.pos == r->inb.size) {
			int got = refill(r);

			if (got < 0)
				return -1;
			if (!got) {
				r->pos += out.pos;
				return error("'%s': truncated at offset %" PRIu64 " (in %s): %s",
					     r->name, r->pos, what, r->frame_end ?
					     "the tar stream ends before its end-of-archive blocks" :
					     "the zstd stream ends early");
			}
		}
		size_t ret = ZSTD_decompressStream(r->ds, &out, &r->inb);

		if (ZSTD_isError(ret)) {
			r->pos += out.pos;
			return error("'%s': damaged zstd stream at offset %" PRIu64 " (in %s): %s",
				     r->name, r->pos, what, ZSTD_getErrorName(ret));
		}
		r->frame_end = !ret;
	}
	r->pos += n;
	return 0;
}

/* Read and drop n bytes of the tar stream. */
static int skip_tar(struct tarzst_reader *r, uint64_t n, const char *what)
{
	while (n) {
		size_t step = n < CHUNK ? (size_t)n : CHUNK;

		if (read_tar(r, r->buf, step, what))
			return -1;
		n -= step;
	}
	return 0;
}

struct tarzst_reader *tarzst_reader__new(int fd, const char *name)
{
	struct tarzst_reader *r = xcalloc(1, sizeof(*r));
	size_t have = 0;

	r->fd = fd;
	r->name = xstrdup(name);
	r->in = xmalloc(ZSTD_DStreamInSize());
	r->buf = xmalloc(CHUNK);
	sbuf_init(&r->ename, TARZST_MAX_HEADER);
	sbuf_init(&r->elink, TARZST_MAX_HEADER);
	sbuf_init(&r->p.path, TARZST_MAX_HEADER);
	sbuf_init(&r->p.link, TARZST_MAX_HEADER);
	sbuf_init(&r->p.long_name, TARZST_MAX_HEADER);
	sbuf_init(&r->p.long_link, TARZST_MAX_HEADER);
	/* the magic, from as many reads as a pipe needs */
	while (have < sizeof(zstd_magic)) {
		ssize_t n = read(fd, r->in + have, ZSTD_DStreamInSize() - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error("cannot read '%s': %s", name, strerror(errno));
			goto fail;
		}
		if (!n)
			break;
		have += (size_t)n;
	}
	if (have < sizeof(zstd_magic) || memcmp(r->in, zstd_magic, sizeof(zstd_magic))) {
		error("'%s': not a jitsym bundle (no zstd stream)", name);
		goto fail;
	}
	r->inb.src = r->in;
	r->inb.size = have;
	r->ds = ZSTD_createDStream();
	if (!r->ds)
		die("out of memory creating a zstd stream for '%s'", name);
	/* said in tarzst.h: a frame asking for a window over 128 MiB is refused */
	if (ZSTD_isError(ZSTD_initDStream(r->ds)) ||
	    ZSTD_isError(ZSTD_DCtx_setParameter(r->ds, ZSTD_d_windowLogMax, 27))) {
		error("'%s': cannot set up zstd", name);
		goto fail;
	}
	return r;
fail:
	tarzst_reader__delete(r);
	return NULL;
}

void tarzst_reader__delete(struct tarzst_reader *r)
{
	if (!r)
		return;
	ZSTD_freeDStream(r->ds);
	sbuf_release(&r->ename);
	sbuf_release(&r->elink);
	sbuf_release(&r->p.path);
	sbuf_release(&r->p.link);
	sbuf_release(&r->p.long_name);
	sbuf_release(&r->p.long_link);
	free(r->in);
	free(r->buf);
	free(r->name);
	free(r);
}

/*
 * A numeric field: octal digits after optional spaces, ended by a space,
 * a NUL or the field's end (no digits: 0); or base-256 (the GNU and star
 * extension, high bit of the first byte set): a big-endian two's
 * complement number in the rest of the field. -1 when it is neither or
 * does not fit an int64_t.
 */
static int parse_num(const uint8_t *f, size_t n, int64_t *v)
{
	size_t i = 0;
	uint64_t u = 0;

	if (f[0] & 0x80) {
		int64_t s = (f[0] & 0x40) ? (int64_t)(f[0] & 0x7f) - 0x80 : (int64_t)(f[0] & 0x7f);

		for (i = 1; i < n; i++)
			if (__builtin_mul_overflow(s, 256, &s) || __builtin_add_overflow(s, f[i], &s))
				return -1;
		*v = s;
		return 0;
	}
	while (i < n && f[i] == ' ')
		i++;
	for (; i < n && f[i] != ' ' && f[i]; i++) {
		if (f[i] < '0' || f[i] > '7' || u > (uint64_t)INT64_MAX >> 3)
			return -1;
		u = u << 3 | (uint64_t)(f[i] - '0');
	}
	*v = (int64_t)u;
	return 0;
}

/* Does h's checksum field hold the sum of its bytes, as unsigned or (old tars) signed chars? */
static bool checksum_ok(const uint8_t *h)
{
	int64_t stored;
	long usum = 0, ssum = 0;
	size_t i;

	if (parse_num(h + H_CHKSUM, 8, &stored) || (h[H_CHKSUM] & 0x80))
		return false;
	for (i = 0; i < BLOCK; i++) {
		uint8_t c = i >= H_CHKSUM && i < H_CHKSUM + 8 ? ' ' : h[i];

		usum += c;
		ssum += (signed char)c;
	}
	return stored == usum || stored == ssum;
}

static void warn_kind(struct tarzst_reader *r, uint8_t type, const char *what, uint64_t off)
{
	if (r->warned[type / 8] & (1u << (type % 8)))
		return;
	r->warned[type / 8] |= (uint8_t)(1u << (type % 8));
	warning("'%s': skipping %s at offset %" PRIu64 " (and any more of that kind)", r->name,
		what, off);
}

static void pending_reset(struct pending *p)
{
	sbuf_reset(&p->path);
	sbuf_reset(&p->link);
	sbuf_reset(&p->long_name);
	sbuf_reset(&p->long_link);
	p->has_path = p->has_link = p->has_long_name = p->has_long_link = false;
	p->has_size = p->has_mtime = p->sparse = p->any = false;
}

/* Decimal digits, all of v (len bytes), to an int64_t; -1 if not. */
static int parse_decimal(const char *v, size_t len, bool sign, int64_t *out)
{
	bool neg = sign && len && v[0] == '-';
	uint64_t u = 0;
	size_t i = neg;

	if (i == len)
		return -1;
	for (; i < len; i++) {
		if (v[i] < '0' || v[i] > '9' || __builtin_mul_overflow(u, 10, &u) ||
		    __builtin_add_overflow(u, (uint64_t)(v[i] - '0'), &u))
			return -1;
	}
	if (u > (uint64_t)INT64_MAX + neg)
		return -1;
	/* -(INT64_MAX + 1) without overflowing on the way */
	*out = !neg ? (int64_t)u : u ? -(int64_t)(u - 1) - 1 : 0;
	return 0;
}

/* One pax record's key and value: what we use of it. -1 when the value is bad. */
static int pax_keyword(struct pending *p, const char *key, size_t klen, const char *v, size_t vlen)
{
#define KEY(s) (klen == sizeof(s) - 1 && !memcmp(key, s, klen))
	if (KEY("path")) {
		sbuf_reset(&p->path);
		sbuf_add(&p->path, v, vlen);
		p->has_path = vlen > 0;     /* empty: the header's own field */
	} else if (KEY("linkpath")) {
		sbuf_reset(&p->link);
		sbuf_add(&p->link, v, vlen);
		p->has_link = vlen > 0;
	} else if (KEY("size")) {
		int64_t s;

		if (!vlen)
			p->has_size = false;
		else if (parse_decimal(v, vlen, false, &s))
			return -1;
		else
			p->size = (uint64_t)s, p->has_size = true;
	} else if (KEY("mtime")) {
		/* seconds, with a fraction we drop (rounding down) */
		const char *dot = memchr(v, '.', vlen);
		size_t ilen = dot ? (size_t)(dot - v) : vlen;
		bool frac = false;
		size_t i;

		if (!vlen) {
			p->has_mtime = false;
			return 0;
		}
		for (i = ilen + 1; dot && i < vlen; i++) {
			if (v[i] < '0' || v[i] > '9')
				return -1;
			frac |= v[i] != '0';
		}
		if (parse_decimal(v, ilen, true, &p->mtime))
			return -1;
		if (frac && p->mtime < 0) {
			if (p->mtime == INT64_MIN)
				return -1;
			p->mtime--;
		}
		p->has_mtime = true;
	} else if (klen > 11 && !memcmp(key, "GNU.sparse.", 11)) {
		p->sparse = true;
	}
	return 0;
#undef KEY
}

/* A pax extended header's records (n bytes at b): "LEN key=value\n" each. */
static int parse_pax(struct tarzst_reader *r, const char *b, size_t n, uint64_t off)
{
	size_t i = 0;

	while (i < n) {
		size_t len = 0, j = i, eq;

		while (j < n && b[j] >= '0' && b[j] <= '9' && len <= n) {
			len = len * 10 + (size_t)(b[j] - '0');
			j++;
		}
		if (j == i || j >= n || b[j] != ' ' || len > n - i || len < j - i + 4 ||
		    b[i + len - 1] != '\n')
			goto bad;
		j++;
		eq = j;
		while (eq < i + len - 1 && b[eq] != '=')
			eq++;
		if (eq == j || eq == i + len - 1)
			goto bad;
		if (pax_keyword(&r->p, b + j, eq - j, b + eq + 1, i + len - 1 - (eq + 1)))
			goto bad;
		i += len;
	}
	return 0;
bad:
	return error("'%s': bad pax record in the extended header at offset %" PRIu64
		     " (record at byte %zu of %zu)", r->name, off, i, n);
}

/* An extension header's data (pax or GNU long name): at most TARZST_MAX_HEADER bytes, into r->buf. */
static int read_ext(struct tarzst_reader *r, uint64_t size, const char *what, uint64_t off)
{
	if (size > TARZST_MAX_HEADER)
		return error("'%s': %s at offset %" PRIu64 " is %" PRIu64 " bytes, over the "
			     "limit of %u", r->name, what, off, size, TARZST_MAX_HEADER);
	/* with its padding: skip_tar() would overwrite r->buf */
	return read_tar(r, r->buf, (size_t)(size + padding(size)), what);
}

/* The member's name: pax path, GNU long name or the ustar fields, "./" and trailing '/' dropped. */
static bool member_name(struct tarzst_reader *r, const uint8_t *h, bool gnu)
{
	bool slash;
	struct sbuf *n = &r->ename;
	const char *s;
	size_t len;

	sbuf_reset(n);
	if (r->p.has_path) {
		sbuf_add(n, r->p.path.buf, r->p.path.len);
	} else if (r->p.has_long_name) {
		sbuf_add(n, r->p.long_name.buf, strlen(r->p.long_name.buf));
	} else {
		if (!gnu && h[H_PREFIX]) {
			sbuf_add(n, h + H_PREFIX, strnlen((const char *)h + H_PREFIX, PREFIX_LEN));
			sbuf_addch(n, '/');
		}
		sbuf_add(n, h + H_NAME, strnlen((const char *)h + H_NAME, NAME_LEN));
	}
	s = n->buf;
	len = n->len;
	while (len >= 2 && s[0] == '.' && s[1] == '/') {
		s += 2;
		len -= 2;
		while (len && s[0] == '/')
			s++, len--;
	}
	if (len == 1 && s[0] == '.')
		len = 0;
	slash = len && s[len - 1] == '/';
	while (len && s[len - 1] == '/')
		len--;
	memmove(n->buf, s, len);
	sbuf_setlen(n, len);
	return slash;
}

static void member_link(struct tarzst_reader *r, const uint8_t *h)
{
	sbuf_reset(&r->elink);
	if (r->p.has_link)
		sbuf_add(&r->elink, r->p.link.buf, r->p.link.len);
	else if (r->p.has_long_link)
		sbuf_add(&r->elink, r->p.long_link.buf, strlen(r->p.long_link.buf));
	else
		sbuf_add(&r->elink, h + H_LINKNAME, strnlen((const char *)h + H_LINKNAME, NAME_LEN));
}

/* The kinds we skip, by type flag; NULL: a kind we return or read. */
static const char *skipped_kind(uint8_t type)
{
	switch (type) {
	case '0': case '\0': case '7': case '2': case '5':
	case 'x': case 'L': case 'K':
		return NULL;
	case '1': return "a hard link";
	case '3': return "a character device";
	case '4': return "a block device";
	case '6': return "a FIFO";
	case 'g': return "a pax global header";
	case 'S': return "a GNU sparse file";
	case 'D': return "a GNU directory dump";
	case 'M': return "a GNU multi-volume continuation";
	case 'V': return "a GNU volume label";
	default: return "a member of an unknown type";
	}
}

/*
 * An old GNU sparse member's header ('S', h) may be followed by blocks
 * of more of its map before its data: each says whether another one
 * follows (the "isextended" byte: at 482 in the header, 504 in them).
 */
static int skip_gnu_sparse_map(struct tarzst_reader *r, const uint8_t *h)
{
	uint8_t ext[BLOCK];
	bool more = h[H_GNU_ISEXTENDED];

	while (more) {
		if (read_tar(r, ext, BLOCK, "a GNU sparse map"))
			return -1;
		more = ext[GNU_SPARSE_ISEXTENDED];
	}
	return 0;
}

/* Read the end-of-archive: h was a zero block; the next one must be too. */
static int archive_end(struct tarzst_reader *r, uint64_t off)
{
	uint8_t h[BLOCK];

	if (read_tar(r, h, BLOCK, "the end-of-archive blocks"))
		return -1;
	if (!all_zero(h, BLOCK))
		return error("'%s': a lone zero block at offset %" PRIu64 " inside the archive",
			     r->name, off);
	if (r->p.any)
		return error("'%s': extended header without a member before the end at offset %"
			     PRIu64, r->name, off);
	/*
	 * The rest of the frame, to its end and checksum: an archive cut
	 * short after its zero blocks is still cut short. What follows the
	 * frame is not read.
	 */
	while (!r->frame_end) {
		ZSTD_outBuffer out = { r->buf, CHUNK, 0 };
		size_t ret;

		if (r->inb.pos == r->inb.size) {
			int got = refill(r);

			if (got < 0)
				return -1;
			if (!got)
				return error("'%s': truncated at offset %" PRIu64 " (after the "
					     "end-of-archive blocks): the zstd stream ends early",
					     r->name, r->pos);
		}
		ret = ZSTD_decompressStream(r->ds, &out, &r->inb);
		if (ZSTD_isError(ret))
			return error("'%s': damaged zstd stream at offset %" PRIu64 " (after the "
				     "end-of-archive blocks): %s", r->name, r->pos,
				     ZSTD_getErrorName(ret));
		r->pos += out.pos;
		r->frame_end = !ret;
	}
	r->state = R_END;
	return 0;
}

/*
 * One header block at r->pos: 1 when it is a member for the caller (r->cur
 * filled), 0 when it was an extension or a skipped member (read on), 2 at
 * the end, -1 after error().
 */
static int read_header(struct tarzst_reader *r, uint64_t member_off)
{
	uint8_t h[BLOCK];
	uint64_t off = r->pos, size;
	int64_t v, mtime;
	const char *kind, *why;
	uint8_t type;
	bool gnu, slash;

	if (read_tar(r, h, BLOCK, "a header"))
		return -1;
	if (all_zero(h, BLOCK))
		return archive_end(r, off) ? -1 : 2;
	if (!checksum_ok(h))
		return error("'%s': bad header checksum at offset %" PRIu64, r->name, off);
	if (memcmp(h + H_MAGIC, "ustar", 5))
		return error("'%s': not a ustar header at offset %" PRIu64, r->name, off);
	gnu = !memcmp(h + H_MAGIC, "ustar  \0", 8);
	if (parse_num(h + H_SIZE, 12, &v) || v < 0)
		return error("'%s': bad size field in the header at offset %" PRIu64, r->name, off);
	size = (uint64_t)v;
	if (parse_num(h + H_MTIME, 12, &mtime))
		return error("'%s': bad mtime field in the header at offset %" PRIu64, r->name, off);
	type = h[H_TYPE];
	switch (type) {
	case 'x':
		if (read_ext(r, size, "a pax extended header", off))
			return -1;
		r->p.any = true;
		return parse_pax(r, (const char *)r->buf, (size_t)size, off) ? -1 : 0;
	case 'L':
	case 'K': {
		struct sbuf *sb = type == 'L' ? &r->p.long_name : &r->p.long_link;

		if (read_ext(r, size, "a GNU long name", off))
			return -1;
		sbuf_reset(sb);
		sbuf_add(sb, r->buf, strnlen((const char *)r->buf, (size_t)size));
		*(type == 'L' ? &r->p.has_long_name : &r->p.has_long_link) = true;
		r->p.any = true;
		return 0;
	}
	}
	if (r->p.has_size)
		size = r->p.size;
	if (r->p.has_mtime)
		mtime = r->p.mtime;
	kind = skipped_kind(type);
	if (!kind && r->p.sparse)
		kind = "a GNU sparse file";
	if (kind) {
		warn_kind(r, r->p.sparse ? 'S' : type, kind, member_off);
		pending_reset(&r->p);
		if (type == 'S' && skip_gnu_sparse_map(r, h))
			return -1;
		/* no data for links, devices and FIFOs, whatever the size field says */
		if (type == '2' || type == '3' || type == '4' || type == '5' || type == '6')
			return 0;
		return skip_tar(r, size + padding(size), "skipped data") ? -1 : 0;
	}
	slash = member_name(r, h, gnu);
	memset(&r->cur, 0, sizeof(r->cur));
	r->cur.type = type == '5' ? TARZST_DIR : type == '2' ? TARZST_SYMLINK : TARZST_FILE;
	/* pre-POSIX tars marked directories by the trailing '/' only */
	if (slash && (type == '0' || type == '\0'))
		r->cur.type = TARZST_DIR;
	if (r->cur.type != TARZST_FILE)
		size = 0;
	if (!r->ename.len && r->cur.type == TARZST_DIR) {
		pending_reset(&r->p);      /* "./": the archive's top directory */
		return 0;
	}
	why = bad_name(r->ename.buf, r->ename.len);
	if (why)
		return error("'%s': refusing member '%.200s' at offset %" PRIu64 ": %s", r->name,
			     r->ename.buf, member_off, why);
	if (r->cur.type == TARZST_SYMLINK) {
		member_link(r, h);
		if (memchr(r->elink.buf, '\0', r->elink.len))
			return error("'%s': refusing symbolic link '%s' at offset %" PRIu64
				     ": its target contains a NUL byte", r->name, r->ename.buf,
				     member_off);
		r->cur.link = r->elink.buf;
	}
	pending_reset(&r->p);
	r->cur.name = r->ename.buf;
	r->cur.size = size;
	r->cur.mtime = mtime;
	r->cur.offset = member_off;
	r->data_left = size;
	r->pad = padding(size);
	r->data_started = false;
	r->state = R_DATA;
	return 1;
}

int tarzst_reader__next(struct tarzst_reader *r, struct tarzst_entry *e)
{
	uint64_t member_off;

	if (r->state == R_FAILED)
		return -1;
	if (r->state == R_END)
		return 0;
	if (r->state == R_DATA) {
		if (skip_tar(r, r->data_left + r->pad, "a member's data"))
			return fail(r);
		r->data_left = r->pad = 0;
		r->state = R_HEADER;
	}
	member_off = r->pos;
	for (;;) {
		int ret = read_header(r, member_off);

		if (ret < 0)
			return fail(r);
		if (ret == 2)
			return 0;
		if (ret == 1) {
			*e = r->cur;
			return 1;
		}
		if (!r->p.any)
			member_off = r->pos;   /* a skipped member, not an extension header */
	}
}

/* Start reading the current member's data: -1 after error() if it cannot be. */
static int data_begin(struct tarzst_reader *r, const char *what)
{
	if (r->state != R_DATA || r->cur.type != TARZST_FILE)
		return error("'%s': %s: no regular file member is current", r->name, what);
	if (r->data_started)
		return error("'%s': %s: member '%s' was read already", r->name, what, r->cur.name);
	r->data_started = true;
	return 0;
}

/* n bytes of p to fd, runs of zero blocks seeked over instead of written. */
static int write_sparse(int fd, const char *name, const uint8_t *p, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t step = n - i < SPARSE_BLOCK ? n - i : SPARSE_BLOCK, j = i;
		bool zero = all_zero(p + i, step);

		/* the run of blocks like this one */
		do {
			j += step;
			step = n - j < SPARSE_BLOCK ? n - j : SPARSE_BLOCK;
		} while (j < n && all_zero(p + j, step) == zero);
		if (zero) {
			if (lseek(fd, (off_t)(j - i), SEEK_CUR) < 0)
				return error("cannot seek in '%s': %s", name, strerror(errno));
		} else if (fd_write_all(fd, name, p + i, j - i)) {
			return -1;
		}
		i = j;
	}
	return 0;
}

int tarzst_reader__copy_to_fd(struct tarzst_reader *r, int out_fd, const char *out_name,
			      bool sparse)
{
	off_t start = 0;

	if (data_begin(r, "cannot copy"))
		return -1;
	if (sparse) {
		start = lseek(out_fd, 0, SEEK_CUR);
		if (start < 0)
			sparse = false;     /* not seekable: written whole */
	}
	while (r->data_left) {
		size_t step = r->data_left < CHUNK ? (size_t)r->data_left : CHUNK;

		if (read_tar(r, r->buf, step, "a member's data"))
			return fail(r);
		r->data_left -= step;
		if (sparse ? write_sparse(out_fd, out_name, r->buf, step) :
		    fd_write_all(out_fd, out_name, r->buf, step))
			return -1;
	}
	if (sparse && ftruncate(out_fd, start + (off_t)r->cur.size))
		return error("cannot truncate '%s': %s", out_name, strerror(errno));
	return 0;
}

int tarzst_reader__read_mem(struct tarzst_reader *r, size_t max, void **buf, size_t *len)
{
	uint8_t *p;

	*buf = NULL;
	*len = 0;
	if (r->state == R_DATA && r->cur.type == TARZST_FILE &&
	    (r->cur.size > max || r->cur.size >= SIZE_MAX))
		return error("'%s': member '%s' at offset %" PRIu64 " is %" PRIu64 " bytes, "
			     "more than the %zu expected", r->name, r->cur.name, r->cur.offset,
			     r->cur.size, max);
	if (data_begin(r, "cannot read"))
		return -1;
	p = xmalloc(st_add((size_t)r->cur.size, 1));
	if (read_tar(r, p, (size_t)r->cur.size, "a member's data")) {
		free(p);
		return fail(r);
	}
	r->data_left = 0;
	p[r->cur.size] = '\0';
	*buf = p;
	*len = (size_t)r->cur.size;
	return 0;
}
