#include "common/common.h"
#include "output/pprof-stacks.h"
#include "common/varint.h"

/*
 * Records sit in chunks of CHUNK_BYTES, unaligned, in the order the
 * stacks were first added; a record is named by a 32-bit reference,
 * chunk << CHUNK_SHIFT | offset, so references grow with age. A record:
 *
 *	hash u32, count u32, period u64 (native byte order, unaligned),
 *	then varints: (ref - base ref) << CHAIN_BITS | chain (0: no base;
 *	chain: how many bases are below this record), len (words of the
 *	key), nr_new, and the nr_new new words, the first as it is, each
 *	later one zigzag-coded as the difference from the word before.
 *
 * key = new words, then the base key's last len - nr_new words.
 * An open-addressing table of references + 1 finds a key by its hash.
 */
#define CHUNK_SHIFT 22
#define CHUNK_BYTES (1u << CHUNK_SHIFT)
/* the last byte of the last would be NO_REF */
#define MAX_CHUNKS ((1u << (32 - CHUNK_SHIFT)) - 1)
#define NO_REF UINT32_MAX
#define FIXED_BYTES 16
#define CHAIN_BITS 4
#define STACKS_MAX_CHAIN 16     /* < 1 << CHAIN_BITS */
#define RECENT 4
/* keys decoded while iterating, for the records coded against them */
#define DECODED_BITS 10
/* the longest record a chunk must hold: 4 varints and 5 bytes a word */
#define MAX_WORDS ((CHUNK_BYTES - FIXED_BYTES - 3 * 10) / 5)

/* A stack of a context's recent ones: its key, kept whole. */
struct recent {
	uint32_t *key;
	size_t len, alloc;
	uint32_t ref;           /* NO_REF: none */
	unsigned chain;
};

struct context {
	uint64_t id;            /* whose: the caller's id */
	struct recent recent[RECENT];   /* most recent first */
};

/* A key decoded while iterating: a later record's base is mostly one of the last few. */
struct decoded {
	uint32_t ref;           /* NO_REF: empty */
	uint32_t *key;
	size_t len, alloc;
};

struct stack_store {
	uint8_t **chunks;
	size_t *used;           /* bytes used of each chunk */
	size_t nr_chunks, alloc_chunks, alloc_used;
	uint32_t *table;        /* ref + 1; 0: empty */
	size_t table_size;      /* a power of two */
	size_t nr_stacks;
	struct context ctx[STACKS_CONTEXTS];
	uint32_t *buf;          /* a decoded key */
	size_t buf_alloc;
	struct decoded *decoded;        /* 1 << DECODED_BITS, made by the first iteration */
};

struct record {                 /* a record's header, decoded */
	uint8_t *p;             /* the record */
	uint32_t base;          /* NO_REF: none */
	unsigned chain;
	size_t len, nr_new;
	const uint8_t *words;   /* the new words' varints */
};

struct stack_store *stack_store__new(void)
{
	struct stack_store *s = xcalloc(1, sizeof(*s));
	size_t i;

	s->table_size = 1u << 12;
	s->table = xcalloc(s->table_size, sizeof(*s->table));
	for (i = 0; i < STACKS_CONTEXTS * RECENT; i++)
		s->ctx[i / RECENT].recent[i % RECENT].ref = NO_REF;
	return s;
}

void stack_store__delete(struct stack_store *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr_chunks; i++)
		free(s->chunks[i]);
	for (i = 0; i < STACKS_CONTEXTS * RECENT; i++)
		free(s->ctx[i / RECENT].recent[i % RECENT].key);
	free(s->chunks);
	free(s->used);
	free(s->table);
	for (i = 0; s->decoded && i < 1u << DECODED_BITS; i++)
		free(s->decoded[i].key);
	free(s->decoded);
	free(s->buf);
	free(s);
}

size_t stack_store__count(const struct stack_store *s)
{
	return s->nr_stacks;
}

/* Our own varints: at most 5 bytes for a 32-bit value, never damaged. */
static uint32_t get_varint(const uint8_t **pp)
{
	const uint8_t *p = *pp;
	uint32_t v = 0;
	unsigned shift = 0;

	while (*p & 0x80) {
		v |= (uint32_t)(*p++ & 0x7f) << shift;
		shift += 7;
	}
	v |= (uint32_t)*p++ << shift;
	*pp = p;
	return v;
}

static uint32_t zigzag(uint32_t w, uint32_t prev)
{
	uint32_t d = w - prev;

	return (d << 1) ^ (uint32_t)-(int32_t)(d >> 31);
}

