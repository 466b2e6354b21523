/*
 * perfmap-writer: see perfmap-writer.h.
 */
#define _GNU_SOURCE
#include "perfmap-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { PM_LINE_MAX = 512 };

struct pm_writer {
	int fd;
	char path[PATH_MAX];
};

struct pm_writer *pm_writer_open(const char *dir)
{
	struct pm_writer *w = calloc(1, sizeof(*w));
	int n;

	if (!w)
		return NULL;
	n = snprintf(w->path, sizeof(w->path), "%s/perf-%d.map", dir, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(w->path)) {
		free(w);
		errno = ENAMETOOLONG;
		return NULL;
	}
	w->fd = open(w->path, O_CREAT | O_TRUNC | O_WRONLY | O_APPEND | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		int err = errno;

		free(w);
		errno = err;
		return NULL;
	}
	return w;
}

const char *pm_writer_path(const struct pm_writer *w)
{
	return w->path;
}

static int add_line(struct pm_writer *w, uint64_t addr, uint64_t size,
		    const char *name, bool cut)
{
	char line[PM_LINE_MAX];
	size_t len;
	ssize_t done;
	int n;

	n = snprintf(line, sizeof(line), "%" PRIx64 " %" PRIx64 " %s\n", addr, size, name);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -ENAMETOOLONG;
	len = cut ? (size_t)n / 2 : (size_t)n;
	do
		done = write(w->fd, line, len);
	while (done < 0 && errno == EINTR);
	if (done < 0)
		return -errno;
	return (size_t)done == len ? 0 : -EIO;
}

int pm_writer_add(struct pm_writer *w, uint64_t addr, uint64_t size, const char *name)
{
	return add_line(w, addr, size, name, false);
}

int pm_writer_add_cut(struct pm_writer *w, uint64_t addr, uint64_t size, const char *name)
{
	return add_line(w, addr, size, name, true);
}

void pm_writer_close(struct pm_writer *w)
{
	if (!w)
		return;
	close(w->fd);
	free(w);
}
