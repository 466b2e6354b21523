/*
 * pprof-stacks: the distinct stacks of a pprof profile, with their summed
 * values, in little memory. A stack is a key of 32-bit words (out-pprof.c:
 * location ids leaf first, then label values); identical keys are one
 * stack, whose sample count and period add up.
 *
 * Memory: a thread's stacks mostly share their root end with one of the
 * stacks it had last, so a new stack is stored as the words it does not
 * share with the one of the caller's last four that shares the most (its
 * "base": the key is the new words, then the base key's last words),
 * varint coded behind a 16-byte header of hash and values; chains of
 * bases are at most 15 long, so that a key is decoded from a bounded
 * number of records. On node-large (1.41 M stacks of 28.5 words) that is
 * 34 bytes a stack instead of 4 bytes a word plus a 32-byte record. A
 * sample whose stack is one of the caller's last four costs no lookup.
 *
 * Stacks are iterated in the order they were first added. The keys handed
 * out are decoded into the store's buffer: valid until the next call.
 * die() on more than 2^32 samples of one stack or 4 GiB of stacks.
 */
#ifndef JITSYM_PPROF_STACKS_H
#define JITSYM_PPROF_STACKS_H

#include <stddef.h>
#include <stdint.h>

#define STACKS_CONTEXT_BITS 8
#define STACKS_CONTEXTS (1u << STACKS_CONTEXT_BITS)

struct stack_store;

struct stack_store *stack_store__new(void);              /* never NULL */
void stack_store__delete(struct stack_store *s);          /* accepts NULL */

/*
 * One sample of the stack key[0..n): id names where its samples come from
 * (a thread), whose recent stacks it is compared with and coded against;
 * any value is correct.
 */
void stack_store__add(struct stack_store *s, uint64_t id, const uint32_t *key, size_t n,
		      uint64_t period);

size_t stack_store__count(const struct stack_store *s);   /* distinct stacks */

struct stack_iter {
	size_t chunk, pos;
};
#define STACK_ITER_INIT { 0, 0 }

/*
 * The next stack in the order first added: its key (the store's buffer,
 * valid until the next call), sample count and summed period; 0 at the end.
 */
int stack_store__next(struct stack_store *s, struct stack_iter *it, const uint32_t **key,
		      size_t *n, uint64_t *count, uint64_t *period);

#endif
