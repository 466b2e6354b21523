#include "common/common.h"
#include "output/out-pprof.h"
#include "output/out-pprof-internal.h"
#include "aggregate/frameclass.h"
#include "common/sbuf.h"
#include "common/utf8.h"

/*
 * s as it goes into the string table: proto3 strings must be UTF-8, and
 * strict readers reject a whole profile over one bad byte (a name from a
 * damaged jitdump), so each invalid byte becomes U+FFFD.
 */
static const char *utf8_string(struct pprof_builder *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	struct sbuf sb = SBUF_INIT;
	const char *ret;
	size_t n;

	while (*p && (n = utf8__seq(p, NULL)))
		p += n;
	if (!*p)
		return s;
	sbuf_add(&sb, s, (size_t)((const char *)p - s));
	while (*p) {
		n = utf8__seq(p, NULL);
		if (n) {
			sbuf_add(&sb, p, n);
			p += n;
		} else {
			sbuf_addstr(&sb, "\xef\xbf\xbd");
			p++;
		}
	}
	ret = strpool__intern_len(b->pool, sb.buf, sb.len);
	sbuf_release(&sb);
	return ret;
}

static uint64_t ptr_hash(const void *a, const void *b)
{
	uint64_t h = (uintptr_t)a * 0x9E3779B97F4A7C15ULL;

	h ^= (uintptr_t)b;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ h >> 32;
}

/* Double t's size, placing indices first..nr-1 again by hash(b, index). */
static void index_table_grow(struct index_table *t, size_t first, size_t nr,
			     const struct pprof_builder *b,
			     uint64_t (*hash)(const struct pprof_builder *, size_t))
{
	size_t size = t->size ? 2 * t->size : 1024, mask = size - 1, i, pos;

	free(t->slots);
	t->slots = xcalloc(size, sizeof(*t->slots));
	t->size = size;
	for (i = first; i < nr; i++) {
		for (pos = hash(b, i) & mask; t->slots[pos]; pos = (pos + 1) & mask)
			;
		t->slots[pos] = (uint32_t)(i + 1);
	}
}

/* Room for element i of a chunked array: chunks of 1 << bits elements. */
#define CHUNK_RESERVE(chunks, alloc, i, bits)                                        \
	do {                                                                          \
		if (!((i) & ((1u << (bits)) - 1))) {                                  \
			ALLOC_GROW(chunks, ((i) >> (bits)) + 1, alloc);               \
			(chunks)[(i) >> (bits)] =                                     \
				xmalloc(st_mult(sizeof(**(chunks)), (size_t)1 << (bits))); \
		}                                                                     \
	} while (0)

static uint64_t str_hash(const struct pprof_builder *b, size_t i)
{
	return ptr_hash(b->str_keys[i], NULL);
}

int64_t pprof_builder__str_index(struct pprof_builder *b, const char *s)
{
	size_t mask, pos;

	s = strpool__intern(b->pool, s ? s : "");
	if (2 * (b->nr_strings + 1) > b->str_table.size)
		index_table_grow(&b->str_table, 0, b->nr_strings, b, str_hash);
	mask = b->str_table.size - 1;
	for (pos = ptr_hash(s, NULL) & mask; b->str_table.slots[pos]; pos = (pos + 1) & mask)
		if (b->str_keys[b->str_table.slots[pos] - 1] == s)
			return b->str_table.slots[pos] - 1;
	if (b->nr_strings >= UINT32_MAX - 1)
		die("more than 2^32 distinct strings");
	ALLOC_GROW(b->strings, b->nr_strings + 1, b->alloc_strings);
	ALLOC_GROW(b->str_keys, b->nr_strings + 1, b->alloc_str_keys);
	b->str_keys[b->nr_strings] = s;
	b->strings[b->nr_strings++] = (char *)utf8_string(b, s);
	b->str_table.slots[pos] = (uint32_t)b->nr_strings;
	return (int64_t)b->nr_strings - 1;
}

