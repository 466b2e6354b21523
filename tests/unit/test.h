/*
 * A tiny unit-test harness: T(name, cond) records one check, printing
 * "ok" or "not ok" with the name; test_done() prints the closing line
 * "N passed, N failed" and returns the exit status.
 */
#ifndef JITSYM_TEST_H
#define JITSYM_TEST_H

#include <stdint.h>
#include <stdio.h>

static int test_passed, test_failed;

#define T(name, cond)                                                        \
	do {                                                                 \
		if (cond) {                                                  \
			test_passed++;                                       \
			printf("ok - %s\n", name);                           \
		} else {                                                     \
			test_failed++;                                       \
			printf("not ok - %s (%s:%d: %s)\n", name, __FILE__,  \
			       __LINE__, #cond);                             \
		}                                                            \
	} while (0)

/* A repeatable pseudo-random number below n (xorshift64; the same sequence every run). */
static inline uint32_t test_rnd(uint32_t n)
{
	static uint64_t state = 0x2545F4914F6CDD1DULL;

	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint32_t)(state % n);
}

static inline int test_done(void)
{
	printf("%d passed, %d failed\n", test_passed, test_failed);
	return test_failed ? 1 : 0;
}

#endif
