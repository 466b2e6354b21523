#include "common/common.h"
#include "output/json-out.h"
#include "output/gzsink.h"
#include "common/sbuf.h"
#include "common/utf8.h"

#define JSON_BUF (1u << 16)

struct json_out {
	FILE *out;
	struct gz_sink *gz;         /* NULL: plain */
	size_t n;
	struct sbuf scratch;        /* a string being escaped */
	char buf[JSON_BUF];
};

void json_escape(struct sbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		sbuf_addstr(sb, "null");
		return;
	}
	sbuf_addch(sb, '"');
	while (*p) {
		size_t n;

		if (*p == '"' || *p == '\\') {
			sbuf_addch(sb, '\\');
			sbuf_addch(sb, (char)*p++);
		} else if (*p < 0x20 || *p == 0x7f) {
			sbuf_addf(sb, "\\u%04x", *p++);
		} else if (*p < 0x80) {
			sbuf_addch(sb, (char)*p++);
		} else if ((n = utf8__seq(p, NULL))) {
			sbuf_add(sb, p, n);
			p += n;
		} else {
			sbuf_addstr(sb, "\\ufffd");
			p++;
		}
	}
	sbuf_addch(sb, '"');
}

void json_fput_str(FILE *out, const char *s)
{
	struct sbuf sb = SBUF_INIT;

	json_escape(&sb, s);
	fwrite(sb.buf, 1, sb.len, out);
	sbuf_release(&sb);
}

struct json_out *json_out__new(FILE *out, bool gzip)
{
	struct json_out *j = xmalloc(sizeof(*j));

	j->out = out;
	j->gz = gzip ? gz_sink__new(out) : NULL;
	j->n = 0;
	sbuf_init(&j->scratch, SBUF_MAX_DEFAULT);
	return j;
}

static void flush(struct json_out *j)
{
	if (!j->n)
		return;
	if (j->gz)
		gz_sink__write(j->gz, j->buf, j->n);
	else
		fwrite(j->buf, 1, j->n, j->out);
	j->n = 0;
}

int json_out__close(struct json_out *j)
{
	int ret = 0;

	if (!j)
		return 0;
	flush(j);
	if (j->gz)
		ret = gz_sink__close(j->gz);
	sbuf_release(&j->scratch);
	free(j);
	return ret;
}

void json_out__raw(struct json_out *j, const char *s, size_t n)
{
	while (n) {
		size_t k = JSON_BUF - j->n;

		if (!k) {
			flush(j);
			continue;
		}
		if (k > n)
			k = n;
		memcpy(j->buf + j->n, s, k);
		j->n += k;
		s += k;
		n -= k;
	}
}

void json_out__puts(struct json_out *j, const char *s)
{
	json_out__raw(j, s, strlen(s));
}

void json_out__ch(struct json_out *j, char c)
{
	if (j->n == JSON_BUF)
		flush(j);
	j->buf[j->n++] = c;
}

void json_out__u64(struct json_out *j, uint64_t v)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	json_out__raw(j, tmp + i, sizeof(tmp) - i);
}

void json_out__i64(struct json_out *j, int64_t v)
{
	if (v < 0) {
		json_out__ch(j, '-');
		json_out__u64(j, -(uint64_t)v);
	} else {
		json_out__u64(j, (uint64_t)v);
	}
}

void json_out__str(struct json_out *j, const char *s)
{
	sbuf_reset(&j->scratch);
	json_escape(&j->scratch, s);
	json_out__raw(j, j->scratch.buf, j->scratch.len);
}

void json_out__ms(struct json_out *j, uint64_t ns)
{
	uint64_t frac = ns % 1000000;
	char tmp[8];
	int i;

	json_out__u64(j, ns / 1000000);
	if (!frac)
		return;
	for (i = 6; i > 0; i--, frac /= 10)
		tmp[i] = (char)('0' + frac % 10);
	tmp[0] = '.';
	for (i = 6; tmp[i] == '0'; i--)
		;
	json_out__raw(j, tmp, (size_t)i + 1);
}
