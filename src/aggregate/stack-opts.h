/*
 * stack-opts: which stacks a profile counts and how it weighs them, the
 * options fold, flamegraph, diff, report and tiers share (--include-pid,
 * --include-tid, --no-kernel, --weight). The command line fills one
 * (command.h's struct command_opts) and each command copies it by value
 * into its writer's or aggregator's options; a writer reads only the
 * fields it has options for. All false: count samples of every frame,
 * the process labelled by its name alone.
 */
#ifndef JITSYM_STACK_OPTS_H
#define JITSYM_STACK_OPTS_H

#include <stdbool.h>

struct stack_opts {
	bool include_pid, include_tid;  /* the process label: comm-PID, comm-PID/TID */
	bool no_kernel;                 /* leave kernel frames out */
	bool weight_period;             /* sum sample periods rather than count samples */
};

#endif
