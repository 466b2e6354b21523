/*
 * Reading a bundle (bundle.h): one pass over the tar stream, each member
 * into a temporary file handed to vfs.
 */
#include "common/common.h"
#include "command/bundle.h"
#include "common/tarzst.h"
#include "common/vfs.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* Limits on what a bundle may hold: a corrupt or hostile one cannot exhaust fds or memory. */
#define BUNDLE_MAX_MEMBERS   20000
#define BUNDLE_MAX_MANIFEST  (1u << 20)
#define BUNDLE_MAX_VDSO      (1u << 20)
#define BUNDLE_MAX_OPTIONS   256
#define BUNDLE_MAX_ALIASES   (16u << 20)

struct bundle {
	char *manifest;                 /* its lines, '\n' turned to '\0' */
	const char *input;
	const char *opt_name[BUNDLE_MAX_OPTIONS], *opt_arg[BUNDLE_MAX_OPTIONS];
	size_t nr_opts;
};

bool bundle__is(const char *path)
{
	static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	unsigned char buf[4];
	struct stat st;
	bool is = false;
	int fd;

	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	is = read(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf) &&
	     !memcmp(buf, zstd_magic, sizeof(buf));
	close(fd);
	return is;
}

int bundle__temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && strcmp(dir, "/tmp"))
		fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		fd = memfd_create("jitsym-bundle", MFD_CLOEXEC);
	return fd;
}

/* Split the manifest into its fields (pointers into b->manifest); -1 after error(). */
static int parse_manifest(struct bundle *b, const char *path, size_t len)
{
	char *line = b->manifest, *end = b->manifest + len;
	const char *cwd = NULL, *home = NULL, *release = NULL, *nodename = NULL;
	const char **fetched = NULL;        /* BUILDID, PATH pairs */
	struct vfs_host host = { 0 };
	size_t nr_fetched = 0, alloc = 0, i;
	int ret = -1;
	bool first = true;

	while (line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line)), *val, *more;

		if (nl)
			*nl = '\0';
		else
			nl = end;
		if (first) {
			if (strcmp(line, BUNDLE_MAGIC_LINE)) {
				error("'%s': %s does not start with '%s' (a bundle of another "
				      "version?)", path, BUNDLE_MANIFEST, BUNDLE_MAGIC_LINE);
				goto out;
			}
			first = false;
		} else if ((val = strchr(line, ' '))) {
			*val++ = '\0';
			more = strchr(val, ' ');
			if (!strcmp(line, "input")) {
				b->input = val;
			} else if (!strcmp(line, "cwd")) {
				cwd = val;
			} else if (!strcmp(line, "home")) {
				home = val;
			} else if (!strcmp(line, "release")) {
				release = val;
			} else if (!strcmp(line, "nodename")) {
				nodename = val;
			} else if (!strcmp(line, "fetched") || !strcmp(line, "option")) {
				bool is_fetched = line[0] == 'f';

				if (!more || (!is_fetched && b->nr_opts == BUNDLE_MAX_OPTIONS)) {
					error("'%s': bad or too many '%s' lines in %s", path, line,
					      BUNDLE_MANIFEST);
					goto out;
				}
				*more++ = '\0';
				if (is_fetched) {
					ALLOC_GROW(fetched, nr_fetched + 2, alloc);
					fetched[nr_fetched++] = val;
					fetched[nr_fetched++] = more;
				} else {
					b->opt_name[b->nr_opts] = val;
					b->opt_arg[b->nr_opts++] = more;
				}
			}
			/* other keys: of a later writer, not needed to read */
		}
		line = nl + 1;
	}
	if (first || !b->input || !cwd) {
		error("'%s': %s lacks the input or cwd line", path, BUNDLE_MANIFEST);
		goto out;
	}
	host.cwd = xstrdup(cwd);
	host.home = home ? xstrdup(home) : NULL;
	host.release = release ? xstrdup(release) : NULL;
	host.nodename = nodename ? xstrdup(nodename) : NULL;
	vfs_bundle_start(&host);
	for (i = 0; i < nr_fetched; i += 2)
		vfs_bundle_add_fetched(fetched[i], fetched[i + 1]);
	ret = 0;
out:
	free(fetched);
	return ret;
}

