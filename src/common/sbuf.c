#include "common/common.h"
#include "common/sbuf.h"

char sbuf_empty[1];

void sbuf_init(struct sbuf *sb, size_t max)
{
	sb->buf = sbuf_empty;
	sb->len = 0;
	sb->alloc = 0;
	sb->max = max;
	sb->truncated = false;
}

void sbuf_release(struct sbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sbuf_init(sb, sb->max);
}

void sbuf_setlen(struct sbuf *sb, size_t len)
{
	if (len > sb->len)
		BUG("sbuf_setlen past the end");
	sb->len = len;
	if (sb->alloc)
		sb->buf[len] = '\0';
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	sb->truncated = false;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

/* Make room for extra more bytes (cut to the cap); returns what fits. */
static size_t sbuf_room(struct sbuf *sb, size_t extra)
{
	size_t want;

	if (extra > sb->max - sb->len) {
		extra = sb->max - sb->len;
		sb->truncated = true;
	}
	want = st_add(st_add(sb->len, extra), 1);
	if (want > sb->alloc) {
		char *old = sb->alloc ? sb->buf : NULL;
		size_t n = sb->alloc < 64 ? 64 : sb->alloc;

		while (n < want)
			n = st_mult(n, 2);
		sb->buf = xrealloc(old, n);
		if (!old)
			sb->buf[0] = '\0';
		sb->alloc = n;
	}
	return extra;
}

void sbuf_add(struct sbuf *sb, const void *data, size_t len)
{
	/* it fits, below the cap: the common case, without sbuf_room()'s checks */
	if (len < sb->alloc - sb->len && len <= sb->max - sb->len) {
		memcpy(sb->buf + sb->len, data, len);
		sb->len += len;
		sb->buf[sb->len] = '\0';
		return;
	}
	len = sbuf_room(sb, len);
	if (!len)
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sbuf_addstr(struct sbuf *sb, const char *s)
{
	sbuf_add(sb, s, strlen(s));
}

void sbuf_addch(struct sbuf *sb, char c)
{
	if (sb->len + 1 < sb->alloc && sb->len < sb->max) {
		sb->buf[sb->len++] = c;
		sb->buf[sb->len] = '\0';
		return;
	}
	sbuf_add(sb, &c, 1);
}

void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	{
		char *tmp = xmalloc((size_t)n + 1);

		va_start(ap, fmt);
		vsnprintf(tmp, (size_t)n + 1, fmt, ap);
		va_end(ap);
		sbuf_add(sb, tmp, (size_t)n);
		free(tmp);
	}
}

char *sbuf_detach(struct sbuf *sb, size_t *len)
{
	char *s;

	if (len)
		*len = sb->len;
	s = sb->alloc ? sb->buf : xstrdup("");
	sbuf_init(sb, sb->max);
	return s;
}
