/*
 * The perf map loader (/tmp/perf-PID.map, over lib/perfmap): "START SIZE
 * NAME" lines without times, each an untimed range, a later line winning
 * where lines overlap. A name's control bytes are written "\xNN"
 * (jit-name.h). Counters: entries, bad lines, names with control bytes,
 * the bytes of a last line without newline (a map still being written:
 * not read, perfmap.h).
 */
#include "common/common.h"
#include "common/vfs.h"
#include "timeline/jit-loader.h"
#include "timeline/jit-name.h"
#include "common/sbuf.h"

#include <pthread.h>

#include <perfmap/perfmap.h>

enum { C_ENTRIES, C_BAD, C_BAD_NAME, C_PARTIAL };

static int perfmap_print(enum perfmap_print_level level, const char *fmt, va_list ap)
{
	if (level == PERFMAP_WARN)
		vwarning(fmt, ap);
	return 0;
}

/* The library's messages through ours: set once, as recordings may be read on several threads. */
static pthread_once_t print_once = PTHREAD_ONCE_INIT;

static void set_print(void)
{
	perfmap__set_print(perfmap_print);
}

static void perfmap_file_name(uint32_t pid, char *buf, size_t size)
{
	snprintf(buf, size, "perf-%" PRIu32 ".map", pid);
}

struct feed_ctx {
	struct jit_feed *f;
	struct sbuf name;
	size_t bad_names;
};

/* One line of the map, in file order: an untimed range (later lines win). */
static int feed_entry(void *ctx, const struct perfmap_entry *e)
{
	struct feed_ctx *fc = ctx;

	if (jit_name__clean(e->name, &fc->name)) {
		fc->bad_names++;
		jit_feed__range(fc->f, e->start, e->size, fc->name.buf);
	} else {
		jit_feed__range(fc->f, e->start, e->size, e->name);
	}
	return 0;
}

/* Streamed: a map of millions of lines (QEMU) is not held twice. */
static int perfmap_read(struct jit_feed *f, const char *path)
{
	char vbuf[VFS_PATH_BUF];
	size_t *count = jit_feed__counters(f);
	struct feed_ctx fc = { .f = f };
	struct perfmap_stats st;
	int ret;

	pthread_once(&print_once, set_print);
	sbuf_init(&fc.name, SBUF_MAX_SYMNAME);
	ret = perfmap__read_each(vfs_path(path, VFS_PERFMAP, vbuf), feed_entry, &fc, &st);
	sbuf_release(&fc.name);
	if (ret && !st.nr_entries) {
		warning("pid %" PRIu32 ": cannot read perf map '%s': %s", jit_feed__pid(f), path,
			strerror(-ret));
		return -1;
	}
	if (ret) {
		jit_feed__problem(f, strerror(-ret));
		warning("pid %" PRIu32 ": cannot read perf map '%s' to its end: %s; using its "
			"first %zu entries", jit_feed__pid(f), path, strerror(-ret), st.nr_entries);
	}
	count[C_ENTRIES] = st.nr_entries;
	count[C_BAD] = st.nr_bad_lines;
	count[C_BAD_NAME] = fc.bad_names;
	count[C_PARTIAL] = st.partial_bytes;
	return 0;
}

static void perfmap_describe(const struct jit_file_info *info, struct sbuf *out)
{
	sbuf_addf(out, "%zu entries, %zu bad lines", info->count[C_ENTRIES], info->count[C_BAD]);
	/* said only when there are some, so that clean maps read as before */
	if (info->count[C_BAD_NAME])
		sbuf_addf(out, ", %zu names with control bytes escaped", info->count[C_BAD_NAME]);
	if (info->count[C_PARTIAL])
		sbuf_addf(out, ", last line unfinished (%zu bytes, no newline): not read",
			  info->count[C_PARTIAL]);
}

const struct jit_loader jit_loader_perfmap = {
	.name = "perfmap",
	.kind = JIT_UNTIMED,
	.file_name = perfmap_file_name,
	.runtime_dir = "/tmp",
	.dirs = JIT_DIRS_PERFMAP,
	.read = perfmap_read,
	.describe = perfmap_describe,
};
