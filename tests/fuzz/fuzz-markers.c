/*
 * libFuzzer entry point for the marker-file parser (src/timeline/user-markers.c):
 * parse the input as a samply marker file and check what comes out
 * against the contract in user-markers.h: every span ends at or after
 * its start, has a non-empty name of at most USER_MARKER_NAME_MAX bytes
 * without a NUL or a newline, and spans, bad lines and dropped spans
 * together are no more than the lines; the first bad line's number lies
 * within the input. The same bytes are then read back through a file.
 */
#include "common/common.h"
#include "timeline/user-markers.h"
#include "common/strpool.h"

#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                      \
	do {                             \
		if (!(cond))             \
			__builtin_trap(); \
	} while (0)

static void check(const struct user_markers *m, const uint8_t *data, size_t size)
{
	size_t lines = 1, i;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	CHECK(m->nr + m->nr_bad + m->nr_dropped <= lines);
	CHECK(!m->nr_bad == !m->first_bad);
	CHECK(m->first_bad <= lines);
	for (i = 0; i < m->nr; i++) {
		size_t len = strlen(m->v[i].name);

		CHECK(m->v[i].end >= m->v[i].start);
		CHECK(len > 0 && len <= USER_MARKER_NAME_MAX);
		CHECK(!strchr(m->v[i].name, '\n'));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strpool *pool = strpool__new();
	struct user_markers m = { 0 }, again = { 0 };
	char path[] = "/tmp/fuzz-markers-XXXXXX";
	int fd;

	user_markers__parse(&m, (const char *)data, size, pool);
	check(&m, data, size);
	fd = mkstemp(path);
	if (fd >= 0) {
		bool whole = write(fd, data, size) == (ssize_t)size;

		close(fd);
		CHECK(!user_markers__read(&again, path, pool));
		unlink(path);
		if (whole) {
			CHECK(again.nr == m.nr && again.nr_bad == m.nr_bad);
			check(&again, data, size);
		}
	}
	user_markers__release(&again);
	user_markers__release(&m);
	strpool__delete(pool);
	return 0;
}
