/*
 * deferred: join samples to the user call chains the kernel delivers
 * later, in PERF_RECORD_CALLCHAIN_DEFERRED records (the layout, and where
 * it comes from, is in perfdata.h).
 *
 * A sample whose call chain ends with PERF_CONTEXT_USER_DEFERRED and a
 * cookie has only its kernel part; the user part comes in the first
 * CALLCHAIN_DEFERRED record of the same thread (tid of the sample, tid of
 * the record's sample_id) with that cookie, written when the task returns
 * to user space: after the sample in time, so after it in the order
 * order.h delivers. Every sample the task took in the kernel before that
 * return shares the cookie.
 *
 * Such a sample is held here (a copy) until its record comes, and then
 * handed on with its call chain made whole: the kernel part, then
 * PERF_CONTEXT_USER and the record's ips (a PERF_CONTEXT_USER the record
 * starts with is not doubled). A held sample whose record can no longer
 * come is handed on with its kernel part alone (the marker and cookie
 * dropped) and counted as missing:
 *  - its thread exits (deferred__thread_exit(), before the EXIT is applied),
 *  - the input ends (deferred__flush()),
 *  - more than DEFERRED_MAX_HELD samples, or DEFERRED_MAX_BYTES of them,
 *    are held: the oldest cookie's samples go first. Memory is bounded by
 *    that, however many records never come.
 * A held sample is resolved when it is handed on, against its process's
 * mappings and JIT code as of then: at most the time its thread spent in
 * the kernel later than its own time (or, given up, the bound's worth).
 * A record no held sample waits for is counted. Samples without the
 * marker pass straight through. Samples are handed on in the order their
 * records arrive, each cookie's in the order they were held; all of it on
 * the caller's thread, so the output is the same with any --threads.
 */
#ifndef JITSYM_DEFERRED_H
#define JITSYM_DEFERRED_H

#include <stdbool.h>
#include <stdint.h>

#include "reader/perfdata.h"
#include "resolve/sample.h"      /* enum deferred_join */

#define DEFERRED_MAX_HELD  65536
#define DEFERRED_MAX_BYTES (64u << 20)

struct deferred;

/* Called with each held sample as it is handed on; ev is valid during the call. */
typedef void (*deferred_fn)(void *ctx, const struct pd_event *ev, enum deferred_join join);

struct deferred *deferred__new(deferred_fn fn, void *ctx);
void deferred__delete(struct deferred *d);     /* accepts NULL */

/* Whether the sample ends its chain in USER_DEFERRED + cookie: then a copy is held. */
bool deferred__sample(struct deferred *d, const struct pd_event *ev);
/* A CALLCHAIN_DEFERRED record: hand on the samples it completes. */
void deferred__record(struct deferred *d, const struct pd_event *ev);
/* Thread tid exits: hand on its held samples, missing. */
void deferred__thread_exit(struct deferred *d, uint32_t tid);
/* The input ended: hand on every held sample, missing. */
void deferred__flush(struct deferred *d);
/* One line each for samples whose record never came and records no sample waited for. */
void deferred__report(const struct deferred *d, const char *path);

#endif
