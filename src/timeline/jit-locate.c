/*
 * Where a process's JIT side file may be: see jit-locate.h. The twin of
 * resolve/dso-locate.c: a locator holds what the user said (directories,
 * given files), and each search lists its candidates in order, each with
 * how it was chosen, for the reader to take the first readable one.
 */
#include "common/common.h"
#include "common/vfs.h"
#include "timeline/jit-locate.h"
#include "timeline/jit-loader.h"
#include "timeline/jitmap.h"
#include "common/sbuf.h"
#include "common/strpool.h"

#include <unistd.h>

struct jit_locator {
	const char *perf_data_dir;            /* interned */
	const char *const *jit_dirs;          /* --jit-dir, interned */
	size_t nr_jit_dirs;
	const char *const *perfmap_dirs;      /* --perfmap-dir, interned */
	size_t nr_perfmap_dirs;
	struct jit_given *given;              /* the given files, their names interned */
	size_t nr_given;
	struct strpool *pool;
};

/* A copy of a list of directory names, the names interned in pool. */
static const char *const *copy_dirs(struct strpool *pool, const char *const *dirs, size_t nr)
{
	const char **copy = xcalloc(nr ? nr : 1, sizeof(*copy));
	size_t i;

	for (i = 0; i < nr; i++)
		copy[i] = strpool__intern(pool, dirs[i]);
	return copy;
}

struct jit_locator *jit_locator__new(const struct jitmap_opts *opts, struct strpool *pool)
{
	struct jit_locator *loc = xcalloc(1, sizeof(*loc));
	size_t i;

	loc->perf_data_dir = strpool__intern(pool, opts->perf_data_dir);
	loc->jit_dirs = copy_dirs(pool, opts->jit_dirs, opts->nr_jit_dirs);
	loc->nr_jit_dirs = opts->nr_jit_dirs;
	loc->perfmap_dirs = copy_dirs(pool, opts->perfmap_dirs, opts->nr_perfmap_dirs);
	loc->nr_perfmap_dirs = opts->nr_perfmap_dirs;
	loc->pool = pool;
	loc->given = xcalloc(opts->nr_given ? opts->nr_given : 1, sizeof(*loc->given));
	for (i = 0; i < opts->nr_given; i++) {
		loc->given[i] = opts->given[i];
		loc->given[i].loader = strpool__intern(pool, opts->given[i].loader);
		loc->given[i].path = strpool__intern(pool, opts->given[i].path);
	}
	loc->nr_given = opts->nr_given;
	return loc;
}

void jit_locator__delete(struct jit_locator *loc)
{
	if (!loc)
		return;
	free((void *)loc->jit_dirs);
	free((void *)loc->perfmap_dirs);
	free(loc->given);
	free(loc);
}

const struct jit_given *jit_locator__given(const struct jit_locator *loc, size_t *nr)
{
	*nr = loc->nr_given;
	return loc->given;
}

const char *jit_locate__base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void add_candidate(struct jit_search *c, char *path, const char *how)
{
	if (c->n == MAX_CANDIDATES) {
		free(path);
		return;
	}
	c->path[c->n] = path;
	c->how[c->n++] = how;
}

/* base next to perf.data, then in each of l's user directories. */
static void add_in_dirs(const struct jit_locator *loc, const struct jit_loader *l,
			struct jit_search *c, const char *base, const char *how)
{
	bool jit_dirs = l->dirs == JIT_DIRS_JIT;
	const char *const *dirs = jit_dirs ? loc->jit_dirs : loc->perfmap_dirs;
	size_t i, nr = jit_dirs ? loc->nr_jit_dirs : loc->nr_perfmap_dirs;

	add_candidate(c, xasprintf("%s/%s", loc->perf_data_dir, base), how);
	for (i = 0; i < nr; i++)
		add_candidate(c, xasprintf("%s/%s", dirs[i], base), how);
}

