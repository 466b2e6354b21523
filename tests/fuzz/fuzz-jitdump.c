/*
 * libFuzzer entry point for libjitdump-reader: read the input as a
 * jitdump file through the memory API, walk every record and check each
 * one against the contract.
 *
 *   clang -g -fsanitize=fuzzer,address,undefined \
 *	-Ilib/jitdump-reader/include -Ilib/jitdump-reader \
 *	lib/jitdump-reader/jitdump-reader.c tests/fuzz/fuzz-jitdump.c -o fuzz-jitdump
 *
 * Checks: records come in file order, lie inside the input, and every
 * pointer (name, code, entries' file names, unwinding data) points inside
 * its record, with strings terminated there; a bad record is skipped by
 * its size; the stream ends exactly once and stays ended. A reader with
 * JITDUMP_READER_NO_DEBUG_ENTRIES returns the same records and errors,
 * debug info without its entries.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jitdump-reader/jitdump-reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                      \
	do {                             \
		if (!(cond))             \
			__builtin_trap(); \
	} while (0)

/* Format every message, so format strings and arguments get exercised. */
__attribute__((format(printf, 2, 0)))
static int print_sink(enum jitdump_print_level level, const char *fmt, va_list ap)
{
	char buf[256];

	(void)level;
	return vsnprintf(buf, sizeof(buf), fmt, ap);
}

/* Is [p, p + n) inside [lo, lo + len)? */
static int inside(const void *p, uint64_t n, const uint8_t *lo, uint64_t len)
{
	const uint8_t *q = p;

	return q >= lo && (uint64_t)(q - lo) <= len && n <= len - (uint64_t)(q - lo);
}

static void check_cstr(const char *s, const uint8_t *rec, uint64_t len)
{
	CHECK(s && inside(s, 1, rec, len));
	CHECK(memchr(s, '\0', len - (uint64_t)((const uint8_t *)s - rec)));
}

static void check_record(const struct jitdump_record *rec, const uint8_t *data, size_t size)
{
	const uint8_t *p = data + rec->offset;
	size_t i;

	CHECK(rec->size >= JITDUMP_RECORD_HEADER_SIZE);
	CHECK(rec->offset <= size && rec->size <= size - rec->offset);
	switch (rec->type) {
	case JITDUMP_CODE_LOAD:
		check_cstr(rec->u.load.name, p, rec->size);
		CHECK(!rec->u.load.code == !rec->u.load.code_size);
		if (rec->u.load.code) {
			CHECK(inside(rec->u.load.code, rec->u.load.code_size, p, rec->size));
			/* the name ends before the code */
			CHECK(rec->u.load.name + strlen(rec->u.load.name) <
			      (const char *)rec->u.load.code);
		}
		break;
	case JITDUMP_CODE_DEBUG_INFO:
		CHECK(!rec->u.debug.entries == !rec->u.debug.nr_entry);
		CHECK(rec->u.debug.nr_entry <= rec->size / 17);
		for (i = 0; i < rec->u.debug.nr_entry; i++)
			check_cstr(rec->u.debug.entries[i].filename, p, rec->size);
		break;
	case JITDUMP_CODE_UNWINDING_INFO:
		CHECK(rec->u.unwind.eh_frame_hdr_size <= rec->u.unwind.unwinding_size);
		CHECK(!rec->u.unwind.data == !rec->u.unwind.unwinding_size);
		if (rec->u.unwind.data)
			CHECK(inside(rec->u.unwind.data, rec->u.unwind.unwinding_size, p, rec->size));
		break;
	case JITDUMP_CODE_MOVE:
		CHECK(rec->size >= 64);
		break;
	case JITDUMP_CODE_CLOSE:
		break;
	default:
		CHECK(0);
	}
}

