/*
 * modes: what minijit generates and runs. Each mode makes one hard case
 * for a JIT symbolizer; README.md says what perf makes of each.
 *
 * Function shapes (x86-emit.h): a "leaf" loops on arithmetic; a "caller"
 * loops on its own arithmetic and calls its cells, which hold the address
 * of a JIT function or of native_callback. So stacks run
 * main -> mj_run_for -> JIT -> JIT -> JIT leaf or -> native_callback.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jit.h"

/*
 * gcc builds no frame in a leaf function that needs no stack, even with
 * -fno-omit-frame-pointer, and a frame-pointer unwinder then loses the
 * caller (here: the JIT function that called). Asking for the frame
 * address makes gcc build it.
 */
#define KEEP_FRAME() __asm__ volatile("" : : "r"(__builtin_frame_address(0)))

/* CELLS(a, b): the cells array and its length, for add_caller. */
#define CELLS(...) \
	(const uint64_t *const[]){ __VA_ARGS__ }, \
	sizeof((const uint64_t *const[]){ __VA_ARGS__ }) / sizeof(const uint64_t *)

enum {
	LEAF_ITERS = 40000,	/* rounds per leaf block, about 70 us */
	SELF_ITERS = 20000,	/* rounds of a caller's own loop */
	CALLBACK_ROUNDS = 30000,
	REGION_SIZE = 4096,
	CO_CHUNKS = 4,		/* coalesce: code cache growth steps */
	CO_CHUNK = 16384,	/* bytes per step, a multiple of the page size */
	NR_THREADS = 3,
};

/* ---- native code that JIT code calls ---- */

