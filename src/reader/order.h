/*
 * order: deliver perf.data records in time order.
 *
 * Records from different CPUs are interleaved out of order in the file;
 * perf bounds the disorder with FINISHED_ROUND records: no record after
 * the end of round N is older than the newest record of round N-1. The
 * queue keeps copies of the records of the last two rounds and, at each
 * round end, delivers (sorted by time, ties in file order) those at or
 * before the newest time of the round before. Records without a time are
 * delivered at once. Memory is bounded by the size of two rounds.
 *
 * What a queued record points to is copied into the queue, except, once
 * order_queue__borrow_from() names the reader, the user stack dump (and
 * raw data) of in_map records that have one (perfdata.h): those stay
 * valid until the reader is deleted, so the queue keeps pointers to them
 * (8 KB a sample on --call-graph dwarf recordings, not copied) and tells
 * the reader from which offset on it still points into the file (so
 * those pages stay resident: about what the copies took, as the dump is
 * most of its record). The queue must then be deleted before the reader.
 */
#ifndef JITSYM_ORDER_H
#define JITSYM_ORDER_H

#include "reader/perfdata.h"

struct order_queue;

/* Called for each record, in time order; ev is valid during the call. */
typedef void (*order_deliver_fn)(void *ctx, const struct pd_event *ev);

struct order_queue *order_queue__new(order_deliver_fn fn, void *ctx);
void order_queue__delete(struct order_queue *q);   /* accepts NULL */

/* Borrow in_map records' stacks and raw data from r (see above). */
void order_queue__borrow_from(struct order_queue *q, struct pd_reader *r);

/* Queue a copy of ev (FINISHED_ROUND records end a round). */
void order_queue__push(struct order_queue *q, const struct pd_event *ev);
/* Deliver everything still queued. */
void order_queue__flush(struct order_queue *q);

#endif
