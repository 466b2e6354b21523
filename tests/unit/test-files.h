/*
 * File helpers for the unit tests of src/ modules (which link libjitsym):
 * a temporary directory, paths in it, writing files, and running shell
 * commands quietly. Include after common.h.
 */
#ifndef JITSYM_TEST_FILES_H
#define JITSYM_TEST_FILES_H

#include <stdlib.h>
#include <unistd.h>

static char tmpdir[64];
static pid_t tmpdir_owner;   /* forked children must not remove it */

/* A path in the test's temporary directory; free() it. */
static inline char *tpath(const char *name)
{
	return xasprintf("%s/%s", tmpdir, name);
}

static inline void write_file(const char *path, const void *data, size_t len)
{
	FILE *fp = fopen(path, "wb");

	if (!fp || fwrite(data, 1, len, fp) != len || fclose(fp))
		die("cannot write '%s'", path);
}

/* The whole of a file in a heap buffer, or NULL (missing, empty or unreadable). */
static inline unsigned char *slurp_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *p = NULL;
	long n;

	*len = 0;
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) > 0 && fseek(fp, 0, SEEK_SET) == 0) {
		p = xmalloc((size_t)n);
		if (fread(p, 1, (size_t)n, fp) != (size_t)n) {
			free(p);
			p = NULL;
		} else {
			*len = (size_t)n;
		}
	}
	fclose(fp);
	return p;
}

/* Run a shell command with its output discarded; system()'s status. */
static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	va_list ap;
	char *cmd, *full;
	int n, rc;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	cmd = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(cmd, (size_t)n + 1, fmt, ap);
	va_end(ap);
	full = xasprintf("%s >/dev/null 2>&1", cmd);
	rc = system(full);
	free(full);
	free(cmd);
	return rc;
}

static const char *tmpdir_keep;   /* environment variable that keeps tmpdir */

static void tmpdir_remove(void)
{
	if (tmpdir[0] && getpid() == tmpdir_owner && !getenv(tmpdir_keep))
		sh("rm -rf '%s'", tmpdir);
}

/*
 * Create tmpdir as /tmp/NAME.XXXXXX, removed at exit unless the
 * environment variable keep is set; dies when it cannot be created.
 */
static inline void tmpdir_create(const char *name, const char *keep)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/%s.XXXXXX", name);
	if (!mkdtemp(tmpdir))
		die("cannot create a temporary directory");
	tmpdir_keep = keep;
	tmpdir_owner = getpid();
	atexit(tmpdir_remove);
}

/*
 * For the tests of compressed DWARF: a temporary directory for test name
 * (tmpdir_create(name, keep)) holding "inl-main.z", a copy of
 * tests/golden/inline-synth's inl-main with its debug sections compressed
 * as Debian's -dbg packages have them (objcopy
 * --compress-debug-sections=zlib-gabi); its path, and the original's in
 * *orig (free() both). Exits 99 without abs_top_srcdir (tests/setup.sh),
 * 77 without objcopy, and dies when objcopy fails.
 */
static inline char *compressed_inl_main(const char *name, const char *keep, char **orig)
{
	const char *srcdir = getenv("abs_top_srcdir");
	char *copy;

	if (!srcdir) {
		printf("# abs_top_srcdir must be set (tests/setup.sh)\n");
		exit(99);
	}
	if (system("objcopy --version >/dev/null 2>&1") != 0) {
		printf("# SKIP objcopy (binutils) is not installed\n");
		exit(77);
	}
	tmpdir_create(name, keep);
	*orig = xasprintf("%s/tests/golden/inline-synth/symfs/usr/bin/inl-main", srcdir);
	copy = tpath("inl-main.z");
	if (sh("objcopy --compress-debug-sections=zlib-gabi '%s' '%s'", *orig, copy) != 0)
		die("objcopy cannot compress %s's debug sections", *orig);
	return copy;
}

#endif
