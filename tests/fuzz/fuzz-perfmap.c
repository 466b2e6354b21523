/*
 * libFuzzer entry point for libperfmap: parse the input as a perf map and
 * check every lookup against the contract.
 *
 *   clang -fsanitize=fuzzer,address,undefined -Ilib/perfmap/include \
 *	lib/perfmap/perfmap.c tests/fuzz/fuzz-perfmap.c -o fuzz-perfmap
 *
 * Probes: each entry's first, last, one-past-last and one-before address,
 * and values taken from the input. For small maps the answer is checked
 * against a brute-force search for the latest line covering the address.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "perfmap/perfmap.h"

#define BRUTE_FORCE_MAX 256
#define PROBE_ENTRIES_MAX 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                      \
	do {                             \
		if (!(cond))             \
			__builtin_trap(); \
	} while (0)

/* Format every message, so format strings and arguments get exercised. */
static int print_sink(enum perfmap_print_level level, const char *fmt, va_list ap)
{
	char buf[256];

	(void)level;
	return vsnprintf(buf, sizeof(buf), fmt, ap);
}

static const struct perfmap_entry *brute_force(const struct perfmap *pm, uint64_t addr)
{
	size_t i = perfmap__nr_entries(pm);

	while (i--) {
		const struct perfmap_entry *e = perfmap__entry(pm, i);

		if (addr >= e->start && addr - e->start < e->size)
			return e;
	}
	return NULL;
}

static void probe(const struct perfmap *pm, uint64_t addr)
{
	const struct perfmap_entry *e = perfmap__lookup(pm, addr);

	if (e)
		CHECK(addr >= e->start && addr - e->start < e->size);
	if (perfmap__nr_entries(pm) <= BRUTE_FORCE_MAX)
		CHECK(e == brute_force(pm, addr));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfmap *pm;
	size_t i, n;

	perfmap__set_print(print_sink);
	pm = perfmap__parse((const char *)data, size);
	if (!pm)
		return 0;   /* only ENOMEM can get here */
	n = perfmap__nr_entries(pm);
	CHECK(n + perfmap__nr_bad_lines(pm) <= size + 1);
	CHECK(!perfmap__entry(pm, n));
	/* the part not read is the last line, without its newline, and only it */
	i = perfmap__partial_bytes(pm);
	CHECK(i <= size && (i == size || data[size - i - 1] == '\n'));
	CHECK(!i || !memchr(data + size - i, '\n', i));
	CHECK(!size || i || data[size - 1] == '\n');
	for (i = 0; i < n; i++) {
		const struct perfmap_entry *e = perfmap__entry(pm, i);

		CHECK(e && e->name && e->name[0]);
		CHECK(strlen(e->name) <= PERFMAP_MAX_NAME);
		CHECK(!e->size || e->size - 1 <= UINT64_MAX - e->start);
		if (i >= PROBE_ENTRIES_MAX)
			continue;
		probe(pm, e->start);
		probe(pm, e->start - 1);
		probe(pm, e->start + e->size);
		if (e->size)
			probe(pm, e->start + e->size - 1);
	}
	for (i = 0; i + 8 <= size && i < 64; i += 8) {
		uint64_t addr;

		memcpy(&addr, data + i, sizeof(addr));
		probe(pm, addr);
	}
	probe(pm, 0);
	probe(pm, UINT64_MAX);
	perfmap__delete(pm);
	return 0;
}
