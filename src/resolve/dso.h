/*
 * Symbols of native code: ELF executables and shared objects named by the
 * MMAP/MMAP2 records of a recording, symbolized the way perf script does.
 *
 * Address spaces. A sample's ip is a process address; dso__map_ip() turns
 * it into a DSO address, the link-time virtual address that nm, objdump,
 * addr2line and libdw use (st_value), through the file offset the mapping
 * covers and the ELF PT_LOAD headers, so PIE executables, shared objects
 * and non-PIE ET_EXEC files all come out right. Symbols live in that space.
 * perf script prints user-space callchain addresses as file offsets
 * (ip - map_start + map_pgoff); the sym+0xoff offsets are the same in both
 * spaces.
 *
 * Which symbols. Like perf 6.1: .symtab of the binary or, when it has
 * none, of a separate file (.gnu_debuglink, the perf build-id cache's copy
 * or debug file, /usr/lib/debug by path or build id, then with
 * opts.debuginfod a debuginfod server's by the recorded build id), merged with the
 * binary's .dynsym when the symtab is the binary's own, else .dynsym alone;
 * functions, objects and text/data labels; zero-sized symbols extend to
 * the next symbol; of aliases at one address one is kept (non-zero size,
 * then non-weak, then global, then fewer leading underscores, then the
 * longer name, then the first seen); plus "name@plt" for .plt entries
 * when some symbol was found. Where symbols overlap, the one perf would
 * find is returned (see symtab.c).
 *
 * Files. Every path from the recording (and /usr/lib/debug) is looked up
 * under opts.symfs when set, with symlinks resolved inside it; the
 * build-id cache then defaults to symfs/.debug, as in perf, so nothing
 * outside symfs is read unless opts.buildid_dir says so. A build id, when
 * given, must match the file: a mismatch falls back to the build-id cache
 * (buildid_dir/.build-id/xx/rest and buildid_dir/<path>/<hex>/elf) and,
 * when nothing matches, leaves the DSO without symbols (with one warning)
 * rather than with wrong ones.
 *
 * Loading is lazy, on the first dso__map_ip() or dso__find_symbol(); a
 * file that is missing, not ELF or corrupt gives a DSO without symbols and
 * one warning, never a crash. Not thread-safe: lookups load and demangle
 * on demand, so callers serialize access to a cache and its DSOs.
 */
#ifndef JITSYM_DSO_H
#define JITSYM_DSO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "resolve/symtab.h"

struct elf_image;
struct dso_recording;
struct debuginfod;
struct strpool;
struct dso_cache;
struct dso;
struct obj_view;

/* Longest build id accepted; GNU build ids are 16 (md5) or 20 (sha1) bytes. */
#define DSO_BUILD_ID_MAX 32

struct dso_opts {
	const char *symfs;         /* NULL or "": none; else the root of every recorded path */
	const char *buildid_dir;   /* NULL: symfs/.debug with a symfs, else $HOME/.debug */
	bool demangle;             /* false: raw names, as perf --no-demangle */
	bool demangle_params;      /* "f(int)" rather than "f", as perf -v */
	/* the recording, borrowed, for [vdso] (dso-locate.h); NULL: the host's vdso is never used */
	const struct dso_recording *rec;
	/* debug files fetched when none is here (debuginfod.h), borrowed; NULL: none */
	struct debuginfod *debuginfod;
};

/* struct symbol: see symtab.h. */

/*
 * A cache of DSOs sharing opts (copied) and pool (borrowed, must outlive
 * the cache; names handed out live in it). Never NULL.
 */
struct dso_cache *dso_cache__new(const struct dso_opts *opts, struct strpool *pool);
/* Frees the cache and all its DSOs. Accepts NULL. */
void dso_cache__delete(struct dso_cache *c);

/*
 * The DSO for a mapped file as named in an MMAP/MMAP2 record ("/usr/lib/
 * x86_64-linux-gnu/libc.so.6", "[vdso]", "//anon"...), found or created.
 * build_id may be NULL (build_id_size then ignored); one longer than
 * DSO_BUILD_ID_MAX or all zeros counts as none. The same path with
 * different build ids gives different DSOs. Does no I/O; never NULL;
 * owned by the cache.
 */
struct dso *dso_cache__findnew(struct dso_cache *c, const char *path,
			       const uint8_t *build_id, size_t build_id_size);

/*
 * The DSO address of process address ip inside a mapping of this DSO that
 * starts at map_start and maps file offsets from map_pgoff. Without ELF
 * program headers (no file, not ELF) this is the file offset.
 */
uint64_t dso__map_ip(struct dso *d, uint64_t map_start, uint64_t map_pgoff, uint64_t ip);

/*
 * The symbol containing DSO address addr, or NULL. Owned by the DSO; the
 * offset perf prints is addr - start.
 */
const struct symbol *dso__find_symbol(struct dso *d, uint64_t addr);

/* The path as given to dso_cache__findnew(), interned. */
const char *dso__path(const struct dso *d);
/* Number of symbols, after loading. */
size_t dso__nr_symbols(struct dso *d);
/*
 * The files actually read, after loading: the binary (program headers,
 * .dynsym, .plt) and the file the symbols came from (a debug file or the
 * binary; the one to try for DWARF). Interned; NULL when no binary was
 * usable, or when it has no file: the running kernel's vdso standing in
 * for [vdso] is read from memory (dso__elf_image() still has it).
 */
const char *dso__file(struct dso *d);
const char *dso__symfile(struct dso *d);
/*
 * The build id: the one given to findnew, else the one read from the file
 * (after loading). NULL and *size 0 when unknown. size may be NULL.
 */
const uint8_t *dso__build_id(struct dso *d, size_t *size);

/*
 * The DSO as the writers see it (sample.h): loads it, then fills the view
 * from dso__path(), dso__file(), dso__symfile() and dso__build_id() on
 * the first call, or, when the DSO has no build id, from id (id_size
 * bytes, copied; the recording header's; NULL: none); the same view after,
 * id ignored. Owned by the DSO. Call it from the resolver's thread only;
 * the view it gives may be read from any. dso__has_view(): whether it
 * was made.
 */
const struct obj_view *dso__view(struct dso *d, const uint8_t *id, size_t id_size);
bool dso__has_view(const struct dso *d);

/*
 * Whether a call instruction ends just before DSO address addr, by the
 * binary's bytes (callsite.h): 1 yes, 0 no, -1 unknown (no binary at hand,
 * or addr - 1 not in its file contents). Reads those few bytes from the
 * file (pread: a mapping would fault in whole pages around them); the
 * resolver caches its answers per address. Opens the binary as
 * dso__elf_image().
 */
int dso__call_ends_at(struct dso *d, uint64_t addr);

/*
 * The binary (dso__file()) and the file with the symbols (dso__symfile(),
 * the same image when they are one file) opened read-only, e.g. for their
 * CFI (elf-image.h): opened again on the first call, after loading, and
 * owned by the DSO. NULL with errno ENOENT when there is no such file or
 * it can no longer be opened. Each keeps a file descriptor open until
 * dso_cache__delete().
 */
struct elf_image *dso__elf_image(struct dso *d);
struct elf_image *dso__debug_elf_image(struct dso *d);

#endif
