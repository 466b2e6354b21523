/*
 * utf8: decoding names that may hold any byte (symbols from binaries and
 * JIT runtimes) for formats that need UTF-8 (SVG, protobuf strings), and
 * the hex digits such names and text files (kallsyms) are written with.
 */
#ifndef JITSYM_UTF8_H
#define JITSYM_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * The length (1-4) of the well-formed UTF-8 sequence at s, its code point
 * in *cp (cp may be NULL); 0 when the bytes there are not one (overlong,
 * surrogate, above U+10FFFF, cut short). s[0] must be readable; a NUL
 * ends the string before it can pass for a continuation byte.
 */
size_t utf8__seq(const unsigned char *s, uint32_t *cp);

/* The value (0-15) of the hex digit c, either case; -1 when c is not one. */
static inline int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

#endif
