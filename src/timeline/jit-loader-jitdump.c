/*
 * The jitdump loader (jit-PID.dump, over lib/jitdump-reader): the runtime
 * maps the file as a marker; its JIT_CODE_LOAD and JIT_CODE_MOVE records
 * are timed loads and moves, and a JIT_CODE_DEBUG_INFO record gives the
 * line table, a JIT_CODE_UNWINDING_INFO record the unwinding rules
 * (checked by jit-cfi.h first), of the load that follows it.
 * Names are made safe here (jit-name.h): a debug entry's file name that
 * is empty or not printable UTF-8 is dropped (the entry keeps no file), a
 * function name's control bytes are written "\xNN".
 * The header's pid is the writer's (jit_feed__writer_pid(): in a
 * container, its namespace pid).
 * Counters: records, loads, moves, debug info records, unwinding info
 * records, and those whose rules were bad; file names dropped (counted
 * only when lines or file stats are wanted, jitmap.h), function
 * names with control bytes escaped; a header repaired (Mono's total_size,
 * jitdump-reader.h). A line table's end entry (line 0, empty file name:
 * Erlang, QEMU) is not a dropped file name.
 */
#include "common/common.h"
#include "common/vfs.h"
#include "timeline/jit-loader.h"
#include "timeline/jit-cfi.h"
#include "timeline/jit-name.h"
#include "timeline/jitmap.h"
#include "common/sbuf.h"

#include <ctype.h>

#include <jitdump-reader/jitdump-reader.h>

/* V8 writes debug-info addresses this far past the instruction (an ELF header's size). */
#define V8_DEBUG_BIAS 0x40

enum {
	C_RECORDS, C_LOADS, C_MOVES, C_DEBUG, C_UNWIND, C_BAD_UNWIND, C_BAD_FILE, C_BAD_NAME,
	C_QUIRK_HDR,
};

/* Whether path's base name is jit-PID.dump, PID a number up to UINT32_MAX (0 included): *pid. */
static bool jitdump_marker_name(const char *path, unsigned long *pid)
{
	const char *base = strrchr(path, '/');
	char *end;

	base = base ? base + 1 : path;
	if (strncmp(base, "jit-", 4) || !isdigit((unsigned char)base[4]))
		return false;
	errno = 0;
	*pid = strtoul(base + 4, &end, 10);
	return !errno && *pid <= UINT32_MAX && !strcmp(end, ".dump");
}

/* The pid in a marker's name, jit-PID.dump; 0 when it is not one. */
static uint32_t jitdump_marker_pid(const char *path)
{
	unsigned long pid;

	return jitdump_marker_name(path, &pid) && pid ? (uint32_t)pid : 0;
}

static bool jitdump_is_marker(const char *path)
{
	unsigned long pid;

	return jitdump_marker_name(path, &pid);
}

/*
 * Erlang's BeamAsm and QEMU end a function's line table with an entry of
 * line 0 and an empty file name at the code's end: where the last line
 * stops, not a file name to drop or count.
 */
static bool end_of_lines(const struct jitdump_debug_entry *e)
{
	return !e->lineno && !e->filename[0];
}

/* File names cached (a power of two): node-dwarf-small's 510,161 entries name 4,478 files. */
#define FILE_CACHE 256

/*
 * The file names of line entries interned lately, by a hash of their
 * length and ends: a line table names its few files again and again, and
 * each entry's copy would otherwise be checked (jit_name__file_ok()) and
 * hashed into the pool anew. Only usable names are kept; a slot holds the
 * last one that fell in it.
 */
struct file_cache {
	const char *interned[FILE_CACHE];     /* NULL: empty */
};

/* The last DEBUG_INFO record: it describes the LOAD that follows it. */
struct pending_debug {
	uint64_t code_addr;
	struct jit_line *lines;
	size_t nr;
	struct file_cache files;
};

