/*
 * async-out: a stdio stream whose bytes a thread of its own writes
 * (pipeline.h), so that a command formatting its output and the kernel
 * copying it into the file (or pipe) work at the same time. Writes to the
 * stream copy into large chunks; the thread write()s each chunk whole, in
 * order, to the sink's file descriptor.
 *
 * A failed write() fails the stream: the next write to it (or the flush
 * when it is closed) returns an error with the write()'s errno, as a plain
 * stream would, and nothing is written after the failure. Closing the
 * stream waits for every chunk, joins the thread, then closes the sink
 * (stdout is flushed, not closed); it fails (EOF, errno set) when any
 * write() or the sink's close did.
 *
 * Messages (msg.h) stay in place: while the stream is open, each message
 * first waits until what was written to the stream before it has reached
 * the sink, so output and messages interleave as with the plain stream
 * when both go to the same place (2>&1).
 */
#ifndef JITSYM_ASYNC_OUT_H
#define JITSYM_ASYNC_OUT_H

#include <stdio.h>

/*
 * A stream writing to sink (freshly opened, or stdout) through a thread,
 * which owns sink from now on: closing the stream closes it. NULL, sink
 * untouched and errno set, when the thread cannot be started.
 */
FILE *async_out__open(FILE *sink);

#endif
