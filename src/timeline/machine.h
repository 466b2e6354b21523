/*
 * machine: processes, threads and their address spaces, built from the
 * sideband records (COMM, FORK, EXIT, MMAP, MMAP2) in time order.
 *
 * Threads share their process's (thread group's) address space. Each
 * address space is a rangeset: a new mapping replaces whatever part of
 * older ones it covers, as the kernel's mmap does. The caller feeds records in time order (see order.h), so a
 * lookup answers "what was mapped at this address when the current
 * record happened".
 *
 * Anonymous and memfd mappings are kept like any other; it is the JIT
 * layer's business that they never erase JIT symbols.
 */
#ifndef JITSYM_MACHINE_H
#define JITSYM_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

struct strpool;

/* What one MMAP/MMAP2 record said; shared by the ranges it still covers. */
struct map {
	const char *filename;         /* interned, as in the MMAP record */
	bool anon;                    /* no file behind it: //anon, [anon:...], memfd, heap, ... */
	uint32_t prot;
	uint8_t build_id_size;        /* from MMAP2, 0 if none */
	uint8_t build_id[20];
	void *dso;                    /* resolver's cache, filled lazily */
	int8_t jit_marker;            /* jit_loader__map_marker()'s answer; -1: not asked yet */
	/* the record's range and file offset, whatever later mmaps cover of it */
	uint64_t start, len, pgoff;
};

/* Where an address falls: the part of a mapping still mapped around it. */
struct map_hit {
	uint64_t start, end;          /* [start, end) */
	uint64_t pgoff;               /* file offset of start */
	struct map *map;
};

struct proc;

struct thread {
	uint32_t tid;
	const char *comm;             /* interned */
	struct proc *proc;
	uint32_t execs;               /* the execs it made (COMM with exec): its image's number */
};

struct machine;

struct machine *machine__new(struct strpool *pool);
void machine__delete(struct machine *m);     /* accepts NULL */

/* The thread tid of process pid, created (comm "<pid>"-style ":tid") if unseen. */
struct thread *machine__findnew_thread(struct machine *m, uint32_t pid, uint32_t tid);

/* COMM: a thread (re)named; exec says it came from an execve. */
void machine__comm(struct machine *m, uint32_t pid, uint32_t tid, const char *comm, bool exec);
/* FORK: tid of pid was created by ptid of ppid. A new process copies its parent's maps. */
void machine__fork(struct machine *m, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid);
/*
 * EXIT: thread tid is gone (as perf 6.12 has it). A later record naming it
 * makes a new thread, named ":TID"; for the main thread, also a new,
 * empty address space (its other threads keep theirs).
 */
void machine__exit(struct machine *m, uint32_t pid, uint32_t tid);
/*
 * MMAP/MMAP2 of [start, start + len) at file offset pgoff into process pid
 * (pid -1: the kernel's address space); tmpl's fields are copied, but
 * start, len and pgoff, which are these. The map lives as long as m.
 */
void machine__mmap(struct machine *m, uint32_t pid, uint64_t start, uint64_t len,
		   uint64_t pgoff, const struct map *tmpl);

/* Whether an MMAP2 so far carried a build id (perf record --buildid-mmap). */
bool machine__mmap_build_ids(const struct machine *m);

/* Whether a mapped name is anonymous memory rather than a file. */
bool map_name_is_anon(const char *filename);
/*
 * What anonymous memory under a file-like name is, for messages ("shared
 * anonymous memory" for "/dev/zero (deleted)"); NULL for a file and for
 * names that say it themselves ("//anon", "[anon:...]", "[heap]", ...).
 */
const char *map_name__anon_what(const char *filename);

/* The mapping covering addr in proc: true and *hit filled, or false. */
bool proc__find_map(struct proc *p, uint64_t addr, struct map_hit *hit);
uint32_t proc__pid(const struct proc *p);
/*
 * A counter that changes whenever what addr (or addr - 1, a caller's call
 * site) in p may resolve to changes: an mmap over its page, a fork's copy,
 * machine__changed(), machine__changed_range() naming its page. Caches of
 * resolved addresses are valid while it stays the same. Pages are hashed
 * into a fixed number of counters, so it may also change when nothing at
 * addr did (a cache then does the work again).
 */
uint64_t proc__generation_at(const struct proc *p, uint64_t addr);
/* Something else that names p's addresses changed (its JIT code, an exec). */
void machine__changed(struct machine *m, uint32_t pid);
/* What p's addresses in [start, end) name changed (JIT code loaded there). */
void machine__changed_range(struct machine *m, uint32_t pid, uint64_t start, uint64_t end);
/*
 * The kernel's own MMAP so far (pid -1, "[kernel.kallsyms]_text": perf
 * record names it after the symbol whose runtime address pgoff holds), the
 * last one; NULL when none came.
 */
const struct map *machine__kernel_text(const struct machine *m);
/* The kernel's own address space (kernel and module MMAPs). */
struct proc *machine__kernel(struct machine *m);

#endif
