/*
 * vfs: where the files a recording names are read from. Every path
 * jitsym opens, stats or follows on behalf of a recording (binaries,
 * debug files, JIT side files, kallsyms, the kernel's notes, source
 * files, perf.data itself) goes through vfs_path(), and what it asks of
 * the running system (uname, $HOME, the running vdso) through the other
 * calls here, in one of three modes, set once before the session starts:
 *
 *  - host (the default): the paths themselves, this machine's answers.
 *  - record (jitsym archive): the same, and every path asked for is
 *    remembered with what kind of file it is meant to be, and every
 *    address looked up in JIT code, so that the archive can carry
 *    exactly what the run read (vfs_record_*()).
 *  - bundle (reading a .jsar, src/common/bundle.h): a closed world. A
 *    path is answered by the bundle's copy of the file the recording host
 *    read under that name, or by nothing (ENOENT), never by this machine's
 *    file of that name; uname, $HOME and the vdso are the recording
 *    host's. So the same lookups, made in the same order with the same
 *    names, find the same files, and every output is the one the
 *    recording host would give.
 *
 * Relative paths are made absolute against the working directory of the
 * run that read them (the recording host's, in a bundle), and ".", ".."
 * and repeated slashes resolved by name: the key a file is known by.
 *
 * Threads: the mode and the bundle's table are set before any other
 * thread starts and only read after; record mode's log takes a mutex.
 */
#ifndef JITSYM_VFS_H
#define JITSYM_VFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/utsname.h>

struct radix_item;

enum vfs_kind {
	VFS_PERFDATA,   /* the recording */
	VFS_ELF,        /* a binary or a debug file: symbols, unwind tables, DWARF */
	VFS_JITDUMP,    /* a jitdump file */
	VFS_PERFMAP,    /* a perf map */
	VFS_FILE,       /* anything else read whole: kallsyms, a source file, /sys/kernel/notes */
	VFS_KINDS
};

enum vfs_mode { VFS_HOST, VFS_RECORD, VFS_BUNDLE };

/* Room vfs_path() may need for its answer. */
#define VFS_PATH_BUF 32

enum vfs_mode vfs_mode(void);

/*
 * The path to open (stat, access) for path: path itself but in a
 * bundle, where it is the bundle's copy ("/proc/self/fd/N", in buf) or
 * a path that names nothing. Records path in record mode.
 */
const char *vfs_path(const char *path, enum vfs_kind kind, char buf[VFS_PATH_BUF]);
/* lstat() and readlink() as the mode answers them (symlinks inside a symfs). */
int vfs_lstat(const char *path, struct stat *st);
ssize_t vfs_readlink(const char *path, char *buf, size_t size);
/*
 * The names in directory dir, each passed to fn (in no order): in a
 * bundle, the files it holds right under dir. -1 with errno when dir
 * cannot be listed.
 */
int vfs_list_dir(const char *dir, void (*fn)(const char *name, void *arg), void *arg);
/* uname(): in a bundle, the recording host's release and node name, the rest empty. */
int vfs_uname(struct utsname *u);
/* $HOME, the recording host's in a bundle; NULL when unset. */
const char *vfs_home(void);
/*
 * The running kernel's vdso image: NULL when the mode has none. host and
 * record ask fallback (which reads this process's own mapping).
 */
const void *vfs_running_vdso(size_t *size, const void *(*fallback)(size_t *size));

/* ---- record mode: what jitsym archive asks ---- */

/* Start remembering (before the session); vfs_reset() ends it and forgets. */
void vfs_record_start(void);
/* An address looked up in a process's JIT code (any process: a superset does no harm). */
void vfs_record_jit_addr(uint64_t addr);
/*
 * What was asked for, each file once with the kinds it was asked as (bit
 * 1 << kind) and whether it was lstat()ed: fn is called in key order
 * with its key (path) and the path it was first asked by (file, made
 * absolute), which is the one to open.
 */
void vfs_record_each(void (*fn)(const char *path, const char *file, unsigned kinds,
				bool lstated, void *arg), void *arg);
/* Bytes of an ELF file read as they are (code before a return address): kept whole. */
void vfs_record_range(const char *path, uint64_t off, uint64_t len);
/*
 * The ranges recorded for path (absolute, as vfs_record_each() gives it),
 * sorted by offset, overlapping ones merged: key the offset, val the end;
 * *nr of them. NULL when none. Valid until vfs_reset().
 */
const struct radix_item *vfs_record_ranges(const char *path, size_t *nr);
/* A debug file fetched by build id (hex) from debuginfod into path. */
void vfs_record_fetched(const char *hex, const char *path);
/* Each of them, in the order fetched. */
void vfs_record_each_fetched(void (*fn)(const char *hex, const char *path, void *arg), void *arg);
/* The JIT addresses looked up, sorted, each once; the caller frees. */
uint64_t *vfs_record_jit_addrs(size_t *nr);
/* Whether the running vdso was asked for, and its image then. */
const void *vfs_record_vdso(size_t *size);

/* ---- bundle mode: what bundle.c sets up ---- */

struct vfs_host {
	char *cwd, *home;            /* home NULL: was unset */
	char *release, *nodename;
	void *vdso;                  /* NULL: not used there */
	size_t vdso_size;
};

/*
 * Enter bundle mode with host's answers (taken over) and no files yet;
 * then add each file (an open fd, taken over) or symlink under its host
 * path, then seal (sorts; no more adds).
 */
void vfs_bundle_start(struct vfs_host *host);
void vfs_bundle_add_file(const char *path, int fd);
void vfs_bundle_add_symlink(const char *path, const char *target);
/* path is the same file as target, a file added before or after (resolved when sealed). */
void vfs_bundle_add_alias(const char *path, const char *target);
void vfs_bundle_seal(void);
/* The recording host's vdso image (taken over; NULL: it used none). */
void vfs_bundle_vdso(void *image, size_t size);
/* The archiving run fetched build id hex's debug file into path (copied). */
void vfs_bundle_add_fetched(const char *hex, const char *path);
/* In a bundle, where the archiving run fetched build id hex's debug file; else NULL. */
const char *vfs_fetched(const char *hex);
/* Leave any mode for host, closing the bundle's files. */
void vfs_reset(void);

#endif
