#include "common/common.h"
#include "common/vfs.h"
#include "timeline/user-markers.h"
#include "common/strpool.h"
#include "common/sbuf.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uthash.h>

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
	char vbuf[VFS_PATH_BUF];
	int fd = open(vfs_path(path, VFS_FILE, vbuf), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
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

/* ---- a recording's marker files ---------------------------------------- */

struct file_seen {
	struct { uint64_t dev, ino; } key;
	UT_hash_handle hh;
};

struct pid_spans {
	uint32_t pid;
	struct user_marker *v;
	size_t nr, alloc;
	bool sorted;
	size_t nr_hits;         /* marker_set__hit()'s spans made */
	size_t open;            /* the index of the open one, when nr_hits */
	UT_hash_handle hh;
};

struct marker_set {
	struct strpool *pool;
	struct file_seen *seen;
	struct pid_spans *by_pid;
	bool any;
};

struct marker_set *marker_set__new(struct strpool *pool)
{
	struct marker_set *ms = xcalloc(1, sizeof(*ms));

	ms->pool = pool;
	return ms;
}

void marker_set__delete(struct marker_set *ms)
{
	struct file_seen *f, *ftmp;
	struct pid_spans *p, *ptmp;

	if (!ms)
		return;
	HASH_ITER(hh, ms->seen, f, ftmp) {
		HASH_DEL(ms->seen, f);
		free(f);
	}
	HASH_ITER(hh, ms->by_pid, p, ptmp) {
		HASH_DEL(ms->by_pid, p);
		free(p->v);
		free(p);
	}
	free(ms);
}

/* Whether the file was read before; remembers it. A file that cannot be stat'ed: no. */
static bool seen_before(struct marker_set *ms, const char *path)
{
	struct file_seen key, *f;
	char vbuf[VFS_PATH_BUF];
	struct stat st;

	if (stat(vfs_path(path, VFS_FILE, vbuf), &st))
		return false;
	memset(&key, 0, sizeof(key));
	key.key.dev = (uint64_t)st.st_dev;
	key.key.ino = (uint64_t)st.st_ino;
	HASH_FIND(hh, ms->seen, &key.key, sizeof(key.key), f);
	if (f)
		return true;
	f = xcalloc(1, sizeof(*f));
	f->key = key.key;
	HASH_ADD(hh, ms->seen, key, sizeof(f->key), f);
	return false;
}

static struct pid_spans *pid_spans(struct marker_set *ms, uint32_t pid)
{
	struct pid_spans *p;

	HASH_FIND(hh, ms->by_pid, &pid, sizeof(pid), p);
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		HASH_ADD(hh, ms->by_pid, pid, sizeof(p->pid), p);
	}
	return p;
}

/* Read path's spans for pid; -1 when it cannot be read. */
static int add_file(struct marker_set *ms, uint32_t pid, const char *path)
{
	struct user_markers um = { 0 };
	struct pid_spans *p;
	const char *source;
	size_t i;

	if (seen_before(ms, path))
		return 0;
	if (user_markers__read(&um, path, ms->pool))
		return -1;
	if (um.nr_bad)
		warning("'%s': %zu line%s not 'START END NAME' with times in ns (the first: line %zu); "
			"left out", path, um.nr_bad, um.nr_bad == 1 ? " is" : "s are", um.first_bad);
	if (um.nr_dropped)
		warning("'%s': more than %u spans; %zu left out", path, USER_MARKERS_MAX,
			um.nr_dropped);
	p = pid_spans(ms, pid);
	source = strpool__intern(ms->pool, path);
	for (i = 0; i < um.nr; i++) {
		ALLOC_GROW(p->v, p->nr + 1, p->alloc);
		p->v[p->nr] = um.v[i];
		p->v[p->nr++].source = source;
	}
	p->sorted = false;
	ms->any |= um.nr > 0;
	user_markers__release(&um);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct marker_names {
	char **v;
	size_t nr, alloc;
};

static void take_name(const char *name, void *arg)
{
	struct marker_names *n = arg;
	uint32_t pid;

	if (user_markers__is_marker_file(name, &pid)) {
		ALLOC_GROW(n->v, n->nr + 1, n->alloc);
		n->v[n->nr++] = xstrdup(name);
	}
}

void marker_set__scan_dir(struct marker_set *ms, const char *dir)
{
	struct marker_names found = { 0 };
	char **names;
	size_t nr, i;

	if (vfs_list_dir(dir, take_name, &found))
		return;
	names = found.v;
	nr = found.nr;
	/* readdir's order is the file system's: read them in name order */
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_name);
	for (i = 0; i < nr; i++) {
		struct sbuf path = SBUF_INIT;
		uint32_t pid;

		user_markers__is_marker_file(names[i], &pid);
		sbuf_addf(&path, "%s/%s", dir, names[i]);
		if (add_file(ms, pid, path.buf))
			warning("'%s': cannot be read (%s)", path.buf, strerror(errno));
		sbuf_release(&path);
		free(names[i]);
	}
	free(names);
}

void marker_set__mapped(struct marker_set *ms, uint32_t pid, const char *path,
			const char *data_dir)
{
	struct sbuf beside = SBUF_INIT;
	const char *base = strrchr(path, '/');

	if (!add_file(ms, pid, path))
		return;
	sbuf_addf(&beside, "%s/%s", data_dir, base ? base + 1 : path);
	if (add_file(ms, pid, beside.buf))
		warning("marker file '%s' of process %" PRIu32 " is neither there nor next to the "
			"recording ('%s'): its spans are not shown", path, pid, beside.buf);
	sbuf_release(&beside);
}

void marker_set__hit(struct marker_set *ms, uint32_t pid, uint64_t time, const char *name)
{
	struct pid_spans *p = pid_spans(ms, pid);
	struct sbuf sb = SBUF_INIT;
	struct user_marker *open;

	if (p->nr_hits) {
		open = &p->v[p->open];
		open->end = time > open->start ? time : open->start;
	}
	sbuf_addf(&sb, "%s %zu", name, ++p->nr_hits);
	ALLOC_GROW(p->v, p->nr + 1, p->alloc);
	p->v[p->nr].start = time;
	p->v[p->nr].end = UINT64_MAX;
	p->v[p->nr].name = strpool__intern(ms->pool, sb.buf);
	p->v[p->nr].source = NULL;
	p->open = p->nr++;
	p->sorted = false;
	ms->any = true;
	sbuf_release(&sb);
}

static int cmp_span(const void *a, const void *b)
{
	const struct user_marker *x = a, *y = b;
	int c;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	c = strcmp(x->name, y->name);
	if (c || x->source == y->source)
		return c;
	return !x->source ? -1 : !y->source ? 1 : strcmp(x->source, y->source);
}

const struct user_marker *marker_set__spans(struct marker_set *ms, uint32_t pid, size_t *nr)
{
	struct pid_spans *p;

	HASH_FIND(hh, ms->by_pid, &pid, sizeof(pid), p);
	if (!p) {
		*nr = 0;
		return NULL;
	}
	if (!p->sorted) {
		size_t i;

		if (p->nr)      /* qsort() wants an array, even of none */
			qsort(p->v, p->nr, sizeof(*p->v), cmp_span);
		p->sorted = true;
		/* the open span of the marks (the only span without a file that is open) moved */
		for (i = 0; p->nr_hits && i < p->nr; i++)
			if (!p->v[i].source && p->v[i].end == UINT64_MAX)
				p->open = i;
	}
	*nr = p->nr;
	return p->v;
}

bool marker_set__any(const struct marker_set *ms)
{
	return ms->any;
}
