/*
 * libjitdump-reader internals: the reader's layout, shared by
 * jitdump-reader.c and the library's own tests. Not part of the API.
 */
#ifndef JITDUMP_READER_INTERNAL_H
#define JITDUMP_READER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jitdump-reader/jitdump-reader.h"

/* The smallest debug entry: addr, lineno, discrim and an empty name. */
#define JD_DEBUG_ENTRY_MIN 17u

struct jitdump_reader {
	const uint8_t *data;    /* the whole file, len bytes */
	size_t len;
	void *map;              /* data when mapped, for munmap(); or NULL */
	size_t page_size;       /* of the mapping */
	/*
	 * The mapped pages below released have been given back with
	 * MADV_DONTNEED as the cursor passed them: they are read again from
	 * the file if touched, so RSS stays bounded by a window, not the file.
	 */
	size_t released;
	uint8_t *copy;          /* data when read into memory; or NULL */
	char *path;             /* for messages; NULL for buffers */
	bool big_endian;        /* byte order of the file */
	unsigned int open_flags;  /* JITDUMP_READER_* */

	uint32_t version;
	uint32_t header_size;   /* total_size; records start there */
	unsigned int quirks;    /* JITDUMP_QUIRK_*: what was read other than as written */
	uint32_t e_machine;
	uint32_t pid;
	uint64_t timestamp;
	uint64_t flags;

	size_t pos;             /* offset of the next record */
	bool done;              /* the stream has ended: next() returns done_ret */
	int done_ret;
	const char *why;        /* the check behind the last error from next() */
	size_t nr_unknown;

	/* debug.entries of the last record, grown as needed, never shrunk */
	struct jitdump_debug_entry *entries;
	size_t entries_alloc;
};

#endif