/* One member after the manifest; 0 or -1 after error(). */
static int take_member(struct tarzst_reader *r, const struct tarzst_entry *e, const char *path,
		       void **vdso, size_t *vdso_size)
{
	static const char root[] = BUNDLE_ROOT "/";
	struct statvfs vfs;
	char *host;
	int fd;

	if (!strcmp(e->name, BUNDLE_ALIASES) && e->type == TARZST_FILE) {
		void *buf;
		size_t len;
		const char *p, *end;

		if (tarzst_reader__read_mem(r, BUNDLE_MAX_ALIASES, &buf, &len))
			return -1;
		/* NAME\0FILE\0 pairs; an odd tail is ignored */
		for (p = buf, end = p + len; p < end; ) {
			const char *name = p, *file = memchr(p, '\0', (size_t)(end - p));

			if (!file)
				break;
			file++;
			if (!(p = memchr(file, '\0', (size_t)(end - file))))
				break;
			p++;
			vfs_bundle_add_alias(name, file);
		}
		free(buf);
		return 0;
	}
	if (!strcmp(e->name, BUNDLE_VDSO) && e->type == TARZST_FILE) {
		free(*vdso);
		*vdso = NULL;
		return tarzst_reader__read_mem(r, BUNDLE_MAX_VDSO, vdso, vdso_size);
	}
	if (strncmp(e->name, root, sizeof(root) - 1) || e->type == TARZST_DIR)
		return 0;       /* not ours to read (a later version's): skipped */
	host = xasprintf("/%s", e->name + sizeof(root) - 1);
	if (e->type == TARZST_SYMLINK) {
		vfs_bundle_add_symlink(host, e->link);
		free(host);
		return 0;
	}
	fd = bundle__temp_file();
	if (fd < 0) {
		free(host);
		return error("'%s': cannot make a temporary file for '%s': %s", path, e->name,
			     strerror(errno));
	}
	/*
	 * The size is the bundle's word, and a few bytes of zstd can say
	 * terabytes: more than the temporary files' file system has free is
	 * refused before a byte is written (a zeroed binary's holes counted
	 * as if written: a margin, not a bound).
	 */
	if (!fstatvfs(fd, &vfs) && e->size / vfs.f_frsize > vfs.f_bavail) {
		close(fd);
		free(host);
		return error("'%s': member '%s' at offset %" PRIu64 " is %" PRIu64 " bytes, more than "
			     "the %" PRIu64 " free where temporary files go ($TMPDIR)", path, e->name,
			     e->offset, e->size, (uint64_t)vfs.f_bavail * vfs.f_frsize);
	}
	if (tarzst_reader__copy_to_fd(r, fd, e->name, true)) {
		close(fd);
		free(host);
		return -1;
	}
	vfs_bundle_add_file(host, fd);
	free(host);
	return 0;
}

/* Each member stays open while the bundle is read: allow as many files as the system lets. */
static void raise_file_limit(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

struct bundle *bundle__open(const char *path)
{
	struct bundle *b = xcalloc(1, sizeof(*b));
	struct tarzst_reader *r = NULL;
	struct tarzst_entry e;
	void *vdso = NULL;
	size_t len, members = 0, vdso_size = 0;
	int fd, ret;

	raise_file_limit();
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error("cannot open '%s': %s", path, strerror(errno));
		goto fail;
	}
	r = tarzst_reader__new(fd, path);
	if (!r)
		goto fail;
	ret = tarzst_reader__next(r, &e);
	if (ret <= 0 || strcmp(e.name, BUNDLE_MANIFEST) || e.type != TARZST_FILE) {
		if (ret >= 0)
			error("'%s' is no jitsym bundle: it does not start with %s", path,
			      BUNDLE_MANIFEST);
		goto fail;
	}
	if (tarzst_reader__read_mem(r, BUNDLE_MAX_MANIFEST, (void **)&b->manifest, &len) ||
	    parse_manifest(b, path, len))
		goto fail;
	while ((ret = tarzst_reader__next(r, &e)) > 0) {
		if (++members > BUNDLE_MAX_MEMBERS) {
			error("'%s': more than %u members at offset %llu: not a bundle jitsym wrote",
			      path, BUNDLE_MAX_MEMBERS, (unsigned long long)e.offset);
			goto fail;
		}
		if (take_member(r, &e, path, &vdso, &vdso_size))
			goto fail;
	}
	if (ret < 0)
		goto fail;
	tarzst_reader__delete(r);
	close(fd);
	vfs_bundle_seal();
	vfs_bundle_vdso(vdso, vdso_size);
	return b;
fail:
	free(vdso);
	tarzst_reader__delete(r);
	if (fd >= 0)
		close(fd);
	bundle__close(b);
	return NULL;
}

const char *bundle__input(const struct bundle *b)
{
	return b->input;
}

bool bundle__option(const struct bundle *b, size_t i, const char **name, const char **arg)
{
	if (i >= b->nr_opts)
		return false;
	*name = b->opt_name[i];
	*arg = b->opt_arg[i];
	return true;
}

void bundle__close(struct bundle *b)
{
	if (!b)
		return;
	vfs_reset();
	free(b->manifest);
	free(b);
}
