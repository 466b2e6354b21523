/*
 * resolve: turn (thread, cpumode, address) into a frame: symbol, offset
 * and the DSO name perf script would print.
 *
 * Kernel addresses resolve through kallsyms, the core kernel's through
 * the vmlinux given (vmlinux.h) when it is the recorded kernel. A user address in a mapped
 * file resolves through the file's ELF symbols; one in anonymous memory
 * (or in no mapping, or in a file without a symbol there) through the
 * process's JIT code: its jitdump, then its perf map.
 * Caller frames are looked up at ip - 1 when ip is a return address: it
 * points past the call and may already be in the next function. Whether
 * it is one is decided from the code bytes before it (callsite.h), the
 * mapped file's or the jitdump's: an address pushed without a call (an
 * interrupted ip, a runtime's continuation pointer) is looked up as it is.
 * Without bytes (kernel, perf maps, files not at hand) it is taken for a
 * return address. A frame is never named after a __pfx_ padding symbol:
 * when ip - 1 falls in __pfx_X and ip is X's first byte, the frame is X.
 * Results are cached per (process, address), so a hot loop costs one hash
 * lookup; a process's entries are dropped when its address space or JIT
 * code changes, and only its.
 */
#ifndef JITSYM_RESOLVE_H
#define JITSYM_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "resolve/sample.h"

struct machine;
struct jitmap;
struct thread;
struct proc;
struct strpool;
struct pd_info;
struct dso;
struct ksym;
struct map;
struct debuginfod;

struct resolve_opts {
	const char *symfs;
	const char *kallsyms;       /* --kallsyms FILE, or NULL */
	const char *vmlinux;        /* --vmlinux FILE (vmlinux.h), or NULL */
	const char *buildid_dir;    /* NULL: $HOME/.debug */
	bool demangle;
	/* debug files from debuginfod servers (debuginfod.h), the run's; NULL: none */
	struct debuginfod *debuginfod;
};

struct resolver;

/*
 * pool must outlive the resolver; info is the recording's header (build
 * ids, os release); jm gives JIT code (may be NULL).
 */
struct resolver *resolver__new(const struct resolve_opts *opts, struct machine *m,
			       struct jitmap *jm, struct strpool *pool,
			       const struct pd_info *info);
void resolver__delete(struct resolver *r);   /* accepts NULL */

/*
 * What process pid's addresses resolve to changed (its JIT code, an
 * exec): drop its cached frames. mmaps and forks are seen by the machine.
 */
void resolver__invalidate(struct resolver *r, uint32_t pid);

/*
 * Resolve ip as seen by thread t in cpumode (PERF_RECORD_MISC_KERNEL,
 * _USER, ...). caller: ip is a return address.
 */
void resolver__frame(struct resolver *r, struct thread *t, uint16_t cpumode,
		     uint64_t ip, bool caller, struct frame *out);

/*
 * A hint, before resolving the call chain chain[0 .. nr) of a sample of
 * thread t taken in cpumode (PERF_CONTEXT_* entries switch it, as in
 * perf.data): fetch the cache slots its frames will be looked up in, so
 * their cache misses overlap instead of coming one frame at a time.
 */
void resolver__prefetch_chain(const struct resolver *r, const struct thread *t,
			      uint16_t cpumode, const uint64_t *chain, size_t nr);

/*
 * Whether user address ip of process p, as a caller, is a return address:
 * the code before it (the mapped file's, else a jitdump's) ends in a
 * call, or there are no bytes to tell. What resolver__frame() decides.
 */
bool resolver__after_call(struct resolver *r, struct proc *p, uint64_t ip);

/*
 * The kernel symbol covering addr, for kernel addresses that are not
 * frames (tracepoint fields such as call_site=): from the same kallsyms
 * as kernel frames (chosen with the kernel build id of cpumode
 * PERF_RECORD_MISC_KERNEL; read at first use). NULL when none covers addr
 * or no kallsyms could be trusted. The symbol lives as long as the pool.
 */
const struct ksym *resolver__kernel_symbol(struct resolver *r, uint64_t addr);

/*
 * The DSO behind a file mapping of the machine the resolver was made with
 * (the one its frames use: build id from the MMAP2 record, else from the
 * recording's header), cached in map->dso. Owned by the resolver; never NULL.
 */
struct dso *resolver__map_dso(struct resolver *r, struct map *map);

/* With --vmlinux, what became of it (vmlinux.h's status line); else NULL. */
const char *resolver__vmlinux_status(const struct resolver *r);

#endif
