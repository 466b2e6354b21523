/*
 * libjitdump-reader: read jitdump files, jit-PID.dump, written by JIT
 * runtimes (V8 --perf-prof, the JVM through perf's JVMTI agent, .NET,
 * wasmtime, ...). Format: tools/perf/Documentation/jitdump-specification.txt
 * in the Linux tree.
 *
 * A file is a header (magic "JiTD", version, size, e_machine, pid,
 * timestamp, flags) followed by records, each {id, total_size, timestamp}
 * and a payload. The reader hands the records out one at a time, decoded
 * into host byte order, whichever byte order the file was written in.
 *
 * What is checked, so that no file can make the reader look outside it:
 *  - The header: magic in either byte order, version 1 or 2, total_size at
 *    least JITDUMP_HEADER_MIN_SIZE (a larger one is a newer header: the
 *    bytes past the fields known here are skipped), or Mono's pointer-sized
 *    one (below).
 *  - Every record: total_size at least the 16-byte record header and
 *    within the file, before anything inside it is read; then each field,
 *    count and string against total_size: a name must be NUL-terminated
 *    inside the record (before the code bytes, for JIT_CODE_LOAD),
 *    code_size and unwinding_size must fit, nr_entry minimal-size entries
 *    must fit before the entries are allocated. Nothing is allocated from
 *    a count in the file before it has been checked against the bytes that
 *    remain, so memory stays proportional to the file size.
 *  - Bytes after the fields known here (padding, newer fields) are
 *    skipped; records with an id not known here are skipped by their
 *    total_size and counted (jitdump_reader__nr_unknown()).
 *
 * How the stream ends (see jitdump_reader__next()): at the end of the data,
 * or at a record that is cut short (a runtime killed mid-write) or whose
 * size is impossible; every record before it has been returned and the
 * error says where it stopped. A record whose size is sound but whose
 * contents are not (bad count, unterminated name) is reported and skipped,
 * and the stream goes on. There is no resynchronisation after a bad size.
 *
 * Runtime quirks are passed through untouched, for the caller to handle:
 *  - V8 (Node.js) writes JIT_CODE_DEBUG_INFO entry addresses biased by the
 *    size of an ELF header, 0x40: the entry for the instruction at
 *    code_addr + k is written as code_addr + k + 0x40. It also stores the
 *    source column in discrim, and writes version 1 files that contain
 *    JIT_CODE_UNWINDING_INFO records (accepted in either version here).
 *  - perf's JVMTI agent pads the function name to 8 bytes: the code bytes
 *    of JIT_CODE_LOAD are the last code_size bytes of the record, not the
 *    bytes right after the name.
 *
 * One quirk is repaired, and said (jitdump_reader__quirks()):
 *  - Mono (mini-runtime.c, version 2 files) writes the header's total_size
 *    as the size of a pointer, 8 (4 on 32-bit hosts), not of the header,
 *    which it writes whole (40 bytes). A total_size of 4 or 8 is read as
 *    40 when what follows the 40 bytes can start the records: fewer than
 *    16 bytes (a file still being written), or a record header with a
 *    known id and a total_size of at least 16. Any other total_size below
 *    40 is JITDUMP_E_BAD_SIZE.
 * Others are the caller's: Erlang/OTP's BeamAsm writes erts_thr_self() (a
 * thread handle, not an OS tid) as the tid of its records and EM_X86_64
 * as e_machine whatever the host; nothing here checks either.
 *
 * Errors: functions returning int return 0 (jitdump_reader__next(): 1 or
 * 0, see there) or a negative error: -errno for system errors, or minus a JITDUMP_E_* value
 * for a malformed file (the JITDUMP_E_* values do not collide with errno
 * values). Functions returning a pointer return NULL and set errno to the
 * positive value. jitdump__strerror() describes either kind.
 *
 * The library never prints: diagnostics go to the callback set with
 * jitdump_reader__set_print() (none by default). Readers are independent:
 * two threads may use two readers; jitdump_reader__set_print() sets
 * process-wide state.
 *
 * Stability: the soname, libjitdump-reader.so.1, is the ABI version.
 * Within it, functions are only added, never removed or changed; struct
 * jitdump_record (its size included) and struct jitdump_debug_entry keep
 * their layout; enum values, error codes and flag bits keep their meaning
 * (new ones may be added: callers should expect values they do not know);
 * documented behaviour changes only to fix a bug. Any other change comes
 * with a new soname, libjitdump-reader.so.2. The shared library exports
 * the functions declared here and nothing else. Build with
 * "pkg-config --cflags --libs jitdump-reader"; see libjitdump-reader(3).
 */
