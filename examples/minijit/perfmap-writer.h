/*
 * perfmap-writer: writes a perf map, DIR/perf-PID.map, one line per
 * function: "START SIZE NAME\n" with START and SIZE in hex without "0x",
 * which is what perf reads for the //anon mappings of process PID when DIR
 * is /tmp. A perf map has no timestamps: a reader can only assume that a
 * later line for the same addresses replaces an earlier one.
 *
 * Every line goes out in one write(2) to a file opened O_APPEND, so
 * threads can share a writer. Functions returning int return 0 or a
 * negative errno. Nothing prints.
 */
#ifndef MINIJIT_PERFMAP_WRITER_H
#define MINIJIT_PERFMAP_WRITER_H

#include <stdint.h>

struct pm_writer;

/* Create (truncate) DIR/perf-PID.map for the calling process. Returns NULL and sets errno on failure. */
struct pm_writer *pm_writer_open(const char *dir);

/* DIR/perf-PID.map as opened. Owned by the writer. */
const char *pm_writer_path(const struct pm_writer *w);

/* Append the line for NAME at [ADDR, ADDR + SIZE). */
int pm_writer_add(struct pm_writer *w, uint64_t addr, uint64_t size, const char *name);

/* Append only the first half of that line, without its newline: a runtime killed mid-write. */
int pm_writer_add_cut(struct pm_writer *w, uint64_t addr, uint64_t size, const char *name);

/* Close and free. NULL is a no-op. */
void pm_writer_close(struct pm_writer *w);

#endif
