/*
 * mmap-scan: a second, silent pass over a perf.data file for what the JIT
 * timeline needs ahead of the samples: each process's anonymous executable
 * mappings (jitmap.h's struct jit_exec_mmap) over the whole recording,
 * split into process images (an exec, or a new process under a reused pid,
 * starts one). The session makes it on the timeline's first request
 * (jitmap_opts.exec_mmaps), so recordings that never need it never pay.
 * Only a regular file can be read twice; standard input and pipes cannot.
 */
#ifndef JITSYM_MMAP_SCAN_H
#define JITSYM_MMAP_SCAN_H

#include "timeline/jitmap.h"

struct mmap_scan;

/*
 * Read path's records (silently: the session's own pass reports damage;
 * what is before the damage is kept). Never NULL: when path cannot be
 * read again, every answer says so.
 */
struct mmap_scan *mmap_scan__new(const char *path);
void mmap_scan__delete(struct mmap_scan *s);    /* accepts NULL */
/* pid's exec mmaps in its image live at time at; valid until the next call. */
struct jit_exec_mmaps mmap_scan__image(struct mmap_scan *s, uint32_t pid, uint64_t at);

#endif
