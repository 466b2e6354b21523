/*
 * Finding the files of a DSO named by a recording, as perf does: the
 * binary at its recorded path or in the perf build-id cache, and, for a
 * binary without .symtab, the file with its symbols (.gnu_debuglink,
 * the build-id cache, /usr/lib/debug by path or build id, and last, with
 * --debuginfod, a debuginfod server by the recorded build id). Its twin for
 * JIT side files is timeline/jit-locate.h (a locator made once per run,
 * asked per file), which the resolver stage does not include.
 *
 * Confinement. With a symfs every recorded path (and /usr/lib/debug) is
 * looked up under it, symlinks resolved inside it; the build-id cache
 * then defaults to symfs/.debug and is confined the same way, so nothing
 * outside symfs is read unless buildid_dir says so.
 *
 * Errors: the finders return NULL with errno ENOENT. dso_locator__find_binary()
 * warns (msg.h) once per call when a file that should exist is missing,
 * not ELF or of another build id; nothing else prints.
 */
#ifndef JITSYM_DSO_LOCATE_H
#define JITSYM_DSO_LOCATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dso_locator;
struct elf_image;
struct debuginfod;

/*
 * A locator for symfs (NULL or "": none) and buildid_dir (NULL or "":
 * symfs/.debug with a symfs, else $HOME/.debug); both copied. Never NULL.
 */
struct dso_locator *dso_locator__new(const char *symfs, const char *buildid_dir);
/* Accepts NULL. */
void dso_locator__delete(struct dso_locator *c);

/*
 * What the recording says about where it was made, for [vdso]: borrowed,
 * read at each lookup (mmap_build_ids may be set as records are read).
 */
struct dso_recording {
	const char *osrelease, *hostname;   /* NULL: not recorded */
	bool pipe_mode;
	bool compressed;                    /* perf record -z */
	bool has_build_ids;                 /* HEADER_BUILD_ID or build id records */
	bool mmap_build_ids;                /* MMAP2 records with build ids: --buildid-mmap */
};

/* Set (NULL: nothing known, the host's vdso is never used) the recording's context. */
void dso_locator__set_recording(struct dso_locator *c, const struct dso_recording *rec);

/*
 * The running kernel's vdso, read from this process's memory
 * (getauxval(AT_SYSINFO_EHDR), its size from its ELF headers). NULL with
 * errno set when there is none or it does not look like ELF.
 */
struct elf_image *dso_locator__running_vdso(void);

/*
 * The binary for recorded path ("/usr/lib/libc.so.6", "[vdso]", maybe
 * with the kernel's " (deleted)" suffix), opened: at its path when its
 * build id matches build_id (any file when build_id_size is 0), else from
 * the build-id cache. Paths that name no file ("//anon", "[heap]") give
 * NULL without a warning. The caller owns the image.
 *
 * [vdso] is looked up in the build-id cache only; failing that, as perf
 * does for recordings without a [vdso] build id, the running kernel's vdso
 * stands in (dso_locator__running_vdso()), but
 * only on evidence that the recording was made on the running kernel:
 * its [vdso] build id equals the running vdso's or, when it has none for
 * [vdso], its os release and hostname equal uname's (said in a warning).
 * Never with a symfs (perf looks its copy of the vdso up under symfs too,
 * where it is not) or without dso_locator__set_recording(). Otherwise one
 * warning names the cause (-N, pipe mode, -z, --buildid-mmap, another
 * kernel) and the fix.
 */
struct elf_image *dso_locator__find_binary(struct dso_locator *c, const char *path,
					   const uint8_t *build_id, size_t build_id_size);

/*
 * Where find_debug's last resort fetches debug files from (debuginfod.h;
 * NULL: nowhere), borrowed: it must outlive the locator.
 */
void dso_locator__set_debuginfod(struct dso_locator *c, struct debuginfod *d);

/*
 * The first debug file for the binary of recorded path that has a
 * .symtab and the binary's build id (or build_id, when the binary has
 * none; any file when neither is known), in perf's order; then, when
 * none was found, the binary has no .symtab and build_id (the
 * recording's) is given, the one debuginfod fetches (debuginfod.h), if
 * set. The caller owns the image.
 */
struct elf_image *dso_locator__find_debug(struct dso_locator *c, const char *path,
					  struct elf_image *binary,
					  const uint8_t *build_id, size_t build_id_size);

#endif
