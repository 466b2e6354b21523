/*
 * gzsink: a protobuf-c output buffer that deflates what is packed into it
 * and writes it to a FILE in gzip format (the pprof writer's output).
 */
#ifndef JITSYM_GZSINK_H
#define JITSYM_GZSINK_H

#include <stdbool.h>
#include <stdio.h>

#include <protobuf-c/protobuf-c.h>

struct gz_sink;

/* A sink writing to out; never NULL (die() when zlib cannot start). */
struct gz_sink *gz_sink__new(FILE *out);
/* The buffer to pack messages into; valid until gz_sink__close(). */
ProtobufCBuffer *gz_sink__buffer(struct gz_sink *g);
/* Append raw bytes (already in wire format). */
void gz_sink__write(struct gz_sink *g, const void *data, size_t len);
/* Whether zlib or a write has failed: later bytes are dropped. */
bool gz_sink__failed(const struct gz_sink *g);
/*
 * Finish the stream and free g: 0, or -1 when zlib failed (after error())
 * or the write failed (out's error flag is set, for its closer to report).
 */
int gz_sink__close(struct gz_sink *g);

#endif
