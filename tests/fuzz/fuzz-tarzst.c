/*
 * libFuzzer entry point for the bundle container (src/common/tarzst.c).
 *
 * The input's first byte says what the rest is: bit 0 set, a tar stream,
 * which is compressed here (zstd level 1) so that the fuzzer's mutations
 * reach the tar parser rather than break the zstd frame; bit 1 set too,
 * every 512-byte block of it with "ustar" at offset 257 gets its checksum
 * made right first, so mutated headers get past the checksum. Bit 0
 * clear: the rest is the container as it is, zstd frame and all.
 *
 * The container is read from a memfd to its end, checking the contract
 * (tarzst.h): names not empty, relative, without "." or ".." components,
 * no trailing '/', under the cap; a link for symbolic links only; sizes
 * for files only; offsets growing, on block boundaries; the end and an
 * error both final. Members' data is read in turns by read_mem() (at most
 * 1 MiB, the buffer NUL-terminated), copied to /dev/null, copied sparse
 * to a memfd (at most 8 MiB) or skipped. The files read whole and the
 * symbolic links (the first MEMBERS_MAX) are then written as a new
 * container and read back: the same names, kinds, sizes, data and times.
 *
 * Bit 2 set: the container is then also opened as a bundle
 * (command/bundle.h: its manifest, aliases and members into vfs), and
 * the bundle's files looked up through vfs as a session would: the
 * recording's name, each member's directory listed, a path under a
 * symbolic link; then closed, leaving vfs in host mode.
 */
#define _GNU_SOURCE
#include "common/common.h"
#include "common/tarzst.h"
#include "common/vfs.h"
#include "command/bundle.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>

#define MEMBERS_MAX 16
#define READ_MAX (1u << 20)
#define SPARSE_MAX (8u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                      \
	do {                             \
		if (!(cond))             \
			__builtin_trap(); \
	} while (0)

struct kept {
	char *name;
	enum tarzst_type type;
	char *link;
	void *data;
	size_t len;
	int64_t mtime;
};

static int in_fd = -1, out_fd = -1, arc_fd = -1, null_fd = -1;

static void quiet(const char *line)
{
	(void)line;
}

static int memfd(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC);

	if (fd < 0) {
		perror("memfd_create");
		abort();
	}
	return fd;
}

static void rewind_fd(int fd, bool empty)
{
	if ((empty && ftruncate(fd, 0)) || lseek(fd, 0, SEEK_SET) != 0) {
		perror("memfd");
		abort();
	}
}

static void put(int fd, const void *p, size_t n)
{
	const uint8_t *b = p;

	rewind_fd(fd, true);
	while (n) {
		ssize_t got = write(fd, b, n);

		if (got <= 0) {
			perror("memfd");
			abort();
		}
		b += got;
		n -= (size_t)got;
	}
	rewind_fd(fd, false);
}

/* Make each header-looking block's checksum right (of its bytes as unsigned chars). */
static void fix_checksums(uint8_t *p, size_t n)
{
	size_t off, i;

	for (off = 0; off + 512 <= n; off += 512) {
		uint8_t *h = p + off;
		unsigned sum = 0;
		char tmp[16];

		if (memcmp(h + 257, "ustar", 5))
			continue;
		memset(h + 148, ' ', 8);
		for (i = 0; i < 512; i++)
			sum += h[i];
		snprintf(tmp, sizeof(tmp), "%06o", sum);
		memcpy(h + 148, tmp, 7);
	}
}

static void check_entry(const struct tarzst_entry *e, uint64_t *last_offset)
{
	size_t len = strlen(e->name), i = 0;

	CHECK(len > 0 && len <= TARZST_MAX_HEADER);
	CHECK(e->name[0] != '/' && e->name[len - 1] != '/');
	while (i < len) {
		size_t end = i;

		while (end < len && e->name[end] != '/')
			end++;
		CHECK(end > i);
		CHECK(!(end - i == 1 && e->name[i] == '.'));
		CHECK(!(end - i == 2 && e->name[i] == '.' && e->name[i + 1] == '.'));
		i = end + 1;
	}
	CHECK(e->type == TARZST_FILE || e->type == TARZST_SYMLINK || e->type == TARZST_DIR);
	CHECK(!e->link == (e->type != TARZST_SYMLINK));
	CHECK(!e->link || strlen(e->link) <= TARZST_MAX_HEADER);
	CHECK(e->type == TARZST_FILE || !e->size);
	CHECK(e->offset % 512 == 0);
	CHECK(*last_offset == UINT64_MAX || e->offset > *last_offset);
	*last_offset = e->offset;
}

/* The member's data, in one of four ways by its number; a copy kept when read whole. */
static int take_data(struct tarzst_reader *r, const struct tarzst_entry *e, unsigned nr,
		     struct kept *k)
{
	void *buf;
	size_t len;

	switch (nr % 4) {
	case 0:
		if (tarzst_reader__read_mem(r, READ_MAX, &buf, &len)) {
			CHECK(!buf);
			return e->size > READ_MAX ? 0 : -1;
		}
		CHECK(len == e->size && !((char *)buf)[len]);
		k->data = buf;
		k->len = len;
		return 1;
	case 1:
		return tarzst_reader__copy_to_fd(r, null_fd, "/dev/null", false) ? -1 : 0;
	case 2:
		if (e->size > SPARSE_MAX)
			return 0;
		rewind_fd(out_fd, true);
		if (tarzst_reader__copy_to_fd(r, out_fd, "memfd", true))
			return -1;
		CHECK(lseek(out_fd, 0, SEEK_END) == (off_t)e->size);
		return 0;
	default:
		return 0;
	}
}

