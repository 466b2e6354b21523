/*
 * libFuzzer entry point for the perf.data reader: open the input as a
 * recording (file or pipe mode, either byte order, compressed or not) and
 * walk every record. Messages go to a sink so the fuzzer's output stays
 * readable.
 */
#include "common.h"
#include "perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(const char *line)
{
	(void)line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_reader *r;
	struct pd_event ev;
	uint64_t sum = 0;

	msg_set_sink(quiet);
	r = pd_reader__open_buffer(data, size, "fuzz.data");
	if (!r)
		return 0;
	while (pd_reader__next(r, &ev) > 0) {
		uint64_t i;

		/* touch what the reader hands out, so ASan sees bad pointers */
		for (i = 0; i < ev.sample.nr_callchain; i++)
			sum += ev.sample.callchain[i];
		if (ev.type == PERF_RECORD_COMM || ev.type == PERF_RECORD_MMAP ||
		    ev.type == PERF_RECORD_MMAP2)
			sum += strlen(ev.type == PERF_RECORD_COMM ? ev.u.comm.comm : ev.u.mmap.filename);
	}
	pd_reader__delete(r);
	return sum == 42;
}
