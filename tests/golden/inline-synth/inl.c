/*
 * The program of golden case inline-synth (build.sh builds it): main, in
 * inl-main, calls into libinl.so (built -O2 -g) and libplain.so (built
 * without -g: no DWARF, only symbols).
 */
extern unsigned lib_entry(unsigned x);
extern unsigned plain_work(unsigned x);

static inline __attribute__((always_inline)) unsigned leaf_a(unsigned x)
{
	x ^= x >> 7;
	__asm__ volatile("nop" : "+r"(x));
	return x * 3u;
}

static inline __attribute__((always_inline)) unsigned mid_b(unsigned x)
{
	x = leaf_a(x) + 5u;
	return x ^ (x >> 3);
}

/* a inlined into b inlined into c: two deep at leaf_a's instructions */
__attribute__((noinline)) unsigned outer_c(unsigned x)
{
	x = mid_b(x) * 7u;
	return x + lib_entry(x);
}

/* recursive: gcc inlines a level (or more) of it into itself */
static unsigned rec(unsigned n, unsigned acc)
{
	if (n == 0)
		return acc;
	__asm__ volatile("" : "+r"(acc));
	return rec(n - 1, acc * 31u + n) + plain_work(acc);
}

__attribute__((noinline)) unsigned run_rec(unsigned n)
{
	return rec(n, 1u);
}

int main(int argc, char **argv)
{
	(void)argv;
	return (int)(outer_c((unsigned)argc) + run_rec((unsigned)argc + 10u)) & 1;
}
