#include "common/common.h"
#include "common/outfile.h"
#include "common/async-out.h"
#include "common/progress.h"
#include "common/sbuf.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <unistd.h>

/* Links followed at most, as the kernel's own limit (ELOOP) */
#define MAX_LINKS 40
/* Names tried for the temporary file before giving up */
#define MAX_TMP_TRIES 100
/* The stream's buffer: one write(2) for many fprintf()s */
#define STREAM_BUF_SIZE (64u << 10)

struct outfile {
	FILE *stream;
	char *path;       /* as given, for messages; NULL: standard output */
	char *target;     /* what the temporary file replaces; NULL: written in place */
	char *tmp;
	int fd;           /* under the stream of a file (not async-out's) */
	int err;          /* the first failed write(2)'s errno, for the message */
};

static const int caught[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

/*
 * The temporary file the signal handler removes: the name is written
 * first, then armed is set (release); the handler reads armed (acquire)
 * before the name, on whichever thread it runs.
 */
static char armed_path[PATH_MAX];
static atomic_int armed;

static void on_signal(int sig)
{
	struct sigaction dfl;
	int saved = errno;     /* as every handler: a sanitizer checks */

	if (atomic_load_explicit(&armed, memory_order_acquire))
		unlink(armed_path);
	progress__erase_async();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	/*
	 * Pending while this handler runs (sig is blocked in it), delivered
	 * with the default disposition when it returns: the process ends by
	 * sig, as if there had been no handler.
	 */
	raise(sig);
	errno = saved;
}

void outfile__catch_signals(void)
{
	static bool done;
	struct sigaction sa, old;
	size_t i;

	if (done)
		return;
	done = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(caught); i++)
		sigaddset(&sa.sa_mask, caught[i]);
	for (i = 0; i < ARRAY_SIZE(caught); i++) {
		/* nohup, or "cmd &" in a script: what was ignored stays ignored */
		if (sigaction(caught[i], NULL, &old) || old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}

/*
 * The file path names once symbolic links are followed (which need not
 * exist yet); NULL, errno set, for a loop of links or a path too long.
 */
static char *follow_links(const char *path)
{
	char *cur = xstrdup(path), buf[PATH_MAX];
	int i;

	for (i = 0; i < MAX_LINKS; i++) {
		struct stat st;
		ssize_t n;
		char *next, *dir;

		if (lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, buf, sizeof(buf));
		if (n < 0 || (size_t)n >= sizeof(buf)) {
			free(cur);
			errno = n < 0 ? errno : ENAMETOOLONG;
			return NULL;
		}
		if (buf[0] == '/') {
			next = xasprintf("%.*s", (int)n, buf);
		} else {
			dir = xdirname(cur);
			next = xasprintf("%s/%.*s", dir, (int)n, buf);
			free(dir);
		}
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

/* Disarm the handler, then remove the temporary file (a signal in between unlinks nothing). */
static void remove_tmp(struct outfile *o)
{
	unlink(o->tmp);
	atomic_store_explicit(&armed, 0, memory_order_release);
}

/*
 * Create o->tmp beside o->target, armed for the signal handler; the fd,
 * or -1 after error(). st: the target's, when it exists.
 */
static int create_tmp(struct outfile *o, const struct stat *st)
{
	char *dir = xdirname(o->target);
	const char *base = strrchr(o->target, '/') ? strrchr(o->target, '/') + 1 : o->target;
	int fd = -1, i;

	for (i = 0; i < MAX_TMP_TRIES && fd < 0; i++) {
		free(o->tmp);
		o->tmp = i ? xasprintf("%s/%s.jitsym-%ld-%d.tmp", dir, base, (long)getpid(), i) :
			     xasprintf("%s/%s.jitsym-%ld.tmp", dir, base, (long)getpid());
		if (strlen(o->tmp) >= sizeof(armed_path)) {
			errno = ENAMETOOLONG;
			break;
		}
		/* armed before it exists: a signal right after open() still removes it */
		memcpy(armed_path, o->tmp, strlen(o->tmp) + 1);
		atomic_store_explicit(&armed, 1, memory_order_release);
		fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0)
			atomic_store_explicit(&armed, 0, memory_order_release);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		/* no file: what fopen() would have said; a file: why it stays as it is */
		if (!st)
			error("cannot open '%s' for writing: %s", o->path, strerror(errno));
		else
			error("cannot create a temporary file in '%s' to replace '%s': %s; "
			      "write elsewhere, or to standard output", dir, o->path,
			      strerror(errno));
		free(dir);
		return -1;
	}
	free(dir);
	if (st) {
		/* what writing over the file in place would have kept (an owner: as root) */
		if (fchmod(fd, st->st_mode & 07777))
			note("cannot keep the mode of '%s': %s", o->path, strerror(errno));
		if ((st->st_uid != geteuid() || st->st_gid != getegid()) &&
		    fchown(fd, st->st_uid, st->st_gid))
			note("cannot keep the owner of '%s': %s", o->path, strerror(errno));
	}
	return fd;
}

/*
 * The stream of a file: write(2) whole, keeping the first failure's errno
 * (stdio's error flag forgets it, and the message at the end names it).
 * A failure returns the bytes written before it, never -1: glibc takes a
 * cookie's count as unsigned, and a large fwrite() after -1 reads past
 * its buffer (fopencookie(3): "must not return a negative value"); a
 * short count sets the stream's error flag.
 */
static ssize_t stream_write(void *cookie, const char *buf, size_t size)
{
	struct outfile *o = cookie;
	size_t done = 0;

	if (o->err) {
		errno = o->err;
		return 0;
	}
	while (done < size) {
		ssize_t n = write(o->fd, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			o->err = n < 0 ? errno : EIO;
			errno = o->err;
			return (ssize_t)done;
		}
		done += (size_t)n;
	}
	return (ssize_t)size;
}

static int stream_close(void *cookie)
{
	struct outfile *o = cookie;

	if (close(o->fd) && !o->err)
		o->err = errno;
	o->fd = -1;
	errno = o->err;
	return o->err ? -1 : 0;
}

/*
 * The stream over fd: with a thread, async-out's over a plain one (its
 * thread keeps the errno itself); else one of ours. -1 after error().
 */
static int open_stream(struct outfile *o, int fd, bool thread)
{
	cookie_io_functions_t io = { .write = stream_write, .close = stream_close };
	FILE *plain;

	o->fd = fd;
	if (thread && (plain = fdopen(fd, "w"))) {
		o->stream = async_out__open(plain);
		if (o->stream)
			return 0;
		/* no thread to be had: written here, as with --threads 1 */
		o->stream = plain;
		return 0;
	}
	o->stream = fopencookie(o, "w", io);
	if (!o->stream)
		return error("cannot open '%s' for writing: %s", o->path, strerror(errno));
	setvbuf(o->stream, NULL, _IOFBF, STREAM_BUF_SIZE);
	return 0;
}

/* o->path: a temporary file beside a regular file, or the file itself in place; -1 after error(). */
static int open_file(struct outfile *o, bool thread)
{
	struct stat st;
	bool exists;
	int fd;

	o->target = follow_links(o->path);
	if (!o->target)
		return error("cannot open '%s' for writing: %s", o->path, strerror(errno));
	exists = !stat(o->target, &st);
	if (!exists && errno != ENOENT)
		return error("cannot open '%s' for writing: %s", o->path, strerror(errno));
	if (exists && !S_ISREG(st.st_mode)) {
		/* a device, a FIFO: nothing to rename onto; opened as fopen(path, "w") would */
		free(o->target);
		o->target = NULL;
		fd = open(o->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (fd < 0)
			return error("cannot open '%s' for writing: %s", o->path, strerror(errno));
		if (open_stream(o, fd, thread)) {
			close(fd);
			return -1;
		}
		return 0;
	}
	/* a file we may not write stays so, as when it was opened in place */
	if (exists) {
		fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return error("cannot open '%s' for writing: %s", o->path, strerror(errno));
		close(fd);
	}
	fd = create_tmp(o, exists ? &st : NULL);
	if (fd < 0)
		return -1;
	if (open_stream(o, fd, thread)) {
		close(fd);
		remove_tmp(o);
		return -1;
	}
	return 0;
}

static void outfile_free(struct outfile *o)
{
	free(o->path);
	free(o->target);
	free(o->tmp);
	free(o);
}

struct outfile *outfile__open(const char *path, bool thread)
{
	struct outfile *o = xcalloc(1, sizeof(*o));
	FILE *async;

	o->fd = -1;
	o->stream = stdout;
	if (path) {
		o->path = xstrdup(path);
		if (open_file(o, thread)) {
			outfile_free(o);
			return NULL;
		}
		return o;
	}
	/* no thread to be had: write it here, as with --threads 1 */
	if (thread && (async = async_out__open(stdout)))
		o->stream = async;
	return o;
}

FILE *outfile__stream(struct outfile *o)
{
	return o->stream;
}

int outfile__close(struct outfile *o, bool keep)
{
	int err = 0;

	if (!o)
		return -1;
	errno = 0;
	if (fflush(o->stream) || ferror(o->stream))
		err = o->err ? o->err : errno ? errno : EIO;
	/* stdout is flushed, not closed (async-out's stream on it does the same) */
	if (o->stream != stdout && fclose(o->stream) && !err)
		err = o->err ? o->err : errno ? errno : EIO;
	if (o->tmp) {
		if (keep && !err && rename(o->tmp, o->target))
			err = errno;
		if (keep && !err)
			atomic_store_explicit(&armed, 0, memory_order_release);
		else
			remove_tmp(o);
	}
	/* one line, however many of the steps failed */
	if (err && o->path)
		error("cannot write '%s': %s", o->path, strerror(err));
	else if (err)
		error("cannot write output: %s", strerror(err));
	outfile_free(o);
	return err ? -1 : 0;
}

int fd_write_all(int fd, const char *name, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n) {
		ssize_t got = write(fd, b, n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return error("cannot write '%s': %s", name,
				     got < 0 ? strerror(errno) : "nothing written");
		b += got;
		n -= (size_t)got;
	}
	return 0;
}