static void walk(struct jitdump_reader *r, const uint8_t *data, size_t size)
{
	struct jitdump_record rec;
	uint64_t next = jitdump_reader__header_size(r);
	size_t calls = 0;
	int ret;

	CHECK(next >= JITDUMP_HEADER_MIN_SIZE && next <= size);
	/* the one repair: Mono's pointer-sized total_size, read as the 40 bytes */
	CHECK(!(jitdump_reader__quirks(r) & ~JITDUMP_QUIRK_HEADER_SIZE));
	CHECK(!jitdump_reader__quirks(r) || next == JITDUMP_HEADER_MIN_SIZE);
	for (;;) {
		CHECK(++calls <= size / JITDUMP_RECORD_HEADER_SIZE + 2);
		ret = jitdump_reader__next(r, &rec);
		if (ret == -ENOMEM)
			return;
		/* unknown records may have been skipped in between */
		CHECK(rec.offset >= next && rec.offset <= size);
		if (ret == 1)
			check_record(&rec, data, size);
		if (ret == 1 || ret == -JITDUMP_E_BAD_RECORD) {
			CHECK(rec.size >= JITDUMP_RECORD_HEADER_SIZE &&
			      rec.size <= size - rec.offset);
			next = rec.offset + rec.size;
			CHECK(jitdump_reader__offset(r) == next);
			continue;
		}
		CHECK(ret == 0 || ret == -JITDUMP_E_TRUNCATED_RECORD || ret == -JITDUMP_E_BAD_SIZE);
		CHECK(jitdump_reader__offset(r) == rec.offset);
		CHECK(ret != 0 || rec.offset == size);
		CHECK(jitdump__strerror(ret) && jitdump_reader__error_detail(r));
		break;
	}
	/* ended for good */
	{
		struct jitdump_record again;

		CHECK(jitdump_reader__next(r, &again) == ret && again.offset == rec.offset);
	}
}

/* Walk a reader with and one without debug entries side by side. */
static void compare_lean(const uint8_t *data, size_t size)
{
	struct jitdump_reader *full, *lean;
	struct jitdump_record a, b;
	size_t calls = 0;
	int ret;

	full = jitdump_reader__new(data, size, JITDUMP_READER_ARCH_TIMESTAMP_OK);
	lean = jitdump_reader__new(data, size, JITDUMP_READER_ARCH_TIMESTAMP_OK |
				   JITDUMP_READER_NO_DEBUG_ENTRIES);
	CHECK(!full == !lean);
	while (full && lean) {
		CHECK(++calls <= size / JITDUMP_RECORD_HEADER_SIZE + 2);
		ret = jitdump_reader__next(full, &a);
		if (ret == -ENOMEM)
			break;
		CHECK(jitdump_reader__next(lean, &b) == ret);
		CHECK(a.offset == b.offset && a.size == b.size);
		CHECK(jitdump_reader__offset(full) == jitdump_reader__offset(lean));
		if (ret != 1 && ret != -JITDUMP_E_BAD_RECORD)
			break;
		CHECK(a.type == b.type && a.timestamp == b.timestamp);
		if (ret == 1 && a.type == JITDUMP_CODE_DEBUG_INFO)
			CHECK(a.u.debug.code_addr == b.u.debug.code_addr &&
			      a.u.debug.nr_entry == b.u.debug.nr_entry && !b.u.debug.entries);
	}
	jitdump_reader__delete(full);
	jitdump_reader__delete(lean);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jitdump_reader *r, *strict;
	int strict_errno;

	jitdump_reader__set_print(print_sink);
	errno = 0;
	strict = jitdump_reader__new(data, size, 0);
	strict_errno = errno;
	r = jitdump_reader__new(data, size, JITDUMP_READER_ARCH_TIMESTAMP_OK);
	if (!r) {
		CHECK(!strict && errno == strict_errno);
		CHECK(errno == ENOMEM || (errno >= JITDUMP_E_BAD_MAGIC && errno < JITDUMP_E__END &&
					  errno != JITDUMP_E_ARCH_TIMESTAMP));
		return 0;
	}
	CHECK(strict || (strict_errno == JITDUMP_E_ARCH_TIMESTAMP &&
			 (jitdump_reader__flags(r) & JITDUMP_FLAGS_ARCH_TIMESTAMP)));
	CHECK(jitdump_reader__version(r) == 1 || jitdump_reader__version(r) == 2);
	walk(r, data, size);
	jitdump_reader__delete(strict);
	jitdump_reader__delete(r);
	compare_lean(data, size);
	return 0;
}