static MJ_NOINLINE uint64_t native_callback(uint64_t x)
{
	unsigned int i;

	KEEP_FRAME();
	for (i = 0; i < CALLBACK_ROUNDS; i++)
		x = (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9u + i;
	return x;
}

/* The cell JIT callers go through to reach native_callback. */
static uint64_t native_cell;

/* ---- building functions ---- */

/* A leaf of BLOCKS loops of ITERS rounds; SEED varies the constants. */
static struct mj_func *add_leaf(struct mj_jit *j, struct mj_region *r,
				const char *name, unsigned int blocks,
				uint32_t iters, uint32_t seed)
{
	const struct x86_leaf spec = {
		.iters = iters,
		.mul = (int32_t)(0x5bd1e995u + 2 * seed),
		.add = (int32_t)(0x1b873593u + seed),
		.blocks = blocks,
	};
	struct mj_func *f = mj_func_new(j, name);
	struct mj_code c;

	if (!f || mj_code_leaf(&c, &spec) || mj_place(r, f, &c))
		return NULL;
	return f;
}

/* A caller that REPS times runs its own loop and calls each of the N CELLS. */
static struct mj_func *add_caller(struct mj_jit *j, struct mj_region *r,
				  const char *name, uint32_t reps,
				  const uint64_t *const *cells, size_t n)
{
	const struct x86_caller spec = {
		.cells = cells,
		.ncells = n,
		.reps = reps,
		.self_iters = SELF_ITERS,
		.mul = 0x27d4eb2f,
	};
	struct mj_func *f = mj_func_new(j, name);
	struct mj_code c;

	if (!f || mj_code_caller(&c, &spec) || mj_place(r, f, &c))
		return NULL;
	return f;
}

static int publish_all(struct mj_jit *j, struct mj_func *const *fs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (mj_publish(j, fs[i]))
			return -1;
	return 0;
}

/* ---- basic: several functions in one region ---- */

static int mode_basic(struct mj_jit *j, const struct mj_opts *o)
{
	struct mj_func *leaf, *mid, *outer, *solo;
	struct mj_region r;
	int ret = -1;

	if (mj_region_map(&r, REGION_SIZE))
		return -1;
	if (!(leaf = add_leaf(j, &r, "mj:basic_leaf", 1, LEAF_ITERS, 1)) ||
	    !(mid = add_caller(j, &r, "mj:basic_mid", 4,
			       CELLS(&leaf->entry, &native_cell))) ||
	    !(outer = add_caller(j, &r, "mj:basic_outer", 2, CELLS(&mid->entry))) ||
	    !(solo = add_leaf(j, &r, "mj:basic_solo", 4, 2 * LEAF_ITERS, 2)))
		goto out;
	if (mj_region_exec(&r) ||
	    publish_all(j, (struct mj_func *[]){ leaf, mid, outer, solo }, 4))
		goto out;
	mj_run_for((struct mj_func *[]){ outer, solo }, 2, o->seconds);
	ret = 0;
out:
	mj_region_unmap(&r);
	return ret;
}

/* ---- coalesce: the code cache grows into adjacent memory ---- */

/*
 * Load chunk I's leaf and outer (which also calls PREV, the leaf of chunk
 * I - 1, or native code for chunk 0). The chunk becomes executable next to
 * the executable chunk before it, and the kernel merges the two mappings:
 * perf records an //anon MMAP2 for the merged range, later than the
 * JIT_CODE_LOAD records of every earlier chunk.
 */
static struct mj_func *coalesce_chunk(struct mj_jit *j, uint8_t *base,
				      unsigned int i, struct mj_func **leafp)
{
	const uint64_t *prev = *leafp ? &(*leafp)->entry : &native_cell;
	struct mj_func *leaf, *outer;
	struct mj_region r;
	char name[MJ_NAME_MAX];

	if (mj_region_carve(&r, base, CO_CHUNK))
		return NULL;
	snprintf(name, sizeof(name), "mj:co%u_leaf", i);
	if (!(leaf = add_leaf(j, &r, name, 1, LEAF_ITERS, 10 + i)))
		return NULL;
	snprintf(name, sizeof(name), "mj:co%u_outer", i);
	if (!(outer = add_caller(j, &r, name, 2, CELLS(&leaf->entry, prev))))
		return NULL;
	if (mj_region_exec(&r) ||
	    publish_all(j, (struct mj_func *[]){ leaf, outer }, 2))
		return NULL;
	*leafp = leaf;
	return outer;
}

static int mode_coalesce(struct mj_jit *j, const struct mj_opts *o)
{
	/* One PROT_NONE chunk before and after keeps other mappings away. */
	size_t len = (CO_CHUNKS + 2) * (size_t)CO_CHUNK;
	struct mj_func *outers[CO_CHUNKS], *leaf = NULL;
	uint8_t *res;
	unsigned int i;
	int ret = -1;

	res = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	if (res == MAP_FAILED)
		return mj_error("cannot reserve %zu bytes: %s", len, strerror(errno));
	for (i = 0; i < CO_CHUNKS; i++) {
		outers[i] = coalesce_chunk(j, res + (i + 1) * (size_t)CO_CHUNK, i, &leaf);
		if (!outers[i])
			goto out;
		/* Keep running the older chunks' code after the merge too. */
		mj_run_for(outers, i + 1, o->seconds / CO_CHUNKS);
	}
	ret = 0;
out:
	munmap(res, len);
	return ret;
}

/* ---- reuse: a function is unloaded and another loaded at its address ---- */

/* reuse_outer calls whatever is at the slot: first reuse_a, then reuse_b. */
static uint64_t reuse_slot;

/* Write a leaf named NAME over the slot (the region is writable). */
static struct mj_func *reuse_load(struct mj_jit *j, const char *name,
				  unsigned int blocks, uint32_t seed)
{
	const struct x86_leaf spec = {
		.iters = LEAF_ITERS, .mul = (int32_t)(0x68e31da5u + 2 * seed),
		.add = (int32_t)seed, .blocks = blocks,
	};
	struct mj_func *f = mj_func_new(j, name);
	struct mj_code c;

	if (!f || mj_code_leaf(&c, &spec))
		return NULL;
	mj_place_at(reuse_slot, f, &c);
	return f;
}

static int mode_reuse(struct mj_jit *j, const struct mj_opts *o)
{
	struct mj_func *outer, *a, *b;
	struct mj_region r;
	int ret = -1;

	/* Page 0: reuse_outer; page 1: the slot. */
	if (mj_region_map(&r, 2 * REGION_SIZE))
		return -1;
	reuse_slot = (uint64_t)(uintptr_t)(r.base + r.size / 2);
	if (!(a = reuse_load(j, "mj:reuse_a", 1, 1)) ||
	    !(outer = add_caller(j, &r, "mj:reuse_outer", 4,
				 CELLS(&reuse_slot, &native_cell))))
		goto out;
	if (mj_region_exec(&r) || publish_all(j, (struct mj_func *[]){ a, outer }, 2))
		goto out;
	mj_run_for(&outer, 1, o->seconds / 2);

	/* Unload reuse_a; load reuse_b, three times as long, at its address. */
	if (mj_region_write(&r) || !(b = reuse_load(j, "mj:reuse_b", 3, 2)) ||
	    mj_region_exec(&r) || mj_publish(j, b))
		goto out;
	a->state = MJ_UNLOADED;
	a->peer = b;
	b->state = MJ_REUSED;
	b->peer = a;
	mj_run_for(&outer, 1, o->seconds / 2);
	ret = 0;
out:
	mj_region_unmap(&r);
	return ret;
}

/* ---- move: a function's code moves to a new address ---- */

/* Copy F's code into writable DST, make DST executable and describe the move. */
static int move_func(struct mj_jit *j, struct mj_func *f, struct mj_region *dst)
{
	struct mj_code c;

	memcpy(c.bytes, (const void *)(uintptr_t)f->entry, (size_t)f->size);
	c.len = (size_t)f->size;
	f->old_entry = f->entry;
	if (mj_place(dst, f, &c) || mj_region_exec(dst))
		return -1;
	f->state = MJ_MOVED;
	return mj_publish_move(j, f);
}

static int mode_move(struct mj_jit *j, const struct mj_opts *o)
{
	struct mj_region from, to = { 0 };
	struct mj_func *inner, *outer;
	int ret = -1;

	if (mj_region_map(&from, REGION_SIZE))
		return -1;
	if (!(inner = add_leaf(j, &from, "mj:move_inner", 2, LEAF_ITERS, 20)) ||
	    !(outer = add_caller(j, &from, "mj:move_outer", 4,
				 CELLS(&inner->entry, &native_cell))))
		goto out;
	if (mj_region_exec(&from) ||
	    publish_all(j, (struct mj_func *[]){ inner, outer }, 2))
		goto out;
	mj_run_for(&outer, 1, o->seconds / 2);

	if (mj_region_map(&to, REGION_SIZE) || move_func(j, inner, &to))
		goto out;
	/* The old copy becomes int3s: running it now would trap. */
	if (mj_region_write(&from))
		goto out;
	memset((void *)(uintptr_t)inner->old_entry, 0xcc, (size_t)inner->size);
	if (mj_region_exec(&from))
		goto out;
	mj_run_for(&outer, 1, o->seconds / 2);
	ret = 0;
out:
	mj_region_unmap(&to);
	mj_region_unmap(&from);
	return ret;
}

/* ---- threads: each thread loads and runs its own functions ---- */

struct worker {
	struct mj_jit *j;
	const struct mj_func *shared;	/* a leaf every thread calls */
	unsigned int k;
	double seconds;
	pthread_t thread;
	int ret;
};

/* In thread K: load mj:thrK_leaf and mj:thrK_outer (LOAD records carry this tid) and run them. */
static int worker_run(struct worker *w)
{
	struct mj_func *leaf, *outer;
	struct mj_region r;
	char name[MJ_NAME_MAX];
	int ret = -1;

	if (mj_region_map(&r, REGION_SIZE))
		return -1;
	snprintf(name, sizeof(name), "mj:thr%u_leaf", w->k);
	if (!(leaf = add_leaf(w->j, &r, name, 1, LEAF_ITERS, 30 + w->k)))
		goto out;
	snprintf(name, sizeof(name), "mj:thr%u_outer", w->k);
	if (!(outer = add_caller(w->j, &r, name, 2,
				 CELLS(&leaf->entry, &w->shared->entry))))
		goto out;
	if (mj_region_exec(&r) ||
	    publish_all(w->j, (struct mj_func *[]){ leaf, outer }, 2))
		goto out;
	mj_run_for(&outer, 1, w->seconds);
	ret = 0;
out:
	mj_region_unmap(&r);
	return ret;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	char name[16];

	snprintf(name, sizeof(name), "minijit-t%u", w->k);
	pthread_setname_np(pthread_self(), name);
	w->ret = worker_run(w);
	return NULL;
}

static int mode_threads(struct mj_jit *j, const struct mj_opts *o)
{
	struct worker w[NR_THREADS];
	struct mj_func *shared;
	struct mj_region r;
	unsigned int k, started = 1;
	int ret = -1, err;

	if (mj_region_map(&r, REGION_SIZE))
		return -1;
	if (!(shared = add_leaf(j, &r, "mj:thr_shared", 1, LEAF_ITERS, 40)) ||
	    mj_region_exec(&r) || mj_publish(j, shared))
		goto out;
	for (k = 0; k < NR_THREADS; k++)
		w[k] = (struct worker){ .j = j, .shared = shared, .k = k,
					.seconds = o->seconds };
	/* Thread 0 is this one, keeping the process's comm. */
	for (; started < NR_THREADS; started++) {
		err = pthread_create(&w[started].thread, NULL, worker_main, &w[started]);
		if (err) {
			mj_error("cannot create a thread: %s", strerror(err));
			break;
		}
	}
	ret = started == NR_THREADS ? worker_run(&w[0]) : -1;
	for (k = 1; k < started; k++) {
		pthread_join(w[k].thread, NULL);
		if (w[k].ret)
			ret = -1;
	}
out:
	mj_region_unmap(&r);
	return ret;
}

/* ---- fork: the child runs inherited JIT code and JITs its own ---- */

/*
 * In the child: leave the parent's jitdump and perf map alone (they
 * describe the parent), start jit-CHILD.dump / perf-CHILD.map, load
 * mj:fork_child_*, run them and the inherited mj:fork_parent_outer, and
 * exit. mj:fork_child_outer calls the inherited mj:fork_parent_leaf.
 */
static int fork_child(struct mj_jit *j, struct mj_func *pouter,
		      struct mj_func *pleaf, double seconds)
{
	struct mj_func *leaf, *outer;
	struct mj_region r;
	size_t i;

	mj_jit_forget(j);
	for (i = 0; i < j->nfuncs; i++)
		j->funcs[i].state = MJ_INHERITED;
	mj_say("forked from %d", (int)getppid());
	if (mj_jit_open(j) || mj_region_map(&r, REGION_SIZE))
		return -1;
	if (!(leaf = add_leaf(j, &r, "mj:fork_child_leaf", 1, LEAF_ITERS, 50)) ||
	    !(outer = add_caller(j, &r, "mj:fork_child_outer", 2,
				 CELLS(&leaf->entry, &pleaf->entry))) ||
	    mj_region_exec(&r) ||
	    publish_all(j, (struct mj_func *[]){ leaf, outer }, 2))
		return -1;
	mj_run_for((struct mj_func *[]){ outer, pouter }, 2, seconds);
	mj_print_funcs(j);
	mj_region_unmap(&r);
	if (mj_jit_close(j))
		return -1;
	mj_say("done");
	return 0;
}

static int wait_child(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return mj_error("cannot wait for %d: %s", (int)pid, strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return mj_error("child %d failed (status 0x%x)", (int)pid, status);
	return 0;
}

static int mode_fork(struct mj_jit *j, const struct mj_opts *o)
{
	struct mj_func *leaf, *outer;
	struct mj_region r;
	pid_t pid;
	int ret = -1;

	if (mj_region_map(&r, REGION_SIZE))
		return -1;
	if (!(leaf = add_leaf(j, &r, "mj:fork_parent_leaf", 1, LEAF_ITERS, 60)) ||
	    !(outer = add_caller(j, &r, "mj:fork_parent_outer", 2,
				 CELLS(&leaf->entry, &native_cell))) ||
	    mj_region_exec(&r) ||
	    publish_all(j, (struct mj_func *[]){ leaf, outer }, 2))
		goto out;
	mj_run_for(&outer, 1, o->seconds / 3);
	pid = fork();
	if (pid < 0) {
		mj_error("cannot fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0)
		_exit(fork_child(j, outer, leaf, o->seconds * 2 / 3) ? 1 : 0);
	mj_say("forked %d", (int)pid);
	mj_run_for(&outer, 1, o->seconds * 2 / 3);
	ret = wait_child(pid);
out:
	mj_region_unmap(&r);
	return ret;
}

/* ---- truncate: the runtime dies while writing its last record ---- */

static int mode_truncate(struct mj_jit *j, const struct mj_opts *o)
{
	struct mj_func *leaf, *outer, *lost;
	struct mj_region r;

	/* Not unmapped: the process ends as if killed. */
	if (mj_region_map(&r, REGION_SIZE))
		return -1;
	if (!(leaf = add_leaf(j, &r, "mj:trunc_leaf", 1, LEAF_ITERS, 70)) ||
	    !(outer = add_caller(j, &r, "mj:trunc_outer", 4,
				 CELLS(&leaf->entry, &native_cell))) ||
	    !(lost = add_leaf(j, &r, "mj:trunc_lost", 2, LEAF_ITERS, 71)) ||
	    mj_region_exec(&r) ||
	    publish_all(j, (struct mj_func *[]){ leaf, outer }, 2))
		return -1;
	mj_run_for(&outer, 1, o->seconds);
	/* mj:trunc_lost never runs; only half its LOAD record is written. */
	return mj_publish_cut(j, lost);
}

/* ---- mixed: one process, some code only in the jitdump, some only in the perf map ---- */

static int mode_mixed(struct mj_jit *j, const struct mj_opts *o)
{
	struct mj_func *dumped, *mapped, *outer;
	struct mj_region r;
	int ret = -1;

	if (mj_region_map(&r, REGION_SIZE))
		return -1;
	if (!(dumped = add_leaf(j, &r, "mj:mixed_dumped", 1, LEAF_ITERS, 80)) ||
	    !(mapped = add_leaf(j, &r, "mj:mixed_mapped", 1, LEAF_ITERS, 81)) ||
	    !(outer = add_caller(j, &r, "mj:mixed_outer", 2,
				 CELLS(&dumped->entry, &mapped->entry))))
		goto out;
	if (mj_region_exec(&r) ||
	    mj_publish_only(j, dumped, MJ_DESCRIBE_JITDUMP) ||
	    mj_publish_only(j, mapped, MJ_DESCRIBE_PERFMAP) ||
	    mj_publish(j, outer))
		goto out;
	mj_run_for(&outer, 1, o->seconds);
	ret = 0;
out:
	mj_region_unmap(&r);
	return ret;
}

/* ---- flush: LuaJIT's jit.flush() storm, traces reusing addresses ---- */

enum {
	FL_ROUNDS = 8,		/* flushes */
	FL_TRACES = 3,		/* traces per flush */
};

static double mono_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Flush: unmap the whole area and map it afresh at the same address. */
static int flush_area(struct mj_region *r)
{
	uint8_t *map = r->map;

	if (munmap(map, r->map_len) ||
	    mmap(map, r->map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED,
		 -1, 0) == MAP_FAILED)
		return mj_error("cannot map the area again at %p: %s", (void *)map, strerror(errno));
	r->used = 0;
	return mj_region_write(r);
}

/*
 * One trace as LuaJIT makes it: the area made writable, the code written,
 * the area made executable again (the kernel reports an exec mmap), then
 * its perf-map line; then it runs, and minijit says when.
 */
static int flush_trace(struct mj_jit *j, struct mj_region *r, unsigned int round,
		       unsigned int trace, double seconds)
{
	char name[MJ_NAME_MAX];
	struct mj_func *f;
	double t0;

	snprintf(name, sizeof(name), "TRACE_%u::flush.lua:%u", trace + 1, 10 * round + trace);
	if (mj_region_write(r) ||
	    !(f = add_leaf(j, r, name, 1 + (round + trace) % 3, LEAF_ITERS, 40 + round)) ||
	    mj_region_exec(r) || mj_publish(j, f))
		return -1;
	t0 = mono_sec();
	mj_run_for(&f, 1, seconds);
	mj_say("ran %s at %#llx from %.6f to %.6f", name, (unsigned long long)f->entry, t0,
	       mono_sec());
	return 0;
}

static int mode_flush(struct mj_jit *j, const struct mj_opts *o)
{
	double each = o->seconds / (FL_ROUNDS * FL_TRACES);
	unsigned int round, trace;
	struct mj_region r;
	int ret = -1;

	if (mj_region_map(&r, REGION_SIZE))
		return -1;
	for (round = 0; round < FL_ROUNDS; round++) {
		if (round && flush_area(&r))
			goto out;
		/* each flush starts its traces a little further in: every address is reused */
		r.used = 48 * (round % 4);
		for (trace = 0; trace < FL_TRACES; trace++)
			if (flush_trace(j, &r, round, trace, each))
				goto out;
	}
	ret = 0;
out:
	mj_region_unmap(&r);
	return ret;
}

const struct mj_mode mj_modes[] = {
	{ "basic", mode_basic, "a few functions in one code region" },
	{ "coalesce", mode_coalesce,
	  "the code cache grows into adjacent memory; the kernel merges the mappings" },
	{ "reuse", mode_reuse, "a function is unloaded and another loaded at its address" },
	{ "move", mode_move, "a function's code moves (JIT_CODE_MOVE)" },
	{ "threads", mode_threads, "threads load and run their own functions" },
	{ "fork", mode_fork, "a child runs inherited JIT code and describes its own" },
	{ "truncate", mode_truncate, "the jitdump ends in the middle of a record" },
	{ "flush", mode_flush,
	  "LuaJIT's jit.flush(): traces at reused addresses, an exec mmap each (--describe=perfmap)" },
	{ "mixed", mode_mixed,
	  "some code only in the jitdump, some only in the perf map (use --describe=both)" },
	{ NULL, NULL, NULL },
};

/* Set up what modes need before any of them runs. */
void mj_modes_init(void)
{
	native_cell = (uint64_t)(uintptr_t)native_callback;
}
