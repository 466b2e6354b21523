/*
 * lookup: look addresses up in a perf map file, one line per address:
 *
 *     ADDR NAME+0xOFFSET START SIZE    (or "ADDR -" when none covers it)
 *
 * An example of libperfmap; build it against the installed library with
 *
 *     cc -o lookup lookup.c $(pkg-config --cflags --libs perfmap)
 *
 * Usage: lookup MAP ADDR... (ADDR in hex, with or without 0x). Exit
 * status 0, 1 when the map cannot be read, 2 on a bad argument.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfmap/perfmap.h>

int main(int argc, char **argv)
{
	struct perfmap *pm;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: lookup MAP ADDR...\n");
		return 2;
	}
	pm = perfmap__read(argv[1]);
	if (!pm) {
		fprintf(stderr, "lookup: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	for (i = 2; i < argc; i++) {
		const struct perfmap_entry *e;
		uint64_t addr;
		char *end;

		errno = 0;
		addr = strtoull(argv[i], &end, 16);
		if (errno || end == argv[i] || *end) {
			fprintf(stderr, "lookup: bad address '%s'\n", argv[i]);
			perfmap__delete(pm);
			return 2;
		}
		e = perfmap__lookup(pm, addr);
		if (e)
			printf("0x%" PRIx64 " %s+0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64 "\n",
			       addr, e->name, addr - e->start, e->start, e->size);
		else
			printf("0x%" PRIx64 " -\n", addr);
	}
	perfmap__delete(pm);
	return 0;
}
