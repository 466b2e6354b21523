/*
 * Resource bounds on hostile input: files whose counts and sizes claim
 * far more than they hold. Each is run through the built jitsym (fork,
 * exec, wait4) and must end with the expected exit status, a message
 * naming the file and an offset, and a peak RSS close to that of a run
 * on a small valid file. Also: warnings of one kind are rate-limited.
 *
 * Needs JITSYM and MKPERF/MKJITDUMP (tests/setup.sh sets them).
 */
#include "common/common.h"
#include "test.h"
#include "test-files.h"
#include "common/sbuf.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define MB (1024L)              /* ru_maxrss is in KiB */
#define RSS_SLACK (64 * MB)     /* allowed above the baseline run */
/* zstd keeps a window of up to 128 MiB (its default windowLogMax, 27) */
#define ZSTD_WINDOW (128 * MB)

static const char *jitsym, *mkperf, *mkjitdump;
static long base_rss;

struct run {
	int exit;               /* -1: killed by a signal */
	long rss;               /* KiB */
	char *out, *err;
};

static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	struct sbuf sb = SBUF_INIT;
	char buf[4096];
	size_t n;

	if (!fp)
		return xstrdup("");
	while ((n = fread(buf, 1, sizeof(buf), fp)))
		sbuf_add(&sb, buf, n);
	fclose(fp);
	return sbuf_detach(&sb, NULL);
}

static void redirect(int fd, const char *name)
{
	char *path = tpath(name);
	int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (f < 0 || dup2(f, fd) < 0)
		_exit(127);
	close(f);
	free(path);
}

/* Run jitsym with args (NULL-terminated) in tmpdir, stdin from in if given. */
static struct run run_jitsym(const char *in, const char *const args[])
{
	const char *argv[16];
	struct run r = { 0 };
	struct rusage ru;
	size_t n = 0;
	char *p;
	pid_t pid;
	int st;

