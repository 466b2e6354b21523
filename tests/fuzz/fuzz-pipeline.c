/*
 * libFuzzer entry point for the whole `jitsym fold` pipeline: a fuzzed
 * perf.data with a fuzzed jitdump and perf map beside it.
 *
 * Input layout (little-endian):
 *
 *	u32 pid, u32 perf.data length, u32 jitdump length,
 *	perf.data bytes, jitdump bytes, the rest is the perf map
 *
 * Lengths past the end of the input are cut to what is there. The three
 * parts are written to a temporary directory made once per process (under
 * /dev/shm when it exists, else $TMPDIR or /tmp) as perf.data,
 * jit-PID.dump and perf-PID.map, and cmd_fold() runs on them with every
 * other input pointed away from the host: kallsyms /dev/null, a symfs and
 * a build-id cache that do not exist, output to /dev/null. The pid's
 * lowest bit picks --threads 1 or 2, so both paths are fuzzed the same on
 * any machine.
 *
 * jitsym must neither crash nor exit on any input: die() is for running
 * out of memory, so a fuzz input that makes it exit is a finding.
 */
#include "common/common.h"
#include "command/cmds.h"

#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HDR_SIZE 12

static char *dir;                        /* the per-process directory */
static char *data_path, *dump_path, *map_path;

static void quiet(const char *line)
{
	(void)line;
}

static void remove_dir(void)
{
	DIR *d;
	struct dirent *de;

	if (!dir)
		return;
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		char *p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static void make_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *tmpl;

	if (!access("/dev/shm", W_OK))
		base = "/dev/shm";
	else if (!base || !base[0])
		base = "/tmp";
	tmpl = xasprintf("%s/jitsym-fuzz-XXXXXX", base);
	if (!mkdtemp(tmpl)) {
		perror(tmpl);
		abort();
	}
	dir = tmpl;
	data_path = xasprintf("%s/perf.data", dir);
	atexit(remove_dir);
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0) {
		perror(path);
		abort();
	}
	while (n) {
		ssize_t got = write(fd, p, n);

		if (got <= 0) {
			perror(path);
			abort();
		}
		p += got;
		n -= (size_t)got;
	}
	close(fd);
}

static uint32_t get_u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The last input's JIT files are removed: this one may name another pid. */
static void write_inputs(uint32_t pid, const uint8_t *perf, size_t nr_perf,
			 const uint8_t *dump, size_t nr_dump, const uint8_t *map, size_t nr_map)
{
	if (dump_path) {
		unlink(dump_path);
		unlink(map_path);
		free(dump_path);
		free(map_path);
	}
	dump_path = xasprintf("%s/jit-%" PRIu32 ".dump", dir, pid);
	map_path = xasprintf("%s/perf-%" PRIu32 ".map", dir, pid);
	write_file(data_path, perf, nr_perf);
	write_file(dump_path, dump, nr_dump);
	write_file(map_path, map, nr_map);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nr_perf, nr_dump, rest;
	char *symfs, *buildid_dir;
	uint32_t pid;

	if (size < HDR_SIZE)
		return -1;
	if (!dir)
		make_dir();
	msg_set_sink(quiet);
	pid = get_u32(data);
	rest = size - HDR_SIZE;
	nr_perf = get_u32(data + 4);
	if (nr_perf > rest)
		nr_perf = rest;
	rest -= nr_perf;
	nr_dump = get_u32(data + 8);
	if (nr_dump > rest)
		nr_dump = rest;
	rest -= nr_dump;
	data += HDR_SIZE;
	write_inputs(pid, data, nr_perf, data + nr_perf, nr_dump, data + nr_perf + nr_dump, rest);

	symfs = xasprintf("%s/symfs", dir);
	buildid_dir = xasprintf("%s/buildid", dir);
	{
		char *argv[] = {
			"fold", "-q", "--annotate", "--include-tid", "-o", "/dev/null",
			"--kallsyms", "/dev/null", "--symfs", symfs, "--buildid-dir", buildid_dir,
			"--jit-dir", dir, "--perfmap-dir", dir, "--threads", pid & 1 ? "2" : "1",
			data_path, NULL,
		};

		optind = 0;   /* glibc: start getopt over */
		opterr = 0;
		cmd_fold((int)ARRAY_SIZE(argv) - 1, argv);
	}
	free(symfs);
	free(buildid_dir);
	return 0;
}
