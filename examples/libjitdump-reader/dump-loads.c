/*
 * dump-loads: print each code load of a jitdump file, one a line:
 *
 *     TIMESTAMP PID TID CODE_ADDR CODE_SIZE NAME
 *
 * with the addresses and size in hex. An example of libjitdump-reader;
 * build it against the installed library with
 *
 *     cc -o dump-loads dump-loads.c $(pkg-config --cflags --libs jitdump-reader)
 *
 * Usage: dump-loads JITDUMP. Exit status 0, or 1 when the file cannot be
 * read or ends with a record cut short or malformed (the loads before it
 * are printed).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include <jitdump-reader/jitdump-reader.h>

/* The library never prints: its warnings come here. */
static int print_warning(enum jitdump_print_level level, const char *fmt, va_list ap)
{
	if (level != JITDUMP_WARN)
		return 0;
	fputs("dump-loads: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	return 0;
}

int main(int argc, char **argv)
{
	struct jitdump_reader *r;
	struct jitdump_record rec;
	int ret, status = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: dump-loads JITDUMP\n");
		return 2;
	}
	jitdump_reader__set_print(print_warning);
	r = jitdump_reader__open(argv[1], 0);
	if (!r) {
		/* errno: a system error or a JITDUMP_E_* value */
		fprintf(stderr, "dump-loads: %s: %s\n", argv[1], jitdump__strerror(errno));
		return 1;
	}
	while ((ret = jitdump_reader__next(r, &rec)) != 0) {
		if (ret < 0) {
			fprintf(stderr, "dump-loads: %s: offset %" PRIu64 ": %s (%s)\n",
				argv[1], rec.offset, jitdump__strerror(ret),
				jitdump_reader__error_detail(r));
			status = 1;
			if (ret == -JITDUMP_E_BAD_RECORD)
				continue;   /* skipped: the stream goes on */
			break;
		}
		if (rec.type != JITDUMP_CODE_LOAD)
			continue;
		printf("%" PRIu64 " %" PRIu32 " %" PRIu32 " 0x%" PRIx64 " 0x%" PRIx64 " %s\n",
		       rec.timestamp, rec.u.load.pid, rec.u.load.tid,
		       rec.u.load.code_addr, rec.u.load.code_size, rec.u.load.name);
	}
	jitdump_reader__delete(r);
	return status;
}