static uint32_t unzigzag(uint32_t z, uint32_t prev)
{
	return prev + ((z >> 1) ^ (uint32_t)-(int32_t)(z & 1));
}

static uint8_t *record_at(const struct stack_store *s, uint32_t ref)
{
	return s->chunks[ref >> CHUNK_SHIFT] + (ref & (CHUNK_BYTES - 1));
}

static void read_record(const struct stack_store *s, uint32_t ref, struct record *r)
{
	const uint8_t *q;
	uint32_t link;

	r->p = record_at(s, ref);
	q = r->p + FIXED_BYTES;
	link = get_varint(&q);
	r->chain = link & ((1u << CHAIN_BITS) - 1);
	r->base = r->chain ? ref - (link >> CHAIN_BITS) : NO_REF;
	r->len = get_varint(&q);
	r->nr_new = get_varint(&q);
	r->words = q;
}

/* Record ref's key from word `from` on, into s->buf at `at`; returns its end. */
static size_t decode(struct stack_store *s, uint32_t ref, size_t from, size_t at)
{
	struct record r;

	read_record(s, ref, &r);
	ALLOC_GROW(s->buf, at + r.len - from, s->buf_alloc);
	for (;;) {
		const uint8_t *q = r.words;
		size_t i, shared = r.len - r.nr_new;
		uint32_t w = 0;

		for (i = 0; i < r.nr_new; i++) {
			w = i ? unzigzag(get_varint(&q), w) : get_varint(&q);
			if (i >= from)
				s->buf[at++] = w;
		}
		if (!shared)
			return at;
		from = from > r.nr_new ? from - r.nr_new : 0;
		read_record(s, r.base, &r);
		from += r.len - shared;
	}
}

