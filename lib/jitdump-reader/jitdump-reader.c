/*
 * libjitdump-reader: map the file (or take the caller's buffer), check the
 * header, then decode one record per call with a bounded cursor.
 *
 * Every record is decoded through a cursor that knows two lengths: the
 * bytes the record declares (total_size) and the bytes actually present
 * (less when the file ends inside the record). A read past the declared
 * length means the record contradicts itself; a read past the present
 * bytes means it was cut short. That one distinction lets a record that
 * runs past the end of the file be classed as truncated (everything
 * present is consistent) or as a bad size (it is not), and lets a bad
 * record inside the file be skipped, since its size is then sound.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define READ_CHUNK (64u << 10)
/* Mapped bytes the cursor has passed are given back in steps of this many. */
#define RELEASE_STEP (1u << 20)
#define OPEN_FLAGS (JITDUMP_READER_ARCH_TIMESTAMP_OK | JITDUMP_READER_NO_DEBUG_ENTRIES)

static jitdump_print_fn_t print_fn;

jitdump_print_fn_t jitdump_reader__set_print(jitdump_print_fn_t fn)
{
	jitdump_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

__attribute__((format(printf, 2, 3)))
static void pr(enum jitdump_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}

static const char *const error_str[JITDUMP_E__END - JITDUMP_E_BAD_MAGIC] = {
	[JITDUMP_E_BAD_MAGIC - JITDUMP_E_BAD_MAGIC] = "not a jitdump file (bad magic)",
	[JITDUMP_E_BAD_VERSION - JITDUMP_E_BAD_MAGIC] = "unsupported jitdump version",
	[JITDUMP_E_TRUNCATED_HEADER - JITDUMP_E_BAD_MAGIC] = "jitdump header is cut short",
	[JITDUMP_E_TRUNCATED_RECORD - JITDUMP_E_BAD_MAGIC] = "jitdump record is cut short",
	[JITDUMP_E_BAD_SIZE - JITDUMP_E_BAD_MAGIC] = "bad jitdump size field",
	[JITDUMP_E_BAD_RECORD - JITDUMP_E_BAD_MAGIC] = "malformed jitdump record",
	[JITDUMP_E_ARCH_TIMESTAMP - JITDUMP_E_BAD_MAGIC] =
		"jitdump uses architecture timestamps (JITDUMP_FLAGS_ARCH_TIMESTAMP), not supported",
};

const char *jitdump__strerror(int err)
{
	if (err < 0 && err != INT_MIN)
		err = -err;
	if (err >= JITDUMP_E_BAD_MAGIC && err < JITDUMP_E__END)
		return error_str[err - JITDUMP_E_BAD_MAGIC];
	return strerror(err);
}

static uint32_t get_u32(const uint8_t *p, bool be)
{
	if (be)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

static uint64_t get_u64(const uint8_t *p, bool be)
{
	uint64_t hi = get_u32(p + (be ? 0 : 4), be);
	uint64_t lo = get_u32(p + (be ? 4 : 0), be);

	return hi << 32 | lo;
}

/*
 * A record payload: p has left bytes present and decl bytes declared by
 * the record's total_size (decl >= left). why says what a failed check
 * was, for messages.
 */
struct cursor {
	const uint8_t *p;
	size_t left;
	size_t decl;
	bool be;
	const char *why;
};

/* Can n more bytes be read? 0, -JITDUMP_E_BAD_RECORD or _TRUNCATED_RECORD. */
static int cursor_need(struct cursor *c, uint64_t n, const char *what)
{
	if (n > c->decl) {
		c->why = what;
		return -JITDUMP_E_BAD_RECORD;
	}
	if (n > c->left)
		return -JITDUMP_E_TRUNCATED_RECORD;
	return 0;
}

static void cursor_skip(struct cursor *c, size_t n)
{
	c->p += n;
	c->left -= n;
	c->decl -= n;
}

static int cursor_u32(struct cursor *c, uint32_t *v)
{
	int ret = cursor_need(c, 4, "record shorter than its fields");

	if (!ret) {
		*v = get_u32(c->p, c->be);
		cursor_skip(c, 4);
	}
	return ret;
}

static int cursor_u64(struct cursor *c, uint64_t *v)
{
	int ret = cursor_need(c, 8, "record shorter than its fields");

	if (!ret) {
		*v = get_u64(c->p, c->be);
		cursor_skip(c, 8);
	}
	return ret;
}

/* Do nr items of at least size bytes each fit? Consumes nothing. */
static int cursor_array(struct cursor *c, uint64_t nr, size_t size, const char *what)
{
	if (nr > c->decl / size) {
		c->why = what;
		return -JITDUMP_E_BAD_RECORD;
	}
	if (nr > c->left / size)
		return -JITDUMP_E_TRUNCATED_RECORD;
	return 0;
}

/*
 * A NUL-terminated string that ends before the last reserve declared
 * bytes (reserve <= c->decl).
 */
static int cursor_cstr(struct cursor *c, size_t reserve, const char **s, const char *what)
{
	size_t room = c->decl - reserve;
	size_t avail = c->left < room ? c->left : room;
	const uint8_t *nul = memchr(c->p, '\0', avail);

	if (!nul) {
		if (avail < room)
			return -JITDUMP_E_TRUNCATED_RECORD;
		c->why = what;
		return -JITDUMP_E_BAD_RECORD;
	}
	*s = (const char *)c->p;
	cursor_skip(c, (size_t)(nul - c->p) + 1);
	return 0;
}

static int decode_load(struct cursor *c, struct jitdump_record *rec)
{
	int ret;

	if ((ret = cursor_u32(c, &rec->u.load.pid)) ||
	    (ret = cursor_u32(c, &rec->u.load.tid)) ||
	    (ret = cursor_u64(c, &rec->u.load.vma)) ||
	    (ret = cursor_u64(c, &rec->u.load.code_addr)) ||
	    (ret = cursor_u64(c, &rec->u.load.code_size)) ||
	    (ret = cursor_u64(c, &rec->u.load.code_index)))
		return ret;
	/* room for the code and the name's NUL */
	if (rec->u.load.code_size >= c->decl) {
		c->why = "code_size larger than the record";
		return -JITDUMP_E_BAD_RECORD;
	}
	if ((ret = cursor_cstr(c, (size_t)rec->u.load.code_size, &rec->u.load.name,
			       "function name not terminated")))
		return ret;
	/* Writers may pad the name: the code is the record's last bytes. */
	if ((ret = cursor_need(c, c->decl, NULL)))
		return ret;
	if (rec->u.load.code_size)
		rec->u.load.code = c->p + (c->decl - rec->u.load.code_size);
	return 0;
}

static int decode_move(struct cursor *c, struct jitdump_record *rec)
{
	int ret;

	if ((ret = cursor_u32(c, &rec->u.move.pid)) ||
	    (ret = cursor_u32(c, &rec->u.move.tid)) ||
	    (ret = cursor_u64(c, &rec->u.move.vma)) ||
	    (ret = cursor_u64(c, &rec->u.move.old_code_addr)) ||
	    (ret = cursor_u64(c, &rec->u.move.new_code_addr)) ||
	    (ret = cursor_u64(c, &rec->u.move.code_size)) ||
	    (ret = cursor_u64(c, &rec->u.move.code_index)))
		return ret;
	return 0;
}

/* Room for at least nr entries in r->entries; 0 or -ENOMEM. */
static int grow_entries(struct jitdump_reader *r, size_t nr)
{
	struct jitdump_debug_entry *e;
	size_t n;

	if (nr <= r->entries_alloc)
		return 0;
	n = r->entries_alloc < 16 ? 16 : r->entries_alloc + r->entries_alloc / 2;
	if (n < nr)
		n = nr;
	if (n > SIZE_MAX / sizeof(*e))
		return -ENOMEM;
	e = realloc(r->entries, n * sizeof(*e));
	if (!e)
		return -ENOMEM;
	r->entries = e;
	r->entries_alloc = n;
	return 0;
}

static int decode_debug_entry(struct cursor *c, struct jitdump_debug_entry *e,
			      const struct jitdump_debug_entry *prev)
{
	int ret;

	if ((ret = cursor_u64(c, &e->addr)) ||
	    (ret = cursor_u32(c, &e->lineno)) ||
	    (ret = cursor_u32(c, &e->discrim)) ||
	    (ret = cursor_cstr(c, 0, &e->filename, "debug entry file name not terminated")))
		return ret;
	/* "\xff": the same file as the previous entry */
	if ((unsigned char)e->filename[0] == 0xff && !e->filename[1]) {
		if (!prev) {
			c->why = "first debug entry refers to a previous file name";
			return -JITDUMP_E_BAD_RECORD;
		}
		e->filename = prev->filename;
	}
	return 0;
}

/*
 * Skip the entries at c that are whole and sound (16 bytes of fixed
 * fields, then a name that ends inside the record; the first not "\xff"),
 * from index *i of nr: all of them in a record the file holds whole, as
 * nearly every one is (a node jitdump's ~500,000). The first that is not
 * is left for the careful loop to say why.
 */
static void skip_sound_entries(struct cursor *c, uint64_t nr, uint64_t *i)
{
	const uint8_t *p = c->p, *end = c->p + (c->left < c->decl ? c->left : c->decl);

	for (; *i < nr && end - p > 16; ++*i) {
		const uint8_t *nul = memchr(p + 16, '\0', (size_t)(end - p - 16));

		if (!nul || (!*i && p[16] == 0xff && p[17] == '\0'))
			break;
		p = nul + 1;
	}
	cursor_skip(c, (size_t)(p - c->p));
}

/*
 * Check the nr entries at c as decode_debug() does, with the same errors,
 * keeping none: the fixed fields are skipped unread when all are present.
 */
static int check_debug_entries(struct cursor *c, uint64_t nr)
{
	struct jitdump_debug_entry e, prev = { .filename = "" };
	uint64_t i = 0;
	int ret;

	skip_sound_entries(c, nr, &i);
	for (; i < nr; i++) {
		if (c->left >= 16) {
			cursor_skip(c, 16);
			ret = cursor_cstr(c, 0, &e.filename, "debug entry file name not terminated");
			if (!ret && !i && (unsigned char)e.filename[0] == 0xff && !e.filename[1]) {
				c->why = "first debug entry refers to a previous file name";
				ret = -JITDUMP_E_BAD_RECORD;
			}
		} else {
			/* the first field that is missing decides the error */
			ret = decode_debug_entry(c, &e, i ? &prev : NULL);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int decode_debug(struct jitdump_reader *r, struct cursor *c,
			struct jitdump_record *rec)
{
	uint64_t nr;
	size_t i;
	int ret;

	if ((ret = cursor_u64(c, &rec->u.debug.code_addr)) ||
	    (ret = cursor_u64(c, &nr)))
		return ret;
	/* bounds the allocation by the bytes present, not by nr */
	if ((ret = cursor_array(c, nr, JD_DEBUG_ENTRY_MIN, "nr_entry too large for the record")))
		return ret;
	if (r->open_flags & JITDUMP_READER_NO_DEBUG_ENTRIES) {
		if ((ret = check_debug_entries(c, nr)))
			return ret;
		rec->u.debug.nr_entry = (size_t)nr;
		return 0;
	}
	if ((ret = grow_entries(r, (size_t)nr)))
		return ret;
	for (i = 0; i < nr; i++) {
		ret = decode_debug_entry(c, &r->entries[i], i ? &r->entries[i - 1] : NULL);
		if (ret)
			return ret;
	}
	rec->u.debug.nr_entry = (size_t)nr;
	rec->u.debug.entries = nr ? r->entries : NULL;
	return 0;
}

static int decode_unwind(struct cursor *c, struct jitdump_record *rec)
{
	int ret;

	if ((ret = cursor_u64(c, &rec->u.unwind.unwinding_size)) ||
	    (ret = cursor_u64(c, &rec->u.unwind.eh_frame_hdr_size)) ||
	    (ret = cursor_u64(c, &rec->u.unwind.mapped_size)))
		return ret;
	if (rec->u.unwind.eh_frame_hdr_size > rec->u.unwind.unwinding_size) {
		c->why = "eh_frame_hdr_size larger than unwinding_size";
		return -JITDUMP_E_BAD_RECORD;
	}
	if ((ret = cursor_need(c, rec->u.unwind.unwinding_size,
			       "unwinding_size larger than the record")))
		return ret;
	if (rec->u.unwind.unwinding_size)
		rec->u.unwind.data = c->p;
	return 0;
}

static int decode(struct jitdump_reader *r, struct cursor *c, struct jitdump_record *rec)
{
	switch (rec->type) {
	case JITDUMP_CODE_LOAD:
		return decode_load(c, rec);
	case JITDUMP_CODE_MOVE:
		return decode_move(c, rec);
	case JITDUMP_CODE_DEBUG_INFO:
		return decode_debug(r, c, rec);
	case JITDUMP_CODE_CLOSE:
		return 0;
	case JITDUMP_CODE_UNWINDING_INFO:
		return decode_unwind(c, rec);
	}
	return 0;
}

static const char *name_of(const struct jitdump_reader *r)
{
	return r->path ? r->path : "buffer";
}

/* End the stream: this and every later call to next() return ret. */
static int finish(struct jitdump_reader *r, int ret, const char *why)
{
	r->done = true;
	r->done_ret = ret;
	if (ret) {
		r->why = why;
		pr(JITDUMP_DEBUG, "'%s': record at offset %zu: %s", name_of(r), r->pos, why);
	}
	return ret;
}

/*
 * The record at r->pos, of size bytes declared and left present
 * (size >= 16, known id). Returns as jitdump_reader__next().
 */
static int next_known(struct jitdump_reader *r, struct jitdump_record *rec,
		      uint32_t size, size_t left)
{
	struct cursor c = {
		.p = r->data + r->pos + JITDUMP_RECORD_HEADER_SIZE,
		.left = (size < left ? size : left) - JITDUMP_RECORD_HEADER_SIZE,
		.decl = size - JITDUMP_RECORD_HEADER_SIZE,
		.be = r->big_endian,
	};
	int ret = decode(r, &c, rec);

	if (ret == -ENOMEM) {
		r->why = "out of memory";
		return ret;
	}
	if (size > left) {
		/* what is present contradicts the record: not just cut short */
		if (ret == -JITDUMP_E_BAD_RECORD)
			return finish(r, -JITDUMP_E_BAD_SIZE, c.why);
		return finish(r, -JITDUMP_E_TRUNCATED_RECORD, "cut short by the end of the file");
	}
	if (ret) {
		r->why = c.why;
		pr(JITDUMP_DEBUG, "'%s': record at offset %zu (id %d, size %u): %s, skipped",
		   name_of(r), r->pos, (int)rec->type, size, c.why);
	}
	r->pos += size;
	return ret ? ret : 1;
}

/*
 * Give back the mapped pages wholly below r->pos, a step at a time. Only
 * RSS changes: the mapping stays, so bytes handed out earlier stay valid
 * (a private, never written file mapping reads them again from the file).
 */
static void release_behind(struct jitdump_reader *r)
{
	size_t end;

	if (!r->map || r->pos - r->released < RELEASE_STEP)
		return;
	end = r->pos & ~(r->page_size - 1);
	if (end > r->released &&
	    !madvise((uint8_t *)r->map + r->released, end - r->released, MADV_DONTNEED))
		r->released = end;
}

int jitdump_reader__next(struct jitdump_reader *r, struct jitdump_record *rec)
{
	release_behind(r);
	for (;;) {
		size_t left = r->len - r->pos;
		const uint8_t *p = r->data + r->pos;
		uint32_t id, size;

		memset(rec, 0, sizeof(*rec));
		rec->offset = r->pos;
		if (r->done)
			return r->done_ret;
		if (!left)
			return finish(r, 0, NULL);
		if (left < JITDUMP_RECORD_HEADER_SIZE)
			return finish(r, -JITDUMP_E_TRUNCATED_RECORD,
				      "record header cut short by the end of the file");
		id = get_u32(p, r->big_endian);
		size = get_u32(p + 4, r->big_endian);
		if (size < JITDUMP_RECORD_HEADER_SIZE)
			return finish(r, -JITDUMP_E_BAD_SIZE,
				      "total_size smaller than the record header");
		rec->size = size;
		rec->timestamp = get_u64(p + 8, r->big_endian);
		if (id <= JITDUMP_CODE_UNWINDING_INFO) {
			rec->type = (enum jitdump_record_type)id;
			return next_known(r, rec, size, left);
		}
		if (size > left)
			return finish(r, -JITDUMP_E_TRUNCATED_RECORD,
				      "cut short by the end of the file");
		pr(JITDUMP_DEBUG, "'%s': record at offset %zu: unknown id %u, skipped",
		   name_of(r), r->pos, id);
		r->nr_unknown++;
		r->pos += size;
	}
}

const char *jitdump_reader__error_detail(const struct jitdump_reader *r)
{
	return r->why ? r->why : "no error";
}

/*
 * Mono's writer sets the header's total_size to sizeof of a pointer to the
 * header, 8 (4 on 32-bit hosts), and writes the whole 40-byte header.
 */
static bool pointer_sized(uint32_t size)
{
	return size == 4 || size == 8;
}

/*
 * Could records start at off: nothing after it yet, fewer bytes than a
 * record header (a file still being written), or a record header with a
 * known id and a total_size of at least 16?
 */
static bool records_follow_at(const struct jitdump_reader *r, size_t off)
{
	const uint8_t *p = r->data + off;

	if (r->len - off < JITDUMP_RECORD_HEADER_SIZE)
		return true;
	return get_u32(p, r->big_endian) <= JITDUMP_CODE_UNWINDING_INFO &&
	       get_u32(p + 4, r->big_endian) >= JITDUMP_RECORD_HEADER_SIZE;
}

/* Check the header of r->data and fill in r; 0 or -JITDUMP_E_*. */
static int parse_header(struct jitdump_reader *r, unsigned int flags)
{
	const uint8_t *p = r->data;
	size_t len = r->len, n = len < 4 ? len : 4;

	if (!memcmp(p, "DTiJ", n))
		r->big_endian = false;
	else if (!memcmp(p, "JiTD", n))
		r->big_endian = true;
	else
		return -JITDUMP_E_BAD_MAGIC;
	if (len >= 8) {
		r->version = get_u32(p + 4, r->big_endian);
		if (r->version != 1 && r->version != 2)
			return -JITDUMP_E_BAD_VERSION;
	}
	if (len >= 12) {
		r->header_size = get_u32(p + 8, r->big_endian);
		if (r->header_size < JITDUMP_HEADER_MIN_SIZE && !pointer_sized(r->header_size))
			return -JITDUMP_E_BAD_SIZE;
	}
	if (len < JITDUMP_HEADER_MIN_SIZE || len < r->header_size)
		return -JITDUMP_E_TRUNCATED_HEADER;
	if (r->header_size < JITDUMP_HEADER_MIN_SIZE) {
		if (!records_follow_at(r, JITDUMP_HEADER_MIN_SIZE))
			return -JITDUMP_E_BAD_SIZE;
		r->header_size = JITDUMP_HEADER_MIN_SIZE;
		r->quirks |= JITDUMP_QUIRK_HEADER_SIZE;
	}
	r->e_machine = get_u32(p + 12, r->big_endian);
	/* p + 16: pad1 */
	r->pid = get_u32(p + 20, r->big_endian);
	r->timestamp = get_u64(p + 24, r->big_endian);
	r->flags = get_u64(p + 32, r->big_endian);
	if ((r->flags & JITDUMP_FLAGS_ARCH_TIMESTAMP) &&
	    !(flags & JITDUMP_READER_ARCH_TIMESTAMP_OK))
		return -JITDUMP_E_ARCH_TIMESTAMP;
	r->pos = r->header_size;
	return 0;
}

/* Finish a reader whose data is set: check the header. r or NULL, errno. */
static struct jitdump_reader *reader_start(struct jitdump_reader *r, unsigned int flags)
{
	int ret = parse_header(r, flags);

	if (ret) {
		pr(JITDUMP_DEBUG, "'%s': %s", name_of(r), jitdump__strerror(ret));
		jitdump_reader__delete(r);
		errno = -ret;
		return NULL;
	}
	pr(JITDUMP_DEBUG, "'%s': jitdump version %u, %s-endian, pid %u, e_machine %u, "
	   "flags %#llx, %zu bytes", name_of(r), r->version, r->big_endian ? "big" : "little",
	   r->pid, r->e_machine, (unsigned long long)r->flags, r->len);
	return r;
}

struct jitdump_reader *jitdump_reader__new(const void *buf, size_t len, unsigned int flags)
{
	struct jitdump_reader *r;

	if ((!buf && len) || (flags & ~OPEN_FLAGS)) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		errno = ENOMEM;
		return NULL;
	}
	r->data = buf ? buf : (const void *)"";
	r->len = len;
	r->open_flags = flags;
	return reader_start(r, flags);
}

/* Read all of fd into r->copy; 0 or -errno. For what cannot be mapped. */
static int read_all(struct jitdump_reader *r, int fd)
{
	size_t alloc = 0, len = 0;
	uint8_t *buf = NULL;

	for (;;) {
		ssize_t n;

		if (len == alloc) {
			uint8_t *nbuf;

			if (alloc > SIZE_MAX / 2 - READ_CHUNK) {
				free(buf);
				return -ENOMEM;
			}
			alloc = alloc ? alloc * 2 : READ_CHUNK;
			nbuf = realloc(buf, alloc);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, alloc - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;

			free(buf);
			return ret;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	r->copy = buf;
	r->data = buf;
	r->len = len;
	return 0;
}

/* Map fd when it is a regular file, else read it; 0 or -errno. */
static int load_fd(struct jitdump_reader *r, int fd)
{
	struct stat st;
	long page;
	void *map;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return read_all(r, fd);
	if ((uint64_t)st.st_size > SIZE_MAX)
		return -EFBIG;
	if (!st.st_size) {
		r->data = (const void *)"";
		return 0;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		return read_all(r, fd);
	/* read front to back: read ahead (a hint; failure changes nothing) */
	madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	r->map = map;
	page = sysconf(_SC_PAGESIZE);
	r->page_size = page > 0 ? (size_t)page : 4096;
	r->data = map;
	r->len = (size_t)st.st_size;
	return 0;
}

struct jitdump_reader *jitdump_reader__open(const char *path, unsigned int flags)
{
	struct jitdump_reader *r;
	int fd, ret;

	if (flags & ~OPEN_FLAGS) {
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (r)
		r->path = malloc(strlen(path) + 1);
	if (!r || !r->path) {
		free(r);
		errno = ENOMEM;
		return NULL;
	}
	memcpy(r->path, path, strlen(path) + 1);
	r->open_flags = flags;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
	} else {
		ret = load_fd(r, fd);
		close(fd);
	}
	if (ret) {
		jitdump_reader__delete(r);
		errno = -ret;
		return NULL;
	}
	return reader_start(r, flags);
}

void jitdump_reader__delete(struct jitdump_reader *r)
{
	if (!r)
		return;
	if (r->map)
		munmap(r->map, r->len);
	free(r->copy);
	free(r->entries);
	free(r->path);
	free(r);
}

uint64_t jitdump_reader__offset(const struct jitdump_reader *r)
{
	return r->pos;
}

size_t jitdump_reader__nr_unknown(const struct jitdump_reader *r)
{
	return r->nr_unknown;
}

uint32_t jitdump_reader__version(const struct jitdump_reader *r)
{
	return r->version;
}

uint32_t jitdump_reader__e_machine(const struct jitdump_reader *r)
{
	return r->e_machine;
}

uint32_t jitdump_reader__pid(const struct jitdump_reader *r)
{
	return r->pid;
}

uint64_t jitdump_reader__timestamp(const struct jitdump_reader *r)
{
	return r->timestamp;
}

uint64_t jitdump_reader__flags(const struct jitdump_reader *r)
{
	return r->flags;
}

uint32_t jitdump_reader__header_size(const struct jitdump_reader *r)
{
	return r->header_size;
}

unsigned int jitdump_reader__quirks(const struct jitdump_reader *r)
{
	return r->quirks;
}

bool jitdump_reader__swapped(const struct jitdump_reader *r)
{
	const uint16_t one = 1;
	bool host_big = *(const uint8_t *)&one == 0;

	return r->big_endian != host_big;
}