struct pprof_builder *pprof_builder__new(const struct pprof_opts *opts)
{
	struct pprof_builder *b = xcalloc(1, sizeof(*b));

	b->opts = *opts;
	b->pool = strpool__new();
	pprof_builder__str_index(b, "");               /* string_table[0] must be "" */
	b->nr_labels = (size_t)opts->label_pid + opts->label_tid + opts->label_comm +
		       opts->label_category + opts->label_tier;
	b->loc_table_size = 1u << 12;
	b->loc_table = xcalloc(b->loc_table_size, sizeof(*b->loc_table));
	b->loc_cache = xcalloc_written(1u << LOC_CACHE_BITS, sizeof(*b->loc_cache));
	b->stacks = stack_store__new();
	b->type = "events";
	b->unit = "count";
	return b;
}

void pprof_builder__delete(struct pprof_builder *b)
{
	struct mapping *m, *mtmp;
	size_t i;

	if (!b)
		return;
	HASH_ITER(hh, b->maps, m, mtmp) {
		HASH_DEL(b->maps, m);
		free(m);
	}
	srcline_cache__delete(b->srcline);
	free(b->strings);
	free(b->str_keys);
	free(b->str_table.slots);
	for (i = 0; i < b->nr_funcs; i += 1u << CLASS_CHUNK_BITS)
		free(b->func_chunks[i >> CLASS_CHUNK_BITS]);
	free(b->func_chunks);
	free(b->func_table.slots);
	free(b->map_list);
	for (i = 0; i < b->nr_locs; i += 1u << LOC_CHUNK_BITS)
		free(b->loc_chunks[i >> LOC_CHUNK_BITS]);
	for (i = 0; i < b->nr_lines; i += 1u << LINE_CHUNK_BITS)
		free(b->line_chunks[i >> LINE_CHUNK_BITS]);
	free(b->loc_chunks);
	free(b->line_chunks);
	for (i = 0; i < b->nr_classes; i += 1u << CLASS_CHUNK_BITS)
		free(b->class_chunks[i >> CLASS_CHUNK_BITS]);
	free(b->class_chunks);
	free(b->class_table.slots);
	free(b->loc_table);
	free(b->loc_cache);
	for (i = 0; i < ARRAY_SIZE(b->last); i++)
		free(b->last[i].slots);
	free(b->frame_keys);
	stack_store__delete(b->stacks);
	free(b->key);
	strpool__delete(b->pool);
	free(b);
}

void pprof_builder__start(struct pprof_builder *b, const struct pprof_event *ev)
{
	b->srcline = srcline_cache__new(b->pool);
	/* a location is looked up once: its address's lines need not be kept */
	srcline_cache__no_memo(b->srcline);
	if (!ev)
		return;
	/* a cpu-clock or task-clock period is the time between samples, in ns */
	if (ev->is_clock) {
		b->type = "cpu";
		b->unit = "nanoseconds";
	} else {
		b->type = strpool__intern(b->pool, ev->name);
	}
	b->freq = ev->freq;
	b->sample_period = ev->freq ? 0 : ev->sample_period;
	b->sample_freq = ev->freq ? ev->sample_freq : 0;
	b->has_period = ev->has_period;
	/* off-CPU stacks: nanoseconds, and no period between samples */
	if (b->opts.offcpu) {
		b->type = b->opts.offcpu == OFFCPU_ONLY ? "off-cpu" : "on-off-cpu";
		b->unit = "nanoseconds";
		b->has_period = true;
		b->freq = false;
		b->sample_period = 0;
	}
}

