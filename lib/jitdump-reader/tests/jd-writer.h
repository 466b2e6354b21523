/*
 * A tiny jitdump writer for tests: builds a file in memory in either byte
 * order, written from the specification, independent of the reader.
 * Aborts when out of memory. Every function returns the offset where
 * what it wrote starts, so tests can patch fields and check offsets.
 */
#ifndef JD_WRITER_H
#define JD_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct jdw {
	uint8_t *buf;
	size_t len, cap;
	bool be;                /* write big-endian */
	size_t rec;             /* start of the record being written */
};

struct jdw_entry {
	uint64_t addr;
	uint32_t lineno, discrim;
	const char *filename;   /* "\xff" writes the same-file marker */
};

static inline void jdw_init(struct jdw *w, bool big_endian)
{
	memset(w, 0, sizeof(*w));
	w->be = big_endian;
}

static inline void jdw_release(struct jdw *w)
{
	free(w->buf);
	memset(w, 0, sizeof(*w));
}

static inline size_t jdw_bytes(struct jdw *w, const void *p, size_t n)
{
	size_t at = w->len;

	if (w->cap - w->len < n) {
		size_t cap = w->cap ? w->cap : 256;

		while (cap - w->len < n)
			cap *= 2;
		w->buf = realloc(w->buf, cap);
		if (!w->buf)
			abort();
		w->cap = cap;
	}
	if (n)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
	return at;
}

static inline size_t jdw_zeros(struct jdw *w, size_t n)
{
	size_t at = w->len;

	while (n--)
		jdw_bytes(w, "", 1);
	return at;
}

static inline void jdw_put(struct jdw *w, size_t at, uint64_t v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		unsigned int shift = 8 * (w->be ? n - 1 - i : i);

		w->buf[at + i] = (uint8_t)(v >> shift);
	}
}

static inline void jdw_put_u32(struct jdw *w, size_t at, uint32_t v)
{
	jdw_put(w, at, v, 4);
}

static inline void jdw_put_u64(struct jdw *w, size_t at, uint64_t v)
{
	jdw_put(w, at, v, 8);
}

static inline size_t jdw_u32(struct jdw *w, uint32_t v)
{
	size_t at = jdw_zeros(w, 4);

	jdw_put_u32(w, at, v);
	return at;
}

static inline size_t jdw_u64(struct jdw *w, uint64_t v)
{
	size_t at = jdw_zeros(w, 8);

	jdw_put_u64(w, at, v);
	return at;
}

static inline size_t jdw_str(struct jdw *w, const char *s)
{
	return jdw_bytes(w, s, strlen(s) + 1);
}

/* The file header; total_size > 40 appends that many extension bytes (0xee). */
static inline size_t jdw_header(struct jdw *w, uint32_t version, uint32_t total_size,
				uint32_t e_machine, uint32_t pid, uint64_t timestamp,
				uint64_t flags)
{
	size_t at = jdw_bytes(w, w->be ? "JiTD" : "DTiJ", 4);

	jdw_u32(w, version);
	jdw_u32(w, total_size);
	jdw_u32(w, e_machine);
	jdw_u32(w, 0xdeadbeef);         /* pad1 */
	jdw_u32(w, pid);
	jdw_u64(w, timestamp);
	jdw_u64(w, flags);
	while (w->len - at < total_size)
		jdw_bytes(w, "\xee", 1);
	return at;
}

/* A record header with total_size to be filled in by jdw_end(). */
static inline size_t jdw_begin(struct jdw *w, uint32_t id, uint64_t timestamp)
{
	w->rec = jdw_u32(w, id);
	jdw_u32(w, 0);
	jdw_u64(w, timestamp);
	return w->rec;
}

static inline size_t jdw_end(struct jdw *w)
{
	jdw_put_u32(w, w->rec + 4, (uint32_t)(w->len - w->rec));
	return w->rec;
}

/* JIT_CODE_LOAD with pad zero bytes between the name and the code. */
static inline size_t jdw_load_pad(struct jdw *w, uint64_t ts, uint32_t pid, uint32_t tid,
				  uint64_t addr, uint64_t index, const char *name,
				  const void *code, size_t code_size, size_t pad)
{
	jdw_begin(w, 0, ts);
	jdw_u32(w, pid);
	jdw_u32(w, tid);
	jdw_u64(w, addr);               /* vma */
	jdw_u64(w, addr);               /* code_addr */
	jdw_u64(w, code_size);
	jdw_u64(w, index);
	jdw_str(w, name);
	jdw_zeros(w, pad);
	jdw_bytes(w, code, code_size);
	return jdw_end(w);
}

static inline size_t jdw_load(struct jdw *w, uint64_t ts, uint32_t pid, uint32_t tid,
			      uint64_t addr, uint64_t index, const char *name,
			      const void *code, size_t code_size)
{
	return jdw_load_pad(w, ts, pid, tid, addr, index, name, code, code_size, 0);
}

static inline size_t jdw_move(struct jdw *w, uint64_t ts, uint32_t pid, uint32_t tid,
			      uint64_t old_addr, uint64_t new_addr, uint64_t code_size,
			      uint64_t index)
{
	jdw_begin(w, 1, ts);
	jdw_u32(w, pid);
	jdw_u32(w, tid);
	jdw_u64(w, new_addr);           /* vma */
	jdw_u64(w, old_addr);
	jdw_u64(w, new_addr);
	jdw_u64(w, code_size);
	jdw_u64(w, index);
	return jdw_end(w);
}

static inline size_t jdw_debug(struct jdw *w, uint64_t ts, uint64_t code_addr,
			       const struct jdw_entry *e, size_t nr)
{
	size_t i;

	jdw_begin(w, 2, ts);
	jdw_u64(w, code_addr);
	jdw_u64(w, nr);
	for (i = 0; i < nr; i++) {
		jdw_u64(w, e[i].addr);
		jdw_u32(w, e[i].lineno);
		jdw_u32(w, e[i].discrim);
		jdw_str(w, e[i].filename);
	}
	return jdw_end(w);
}

static inline size_t jdw_close(struct jdw *w, uint64_t ts)
{
	jdw_begin(w, 3, ts);
	return jdw_end(w);
}

static inline size_t jdw_unwind(struct jdw *w, uint64_t ts, const void *data, size_t size,
				uint64_t eh_frame_hdr_size, uint64_t mapped_size)
{
	jdw_begin(w, 4, ts);
	jdw_u64(w, size);
	jdw_u64(w, eh_frame_hdr_size);
	jdw_u64(w, mapped_size);
	jdw_bytes(w, data, size);
	jdw_zeros(w, (8 - size % 8) % 8);       /* pad as V8 does */
	return jdw_end(w);
}

/* A record of any id with payload bytes. */
static inline size_t jdw_raw(struct jdw *w, uint32_t id, uint64_t ts, const void *payload,
			     size_t n)
{
	jdw_begin(w, id, ts);
	jdw_bytes(w, payload, n);
	return jdw_end(w);
}

#endif
