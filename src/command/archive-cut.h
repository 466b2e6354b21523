/*
 * archive-cut: the copies jitsym archive puts in a bundle in place of the
 * files a run read (cmd-archive.c), each written to an open file. Both
 * keep every header, record, offset and size of the original and only
 * zero bytes no lookup reads, so every command reads the copy as it read
 * the original (the same records, names, times and counts), while the
 * zeros compress to almost nothing:
 *
 *  - an ELF file: the contents of its large allocated sections (.text,
 *    .rodata, .data, dynamic relocations) are zeros, but for the bytes the
 *    run read as they are (vfs_record_range(): the code before return
 *    addresses). Its symbol tables, PLT, unwind tables, notes and DWARF
 *    stay.
 *  - a jitdump: every record stays; a load's code is zeros unless an
 *    address looked up lies in it or a move moves it (its code is read for
 *    return addresses, and only then).
 */
#ifndef JITSYM_ARCHIVE_CUT_H
#define JITSYM_ARCHIVE_CUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct radix_item;

/*
 * Write the copy of the jitdump read from fd into out, keeping the code
 * of loads that hold one of addrs (nr_addrs, sorted); *kept and *total
 * count loads. A file that is not a jitdump is copied whole. 0, or -1
 * after error() naming the file.
 */
int archive_cut_jitdump(const uint64_t *addrs, size_t nr_addrs, int fd, const char *name,
			int out, size_t *kept, size_t *total);
/*
 * Write ELF file fd's copy into out, keeping the nr ranges read as they
 * are (key the offset, val the end: vfs_record_ranges()); a file that is
 * not ELF is copied whole. 0 or -1 after error().
 */
int archive_cut_elf(int fd, const char *name, int out, const struct radix_item *read,
		    size_t nr);

#endif