/* The file the user gave for pid in l's format (the last one given), or NULL. */
static const char *given_file(const struct jit_locator *loc, uint32_t pid,
			      const struct jit_loader *l)
{
	const char *found = NULL;
	size_t i;

	for (i = 0; i < loc->nr_given; i++)
		if (loc->given[i].pid == pid && !strcmp(loc->given[i].loader, l->name))
			found = loc->given[i].path;
	return found;
}

/* "given by --perfmap": the options are named after the loaders. */
static const char *given_how(const struct jit_locator *loc, const struct jit_loader *l)
{
	char *how = xasprintf("given by --%s", l->name);
	const char *interned = strpool__intern(loc->pool, how);

	free(how);
	return interned;
}

/* s is the file the user gave for pid in l's format, if there is one. */
static bool search_given(const struct jit_locator *loc, uint32_t pid, const struct jit_loader *l,
			 struct jit_search *s)
{
	const char *given = given_file(loc, pid, l);

	s->n = 0;
	s->given = given != NULL;
	if (!given)
		return false;
	add_candidate(s, xstrdup(given), given_how(loc, l));
	s->what = given;
	return true;
}

void jit_locator__timed(const struct jit_locator *loc, uint32_t pid, const struct jit_loader *l,
			const char *recorded, struct jit_search *s)
{
	if (search_given(loc, pid, l, s))
		return;
	s->what = jit_locate__base_name(recorded);
	add_candidate(s, xstrdup(recorded), NULL);
	add_in_dirs(loc, l, s, s->what, NULL);
}

/*
 * Where p's untimed file of format l may be: by its host pid where the
 * runtime writes it, next to perf.data and in the user's directories;
 * then by its namespace pid, if known, there and in the runtime's.
 */
static void untimed_candidates(const struct jit_locator *loc, uint32_t pid,
			       const struct jit_ns_info *ns, const struct jit_loader *l,
			       struct jit_search *c, char *base, size_t size)
{
	char nsbase[256];
	const char *how;
	char *s;

	l->file_name(pid, base, size);
	if (l->runtime_dir)
		add_candidate(c, xasprintf("%s/%s", l->runtime_dir, base), NULL);
	add_in_dirs(loc, l, c, base, NULL);
	if (!ns->nspid || ns->nspid == pid)
		return;
	s = xasprintf("namespace pid %" PRIu32 ", %s", ns->nspid, ns->why);
	how = strpool__intern(loc->pool, s);
	free(s);
	l->file_name(ns->nspid, nsbase, sizeof(nsbase));
	add_in_dirs(loc, l, c, nsbase, how);
	if (l->runtime_dir)
		add_candidate(c, xasprintf("%s/%s", l->runtime_dir, nsbase), how);
}

void jit_locator__untimed(const struct jit_locator *loc, uint32_t pid,
			  const struct jit_ns_info *ns, const struct jit_loader *l,
			  struct jit_search *s)
{
	if (search_given(loc, pid, l, s))
		return;
	untimed_candidates(loc, pid, ns, l, s, s->base, sizeof(s->base));
	s->what = s->base;
}

size_t jit_search__first_readable(const struct jit_search *c, struct sbuf *tried)
{
	char vbuf[VFS_PATH_BUF];
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (!access(vfs_path(c->path[i], VFS_FILE, vbuf), R_OK))
			return i;
		sbuf_addf(tried, "%s'%s'", tried->len ? ", " : "", c->path[i]);
	}
	return c->n;
}

void jit_search__warn_missing(const struct jit_search *s, uint32_t pid,
			      const struct jit_loader *l, const char *how, const char *tried)
{
	if (s->given)
		warning("pid %" PRIu32 ": %s '%s' (%s) not found%s%s", pid, l->name, s->what, how,
			l->if_missing ? "; " : "", l->if_missing ? l->if_missing : "");
	else if (l->if_missing)
		warning("pid %" PRIu32 ": %s '%s' not found (tried %s); %s", pid, l->name,
			s->what, tried, l->if_missing);
}

void jit_search__release(struct jit_search *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->path[i]);
	s->n = 0;
}
