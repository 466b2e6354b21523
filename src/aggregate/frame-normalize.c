#include "common/common.h"
#include "aggregate/frame-normalize.h"
#include "aggregate/frameclass.h"
#include "common/sbuf.h"

/* V8's kinds of function code, old names first: the same functions as "JS:". */
static const char *const v8_function_prefixes[] = {
	"LazyCompile:", "Function:", "InterpretedFunction:",
};

/* Side-file names whose numbers are a pid (and for jitted-, a counter). */
static const struct {
	const char *before, *pid, *counter;
} pid_names[] = {
	{ "jitted-", "PID", "N" },
	{ "perf-", "PID", NULL },
	{ "jit-", "PID", NULL },
};

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_word(char c)
{
	return is_hex(c) || (c >= 'g' && c <= 'z') || (c >= 'G' && c <= 'Z') || c == '_';
}

/* The digits at s (up to end); their number. */
static size_t digits(const char *s, const char *end)
{
	const char *p = s;

	while (p < end && is_digit(*p))
		p++;
	return (size_t)(p - s);
}

/*
 * A pid name at s, the start of a word: its length, with its normal form
 * appended to sb; 0 (nothing appended) when there is none.
 */
static size_t pid_name(struct sbuf *sb, const char *s, const char *end)
{
	size_t i, n, d, d2;

	for (i = 0; i < ARRAY_SIZE(pid_names); i++) {
		n = strlen(pid_names[i].before);
		if ((size_t)(end - s) <= n || memcmp(s, pid_names[i].before, n) ||
		    !(d = digits(s + n, end)))
			continue;
		sbuf_add(sb, s, n);
		sbuf_addstr(sb, pid_names[i].pid);
		n += d;
		if (pid_names[i].counter && s + n + 1 < end && s[n] == '-' &&
		    (d2 = digits(s + n + 1, end))) {
			sbuf_addch(sb, '-');
			sbuf_addstr(sb, pid_names[i].counter);
			n += 1 + d2;
		}
		return n;
	}
	return 0;
}

/* An address at s ("0x" and 8 or more hex digits): its length, "0x?" appended; else 0. */
static size_t address(struct sbuf *sb, const char *s, const char *end)
{
	const char *p = s + 2;

	if (end - s < 10 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return 0;
	while (p < end && is_hex(*p))
		p++;
	if (p - s < 10 || (p < end && is_word(*p)))
		return 0;
	sbuf_addstr(sb, "0x?");
	return (size_t)(p - s);
}

/* Copy s..end to sb, addresses and pid names in their normal form. */
static void add_words(struct sbuf *sb, const char *s, const char *end)
{
	const char *p = s;
	size_t n;

	while (p < end) {
		bool word_start = p == s || !is_word(p[-1]);

		if (word_start && ((n = address(sb, p, end)) || (n = pid_name(sb, p, end)))) {
			p += n;
			continue;
		}
		sbuf_addch(sb, *p++);
	}
}

/* The name without a V8 kind prefix that means "JS:": *len shortened, "JS:" appended. */
static const char *v8_prefix(struct sbuf *sb, const char *s, size_t *len)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(v8_function_prefixes); i++) {
		n = strlen(v8_function_prefixes[i]);
		if (*len >= n && !memcmp(s, v8_function_prefixes[i], n)) {
			sbuf_addstr(sb, "JS:");
			*len -= n;
			return s + n;
		}
	}
	return s;
}

/* len without fold's annotation suffix "_[j]", "_[k]" or "_[i]". */
static size_t strip_annotation(const char *s, size_t len)
{
	if (len >= 4 && s[len - 4] == '_' && s[len - 3] == '[' && s[len - 1] == ']' &&
	    (s[len - 2] == 'j' || s[len - 2] == 'k' || s[len - 2] == 'i'))
		return len - 4;
	return len;
}

void frame_normalize(struct sbuf *sb, const char *label, size_t len, enum frame_kind kind)
{
	struct frame_class fc;
	char *name;
	const char *s;
	size_t n;

	len = strip_annotation(label, len);
	if (kind != FRAME_JIT && kind != FRAME_PERFMAP) {
		sbuf_add(sb, label, len);
		return;
	}
	/* frameclass reads a NUL-terminated name */
	name = xstrndup(label, len);
	frameclass__classify(kind, name, &fc);
	s = name;
	n = len;
	if (fc.runtime && !strcmp(fc.runtime, "V8") && !fc.guess)
		s = v8_prefix(sb, s, &n);
	if (fc.mark_len && fc.mark_off + fc.mark_len <= len &&
	    (size_t)(s - name) <= fc.mark_off) {
		add_words(sb, s, name + fc.mark_off);
		add_words(sb, name + fc.mark_off + fc.mark_len, name + len);
	} else {
		add_words(sb, s, name + len);
	}
	free(name);
}
