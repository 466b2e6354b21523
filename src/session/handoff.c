#include "common/common.h"
#include "session/handoff.h"
#include "session/inline-expand.h"
#include "timeline/machine.h"
#include "common/pipeline.h"
#include "unwind/unwind.h"

/*
 * A batch is handed over when it holds BATCH_FRAMES frames or
 * BATCH_SAMPLES samples: large enough that the two threads rarely meet on
 * the pipeline's lock, small enough that the hook starts early and a batch
 * is still in the shared cache when it reads it. NR_BATCHES bounds the
 * memory: the session waits when the hook is that far behind.
 */
#define BATCH_FRAMES (1u << 12)
#define BATCH_SAMPLES (1u << 8)
#define NR_BATCHES 4
#define NO_ATTR UINT32_MAX

struct held_sample {
	struct sample_facts facts;
	struct pd_event ev;
	struct thread thread;
	struct unwind_result unwind;
	size_t first, nr_frames;
	uintptr_t thread_id;
	uint32_t attr;               /* its copy in the batch's attrs, or NO_ATTR */
	enum deferred_join deferred;
	bool unwound;
	bool has_trace;
	struct sample_trace trace;   /* its text in the batch's texts, at text_at */
	size_t text_at;
};

struct batch {
	struct frame_buf frames;
	struct held_sample *samples;
	size_t nr, alloc;
	struct pd_attr *attrs;       /* copies, in the order first seen */
	const struct pd_attr **originals;
	size_t nr_attrs, alloc_attrs, alloc_originals;
	char *texts;                 /* the samples' tracepoint fields, each NUL-terminated */
	size_t texts_len, alloc_texts;
};

struct handoff {
	void (*sample)(void *ctx, const struct resolved_sample *rs);
	void *ctx;
	struct inline_expander *expander;  /* borrowed; used on the hook's thread only */
	struct pipeline *pipe;
	struct batch batches[NR_BATCHES];
	struct batch *cur;           /* the batch being filled */
};

/* What a pointer into the reader's buffer becomes: not NULL, and nothing to read there. */
static const uint8_t gone[1];
#define GONE ((const void *)(gone + 1))

/* The hook's side: each sample of a batch, then the batch emptied for reuse. */
static int hand_batch(void *ctx, void *item)
{
	struct handoff *h = ctx;
	struct batch *b = item;
	size_t i;

	for (i = 0; i < b->nr; i++) {
		struct held_sample *hs = &b->samples[i];
		struct resolved_sample rs = {
			.facts = hs->facts,
			.ev = &hs->ev,
			.sample = &hs->ev.sample,
			.thread = &hs->thread,
			.thread_id = hs->thread_id,
			.frames = b->frames.v ? b->frames.v + hs->first : NULL,
			.nr_frames = hs->nr_frames,
			.unwind = hs->unwound ? &hs->unwind : NULL,
			.deferred = hs->deferred,
			.comm = hs->thread.comm,
			.trace = hs->has_trace ? &hs->trace : NULL,
		};

		if (h->expander)
			rs.nr_frames = inline_expander__run(h->expander, rs.frames, rs.nr_frames,
							    &rs.frames);
		if (hs->has_trace && hs->trace.text)
			hs->trace.text = b->texts + hs->text_at;
		hs->ev.sample.attr = hs->attr == NO_ATTR ? NULL : &b->attrs[hs->attr];
		h->sample(h->ctx, &rs);
	}
	b->nr = 0;
	b->frames.nr = 0;
	b->nr_attrs = 0;
	b->texts_len = 0;
	return 0;
}

struct handoff *handoff__new(void (*sample)(void *ctx, const struct resolved_sample *rs),
			     void *ctx, struct inline_expander *expander)
{
	struct handoff *h = xcalloc(1, sizeof(*h));
	void *items[NR_BATCHES];
	size_t i;

	h->sample = sample;
	h->ctx = ctx;
	h->expander = expander;
	for (i = 0; i < NR_BATCHES; i++)
		items[i] = &h->batches[i];
	h->pipe = pipeline__new(hand_batch, h, items, NR_BATCHES);
	if (!h->pipe) {
		free(h);
		return NULL;
	}
	h->cur = pipeline__get(h->pipe);
	return h;
}

