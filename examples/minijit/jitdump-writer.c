/*
 * jitdump-writer: see jitdump-writer.h. Layouts (all fields host order,
 * no padding between fields or records):
 *
 *   file header (40 bytes): u32 magic "JiTD" 0x4A695444, u32 version 1,
 *     u32 total_size 40, u32 elf_mach, u32 pad1 0, u32 pid, u64 timestamp,
 *     u64 flags 0 (timestamps are CLOCK_MONOTONIC, not the TSC)
 *   record header (16): u32 id, u32 total_size (header included),
 *     u64 timestamp
 *   LOAD (id 0): u32 pid, u32 tid, u64 vma, u64 code_addr, u64 code_size,
 *     u64 code_index, name + NUL, code bytes
 *   MOVE (id 1): u32 pid, u32 tid, u64 vma, u64 old_code_addr,
 *     u64 new_code_addr, u64 code_size, u64 code_index
 *   DEBUG_INFO (id 2): u64 code_addr, u64 nr_entry, then per entry
 *     u64 addr, u32 line, u32 discrim, file name + NUL
 *   CLOSE (id 3): the header alone
 */
#define _GNU_SOURCE
#include "jitdump-writer.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum {
	JD_MAGIC = 0x4A695444,
	JD_VERSION = 1,
	JD_HEADER_SIZE = 40,
	JD_REC_HEADER_SIZE = 16,
	JD_LOAD_FIXED = 40,	/* pid .. code_index */
	JD_MOVE_FIXED = 48,	/* pid .. code_index */
	JD_DEBUG_FIXED = 16,	/* code_addr, nr_entry */
	JD_ENTRY_FIXED = 16,	/* addr, line, discrim */
	JD_LOAD_INDEX_OFFSET = 48,	/* of code_index in a LOAD record */
};

enum jd_record_id {
	JIT_CODE_LOAD = 0,
	JIT_CODE_MOVE = 1,
	JIT_CODE_DEBUG_INFO = 2,
	JIT_CODE_CLOSE = 3,
};

struct jd_writer {
	int fd;
	void *marker;		/* the PROT_EXEC mapping of the file */
	size_t marker_len;
	uint32_t pid;
	uint64_t last_index;	/* code_index of the last LOAD; guarded by lock */
	pthread_mutex_t lock;
	char path[PATH_MAX];
};

/* A record being built: SIZE bytes at BUF, LEN of them filled so far. */
struct rec {
	uint8_t *buf;
	size_t len;
	size_t size;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The record's size was computed up front, so these cannot run past it. */
static void rec_bytes(struct rec *r, const void *p, size_t n)
{
	if (n > r->size - r->len)
		abort();	/* a size computation in this file is wrong */
	memcpy(r->buf + r->len, p, n);
	r->len += n;
}

static void rec_u32(struct rec *r, uint32_t v)
{
	rec_bytes(r, &v, sizeof(v));
}

static void rec_u64(struct rec *r, uint64_t v)
{
	rec_bytes(r, &v, sizeof(v));
}

static void rec_str(struct rec *r, const char *s)
{
	rec_bytes(r, s, strlen(s) + 1);
}

/* Allocate a record of SIZE bytes and fill its header; the timestamp comes at write time. */
static int rec_begin(struct rec *r, enum jd_record_id id, uint64_t size)
{
	if (size > UINT32_MAX)
		return -EOVERFLOW;
	r->buf = malloc(size);
	if (!r->buf)
		return -ENOMEM;
	r->len = 0;
	r->size = size;
	rec_u32(r, id);
	rec_u32(r, (uint32_t)size);
	rec_u64(r, 0);
	return 0;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t done = write(fd, p, n);

		if (done < 0 && errno == EINTR)
			continue;
		if (done < 0)
			return -errno;
		if (done == 0)
			return -EIO;
		p += done;
		n -= (size_t)done;
	}
	return 0;
}

/*
 * Stamp and write the first NBYTES of R, then free it. The timestamp (and
 * for a LOAD, the code_index, stored in *INDEX) are set under the lock, so
 * that file order is time order and code_index order.
 */
static int rec_write(struct jd_writer *w, struct rec *r, size_t nbytes,
		     uint64_t *index)
{
	uint64_t ts;
	int err;

	if (r->len != r->size)
		abort();
	pthread_mutex_lock(&w->lock);
	ts = now_ns();
	memcpy(r->buf + 8, &ts, sizeof(ts));
	if (index) {
		*index = ++w->last_index;
		memcpy(r->buf + JD_LOAD_INDEX_OFFSET, index, sizeof(*index));
	}
	err = write_all(w->fd, r->buf, nbytes);
	pthread_mutex_unlock(&w->lock);
	free(r->buf);
	r->buf = NULL;
	return err;
}

static int write_file_header(struct jd_writer *w)
{
	uint8_t buf[JD_HEADER_SIZE];
	struct rec r = { .buf = buf, .len = 0, .size = sizeof(buf) };

	rec_u32(&r, JD_MAGIC);
	rec_u32(&r, JD_VERSION);
	rec_u32(&r, JD_HEADER_SIZE);
	rec_u32(&r, EM_X86_64);
	rec_u32(&r, 0);
	rec_u32(&r, w->pid);
	rec_u64(&r, now_ns());
	rec_u64(&r, 0);
	return write_all(w->fd, buf, sizeof(buf));
}

