#include "common/common.h"
#include "resolve/dwarf-cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#else
#include <zlib.h>
#endif

/*
 * An entry: the header, the section table, then each section's bytes at
 * an offset aligned to DATA_ALIGN. Host byte order: the order mark tells a
 * file of another machine's, which is refused like any damaged entry.
 */
#define MAGIC "JSYMDWC"            /* with its NUL: 8 bytes */
#define ENTRY_VERSION 1u
#define ORDER_MARK 0x01020304u
#define DATA_ALIGN 64u
#define BUILD_ID_MAX 32u

struct header {
	char magic[8];
	uint32_t version, order;
	uint32_t nr, bid_len;
	uint8_t bid[BUILD_ID_MAX];
	uint64_t size;                  /* of the whole file */
};

struct table_row {
	char name[DWARF_CACHE_NAME_MAX];
	uint64_t offset, size;
	uint32_t adler, reserved;
};

struct dwarf_cache_map {
	void *base;
	size_t len;
	struct dwarf_cache_section secs[DWARF_CACHE_MAX_SECTIONS];
	size_t nr;
	bool used;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool chosen;
static char *dir;                   /* DIR/dwarf, or NULL: off */
static struct dwarf_cache_stats stats;

static uint32_t checksum(const void *p, uint64_t n)
{
#ifdef HAVE_LIBDEFLATE
	return libdeflate_adler32(1, p, n);
#else
	uLong a = adler32(0L, Z_NULL, 0);
	const unsigned char *c = p;

	while (n) {
		uInt step = n > (1u << 30) ? 1u << 30 : (uInt)n;

		a = adler32(a, c, step);
		c += step;
		n -= step;
	}
	return (uint32_t)a;
#endif
}

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = xmalloc(la + lb + 1);

	memcpy(s, a, la);
	memcpy(s + la, b, lb + 1);
	return s;
}

/* DIR/dwarf from the environment (dwarf-cache.h); NULL when off. Under lock. */
static void choose_dir(void)
{
	const char *env = getenv("JITSYM_CACHE_DIR"), *base;
	char *top = NULL;

	chosen = true;
	if (env)
		top = *env ? join(env, "") : NULL;
	else if ((base = getenv("XDG_CACHE_HOME")) && base[0] == '/')
		top = join(base, "/jitsym");
	else if ((base = getenv("HOME")) && base[0] == '/')
		top = join(base, "/.cache/jitsym");
	if (top) {
		dir = join(top, "/dwarf");
		free(top);
	}
	stats.dir = dir;
}

static const char *cache_dir(void)
{
	const char *d;

	pthread_mutex_lock(&lock);
	if (!chosen)
		choose_dir();
	d = dir;
	pthread_mutex_unlock(&lock);
	return d;
}

bool dwarf_cache__enabled(void)
{
	return cache_dir() != NULL;
}

void dwarf_cache__reset(void)
{
	pthread_mutex_lock(&lock);
	free(dir);
	dir = NULL;
	chosen = false;
	memset(&stats, 0, sizeof(stats));
	pthread_mutex_unlock(&lock);
}

void dwarf_cache__stats(struct dwarf_cache_stats *out)
{
	pthread_mutex_lock(&lock);
	if (!chosen)
		choose_dir();
	*out = stats;
	pthread_mutex_unlock(&lock);
}

static void count(uint64_t *counter)
{
	pthread_mutex_lock(&lock);
	(*counter)++;
	pthread_mutex_unlock(&lock);
}

/* A write that did not happen: counted, the first reason kept, said under -v. */
static void failed(const char *path, const char *what, int err)
{
	pthread_mutex_lock(&lock);
	if (!stats.failed++)
		snprintf(stats.reason, sizeof(stats.reason), "%s%s%s", what, err ? ": " : "",
			 err ? strerror(err) : "");
	pthread_mutex_unlock(&lock);
	note("DWARF cache: %s not written (%s%s%s)", path, what, err ? ": " : "",
	     err ? strerror(err) : "");
}

