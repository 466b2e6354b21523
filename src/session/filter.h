/*
 * filter: the --time and --cpu sample filters, parsed and matched as perf
 * script (perf 6.1) does.
 *
 * --time takes "START,END" in seconds[.fraction] of the sample clock
 * (up to 9 fraction digits), either side empty for "no bound"; several
 * ranges are separated by blanks ("1.5,2 3,4"), ascending and apart. Or
 * percent slices of the time between the recording's first and last
 * sample (perf's HEADER_SAMPLE_TIME): "10%/2" (the second tenth), "0%-10%",
 * "50%" (0% to 50%), several joined by commas ("0%-10%,30%-40%"). Bounds
 * are inclusive; a percent range's end is one ns short of the slice's end
 * (but at the last sample), so neighbouring slices do not share a time.
 * A sample with time 0 (no time) is never dropped, as in perf.
 *
 * --cpu takes perf's cpu list: "0-2,4".
 *
 * --pid and --tid take numbers, --comm names, each a comma-separated list
 * (parse_id_list(), parse_str_list()).
 */
#ifndef JITSYM_FILTER_H
#define JITSYM_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One --time range; 0 is no bound (perf's meaning). */
struct time_range {
	uint64_t start, end;
};

/* The most CPUs --cpu can name (perf 6.1's MAX_NR_CPUS). */
#define FILTER_MAX_CPUS 2048

/* Whether a --time argument is in percent (needs the first and last sample times). */
bool time_filter__is_percent(const char *arg);
/*
 * Parse --time arg into *ranges (*nr of them, malloc'd; replaced): percent
 * slices of [first, last]. -1 after error() when arg is not valid.
 */
int time_filter__parse(const char *arg, uint64_t first, uint64_t last,
		       struct time_range **ranges, size_t *nr);
/* Whether a sample at time t is kept (perf_time__ranges_skip_sample's inverse). */
bool time_filter__keep(const struct time_range *ranges, size_t nr, uint64_t t);

/*
 * Parse a --cpu list into a bitmap of FILTER_MAX_CPUS bits (*bits, malloc'd
 * once); -1 after error() on bad input.
 */
int cpu_filter__parse(const char *arg, uint64_t **bits);
struct sample_filter;
struct pd_reader;
struct pd_attr;

/*
 * Check --time and --cpu against the recording once its header is known:
 * the samples of the events kept (event, or all when NULL) must have
 * times and CPUs, the cpus must be the recording machine's, percent
 * slices need the first and last sample time (as perf: HEADER_SAMPLE_TIME,
 * which perf writes at the end of a file; a pipe has none). Then parse
 * --time into *times. -1 after error() when the recording cannot satisfy them.
 */
int filter__setup(const struct sample_filter *f, const struct pd_reader *r,
		  const struct pd_attr *event, struct time_range **times, size_t *nr_times);

/* Parse "1,2,3" (--pid, --tid) into a list of numbers; -1 after error() on bad input. */
int parse_id_list(const char *arg, uint32_t **list, size_t *nr);
/*
 * Split "a,b" (--comm, ...) into strings; all point into one heap copy of
 * arg at (*list)[0].
 */
void parse_str_list(const char *arg, const char ***list, size_t *nr);

static inline bool cpu_filter__keep(const uint64_t *bits, uint32_t cpu)
{
	return cpu < FILTER_MAX_CPUS && (bits[cpu / 64] >> (cpu % 64) & 1);
}

#endif
