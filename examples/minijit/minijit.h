/*
 * minijit: a toy JIT for recording with "perf record -k 1 -g". It
 * generates x86-64 functions at run time, describes them in a jitdump
 * and/or a perf map, and runs them in patterns ("modes") that each make one
 * hard case for a JIT symbolizer. See README.md.
 *
 * Files: minijit.c (command line, main), modes.c (the modes), jit.c (code
 * regions, function table, describing, running), x86-emit.c (machine code),
 * jitdump-writer.c and perfmap-writer.c (the two description formats).
 */
#ifndef MINIJIT_H
#define MINIJIT_H

#include <stdbool.h>

struct mj_jit;

enum mj_describe {
	MJ_DESCRIBE_JITDUMP = 1,
	MJ_DESCRIBE_PERFMAP = 2,
};

struct mj_opts {
	const struct mj_mode *mode;
	unsigned int describe;		/* enum mj_describe bits */
	const char *dir;		/* for jit-PID.dump */
	const char *perfmap_dir;	/* for perf-PID.map */
	bool debug_info;		/* JIT_CODE_DEBUG_INFO before each LOAD */
	double seconds;			/* total run time */
};

/*
 * A mode sets up its functions and runs them for o->seconds. J is open
 * (writers created, nothing loaded). Returns 0, or -1 after printing why.
 */
struct mj_mode {
	const char *name;
	int (*run)(struct mj_jit *j, const struct mj_opts *o);
	const char *help;
};

/* The modes, ended by an entry with a NULL name. */
extern const struct mj_mode mj_modes[];

/* Call once before running a mode. */
void mj_modes_init(void);

#endif
