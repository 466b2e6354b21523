/*
 * tarzst: the container of a jitsym recording bundle (jitsym archive):
 * a POSIX tar stream compressed as one zstd stream, so that
 * "tar --zstd -xf rec.jsar" and "zstd -dc rec.jsar | tar t" open it.
 *
 * The tar stream is ustar ("ustar\0" "00"); a member whose path does not
 * fit ustar's name/prefix fields, whose symlink target is over 100 bytes,
 * whose size is 8 GiB or more or whose mtime is before 1970 or after
 * 2242 gets a pax extended header ('x') before it, carrying path,
 * linkpath, size or mtime. The writer's output depends on its inputs
 * and the libzstd version only: uid and gid 0, empty user and group names, the mode and mtime
 * given, no pax times or atime, one zstd thread; the frame carries
 * zstd's checksum.
 *
 * The reader takes any bytes: every length is checked against what is
 * left and what it may be (names, link targets and pax headers at most
 * TARZST_MAX_HEADER bytes), a header's checksum is checked (as tar does,
 * either sum of its bytes as unsigned or as signed), and damage is an
 * error() naming the file and the offset in the uncompressed tar stream.
 * Names are refused when they are absolute or have a "..", "." (but for
 * a leading "./") or empty component. Memory is bounded: those caps, two
 * buffers of about 128 KiB, and zstd's window limit (128 MiB at most,
 * for a frame that asks for it). Member counts and the total of the data
 * read are the caller's to limit.
 *
 * Errors: every function that fails says why with error() (msg.h) first,
 * naming the file; functions returning int return -1 then, those
 * returning a pointer NULL. Neither object is thread-safe; one thread
 * uses one at a time.
 */
#ifndef JITSYM_TARZST_H
#define JITSYM_TARZST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest member name, link target or pax extended header the reader takes. */
#define TARZST_MAX_HEADER (64u << 10)

/* ---- writing ------------------------------------------------------------ */

struct tarzst_writer;

/*
 * A new container written to fd (not closed by us; nothing is written
 * before the first member) at zstd level (3 is zstd's default; 0 means
 * it too); name is the output's, for messages. NULL after error().
 */
struct tarzst_writer *tarzst_writer__new(int fd, const char *name, int level);

/*
 * A regular file member, its data size bytes read from src_fd from its
 * current offset (src_name for messages): a file that ends sooner is an
 * error naming src_name. mode: permission bits (e.g. 0644); mtime: seconds
 * since the epoch. 0, or -1 after error().
 *
 * member: a relative path of '/'-separated components, none of them ""
 * (no "a//b", no trailing '/'), "." or ".."; a name refused so writes
 * nothing, and w stays usable. After a write error, or a source that
 * ended early (the member is then half written), every call but
 * tarzst_writer__abort() fails without writing or saying more.
 */
int tarzst_writer__add_fd(struct tarzst_writer *w, const char *member, int src_fd,
			  const char *src_name, uint64_t size, unsigned mode, int64_t mtime);
/* A regular file member of the len bytes at buf; as tarzst_writer__add_fd(). */
int tarzst_writer__add_mem(struct tarzst_writer *w, const char *member, const void *buf,
			   size_t len, unsigned mode, int64_t mtime);
/* A symbolic link member pointing at target (not checked, not empty); mode 0777. */
int tarzst_writer__add_symlink(struct tarzst_writer *w, const char *member, const char *target,
			       int64_t mtime);

/*
 * End the archive (two zero blocks), end the zstd frame and write out
 * what is left. 0, or -1 after error() (a write error, or an earlier one).
 * Frees w either way; fd stays open and is not synced.
 */
int tarzst_writer__finish(struct tarzst_writer *w);
/* Abandon w (on error paths): frees it, writes nothing more. Accepts NULL. */
void tarzst_writer__abort(struct tarzst_writer *w);

/* ---- reading ------------------------------------------------------------ */

struct tarzst_reader;

enum tarzst_type {
	TARZST_FILE,
	TARZST_SYMLINK,
	TARZST_DIR,
};

struct tarzst_entry {
	const char *name;        /* valid until the next call; normalized: no leading "./", no trailing '/' */
	enum tarzst_type type;
	uint64_t size;           /* FILE: bytes of data (0 for the others) */
	const char *link;        /* SYMLINK: its target (NULL for the others); valid as name */
	int64_t mtime;
	uint64_t offset;         /* offset of the member's (first, extended) header in the uncompressed tar stream, for messages */
};

/*
 * Read the container from fd, sequentially (a pipe will do; not closed
 * by us); name for messages. NULL after error(), e.g. when fd does not
 * start with a zstd frame: "not a jitsym bundle (no zstd stream)".
 */
struct tarzst_reader *tarzst_reader__new(int fd, const char *name);

/*
 * The next member: 1 with *e filled, 0 at the end of the archive (its two
 * zero blocks, then the rest of the zstd frame they are in, to its
 * checksum; what follows that frame is not decoded), -1 after error() naming
 * the file and the offset (a bad header checksum, a truncated stream, a
 * zstd error, a bad pax record, a refused name). Other kinds of member
 * (hard links, devices, FIFOs, pax global headers, GNU extensions) are
 * skipped with one warning per kind. Data of the current member not read
 * is skipped first. After -1, every further call returns -1. pax 'x'
 * headers (path, linkpath, size, mtime) and GNU long names ('L', 'K')
 * apply to the member after them; "./" and the archive's top directory
 * are dropped.
 */
int tarzst_reader__next(struct tarzst_reader *r, struct tarzst_entry *e);

/*
 * Copy the current FILE member's data to out_fd (out_name for messages).
 * The data goes at out_fd's current offset. With sparse (out_fd a
 * regular file), 4096-byte blocks that are all zero are seeked over, not
 * written, and the file is ftruncate()d to that offset + the member's
 * size at the end, so a mostly-zero member takes little disk. 0, or -1
 * after error(). Once per member: a member partly read cannot be copied.
 */
int tarzst_reader__copy_to_fd(struct tarzst_reader *r, int out_fd, const char *out_name,
			      bool sparse);

/*
 * Read the current FILE member into a new malloc'd buffer (*buf, free()
 * it), NUL-terminated after its *len bytes for convenience. A member over
 * max bytes is refused with error() before anything is read. 0, or -1
 * after error() (*buf NULL).
 */
int tarzst_reader__read_mem(struct tarzst_reader *r, size_t max, void **buf, size_t *len);

/* Free r; fd stays open. Accepts NULL. */
void tarzst_reader__delete(struct tarzst_reader *r);

#endif
