/*
 * resolve/debuginfod without a server: which recorded paths may be asked
 * for, the option's errors (no URL either way, and a jitsym built without
 * libdebuginfod), the hint said once when DEBUGINFOD_URLS is set and the
 * option is not, and that nothing is asked (or said) for a file without
 * a build id. tests/live/t-debuginfod.sh asks a real server.
 */
#include "common/common.h"
#include "resolve/debuginfod.h"
#include "test.h"

#include <stdlib.h>

static int nr_lines;
static char last[512];

static void sink(const char *line)
{
	nr_lines++;
	snprintf(last, sizeof(last), "%s", line);
}

static void test_debuginfod__wants(void)
{
	T("a file", debuginfod__wants("/usr/lib/x86_64-linux-gnu/libc.so.6"));
	T("a deleted file (build id asked)", debuginfod__wants("/tmp/a.out (deleted)"));
	T("not anonymous memory", !debuginfod__wants("//anon"));
	T("not a pseudo-file", !debuginfod__wants("[vdso]"));
	T("not the kernel", !debuginfod__wants("[kernel.kallsyms]_text"));
	T("not a memfd", !debuginfod__wants("/memfd:jit-cache (deleted)"));
	T("not perf inject's JIT files", !debuginfod__wants("/tmp/.debug/jit/x/jitted-123-7.so"));
	T("a file named jitted- but no .so is one", debuginfod__wants("/usr/bin/jitted-tool"));
	T("not a device", !debuginfod__wants("/dev/zero (deleted)"));
	T("not a relative name", !debuginfod__wants("anon_inode:[perf_event]"));
}

#ifdef HAVE_LIBDEBUGINFOD
/* The hint, off with DEBUGINFOD_URLS set: once a run, only for files that may be asked for. */
static void test_debuginfod__hint(void)
{
	static const uint8_t id[20] = { 0xcd, 0x9a };
	struct debuginfod *d = NULL;
	char *got;

	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:9", 1);
	nr_lines = 0;
	T("off, DEBUGINFOD_URLS set: the hint's object", !debuginfod__new(false, NULL, &d) && d);
	T("  is off", !debuginfod__on(d) && !debuginfod__urls(d));
	got = debuginfod__find_debuginfo(d, "/tmp/a.out", NULL, 0);
	T("  no build id: nothing said", !got && nr_lines == 0);
	got = debuginfod__find_debuginfo(d, "//anon", id, sizeof(id));
	T("  anonymous memory: nothing said", !got && nr_lines == 0);
	got = debuginfod__find_debuginfo(d, "/tmp/a.out", id, sizeof(id));
	T("  a file without symbols: the hint", !got && nr_lines == 1 &&
	  strstr(last, "--debuginfod uses it") && strstr(last, "cd9a00"));
	got = debuginfod__find_debuginfo(d, "/tmp/b.out", id, sizeof(id));
	T("  once a run", !got && nr_lines == 1);
	debuginfod__delete(d);
}

static void test_debuginfod__options(void)
{
	struct debuginfod *d = (struct debuginfod *)1;

	unsetenv("DEBUGINFOD_URLS");
	nr_lines = 0;
	T("off, no DEBUGINFOD_URLS: nothing to do", !debuginfod__new(false, NULL, &d) && !d);
	T("--debuginfod without URLs: an error", debuginfod__new(true, NULL, &d) == -1 && !d);
	T("  one line", nr_lines == 1 && strstr(last, "needs servers"));
	nr_lines = 0;
	T("--debuginfod= (blank): an error", debuginfod__new(true, " ", &d) == -1 && !d);
	T("  one line", nr_lines == 1 && strstr(last, "names no server"));
	test_debuginfod__hint();
	T("--debuginfod alone takes DEBUGINFOD_URLS", !debuginfod__new(true, NULL, &d) && d &&
	  debuginfod__on(d) && !strcmp(debuginfod__urls(d), "http://127.0.0.1:9"));
	debuginfod__delete(d);
	unsetenv("DEBUGINFOD_TIMEOUT");
	unsetenv("DEBUGINFOD_MAXTIME");
	T("--debuginfod=URLS wins", !debuginfod__new(true, "http://127.0.0.1:10", &d) && d &&
	  !strcmp(debuginfod__urls(d), "http://127.0.0.1:10") &&
	  !strcmp(getenv("DEBUGINFOD_URLS"), "http://127.0.0.1:10"));
	T("  DEBUGINFOD_TIMEOUT set to the default when unset",
	  getenv("DEBUGINFOD_TIMEOUT") &&
	  !strcmp(getenv("DEBUGINFOD_TIMEOUT"), DEBUGINFOD_DEFAULT_TIMEOUT));
	T("  DEBUGINFOD_MAXTIME set to the run's budget when unset",
	  getenv("DEBUGINFOD_MAXTIME") && atoi(getenv("DEBUGINFOD_MAXTIME")) ==
	  DEBUGINFOD_DEFAULT_BUDGET);
	debuginfod__delete(d);
	setenv("DEBUGINFOD_TIMEOUT", "7", 1);
	setenv("DEBUGINFOD_MAXTIME", "9", 1);
	T("the user's DEBUGINFOD_TIMEOUT and DEBUGINFOD_MAXTIME kept",
	  !debuginfod__new(true, "http://127.0.0.1:10", &d) && d &&
	  !strcmp(getenv("DEBUGINFOD_TIMEOUT"), "7") && !strcmp(getenv("DEBUGINFOD_MAXTIME"), "9"));
	debuginfod__delete(d);
	nr_lines = 0;
	setenv("DEBUGINFOD_MAXTIME", "30s", 1);
	T("a DEBUGINFOD_MAXTIME that is no number: one warning naming it",
	  !debuginfod__new(true, "http://127.0.0.1:10", &d) && d && nr_lines == 1 &&
	  strstr(last, "DEBUGINFOD_MAXTIME='30s'"));
	debuginfod__delete(d);
	unsetenv("DEBUGINFOD_TIMEOUT");
	unsetenv("DEBUGINFOD_MAXTIME");
	unsetenv("DEBUGINFOD_URLS");
}
#else
static void test_debuginfod__options(void)
{
	struct debuginfod *d = (struct debuginfod *)1;

	nr_lines = 0;
	T("built without: --debuginfod is an error",
	  debuginfod__new(true, "http://127.0.0.1:9", &d) == -1 && !d);
	T("  that says so", nr_lines == 1 && strstr(last, "built without libdebuginfod"));
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:9", 1);
	T("built without: no hint object", !debuginfod__new(false, NULL, &d) && !d);
	unsetenv("DEBUGINFOD_URLS");
}
#endif

int main(void)
{
	msg_set_sink(sink);
	test_debuginfod__wants();
	test_debuginfod__options();
	msg_set_sink(NULL);
	return test_done();
}
