/*
 * jitmap-clock: times for a process's untimed (perf-map) lines where the
 * recording gives them; part of the JIT timeline (jitmap*.c, no one else
 * uses this header).
 *
 * A perf map has no times, so where lines overlap the later one wins for
 * the whole recording. Some runtimes change their executable mappings in
 * step with their map: LuaJIT makes its machine-code area executable
 * (mprotect) once per new trace, just before writing the trace's line, and
 * the kernel reports each such change as an exec mmap of the area. The
 * pairing rule, conservative on purpose: the process image's lines, in
 * file order, and its exec mmaps (jitmap.h: //anon or [anon:NAME] with
 * PROT_EXEC), in time order over the whole recording, pair one to one when
 *   - there are as many lines as exec mmaps,
 *   - each line's range lies within its exec mmap's range, and
 *   - the exec mmaps' times do not go backwards;
 * then line i gets exec mmap i's time. Otherwise "later line wins" stays.
 * The rule is decided only for maps where some lines overlap: elsewhere
 * times change nothing.
 *
 * With times, an address is named at time t by the last line covering it
 * whose time is at or before t; where no line covering it has a time at
 * or before t (a sample before the first of them), by the first line
 * covering it, which is what it was until a later line replaced it. So a
 * later line ends an earlier one only where and when it was made, a line
 * no other overlaps is valid for the whole life of the process, as
 * without times, and samples before the first paired mmap keep the first
 * name.
 */
#ifndef JITSYM_JITMAP_CLOCK_H
#define JITSYM_JITMAP_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct jit_exec_mmaps;
struct sbuf;
struct untimed;
struct untimed_entry;
struct untimed_clock;

/* Whether any two of u's entries from first on overlap (only then do times matter). */
bool untimed_clock__overlaps(const struct untimed *u, size_t first);
/*
 * Pair u's entries from first on with m by the rule above; the clock, or
 * NULL when it does not hold. Either way, appends the rule taken to rule
 * ("times from 12 exec mmaps", "later line wins: 13 lines, 12 exec mmaps").
 * The clock reads u's entries: u must not change while the clock lives.
 */
struct untimed_clock *untimed_clock__pair(const struct untimed *u, size_t first,
					  const struct jit_exec_mmaps *m, struct sbuf *rule);
void untimed_clock__delete(struct untimed_clock *c);    /* accepts NULL */
/*
 * Apply the lines timed at or before t (t never goes back); changed(ctx,
 * start, size) for each one applied. True when any was.
 */
bool untimed_clock__advance(struct untimed_clock *c, uint64_t t,
			    void (*changed)(void *ctx, uint64_t start, uint64_t size), void *ctx);
/* The entry naming addr now, or NULL. */
struct untimed_entry *untimed_clock__find(const struct untimed_clock *c, uint64_t addr);

#endif