void pprof_builder__new_session(struct pprof_builder *b)
{
	size_t i;

	/* classes are keyed by the session's pointers: the earlier ones are not looked up */
	b->first_class = b->nr_classes;
	memset(b->class_table.slots, 0, b->class_table.size * sizeof(*b->class_table.slots));
	memset(b->loc_cache, 0, (1u << LOC_CACHE_BITS) * sizeof(*b->loc_cache));
	for (i = 0; i < ARRAY_SIZE(b->last); i++) {
		b->last[i].thread = 0;
		b->last[i].nr = 0;
	}
	memset(b->leaf_cache, 0, sizeof(b->leaf_cache));
	b->last_comm = NULL;
	b->last_pid_index = 0;
	/* each recording's own clock: the profile's duration sums their spans */
	if (b->have_time)
		b->duration_before += b->last_time - b->first_time;
	b->have_time = false;
}

void pprof_builder__finish(struct pprof_builder *b)
{
	/* its DWARF handles are the session's object views' files */
	srcline_cache__delete(b->srcline);
	b->srcline = NULL;
}

static const char *hex_build_id(struct pprof_builder *b, const uint8_t *id, size_t size)
{
	static const char digits[] = "0123456789abcdef";
	char hex[2 * OBJ_BUILD_ID_MAX + 1];
	size_t i;

	if (!id || !size || size > OBJ_BUILD_ID_MAX)
		return NULL;
	for (i = 0; i < size; i++) {
		hex[2 * i] = digits[id[i] >> 4];
		hex[2 * i + 1] = digits[id[i] & 15];
	}
	return strpool__intern_len(b->pool, hex, 2 * size);
}

/*
 * The build id of m's file, by the frame's object view (sample.h says by
 * which rule): a file's or the kernel's, never an anonymous mapping's.
 */
static const char *mapping_build_id(struct pprof_builder *b, const struct mapping *m,
				    const struct frame *f)
{
	if (!f->obj || !f->obj->build_id || (m->kind != MAP_FILE && m->kind != MAP_KERNEL))
		return NULL;
	return hex_build_id(b, f->obj->build_id, f->obj->build_id_size);
}

/* Whether a mapped file is a shared object (name.so, name.so.N, name.so_N) or [vdso]-like. */
static bool is_library(const char *name)
{
	const char *base = strrchr(name, '/'), *so;

	base = base ? base + 1 : name;
	if (base[0] == '[')
		return true;
	for (so = strstr(base, ".so"); so; so = strstr(so + 1, ".so"))
		if (!so[3] || ((so[3] == '.' || so[3] == '_') && so[4] >= '0' && so[4] <= '9'))
			return true;
	return false;
}

/* Widen m to [start, start + len) (a length running past 2^64 ends there). */
static void mapping_cover(struct mapping *m, uint64_t start, uint64_t len, uint64_t offset)
{
	uint64_t limit = start + len < start ? UINT64_MAX : start + len;

	if (m->start == m->limit || start < m->start) {
		if (m->start == m->limit)
			m->limit = limit;
		m->start = start;
		m->offset = offset;
	}
	if (limit > m->limit)
		m->limit = limit;
}

/*
 * The range a frame's mapping covers: its MMAP record (for JIT code only
 * an anonymous one: code a jitdump describes inside a file's text is the
 * file's too), else the JIT function's code, else (a kernel address
 * without a record) the address itself.
 */
static void mapping_extend(struct mapping *m, const struct frame *f)
{
	const struct frame_map *mp = f->map.present ? &f->map : NULL;

	if (m->kind == MAP_JIT && mp && !mp->anon)
		mp = NULL;
	if (mp)
		mapping_cover(m, mp->start, mp->len, mp->pgoff);
	else if (m->kind == MAP_JIT && f->jit)
		mapping_cover(m, f->code_start, f->code_size ? f->code_size : 1, 0);
	else
		mapping_cover(m, f->ip, 1, 0);
}

/* The anonymous mmap a user frame is in, by its start; 0: none. */
static uint64_t frame_region(const struct frame *f)
{
	return f->kind != FRAME_KERNEL && f->map.present && f->map.anon ? f->map.start : 0;
}

