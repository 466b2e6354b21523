/*
 * x86-emit: the handful of x86-64 instructions minijit generates, and the
 * two function shapes it builds from them. Code goes into a buffer the
 * caller supplies; nothing here allocates, maps memory or prints.
 *
 * Every generated function follows the System V AMD64 ABI (argument in
 * rdi, result in rax, rbx/rbp/r12 preserved, rsp 16-byte aligned at every
 * call) and builds a frame-pointer frame,
 *
 *	push rbp; mov rbp, rsp; ...; pop rbp; ret
 *
 * so that "perf record -g" unwinds through it. Calls go through a 64-bit
 * cell in memory ("movabs rax, CELL; call [rax]") and loops use relative
 * jumps inside the function, so the code is position independent: it can
 * be copied to another address (JIT_CODE_MOVE), and a callee moves by
 * rewriting its cell.
 */
#ifndef MINIJIT_X86_EMIT_H
#define MINIJIT_X86_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where code is emitted. After an overflow, len stops growing. */
struct x86buf {
	uint8_t *p;
	size_t len;
	size_t cap;
	bool overflow;
};

/*
 * A leaf function: x = argument, then BLOCKS loops, each of ITERS rounds of
 * x = (x * MUL + ADD) ^ counter (block i uses MUL + 2i and ADD + i, so more
 * blocks make a longer, different function). Returns x.
 */
struct x86_leaf {
	uint32_t iters;		/* >= 1 */
	int32_t mul;		/* odd keeps the arithmetic from collapsing */
	int32_t add;
	unsigned int blocks;	/* 1..8 */
};

/*
 * A caller: x = argument, then REPS times { SELF_ITERS rounds of its own
 * arithmetic on x (none when 0); for each cell in order,
 * x += (*cell)(x) }. Returns x. A cell holds the entry address of a JIT
 * function or of a C function taking and returning uint64_t.
 */
struct x86_caller {
	const uint64_t *const *cells;
	size_t ncells;		/* 1..8 */
	uint32_t reps;		/* >= 1 */
	uint32_t self_iters;
	int32_t mul;		/* for the own arithmetic */
};

/* Start emitting into MEM[0, CAP). */
void x86buf_init(struct x86buf *b, uint8_t *mem, size_t cap);

/* Emit one function at b->len. Return 0, -EINVAL for a bad spec, or -ENOSPC if it did not fit. */
int x86_emit_leaf(struct x86buf *b, const struct x86_leaf *spec);
int x86_emit_caller(struct x86buf *b, const struct x86_caller *spec);

#endif
