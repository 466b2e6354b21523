/*
 * The three modes of vfs.h. Record mode keeps a hash of the paths asked
 * for and an array of JIT addresses, compacted (sorted, deduplicated)
 * whenever it fills; bundle mode a sorted array of the bundle's paths,
 * which also answers for the directories above them.
 */
#include "common/common.h"
#include "common/vfs.h"
#include "common/radix.h"
#include "common/sbuf.h"

#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>
#include <uthash.h>

/* Symlinks followed in a bundle for one path (as the kernel's 40). */
#define VFS_MAX_LINKS 40
/* A path that opens nothing: what a bundle answers for a file it lacks. */
#define VFS_NOTHING "/proc/self/fd/-1"

struct logged {
	char *path;                 /* the key: absolute(), by name */
	char *file;                 /* the first path it was asked by, made absolute: opened */
	unsigned kinds;
	bool lstated;
	struct radix_item *ranges;  /* key: offset, val: end */
	size_t nr_ranges, alloc_ranges;
	bool ranges_sorted;
	UT_hash_handle hh;
};

/* A bundle's file: its fd, or what it is instead. */
enum { MEMBER_LINK = -1, MEMBER_ALIAS = -2, MEMBER_DROPPED = -3 };

struct member {
	char *path;
	int fd;              /* >= 0, or MEMBER_LINK; MEMBER_ALIAS until sealed */
	char *link;          /* a symlink's target, an alias's file */
};

/* A debug file debuginfod fetched: by the archiving run, and in its bundle. */
struct fetched {
	char *hex, *path;
};

static struct {
	enum vfs_mode mode;
	/* record: what debuginfod fetched; bundle: what the archiving run fetched */
	struct fetched *fetched;
	size_t nr_fetched, alloc_fetched;
	/* record */
	char *cwd;
	pthread_mutex_t lock;
	struct logged *logged;
	uint64_t *addrs;
	size_t nr_addrs, alloc_addrs, sorted_addrs;
	const void *vdso;
	size_t vdso_size;
	/* bundle */
	struct vfs_host host;
	struct member *members;
	size_t nr_members, alloc_members;
	bool sealed;
} vfs = { .mode = VFS_HOST, .lock = PTHREAD_MUTEX_INITIALIZER };

enum vfs_mode vfs_mode(void)
{
	return vfs.mode;
}

/*
 * path made absolute against cwd, into sb, its "." and ".." components
 * and repeated slashes resolved by name: the key a path is remembered
 * and looked up by, the same in record and bundle mode (".." is taken
 * as the kernel takes it but after a symlink, where the run that read the
 * file opened it by the path as given: struct logged's file). false when
 * too long.
 */
static bool absolute(const char *path, const char *cwd, struct sbuf *sb)
{
	struct sbuf raw = SBUF_INIT;
	const char *p;
	bool ok;

	if (path[0] != '/' && cwd) {
		sbuf_addstr(&raw, cwd);
		sbuf_addch(&raw, '/');
	}
	sbuf_addstr(&raw, path);
	sbuf_reset(sb);
	for (p = raw.buf; *p; ) {
		size_t n;

		while (*p == '/')
			p++;
		n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (sb->len && sb->buf[sb->len - 1] != '/')
				sb->len--;
			if (sb->len)
				sb->len--;
			sb->buf[sb->len] = '\0';
		} else if (n && !(n == 1 && p[0] == '.')) {
			sbuf_addch(sb, '/');
			sbuf_add(sb, p, n);
		}
		p += n;
	}
	if (!sb->len)
		sbuf_addch(sb, '/');
	ok = !raw.truncated && !sb->truncated;
	sbuf_release(&raw);
	return ok;
}

/* ---- record ---- */

/* path's entry, made on first use; under the lock. NULL when too long. */
static struct logged *logged_entry(const char *path)
{
	struct sbuf abs = SBUF_INIT;
	struct logged *l = NULL;

	if (absolute(path, vfs.cwd, &abs)) {
		HASH_FIND_STR(vfs.logged, abs.buf, l);
		if (!l) {
			l = xcalloc(1, sizeof(*l));
			l->path = xstrdup(abs.buf);
			l->file = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", vfs.cwd, path);
			HASH_ADD_KEYPTR(hh, vfs.logged, l->path, strlen(l->path), l);
		}
	}
	sbuf_release(&abs);
	return l;
}

