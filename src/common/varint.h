/*
 * varint: protobuf's base-128 varints (the low 7 bits first, the high bit
 * set on every byte but the last), as pprof's wire format and the pprof
 * stack store's records write them.
 */
#ifndef JITSYM_VARINT_H
#define JITSYM_VARINT_H

#include <stddef.h>
#include <stdint.h>

/* Write v at p (room for 10 bytes: a 64-bit value); the bytes written. */
static inline size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

#endif
