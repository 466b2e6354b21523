/*
 * jit-name: JIT side files' strings made safe at the reader (jit-name.h).
 */
#include "common.h"
#include "jit-name.h"
#include "sbuf.h"
#include "utf8.h"

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

size_t jit_name__clean(const char *name, struct sbuf *out)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = 0;

	sbuf_reset(out);
	for (; *s; s++) {
		if (is_control(*s)) {
			sbuf_addf(out, "\\x%02x", *s);
			n++;
		} else {
			sbuf_addch(out, (char)*s);
		}
	}
	return n;
}

bool jit_name__file_ok(const char *file)
{
	const unsigned char *s = (const unsigned char *)file;
	size_t len;

	if (!*s)
		return false;
	while (*s) {
		if (is_control(*s))
			return false;
		len = *s < 0x80 ? 1 : utf8__seq(s, NULL);
		if (!len)
			return false;
		s += len;
	}
	return true;
}

/* Whether [s, end) is ":DIGITS", the ':' at s. */
static bool is_colon_number(const char *s, const char *end)
{
	if (s + 1 >= end || *s != ':')
		return false;
	for (s++; s < end; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* The last ':' in [from, to), or NULL. */
static const char *last_colon(const char *from, const char *to)
{
	while (to > from)
		if (*--to == ':')
			return to;
	return NULL;
}

const char *jit_name__path(const char *name, size_t *len)
{
	const char *path = strrchr(name, ' ');
	const char *end, *colon;

	if (!path || !*++path)
		return NULL;
	end = path + strlen(path);
	/* ":COLUMN" after ":LINE", then ":LINE" */
	colon = last_colon(path, end);
	if (!colon || !is_colon_number(colon, end))
		return NULL;
	end = colon;
	colon = last_colon(path, end);
	if (colon && is_colon_number(colon, end))
		end = colon;
	if (end == path)
		return NULL;
	*len = (size_t)(end - path);
	return path;
}
