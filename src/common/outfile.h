/*
 * outfile: a command's output (-o FILE, or standard output), never
 * half-written.
 *
 * The contract:
 *  - -o FILE, FILE a regular file or not there yet, is written to a
 *    temporary file beside it ("FILE.jitsym-PID.tmp" in FILE's directory,
 *    created with O_EXCL, the mode a new FILE would get under the umask,
 *    or an existing FILE's mode and, where allowed, owner) and renamed
 *    over FILE by outfile__close(keep) only once every byte was written
 *    and the stream closed without error. A symbolic link is followed:
 *    the file it names is replaced, the link stays.
 *  - A write error (a full disk, a file size limit, EIO) or a failed run
 *    (keep false) removes the temporary file: an existing FILE stays
 *    byte-identical, a new one is not created.
 *  - SIGINT, SIGTERM, SIGHUP and SIGPIPE, once outfile__catch_signals()
 *    ran, remove the temporary file, erase the progress line
 *    (progress.h) and end the process by the same signal, with its default
 *    disposition: the exit status the shell sees is 128 + the signal's
 *    number. A signal ignored when the process started stays ignored.
 *    The handler is async-signal-safe (unlink(2), write(2), sigaction,
 *    raise) and works on whichever thread the signal lands (the session's,
 *    the sample hook's, async-out's writer).
 *  - Standard output (no -o, or -o -) and -o of what is not a regular
 *    file (a device such as /dev/null or /dev/full, a FIFO, a dangling
 *    link) are written in place, as before: there is nothing to rename
 *    onto. Bytes already written there stay.
 *  - A file we may not write (open(2) for writing fails) is not replaced:
 *    the error is fopen()'s, as when it was opened in place.
 *  - There is no fsync(): the contract is about this process ending early,
 *    not about the machine crashing, and a profile is made again more
 *    cheaply than gigabytes are waited for (ext4's auto_da_alloc writes
 *    a file renamed over another out with the rename anyway).
 * SIGKILL (or a crash) cannot be caught: FILE stays as it was, and the
 * temporary file is left behind. A file hard-linked elsewhere gets a new
 * inode: the other names keep the old content. One output at a time per
 * process.
 */
#ifndef JITSYM_OUTFILE_H
#define JITSYM_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct outfile;

/*
 * Install the signal handlers above (for the whole run; idempotent).
 * Without an output open they only erase the progress line.
 */
void outfile__catch_signals(void);

/*
 * Open path for writing (NULL: standard output); NULL after error()
 * naming path. With thread, the stream's bytes are written by a thread of
 * its own (async-out.h) where one can be started.
 */
struct outfile *outfile__open(const char *path, bool thread);
/* The stream to write to; valid until outfile__close(). */
FILE *outfile__stream(struct outfile *o);
/*
 * Flush and close the stream, then with keep rename the temporary file
 * into place; without keep, or when anything failed, remove it. Frees o.
 * -1 after one error() naming the file when writing failed (here, or
 * before: the stream's error flag), 0 otherwise. Accepts NULL (-1).
 */
int outfile__close(struct outfile *o, bool keep);

/*
 * Write all n bytes of p to fd (a file or pipe of one's own, not an
 * outfile), retrying short writes and EINTR; -1 after one error() naming
 * the file by name.
 */
int fd_write_all(int fd, const char *name, const void *p, size_t n);

#endif
