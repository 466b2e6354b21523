/*
 * out-script: perf script's default text for each sample, so every
 * consumer of "perf script" output (stackcollapse-perf.pl, speedscope,
 * Firefox Profiler, ...) reads jitsym's unchanged:
 *
 *	comm   tid [cpu]   sec.usec:     period event: 
 *		ADDR SYMBOL+0xOFF (DSO)
 *		...
 *	(blank line)
 *
 * The fields follow each event's sample_type as perf does: [cpu] only with
 * PERF_SAMPLE_CPU, the period only with PERF_SAMPLE_PERIOD. User-space
 * addresses in call chains are printed as perf 6.1 prints them: relative
 * to the mapped file (ip - start + pgoff); a sample without a call chain
 * gets its ip in full on the header line, as perf prints it.
 */
#ifndef JITSYM_OUT_SCRIPT_H
#define JITSYM_OUT_SCRIPT_H

#include <stdio.h>

#include "session.h"

void script__print_sample(FILE *out, const struct resolved_sample *rs);
/* "# key : value" lines for the header and features, as perf script --header. */
void script__print_header(FILE *out, const struct pd_reader *r);

#endif
