/*
 * libperfmap internals: the map's layout, shared by perfmap.c and the
 * library's own tests. Not part of the API.
 */
#ifndef PERFMAP_INTERNAL_H
#define PERFMAP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "perfmap/perfmap.h"

/*
 * A run of addresses [first, last] (inclusive, so a range may end at
 * 2^64 - 1) that resolves to entries[entry]. Ranges are sorted, disjoint,
 * and adjacent ranges never name the same entry.
 */
struct perfmap_range {
	uint64_t first;
	uint64_t last;
	size_t entry;
};

struct perfmap {
	char *text;                     /* the file; names point into it */
	struct perfmap_entry *entries;  /* well-formed lines, file order */
	size_t nr_entries;
	struct perfmap_range *ranges;   /* what lookup searches */
	size_t nr_ranges;
	size_t nr_bad_lines;
	size_t partial;                 /* bytes of a last line without newline, not read */
};

#endif
