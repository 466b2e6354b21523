/*
 * vmlinux: the core kernel's symbols and DWARF from an uncompressed kernel
 * image the user gives (--vmlinux FILE, perf's -k/--vmlinux), instead of
 * kallsyms; modules keep their kallsyms names.
 *
 * The image's symbols are at its link addresses; the recorded kernel ran
 * where KASLR put it. perf record writes the kernel's MMAP (pid -1) as
 * "[kernel.kallsyms]SYM" with pgoff the address SYM (_text) ran at (perf's
 * ref_reloc_sym); the image's own SYM gives its link address, and the
 * difference is the slide every kernel address is un-slid by before a
 * lookup. Without that MMAP, or with pgoff 0 (kptr_restrict at record
 * time), the image is used as linked, as perf does.
 *
 * Like perf, an image whose build id differs from the one the recording
 * has for [kernel.kallsyms] (HEADER_BUILD_ID) is refused, with one
 * warning naming both: kernel frames are then named as without it.
 *
 * Decided once, at the first kernel frame (the kernel MMAP comes before
 * it); the status says what was decided, for "jitsym sources".
 */
#ifndef JITSYM_VMLINUX_H
#define JITSYM_VMLINUX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dso;
struct map;
struct vmlinux;

/*
 * For path as the user gave it (messages name it), to be found at
 * host_path (where it is on this machine, under --symfs when there is
 * one). Both borrowed: must outlive it. Does no I/O; never NULL.
 */
struct vmlinux *vmlinux__new(const char *path, const char *host_path);
void vmlinux__delete(struct vmlinux *v);     /* accepts NULL */

const char *vmlinux__path(const struct vmlinux *v);
/* Whether vmlinux__decide() has run. */
bool vmlinux__decided(const struct vmlinux *v);
/*
 * Decide whether to use the image, read as DSO d (the resolver's): it
 * must be readable (else a warning), its symbols must load, and its build
 * id match rec_id (the recording's kernel build id; NULL: none to check;
 * else a warning naming both). ktext is the recording's kernel MMAP
 * ([kernel.kallsyms]SYM, pid -1), or NULL. Returns whether it is used.
 */
bool vmlinux__decide(struct vmlinux *v, struct dso *d, const uint8_t *rec_id,
		     size_t rec_id_size, const struct map *ktext);
/* Whether vmlinux__decide() took it. After that, these: */
bool vmlinux__used(const struct vmlinux *v);
struct dso *vmlinux__dso(const struct vmlinux *v);
/* What runtime address ip is in the image: ip less the slide. */
uint64_t vmlinux__unslide(const struct vmlinux *v, uint64_t ip);
/*
 * Whether kernel address ip is the image's: inside the kernel MMAP when
 * the recording has one, else where the image has a symbol. Other kernel
 * addresses (modules) are named from kallsyms.
 */
bool vmlinux__covers(const struct vmlinux *v, uint64_t ip);

/*
 * One line for "jitsym sources": which image, used (and its slide) or
 * refused and why, or not read (no kernel frame). Owned by v.
 */
const char *vmlinux__status(const struct vmlinux *v);

#endif
