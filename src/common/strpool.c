#include "common/common.h"
#include "common/strpool.h"

/*
 * The copies are packed into blocks (a long string gets a block of its
 * own), each NUL-terminated. The index is an open-addressing table of
 * {copy, hash, length}, a power of two in size and at most 3/4 full, so a
 * lookup usually touches one slot and, when the hashes match, one copy.
 */
#define BLOCK_SIZE (64u << 10)
#define MAX_LEN UINT32_MAX

struct strpool_block {
	struct strpool_block *next;
	size_t used, size;
	char data[];
};

struct strpool_slot {
	const char *str;        /* NULL: empty slot */
	uint32_t hash;
	uint32_t len;
};

struct strpool {
	struct strpool_slot *slots;
	size_t size, nr;
	struct strpool_block *blocks;   /* the one being filled first */
};

struct strpool *strpool__new(void)
{
	return xcalloc(1, sizeof(struct strpool));
}

void strpool__delete(struct strpool *pool)
{
	struct strpool_block *b;

	if (!pool)
		return;
	while ((b = pool->blocks)) {
		pool->blocks = b->next;
		free(b);
	}
	free(pool->slots);
	free(pool);
}

static uint64_t load64(const char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t mix(uint64_t h)
{
	h ^= h >> 32;
	h *= 0xd6e8feb86659fd93ull;
	h ^= h >> 32;
	return h;
}

/* Eight bytes at a time; any fixed byte order would do, the hash never leaves the run. */
static uint32_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len;
	uint64_t tail = 0;

	for (; len >= 8; s += 8, len -= 8)
		h = mix(h ^ load64(s)) * 0x9e3779b97f4a7c15ull;
	memcpy(&tail, s, len);
	return (uint32_t)mix(h ^ tail);
}

/* Where s is, or the empty slot it would go in. */
static struct strpool_slot *find_slot(const struct strpool *pool, const char *s, size_t len,
				      uint32_t hash)
{
	size_t mask = pool->size - 1, i = hash & mask;

	for (;; i = (i + 1) & mask) {
		struct strpool_slot *slot = &pool->slots[i];

		if (!slot->str)
			return slot;
		if (slot->hash == hash && slot->len == len && !memcmp(slot->str, s, len))
			return slot;
	}
}

static void grow_table(struct strpool *pool)
{
	struct strpool_slot *old = pool->slots;
	size_t i, old_size = pool->size;

	pool->size = old_size ? st_mult(old_size, 2) : 1024;
	pool->slots = xcalloc_written(pool->size, sizeof(*pool->slots));
	for (i = 0; i < old_size; i++)
		if (old[i].str)
			*find_slot(pool, old[i].str, old[i].len, old[i].hash) = old[i];
	free(old);
}

/* Room for n bytes that stays put until strpool__delete(). */
static char *alloc_copy(struct strpool *pool, size_t n)
{
	struct strpool_block *b = pool->blocks;

	if (n > BLOCK_SIZE / 4) {
		/* its own block, behind the current one, which keeps filling */
		b = xmalloc(st_add(sizeof(*b), n));
		b->used = b->size = n;
		if (pool->blocks) {
			b->next = pool->blocks->next;
			pool->blocks->next = b;
		} else {
			b->next = NULL;
			pool->blocks = b;
		}
		return b->data;
	}
	if (!b || b->size - b->used < n) {
		b = xmalloc(sizeof(*b) + BLOCK_SIZE);
		b->used = 0;
		b->size = BLOCK_SIZE;
		b->next = pool->blocks;
		pool->blocks = b;
	}
	b->used += n;
	return b->data + b->used - n;
}

const char *strpool__intern_len(struct strpool *pool, const char *s, size_t len)
{
	struct strpool_slot *slot;
	uint32_t hash;
	char *copy;

	if (len >= MAX_LEN)
		die("string of %zu bytes too long to keep", len);
	hash = hash_bytes(s, len);
	if (pool->size) {
		slot = find_slot(pool, s, len, hash);
		if (slot->str)
			return slot->str;
	}
	if (st_mult(pool->nr + 1, 4) > st_mult(pool->size, 3))
		grow_table(pool);
	slot = find_slot(pool, s, len, hash);
	copy = alloc_copy(pool, len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	slot->str = copy;
	slot->hash = hash;
	slot->len = (uint32_t)len;
	pool->nr++;
	return copy;
}

const char *strpool__intern(struct strpool *pool, const char *s)
{
	return strpool__intern_len(pool, s, strlen(s));
}
