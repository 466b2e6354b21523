/*
 * perfdata-print: the recording's header and features as text, in the
 * form perf script --header prints them ("# key : value" lines). Reads
 * only what the reader parsed; called on the session's thread.
 */
#ifndef JITSYM_PERFDATA_PRINT_H
#define JITSYM_PERFDATA_PRINT_H

#include <stdio.h>

#include "reader/perfdata.h"

/* The "# ========" block for r's header, its events and build ids, to out. */
void pd_reader__print_header(FILE *out, const struct pd_reader *r);

#endif
