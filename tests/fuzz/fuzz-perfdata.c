/*
 * libFuzzer entry point for the perf.data reader: open the input as a
 * recording (file or pipe mode, either byte order, compressed or not) and
 * walk every record. Messages go to a sink so the fuzzer's output stays
 * readable.
 *
 * Every input is read from memory, as a mapped file is. An input that
 * starts like a pipe-mode recording (magic, then a header size of 16, in
 * either byte order) is read a second time through a real pipe, which
 * takes the reader's other input path: read-ahead buffer, records copied
 * out of it, payloads skipped by reading.
 */
#include "common/common.h"
#include "reader/perfdata.h"

#include <fcntl.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Most a pipe is asked to hold (the default /proc/sys/fs/pipe-max-size). */
#define PIPE_MAX (1u << 20)

static volatile uint64_t sink;

static void quiet(const char *line)
{
	(void)line;
}

static void walk(struct pd_reader *r)
{
	const struct pd_info *info = pd_reader__info(r);
	struct pd_event ev;
	uint64_t sum = 0;
	size_t i;

	while (pd_reader__next(r, &ev) > 0) {
		/* touch what the reader hands out, so ASan sees bad pointers */
		for (i = 0; i < ev.sample.nr_callchain; i++)
			sum += ev.sample.callchain[i];
		if (ev.sample.raw_size)
			sum += ((const uint8_t *)ev.sample.raw_data)[ev.sample.raw_size - 1];
		for (i = 0; ev.sample.user_regs &&
			    i < (size_t)__builtin_popcountll(ev.sample.user_regs_mask); i++)
			sum += ev.sample.user_regs[i];
		if (ev.sample.user_stack_size)
			sum += ev.sample.user_stack[0] +
			       ev.sample.user_stack[ev.sample.user_stack_size - 1];
		if (ev.type == PERF_RECORD_COMM)
			sum += strlen(ev.u.comm.comm);
		else if (ev.type == PERF_RECORD_MMAP || ev.type == PERF_RECORD_MMAP2)
			sum += strlen(ev.u.mmap.filename);
		else if (ev.type == PERF_RECORD_KSYMBOL)
			sum += strlen(ev.u.ksymbol.name);
	}
	for (i = 0; i < pd_reader__nr_attrs(r); i++)
		sum += strlen(pd_reader__attr(r, i)->name);
	for (i = 0; i < info->nr_build_ids; i++)
		sum += strlen(info->build_ids[i].filename);
	if (info->tracing_data_size)
		sum += info->tracing_data[info->tracing_data_size - 1];
	sink += sum;
}

/* Magic, then a header size of 16: a pipe-mode recording. */
static bool pipe_mode(const uint8_t *data, size_t size)
{
	static const uint8_t le[16] = "PERFILE2\x10\0\0\0\0\0\0\0";
	static const uint8_t be[16] = "2ELIFREP\0\0\0\0\0\0\0\x10";

	return size >= 16 && (!memcmp(data, le, 16) || !memcmp(data, be, 16));
}

/* Read the input through a pipe: written whole first, so no thread is needed. */
static void through_pipe(const uint8_t *data, size_t size)
{
	struct pd_reader *r;
	char path[64];
	int fds[2];
	size_t done = 0;

	if (size > PIPE_MAX || pipe2(fds, O_CLOEXEC))
		return;
	if (size > 65536 && fcntl(fds[1], F_SETPIPE_SZ, (int)PIPE_MAX) < 0)
		goto out;
	while (done < size) {
		ssize_t n = write(fds[1], data + done, size - done);

		if (n <= 0)
			goto out;
		done += (size_t)n;
	}
	close(fds[1]);
	fds[1] = -1;
	/* opening the pipe by name gives the reader its own descriptor */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fds[0]);
	r = pd_reader__open(path);
	if (r) {
		walk(r);
		pd_reader__delete(r);
	}
out:
	close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_reader *r;

	msg_set_sink(quiet);
	r = pd_reader__open_buffer(data, size, "fuzz.data");
	if (r) {
		walk(r);
		pd_reader__delete(r);
	}
	if (pipe_mode(data, size))
		through_pipe(data, size);
	return 0;
}