static void record_path(const char *path, unsigned kinds, bool lstated)
{
	struct logged *l;

	pthread_mutex_lock(&vfs.lock);
	if ((l = logged_entry(path))) {
		l->kinds |= kinds;
		l->lstated |= lstated;
	}
	pthread_mutex_unlock(&vfs.lock);
}

void vfs_record_range(const char *path, uint64_t off, uint64_t len)
{
	struct logged *l;

	if (vfs.mode != VFS_RECORD || !len)
		return;
	pthread_mutex_lock(&vfs.lock);
	if ((l = logged_entry(path))) {
		ALLOC_GROW(l->ranges, l->nr_ranges + 1, l->alloc_ranges);
		l->ranges[l->nr_ranges].key = off;
		l->ranges[l->nr_ranges++].val = off + len < off ? UINT64_MAX : off + len;
		l->ranges_sorted = false;
	}
	pthread_mutex_unlock(&vfs.lock);
}

const struct radix_item *vfs_record_ranges(const char *path, size_t *nr)
{
	struct radix_item *r;
	struct logged *l;
	size_t i, n = 0;

	*nr = 0;
	HASH_FIND_STR(vfs.logged, path, l);
	if (!l || !l->nr_ranges)
		return NULL;
	r = l->ranges;
	if (!l->ranges_sorted) {
		radix_sort(r, l->nr_ranges);
		for (i = 0; i < l->nr_ranges; i++) {
			if (n && r[i].key <= r[n - 1].val) {
				if (r[i].val > r[n - 1].val)
					r[n - 1].val = r[i].val;
				continue;
			}
			r[n++] = r[i];
		}
		l->nr_ranges = n;
		l->ranges_sorted = true;
	}
	*nr = l->nr_ranges;
	return r;
}

