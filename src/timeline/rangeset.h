/*
 * rangeset: a sorted set of non-overlapping address ranges, each with a
 * payload. Inserting a range replaces whatever part of older ranges it
 * covers, as mmap does over existing mappings and a JIT does over old code:
 * an older range that sticks out on either side keeps those parts.
 *
 * Each range carries an offset that moves with its start when its head is
 * cut off (a mapping's file offset; a JIT range's offset into its code), so
 * offset + (addr - start) stays what it was for every surviving address.
 * Payloads are borrowed: the set never frees them.
 *
 * Ranges are kept sorted in blocks of up to RS_BLOCK: a lookup is two
 * binary searches over contiguous memory (it is on every resolver miss),
 * the first over the blocks' last ends, kept apart so that it reads no
 * block (one cache miss per step, otherwise),
 * and an insert in any address order moves at most a block's ranges and
 * the block pointers, so a million scattered mmaps stay fast.
 */
#ifndef JITSYM_RANGESET_H
#define JITSYM_RANGESET_H

#include <stddef.h>
#include <stdint.h>

struct range {
	uint64_t start, end;    /* [start, end) */
	uint64_t offset;
	void *data;
};

struct rs_block;

struct rangeset {
	struct rs_block **blocks;   /* each non-empty; ranges sorted across them */
	uint64_t *ends;             /* ends[i]: the end of blocks[i]'s last range */
	size_t nr_blocks, alloc_blocks;
	size_t nr;                  /* ranges held */
};

#define RANGESET_INIT { NULL, NULL, 0, 0, 0 }

void rangeset__release(struct rangeset *s);
/* Insert [start, end); empty or inverted ranges are ignored. */
void rangeset__insert(struct rangeset *s, uint64_t start, uint64_t end,
		      uint64_t offset, void *data);
/* Remove [start, end) from whatever ranges cover it. */
void rangeset__remove(struct rangeset *s, uint64_t start, uint64_t end);
/* The range holding addr, or NULL; valid until the set changes. */
const struct range *rangeset__find(const struct rangeset *s, uint64_t addr);
/* Make dst a copy of src (payload pointers shared). */
void rangeset__copy(struct rangeset *dst, const struct rangeset *src);

#endif
