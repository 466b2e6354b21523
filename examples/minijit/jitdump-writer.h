/*
 * jitdump-writer: writes jit-PID.dump files as described in the Linux
 * tree's tools/perf/Documentation/jitdump-specification.txt: file header
 * version 1, then JIT_CODE_LOAD, JIT_CODE_MOVE, JIT_CODE_DEBUG_INFO and
 * JIT_CODE_CLOSE records, in host byte order, each timestamped with
 * CLOCK_MONOTONIC nanoseconds (the clock "perf record -k 1" uses).
 *
 * Each record is built in memory and written with one write(2) under the
 * writer's lock, so threads can share a writer: records never interleave
 * and timestamps never decrease along the file.
 *
 * Functions returning int return 0 or a negative errno. Nothing prints.
 */
#ifndef MINIJIT_JITDUMP_WRITER_H
#define MINIJIT_JITDUMP_WRITER_H

#include <stddef.h>
#include <stdint.h>

struct jd_writer;

/* One JIT_CODE_DEBUG_INFO entry: code from ADDR on comes from FILE:LINE. */
struct jd_line {
	uint64_t addr;
	uint32_t line;		/* 1-based */
	uint32_t discrim;	/* 0 unless several entries share a line */
	const char *file;
};

/*
 * Create DIR/jit-PID.dump for the calling process (truncating an old one),
 * write the file header, and map the file once PROT_READ|PROT_EXEC
 * MAP_PRIVATE: that mapping is the marker whose MMAP2 record tells perf
 * where the file is. The mapping stays until close. Returns NULL and sets
 * errno on failure (EPERM from mmap: DIR is on a noexec file system).
 */
struct jd_writer *jd_writer_open(const char *dir);

/* The file's path as opened (DIR/jit-PID.dump). Owned by the writer. */
const char *jd_writer_path(const struct jd_writer *w);

/* JIT_CODE_DEBUG_INFO for the function at CODE_ADDR. Write it before that function's JIT_CODE_LOAD. */
int jd_writer_debug_info(struct jd_writer *w, uint64_t code_addr,
			 const struct jd_line *lines, size_t n);

/*
 * JIT_CODE_LOAD for NAME at ADDR (vma = code_addr = ADDR), with the SIZE
 * code bytes at CODE. Assigns the next code_index (1, 2, ...) and stores
 * it in *INDEX.
 */
int jd_writer_load(struct jd_writer *w, const char *name, uint64_t addr,
		   const void *code, uint64_t size, uint64_t *index);

/*
 * Like jd_writer_load, but write only the first half of the record, as a
 * runtime killed in the middle of writing it would. Nothing written after
 * it can be read, so use it last, and then drop the writer with
 * jd_writer_forget.
 */
int jd_writer_load_cut(struct jd_writer *w, const char *name, uint64_t addr,
		       const void *code, uint64_t size, uint64_t *index);

/* JIT_CODE_MOVE: the code of INDEX (SIZE bytes) now lives at NEW_ADDR. */
int jd_writer_move(struct jd_writer *w, uint64_t index, uint64_t old_addr,
		   uint64_t new_addr, uint64_t size);

/* Write JIT_CODE_CLOSE, unmap the marker, close and free. W is freed even on error. NULL is a no-op. */
int jd_writer_close(struct jd_writer *w);

/*
 * Unmap, close and free without writing: for a forked child, which shares
 * the file with its parent and must leave it alone, and after
 * jd_writer_load_cut. NULL is a no-op.
 */
void jd_writer_forget(struct jd_writer *w);

#endif