static int map_marker(struct jd_writer *w)
{
	long page = sysconf(_SC_PAGESIZE);

	w->marker_len = page > 0 ? (size_t)page : 4096;
	w->marker = mmap(NULL, w->marker_len, PROT_READ | PROT_EXEC, MAP_PRIVATE,
			 w->fd, 0);
	if (w->marker == MAP_FAILED) {
		w->marker = NULL;
		return -errno;
	}
	return 0;
}

struct jd_writer *jd_writer_open(const char *dir)
{
	struct jd_writer *w = calloc(1, sizeof(*w));
	int n, err;

	if (!w)
		return NULL;
	w->fd = -1;
	w->pid = (uint32_t)getpid();
	pthread_mutex_init(&w->lock, NULL);
	n = snprintf(w->path, sizeof(w->path), "%s/jit-%u.dump", dir, w->pid);
	if (n < 0 || (size_t)n >= sizeof(w->path)) {
		err = -ENAMETOOLONG;
		goto fail;
	}
	/* O_RDWR: mapping a file needs it open for reading. */
	w->fd = open(w->path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		err = -errno;
		goto fail;
	}
	err = write_file_header(w);
	if (!err)
		err = map_marker(w);
	if (!err)
		return w;
	unlink(w->path);
fail:
	jd_writer_forget(w);
	errno = -err;
	return NULL;
}

const char *jd_writer_path(const struct jd_writer *w)
{
	return w->path;
}

int jd_writer_debug_info(struct jd_writer *w, uint64_t code_addr,
			 const struct jd_line *lines, size_t n)
{
	uint64_t size = JD_REC_HEADER_SIZE + JD_DEBUG_FIXED;
	struct rec r;
	size_t i;
	int err;

	for (i = 0; i < n; i++)
		size += JD_ENTRY_FIXED + strlen(lines[i].file) + 1;
	err = rec_begin(&r, JIT_CODE_DEBUG_INFO, size);
	if (err)
		return err;
	rec_u64(&r, code_addr);
	rec_u64(&r, n);
	for (i = 0; i < n; i++) {
		rec_u64(&r, lines[i].addr);
		rec_u32(&r, lines[i].line);
		rec_u32(&r, lines[i].discrim);
		rec_str(&r, lines[i].file);
	}
	return rec_write(w, &r, r.size, NULL);
}

/* Build a LOAD record, give it the next code_index, and write all of it or its first half. */
static int write_load(struct jd_writer *w, const char *name, uint64_t addr,
		      const void *code, uint64_t size, uint64_t *index, bool cut)
{
	uint64_t total = JD_REC_HEADER_SIZE + JD_LOAD_FIXED + strlen(name) + 1;
	struct rec r;
	int err;

	if (size > UINT32_MAX)
		return -EOVERFLOW;
	err = rec_begin(&r, JIT_CODE_LOAD, total + size);
	if (err)
		return err;
	rec_u32(&r, w->pid);
	rec_u32(&r, (uint32_t)gettid());
	rec_u64(&r, addr);
	rec_u64(&r, addr);
	rec_u64(&r, size);
	rec_u64(&r, 0);		/* code_index, set by rec_write */
	rec_str(&r, name);
	rec_bytes(&r, code, (size_t)size);
	return rec_write(w, &r, cut ? r.size / 2 : r.size, index);
}

int jd_writer_load(struct jd_writer *w, const char *name, uint64_t addr,
		   const void *code, uint64_t size, uint64_t *index)
{
	return write_load(w, name, addr, code, size, index, false);
}

int jd_writer_load_cut(struct jd_writer *w, const char *name, uint64_t addr,
		       const void *code, uint64_t size, uint64_t *index)
{
	return write_load(w, name, addr, code, size, index, true);
}

int jd_writer_move(struct jd_writer *w, uint64_t index, uint64_t old_addr,
		   uint64_t new_addr, uint64_t size)
{
	struct rec r;
	int err;

	err = rec_begin(&r, JIT_CODE_MOVE, JD_REC_HEADER_SIZE + JD_MOVE_FIXED);
	if (err)
		return err;
	rec_u32(&r, w->pid);
	rec_u32(&r, (uint32_t)gettid());
	rec_u64(&r, new_addr);
	rec_u64(&r, old_addr);
	rec_u64(&r, new_addr);
	rec_u64(&r, size);
	rec_u64(&r, index);
	return rec_write(w, &r, r.size, NULL);
}

int jd_writer_close(struct jd_writer *w)
{
	struct rec r;
	int err;

	if (!w)
		return 0;
	err = rec_begin(&r, JIT_CODE_CLOSE, JD_REC_HEADER_SIZE);
	if (!err)
		err = rec_write(w, &r, r.size, NULL);
	if (close(w->fd) && !err)
		err = -errno;
	w->fd = -1;
	jd_writer_forget(w);
	return err;
}

void jd_writer_forget(struct jd_writer *w)
{
	if (!w)
		return;
	if (w->marker)
		munmap(w->marker, w->marker_len);
	if (w->fd >= 0)
		close(w->fd);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