static uint32_t stack_hash(const uint32_t *key, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
	size_t i = 0;

	for (; i + 2 <= n; i += 2) {
		h ^= (uint64_t)key[i] | (uint64_t)key[i + 1] << 32;
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (i < n) {
		h ^= key[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	h *= 0xc4ceb9fe1a85ec53ULL;
	return (uint32_t)(h >> 32);
}

static void grow_table(struct stack_store *s)
{
	size_t size = s->table_size * 2, mask = size - 1, i;
	uint32_t *table = xcalloc(size, sizeof(*table));

	for (i = 0; i < s->table_size; i++) {
		uint32_t hash;
		size_t pos;

		if (!s->table[i])
			continue;
		memcpy(&hash, record_at(s, s->table[i] - 1), 4);
		for (pos = hash & mask; table[pos]; pos = (pos + 1) & mask)
			;
		table[pos] = s->table[i];
	}
	free(s->table);
	s->table = table;
	s->table_size = size;
}

/* Room for a record of `bytes`: its reference. */
static uint32_t reserve(struct stack_store *s, size_t bytes)
{
	size_t c = s->nr_chunks;

	if (!c || s->used[c - 1] + bytes > CHUNK_BYTES) {
		if (c == MAX_CHUNKS)
			die("more than 4 GiB of distinct stacks");
		ALLOC_GROW(s->chunks, c + 1, s->alloc_chunks);
		ALLOC_GROW(s->used, c + 1, s->alloc_used);
		s->chunks[c] = xmalloc(CHUNK_BYTES);
		s->used[c] = 0;
		s->nr_chunks = ++c;
	}
	return (uint32_t)((c - 1) << CHUNK_SHIFT | s->used[c - 1]);
}

/* Append a record of key[0..n), coded against base (NULL: none) from which it takes `shared` words. */
static uint32_t append(struct stack_store *s, const struct recent *base, const uint32_t *key,
		       size_t n, size_t shared, uint32_t hash)
{
	uint32_t ref, zero = 0, link = 0;
	uint64_t zero64 = 0;
	size_t nr_new = n, i, len;
	uint8_t *p;

	ref = reserve(s, FIXED_BYTES + 3 * 10 + 5 * n);
	if (base && shared) {
		link = (ref - base->ref) << CHAIN_BITS | (base->chain + 1);
		nr_new = n - shared;
	}
	p = record_at(s, ref);
	memcpy(p, &hash, 4);
	memcpy(p + 4, &zero, 4);
	memcpy(p + 8, &zero64, 8);
	len = FIXED_BYTES;
	len += put_varint(p + len, link);
	len += put_varint(p + len, n);
	len += put_varint(p + len, nr_new);
	for (i = 0; i < nr_new; i++)
		len += put_varint(p + len, i ? zigzag(key[i], key[i - 1]) : key[i]);
	s->used[s->nr_chunks - 1] += len;
	return ref;
}

/*
 * Whether record ref's key is key[0..n): decoded and compared as it goes,
 * and where a base is one of c's recent stacks, whose keys are at hand,
 * the rest compared with that one's.
 */
static bool same_key(const struct stack_store *s, const struct context *c, uint32_t ref,
		     const uint32_t *key, size_t n)
{
	struct record r;
	size_t at = 0, from = 0, i;

	read_record(s, ref, &r);
	if (r.len != n)
		return false;
	for (;;) {
		const uint8_t *q = r.words;
		size_t shared = r.len - r.nr_new;
		uint32_t w = 0;

		for (i = 0; i < r.nr_new; i++) {
			w = i ? unzigzag(get_varint(&q), w) : get_varint(&q);
			if (i >= from && w != key[at++])
				return false;
		}
		if (!shared)
			return at == n;
		from = from > r.nr_new ? from - r.nr_new : 0;
		for (i = 0; i < RECENT; i++) {
			const struct recent *rc = &c->recent[i];

			if (rc->ref == r.base) {
				from += rc->len - shared;
				return !memcmp(rc->key + from, key + at, (n - at) * sizeof(*key));
			}
		}
		read_record(s, r.base, &r);
		from += r.len - shared;
	}
}

/* The stack of key[0..n), hashing to hash, in the table; NO_REF and *pos its empty slot. */
static uint32_t lookup(const struct stack_store *s, const struct context *c, const uint32_t *key,
		       size_t n, uint32_t hash, size_t *pos)
{
	size_t mask = s->table_size - 1, p;

	for (p = hash & mask; s->table[p]; p = (p + 1) & mask) {
		uint32_t h, ref = s->table[p] - 1;

		memcpy(&h, record_at(s, ref), 4);
		if (h == hash && same_key(s, c, ref, key, n))
			return ref;
	}
	*pos = p;
	return NO_REF;
}

/* A new stack at the table's slot pos: appended, coded against base. */
static uint32_t insert(struct stack_store *s, size_t pos, const struct recent *base,
		       const uint32_t *key, size_t n, size_t shared, uint32_t hash)
{
	uint32_t ref;

	if (s->nr_stacks >= UINT32_MAX - 1)
		die("more than 2^32 distinct stacks");
	ref = append(s, base, key, n, shared, hash);
	s->table[pos] = ref + 1;
	s->nr_stacks++;
	if (s->nr_stacks * 4 > s->table_size * 3)
		grow_table(s);
	return ref;
}

/* How many words at the root end key[0..n) shares with r. */
static size_t shared_words(const struct recent *r, const uint32_t *key, size_t n)
{
	size_t k = 0;

	if (r->ref == NO_REF)
		return 0;
	while (k < n && k < r->len && key[n - 1 - k] == r->key[r->len - 1 - k])
		k++;
	return k;
}

/*
 * The stack of key[0..n) in context c: one of its recent stacks (moved
 * to the front), or looked up, or new, coded against the recent stack
 * that shares the most words and whose chain is not at its longest.
 */
static uint32_t context_stack(struct stack_store *s, struct context *c, const uint32_t *key,
			      size_t n)
{
	struct recent *best = NULL, tmp;
	size_t best_shared = 0, i, pos = 0;
	uint32_t ref = NO_REF, hash;
	unsigned chain = 0;
	struct record r;

	/* compared from the leaf end, where stacks differ */
	for (i = 0; i < RECENT; i++) {
		const struct recent *rc = &c->recent[i];

		if (rc->ref != NO_REF && rc->len == n && (!n || !memcmp(rc->key, key, n * sizeof(*key)))) {
			ref = rc->ref;
			chain = rc->chain;
			break;
		}
	}
	if (ref == NO_REF) {
		hash = stack_hash(key, n);
		ref = lookup(s, c, key, n, hash, &pos);
		if (ref == NO_REF) {
			for (i = 0; i < RECENT; i++) {
				struct recent *rc = &c->recent[i];
				size_t k = shared_words(rc, key, n);

				/* a base's distance fits beside the chain in 32 bits */
				if (k > best_shared && rc->chain + 1 < STACKS_MAX_CHAIN &&
				    s->nr_chunks - (rc->ref >> CHUNK_SHIFT) <
				    (1u << (32 - CHUNK_SHIFT - CHAIN_BITS))) {
					best = rc;
					best_shared = k;
				}
			}
			ref = insert(s, pos, best, key, n, best_shared, hash);
		}
		read_record(s, ref, &r);
		chain = r.chain;
		i = RECENT - 1;
	}
	/* to the front: i is the one to drop (or the one hit) */
	tmp = c->recent[i];
	memmove(&c->recent[1], &c->recent[0], i * sizeof(c->recent[0]));
	c->recent[0] = tmp;
	if (tmp.ref != ref) {
		ALLOC_GROW(c->recent[0].key, n + 1, c->recent[0].alloc);
		if (n)
			memcpy(c->recent[0].key, key, n * sizeof(*key));
		c->recent[0].len = n;
		c->recent[0].ref = ref;
		c->recent[0].chain = chain;
	}
	return ref;
}

void stack_store__add(struct stack_store *s, uint64_t id, const uint32_t *key, size_t n,
		      uint64_t period)
{
	uint64_t h = id * 0x9E3779B97F4A7C15ULL;
	struct context *c = &s->ctx[h >> (64 - STACKS_CONTEXT_BITS)];
	uint32_t ref, count;
	uint64_t sum;
	uint8_t *p;
	size_t i;

	if (n > MAX_WORDS)
		die("a stack of more than %zu frames", (size_t)MAX_WORDS);
	if (c->id != id) {
		c->id = id;
		for (i = 0; i < RECENT; i++)
			c->recent[i].ref = NO_REF;
	}
	ref = context_stack(s, c, key, n);
	p = record_at(s, ref);
	memcpy(&count, p + 4, 4);
	memcpy(&sum, p + 8, 8);
	if (count == UINT32_MAX)
		die("more than 2^32 samples of one stack");
	count++;
	sum += period;
	memcpy(p + 4, &count, 4);
	memcpy(p + 8, &sum, 8);
}

static struct decoded *decoded_slot(struct stack_store *s, uint32_t ref)
{
	return &s->decoded[(ref * 0x9E3779B1u) >> (32 - DECODED_BITS)];
}

/*
 * Record r's key (at ref) into s->buf, its base's words from the keys
 * decoded before when it is there; kept there in turn.
 */
static size_t decode_iterated(struct stack_store *s, uint32_t ref, const struct record *r)
{
	size_t shared = r->len - r->nr_new, i;
	const uint8_t *q = r->words;
	struct decoded *d;
	uint32_t w = 0;

	if (!s->decoded) {
		s->decoded = xcalloc(1u << DECODED_BITS, sizeof(*s->decoded));
		for (i = 0; i < 1u << DECODED_BITS; i++)
			s->decoded[i].ref = NO_REF;
	}
	d = shared ? decoded_slot(s, r->base) : NULL;
	if (shared && d->ref != r->base)
		return decode(s, ref, 0, 0);
	ALLOC_GROW(s->buf, r->len + 1, s->buf_alloc);
	for (i = 0; i < r->nr_new; i++) {
		w = i ? unzigzag(get_varint(&q), w) : get_varint(&q);
		s->buf[i] = w;
	}
	if (shared)
		memcpy(s->buf + r->nr_new, d->key + d->len - shared, shared * sizeof(*s->buf));
	d = decoded_slot(s, ref);
	ALLOC_GROW(d->key, r->len + 1, d->alloc);
	memcpy(d->key, s->buf, r->len * sizeof(*s->buf));
	d->len = r->len;
	d->ref = ref;
	return r->len;
}

int stack_store__next(struct stack_store *s, struct stack_iter *it, const uint32_t **key,
		      size_t *n, uint64_t *count, uint64_t *period)
{
	struct record r;
	uint32_t ref, c;
	const uint8_t *q;
	size_t i;

	while (it->chunk < s->nr_chunks && it->pos >= s->used[it->chunk]) {
		it->chunk++;
		it->pos = 0;
	}
	if (it->chunk >= s->nr_chunks)
		return 0;
	ref = (uint32_t)(it->chunk << CHUNK_SHIFT | it->pos);
	read_record(s, ref, &r);
	q = r.words;
	for (i = 0; i < r.nr_new; i++)
		get_varint(&q);
	it->pos += (size_t)(q - r.p);
	*n = decode_iterated(s, ref, &r);
	*key = s->buf;
	memcpy(&c, r.p + 4, 4);
	*count = c;
	memcpy(period, r.p + 8, 8);
	return 1;
}