#ifndef JITDUMP_READER_JITDUMP_READER_H
#define JITDUMP_READER_JITDUMP_READER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JITDUMP_MAGIC 0x4A695444u           /* "JiTD" */
#define JITDUMP_HEADER_MIN_SIZE 40u         /* every field up to flags */
#define JITDUMP_RECORD_HEADER_SIZE 16u      /* id, total_size, timestamp */

/* Header flags. */
#define JITDUMP_FLAGS_ARCH_TIMESTAMP (1ull << 0)

/*
 * Open flags for jitdump_reader__open() and jitdump_reader__new().
 *
 * ARCH_TIMESTAMP_OK: accept a file with JITDUMP_FLAGS_ARCH_TIMESTAMP: its timestamps come
 * from an architecture clock (e.g. the x86 TSC), not from the clock perf
 * uses, and are handed out unconverted. Without this flag such a file is
 * refused with JITDUMP_E_ARCH_TIMESTAMP, so that no caller mis-times it
 * by accident.
 */
#define JITDUMP_READER_ARCH_TIMESTAMP_OK (1u << 0)
/*
 * NO_DEBUG_ENTRIES: for callers that do not want line tables. A
 * JIT_CODE_DEBUG_INFO record is checked exactly as without the flag (a
 * record is malformed or not either way), but its entries are not kept:
 * debug.entries is NULL and debug.nr_entry still counts the entries the
 * record holds. Saves the entries array and the caller's work on it.
 */
#define JITDUMP_READER_NO_DEBUG_ENTRIES  (1u << 1)

/*
 * Format errors. Returned negated by int functions, set positive in errno
 * by pointer functions. They start above every errno value.
 */
enum jitdump_error {
	JITDUMP_E_BAD_MAGIC = 4000,  /* not a jitdump file */
	JITDUMP_E_BAD_VERSION,       /* header version neither 1 nor 2 */
	JITDUMP_E_TRUNCATED_HEADER,  /* the file ends inside the header */
	JITDUMP_E_TRUNCATED_RECORD,  /* a record is cut short by the end of the file */
	JITDUMP_E_BAD_SIZE,          /* a total_size that cannot be right */
	JITDUMP_E_BAD_RECORD,        /* a record's contents do not fit its size */
	JITDUMP_E_ARCH_TIMESTAMP,    /* architecture timestamps, not supported */
	JITDUMP_E__END,
};

/*
 * What err means, for err positive or negative: a JITDUMP_E_* value or an
 * errno value. A static string, never NULL.
 */
const char *jitdump__strerror(int err);

enum jitdump_record_type {
	JITDUMP_CODE_LOAD = 0,
	JITDUMP_CODE_MOVE = 1,
	JITDUMP_CODE_DEBUG_INFO = 2,
	JITDUMP_CODE_CLOSE = 3,
	JITDUMP_CODE_UNWINDING_INFO = 4,
};

/* One line-table entry of a JIT_CODE_DEBUG_INFO record. */
struct jitdump_debug_entry {
	uint64_t addr;          /* V8: biased by 0x40, see above */
	uint32_t lineno;        /* from 1 */
	uint32_t discrim;       /* V8: the column */
	/*
	 * NUL-terminated, never NULL. The "same file as the previous entry"
	 * marker, the bytes 0xff 0x00 as the name (used by some writers; not
	 * in the 2016 spec text), is resolved to that entry's name; in the
	 * first entry it makes the record malformed.
	 */
	const char *filename;
};

/*
 * One record, in host byte order. Lifetime: the bytes in the file image
 * (name, code, data, filename) stay valid until jitdump_reader__delete();
 * debug.entries is the reader's own array, reused by the next call to
 * jitdump_reader__next().
 */
struct jitdump_record {
	enum jitdump_record_type type;
	uint32_t size;          /* total_size, record header included */
	uint64_t offset;        /* of the record header in the file */
	uint64_t timestamp;
	union {
		struct {
			uint32_t pid, tid;
			uint64_t vma;
			uint64_t code_addr;
			uint64_t code_size;
			uint64_t code_index;
			const char *name;       /* NUL-terminated */
			const uint8_t *code;    /* code_size bytes; NULL when 0 */
		} load;
		struct {
			uint32_t pid, tid;
			uint64_t vma;
			uint64_t old_code_addr;
			uint64_t new_code_addr;
			uint64_t code_size;
			uint64_t code_index;
		} move;
		struct {
			uint64_t code_addr;
			size_t nr_entry;
			/* NULL when nr_entry is 0, or with JITDUMP_READER_NO_DEBUG_ENTRIES */
			const struct jitdump_debug_entry *entries;
		} debug;
		struct {
			uint64_t unwinding_size;    /* bytes of data */
			uint64_t eh_frame_hdr_size; /* at the start of data; <= unwinding_size */
			uint64_t mapped_size;       /* as written, unchecked */
			const uint8_t *data;        /* NULL when unwinding_size is 0 */
		} unwind;
		/* JITDUMP_CODE_CLOSE has no payload. */
	} u;
};