/*
 * The mapping a frame belongs to, NULL for an address in no mmap and no
 * JIT code. A file mapped at different addresses (by different processes)
 * gets one mapping per load address, so that each location's address is
 * one in its mapping's range; JIT code and unresolved frames one per
 * anonymous mmap they are in (JIT code outside any: one, spanning its
 * functions). Its range grows as locations are added (mapping_note()).
 */
static struct mapping *frame_mapping(struct pprof_builder *b, const struct frame *f)
{
	const char *name = f->dso ? f->dso : UNKNOWN_LABEL;
	enum map_kind kind = MAP_NOFILE;
	uint64_t bias = 0;
	struct mapping key, *m;

	if (f->kind == FRAME_KERNEL) {
		kind = MAP_KERNEL;
		/* the file the resolver put it in (its view): its module's, else the kernel's */
		name = f->obj ? f->obj->path : SAMPLE_DSO_KERNEL;
	} else if (f->kind == FRAME_JIT || f->kind == FRAME_PERFMAP) {
		kind = MAP_JIT;
		bias = frame_region(f);
	} else if (!f->map.present) {
		return NULL;
	} else if (f->kind == FRAME_NATIVE || !f->map.anon) {
		kind = MAP_FILE;
		bias = f->ip - f->print_addr;
	} else {
		bias = frame_region(f);
	}
	memset(&key.key, 0, sizeof(key.key));
	key.key.name = strpool__intern(b->pool, name);
	key.key.bias = bias;
	HASH_FIND(hh, b->maps, &key.key, sizeof(key.key), m);
	if (!m) {
		m = xcalloc(1, sizeof(*m));
		m->key = key.key;
		m->kind = kind;
		m->library = kind == MAP_FILE && is_library(name);
		if (b->nr_maps >= UINT32_MAX - 1)
			die("more than 2^32 mappings");
		ALLOC_GROW(b->map_list, b->nr_maps + 1, b->alloc_map_list);
		b->map_list[b->nr_maps] = m;
		m->seq = b->nr_maps++;
		HASH_ADD(hh, b->maps, key, sizeof(m->key), m);
	}
	return m;
}

/* A new location of f's in m: its build id when f has one, its range. */
static void mapping_note(struct pprof_builder *b, struct mapping *m, const struct frame *f)
{
	if (!m->build_id)
		m->build_id = mapping_build_id(b, m, f);
	mapping_extend(m, f);
}

static uint64_t func_hash(const struct pprof_builder *b, size_t i)
{
	return ptr_hash(func_at(b, i)->name, func_at(b, i)->file);
}

static uint32_t function_id(struct pprof_builder *b, const char *name, const char *file)
{
	struct function *fn;
	size_t mask, pos;

	name = strpool__intern(b->pool, name);
	file = strpool__intern(b->pool, file ? file : "");
	if (2 * (b->nr_funcs + 1) > b->func_table.size)
		index_table_grow(&b->func_table, 0, b->nr_funcs, b, func_hash);
	mask = b->func_table.size - 1;
	for (pos = ptr_hash(name, file) & mask; b->func_table.slots[pos]; pos = (pos + 1) & mask) {
		fn = func_at(b, b->func_table.slots[pos] - 1);
		if (fn->name == name && fn->file == file)
			return b->func_table.slots[pos];
	}
	if (b->nr_funcs >= UINT32_MAX - 1)
		die("more than 2^32 functions");
	CHUNK_RESERVE(b->func_chunks, b->alloc_func_chunks, b->nr_funcs, CLASS_CHUNK_BITS);
	fn = func_at(b, b->nr_funcs++);
	fn->name = name;
	fn->file = file;
	fn->name_index = (uint32_t)pprof_builder__str_index(b, name);
	fn->file_index = (uint32_t)pprof_builder__str_index(b, file);
	b->func_table.slots[pos] = (uint32_t)b->nr_funcs;
	return (uint32_t)b->nr_funcs;
}

