/*
 * out-pprof-internal: the pprof builder's state, shared by out-pprof.c
 * (samples, locations, functions, mappings and strings as they come) and
 * out-pprof-write.c (the profile, packed as it is written). Not for other
 * modules: out-pprof.h is the interface.
 */
#ifndef JITSYM_OUT_PPROF_INTERNAL_H
#define JITSYM_OUT_PPROF_INTERNAL_H

#include "common/common.h"
#include "output/out-pprof.h"
#include "output/pprof-stacks.h"
#include "resolve/srcline.h"
#include "common/strpool.h"

#include <uthash.h>

#include "profile.pb-c.h"

/*
 * Strings and functions are found by their interned pointers through
 * open-addressing tables of indices + 1 (0: empty), in a power-of-two
 * size at most half full.
 */
struct index_table {
	uint32_t *slots;
	size_t size;
};

/*
 * Mappings are written in this order (and files: programs before
 * libraries, the program with the most locations first), because readers
 * take the first mapping for the main binary.
 */
enum map_kind { MAP_FILE, MAP_JIT, MAP_KERNEL, MAP_NOFILE };

struct mapping {
	UT_hash_handle hh;
	struct {
		const char *name;       /* interned in the builder's pool */
		uint64_t bias;          /* MAP_FILE: address - file offset */
	} key;
	enum map_kind kind;
	bool library;                   /* a shared object, or a [special] file */
	size_t seq;                     /* order first seen */
	/*
	 * [start, limit): the union of the MMAP records its frames were in
	 * (for JIT code: the anonymous mmaps, else the functions' code; a
	 * kernel address without a record: the addresses seen); offset: the
	 * file offset at start, as the record gave it.
	 */
	uint64_t start, limit, offset;
	const char *build_id;           /* hex, interned; NULL: none known */
	/* its locations: how many, and how many with a function, a file, a line */
	uint64_t nr_locs, nr_functions, nr_filenames, nr_line_numbers;
	bool has_inline_frames;
	Perftools__Profiles__Mapping msg;   /* filled in when written */
};

/* A function: id - 1 in the builder's list; a Function message when written. */
struct function {
	const char *name, *file;        /* interned in the builder's pool: the key */
	uint32_t name_index, file_index;   /* in the string table */
};

/*
 * What makes a frame a location: the address, and everything the resolver
 * said about it (an address means other code at other times in JIT memory,
 * and another line as a caller, whose lines are those of ip - 1). The
 * pointers are the session's interned names, only compared, and only
 * while the session runs.
 */
struct location_key {
	const void *dso, *sym, *jit;
	uint64_t ip, print_addr, elf_addr;
	uint64_t kind;
};

/*
 * A location key without its address: the code's identity, and its
 * addresses' offsets from the sampled one (constant through a mapping).
 * A key is a class and an ip, one to one: print_addr = ip + print_delta,
 * elf_addr = ip + elf_delta or 0. The class decides the mapping too
 * (its file and ip - print_addr, or for JIT code and unresolved frames in
 * anonymous memory the mmap), so many locations share one.
 */
struct loc_class {
	const void *dso, *sym, *jit;
	uint64_t print_delta, elf_delta, kind;
	uint64_t region;        /* the start of the anonymous mmap it is in, or 0 */
	uint32_t elf_zero;      /* elf_addr is 0 (not ip-relative) */
	uint32_t map;           /* the mapping's seq, NO_MAPPING: not part of the key */
};
#define CLASS_KEY_BYTES offsetof(struct loc_class, map)
/* An address in no mmap and no JIT code: its locations have no mapping (id 0). */
#define NO_MAPPING UINT32_MAX

/*
 * A location as written: its address, its class, its lines
 * lines[first .. the next location's first); a Location message is made
 * of them only as it is written.
 */
struct location {
	uint64_t ip;
	uint32_t cls;
	uint32_t first_line;
};

struct loc_line {
	uint32_t function_id;
	uint32_t line, column;
};

/*
 * Locations and lines sit in chunks that never move: arrays grown by
 * realloc left holes in the heap as large as themselves.
 */
#define LOC_CHUNK_BITS 12
#define LINE_CHUNK_BITS 14
#define CLASS_CHUNK_BITS 12

/*
 * Location ids by key: an open-addressing table of ids with their hashes,
 * in front of it a direct-mapped cache, and in front of that the frames
 * of the thread's last sample by depth from the root, where a thread's
 * samples most often agree: most frames cost one compare of the key with
 * one in L1, and the cache slots of the others are fetched together. The
 * cache holds ids only (a key would make it 16 times larger, 4 MiB): a
 * slot's location is checked against the key by its address and class.
 */
