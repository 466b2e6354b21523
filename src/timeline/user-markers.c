#include "common/common.h"
#include "timeline/user-markers.h"
#include "common/strpool.h"

#include <fcntl.h>
#include <unistd.h>

/* A decimal u64 at *p, advancing it; false when there is none or it overflows. */
static bool parse_u64(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (s == end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*out = v;
	return true;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool parse_line(const char *s, const char *end, uint64_t *start, uint64_t *stop,
		       const char **name, size_t *name_len)
{
	while (s < end && blank(*s))
		s++;
	if (!parse_u64(&s, end, start) || s == end || !blank(*s))
		return false;
	while (s < end && blank(*s))
		s++;
	if (!parse_u64(&s, end, stop) || s == end || !blank(*s) || *stop < *start)
		return false;
	while (s < end && blank(*s))
		s++;
	while (end > s && (blank(end[-1]) || end[-1] == '\r'))
		end--;
	if (s == end || memchr(s, '\0', (size_t)(end - s)))
		return false;
	*name = s;
	*name_len = (size_t)(end - s);
	return true;
}

void user_markers__parse(struct user_markers *m, const char *text, size_t len,
			 struct strpool *pool)
{
	const char *p = text, *end = text + len;
	size_t line = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		uint64_t start, stop;
		const char *name;
		size_t name_len;

		line++;
		if (eol > p && !(eol - p == 1 && *p == '\r')) {
			if (!parse_line(p, eol, &start, &stop, &name, &name_len)) {
				if (!m->nr_bad++)
					m->first_bad = line;
			} else if (m->nr >= USER_MARKERS_MAX) {
				m->nr_dropped++;
			} else {
				ALLOC_GROW(m->v, m->nr + 1, m->alloc);
				m->v[m->nr].start = start;
				m->v[m->nr].end = stop;
				m->v[m->nr].name = strpool__intern_len(pool, name,
					name_len < USER_MARKER_NAME_MAX ? name_len : USER_MARKER_NAME_MAX);
				m->nr++;
			}
		}
		p = nl ? nl + 1 : end;
	}
}

int user_markers__read(struct user_markers *m, const char *path, struct strpool *pool)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	size_t len = 0, alloc = 1u << 16;
	char *buf;
	bool more = false;

	if (fd < 0)
		return -1;
	/* grown as it fills: a marker file is small, a FIFO says nothing of its size */
	buf = xmalloc(alloc);
	for (;;) {
		ssize_t n;

		if (len == alloc) {
			char c;

			if (alloc == USER_MARKERS_FILE_MAX) {
				more = read(fd, &c, 1) > 0;
				break;
			}
			alloc *= 2;
			buf = xrealloc(buf, alloc);
		}
		n = read(fd, buf + len, alloc - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (more) {
		/* the last line may be cut: leave it out */
		char *nl = memrchr(buf, '\n', len);

		len = nl ? (size_t)(nl - buf) + 1 : 0;
		warning("'%s': more than %u MiB of markers; the rest is not read", path,
			USER_MARKERS_FILE_MAX >> 20);
	}
	user_markers__parse(m, buf, len, pool);
	free(buf);
	return 0;
}

void user_markers__release(struct user_markers *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

bool user_markers__is_marker_file(const char *path, uint32_t *file_pid)
{
	const char *base = strrchr(path, '/'), *p;
	uint64_t pid;
	size_t n;

	base = base ? base + 1 : path;
	if (strncmp(base, "marker-", 7))
		return false;
	p = base + 7;
	if (!parse_u64(&p, p + strlen(p), &pid) || *p != '-' || pid > UINT32_MAX)
		return false;
	n = strlen(p);
	if (n < 5 || strcmp(p + n - 4, ".txt"))
		return false;
	*file_pid = (uint32_t)pid;
	return true;
}
