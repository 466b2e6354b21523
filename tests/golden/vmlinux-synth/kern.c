/*
 * A stand-in kernel for golden case vmlinux-synth (build.sh): no libc,
 * linked at the kernel's address. leaf_add is inlined into mid_mix,
 * which is inlined into outer_syscall: two deep at one address.
 */
volatile unsigned long kern_state;

static inline __attribute__((always_inline)) unsigned long leaf_add(unsigned long x)
{
	kern_state += x;
	return kern_state * 3;
}

static inline __attribute__((always_inline)) unsigned long mid_mix(unsigned long x)
{
	unsigned long v = leaf_add(x ^ 0x55);

	kern_state ^= v;
	return v + 1;
}

__attribute__((noinline)) unsigned long outer_syscall(unsigned long x)
{
	unsigned long v = mid_mix(x);

	kern_state += v;
	return v;
}

__attribute__((noinline)) unsigned long do_work(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s += outer_syscall(i);
	kern_state = s;
	return s;
}

__attribute__((noinline)) void entry_syscall(void)
{
	do_work(kern_state);
	__asm__ volatile("" ::: "memory");
}

/* First in the image, where _text is, as the kernel's startup_64. */
__attribute__((section(".head.text"), noinline)) void startup_64(void)
{
	entry_syscall();
}