/*
 * The source positions of a frame, innermost first; the last is the
 * frame's own function, named by its symbol whole (not by fold's label,
 * agg_frame_label(): a function name in pprof may hold ';'). A resolved
 * frame without line information gets one naming the function; an
 * unresolved one none.
 * *debug: the lines came from native debug info (with its inlined frames).
 */
static size_t frame_lines(struct pprof_builder *b, const struct frame *f, struct src_loc *src,
			  bool *debug)
{
	size_t n = 0, i;

	*debug = false;
	if (!f->sym)
		return 0;
	if (b->srcline)
		n = srcline__lookup(b->srcline, f, src, SRCLINE_MAX_DEPTH);
	*debug = n && f->kind == FRAME_NATIVE;
	if (!n) {
		memset(src, 0, sizeof(*src));
		n = 1;
	}
	for (i = 0; i + 1 < n; i++)
		if (!src[i].function)
			src[i].function = UNKNOWN_LABEL;
	src[n - 1].function = f->sym;
	return n;
}

/*
 * Count what a mapping's location says, for pprof's has_functions,
 * has_filenames and has_line_numbers: true when every location of the
 * mapping has it (readers symbolize again the mappings without
 * functions). Memory without a file (//anon) has all it will ever have:
 * it counts as having functions so that readers do not try to open
 * "//anon".
 */
static void mapping_count(struct mapping *m, const struct src_loc *src, size_t n, bool debug)
{
	bool file = n > 0, line = n > 0;
	size_t i;

	m->nr_locs++;
	if (n || m->kind == MAP_NOFILE)
		m->nr_functions++;
	if (debug)
		m->has_inline_frames = true;
	for (i = 0; i < n; i++) {
		if (!src[i].file || !src[i].file[0])
			file = false;
		if (!src[i].line)
			line = false;
	}
	m->nr_filenames += file;
	m->nr_line_numbers += line;
}

static uint64_t location_hash(const struct location_key *k)
{
	const uint64_t words[] = {
		(uintptr_t)k->dso, (uintptr_t)k->sym, (uintptr_t)k->jit,
		k->print_addr, k->elf_addr, k->kind,
	};
	uint64_t h = k->ip * 0x9E3779B97F4A7C15ULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(words); i++) {
		h ^= words[i];
		h *= 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	return h * 0xc4ceb9fe1a85ec53ULL;
}

static uint64_t loc_hash(uint32_t cls, uint64_t ip)
{
	uint64_t h = (ip ^ (uint64_t)cls << 40) * 0x9E3779B97F4A7C15ULL;

	return h ^ h >> 29;
}

static void grow_loc_table(struct pprof_builder *b)
{
	size_t size = b->loc_table_size * 2, mask = size - 1, i;
	uint32_t *table = xcalloc(size, sizeof(*table));

	for (i = 0; i < b->loc_table_size; i++) {
		uint32_t id = b->loc_table[i];
		const struct location *l;
		size_t pos;

		if (!id)
			continue;
		l = loc_at(b, id - 1);
		for (pos = loc_hash(l->cls, l->ip) & mask; table[pos]; pos = (pos + 1) & mask)
			;
		table[pos] = id;
	}
	free(b->loc_table);
	b->loc_table = table;
	b->loc_table_size = size;
}

static uint64_t class_key_hash(const struct loc_class *c)
{
	uint64_t h = ptr_hash(c->sym, c->jit) ^ ptr_hash(c->dso, NULL);

	h ^= (c->print_delta + 3 * c->elf_delta + 5 * c->region + (c->kind << 1 | c->elf_zero)) *
	     0x9E3779B97F4A7C15ULL;
	return h ^ h >> 31;
}

static uint64_t class_hash(const struct pprof_builder *b, size_t i)
{
	return class_key_hash(class_at(b, i));
}