static size_t file_slot(const char *s, size_t len)
{
	size_t n = len < 8 ? len : 8;
	uint64_t head = 0, tail = 0, h;

	memcpy(&head, s, n);
	memcpy(&tail, s + len - n, n);
	h = (head * 0x9e3779b97f4a7c15ull) ^ (tail + len);
	h *= 0xbf58476d1ce4e5b9ull;
	return (size_t)(h >> 32) & (FILE_CACHE - 1);
}

/* A line entry's file name interned; NULL when it is no file name (jit-name.h). */
static const char *entry_file(struct jit_feed *f, struct file_cache *fc, const char *name)
{
	size_t i = file_slot(name, strlen(name));
	const char *s = fc->interned[i];

	if (s && !strcmp(s, name))
		return s;
	if (!jit_name__file_ok(name))
		return NULL;
	return fc->interned[i] = jit_feed__intern(f, name);
}

static void keep_debug(struct jit_feed *f, struct pending_debug *pd,
		       const struct jitdump_record *rec)
{
	size_t i, *count = jit_feed__counters(f);

	free(pd->lines);
	pd->code_addr = rec->u.debug.code_addr;
	pd->nr = rec->u.debug.nr_entry;
	pd->lines = xcalloc(pd->nr ? pd->nr : 1, sizeof(*pd->lines));
	for (i = 0; i < pd->nr; i++) {
		const struct jitdump_debug_entry *e = &rec->u.debug.entries[i];

		pd->lines[i].addr = e->addr;
		pd->lines[i].line = e->lineno;
		pd->lines[i].column = e->discrim;
		pd->lines[i].file = entry_file(f, &pd->files, e->filename);
		if (!pd->lines[i].file && !end_of_lines(e))
			count[C_BAD_FILE]++;
	}
}

/* Count rec's bad file names as keep_debug() does, keeping no lines. */
static void count_bad_files(struct jit_feed *f, struct pending_debug *pd,
			    const struct jitdump_record *rec)
{
	size_t i;

	for (i = 0; i < rec->u.debug.nr_entry; i++)
		if (!entry_file(f, &pd->files, rec->u.debug.entries[i].filename) &&
		    !end_of_lines(&rec->u.debug.entries[i]))
			jit_feed__counters(f)[C_BAD_FILE]++;
}

/* Pieces this long or shorter are sorted by insertion. */
#define SHORT_LINES 32

static void insert_lines(struct jit_line *l, size_t nr)
{
	size_t i, j;

	for (i = 1; i < nr; i++) {
		struct jit_line x = l[i];

		for (j = i; j > 0 && l[j - 1].addr > x.addr; j--)
			l[j] = l[j - 1];
		l[j] = x;
	}
}

/* Merge sort, stable; tmp has room for nr / 2 lines. */
static void merge_lines(struct jit_line *l, struct jit_line *tmp, size_t nr)
{
	size_t half = nr / 2, i = 0, j = half, k = 0;

	if (nr <= SHORT_LINES) {
		insert_lines(l, nr);
		return;
	}
	merge_lines(l, tmp, half);
	merge_lines(l + half, tmp, nr - half);
	if (l[half - 1].addr <= l[half].addr)
		return;
	memcpy(tmp, l, half * sizeof(*l));
	/* the left half's first on equal addresses; k never passes j */
	while (i < half && j < nr)
		l[k++] = l[j].addr < tmp[i].addr ? l[j++] : tmp[i++];
	while (i < half)
		l[k++] = tmp[i++];
}

/*
 * Sort a line table by address, keeping entries of one address in their
 * order (as glibc's qsort(), a merge sort, did). Most of a V8 jitdump's
 * tables are in order already (63% on node-dwarf-small) and most are
 * short (21 entries on average): qsort() with its callback took 103 M
 * instructions there.
 */
static void sort_lines(struct jit_line *l, size_t nr)
{
	struct jit_line *tmp;
	size_t i;

	for (i = 1; i < nr && l[i - 1].addr <= l[i].addr; i++)
		;
	if (i >= nr)
		return;
	if (nr <= SHORT_LINES) {
		insert_lines(l, nr);
		return;
	}
	tmp = xcalloc(nr / 2, sizeof(*tmp));
	merge_lines(l, tmp, nr);
	free(tmp);
}

