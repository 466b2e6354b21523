/*
 * The perf map loader (/tmp/perf-PID.map, over lib/perfmap): "START SIZE
 * NAME" lines without times, each an untimed range, a later line winning
 * where lines overlap. A name's control bytes are written "\xNN"
 * (jit-name.h). Counters: entries, bad lines, names with control bytes,
 * the bytes of a last line without newline (a map still being written:
 * not read, perfmap.h).
 */
#include "common.h"
#include "jit-loader.h"
#include "jit-name.h"
#include "sbuf.h"

#include <perfmap/perfmap.h>

enum { C_ENTRIES, C_BAD, C_BAD_NAME, C_PARTIAL };

static int perfmap_print(enum perfmap_print_level level, const char *fmt, va_list ap)
{
	if (level == PERFMAP_WARN)
		vwarning(fmt, ap);
	return 0;
}

static void perfmap_file_name(uint32_t pid, char *buf, size_t size)
{
	snprintf(buf, size, "perf-%" PRIu32 ".map", pid);
}

static int perfmap_read(struct jit_feed *f, const char *path)
{
	size_t *count = jit_feed__counters(f);
	struct sbuf name;
	struct perfmap *pm;
	size_t i, n;

	perfmap__set_print(perfmap_print);
	pm = perfmap__read(path);
	if (!pm) {
		warning("pid %" PRIu32 ": cannot read perf map '%s': %s", jit_feed__pid(f), path,
			strerror(errno));
		return -1;
	}
	n = perfmap__nr_entries(pm);
	sbuf_init(&name, SBUF_MAX_SYMNAME);
	for (i = 0; i < n; i++) {
		const struct perfmap_entry *e = perfmap__entry(pm, i);

		if (jit_name__clean(e->name, &name)) {
			count[C_BAD_NAME]++;
			jit_feed__range(f, e->start, e->size, name.buf);
		} else {
			jit_feed__range(f, e->start, e->size, e->name);
		}
	}
	sbuf_release(&name);
	count[C_ENTRIES] = n;
	count[C_BAD] = perfmap__nr_bad_lines(pm);
	count[C_PARTIAL] = perfmap__partial_bytes(pm);
	perfmap__delete(pm);
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