/* DIR/dwarf/<hex>; NULL when the cache is off or the id unusable. */
static char *entry_path(const uint8_t *bid, size_t bid_len)
{
	char hex[2 * BUILD_ID_MAX + 2];
	const char *d = cache_dir();
	size_t i;

	if (!d || !bid_len || bid_len > BUILD_ID_MAX)
		return NULL;
	hex[0] = '/';
	for (i = 0; i < bid_len; i++)
		snprintf(hex + 1 + 2 * i, 3, "%02x", bid[i]);
	return join(d, hex);
}

bool dwarf_cache__parse(const void *buf, size_t len, const uint8_t *bid, size_t bid_len,
			struct dwarf_cache_section *out, size_t *nr)
{
	const unsigned char *p = buf;
	struct header h;
	size_t i;

	*nr = 0;
	if (len < sizeof(h))
		return false;
	memcpy(&h, p, sizeof(h));
	if (memcmp(h.magic, MAGIC, sizeof(h.magic)) || h.version != ENTRY_VERSION ||
	    h.order != ORDER_MARK || h.size != len || !h.nr || h.nr > DWARF_CACHE_MAX_SECTIONS ||
	    h.bid_len != bid_len || !bid_len || bid_len > BUILD_ID_MAX ||
	    memcmp(h.bid, bid, bid_len))
		return false;
	if ((len - sizeof(h)) / sizeof(struct table_row) < h.nr)
		return false;
	for (i = 0; i < h.nr; i++) {
		struct table_row r;

		memcpy(&r, p + sizeof(h) + i * sizeof(r), sizeof(r));
		/* aligned as written: libdw reads a section's words where they are */
		if (!memchr(r.name, '\0', sizeof(r.name)) || !r.name[0] ||
		    r.offset < sizeof(h) + h.nr * sizeof(r) || r.offset > len ||
		    r.offset % DATA_ALIGN || r.size > len - r.offset)
			return false;
		memcpy(out[i].name, r.name, sizeof(r.name));
		out[i].offset = r.offset;
		out[i].size = r.size;
		out[i].adler = r.adler;
	}
	*nr = h.nr;
	return true;
}

struct dwarf_cache_map *dwarf_cache__open(const uint8_t *bid, size_t bid_len)
{
	struct dwarf_cache_map *m;
	char *path = entry_path(bid, bid_len);
	struct stat st;
	void *base;
	int fd;

	if (!path)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	free(path);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > DWARF_CACHE_MAX_BYTES + (1u << 20)) {
		close(fd);
		return NULL;
	}
	base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (base == MAP_FAILED)
		return NULL;
	m = xcalloc(1, sizeof(*m));
	m->base = base;
	m->len = (size_t)st.st_size;
	if (!dwarf_cache__parse(base, m->len, bid, bid_len, m->secs, &m->nr)) {
		count(&stats.rejected);
		m->nr = 0;
	}
	return m;
}

const void *dwarf_cache__section(struct dwarf_cache_map *m, const char *name, uint64_t size,
				 uint32_t adler)
{
	const char *p;
	size_t i;

	if (!m)
		return NULL;
	for (i = 0; i < m->nr; i++) {
		if (strcmp(m->secs[i].name, name) || m->secs[i].size != size)
			continue;
		p = (const char *)m->base + m->secs[i].offset;
		if (m->secs[i].adler != adler || checksum(p, size) != adler) {
			/* stale or damaged: none of it is read, and the entry is written again */
			count(&stats.rejected);
			m->nr = 0;
			return NULL;
		}
		if (!m->used)
			count(&stats.read);
		m->used = true;
		return p;
	}
	return NULL;
}

void dwarf_cache__close(struct dwarf_cache_map *m)
{
	if (!m)
		return;
	munmap(m->base, m->len);
	free(m);
}

/* mkdir -p of path's directories and path itself, each created 0700. */
static int make_dirs(const char *path)
{
	char *p = join(path, "");
	char *s;
	int rc = 0;

	for (s = p + 1; !rc; s++) {
		bool end = *s == '\0';

		if (*s != '/' && !end)
			continue;
		*s = '\0';
		if (mkdir(p, 0700) && errno != EEXIST)
			rc = -1;
		if (end)
			break;
		*s = '/';
	}
	free(p);
	return rc;
}

