/*
 * inline-expand: a sample's frames with the functions inlined at each
 * address added as frames of their own (resolve/inline.h), where the
 * sample hook runs: on the session's thread, or on the hook's own
 * (handoff.h), so that the second thread takes this work off the first.
 *
 * The session resolves a sample's call chain without them, and marks each
 * frame that perf would expand (struct frame's inline_mode): the
 * addresses of a call chain, and those unwound from a --call-graph dwarf
 * stack dump, whose real frame takes the name DWARF gives the outermost
 * function; never the sample's own ip alone. inline_expander__run() then
 * gives the frames the hook sees: for a marked frame with n names, n - 1
 * inlined frames (struct frame's inlined, sym the name, all else the real
 * frame's) and then the real frame. The same rules whichever thread runs
 * it, so outputs are the same for any --threads. At most max frames: a
 * frame is expanded only when all its names fit, and the frames after the
 * max-th are dropped, as the session drops call-chain entries past it.
 *
 * Names are interned in the expander's own string pool, which lives as
 * long as the expander: the session deletes it after its finish hook.
 * Not thread-safe: one thread uses an expander at a time.
 */
#ifndef JITSYM_INLINE_EXPAND_H
#define JITSYM_INLINE_EXPAND_H

#include <stdbool.h>
#include <stddef.h>

#include "resolve/sample.h"

struct inline_expander;

struct inline_expander *inline_expander__new(bool demangle, size_t max);
void inline_expander__delete(struct inline_expander *x);

/*
 * The nr frames at in, expanded: returns how many, *out where they are
 * (in itself when nothing changed, else the expander's buffer, valid until
 * the next call).
 */
size_t inline_expander__run(struct inline_expander *x, const struct frame *in, size_t nr,
			    const struct frame **out);

#endif
