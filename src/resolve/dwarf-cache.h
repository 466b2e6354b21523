/*
 * dwarf-cache: compressed DWARF sections, inflated, kept between runs.
 *
 * Debian's -dbg and -dbgsym packages store their DWARF zlib-compressed
 * (libc6-dbg: 2.6 MB of the sections a lookup reads, 7.3 MB inflated).
 * dwarf-file.c inflates them at each opening: on a short recording that
 * is most of what inline frames cost. This module keeps what it inflated
 * in one file per build id, DIR/dwarf/<build id in hex>, which the next
 * run maps read-only instead of inflating again.
 *
 * DIR is $JITSYM_CACHE_DIR, else $XDG_CACHE_HOME/jitsym, else
 * $HOME/.cache/jitsym; JITSYM_CACHE_DIR set and empty turns the cache off
 * (the test suite runs so). A section is taken from an entry only when its
 * name and inflated size are the ones the file's compression header gives
 * and its bytes have the Adler-32 checksum the file's own zlib stream
 * ends with: an entry that is stale, damaged or not the file's is never
 * read as DWARF, only replaced. An entry is written whole or not at all
 * (an unnamed O_TMPFILE linked into place once written), never over
 * DWARF_CACHE_MAX_BYTES; a failure to write is counted and said under -v,
 * and costs nothing else. The files are this machine's (host byte order);
 * deleting the directory at any time is safe.
 *
 * Thread-safe: the counters are under a lock, a map has one owner.
 */
#ifndef JITSYM_DWARF_CACHE_H
#define JITSYM_DWARF_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DWARF_CACHE_MAX_SECTIONS 16
#define DWARF_CACHE_NAME_MAX 24                        /* with its NUL */
#define DWARF_CACHE_MAX_BYTES ((uint64_t)256 << 20)    /* an entry, all sections */

/* One section of an entry: its name (".debug_info"), where and how long, its checksum. */
struct dwarf_cache_section {
	char name[DWARF_CACHE_NAME_MAX];
	uint64_t offset, size;
	uint32_t adler;
};

/*
 * Parse an entry's image (buf, len) of the file for build id (bid, bid_len):
 * its sections into out (at most DWARF_CACHE_MAX_SECTIONS), how many in
 * *nr. False when it is not a whole, well-formed entry of that build id:
 * magic, version, byte order, build id, every section inside the image
 * and at an offset aligned to 64 bytes.
 * Reads nothing outside buf; checks no checksum (dwarf_cache__section()).
 */
bool dwarf_cache__parse(const void *buf, size_t len, const uint8_t *bid, size_t bid_len,
			struct dwarf_cache_section *out, size_t *nr);

struct dwarf_cache_map;

/* The entry of build id (bid, bid_len), mapped; NULL when there is none or the cache is off. */
struct dwarf_cache_map *dwarf_cache__open(const uint8_t *bid, size_t bid_len);
/*
 * Section name of the map when its inflated size is size and its bytes'
 * Adler-32 is adler; else NULL. Valid until dwarf_cache__close().
 */
const void *dwarf_cache__section(struct dwarf_cache_map *m, const char *name, uint64_t size,
				 uint32_t adler);
/* Unmaps. Accepts NULL. */
void dwarf_cache__close(struct dwarf_cache_map *m);

/* A section to write: its name, inflated bytes and their Adler-32. */
struct dwarf_cache_put {
	const char *name;
	const void *data;
	uint64_t size;
	uint32_t adler;
};

/* Write (or replace) the entry of build id (bid, bid_len) with these sections. */
void dwarf_cache__write(const uint8_t *bid, size_t bid_len, const struct dwarf_cache_put *secs,
			size_t nr);

/* Whether the cache is on (a directory was found for it). */
bool dwarf_cache__enabled(void);

/* What the run did with the cache, for sources. */
struct dwarf_cache_stats {
	const char *dir;          /* NULL: off */
	uint64_t read;            /* entries sections were taken from */
	uint64_t written;         /* entries written */
	uint64_t rejected;        /* entries found stale or damaged (then replaced) */
	uint64_t failed;          /* entries not written */
	char reason[96];          /* the first failure's */
};
void dwarf_cache__stats(struct dwarf_cache_stats *out);

/* For tests: forget the directory chosen, to read the environment again. */
void dwarf_cache__reset(void);

#endif
