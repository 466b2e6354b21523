/*
 * handoff: a session's resolved samples, handed in batches to a command's
 * sample hook running on a second thread (pipeline.h), while the session
 * reads, orders and resolves the next ones.
 *
 * The hook sees each sample exactly as one thread would have shown it,
 * because everything in a struct resolved_sample that the session may
 * change or reuse afterwards is copied when the sample is added:
 *  - the frames: resolved straight into the batch (handoff__frames()), so
 *    they are not copied at all; what they point to lives for the session
 *    (sample.h); the inlined functions' frames are added on the hook's
 *    thread, by the expander;
 *  - the record (ev, and sample = &ev->sample) by value; its pointers into
 *    the reader's buffer (callchain, raw_data, user_regs, user_stack) are
 *    gone by then: each is NULL where it was NULL and otherwise points at
 *    nothing readable, so a hook may test them but never read through them;
 *  - the attr: a copy as it was (in pipe mode a later record may rename
 *    it), without its ids; the same attr may be a different copy in
 *    another batch, so a hook must not compare attr pointers;
 *  - the thread: tid and comm as they were (a later COMM renames the
 *    session's), proc NULL; a hook must not keep the pointer, nor tell
 *    threads apart by it: thread_id does that;
 *  - the unwind result, by value;
 *  - comm, as the thread's; trace (a tracepoint's fields) by value, its
 *    text copied into the batch, and what its parse points to lives for
 *    the session, unchanged after the first sample that points to it;
 *  - thread_id, by value.
 * The boundary: the hook sees only const data. Its resolved_sample is
 * const, and so is everything its frames point at (sample.h): a native
 * frame's file is a const struct obj_view the resolver filled on the
 * session's thread when it resolved the frame, so nothing the hook reads
 * loads or changes a DSO. It reads its resolved_sample and its own state
 * only; it must call nothing of the session and print nothing (messages
 * keep their order only on the session's thread). command.h's
 * sample_anywhere says which hooks may run here.
 */
#ifndef JITSYM_HANDOFF_H
#define JITSYM_HANDOFF_H

#include "session/session.h"

/* A growable array of frames. */
struct frame_buf {
	struct frame *v;
	size_t nr, alloc;
};

struct handoff;

struct inline_expander;

/*
 * Hand samples to sample(ctx, rs) on a thread of its own. NULL when that
 * thread cannot be started: call the hook directly instead. expander
 * (NULL: none) adds the inlined functions' frames on that thread, before
 * the hook sees them (inline-expand.h); it stays the caller's, to delete
 * after handoff__delete().
 */
struct handoff *handoff__new(void (*sample)(void *ctx, const struct resolved_sample *rs),
			     void *ctx, struct inline_expander *expander);
/* Hand over what is pending, wait until the hook has seen it all, join. Accepts NULL. */
void handoff__delete(struct handoff *h);

/*
 * Where the next sample's frames are to be resolved: appended at
 * buf->v + buf->nr (buf->nr itself is left as it is). Valid until the
 * next handoff__add().
 */
struct frame_buf *handoff__frames(struct handoff *h);
/*
 * Queue rs for the hook; its frames are the rs->nr_frames just resolved
 * into handoff__frames(). May wait while the hook is behind.
 */
void handoff__add(struct handoff *h, const struct resolved_sample *rs);

#endif
