#include "common/common.h"
#include "output/gzsink.h"

#define ZLIB_CONST
#include <zlib.h>

/* protobuf-c appends a few bytes at a time: they are gathered in in[] for deflate. */
/*
 * Go's runtime/pprof writes with gzip's best speed too: the profile is
 * mostly small varints, where higher levels gain a few percent in size
 * for two or three times the time.
 */
#define GZIP_LEVEL Z_BEST_SPEED

struct gz_sink {
	ProtobufCBuffer base;
	z_stream zs;
	FILE *out;
	bool failed;                    /* stop: zlib or the write failed */
	bool zlib_failed;
	size_t in_len;
	unsigned char in[1 << 16];
	unsigned char buf[1 << 16];
};

static void gz_deflate(struct gz_sink *g, int flush)
{
	int ret;

	do {
		size_t have;

		g->zs.next_out = g->buf;
		g->zs.avail_out = sizeof(g->buf);
		ret = deflate(&g->zs, flush);
		if (ret == Z_STREAM_ERROR) {
			g->failed = g->zlib_failed = true;
			return;
		}
		have = sizeof(g->buf) - g->zs.avail_out;
		if (have && fwrite(g->buf, 1, have, g->out) != have) {
			g->failed = true;
			return;
		}
	} while (g->zs.avail_out == 0);
}

static void gz_input(struct gz_sink *g, const uint8_t *data, size_t len)
{
	while (len && !g->failed) {
		uInt chunk = len > (1u << 30) ? (1u << 30) : (uInt)len;

		g->zs.next_in = data;
		g->zs.avail_in = chunk;
		gz_deflate(g, Z_NO_FLUSH);
		data += chunk;
		len -= chunk;
	}
}

static void gz_append(ProtobufCBuffer *buffer, size_t len, const uint8_t *data)
{
	struct gz_sink *g = (struct gz_sink *)buffer;

	if (len > sizeof(g->in) - g->in_len) {
		gz_input(g, g->in, g->in_len);
		g->in_len = 0;
	}
	if (len >= sizeof(g->in)) {
		gz_input(g, data, len);
		return;
	}
	memcpy(g->in + g->in_len, data, len);
	g->in_len += len;
}

struct gz_sink *gz_sink__new(FILE *out)
{
	struct gz_sink *g = xcalloc(1, sizeof(*g));

	g->base.append = gz_append;
	g->out = out;
	/* windowBits 15 + 16: a gzip header and trailer around the deflate stream */
	if (deflateInit2(&g->zs, GZIP_LEVEL, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		die("cannot initialise zlib");
	return g;
}

int gz_sink__close(struct gz_sink *g)
{
	int ret = 0;

	gz_input(g, g->in, g->in_len);
	if (!g->failed) {
		g->zs.next_in = NULL;
		g->zs.avail_in = 0;
		gz_deflate(g, Z_FINISH);
	}
	deflateEnd(&g->zs);
	/* a failed write is the caller's to report, when it closes out */
	if (g->zlib_failed)
		ret = error("cannot compress the profile");
	else if (g->failed)
		ret = -1;
	free(g);
	return ret;
}

ProtobufCBuffer *gz_sink__buffer(struct gz_sink *g)
{
	return &g->base;
}

void gz_sink__write(struct gz_sink *g, const void *data, size_t len)
{
	gz_append(&g->base, len, data);
}

bool gz_sink__failed(const struct gz_sink *g)
{
	return g->failed;
}