/* Write what was kept as a new container and read it back: the same members. */
static void round_trip(struct kept *k, size_t nr)
{
	struct tarzst_writer *w;
	struct tarzst_reader *r;
	struct tarzst_entry e;
	size_t i;
	bool ok[MEMBERS_MAX];

	rewind_fd(arc_fd, true);
	w = tarzst_writer__new(arc_fd, "round trip", 1);
	CHECK(w);
	for (i = 0; i < nr; i++) {
		/* the reader's names and links, too long or empty, can be refused */
		ok[i] = !(k[i].type == TARZST_SYMLINK ?
			  tarzst_writer__add_symlink(w, k[i].name, k[i].link, k[i].mtime) :
			  tarzst_writer__add_mem(w, k[i].name, k[i].data, k[i].len, 0644,
						 k[i].mtime));
	}
	CHECK(!tarzst_writer__finish(w));
	rewind_fd(arc_fd, false);
	r = tarzst_reader__new(arc_fd, "round trip");
	CHECK(r);
	for (i = 0; i < nr; i++) {
		void *buf;
		size_t len;

		if (!ok[i])
			continue;
		CHECK(tarzst_reader__next(r, &e) == 1);
		CHECK(!strcmp(e.name, k[i].name) && e.type == k[i].type && e.mtime == k[i].mtime);
		if (e.type == TARZST_SYMLINK) {
			CHECK(!strcmp(e.link, k[i].link));
			continue;
		}
		CHECK(!tarzst_reader__read_mem(r, READ_MAX, &buf, &len));
		CHECK(len == k[i].len && (!len || !memcmp(buf, k[i].data, len)));
		free(buf);
	}
	CHECK(tarzst_reader__next(r, &e) == 0);
	tarzst_reader__delete(r);
}

static void read_container(void)
{
	struct tarzst_reader *r = tarzst_reader__new(in_fd, "fuzz input");
	struct tarzst_entry e;
	struct kept k[MEMBERS_MAX];
	uint64_t last = UINT64_MAX;
	unsigned nr = 0;
	size_t nr_kept = 0, i;
	int ret;

	if (!r)
		return;
	while ((ret = tarzst_reader__next(r, &e)) == 1) {
		struct kept *kk = nr_kept < MEMBERS_MAX ? &k[nr_kept] : NULL;
		struct kept scratch = { 0 };
		int got = 0;

		check_entry(&e, &last);
		if (e.type == TARZST_FILE) {
			got = take_data(r, &e, nr, kk ? kk : &scratch);
			free(scratch.data);
		}
		nr++;
		if (got < 0) {
			ret = -1;
			break;
		}
		if (!kk || e.type == TARZST_DIR || (e.type == TARZST_FILE && got != 1))
			continue;
		kk->name = xstrdup(e.name);
		kk->type = e.type;
		kk->link = e.link ? xstrdup(e.link) : NULL;
		kk->mtime = e.mtime;
		if (e.type == TARZST_SYMLINK)
			kk->data = NULL, kk->len = 0;
		nr_kept++;
	}
	/* the end and an error are both final */
	CHECK(tarzst_reader__next(r, &e) == ret);
	tarzst_reader__delete(r);
	if (ret == 0)
		round_trip(k, nr_kept);
	for (i = 0; i < nr_kept; i++) {
		free(k[i].name);
		free(k[i].link);
		free(k[i].data);
	}
}

static void count_name(const char *name, void *arg)
{
	CHECK(name[0] && !strchr(name, '/'));
	(*(size_t *)arg)++;
}

/* The container in in_fd as a bundle, looked into through vfs. */
static void read_bundle(void)
{
	char path[64], vbuf[VFS_PATH_BUF];
	const char *name, *arg, *p;
	struct bundle *b;
	struct stat st;
	size_t i, n = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", in_fd);
	b = bundle__open(path);
	if (!b) {
		CHECK(vfs_mode() == VFS_HOST);
		return;
	}
	CHECK(vfs_mode() == VFS_BUNDLE);
	for (i = 0; bundle__option(b, i, &name, &arg); i++)
		CHECK(name && arg);
	p = vfs_path(bundle__input(b), VFS_PERFDATA, vbuf);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		CHECK(!fstat(fd, &st) && S_ISREG(st.st_mode));
		close(fd);
	}
	vfs_list_dir("/", count_name, &n);
	vfs_list_dir(bundle__input(b), count_name, &n);
	vfs_lstat("/link/hello", &st);
	vfs_path("/link/hello", VFS_ELF, vbuf);
	vfs_fetched("00");
	bundle__close(b);
	CHECK(vfs_mode() == VFS_HOST);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (in_fd < 0) {
		in_fd = memfd("fuzz-tarzst-in");
		out_fd = memfd("fuzz-tarzst-out");
		arc_fd = memfd("fuzz-tarzst-arc");
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null_fd < 0)
			abort();
		msg_set_sink(quiet);
	}
	if (!size)
		return 0;
	if (data[0] & 1) {
		size_t cap = ZSTD_compressBound(size - 1), n;
		uint8_t *tar = xmalloc(size), *z = xmalloc(cap);

		memcpy(tar, data + 1, size - 1);
		if (data[0] & 2)
			fix_checksums(tar, size - 1);
		n = ZSTD_compress(z, cap, tar, size - 1, 1);
		CHECK(!ZSTD_isError(n));
		put(in_fd, z, n);
		free(tar);
		free(z);
	} else {
		put(in_fd, data + 1, size - 1);
	}
	read_container();
	if (data[0] & 4)
		read_bundle();
	return 0;
}