/* The class of key, found or added (its mapping: f's). */
static uint32_t class_id(struct pprof_builder *b, const struct frame *f,
			 const struct location_key *key)
{
	struct loc_class c;
	struct mapping *map;
	size_t mask, pos;
	uint32_t id;

	memset(&c, 0, sizeof(c));
	c.dso = key->dso;
	c.sym = key->sym;
	c.jit = key->jit;
	c.print_delta = key->print_addr - key->ip;
	c.elf_zero = !key->elf_addr;
	c.elf_delta = key->elf_addr ? key->elf_addr - key->ip : 0;
	c.kind = key->kind;
	c.region = frame_region(f);
	if (2 * (b->nr_classes - b->first_class + 1) > b->class_table.size)
		index_table_grow(&b->class_table, b->first_class, b->nr_classes, b, class_hash);
	mask = b->class_table.size - 1;
	for (pos = class_key_hash(&c) & mask; (id = b->class_table.slots[pos]);
	     pos = (pos + 1) & mask)
		if (!memcmp(class_at(b, id - 1), &c, CLASS_KEY_BYTES))
			return id - 1;
	if (b->nr_classes >= UINT32_MAX - 1)
		die("more than 2^32 distinct locations");
	map = frame_mapping(b, f);
	c.map = map ? (uint32_t)map->seq : NO_MAPPING;
	CHUNK_RESERVE(b->class_chunks, b->alloc_class_chunks, b->nr_classes, CLASS_CHUNK_BITS);
	*class_at(b, b->nr_classes) = c;
	b->class_table.slots[pos] = (uint32_t)++b->nr_classes;
	return (uint32_t)b->nr_classes - 1;
}

static uint32_t new_location(struct pprof_builder *b, const struct frame *f, uint32_t cls)
{
	struct src_loc src[SRCLINE_MAX_DEPTH];
	bool debug;
	size_t n = frame_lines(b, f, src, &debug), i;
	struct mapping *map;
	struct location *l;

	if (b->nr_locs >= UINT32_MAX - 1 || b->nr_lines > UINT32_MAX - n)
		die("more than 2^32 distinct locations");
	/* the class's, with the address seen (and a build id, when f has one) */
	map = class_at(b, cls)->map == NO_MAPPING ? NULL : b->map_list[class_at(b, cls)->map];
	if (map)
		mapping_note(b, map, f);
	CHUNK_RESERVE(b->loc_chunks, b->alloc_loc_chunks, b->nr_locs, LOC_CHUNK_BITS);
	l = loc_at(b, b->nr_locs);
	l->ip = f->ip;
	l->cls = cls;
	l->first_line = (uint32_t)b->nr_lines;
	for (i = 0; i < n; i++) {
		struct loc_line *line;

		CHUNK_RESERVE(b->line_chunks, b->alloc_line_chunks, b->nr_lines, LINE_CHUNK_BITS);
		line = line_at(b, b->nr_lines++);
		line->function_id = function_id(b, src[i].function, src[i].file);
		line->line = src[i].line;
		line->column = src[i].column;
	}
	if (map)
		mapping_count(map, src, n, debug);
	return (uint32_t)++b->nr_locs;
}

static uint32_t location_id_slow(struct pprof_builder *b, const struct frame *f,
				 const struct location_key *key)
{
	uint32_t cls = class_id(b, f, key), id;
	size_t mask = b->loc_table_size - 1, pos;

	for (pos = loc_hash(cls, key->ip) & mask; (id = b->loc_table[pos]); pos = (pos + 1) & mask)
		if (loc_at(b, id - 1)->ip == key->ip && loc_at(b, id - 1)->cls == cls)
			return id;
	id = new_location(b, f, cls);
	b->loc_table[pos] = id;
	if (b->nr_locs * 2 > b->loc_table_size)
		grow_loc_table(b);
	return id;
}

