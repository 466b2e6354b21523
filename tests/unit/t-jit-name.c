/*
 * t-jit-name: names from JIT side files made safe (jit-name.h): control
 * bytes in function names escaped, bad file names refused, the path a
 * function name carries.
 */
#include "common/common.h"
#include "timeline/jit-name.h"
#include "common/sbuf.h"

#include "test.h"

static bool clean_is(const char *name, const char *want, size_t nr)
{
	struct sbuf sb;
	bool ok;

	sbuf_init(&sb, SBUF_MAX_SYMNAME);
	ok = jit_name__clean(name, &sb) == nr && !strcmp(sb.buf, want);
	sbuf_release(&sb);
	return ok;
}

static bool path_is(const char *name, const char *want)
{
	size_t len = 0;
	const char *p = jit_name__path(name, &len);

	if (!want)
		return !p;
	return p && len == strlen(want) && !memcmp(p, want, len);
}

/* Escaped one byte at a time, as the contract says: the reference. */
static size_t clean_slowly(const char *name, struct sbuf *out)
{
	size_t n = 0;

	sbuf_reset(out);
	for (; *name; name++) {
		unsigned char c = (unsigned char)*name;

		if (c < 0x20 || c == 0x7f) {
			sbuf_addf(out, "\\x%02x", c);
			n++;
		} else {
			sbuf_addch(out, (char)c);
		}
	}
	return n;
}

/*
 * Every byte value at every offset of names 1 to 24 bytes long, with
 * another control byte or none later: the word-at-a-time scan finds each
 * (a byte >= 0x80 next to one must not hide it, nor carry into it).
 */
static bool clean_is_bytewise(void)
{
	struct sbuf got, want;
	char name[25];
	bool ok = true;
	size_t len, at;
	int c;

	sbuf_init(&got, SBUF_MAX_SYMNAME);
	sbuf_init(&want, SBUF_MAX_SYMNAME);
	for (len = 1; len <= 24 && ok; len++)
		for (at = 0; at < len && ok; at++)
			for (c = 1; c < 256 && ok; c++) {
				memset(name, at % 2 ? 0xff : 'a', len);
				name[len] = '\0';
				name[at] = (char)c;
				if (at + 3 < len)
					name[len - 1] = '\x1f';
				ok = jit_name__clean(name, &got) == clean_slowly(name, &want) &&
				     !strcmp(got.buf, want.buf);
			}
	sbuf_release(&got);
	sbuf_release(&want);
	return ok;
}

int main(void)
{
	T("every byte at every offset, as one at a time", clean_is_bytewise());
	T("a clean name is kept", clean_is("JS:*fib /app/x.js:1:2", "JS:*fib /app/x.js:1:2", 0));
	T("bytes >= 0x80 are kept", clean_is("na\xc3\xafve \xff", "na\xc3\xafve \xff", 0));
	T("control bytes escaped", clean_is("a\x1b[1m\x07\x7f", "a\\x1b[1m\\x07\\x7f", 3));
	T("tab and newline escaped", clean_is("\tb\n", "\\x09b\\x0a", 2));
	T("empty name", clean_is("", "", 0));

	T("a path", jit_name__file_ok("/app/hot.js"));
	T("node's internal names", jit_name__file_ok("node:internal/timers"));
	T("valid UTF-8", jit_name__file_ok("/app/caf\xc3\xa9.js"));
	T("empty", !jit_name__file_ok(""));
	T("BEL, O, EOT (node v20)", !jit_name__file_ok("\x07O\x04"));
	T("DEL", !jit_name__file_ok("a\x7f"));
	T("tab", !jit_name__file_ok("a\tb"));
	T("invalid UTF-8", !jit_name__file_ok("bad\xffutf"));
	T("cut-short UTF-8", !jit_name__file_ok("caf\xc3"));
	T("overlong UTF-8", !jit_name__file_ok("\xc0\xaf"));

	T("V8 line and column", path_is("JS:~fib /app/hot.js:3:10", "/app/hot.js"));
	T("line only", path_is("LazyCompile:*f file:///a.mjs:1", "file:///a.mjs"));
	T("node: scheme", path_is("JS:~f node:internal/timers:3:4", "node:internal/timers"));
	T("no blank", path_is("Builtin:ArrayPush", NULL));
	T("no line", path_is("JS:~f /app/x.js", NULL));
	T("a column that is no number", path_is("JS:~f /app/x.js:1:x", NULL));
	T("only a line", path_is("JS:~f :12", NULL));
	T("ends in a blank", path_is("JS:~f ", NULL));
	return test_done();
}