	argv[n++] = jitsym;
	while (*args && n < ARRAY_SIZE(argv) - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("cannot fork: %s", strerror(errno));
	if (!pid) {
		if (chdir(tmpdir))
			_exit(127);
		if (in && !freopen(in, "rb", stdin))
			_exit(127);
		redirect(STDOUT_FILENO, "run.out");
		redirect(STDERR_FILENO, "run.err");
		execv(jitsym, (char *const *)argv);
		_exit(127);
	}
	if (wait4(pid, &st, 0, &ru) != pid)
		die("wait4: %s", strerror(errno));
	r.exit = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	r.rss = ru.ru_maxrss;
	p = tpath("run.out");
	r.out = slurp(p);
	free(p);
	p = tpath("run.err");
	r.err = slurp(p);
	free(p);
	return r;
}

static void run_release(struct run *r)
{
	free(r->out);
	free(r->err);
}

/* Write spec text and build name from it with tool (extra options first). */
static void build(const char *tool, const char *opts, const char *name, const char *spec)
{
	char *sp = tpath("x.spec"), *out = tpath(name);

	write_file(sp, spec, strlen(spec));
	if (sh("%s %s '%s' '%s'", tool, opts, sp, out))
		die("%s cannot write '%s'", tool, name);
	free(sp);
	free(out);
}

/* Little-endian hex of a u64, as mkperf's raw bytes= wants. */
static const char *hex64(uint64_t v)
{
	static char bufs[8][17];
	static int k;
	char *b = bufs[k++ % 8];
	int i;

	for (i = 0; i < 8; i++)
		snprintf(b + 2 * i, 3, "%02x", (unsigned)(v >> (8 * i)) & 0xff);
	return b;
}

/*
 * One case: exit status, a message naming 'file' and containing want,
 * and peak RSS within limit of the baseline.
 */
static void check(const char *name, const char *in, const char *const args[],
		  int want_exit, const char *file, const char *want, long limit)
{
	struct run r = run_jitsym(in, args);
	char *quoted = xasprintf("'%s'", file), *t;

	t = xasprintf("%s: exit %d", name, want_exit);
	T(t, r.exit == want_exit);
	free(t);
	t = xasprintf("%s: message names '%s' and says '%s'", name, file, want);
	T(t, strstr(r.err, quoted) && strstr(r.err, want) && strstr(r.err, "offset"));
	free(t);
	t = xasprintf("%s: peak RSS %ld KiB, baseline %ld KiB", name, r.rss, base_rss);
	T(t, r.rss < base_rss + limit);
	free(t);
	if (r.exit != want_exit || !strstr(r.err, quoted))
		printf("# stderr: %s", r.err);
	free(quoted);
	run_release(&r);
}

#define ATTR "attr type=1 config=0 sample_period=10000 mmap=1 comm=1 task=1 mmap2=1 "
#define CC_ATTR ATTR "sample_type=IP,TID,TIME,CALLCHAIN,PERIOD\n"
#define CC_ATTR_CLOCK ATTR "sample_type=IP,TID,TIME,CALLCHAIN,PERIOD use_clockid=1 clockid=1\n"
#define COMM "comm pid=100 tid=100 comm=prog exec=1\n"
#define GOOD_SAMPLE "sample pid=100 tid=100 time=3000 period=10000 ip=0x10010 " \
	"callchain=user:0x10010,0x10020\n"

static void test_baseline(void)
{
	static const char *const args[] = { "fold", "--kallsyms", "/dev/null", "empty.data", NULL };
	struct run r;

	build(mkperf, "", "empty.data", CC_ATTR COMM);
	r = run_jitsym(NULL, args);
	base_rss = r.rss;
	T("baseline: an empty valid file folds to nothing", r.exit == 0 && !r.out[0]);
	printf("# baseline peak RSS %ld KiB\n", base_rss);
	run_release(&r);
}

/* A sample whose callchain claims nr entries but holds two. */
static void test_callchain(uint64_t nr)
{
	static const char *const args[] = { "fold", "--kallsyms", "/dev/null", "cc.data", NULL };
	char *spec = xasprintf(CC_ATTR COMM
			       "raw type=9 misc=user bytes=%s6400000064000000%s%s%s%s%s\n" GOOD_SAMPLE,
			       hex64(0x10010), hex64(3000), hex64(10000), hex64(nr),
			       hex64(0x10010), hex64(0x10020));
	char *name = xasprintf("callchain nr %" PRIu64, nr);
	struct run r;

	build(mkperf, "", "cc.data", spec);
	/* the bad sample is skipped, the good one after it still counts */
	check(name, NULL, args, 0, "cc.data", "sample at offset 272 does not match", RSS_SLACK);
	r = run_jitsym(NULL, args);
	T("callchain: the next sample is folded", !strcmp(r.out, "prog;[unknown];[unknown] 1\n"));
	run_release(&r);
	free(name);
	free(spec);
}

static void test_jitdump_nr_entry(void)
{
	static const char *const fold[] = { "fold", "--kallsyms", "/dev/null", "jd.data", NULL };
	static const char *const report[] = { "report", "--source-lines", "--kallsyms",
					      "/dev/null", "jd.data", NULL };
	struct run r;

	build(mkperf, "", "jd.data", CC_ATTR_CLOCK COMM
	      "mmap2 pid=100 tid=100 start=0x7fff00000000 len=0x1000 prot=5 flags=2 "
	      "filename=/nonexistent/jit-100.dump\n"
	      "mmap2 pid=100 tid=100 start=0x10000 len=0x10000 prot=7 flags=0x22 filename=//anon\n"
	      GOOD_SAMPLE);
	build(mkjitdump, "", "jit-100.dump", "header pid=100\n"
	      "debug time=1000 addr=0x10000 entries=+0:1:0:/app/x.js nr_entry=0x1000000000000000\n"
	      "load time=1000 addr=0x10000 size=0x100 name=jsfun\n");
	check("jitdump nr_entry 2^60 (fold)", NULL, fold, 0, "./jit-100.dump",
	      "nr_entry too large for the record", RSS_SLACK);
	check("jitdump nr_entry 2^60 (report --source-lines)", NULL, report, 0, "./jit-100.dump",
	      "nr_entry too large for the record", RSS_SLACK);
	r = run_jitsym(NULL, fold);
	T("jitdump: the load after the bad record names the frames",
	  !strcmp(r.out, "prog;jsfun;jsfun 1\n"));
	run_release(&r);
}

static void test_attr_size(void)
{
	static const char *const file[] = { "fold", "--kallsyms", "/dev/null", "hs.data", NULL };
	static const char *const pipe[] = { "fold", "--kallsyms", "/dev/null", "pa.data", NULL };
	static const char *const in[] = { "fold", "--kallsyms", "/dev/null", "-", NULL };
	char *pa = tpath("pa.data");

	build(mkperf, "", "hs.data", "header attr_size_field=0x100000000\n" CC_ATTR COMM);
	check("file header attr_size 4 GiB", NULL, file, 2, "hs.data",
	      "attr_size 4294967296 (at offset 16) is invalid", RSS_SLACK);
	/* a pipe-mode attr is one record: dropped, the rest read */
	build(mkperf, "--pipe", "pa.data", ATTR "sample_type=IP,TID size=0xffffffff\n" COMM);
	check("pipe HEADER_ATTR attr.size 4 GiB", NULL, pipe, 0, "pa.data",
	      "attr record at offset 16 is malformed", RSS_SLACK);
	check("pipe HEADER_ATTR attr.size 4 GiB, from stdin", pa, in, 0, "-",
	      "attr record at offset 16 is malformed", RSS_SLACK);
	free(pa);
}

/* A pipe-mode file of 100 bytes whose one record claims 65535. */
static void test_record_size(void)
{
	static const char *const file[] = { "fold", "--kallsyms", "/dev/null", "big.data", NULL };
	static const char *const in[] = { "fold", "--kallsyms", "/dev/null", "-", NULL };
	uint8_t buf[100] = "PERFILE2";
	uint64_t hsize = 16;
	uint32_t type = 9;
	uint16_t misc = 2, size = 65535;
	char *path = tpath("big.data");

	memcpy(buf + 8, &hsize, 8);
	memcpy(buf + 16, &type, 4);
	memcpy(buf + 20, &misc, 2);
	memcpy(buf + 22, &size, 2);
	write_file(path, buf, sizeof(buf));
	check("record of 64 KiB in 100 bytes", NULL, file, 2, "big.data",
	      "record at offset 16 (type 9, size 65535) is cut short at 84 bytes", RSS_SLACK);
	check("record of 64 KiB in 100 bytes, from stdin", path, in, 2, "-",
	      "record at offset 16 (type 9, size 65535) is cut short at 84 bytes", RSS_SLACK);
	free(path);
}

/* Every feature section of a file-mode file claims 2^63 - 1 bytes. */
static void test_feature_size(void)
{
	static const char *const args[] = { "script", "--header", "--kallsyms", "/dev/null",
					    "feat.data", NULL };
	char *path = tpath("feat.data");
	FILE *fp;
	uint64_t off, size, bits[4], huge = INT64_MAX;
	int i, nr = 0;

	build(mkperf, "", "feat.data", CC_ATTR "feature hostname host\nfeature osrelease 6.1\n"
	      COMM GOOD_SAMPLE);
	fp = fopen(path, "r+b");
	if (!fp || fseek(fp, 40, SEEK_SET) || fread(&off, 8, 1, fp) != 1 ||
	    fread(&size, 8, 1, fp) != 1 || fseek(fp, 72, SEEK_SET) || fread(bits, 8, 4, fp) != 4)
		die("cannot read '%s'", path);
	for (i = 0; i < 4; i++)
		nr += __builtin_popcountll(bits[i]);
	for (i = 0; i < nr; i++)
		if (fseek(fp, (long)(off + size + 16 * (uint64_t)i + 8), SEEK_SET) ||
		    fwrite(&huge, 8, 1, fp) != 1)
			die("cannot patch '%s'", path);
	fclose(fp);
	/* a feature is optional: skipped, the samples still read */
	check("feature section of 2^63 bytes", NULL, args, 0, "feat.data",
	      "size 9223372036854775807) is past the end of the file", RSS_SLACK);
	free(path);
}

/*
 * A COMPRESSED record of 32 KB holding a zstd frame that claims 2^40
 * bytes and inflates to about a GiB of byte b: RLE blocks of 128 KiB,
 * 4 bytes each. With b = 0 the first record has size 0 (the reader must
 * stop there, not inflate everything first); with b = 8 each record is
 * an unknown one of 2056 bytes, read until the limit the COMPRESSED
 * feature's mmap_len sets.
 */
static void test_compressed(uint8_t b, const char *mmap_len, const char *want, long limit)
{
	static const char *const args[] = { "fold", "--kallsyms", "/dev/null", "z.data", NULL };
	struct sbuf spec = SBUF_INIT;
	char *name = xasprintf("COMPRESSED inflating to 1 GiB of 0x%02x", b);
	int i;

	sbuf_addstr(&spec, CC_ATTR);
	sbuf_addf(&spec, "feature raw 27 01000000010000000100000001000000%s\n", mmap_len);
	sbuf_addstr(&spec, COMM "raw type=81 bytes=28b52ffdc088");
	sbuf_addstr(&spec, hex64(1ULL << 40));
	for (i = 0; i < 7996; i++)
		sbuf_addf(&spec, "020010%02x", b);
	sbuf_addch(&spec, '\n');
	build(mkperf, "", "z.data", spec.buf);
	check(name, NULL, args, 2, "z.data", want, limit);
	sbuf_release(&spec);
	free(name);
}

/* Branch stack and group read counts of 2^62. */
static void test_sample_counts(void)
{
	static const char *const args[] = { "fold", "--kallsyms", "/dev/null", "n.data", NULL };
	char *spec;

	spec = xasprintf(ATTR "sample_type=IP,TID,BRANCH_STACK branch_sample_type=ANY\n" COMM
			 "raw type=9 misc=user bytes=%s6400000064000000%s%s%s%s\n",
			 hex64(0x10010), hex64(1ULL << 62), hex64(0x10010), hex64(0x10020),
			 hex64(0));
	build(mkperf, "", "n.data", spec);
	check("branch stack nr 2^62", NULL, args, 0, "n.data",
	      "sample at offset 272 does not match", RSS_SLACK);
	free(spec);
	spec = xasprintf(ATTR "sample_type=IP,TID,READ read_format=GROUP,ID\n" COMM
			 "raw type=9 misc=user bytes=%s6400000064000000%s%s%s\n",
			 hex64(0x10010), hex64(1ULL << 62), hex64(1), hex64(2));
	build(mkperf, "", "n.data", spec);
	check("group read nr 2^62", NULL, args, 0, "n.data",
	      "sample at offset 272 does not match", RSS_SLACK);
	free(spec);
}

static size_t count_lines(const char *s, const char *needle)
{
	size_t n = 0;

	for (; (s = strstr(s, needle)); s++)
		n++;
	return n;
}

/* 2000 malformed samples: MSG_WARN_LIMIT warnings, then one count. */
static void test_rate_limit(void)
{
	static const char *const args[] = { "fold", "--kallsyms", "/dev/null", "w.data", NULL };
	struct sbuf spec = SBUF_INIT;
	char *want = xasprintf("jitsym: warning: %d more warnings like: 'w.data': sample at "
			       "offset ", 2000 - MSG_WARN_LIMIT);
	struct run r;
	int i;

	sbuf_addstr(&spec, CC_ATTR COMM);
	for (i = 0; i < 2000; i++)
		sbuf_addf(&spec, "raw type=9 misc=user bytes=%s6400000064000000%s%s%s\n",
			  hex64(0x10010), hex64(3000), hex64(10000), hex64(1000));
	sbuf_addstr(&spec, GOOD_SAMPLE);
	build(mkperf, "", "w.data", spec.buf);
	r = run_jitsym(NULL, args);
	T("rate limit: exit 0", r.exit == 0);
	T("rate limit: the first few warnings are printed",
	  count_lines(r.err, "does not match its event's sample_type") == MSG_WARN_LIMIT + 1);
	T("rate limit: then one count of the rest", count_lines(r.err, want) == 1);
	T("rate limit: the good sample is folded", !strcmp(r.out, "prog;[unknown];[unknown] 1\n"));
	run_release(&r);
	sbuf_release(&spec);
	free(want);
}

int main(void)
{
	jitsym = getenv("JITSYM");
	mkperf = getenv("MKPERF");
	mkjitdump = getenv("MKJITDUMP");
	if (!jitsym || !mkperf || !mkjitdump || access(jitsym, X_OK)) {
		printf("# JITSYM, MKPERF and MKJITDUMP must name the built programs\n");
		return 99;
	}
	tmpdir_create("t-limits", "T_LIMITS_KEEP");
	test_baseline();
	test_callchain(65535);
	test_callchain(1ULL << 32);
	test_callchain(UINT64_MAX);
	test_jitdump_nr_entry();
	test_attr_size();
	test_record_size();
	test_feature_size();
	test_compressed(0, "00ffffff", "has invalid size 0", RSS_SLACK);
	test_compressed(8, "0000000a", "compressed record at offset 272", RSS_SLACK + ZSTD_WINDOW);
	test_sample_counts();
	test_rate_limit();
	return test_done();
}