void vfs_record_start(void)
{
	char buf[PATH_MAX];

	vfs_reset();
	vfs.cwd = xstrdup(getcwd(buf, sizeof(buf)) ? buf : "/");
	vfs.mode = VFS_RECORD;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort and deduplicate the addresses; under the lock. */
static void compact_addrs(void)
{
	size_t i, n = 0;

	if (vfs.sorted_addrs == vfs.nr_addrs)
		return;
	qsort(vfs.addrs, vfs.nr_addrs, sizeof(*vfs.addrs), cmp_u64);
	for (i = 0; i < vfs.nr_addrs; i++)
		if (!n || vfs.addrs[n - 1] != vfs.addrs[i])
			vfs.addrs[n++] = vfs.addrs[i];
	vfs.nr_addrs = vfs.sorted_addrs = n;
}

void vfs_record_jit_addr(uint64_t addr)
{
	if (vfs.mode != VFS_RECORD)
		return;
	pthread_mutex_lock(&vfs.lock);
	if (vfs.nr_addrs == vfs.alloc_addrs) {
		compact_addrs();
		/* grow only when compacting freed less than half */
		if (!vfs.alloc_addrs || vfs.nr_addrs > vfs.alloc_addrs / 2) {
			vfs.alloc_addrs = vfs.alloc_addrs ? 2 * vfs.alloc_addrs : 1 << 16;
			vfs.addrs = xreallocarray(vfs.addrs, vfs.alloc_addrs, sizeof(*vfs.addrs));
		}
	}
	vfs.addrs[vfs.nr_addrs++] = addr;
	pthread_mutex_unlock(&vfs.lock);
}

static int cmp_logged(const struct logged *a, const struct logged *b)
{
	return strcmp(a->path, b->path);
}

void vfs_record_each(void (*fn)(const char *path, const char *file, unsigned kinds,
				bool lstated, void *arg), void *arg)
{
	struct logged *l, *tmp;

	pthread_mutex_lock(&vfs.lock);
	HASH_SORT(vfs.logged, cmp_logged);
	pthread_mutex_unlock(&vfs.lock);
	HASH_ITER(hh, vfs.logged, l, tmp)
		fn(l->path, l->file, l->kinds, l->lstated, arg);
}

uint64_t *vfs_record_jit_addrs(size_t *nr)
{
	uint64_t *a;

	pthread_mutex_lock(&vfs.lock);
	compact_addrs();
	a = xreallocarray(NULL, vfs.nr_addrs ? vfs.nr_addrs : 1, sizeof(*a));
	if (vfs.nr_addrs)
		memcpy(a, vfs.addrs, vfs.nr_addrs * sizeof(*a));
	*nr = vfs.nr_addrs;
	pthread_mutex_unlock(&vfs.lock);
	return a;
}

static void add_fetched(const char *hex, const char *path)
{
	size_t i;

	for (i = 0; i < vfs.nr_fetched; i++)
		if (!strcmp(vfs.fetched[i].hex, hex))
			return;         /* a build id answers once */
	ALLOC_GROW(vfs.fetched, vfs.nr_fetched + 1, vfs.alloc_fetched);
	vfs.fetched[vfs.nr_fetched].hex = xstrdup(hex);
	vfs.fetched[vfs.nr_fetched++].path = xstrdup(path);
}

void vfs_record_fetched(const char *hex, const char *path)
{
	if (vfs.mode != VFS_RECORD)
		return;
	pthread_mutex_lock(&vfs.lock);
	add_fetched(hex, path);
	pthread_mutex_unlock(&vfs.lock);
}

void vfs_record_each_fetched(void (*fn)(const char *hex, const char *path, void *arg), void *arg)
{
	size_t i;

	for (i = 0; i < vfs.nr_fetched; i++)
		fn(vfs.fetched[i].hex, vfs.fetched[i].path, arg);
}

void vfs_bundle_add_fetched(const char *hex, const char *path)
{
	add_fetched(hex, path);
}

const char *vfs_fetched(const char *hex)
{
	size_t i;

	if (vfs.mode != VFS_BUNDLE)
		return NULL;
	for (i = 0; i < vfs.nr_fetched; i++)
		if (!strcmp(vfs.fetched[i].hex, hex))
			return vfs.fetched[i].path;
	return NULL;
}

const void *vfs_record_vdso(size_t *size)
{
	*size = vfs.vdso_size;
	return vfs.vdso;
}

/* ---- bundle ---- */

static int cmp_member(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : (x->fd > y->fd) - (x->fd < y->fd);
}

void vfs_bundle_start(struct vfs_host *host)
{
	vfs_reset();
	vfs.host = *host;
	memset(host, 0, sizeof(*host));
	vfs.mode = VFS_BUNDLE;
}

static struct member *add_member(const char *path)
{
	struct member *m;

	if (vfs.sealed)
		BUG("vfs: bundle member added after sealing");
	if (vfs.nr_members == vfs.alloc_members) {
		vfs.alloc_members = vfs.alloc_members ? 2 * vfs.alloc_members : 64;
		vfs.members = xreallocarray(vfs.members, vfs.alloc_members, sizeof(*vfs.members));
	}
	m = &vfs.members[vfs.nr_members++];
	memset(m, 0, sizeof(*m));
	m->path = xstrdup(path);
	m->fd = MEMBER_LINK;
	return m;
}

void vfs_bundle_add_file(const char *path, int fd)
{
	add_member(path)->fd = fd;
}

void vfs_bundle_add_symlink(const char *path, const char *target)
{
	add_member(path)->link = xstrdup(target);
}

void vfs_bundle_add_alias(const char *path, const char *target)
{
	struct member *m = add_member(path);

	m->fd = MEMBER_ALIAS;
	m->link = xstrdup(target);
}

static struct member *find_member(const char *abs);

void vfs_bundle_seal(void)
{
	size_t i, n = 0;

	if (vfs.nr_members)
		qsort(vfs.members, vfs.nr_members, sizeof(*vfs.members), cmp_member);
	/* a path twice (not from jitsym archive): the one that sorts first by fd stays */
	for (i = 0; i < vfs.nr_members; i++) {
		if (n && !strcmp(vfs.members[n - 1].path, vfs.members[i].path)) {
			if (vfs.members[i].fd >= 0)
				close(vfs.members[i].fd);
			free(vfs.members[i].path);
			free(vfs.members[i].link);
			continue;
		}
		vfs.members[n++] = vfs.members[i];
	}
	vfs.nr_members = n;
	/* an alias shares its file's copy; one of nothing (or of an alias) is dropped */
	for (i = 0; i < vfs.nr_members; i++) {
		struct member *m = &vfs.members[i], *t;

		if (m->fd != MEMBER_ALIAS)
			continue;
		t = find_member(m->link);
		if (!t || t->fd < 0 || (m->fd = dup(t->fd)) < 0)
			m->fd = MEMBER_DROPPED;
		free(m->link);
		m->link = NULL;
	}
	for (i = n = 0; i < vfs.nr_members; i++) {
		if (vfs.members[i].fd == MEMBER_DROPPED) {
			free(vfs.members[i].path);
			continue;
		}
		vfs.members[n++] = vfs.members[i];
	}
	vfs.nr_members = n;
	vfs.sealed = true;
}

void vfs_bundle_vdso(void *image, size_t size)
{
	free(vfs.host.vdso);
	vfs.host.vdso = image;
	vfs.host.vdso_size = image ? size : 0;
}

/* The first member whose path is >= key. */
static size_t lower_bound(const char *key)
{
	size_t lo = 0, hi = vfs.nr_members;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(vfs.members[mid].path, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct member *find_member(const char *abs)
{
	size_t i = lower_bound(abs);

	return i < vfs.nr_members && !strcmp(vfs.members[i].path, abs) ? &vfs.members[i] : NULL;
}

/* Whether abs is a directory above some member. */
static bool is_dir(const char *abs)
{
	struct sbuf sb = SBUF_INIT;
	size_t i;
	bool dir;

	sbuf_addstr(&sb, abs);
	if (!sb.len || sb.buf[sb.len - 1] != '/')
		sbuf_addch(&sb, '/');
	i = lower_bound(sb.buf);
	dir = i < vfs.nr_members && !strncmp(vfs.members[i].path, sb.buf, sb.len);
	sbuf_release(&sb);
	return dir;
}

/* The member a path names, symlinks followed: NULL when none. */
static const struct member *bundle_file(const char *path)
{
	struct sbuf abs = SBUF_INIT, next = SBUF_INIT;
	const struct member *m = NULL;
	size_t links = 0;

	if (!absolute(path, vfs.host.cwd, &abs))
		goto out;
	while ((m = find_member(abs.buf)) && m->fd < 0) {
		char *dir;

		if (++links > VFS_MAX_LINKS) {
			m = NULL;
			break;
		}
		dir = xdirname(abs.buf);
		if (!absolute(m->link, dir, &next)) {
			free(dir);
			m = NULL;
			break;
		}
		free(dir);
		sbuf_reset(&abs);
		sbuf_add(&abs, next.buf, next.len);
	}
out:
	sbuf_release(&abs);
	sbuf_release(&next);
	return m;
}

const char *vfs_path(const char *path, enum vfs_kind kind, char buf[VFS_PATH_BUF])
{
	const struct member *m;

	switch (vfs.mode) {
	case VFS_HOST:
		return path;
	case VFS_RECORD:
		record_path(path, 1u << kind, false);
		return path;
	case VFS_BUNDLE:
		break;
	}
	m = bundle_file(path);
	if (!m)
		return VFS_NOTHING;
	snprintf(buf, VFS_PATH_BUF, "/proc/self/fd/%d", m->fd);
	return buf;
}

int vfs_lstat(const char *path, struct stat *st)
{
	struct sbuf abs = SBUF_INIT;
	const struct member *m;
	int ret = -1;

	if (vfs.mode == VFS_RECORD)
		record_path(path, 0, true);
	if (vfs.mode != VFS_BUNDLE)
		return lstat(path, st);
	errno = ENOENT;
	if (!absolute(path, vfs.host.cwd, &abs))
		goto out;
	memset(st, 0, sizeof(*st));
	if ((m = find_member(abs.buf))) {
		if (m->fd >= 0) {
			ret = fstat(m->fd, st);
		} else {
			st->st_mode = S_IFLNK | 0777;
			st->st_size = (off_t)strlen(m->link);
			ret = 0;
		}
	} else if (is_dir(abs.buf)) {
		st->st_mode = S_IFDIR | 0755;
		ret = 0;
	}
out:
	sbuf_release(&abs);
	return ret;
}

ssize_t vfs_readlink(const char *path, char *buf, size_t size)
{
	struct sbuf abs = SBUF_INIT;
	const struct member *m;
	ssize_t ret = -1;
	size_t n;

	if (vfs.mode != VFS_BUNDLE)
		return readlink(path, buf, size);
	errno = ENOENT;
	if (absolute(path, vfs.host.cwd, &abs) && (m = find_member(abs.buf))) {
		errno = EINVAL;
		if (m->link) {
			n = strlen(m->link);
			n = n < size ? n : size;
			memcpy(buf, m->link, n);
			ret = (ssize_t)n;
		}
	}
	sbuf_release(&abs);
	return ret;
}

int vfs_list_dir(const char *dir, void (*fn)(const char *name, void *arg), void *arg)
{
	struct sbuf abs = SBUF_INIT;
	struct dirent *e;
	size_t i;
	DIR *d;

	if (vfs.mode != VFS_BUNDLE) {
		if (!(d = opendir(dir)))
			return -1;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				fn(e->d_name, arg);
		closedir(d);
		return 0;
	}
	if (!absolute(dir, vfs.host.cwd, &abs) || !is_dir(abs.buf)) {
		sbuf_release(&abs);
		errno = ENOENT;
		return -1;
	}
	if (abs.buf[abs.len - 1] != '/')
		sbuf_addch(&abs, '/');
	for (i = lower_bound(abs.buf); i < vfs.nr_members &&
	     !strncmp(vfs.members[i].path, abs.buf, abs.len); i++) {
		const char *name = vfs.members[i].path + abs.len;

		if (!strchr(name, '/'))
			fn(name, arg);
	}
	sbuf_release(&abs);
	return 0;
}

int vfs_uname(struct utsname *u)
{
	if (vfs.mode != VFS_BUNDLE)
		return uname(u);
	memset(u, 0, sizeof(*u));
	snprintf(u->release, sizeof(u->release), "%s", vfs.host.release ? vfs.host.release : "");
	snprintf(u->nodename, sizeof(u->nodename), "%s",
		 vfs.host.nodename ? vfs.host.nodename : "");
	return 0;
}

const char *vfs_home(void)
{
	return vfs.mode == VFS_BUNDLE ? vfs.host.home : getenv("HOME");
}

const void *vfs_running_vdso(size_t *size, const void *(*fallback)(size_t *size))
{
	const void *mem;

	if (vfs.mode == VFS_BUNDLE) {
		*size = vfs.host.vdso_size;
		return vfs.host.vdso;
	}
	mem = fallback(size);
	if (mem && vfs.mode == VFS_RECORD) {
		pthread_mutex_lock(&vfs.lock);
		vfs.vdso = mem;
		vfs.vdso_size = *size;
		pthread_mutex_unlock(&vfs.lock);
	}
	return mem;
}

void vfs_reset(void)
{
	struct logged *l, *tmp;
	size_t i;

	HASH_ITER(hh, vfs.logged, l, tmp) {
		HASH_DEL(vfs.logged, l);
		free(l->ranges);
		free(l->file);
		free(l->path);
		free(l);
	}
	for (i = 0; i < vfs.nr_fetched; i++) {
		free(vfs.fetched[i].hex);
		free(vfs.fetched[i].path);
	}
	free(vfs.fetched);
	vfs.fetched = NULL;
	vfs.nr_fetched = vfs.alloc_fetched = 0;
	free(vfs.addrs);
	vfs.addrs = NULL;
	vfs.nr_addrs = vfs.alloc_addrs = vfs.sorted_addrs = 0;
	vfs.vdso = NULL;
	vfs.vdso_size = 0;
	free(vfs.cwd);
	vfs.cwd = NULL;
	for (i = 0; i < vfs.nr_members; i++) {
		if (vfs.members[i].fd >= 0)
			close(vfs.members[i].fd);
		free(vfs.members[i].path);
		free(vfs.members[i].link);
	}
	free(vfs.members);
	vfs.members = NULL;
	vfs.nr_members = vfs.alloc_members = 0;
	vfs.sealed = false;
	free(vfs.host.cwd);
	free(vfs.host.home);
	free(vfs.host.release);
	free(vfs.host.nodename);
	free(vfs.host.vdso);
	memset(&vfs.host, 0, sizeof(vfs.host));
	vfs.mode = VFS_HOST;
}
