/*
 * out-pprof: aggregate samples into a pprof profile (profile.proto,
 * gzipped), the format of go tool pprof, Pyroscope and Parca.
 *
 * Values per sample: "samples/count" and the event's period,
 * "cpu/nanoseconds" for cpu-clock and task-clock, "EVENT/count" otherwise.
 * Labels, those asked for, all strings (profile stores keep string labels):
 * pid, tid, comm (the thread's name at the sample), and of the leaf frame
 * (frameclass.h) its category ("interpreted", "optimized JIT", ...) and
 * its runtime's tier name ("TurboFan", "Tier1"), each where known.
 * Identical stacks (with identical labels) become one Sample with summed
 * values; locations are shared by every stack through the same code, and
 * functions by every location in them, so memory grows with the distinct
 * stacks and addresses, not with the samples.
 *
 * A location carries its frame's sampled address and one Line per source
 * position, innermost (inlined) first, from srcline.h; frames without line
 * information get a Line naming the function only, unresolved ones none.
 * Mappings: one per mapped file and load address, as its MMAP record gave
 * it (memory_start/limit: the record's start and start + len, file_offset
 * its pgoff, the build id), one per jitdump or perf map the JIT frames
 * came from (the anonymous mmaps the code is in, or the code's range),
 * [kernel.kallsyms] (its MMAP record) and each kernel module, one per
 * anonymous mmap offset for unresolved frames there (//anon). An address
 * in no mmap has no mapping (mapping_id 0). has_functions, has_filenames
 * and has_line_numbers say whether every location of the mapping has one.
 */
#ifndef JITSYM_OUT_PPROF_H
#define JITSYM_OUT_PPROF_H

#include <stdbool.h>
#include <stdio.h>

#include "resolve/sample.h"

struct pprof_opts {
	/* --labels pid,tid,comm,category,tier: string labels of each sample */
	bool label_pid, label_tid, label_comm, label_category, label_tier;
	const char *event;   /* the event the samples are of (--event), NULL: the first */
	enum offcpu_mode offcpu;   /* --off-cpu: sample type off-cpu, --on-off-cpu: on-off-cpu (ns) */
};

struct pprof_builder;

/* opts is copied (event must outlive the builder). Never NULL. */
struct pprof_builder *pprof_builder__new(const struct pprof_opts *opts);
void pprof_builder__delete(struct pprof_builder *b);   /* accepts NULL */

/*
 * The event the profile is of, as the command found it in the recording's
 * header (its attr): --event's, else the first.
 */
struct pprof_event {
	const char *name;            /* must outlive the builder */
	bool is_clock;               /* cpu-clock or task-clock: periods in ns */
	bool freq;                   /* sampled at a frequency, sample_freq */
	bool has_period;             /* its sample_type has PERF_SAMPLE_PERIOD */
	uint64_t sample_period, sample_freq;
};

/*
 * The session hooks: start takes the event (NULL when the recording has
 * none of that name: the profile then says no type). add reads
 * only rs (handoff.h): it may run on a second thread; the build ids come
 * from the frames' object views. The source lines of native frames it looks up in the files
 * their object views name (sample.h, srcline.h), filled on the
 * session's thread when the frame was resolved.
 */
void pprof_builder__start(struct pprof_builder *b, const struct pprof_event *ev);
void pprof_builder__add(struct pprof_builder *b, const struct resolved_sample *rs);
/*
 * After the last sample, while the session's object views are still
 * there; with merged recordings after each one's, before the next start.
 */
void pprof_builder__finish(struct pprof_builder *b);
/*
 * Before the start of another recording's session, merged with the ones
 * before (command.h): forget what was keyed by the last one's pointers.
 * Functions, mappings (by file and load bias) and strings are shared;
 * locations are the recording's own (its addresses). The duration is
 * the sum of each recording's span.
 */
void pprof_builder__new_session(struct pprof_builder *b);

/*
 * Write the gzipped profile; 0, or -1 when writing failed (out's error
 * flag is set: input_opts__close_output() reports it).
 */
int pprof_builder__write(struct pprof_builder *b, FILE *out);

#endif
