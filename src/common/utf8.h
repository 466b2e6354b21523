/*
 * utf8: decoding names that may hold any byte (symbols from binaries and
 * JIT runtimes) for formats that need UTF-8 (SVG, protobuf strings).
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

#endif
