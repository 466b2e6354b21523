/*
 * json-out: JSON text written fast, to a FILE as it is or gzipped
 * (gzsink.h), through a buffer of its own: the timeline writers emit
 * millions of numbers, which fprintf() would format one call each.
 * Strings may hold any byte: json_escape() makes them valid JSON.
 */
#ifndef JITSYM_JSON_OUT_H
#define JITSYM_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sbuf;
struct json_out;

/*
 * s as a JSON string, quotes included, appended to sb; NULL as null.
 * Control characters are escaped, bytes that are not UTF-8 become U+FFFD.
 */
void json_escape(struct sbuf *sb, const char *s);
/* The same, written to out. */
void json_fput_str(FILE *out, const char *s);

/* Never NULL; gzip: deflate what is written (gzip format). */
struct json_out *json_out__new(FILE *out, bool gzip);
/* Flush and free j: 0, or -1 when writing or compressing failed. Accepts NULL. */
int json_out__close(struct json_out *j);

void json_out__raw(struct json_out *j, const char *s, size_t n);
void json_out__puts(struct json_out *j, const char *s);
void json_out__ch(struct json_out *j, char c);
void json_out__u64(struct json_out *j, uint64_t v);
void json_out__i64(struct json_out *j, int64_t v);
void json_out__str(struct json_out *j, const char *s);   /* json_escape()'s */
/* ns as milliseconds, exactly: "12.345678", "3" */
void json_out__ms(struct json_out *j, uint64_t ns);

#endif