struct jitdump_reader;

/*
 * Open a jitdump file read-only and check its header. The file is mapped
 * (read into memory if it cannot be, e.g. a pipe); a file still being
 * appended to is read up to its size when opened (one truncated while
 * open would fault the mapping; runtimes only ever append). The mapped
 * pages the reader has moved past are given back to the system as it goes
 * (they are read again from the file if a record's bytes are touched
 * later), so memory use does not grow with the file. flags:
 * JITDUMP_READER_*.
 * NULL and errno on failure: open and read errors as the system reports
 * them, ENOMEM, EINVAL for unknown flags, or JITDUMP_E_BAD_MAGIC,
 * _BAD_VERSION, _TRUNCATED_HEADER, _BAD_SIZE (header total_size too
 * small), _ARCH_TIMESTAMP.
 */
struct jitdump_reader *jitdump_reader__open(const char *path, unsigned int flags);

/*
 * The same over len bytes at buf, which are not copied: they must stay
 * valid and unchanged until jitdump_reader__delete().
 */
struct jitdump_reader *jitdump_reader__new(const void *buf, size_t len, unsigned int flags);

/* Unmap or free everything; accepts NULL. */
void jitdump_reader__delete(struct jitdump_reader *r);

/*
 * Decode the next record into *rec. Returns:
 *   1  a record, in *rec;
 *   0  the end of the data, after the last whole record;
 *  -JITDUMP_E_TRUNCATED_RECORD  the record at rec->offset is cut short by
 *      the end of the data: fewer than 16 bytes, or fewer than total_size,
 *      with everything that is present consistent with it;
 *  -JITDUMP_E_BAD_SIZE  the record at rec->offset has a total_size below
 *      16, or runs past the end of the data and what is present of it is
 *      malformed (so the size is more likely wrong than the file short);
 *  -JITDUMP_E_BAD_RECORD  the record at rec->offset (rec->type, ->size,
 *      ->timestamp set) fits in the file but its contents do not fit its
 *      total_size; the reader has moved past it and the next call goes on;
 *  -ENOMEM  nothing consumed; a later call may retry.
 * 0, -JITDUMP_E_TRUNCATED_RECORD and -JITDUMP_E_BAD_SIZE end the stream:
 * every later call returns the same. On errors only rec->offset, and what
 * is named above, are meaningful. Records with unknown ids are skipped.
 */
int jitdump_reader__next(struct jitdump_reader *r, struct jitdump_record *rec);

/*
 * The offset of the next record to read; once the stream has ended with
 * an error, the offset of the record that ended it.
 */
uint64_t jitdump_reader__offset(const struct jitdump_reader *r);

/*
 * Which check failed, for the last error jitdump_reader__next() returned,
 * e.g. "nr_entry too large for the record"; for messages. A static
 * string, "no error" before any error.
 */
const char *jitdump_reader__error_detail(const struct jitdump_reader *r);

/* Records skipped because their id is not one of enum jitdump_record_type. */
size_t jitdump_reader__nr_unknown(const struct jitdump_reader *r);

/* The file header, in host byte order. */
uint32_t jitdump_reader__version(const struct jitdump_reader *r);
uint32_t jitdump_reader__e_machine(const struct jitdump_reader *r);  /* ELF EM_* */
uint32_t jitdump_reader__pid(const struct jitdump_reader *r);
uint64_t jitdump_reader__timestamp(const struct jitdump_reader *r);
uint64_t jitdump_reader__flags(const struct jitdump_reader *r);      /* JITDUMP_FLAGS_* */
uint32_t jitdump_reader__header_size(const struct jitdump_reader *r);  /* where records start */

/* The header's total_size was a pointer's size (Mono) and was read as 40. */
#define JITDUMP_QUIRK_HEADER_SIZE (1u << 0)
/* What was read other than as written: JITDUMP_QUIRK_* bits. */
unsigned int jitdump_reader__quirks(const struct jitdump_reader *r);
/* True when the file's byte order is not the host's. */
bool jitdump_reader__swapped(const struct jitdump_reader *r);

enum jitdump_print_level {
	JITDUMP_WARN,
	JITDUMP_INFO,
	JITDUMP_DEBUG,
};

/*
 * Messages have no trailing newline and name the file and offset, e.g.
 * "'jit-42.dump': record at offset 4096: unknown id 9, skipped" ("buffer"
 * in place of the path for jitdump_reader__new()).
 */
typedef int (*jitdump_print_fn_t)(enum jitdump_print_level level,
				  const char *fmt, va_list ap);

/* Set the diagnostic callback (NULL: silent); returns the previous one. */
jitdump_print_fn_t jitdump_reader__set_print(jitdump_print_fn_t fn);

#ifdef __cplusplus
}
#endif

#endif
