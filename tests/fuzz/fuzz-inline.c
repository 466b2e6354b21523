/*
 * libFuzzer entry point for the inline lookup (src/resolve/inline.c and
 * the DWARF reading it shares, src/resolve/dwarf-file.c): the input is an
 * ELF file, a native frame's object, binary and symbol file alike.
 *
 * The input is written to a memfd (nothing is left on disk, even after a
 * crash) read through /proc/self/fd/N, and a fresh cache looks up, in it:
 * the entry point, each section's first, middle and last address (of the
 * first SECTIONS_MAX section headers, when the input has them where an
 * ELF64 header says), and four addresses read from the input's last 32
 * bytes. Each answer is checked (no more than INLINE_MAX_DEPTH names, none
 * NULL or empty) and asked again, when the cache must give the same names.
 * The low bit of the input's length chooses demangling.
 *
 * The input is also parsed as an entry of the DWARF cache
 * (src/resolve/dwarf-cache.h), for the build id its own header names;
 * every section it gives must lie inside it. The cache itself is off
 * (JITSYM_CACHE_DIR empty): nothing is written to disk.
 */
#define _GNU_SOURCE
#include "common/common.h"
#include "common/strpool.h"
#include "resolve/dwarf-cache.h"
#include "resolve/inline.h"
#include "resolve/sample.h"

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define SECTIONS_MAX 64
#define ADDRS_MAX (1 + 3 * SECTIONS_MAX + 4)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                      \
	do {                             \
		if (!(cond))             \
			__builtin_trap(); \
	} while (0)

static int fd = -1;
static char path[64];

static void write_input(const uint8_t *p, size_t n)
{
	if (fd < 0) {
		fd = memfd_create("fuzz-inline", MFD_CLOEXEC);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) != 0) {
		perror("memfd");
		abort();
	}
	while (n) {
		ssize_t got = write(fd, p, n);

		if (got <= 0) {
			perror("memfd");
			abort();
		}
		p += got;
		n -= (size_t)got;
	}
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The addresses to look up: *n of them into addrs. */
static size_t addresses(const uint8_t *data, size_t size, uint64_t *addrs)
{
	Elf64_Ehdr eh;
	size_t n = 0, i;

	if (size >= sizeof(eh)) {
		memcpy(&eh, data, sizeof(eh));
		addrs[n++] = eh.e_entry;
		if (eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shoff < size) {
			size_t nr = (size - eh.e_shoff) / sizeof(Elf64_Shdr);

			if (nr > eh.e_shnum)
				nr = eh.e_shnum;
			if (nr > SECTIONS_MAX)
				nr = SECTIONS_MAX;
			for (i = 0; i < nr; i++) {
				Elf64_Shdr sh;

				memcpy(&sh, data + eh.e_shoff + i * sizeof(sh), sizeof(sh));
				addrs[n++] = sh.sh_addr;
				addrs[n++] = sh.sh_addr + sh.sh_size / 2;
				addrs[n++] = sh.sh_addr + sh.sh_size - 1;
			}
		}
	}
	for (i = 0; i < 4 && size >= 8 * (i + 1); i++)
		addrs[n++] = get_u64(data + size - 8 * (i + 1));
	return n;
}

/* The input as a DWARF cache entry: its build id's length at 20, the id at 24. */
static void parse_as_cache_entry(const uint8_t *data, size_t size)
{
	struct dwarf_cache_section secs[DWARF_CACHE_MAX_SECTIONS];
	uint32_t bid_len;
	size_t nr, i;

	if (size < 24)
		return;
	memcpy(&bid_len, data + 20, sizeof(bid_len));
	if (bid_len > 32 || size < 24 + (size_t)bid_len)
		return;
	if (!dwarf_cache__parse(data, size, data + 24, bid_len, secs, &nr)) {
		CHECK(nr == 0);
		return;
	}
	CHECK(nr >= 1 && nr <= DWARF_CACHE_MAX_SECTIONS);
	for (i = 0; i < nr; i++)
		CHECK(secs[i].name[0] && memchr(secs[i].name, '\0', sizeof(secs[i].name)) &&
		      secs[i].offset <= size && secs[i].size <= size - secs[i].offset &&
		      secs[i].offset % 64 == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t addrs[ADDRS_MAX];
	struct strpool *pool = strpool__new();
	struct inline_cache *c = inline_cache__new(pool, size & 1);
	struct obj_view ov = { .path = "/fuzz/obj" };
	const char *const *names, *first[INLINE_MAX_DEPTH];
	struct inline_stats st;
	size_t nr, i, j, n;

	verbosity = -1;
	if (setenv("JITSYM_CACHE_DIR", "", 1))
		abort();
	parse_as_cache_entry(data, size);
	write_input(data, size);
	ov.file = ov.symfile = path;
	nr = addresses(data, size, addrs);
	for (i = 0; i < nr; i++) {
		struct frame f = {
			.kind = FRAME_NATIVE, .obj = &ov, .sym = "sym", .dso = ov.path,
			.elf_addr = addrs[i], .ip = addrs[i], .print_addr = addrs[i],
		};

		n = inline__lookup(c, &f, &names);
		CHECK(n <= INLINE_MAX_DEPTH);
		for (j = 0; j < n; j++) {
			CHECK(names[j] && names[j][0]);
			first[j] = names[j];
		}
		/* again, from the cache */
		CHECK(inline__lookup(c, &f, &names) == n);
		for (j = 0; j < n; j++)
			CHECK(names[j] == first[j]);
	}
	inline_cache__stats(c, &st);
	CHECK(st.files <= 1 && st.addrs <= nr && st.addrs_inlined <= st.addrs);
	inline_cache__delete(c);
	strpool__delete(pool);
	return 0;
}
