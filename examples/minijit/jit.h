/*
 * jit: minijit's code regions, function table and descriptions.
 *
 * A function's life: mj_func_new() takes a table slot (its name and its
 * call cell, whose address JIT callers embed); mj_place() copies code into
 * a writable region; mj_region_exec() makes the region read+exec; then
 * mj_publish() writes the jitdump records and the perf map line, before
 * anything runs the code. Table slots never move, so cells stay valid.
 *
 * Functions returning int return 0, or -1 after printing a message
 * (these are the demo's own helpers, not a library).
 */
#ifndef MINIJIT_JIT_H
#define MINIJIT_JIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "minijit.h"
#include "x86-emit.h"

/* noclone too: no "foo.constprop.0" copies in the profile. */
#ifdef __clang__
#define MJ_NOINLINE __attribute__((noinline))
#else
#define MJ_NOINLINE __attribute__((noinline, noclone))
#endif

enum {
	MJ_MAX_FUNCS = 64,
	MJ_NAME_MAX = 48,
	MJ_CODE_MAX = 1024,	/* bytes per function */
	MJ_CODE_ALIGN = 16,
};

enum mj_state {
	MJ_LOADED,		/* loaded once, still there */
	MJ_MOVED,		/* copied to a new address (JIT_CODE_MOVE) */
	MJ_UNLOADED,		/* another function was loaded over it */
	MJ_REUSED,		/* loaded over an unloaded function */
	MJ_CUT,			/* its LOAD record is cut short */
	MJ_INHERITED,		/* loaded by the parent before fork() */
};

struct mj_func {
	char name[MJ_NAME_MAX];
	uint64_t entry;		/* call cell: current address, 0 before mj_place */
	uint64_t size;
	uint64_t index;		/* jitdump code_index, 0 without a jitdump */
	uint64_t old_entry;	/* MJ_MOVED: where it was first */
	const struct mj_func *peer; /* MJ_UNLOADED: loaded over it; MJ_REUSED: replaced */
	pid_t owner;		/* process that loaded it */
	pid_t tid;		/* thread that loaded it */
	enum mj_state state;
};

/* Generated code before it is placed. */
struct mj_code {
	uint8_t bytes[MJ_CODE_MAX];
	size_t len;
};

/*
 * Memory for code, [base, base + size), filled from the start. A region
 * from mj_region_map sits between two PROT_NONE guard pages so that the
 * kernel never merges it with a neighbour; one from mj_region_carve is a
 * piece of a larger PROT_NONE reservation and merges with its neighbours
 * on purpose.
 */
struct mj_region {
	uint8_t *map;		/* whole mapping to unmap; NULL for a carved region */
	size_t map_len;
	uint8_t *base;
	size_t size;
	size_t used;
};

struct mj_jit {
	const struct mj_opts *opts;
	struct jd_writer *jd;	/* NULL: no jitdump */
	struct pm_writer *pm;	/* NULL: no perf map */
	bool cut;		/* a record was cut: exit without closing */
	pthread_mutex_t lock;	/* guards nfuncs */
	size_t nfuncs;
	struct mj_func funcs[MJ_MAX_FUNCS];
};

/* Print "minijit[PID]: MESSAGE" to stderr and return -1. */
int mj_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, as information; returns nothing. */
void mj_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An empty table for options O (kept, not copied); no writers yet. */
void mj_jit_init(struct mj_jit *j, const struct mj_opts *o);
/* Open the writers the options ask for, for the calling process, and say where they are. */
int mj_jit_open(struct mj_jit *j);
/* Write JIT_CODE_CLOSE and close the writers. */
int mj_jit_close(struct mj_jit *j);
/* Drop the writers without writing to them (after fork, or after a cut record). */
void mj_jit_forget(struct mj_jit *j);

/* Take a table slot named NAME (state MJ_LOADED, owner and tid the caller). NULL after printing why. */
struct mj_func *mj_func_new(struct mj_jit *j, const char *name);

int mj_code_leaf(struct mj_code *c, const struct x86_leaf *spec);
int mj_code_caller(struct mj_code *c, const struct x86_caller *spec);

int mj_region_map(struct mj_region *r, size_t size);
/* BASE must be page-aligned inside a PROT_NONE reservation; makes [BASE, BASE + SIZE) read-write. */
int mj_region_carve(struct mj_region *r, uint8_t *base, size_t size);
int mj_region_write(struct mj_region *r);	/* read+write */
int mj_region_exec(struct mj_region *r);	/* read+exec */
void mj_region_unmap(struct mj_region *r);

/* Copy C to the next aligned spot in writable R; it becomes F's code (entry, size). */
int mj_place(struct mj_region *r, struct mj_func *f, const struct mj_code *c);
/* Copy C to ADDR, inside writable memory; it becomes F's code. */
void mj_place_at(uint64_t addr, struct mj_func *f, const struct mj_code *c);

/* Describe F: JIT_CODE_DEBUG_INFO (with --debug-info), JIT_CODE_LOAD, perf map line. */
int mj_publish(struct mj_jit *j, struct mj_func *f);
/* Describe F only in the writers named by WHERE (enum mj_describe bits), if open. */
int mj_publish_only(struct mj_jit *j, struct mj_func *f, unsigned int where);
/* Like mj_publish, with the LOAD record and the perf map line cut in half; sets j->cut. */
int mj_publish_cut(struct mj_jit *j, struct mj_func *f);
/* Describe F's move from F->old_entry to F->entry: JIT_CODE_MOVE, perf map line. */
int mj_publish_move(struct mj_jit *j, struct mj_func *f);

/* Call F's code at its current address. */
uint64_t mj_call(const struct mj_func *f, uint64_t x);
/* Call each of FS in turn (x = f(x)) until SECONDS have passed. Returns the number of calls. */
unsigned long mj_run_for(struct mj_func *const *fs, size_t n, double seconds);

/* Print one line per function in the table. */
void mj_print_funcs(const struct mj_jit *j);

#endif
