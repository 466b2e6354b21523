/*
 * pipeline: hand work from the thread that makes it to one worker thread,
 * in order, through a fixed set of reusable items (buffers the caller
 * made). The maker takes a free item (pipeline__get(), which waits while
 * every item is queued or being worked on: that is the back-pressure),
 * fills it and queues it (pipeline__put()); the worker calls fn on each
 * queued item in the order they were put, then hands the item back for
 * reuse. Nothing is allocated per item and nothing busy-waits: both sides
 * sleep on condition variables.
 *
 * When fn fails (returns non-zero) the pipeline is failed: fn is not
 * called again, but queued and later items still come back, so the maker
 * never waits for ever whatever it does after a failure; it learns of it
 * from pipeline__failed(). pipeline__delete() always finishes: it waits
 * for the items queued, then stops and joins the worker.
 *
 * One maker thread: get, put and drain are for the thread that made the
 * pipeline (pipeline__failed() may be asked from anywhere).
 */
#ifndef JITSYM_PIPELINE_H
#define JITSYM_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>

/* The worker's work on one item: 0, or non-zero when it failed. */
typedef int (*pipeline_fn)(void *ctx, void *item);

struct pipeline;

/*
 * A pipeline over nr_items items (the pointers are copied, the items stay
 * the caller's: free them after pipeline__delete()), whose worker calls
 * fn(ctx, item). NULL when the worker thread cannot be started (errno
 * set; nothing printed): the caller does the work itself.
 */
struct pipeline *pipeline__new(pipeline_fn fn, void *ctx, void *const *items, size_t nr_items);
/* Wait for everything queued, stop the worker and join it. Accepts NULL. */
void pipeline__delete(struct pipeline *p);

/* A free item, waiting until there is one. */
void *pipeline__get(struct pipeline *p);
/* Queue an item pipeline__get() gave, after those queued before it. */
void pipeline__put(struct pipeline *p, void *item);
/* Wait until the worker is done with every item queued so far. */
void pipeline__drain(struct pipeline *p);
/* Whether fn has failed on an item. */
bool pipeline__failed(struct pipeline *p);

/*
 * The number of threads that help on this machine, for a default of
 * --threads: the online CPUs, at most max, at least 1.
 */
unsigned int pipeline__default_threads(unsigned int max);

#endif
