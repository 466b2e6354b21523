/*
 * out-timeline: the timeline formats, written from a timeline's view
 * (aggregate/timeline.h):
 *  - the Firefox Profiler's processed profile (out-firefox.c): a
 *    process's threads as tracks, categories from the frame
 *    classification with the runtimes' tier names as subcategories;
 *  - speedscope's file format (out-speedscope.c): one sampled profile
 *    per thread, its samples in time order.
 */
#ifndef JITSYM_OUT_TIMELINE_H
#define JITSYM_OUT_TIMELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "aggregate/timeline.h"

struct timeline_meta {
	const char *name;           /* the recording's path, the profile's name */
	const char *command_line;   /* the recorded command line (perf record's), or NULL */
	const char *host;           /* the recording host's name, or NULL */
	const char *perf_version;   /* or NULL */
	const char *arch;           /* or NULL */
	double interval_ms;         /* the sampling interval; 0: not known */
	bool gzip;                  /* deflate the output (gzip format) */
};

/* 0, or -1 when writing failed (out's error flag set, or after error()). */
int timeline__write_firefox(const struct timeline_view *v, const struct timeline_meta *m, FILE *out);
int timeline__write_speedscope(const struct timeline_view *v, const struct timeline_meta *m,
			       FILE *out);

#endif
