/*
 * libdemo.so: the shared-library half of native-demo.
 *
 * It gives the profile frames whose addresses must be translated through a
 * second ELF mapping: an exported hot leaf, a local (static, .symtab-only)
 * helper, and a function that calls back into the executable, so a stack
 * goes executable -> libdemo.so -> executable.
 *
 * Build: cc -O2 -g -fno-omit-frame-pointer -fPIC -shared
 *        -Wl,-soname,libdemo.so -o libdemo.so libdemo.c
 */
#include <stddef.h>
#include <stdint.h>

#ifdef __clang__
#define DEMO_NOINLINE __attribute__((noinline))
#else
#define DEMO_NOINLINE __attribute__((noinline, noclone))
#endif
/* Make gcc build a frame even in a leaf (see native-demo.c). */
#define KEEP_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))

uint64_t demo_lib_checksum(const uint8_t *buf, size_t len);
uint64_t demo_lib_apply(uint64_t (*fn)(uint64_t), uint64_t seed,
			unsigned int rounds);

/* Local symbol: only in .symtab, never in .dynsym. */
static DEMO_NOINLINE uint64_t lib_fold_word(uint64_t acc, uint64_t w)
{
	KEEP_FRAME();
	acc ^= w + 0x9e3779b97f4a7c15ULL + (acc << 6) + (acc >> 2);
	__asm__ volatile("" : "+r"(acc));
	return acc;
}

/* Exported hot leaf-ish loop: an Adler-like sum plus a fold every 64 bytes. */
DEMO_NOINLINE uint64_t demo_lib_checksum(const uint8_t *buf, size_t len)
{
	uint64_t a = 1, b = 0, acc = 0;
	size_t i;

	KEEP_FRAME();

	for (i = 0; i < len; i++) {
		a = (a + buf[i]) % 65521;
		b = (b + a) % 65521;
		if ((i & 63) == 63)
			acc = lib_fold_word(acc, (b << 16) | a);
	}
	return acc ^ (b << 16) ^ a;
}

/* Calls back into the executable: the callback's frame sits above ours. */
DEMO_NOINLINE uint64_t demo_lib_apply(uint64_t (*fn)(uint64_t), uint64_t seed,
				      unsigned int rounds)
{
	uint64_t v = seed;
	unsigned int i;

	for (i = 0; i < rounds; i++) {
		v = fn(v);
		__asm__ volatile("" : "+r"(v));
	}
	return v;
}