#define LOC_CACHE_BITS 16
#define LAST_THREAD_BITS 6

struct loc_slot {
	struct location_key key;
	uint32_t id;            /* 0: empty (ids start at 1) */
};


/* The frames of a thread's last sample (any thread's that maps here). */
struct last_frames {
	uintptr_t thread;               /* its resolved_sample's thread_id */
	struct loc_slot *slots;         /* root first */
	size_t nr, alloc;               /* slots[0..nr) are set */
};

/* A frame of the sample being added, while its location is looked up. */
struct frame_key {
	struct location_key key;
	uint64_t hash;
};

/*
 * The distinct stacks with their labels, each a Sample when written, are
 * kept by pprof-stacks.h: keys of the location ids (leaf first) then the
 * label values: the string indices of those asked for (0: none known).
 */
#define PPROF_MAX_LABELS 5
#define LEAF_CACHE_BITS 8

/* The category and tier labels of a leaf, by its kind and name. */
struct leaf_slot {
	const char *sym;        /* interned; NULL: empty slot or unresolved */
	uint32_t kind;
	uint32_t category, tier;   /* string indices, 0: none */
};

struct pprof_builder {
	struct pprof_opts opts;
	struct strpool *pool;
	const char **str_keys;          /* by index: the interned string */
	struct index_table str_table;
	char **strings;
	size_t nr_strings, alloc_strings, alloc_str_keys;
	struct mapping *maps;
	struct mapping **map_list;      /* by seq */
	size_t nr_maps, alloc_map_list;
	struct function **func_chunks;  /* by id - 1, CLASS_CHUNK_BITS a chunk */
	struct index_table func_table;
	size_t nr_funcs, alloc_func_chunks;
	struct location **loc_chunks;   /* by id - 1, LOC_CHUNK_BITS a chunk */
	size_t nr_locs, alloc_loc_chunks;
	struct loc_line **line_chunks;
	size_t nr_lines, alloc_line_chunks;
	uint32_t *loc_table;            /* ids, 0: empty, at most half full */
	size_t loc_table_size;          /* a power of two */
	struct loc_class **class_chunks;   /* CLASS_CHUNK_BITS a chunk */
	size_t nr_classes, alloc_class_chunks;
	struct index_table class_table;   /* classes first_class.. : this session's */
	size_t first_class;
	uint32_t *loc_cache;            /* 1 << LOC_CACHE_BITS ids, 0: empty */
	struct last_frames last[1u << LAST_THREAD_BITS];
	struct frame_key *frame_keys;   /* the sample's, leaf first */
	size_t alloc_frame_keys;
	struct stack_store *stacks;
	uint32_t *key;
	size_t key_alloc;
	size_t nr_labels;               /* label values at the end of each key */
	int64_t label_keys[PPROF_MAX_LABELS];   /* their names' string indices, from the first stack */
	const char *last_comm;          /* the session's pointer */
	uint32_t last_comm_index;
	uint32_t last_pid, last_tid;    /* the last sample's, and their strings' indices */
	uint32_t last_pid_index, last_tid_index;
	struct leaf_slot leaf_cache[1u << LEAF_CACHE_BITS];
	struct srcline_cache *srcline;
	/* the event */
	const char *type, *unit;
	bool freq;
	uint64_t sample_period, sample_freq;
	bool has_period;                /* PERF_SAMPLE_PERIOD */
	/* totals */
	uint64_t nr_samples, period_sum;
	uint64_t first_time, last_time;   /* this session's samples' */
	bool have_time;
	uint64_t duration_before;       /* the earlier sessions' spans, summed */
};

static inline struct function *func_at(const struct pprof_builder *b, size_t i)
{
	return &b->func_chunks[i >> CLASS_CHUNK_BITS][i & ((1u << CLASS_CHUNK_BITS) - 1)];
}

static inline struct loc_class *class_at(const struct pprof_builder *b, size_t i)
{
	return &b->class_chunks[i >> CLASS_CHUNK_BITS][i & ((1u << CLASS_CHUNK_BITS) - 1)];
}

static inline struct location *loc_at(const struct pprof_builder *b, size_t i)
{
	return &b->loc_chunks[i >> LOC_CHUNK_BITS][i & ((1u << LOC_CHUNK_BITS) - 1)];
}

static inline struct loc_line *line_at(const struct pprof_builder *b, size_t i)
{
	return &b->line_chunks[i >> LINE_CHUNK_BITS][i & ((1u << LINE_CHUNK_BITS) - 1)];
}

/* The string table index of s (NULL: ""), added when new. */
int64_t pprof_builder__str_index(struct pprof_builder *b, const char *s);

#endif
