/*
 * bundle: a recording and what reading it needs, in one file
 * (jitsym archive, cmd-archive.c), read in place of perf.data by every
 * command.
 *
 * The format: a POSIX tar stream compressed as one zstd stream
 * (common/tarzst.h), so "tar --zstd -xf rec.jsar" unpacks it:
 *
 *   jitsym-bundle.txt   first: "jitsym-bundle 1", then "KEY VALUE" lines:
 *                       input (the recording's path where it was archived),
 *                       cwd, home, release, nodename (of that run and host),
 *                       "option NAME VALUE" for each lookup option it ran
 *                       with (--symfs, --jit-dir, ...), in order, and
 *                       "fetched BUILDID PATH" for each debug file it got
 *                       from debuginfod (a bundle is read without a server)
 *   root/PATH           each file the archiving run read, under the path it
 *                       read it by (symlinks it followed inside a symfs as
 *                       symlinks): perf.data and perf maps unchanged,
 *                       jitdumps, binaries and debug files with the code no
 *                       lookup read zeroed (command/archive-cut.h)
 *   aliases             pairs of NUL-ended paths, "NAME\0FILE\0": a file the run
 *                       read under two names (hard links: a binary and its
 *                       build-id cache entry), packed once under FILE
 *   vdso                the running kernel's vdso, when the run used it
 *
 * Reading one puts common/vfs.h in bundle mode: every file is looked up
 * by the name the archiving run used, in the bundle only, with that
 * run's answers for uname, $HOME and the vdso, and with its lookup
 * options; so the same lookups find the same files and every command
 * writes what it wrote there. The members are unpacked into unnamed
 * temporary files (O_TMPFILE in $TMPDIR or /tmp, written sparse), gone
 * when the process ends, however it ends.
 */
#ifndef JITSYM_BUNDLE_H
#define JITSYM_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>

#define BUNDLE_MANIFEST   "jitsym-bundle.txt"
#define BUNDLE_MAGIC_LINE "jitsym-bundle 1"
#define BUNDLE_ROOT       "root"
#define BUNDLE_VDSO       "vdso"
#define BUNDLE_ALIASES    "aliases"

struct bundle;

/* Whether path is a regular file that starts as a zstd stream does. */
bool bundle__is(const char *path);
/* Unpack path and enter bundle mode; NULL after error() naming it and the offset. */
struct bundle *bundle__open(const char *path);
/* The recording's path as the archiving run named it (vfs finds it). */
const char *bundle__input(const struct bundle *b);
/* The i-th lookup option: false past the last. */
bool bundle__option(const struct bundle *b, size_t i, const char **name, const char **arg);
/*
 * An unnamed temporary file (O_TMPFILE in $TMPDIR, else /tmp, else a
 * memfd), gone when closed however the process ends; -1 with errno.
 */
int bundle__temp_file(void);
/* Leave bundle mode and free. Accepts NULL. */
void bundle__close(struct bundle *b);

#endif
