/*
 * explain: the silent cases. After a run that read its recording fine,
 * one warning line for each reason its output is empty or partial that
 * the user may not see from the output: no samples at all (or, with
 * --off-cpu, no thread that left the CPU and ran again), --event naming
 * an event without samples, other events left out when only the first is
 * used, filters (--pid, --tid, --comm, --time, --cpu) that matched no
 * sample, named with what the samples held instead, and (for commands
 * that write whole stacks) events recorded without call chains. The exit
 * status stays 0, as perf's: the recording was read.
 *
 * The session counts what its filters did (struct session_tally) as it
 * runs; this reads the counts at the end. Runs on the session's thread.
 */
#ifndef JITSYM_EXPLAIN_H
#define JITSYM_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pd_attr;
struct pd_reader;
struct session_opts;

/* The comms a --comm that matched nothing names at most. */
#define MAX_SEEN_COMMS 5

/* What the filters did, for the warnings at the end of a run (explain__silent_cases()). */
struct session_tally {
	uint64_t samples;             /* every sample read */
	uint64_t *read, *kept;        /* per attr index: samples read, and kept */
	size_t alloc_read, alloc_kept;
	uint64_t of_event;            /* samples of the kept event(s) */
	uint64_t nr_kept;             /* samples passed to the command */
	/* of those, the ones each filter alone keeps */
	uint64_t pid_ok, tid_ok, comm_ok, time_ok, cpu_ok;
	uint64_t first_time, last_time;     /* of the samples of the kept event(s) */
	const char *comms[MAX_SEEN_COMMS];  /* the first comms seen (--comm only) */
	size_t nr_comms;
	bool more_comms;
};

/* What the warnings read of a run; all borrowed. */
struct explain_run {
	const struct session_opts *opts;
	const struct pd_reader *reader;
	const struct pd_attr *event;        /* the event kept, or NULL for all */
	const struct session_tally *tally;
};

/* The warnings above, each on its own line (msg.h), for a run that read fine. */
void explain__silent_cases(const struct explain_run *s);

#endif
