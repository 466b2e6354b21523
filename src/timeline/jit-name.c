/*
 * jit-name: JIT side files' strings made safe at the reader (jit-name.h).
 */
#include "common/common.h"
#include "timeline/jit-name.h"
#include "common/sbuf.h"
#include "common/utf8.h"

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

#define BYTES_01 0x0101010101010101ULL
#define BYTES_60 0x6060606060606060ULL
#define BYTES_7F 0x7f7f7f7f7f7f7f7fULL
#define BYTES_80 0x8080808080808080ULL

/* Whether none of the 8 bytes of w is a control byte (< 0x20, 0x7f); NUL is one. */
static bool no_control8(uint64_t w)
{
	uint64_t low = w & BYTES_7F;

	/* per byte, no carry between them: high bit set, or low >= 0x20 and low != 0x7f */
	return ((w | ((low + BYTES_60) & ~(low + BYTES_01))) & BYTES_80) == BYTES_80;
}

/* The length of the run of bytes at s (len of them left) that are no control bytes. */
static size_t plain_run(const unsigned char *s, size_t len)
{
	size_t i = 0;
	uint64_t w;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, sizeof(w));
		if (!no_control8(w))
			break;
	}
	while (i < len && !is_control(s[i]))
		i++;
	return i;
}

/*
 * Names are copied a run at a time, found eight bytes at a time: a loader
 * cleans every name it reads (a node jitdump has ~60,000, its perf map
 * ~100,000), nearly all clean, and so one run.
 */
size_t jit_name__clean(const char *name, struct sbuf *out)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = 0, left = strlen(name);

	sbuf_reset(out);
	for (;;) {
		size_t run = plain_run(s, left);

		sbuf_add(out, s, run);
		s += run;
		left -= run;
		if (!left)
			return n;
		sbuf_addf(out, "\\x%02x", *s);
		n++;
		s++;
		left--;
	}
}

/* Whether the 8 bytes of w are all printable ASCII (0x20 to 0x7e). */
static bool printable8(uint64_t w)
{
	const uint64_t b7f = 0x7f7f7f7f7f7f7f7fULL, b80 = 0x8080808080808080ULL;
	uint64_t low = w & b7f;

	/* per byte, no carry between them: high bit clear, low >= 0x20, low != 0x7f */
	return (~w & (low + 0x6060606060606060ULL) & ~(low + 0x0101010101010101ULL) & b80) == b80;
}

/* A V8 jitdump names the file of each of its ~900,000 line entries: ASCII goes eight bytes at a time. */
bool jit_name__file_ok(const char *file)
{
	const unsigned char *s = (const unsigned char *)file;
	size_t left = strlen(file), len;
	uint64_t w;

	if (!left)
		return false;
	while (left) {
		if (left >= 8) {
			memcpy(&w, s, sizeof(w));
			if (printable8(w)) {
				s += 8;
				left -= 8;
				continue;
			}
		}
		if (is_control(*s))
			return false;
		len = *s < 0x80 ? 1 : utf8__seq(s, NULL);
		if (!len)
			return false;
		s += len;
		left -= len;
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
