/*
 * Unit tests for where a process's JIT side file is looked for
 * (jit-locate.c): a timed file at its marker's path, next to perf.data,
 * in --jit-dir; an untimed one in the runtime's directory, next to
 * perf.data, in --perfmap-dir, then by its namespace pid; a given file
 * instead of any search (the last one given for the pid and format);
 * the first readable candidate and the ones tried before it; the cap on
 * candidates; the locator's own copies of what it was given.
 */
#include "common/common.h"
#include "timeline/jit-loader.h"
#include "timeline/jit-locate.h"
#include "timeline/jitmap.h"
#include "common/sbuf.h"
#include "common/strpool.h"
#include "test.h"

#include <unistd.h>

static char dir[] = "/tmp/t-jit-locate-XXXXXX";

static const struct jit_loader *loader(enum jit_loader_kind kind)
{
	const struct jit_loader *const *l;

	for (l = jit_loaders; *l; l++)
		if ((*l)->kind == kind)
			return *l;
	return NULL;
}

/* Whether candidate i of s is dir/name (dir NULL: name), chosen how (NULL: by the process's pid). */
static bool is(const struct jit_search *s, size_t i, const char *d, const char *name,
	       const char *how)
{
	char *want = d ? xasprintf("%s/%s", d, name) : xstrdup(name);
	bool ok = i < s->n && !strcmp(s->path[i], want) &&
		  (how ? s->how[i] && !strcmp(s->how[i], how) : !s->how[i]);

	free(want);
	return ok;
}

static struct jit_locator *new_locator(struct strpool *pool, const struct jit_given *given,
				       size_t nr_given)
{
	const char *jit_dirs[] = { "/jd1", "/jd2" };
	const char *perfmap_dirs[] = { "/pm1" };
	struct jitmap_opts o = {
		.perf_data_dir = dir,
		.jit_dirs = jit_dirs, .nr_jit_dirs = 2,
		.perfmap_dirs = perfmap_dirs, .nr_perfmap_dirs = 1,
		.given = given, .nr_given = nr_given,
	};
	struct jit_locator *loc = jit_locator__new(&o, pool);

	/* the locator keeps its own copies */
	jit_dirs[0] = perfmap_dirs[0] = "/changed";
	return loc;
}

static void test_timed(struct strpool *pool)
{
	struct jit_locator *loc = new_locator(pool, NULL, 0);
	struct jit_search s;

	jit_locator__timed(loc, 42, loader(JIT_TIMED), "/run/x/jit-42.dump", &s);
	T("timed: the marker's path, perf.data's directory, each --jit-dir",
	  s.n == 4 && is(&s, 0, NULL, "/run/x/jit-42.dump", NULL) &&
	  is(&s, 1, dir, "jit-42.dump", NULL) && is(&s, 2, "/jd1", "jit-42.dump", NULL) &&
	  is(&s, 3, "/jd2", "jit-42.dump", NULL));
	T("timed: named by its file name, not given", !strcmp(s.what, "jit-42.dump") && !s.given);
	jit_search__release(&s);
	jit_locator__delete(loc);
}

static void test_untimed(struct strpool *pool)
{
	struct jit_locator *loc = new_locator(pool, NULL, 0);
	struct jit_ns_info ns = { .nspid = 1, .why = "from jit-1.dump's header" };
	const char *how = "namespace pid 1, from jit-1.dump's header";
	struct jit_ns_info none = { 0 }, same = { .nspid = 7, .why = "x" };
	struct jit_search s;

	jit_locator__untimed(loc, 7, &none, loader(JIT_UNTIMED), &s);
	T("untimed: the runtime's directory, perf.data's, each --perfmap-dir",
	  s.n == 3 && is(&s, 0, "/tmp", "perf-7.map", NULL) && is(&s, 1, dir, "perf-7.map", NULL) &&
	  is(&s, 2, "/pm1", "perf-7.map", NULL) && !strcmp(s.what, "perf-7.map"));
	jit_search__release(&s);
	jit_locator__untimed(loc, 7, &same, loader(JIT_UNTIMED), &s);
	T("untimed: a namespace pid that is the host pid adds nothing", s.n == 3);
	jit_search__release(&s);
	jit_locator__untimed(loc, 7, &ns, loader(JIT_UNTIMED), &s);
	T("untimed: then by the namespace pid, the runtime's directory last",
	  s.n == 6 && is(&s, 2, "/pm1", "perf-7.map", NULL) && is(&s, 3, dir, "perf-1.map", how) &&
	  is(&s, 4, "/pm1", "perf-1.map", how) && is(&s, 5, "/tmp", "perf-1.map", how));
	jit_search__release(&s);
	jit_locator__delete(loc);
}

