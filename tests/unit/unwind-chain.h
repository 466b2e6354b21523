/*
 * A call chain for tests/unit/t-unwind.c (unwind-chain.c, built twice):
 * X_chain_a() calls X_chain_b(), which calls X_chain_c(), which calls
 * X_chain_leaf(); the leaf captures its registers and copies c->size bytes
 * of its stack from its sp upward into c->stack, as the kernel does for
 * perf's PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER. nofp_ is
 * built without frame pointers, fp_ with them, dbgf_ without frame
 * pointers and with its CFI in .debug_frame only. x86-64 only: elsewhere the
 * leaf captures nothing (c->size becomes 0).
 */
#ifndef JITSYM_TEST_UNWIND_CHAIN_H
#define JITSYM_TEST_UNWIND_CHAIN_H

#include <stdint.h>

struct chain_capture {
	uint64_t ip, sp, bp, bx, r12, r13, r14, r15;   /* as captured, in this order */
	uint8_t *stack;                                /* in: where to copy */
	uint64_t size;                                 /* in: bytes to copy */
};

int nofp_chain_a(struct chain_capture *c, int x);
int nofp_chain_b(struct chain_capture *c, int x);
int nofp_chain_c(struct chain_capture *c, int x);
void nofp_chain_leaf(struct chain_capture *c);
int fp_chain_a(struct chain_capture *c, int x);
int fp_chain_b(struct chain_capture *c, int x);
int fp_chain_c(struct chain_capture *c, int x);
void fp_chain_leaf(struct chain_capture *c);
int dbgf_chain_a(struct chain_capture *c, int x);
int dbgf_chain_b(struct chain_capture *c, int x);
int dbgf_chain_c(struct chain_capture *c, int x);
void dbgf_chain_leaf(struct chain_capture *c);

#endif