static bool write_all(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return false;
		}
		p += w;
		n -= (size_t)w;
	}
	return true;
}

static bool write_zeros(int fd, size_t n)
{
	static const char zeros[DATA_ALIGN];

	return write_all(fd, zeros, n);
}

/* The entry's bytes into fd; false with errno set. */
static bool write_entry(int fd, const uint8_t *bid, size_t bid_len,
			const struct dwarf_cache_put *secs, size_t nr, uint64_t total)
{
	struct table_row rows[DWARF_CACHE_MAX_SECTIONS];
	struct header h;
	uint64_t off;
	size_t i;

	memset(&h, 0, sizeof(h));
	memset(rows, 0, sizeof(rows));
	memcpy(h.magic, MAGIC, sizeof(h.magic));
	h.version = ENTRY_VERSION;
	h.order = ORDER_MARK;
	h.nr = (uint32_t)nr;
	h.bid_len = (uint32_t)bid_len;
	memcpy(h.bid, bid, bid_len);
	h.size = total;
	off = sizeof(h) + nr * sizeof(rows[0]);
	for (i = 0; i < nr; i++) {
		off = (off + DATA_ALIGN - 1) & ~(uint64_t)(DATA_ALIGN - 1);
		snprintf(rows[i].name, sizeof(rows[i].name), "%s", secs[i].name);
		rows[i].offset = off;
		rows[i].size = secs[i].size;
		rows[i].adler = secs[i].adler;
		off += secs[i].size;
	}
	if (!write_all(fd, &h, sizeof(h)) || !write_all(fd, rows, nr * sizeof(rows[0])))
		return false;
	off = sizeof(h) + nr * sizeof(rows[0]);
	for (i = 0; i < nr; i++) {
		if (!write_zeros(fd, (size_t)(rows[i].offset - off)) ||
		    !write_all(fd, secs[i].data, (size_t)secs[i].size))
			return false;
		off = rows[i].offset + secs[i].size;
	}
	return true;
}

/* Link the unnamed file fd into place as path, replacing what is there. */
static bool link_tmpfile(int fd, const char *path)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (!linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW))
		return true;
	if (errno != EEXIST || (unlink(path) && errno != ENOENT))
		return false;
	return !linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

void dwarf_cache__write(const uint8_t *bid, size_t bid_len, const struct dwarf_cache_put *secs,
			size_t nr)
{
	char *path = entry_path(bid, bid_len), *tmp = NULL;
	const char *d = cache_dir();
	uint64_t total;
	size_t i;
	int fd, err;
	bool ok;

	if (!path || !nr || nr > DWARF_CACHE_MAX_SECTIONS) {
		free(path);
		return;
	}
	total = sizeof(struct header) + nr * sizeof(struct table_row);
	for (i = 0; i < nr; i++)
		total = ((total + DATA_ALIGN - 1) & ~(uint64_t)(DATA_ALIGN - 1)) + secs[i].size;
	if (total > DWARF_CACHE_MAX_BYTES) {
		failed(path, "its sections inflate to more than 256 MiB", 0);
		free(path);
		return;
	}
	if (make_dirs(d)) {
		failed(path, d, errno);
		free(path);
		return;
	}
	/* unnamed until whole: a run killed while writing leaves nothing behind */
	fd = open(d, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		char suffix[48];

		snprintf(suffix, sizeof(suffix), ".%ld.tmp", (long)getpid());
		tmp = join(path, suffix);
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	}
	if (fd < 0) {
		failed(path, "create", errno);
		free(tmp);
		free(path);
		return;
	}
	ok = write_entry(fd, bid, bid_len, secs, nr, total);
	ok = ok && (tmp ? !rename(tmp, path) : link_tmpfile(fd, path));
	err = errno;
	close(fd);
	if (!ok) {
		if (tmp)
			unlink(tmp);
		failed(path, "write", err);
	} else {
		count(&stats.written);
	}
	free(tmp);
	free(path);
}
