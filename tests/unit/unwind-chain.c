/*
 * The call chain of unwind-chain.h, compiled once per CHAIN_PREFIX (nofp_,
 * fp_, dbgf_) with the frame-pointer and unwind-table flags Makefile.am gives, and without
 * sanitizers, so that the frames are what a compiler makes of ordinary
 * code and the leaf may copy the callers' stack bytes.
 */
#include "unwind-chain.h"

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define FN(name) CAT(CHAIN_PREFIX, name)

/* Keep every function a real, separate frame: no inlining, cloning or tail calls. */
#if defined(__clang__)
#define KEEP __attribute__((noinline, used))
#else
#define KEEP __attribute__((noinline, noipa, used))
#endif

KEEP void FN(chain_leaf)(struct chain_capture *c)
{
#if defined(__x86_64__)
	uint8_t *dst = c->stack;
	uint64_t n = c->size;

#if CHAIN_FP
	/* compilers leave leaf functions without a frame even when told to keep them */
	__asm__ volatile("" : : "r"(__builtin_frame_address(0)));
#endif

	/* one asm statement, so sp cannot move between capture and copy */
	__asm__ volatile(
		"lea 1f(%%rip), %%rax\n\t"
		"1:\n\t"
		"mov %%rax, 0(%[c])\n\t"
		"mov %%rsp, 8(%[c])\n\t"
		"mov %%rbp, 16(%[c])\n\t"
		"mov %%rbx, 24(%[c])\n\t"
		"mov %%r12, 32(%[c])\n\t"
		"mov %%r13, 40(%[c])\n\t"
		"mov %%r14, 48(%[c])\n\t"
		"mov %%r15, 56(%[c])\n\t"
		"mov %%rsp, %%rsi\n\t"
		"rep movsb\n\t"
		: "+D"(dst), "+c"(n)
		: [c] "r"(c)
		: "rax", "rsi", "memory");
#else
	c->size = 0;
#endif
}

KEEP int FN(chain_c)(struct chain_capture *c, int x)
{
	volatile int local[16];
	int i;

	for (i = 0; i < 16; i++)
		local[i] = x + i;
	FN(chain_leaf)(c);
	return local[x & 15] + 1;
}

KEEP int FN(chain_b)(struct chain_capture *c, int x)
{
	int a = x * 3, b = x ^ 0x55, d = x + 17, e = x * x;
	int r = FN(chain_c)(c, a + b);

	/* values live across the call: callee-saved registers get saved */
	return r + a * b + d * e + (a ^ d) + (b ^ e);
}

KEEP int FN(chain_a)(struct chain_capture *c, int x)
{
	return FN(chain_b)(c, x + 1) * 2 + 1;
}
