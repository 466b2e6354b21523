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
 * addresses are printed as perf 6.1 prints them in call chains: relative
 * to the mapped file (ip - start + pgoff).
 */
#ifndef JITSYM_OUT_SCRIPT_H
#define JITSYM_OUT_SCRIPT_H

#include <stdio.h>

#include "session.h"

void script__print_sample(FILE *out, const struct resolved_sample *rs);

#endif