/*
 * Give ld the pending debug info if it is for ld's address. V8 (its JS
 * functions are named "JS:...") biases each address by 0x40 and puts the
 * column in the discriminator; other producers give the discriminator,
 * which is no column.
 */
static void attach_debug(struct jit_load *ld, struct pending_debug *pd)
{
	bool v8 = !strncmp(ld->name, "JS:", 3);
	size_t i;

	if (!pd->lines || pd->code_addr != ld->start)
		return;
	for (i = 0; i < pd->nr; i++) {
		if (v8 && pd->lines[i].addr >= ld->start + V8_DEBUG_BIAS)
			pd->lines[i].addr -= V8_DEBUG_BIAS;
		if (!v8)
			pd->lines[i].column = 0;
	}
	sort_lines(pd->lines, pd->nr);
	ld->lines = pd->lines;
	ld->nr_lines = pd->nr;
	pd->lines = NULL;
}

/*
 * The last UNWINDING_INFO record's data (in the reader's image), for the
 * LOAD that follows it: an .eh_frame, then its .eh_frame_hdr, written
 * right after the code padded to 8 bytes (as V8 and CPython do, and perf
 * inject lays them out).
 */
struct pending_unwind {
	const uint8_t *data;
	uint64_t size, hdr_size;
};

/* ld's unwinding rules from pu, if any and sound; pu is used up. */
static void attach_unwind(struct jit_feed *f, struct jit_load *ld, struct pending_unwind *pu)
{
	struct jit_unwind u = { .eh_frame_off = (ld->size + 7) & ~(uint64_t)7 };
	int ret;

	/* nothing pending: and no pointer arithmetic on a NULL data (fuzz-pipeline) */
	if (!pu->data)
		return;
	u.eh_frame = pu->data;
	u.eh_frame_size = pu->size - pu->hdr_size;
	u.hdr = pu->hdr_size ? pu->data + pu->size - pu->hdr_size : NULL;
	u.hdr_size = pu->hdr_size;
	pu->data = NULL;
	ret = jit_cfi__check(&u);
	if (ret < 0)
		jit_feed__counters(f)[C_BAD_UNWIND]++;
	else if (ret > 0)
		ld->unwind = jit_feed__unwind(f, &u);
}

static void feed_record(struct jit_feed *f, const struct jitdump_record *rec,
			struct pending_debug *pd, struct pending_unwind *pu, struct sbuf *name)
{
	size_t *count = jit_feed__counters(f);

	if (rec->type == JITDUMP_CODE_LOAD) {
		struct jit_load ld = {
			.pid = rec->u.load.pid, .time = rec->timestamp,
			.start = rec->u.load.code_addr, .size = rec->u.load.code_size,
			.code_index = rec->u.load.code_index, .name = rec->u.load.name,
			.code = rec->u.load.code,
			/* the code is the record's last code_size bytes (jitdump-reader.h) */
			.code_off = rec->u.load.code ? rec->offset + rec->size - rec->u.load.code_size : 0,
		};

		if (jit_name__clean(ld.name, name)) {
			ld.name = name->buf;
			count[C_BAD_NAME]++;
		}
		attach_debug(&ld, pd);
		attach_unwind(f, &ld, pu);
		jit_feed__load(f, &ld);
		count[C_LOADS]++;
	} else if (rec->type == JITDUMP_CODE_MOVE) {
		struct jit_move mv = {
			.pid = rec->u.move.pid, .time = rec->timestamp,
			.old_start = rec->u.move.old_code_addr,
			.new_start = rec->u.move.new_code_addr,
			.size = rec->u.move.code_size, .code_index = rec->u.move.code_index,
		};

		jit_feed__move(f, &mv);
		count[C_MOVES]++;
	} else if (rec->type == JITDUMP_CODE_DEBUG_INFO) {
		if (jit_feed__want_lines(f))
			keep_debug(f, pd, rec);
		else if (jit_feed__want_file_stats(f))
			count_bad_files(f, pd, rec);
		count[C_DEBUG]++;
	} else if (rec->type == JITDUMP_CODE_UNWINDING_INFO) {
		pu->data = rec->u.unwind.data;
		pu->size = rec->u.unwind.unwinding_size;
		pu->hdr_size = rec->u.unwind.eh_frame_hdr_size;
		count[C_UNWIND]++;
	}
}

