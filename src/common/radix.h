/*
 * radix: sorting (key, value) pairs by key, equal keys keeping their
 * order, in linear time: a node perf map has ~100,000 lines, QEMU's
 * millions, and an ELF symbol table's symbols are sorted at every load
 * (qsort() took 63 M instructions for node-medium's perf map).
 */
#ifndef JITSYM_RADIX_H
#define JITSYM_RADIX_H

#include <stddef.h>
#include <stdint.h>

/* A key and what it keys (an index, most often): radix_sort()'s element. */
struct radix_item {
	uint64_t key, val;
};

/*
 * Sort v by key, stable: LSD radix, 8 bits a pass, the passes over bytes
 * every key shares left out; an array already in order costs one pass.
 */
void radix_sort(struct radix_item *v, size_t n);

#endif