static void test_given(struct strpool *pool)
{
	struct jit_given given[] = {
		{ 42, "jitdump", "/a.dump" }, { 42, "perfmap", "/a.map" },
		{ 43, "jitdump", "/other.dump" }, { 42, "jitdump", "/b.dump" },
	};
	struct jit_locator *loc = new_locator(pool, given, 4);
	struct jit_ns_info ns = { .nspid = 1, .why = "x" };
	struct jit_search s;
	size_t nr;

	given[3].path = "/changed";
	jit_locator__timed(loc, 42, loader(JIT_TIMED), "/run/jit-42.dump", &s);
	T("given: the last one for the pid and format, alone",
	  s.n == 1 && is(&s, 0, NULL, "/b.dump", "given by --jitdump") && s.given &&
	  !strcmp(s.what, "/b.dump"));
	jit_search__release(&s);
	jit_locator__untimed(loc, 42, &ns, loader(JIT_UNTIMED), &s);
	T("given: an untimed one, without a search by namespace pid",
	  s.n == 1 && is(&s, 0, NULL, "/a.map", "given by --perfmap") && s.given);
	jit_search__release(&s);
	jit_locator__timed(loc, 44, loader(JIT_TIMED), "/run/jit-44.dump", &s);
	T("given: another pid's is not taken", s.n == 4 && !s.given);
	jit_search__release(&s);
	T("given: listed in order, copied",
	  jit_locator__given(loc, &nr) && nr == 4 &&
	  !strcmp(jit_locator__given(loc, &nr)[3].path, "/b.dump"));
	jit_locator__delete(loc);
}

static void test_readable(struct strpool *pool)
{
	struct jit_locator *loc = new_locator(pool, NULL, 0);
	struct sbuf tried = SBUF_INIT;
	struct jit_search s;
	char *path = xasprintf("%s/jit-42.dump", dir);
	FILE *f = fopen(path, "w");

	if (f)
		fclose(f);
	jit_locator__timed(loc, 42, loader(JIT_TIMED), "/nonexistent/jit-42.dump", &s);
	T("readable: the first that is, after those tried",
	  jit_search__first_readable(&s, &tried) == 1 &&
	  !strcmp(tried.buf, "'/nonexistent/jit-42.dump'"));
	jit_search__release(&s);
	unlink(path);
	sbuf_reset(&tried);
	jit_locator__timed(loc, 42, loader(JIT_TIMED), "/nonexistent/jit-42.dump", &s);
	T("readable: none, all tried", jit_search__first_readable(&s, &tried) == s.n &&
	  strstr(tried.buf, "'/jd2/jit-42.dump'"));
	jit_search__release(&s);
	sbuf_release(&tried);
	free(path);
	jit_locator__delete(loc);
}

static void test_cap(struct strpool *pool)
{
	const char *dirs[MAX_CANDIDATES + 10];
	struct jitmap_opts o = { .perf_data_dir = dir, .jit_dirs = dirs,
				 .nr_jit_dirs = MAX_CANDIDATES + 10 };
	struct jit_locator *loc;
	struct jit_search s;
	size_t i;

	for (i = 0; i < MAX_CANDIDATES + 10; i++)
		dirs[i] = "/many";
	loc = jit_locator__new(&o, pool);
	jit_locator__timed(loc, 42, loader(JIT_TIMED), "/run/jit-42.dump", &s);
	T("cap: at most MAX_CANDIDATES candidates", s.n == MAX_CANDIDATES);
	jit_search__release(&s);
	jit_locator__delete(loc);
}

int main(void)
{
	struct strpool *pool = strpool__new();

	if (!mkdtemp(dir))
		return 99;
	test_timed(pool);
	test_untimed(pool);
	test_given(pool);
	test_readable(pool);
	test_cap(pool);
	rmdir(dir);
	strpool__delete(pool);
	return test_done();
}
