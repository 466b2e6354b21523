/*
 * An ELF file opened read-only through libelf: its header, sections by
 * name, build id, .gnu_debuglink, PT_LOAD segments, and the call frame
 * information (CFI) a DWARF unwinder needs.
 *
 * Addresses. Everything here is in the file's link-time address space
 * (st_value, sh_addr, p_vaddr), the "DSO address" of dso.h: the CFI
 * handles below take such addresses directly (a bias of 0). A debug file
 * found for a binary shares its address space. To look up a process
 * address, turn it into a file offset (ip - map_start + map_pgoff) and
 * then into a DSO address with elf_segments__map(); dso__map_ip() does both.
 *
 * Ownership. The image owns its file descriptor, its libelf handle, the
 * Elf_Data, strings and CFI handed out; they live until
 * elf_image__delete(). Errors: pointers are NULL with errno set. Never
 * prints. Not thread-safe.
 */
#ifndef JITSYM_ELF_IMAGE_H
#define JITSYM_ELF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <elfutils/libdw.h>
#include <gelf.h>

/* Longest build id read; GNU build ids are 16 (md5) or 20 (sha1) bytes. */
#define ELF_IMAGE_BUILD_ID_MAX 32

struct elf_image;

/* A PT_LOAD program header with file contents. */
struct elf_segment {
	uint64_t offset, filesz, vaddr;
};

/* A section's place in the file and in the address space. */
struct elf_section_info {
	uint64_t addr;                  /* sh_addr: DSO address (0 if not loaded) */
	uint64_t offset;                /* sh_offset: file offset */
	uint64_t size;                  /* sh_size */
};

/*
 * Open path: a regular file holding an ELF executable, shared object or
 * relocatable file (libelf must have been initialized with elf_version()).
 * NULL with errno ENOEXEC when the file is not such an ELF file, else the
 * errno of open() (ENOENT for something not a regular file).
 */
struct elf_image *elf_image__open(const char *path);
/*
 * An ELF image held in memory (size bytes at buf, copied), e.g. the
 * running kernel's vdso; name stands for its path in messages and
 * elf_image__path(). NULL with errno ENOEXEC when it is not ELF.
 */
struct elf_image *elf_image__open_memory(const char *name, const void *buf, size_t size);
/* Whether it came from elf_image__open_memory(): it cannot be opened again by path. */
bool elf_image__in_memory(const struct elf_image *img);
/* Close the file and free everything handed out. Accepts NULL. */
void elf_image__delete(struct elf_image *img);

/* The path as given to elf_image__open(); owned by the image. */
const char *elf_image__path(const struct elf_image *img);
/*
 * Up to n bytes of the file from offset off into buf (pread(2), retried
 * on EINTR): how many, 0 past the end, -1 with errno set.
 */
ssize_t elf_image__pread(struct elf_image *img, void *buf, size_t n, uint64_t off);
/*
 * The file's bytes [off, off + n) in a read-only mapping of their own,
 * which outlives the image: the pointer to offset off, with *base and
 * *len for munmap(). NULL for an image in memory, a range past the end of
 * the file, or a failed mmap(2).
 */
const void *elf_image__map_range(struct elf_image *img, uint64_t off, size_t n,
				 void **base, size_t *len);
/* The libelf handle and the ELF header; owned by the image. */
Elf *elf_image__elf(struct elf_image *img);
const GElf_Ehdr *elf_image__ehdr(const struct elf_image *img);
/* The GNU build id from the notes; NULL and *size 0 when none. */
const uint8_t *elf_image__build_id(const struct elf_image *img, size_t *size);
/*
 * Any ELF handle's GNU build id, from its note sections (debug files keep
 * them), else its PT_NOTE segments, into out: its size, 0 when none.
 */
size_t elf_build_id(Elf *elf, uint8_t out[ELF_IMAGE_BUILD_ID_MAX]);

/*
 * The first section of this type named name (any name when NULL), its
 * header in *shdr; NULL when none.
 */
Elf_Scn *elf_image__find_section(struct elf_image *img, const char *name,
				 Elf64_Word type, GElf_Shdr *shdr);
/* A section's name; "" when the section names are unreadable. Never NULL. */
const char *elf_image__section_name(struct elf_image *img, const GElf_Shdr *shdr);
/* Where the first section named name (of any type) is; 0 or -ENOENT. */
int elf_image__section_info(struct elf_image *img, const char *name,
			    struct elf_section_info *info);
/* Whether there is a .symtab. */
bool elf_image__has_symtab(struct elf_image *img);
/* The .gnu_debuglink file name, NUL-terminated inside the section, or NULL. */
const char *elf_image__debuglink(struct elf_image *img);

/*
 * The PT_LOAD headers with file contents, in file order, as a new array
 * (the caller frees it) in *segs; returns how many (0 and *segs NULL
 * when none or unreadable).
 */
size_t elf_image__segments(struct elf_image *img, struct elf_segment **segs);
/*
 * The DSO address of file offset off: through the segment that holds it,
 * else the last one starting before it, else off itself (no segments).
 */
uint64_t elf_segments__map(const struct elf_segment *segs, size_t nr, uint64_t off);

/*
 * The CFI of .eh_frame (dwarf_getcfi_elf()), for dwarf_cfi_addrframe()
 * with DSO addresses. Created on the first call and owned by the image;
 * NULL with errno ENOENT when the file has none (the failure is kept).
 */
Dwarf_CFI *elf_image__eh_frame_cfi(struct elf_image *img);
/*
 * The CFI of .debug_frame (dwarf_begin_elf() and dwarf_getcfi()), often
 * only in a debug file. As elf_image__eh_frame_cfi() otherwise.
 */
Dwarf_CFI *elf_image__debug_frame_cfi(struct elf_image *img);

#endif
