/*
 * libperfmap: read perf map files, /tmp/perf-PID.map, written by JIT
 * runtimes (V8 --perf-basic-prof, .NET, CPython -X perf, JVM agents).
 *
 * Format, one entry per line: "START SIZE NAME".
 *  - START and SIZE are hex, with or without a 0x/0X prefix, any case,
 *    at most 64 bits; leading blanks are allowed, fields are separated by
 *    one or more spaces or tabs.
 *  - NAME is the rest of the line, kept byte for byte (spaces, non-UTF-8),
 *    except that one trailing '\r' is dropped (CRLF files). A name longer
 *    than PERFMAP_MAX_NAME bytes is cut to that length, with a warning.
 *  - Bad lines are counted, reported and skipped: blank lines, bad or
 *    missing fields, an empty name, a NUL byte (names are C strings), and
 *    START + SIZE past 2^64. A range may end exactly at 2^64.
 *  - SIZE 0 is well formed but covers no address.
 *  - Every line ends with a newline. A last line without one is not read
 *    (nor counted as bad): a runtime appending to the map while it is read
 *    may have written only part of it, and a part can look well formed
 *    ("7f0000001000 1" of "... 1c0 name"). Its length is kept
 *    (perfmap__partial_bytes()) and said at PERFMAP_INFO. Reading a map
 *    again later gives the whole lines present then, the earlier ones the
 *    same.
 *  - Lines may overlap. A later line wins for every address it covers; the
 *    parts of earlier entries it does not cover still resolve to them.
 *
 * Lookup is O(log n); parsing is O(n log n) time and O(file size) memory
 * (perfmap__read_each(): O(n) time, memory of the longest line).
 *
 * Errors: functions returning int return 0 or a negative errno; functions
 * returning a pointer return NULL and set errno. The library never prints:
 * diagnostics go to the callback set with perfmap__set_print() (none by
 * default). All functions are thread-safe on distinct maps except
 * perfmap__set_print(), which sets process-wide state.
 *
 * Stability: the soname, libperfmap.so.1, is the ABI version. Within it,
 * functions are only added, never removed or changed; struct perfmap_entry
 * and struct perfmap_stats keep their layout; enum values keep their
 * meaning (new ones may be added: callers should expect values they do
 * not know); documented behaviour changes only to fix a bug. Any other
 * change comes with a new soname, libperfmap.so.2. The shared library
 * exports the functions declared here and nothing else. Build with
 * "pkg-config --cflags --libs perfmap"; see libperfmap(3).
 */
#ifndef PERFMAP_PERFMAP_H
#define PERFMAP_PERFMAP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PERFMAP_MAX_NAME (64u << 10)
/* Bad lines reported one by one at PERFMAP_WARN; the rest at PERFMAP_DEBUG. */
#define PERFMAP_MAX_WARNINGS 10

struct perfmap;

/* One line of the file. Owned by the map; valid until perfmap__delete(). */
struct perfmap_entry {
	uint64_t start;
	uint64_t size;
	const char *name;
};

enum perfmap_print_level {
	PERFMAP_WARN,
	PERFMAP_INFO,
	PERFMAP_DEBUG,
};

/*
 * Messages have no trailing newline and name their line, e.g.
 * "'/tmp/perf-42.map':7: bad size" or "line 7: bad size" for buffers.
 */
typedef int (*perfmap_print_fn_t)(enum perfmap_print_level level,
				  const char *fmt, va_list ap);

/* Set the diagnostic callback (NULL: silent); returns the previous one. */
perfmap_print_fn_t perfmap__set_print(perfmap_print_fn_t fn);

/*
 * Read and index a perf map file. NULL and errno on failure: open or read
 * errors as the system reports them, ENOMEM. A file with no valid line is
 * not an error: it gives an empty map.
 */
struct perfmap *perfmap__read(const char *path);
/* The same from a buffer (need not be NUL-terminated; copied). */
struct perfmap *perfmap__parse(const char *buf, size_t len);
void perfmap__delete(struct perfmap *pm);   /* accepts NULL */

/* What perfmap__read_each() read. */
struct perfmap_stats {
	size_t nr_entries;      /* well-formed lines, handed to the callback */
	size_t nr_bad_lines;    /* as perfmap__nr_bad_lines() */
	size_t partial_bytes;   /* as perfmap__partial_bytes() */
};

/* Called for each well-formed line; 0 goes on, a negative errno stops the read. */
typedef int (*perfmap_entry_fn_t)(void *ctx, const struct perfmap_entry *e);

/*
 * Read the map at path a chunk at a time, calling fn for each well-formed
 * line in file order, for callers that keep and index the entries
 * themselves: memory is a buffer of the longest line, not the file and its
 * entries (a perf map can have millions of lines: QEMU writes one per
 * guest instruction). e and its name are valid during the call only. Lines
 * are read, checked and reported as by perfmap__read(); the counts go to
 * *st, also when the read stops. Returns 0, an open or read error as
 * -errno, -ENOMEM, or what fn returned.
 */
int perfmap__read_each(const char *path, perfmap_entry_fn_t fn, void *ctx,
		       struct perfmap_stats *st);

/* The entry that covers addr, or NULL. O(log n). */
const struct perfmap_entry *perfmap__lookup(const struct perfmap *pm, uint64_t addr);

/* Well-formed lines kept, in file order, including size 0 and shadowed ones. */
size_t perfmap__nr_entries(const struct perfmap *pm);
/* Entry idx in file order, or NULL when idx >= perfmap__nr_entries(). */
const struct perfmap_entry *perfmap__entry(const struct perfmap *pm, size_t idx);
/* Lines skipped as bad, blank lines included. */
size_t perfmap__nr_bad_lines(const struct perfmap *pm);
/* Bytes of a last line without newline, not read (0: the text ends with one). */
size_t perfmap__partial_bytes(const struct perfmap *pm);

#ifdef __cplusplus
}
#endif

#endif
