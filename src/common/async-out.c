#include "common/common.h"
#include "common/async-out.h"
#include "common/pipeline.h"

#include <unistd.h>

/*
 * Chunks of CHUNK_SIZE bytes, NR_CHUNKS of them: the writer thread holds
 * one, the stream fills another, the rest wait. A chunk is large enough
 * that each write() copies a lot (the system call's own cost disappears)
 * and small enough that the first bytes leave early. The stream's own
 * buffer batches the many small fprintf()s of a writer into one copy.
 */
#define CHUNK_SIZE (1u << 20)
#define NR_CHUNKS 4
#define STREAM_BUF_SIZE (64u << 10)

struct chunk {
	char *buf;
	size_t len;
};

struct async_out {
	FILE *sink;
	int fd;
	FILE *stream;                 /* the one handed out */
	struct pipeline *pipe;
	struct chunk chunks[NR_CHUNKS];
	struct chunk *cur;            /* being filled */
	int err;                      /* the failed write()'s errno; set by the thread */
};

/* The thread's side: write a chunk whole. */
static int write_chunk(void *ctx, void *item)
{
	struct async_out *a = ctx;
	struct chunk *c = item;
	size_t off = 0;

	while (off < c->len) {
		ssize_t n = write(a->fd, c->buf + off, c->len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			a->err = n < 0 ? errno : EIO;
			return -1;
		}
		off += (size_t)n;
	}
	return 0;
}

static void next_chunk(struct async_out *a)
{
	a->cur = pipeline__get(a->pipe);
	a->cur->len = 0;
}

static void hand_chunk(struct async_out *a)
{
	if (!a->cur->len)
		return;
	pipeline__put(a->pipe, a->cur);
	next_chunk(a);
}

/* A failure of the thread, as errno: what a plain stream's write would have said. */
static bool failed(struct async_out *a)
{
	if (!pipeline__failed(a->pipe))
		return false;
	errno = a->err;
	return true;
}

static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
	struct async_out *a = cookie;
	size_t done = 0;

	/* 0, not -1: glibc takes the count as unsigned (fopencookie(3)) */
	if (failed(a))
		return 0;
	while (done < size) {
		size_t n = CHUNK_SIZE - a->cur->len;

		if (n > size - done)
			n = size - done;
		memcpy(a->cur->buf + a->cur->len, buf + done, n);
		a->cur->len += n;
		done += n;
		if (a->cur->len == CHUNK_SIZE)
			hand_chunk(a);
	}
	return (ssize_t)size;
}

/* Before a message: what was written so far reaches the sink first. */
static void before_message(void *ctx)
{
	struct async_out *a = ctx;

	flockfile(a->stream);
	fflush(a->stream);
	hand_chunk(a);
	funlockfile(a->stream);
	pipeline__drain(a->pipe);
}

static int stream_close(void *cookie)
{
	struct async_out *a = cookie;
	int err;
	size_t i;

	msg_set_flush(NULL, NULL);
	hand_chunk(a);
	pipeline__delete(a->pipe);
	err = a->err;
	if (a->sink == stdout ? fflush(stdout) : fclose(a->sink))
		err = err ? err : errno ? errno : EIO;
	for (i = 0; i < NR_CHUNKS; i++)
		free(a->chunks[i].buf);
	free(a);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

FILE *async_out__open(FILE *sink)
{
	cookie_io_functions_t io = { .write = stream_write, .close = stream_close };
	struct async_out *a = xcalloc(1, sizeof(*a));
	void *items[NR_CHUNKS];
	size_t i;

	fflush(sink);
	a->sink = sink;
	a->fd = fileno(sink);
	for (i = 0; i < NR_CHUNKS; i++) {
		a->chunks[i].buf = xmalloc(CHUNK_SIZE);
		items[i] = &a->chunks[i];
	}
	a->pipe = pipeline__new(write_chunk, a, items, NR_CHUNKS);
	if (a->pipe)
		a->stream = fopencookie(a, "w", io);
	if (!a->stream) {
		int err = errno;

		pipeline__delete(a->pipe);
		for (i = 0; i < NR_CHUNKS; i++)
			free(a->chunks[i].buf);
		free(a);
		errno = err;
		return NULL;
	}
	setvbuf(a->stream, NULL, _IOFBF, STREAM_BUF_SIZE);
	next_chunk(a);
	msg_set_flush(before_message, a);
	return a->stream;
}
