/* libinl.so of golden case inline-synth: a function inlined in a shared library. */
extern unsigned plain_work(unsigned x);

static inline __attribute__((always_inline)) unsigned lib_helper(unsigned x)
{
	x *= 2654435761u;
	__asm__ volatile("nop" : "+r"(x));
	return x ^ (x >> 13);
}

__attribute__((noinline)) unsigned lib_entry(unsigned x)
{
	return lib_helper(x) + plain_work(x);
}
