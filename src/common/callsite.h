/*
 * callsite: is an address a return address? x86-64 machine code only.
 *
 * A caller frame's address is usually a return address, the byte after a
 * call, and is then looked up at address - 1 (the call may be the last
 * instruction of its function). But an address can be on a stack without
 * a call before it: the kernel's interrupted ip in its own call chain, a
 * continuation pointer a runtime pushed (Erlang's BEAM), a return address
 * a runtime made up (V8's interpreter). Those are looked up as they are.
 * This module decides from the code bytes just before the address.
 *
 * A call ends at an address when some call encoding fits exactly in the
 * bytes before it: E8 rel32 (5 bytes), or FF /2 (near indirect) or FF /3
 * (far indirect) with any ModRM, SIB and displacement (2 to 7 bytes from
 * the opcode; prefixes and REX before the opcode change no length). x86
 * code cannot be decoded backwards, so bytes that end in such an encoding
 * by chance (inside a longer instruction) count as a call: the answer
 * "no" is certain, "yes" is not.
 */
#ifndef JITSYM_CALLSITE_H
#define JITSYM_CALLSITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes before an address that can hold the end of a call. */
#define CALLSITE_WINDOW 7

/*
 * Whether a call instruction ends exactly at the end of before[0..n), the
 * n bytes just before the address (fewer than CALLSITE_WINDOW when the
 * code starts closer; more are ignored). before may be NULL when n is 0.
 */
bool callsite__ends_in_call(const uint8_t *before, size_t n);

/*
 * The return-address offsets of one piece of code: each offset o in
 * (0, size] at which a call ends. Immutable once made; shared freely.
 */
struct callsite_set;

/* The set for code[0..size) (NULL when size is 0); never NULL. Free with __delete(). */
struct callsite_set *callsite_set__new(const uint8_t *code, uint64_t size);
void callsite_set__delete(struct callsite_set *s);   /* accepts NULL */
/* Whether a call ends at offset off of the code. */
bool callsite_set__has(const struct callsite_set *s, uint64_t off);
/* Bytes the set holds, for measurements. */
size_t callsite_set__bytes(const struct callsite_set *s);

#endif