/* Whether location id (> 0) is key's: its address, and its class but for the region. */
static bool location_is(const struct pprof_builder *b, uint32_t id, const struct location_key *key)
{
	const struct location *l = loc_at(b, id - 1);
	const struct loc_class *c;

	if (l->ip != key->ip)
		return false;
	c = class_at(b, l->cls);
	return c->dso == key->dso && c->sym == key->sym && c->jit == key->jit &&
	       c->kind == key->kind && c->print_delta == key->print_addr - key->ip &&
	       c->elf_zero == !key->elf_addr &&
	       c->elf_delta == (key->elf_addr ? key->elf_addr - key->ip : 0);
}

/* The id of f's location, fk its key; *last is set to it. */
static uint32_t location_id(struct pprof_builder *b, const struct frame *f,
			    const struct frame_key *fk, struct loc_slot *last)
{
	uint32_t *slot = &b->loc_cache[fk->hash >> (64 - LOC_CACHE_BITS)];

	if (!*slot || !location_is(b, *slot, &fk->key))
		*slot = location_id_slow(b, f, &fk->key);
	last->key = fk->key;
	last->id = *slot;
	return *slot;
}

/*
 * The location ids of rs's frames, leaf first, into b->key. Frames the
 * last sample had at the same depth are answered first, and the cache
 * slots of the others fetched meanwhile; then those are looked up in
 * frame order, the order new locations are numbered in.
 */
static void location_ids(struct pprof_builder *b, const struct resolved_sample *rs)
{
	uint64_t h = rs->thread_id * 0x9E3779B97F4A7C15ULL;
	struct last_frames *lf = &b->last[h >> (64 - LAST_THREAD_BITS)];
	size_t n = rs->nr_frames, i;

	if (lf->thread != rs->thread_id) {
		lf->thread = rs->thread_id;
		lf->nr = 0;
	}
	ALLOC_GROW(lf->slots, n, lf->alloc);
	for (; lf->nr < n; lf->nr++)
		lf->slots[lf->nr].id = 0;
	ALLOC_GROW(b->frame_keys, n, b->alloc_frame_keys);
	for (i = 0; i < n; i++) {
		const struct frame *f = &rs->frames[i];
		const struct loc_slot *last = &lf->slots[n - 1 - i];
		struct frame_key *fk = &b->frame_keys[i];

		memset(&fk->key, 0, sizeof(fk->key));
		fk->key.dso = f->dso;
		fk->key.sym = f->sym;
		fk->key.jit = f->jit;
		fk->key.ip = f->ip;
		fk->key.print_addr = f->print_addr;
		fk->key.elf_addr = f->elf_addr;
		fk->key.kind = f->kind;
		if (last->id && !memcmp(&last->key, &fk->key, sizeof(fk->key))) {
			b->key[i] = last->id;
			continue;
		}
		b->key[i] = 0;
		fk->hash = location_hash(&fk->key);
		__builtin_prefetch(&b->loc_cache[fk->hash >> (64 - LOC_CACHE_BITS)]);
	}
	for (i = 0; i < n; i++)
		if (!b->key[i])
			b->key[i] = location_id(b, &rs->frames[i], &b->frame_keys[i],
						&lf->slots[n - 1 - i]);
}

/* The string index of a thread's comm, remembered for the last one seen. */
static uint32_t comm_index(struct pprof_builder *b, const char *comm)
{
	int64_t index;

	if (comm && comm == b->last_comm)
		return b->last_comm_index;
	index = pprof_builder__str_index(b, comm);
	if (index > UINT32_MAX)
		die("more than 2^32 distinct strings");
	b->last_comm = comm;
	b->last_comm_index = (uint32_t)index;
	return (uint32_t)index;
}

static uint64_t sample_period(const struct pprof_builder *b, const struct sample_facts *smp)
{
	return b->has_period ? smp->period : b->sample_period;
}