void handoff__delete(struct handoff *h)
{
	size_t i;

	if (!h)
		return;
	if (h->cur->nr)
		pipeline__put(h->pipe, h->cur);
	pipeline__delete(h->pipe);
	for (i = 0; i < NR_BATCHES; i++) {
		struct batch *b = &h->batches[i];

		free(b->frames.v);
		free(b->samples);
		free(b->attrs);
		free(b->originals);
		free(b->texts);
	}
	free(h);
}

struct frame_buf *handoff__frames(struct handoff *h)
{
	return &h->cur->frames;
}

/*
 * The index of attr's copy in b, made if new or if the attr changed since
 * (its name is all a reader changes after making it, apart from the ids
 * copies leave out); NO_ATTR for NULL.
 */
static uint32_t batch_attr(struct batch *b, const struct pd_attr *attr)
{
	size_t i;

	if (!attr)
		return NO_ATTR;
	for (i = b->nr_attrs; i-- > 0;)
		if (b->originals[i] == attr && b->attrs[i].name == attr->name)
			return (uint32_t)i;
	ALLOC_GROW(b->attrs, b->nr_attrs + 1, b->alloc_attrs);
	ALLOC_GROW(b->originals, b->nr_attrs + 1, b->alloc_originals);
	b->attrs[b->nr_attrs] = *attr;
	b->attrs[b->nr_attrs].ids = NULL;
	b->attrs[b->nr_attrs].nr_ids = 0;
	b->originals[b->nr_attrs] = attr;
	return (uint32_t)b->nr_attrs++;
}

static void forget_buffers(struct pd_sample *smp)
{
	if (smp->callchain)
		smp->callchain = GONE;
	if (smp->raw_data)
		smp->raw_data = GONE;
	if (smp->user_regs)
		smp->user_regs = GONE;
	if (smp->user_stack)
		smp->user_stack = GONE;
}

/* A copy of trace (NULL: none) in hs, its text in b's texts (pointed at when handed over). */
static void hold_trace(struct batch *b, struct held_sample *hs, const struct sample_trace *trace)
{
	hs->has_trace = trace != NULL;
	if (!trace)
		return;
	hs->trace = *trace;
	if (!trace->text)
		return;
	hs->text_at = b->texts_len;
	ALLOC_GROW(b->texts, st_add(b->texts_len, st_add(trace->len, 1)), b->alloc_texts);
	memcpy(b->texts + b->texts_len, trace->text, trace->len + 1);
	b->texts_len += trace->len + 1;
}

void handoff__add(struct handoff *h, const struct resolved_sample *rs)
{
	struct batch *b = h->cur;
	struct held_sample *hs;

	if (rs->nr_frames && rs->frames != b->frames.v + b->frames.nr)
		BUG("handoff__add() of frames not resolved into handoff__frames()");
	ALLOC_GROW(b->samples, b->nr + 1, b->alloc);
	hs = &b->samples[b->nr++];
	hs->facts = rs->facts;
	hs->ev = *rs->ev;
	forget_buffers(&hs->ev.sample);
	hs->ev.sample.attr = NULL;
	hs->attr = batch_attr(b, rs->sample->attr);
	hs->thread.tid = rs->thread->tid;
	hs->thread.comm = rs->thread->comm;
	hs->thread.execs = rs->thread->execs;
	hs->thread.proc = NULL;
	hs->thread_id = rs->thread_id;
	hs->deferred = rs->deferred;
	hs->unwound = rs->unwind != NULL;
	if (rs->unwind)
		hs->unwind = *rs->unwind;
	hold_trace(b, hs, rs->trace);
	hs->first = b->frames.nr;
	hs->nr_frames = rs->nr_frames;
	b->frames.nr += rs->nr_frames;
	if (b->frames.nr >= BATCH_FRAMES || b->nr >= BATCH_SAMPLES) {
		pipeline__put(h->pipe, b);
		h->cur = pipeline__get(h->pipe);
	}
}