static int jitdump_read(struct jit_feed *f, const char *path)
{
	char vbuf[VFS_PATH_BUF];
	struct pending_debug pd = { 0 };
	struct pending_unwind pu = { 0 };
	struct sbuf name;
	size_t *count = jit_feed__counters(f);
	struct jitdump_reader *r;
	struct jitdump_record rec;
	int ret;

	/*
	 * Entries only when something reads them: lines, or sources counting
	 * bad file names. Without, the reader still checks them (the same
	 * records are malformed) but decodes none.
	 */
	r = jitdump_reader__open(vfs_path(path, VFS_JITDUMP, vbuf), jit_feed__want_lines(f) || jit_feed__want_file_stats(f) ?
				 0 : JITDUMP_READER_NO_DEBUG_ENTRIES);
	if (!r) {
		const char *why = jitdump__strerror(errno);

		jit_feed__problem(f, why);
		warning("pid %" PRIu32 ": cannot read jitdump '%s': %s", jit_feed__pid(f), path, why);
		return 0;    /* listed by sources, with why */
	}
	/* a process in a container wrote its own namespace's pid: whose the records are */
	jit_feed__writer_pid(f, jitdump_reader__pid(r));
	if (jitdump_reader__quirks(r) & JITDUMP_QUIRK_HEADER_SIZE)
		count[C_QUIRK_HDR] = 1;
	sbuf_init(&name, SBUF_MAX_SYMNAME);
	while ((ret = jitdump_reader__next(r, &rec)) != 0) {
		if (ret == -JITDUMP_E_BAD_RECORD) {
			warning("'%s': record at offset %" PRIu64 " is malformed (%s); skipped", path,
				jitdump_reader__offset(r), jitdump_reader__error_detail(r));
			continue;
		}
		if (ret < 0) {
			jit_feed__problem(f, jitdump__strerror(ret));
			warning("'%s': %s at offset %" PRIu64 "; using the %zu records before it",
				path, jitdump__strerror(ret), jitdump_reader__offset(r),
				count[C_RECORDS]);
			break;
		}
		count[C_RECORDS]++;
		feed_record(f, &rec, &pd, &pu, &name);
	}
	sbuf_release(&name);
	free(pd.lines);
	jitdump_reader__delete(r);
	return 0;
}

static void jitdump_describe(const struct jit_file_info *info, struct sbuf *out)
{
	sbuf_addf(out, "%zu records (%zu loads, %zu moves, %zu debug info)",
		  info->count[C_RECORDS], info->count[C_LOADS], info->count[C_MOVES],
		  info->count[C_DEBUG]);
	/* said only when there are some, so that older files read as before */
	if (info->count[C_UNWIND])
		sbuf_addf(out, ", %zu unwinding info", info->count[C_UNWIND]);
	if (info->count[C_BAD_UNWIND])
		sbuf_addf(out, ", %zu bad unwind info", info->count[C_BAD_UNWIND]);
	if (info->count[C_BAD_FILE])
		sbuf_addf(out, ", %zu bad file names dropped", info->count[C_BAD_FILE]);
	if (info->count[C_BAD_NAME])
		sbuf_addf(out, ", %zu names with control bytes escaped", info->count[C_BAD_NAME]);
	if (info->count[C_QUIRK_HDR])
		sbuf_addf(out, ", header total_size a pointer's size (Mono's writer): read as 40");
}

const struct jit_loader jit_loader_jitdump = {
	.name = "jitdump",
	.kind = JIT_TIMED,
	.is_marker = jitdump_is_marker,
	.marker_pid = jitdump_marker_pid,
	.dirs = JIT_DIRS_JIT,
	.if_missing = "its JIT frames are named from its perf map if there is one, else not at all",
	.read = jitdump_read,
	.describe = jitdump_describe,
};