/* The string index of a number, for the pid and tid labels. */
static uint32_t number_index(struct pprof_builder *b, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%" PRIu32, v);
	return (uint32_t)pprof_builder__str_index(b, buf);
}

/* The leaf's category and tier labels (string indices, 0: not known). */
static const struct leaf_slot *leaf_labels(struct pprof_builder *b, const struct frame *leaf)
{
	uint64_t h = ((uintptr_t)leaf->sym ^ leaf->kind) * 0x9E3779B97F4A7C15ULL;
	struct leaf_slot *slot = &b->leaf_cache[h >> (64 - LEAF_CACHE_BITS)];
	struct frame_class fc;

	if (slot->sym == leaf->sym && slot->kind == (uint32_t)leaf->kind && leaf->sym)
		return slot;
	frameclass__classify(leaf->kind, leaf->sym, &fc);
	slot->sym = leaf->sym;
	slot->kind = (uint32_t)leaf->kind;
	slot->category = fc.category == FC_UNKNOWN ? 0 :
		(uint32_t)pprof_builder__str_index(b, frame_category__name(fc.category));
	slot->tier = fc.tier ? (uint32_t)pprof_builder__str_index(b, fc.tier) : 0;
	return slot;
}

/* The label values asked for, after the location ids at b->key + n; the new n. */
static size_t add_labels(struct pprof_builder *b, const struct resolved_sample *rs, size_t n)
{
	static const char *const names[PPROF_MAX_LABELS] = { "pid", "tid", "comm", "category", "tier" };
	const bool asked[PPROF_MAX_LABELS] = {
		b->opts.label_pid, b->opts.label_tid, b->opts.label_comm,
		b->opts.label_category, b->opts.label_tier,
	};
	const struct sample_facts *smp = &rs->facts;
	const struct leaf_slot *leaf = NULL;
	size_t i, k = 0;

	/* the label names go into the string table as the first stack is seen */
	if (!b->nr_samples)
		for (i = 0; i < PPROF_MAX_LABELS; i++)
			if (asked[i])
				b->label_keys[k++] = pprof_builder__str_index(b, names[i]);
	if ((b->opts.label_pid || b->opts.label_tid) &&
	    (!b->last_pid_index || smp->pid != b->last_pid || smp->tid != b->last_tid)) {
		b->last_pid = smp->pid;
		b->last_tid = smp->tid;
		b->last_pid_index = number_index(b, smp->pid);
		b->last_tid_index = number_index(b, smp->tid);
	}
	if ((b->opts.label_category || b->opts.label_tier) && rs->nr_frames)
		leaf = leaf_labels(b, &rs->frames[0]);
	if (b->opts.label_pid)
		b->key[n++] = b->last_pid_index;
	if (b->opts.label_tid)
		b->key[n++] = b->last_tid_index;
	if (b->opts.label_comm)
		b->key[n++] = comm_index(b, rs->comm);
	if (b->opts.label_category)
		b->key[n++] = leaf ? leaf->category : 0;
	if (b->opts.label_tier)
		b->key[n++] = leaf ? leaf->tier : 0;
	return n;
}

void pprof_builder__add(struct pprof_builder *b, const struct resolved_sample *rs)
{
	const struct sample_facts *smp = &rs->facts;
	uint64_t period = sample_period(b, smp);
	size_t n;

	ALLOC_GROW(b->key, st_add(rs->nr_frames, PPROF_MAX_LABELS), b->key_alloc);
	location_ids(b, rs);
	n = add_labels(b, rs, rs->nr_frames);
	stack_store__add(b->stacks, rs->thread_id, b->key, n, period);
	b->nr_samples++;
	b->period_sum += period;
	if (smp->has_time) {
		if (!b->have_time || smp->time < b->first_time)
			b->first_time = smp->time;
		if (!b->have_time || smp->time > b->last_time)
			b->last_time = smp->time;
		b->have_time = true;
	}
}
