/*
 * debuginfod: debug files fetched through libdebuginfod, one request at
 * a time, bounded in time for the whole run. See debuginfod.h.
 */
#include "common/common.h"
#include "resolve/debuginfod.h"
#include "common/progress.h"
#include "common/sbuf.h"

#include <pthread.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_LIBDEBUGINFOD
#include <dlfcn.h>
#include <elfutils/debuginfod.h>

/*
 * libdebuginfod's functions, loaded when --debuginfod is given: linked,
 * the library would bring libcurl and its TLS stack into every run.
 */
static struct {
	debuginfod_client *(*begin)(void);
	void (*end)(debuginfod_client *c);
	int (*find_debuginfo)(debuginfod_client *c, const unsigned char *id, int n, char **path);
	void (*set_progressfn)(debuginfod_client *c, debuginfod_progressfn_t fn);
	void (*set_user_data)(debuginfod_client *c, void *data);
	void *(*get_user_data)(debuginfod_client *c);
	const char *(*get_url)(debuginfod_client *c);
} api;
#endif

struct debuginfod {
	bool on;                        /* --debuginfod; else only the hint */
	bool hinted;                    /* off: the hint was said */
	char *urls;                     /* on: as the client reads them */
	pthread_mutex_t lock;           /* everything below, and the client */
	uint64_t budget_ns, spent_ns;   /* the run's limit, and what requests took */
	uint64_t deadline_ns;           /* of the request under way */
	unsigned budget_s;
	bool cancelled;                 /* the request under way was stopped at the deadline */
	const char *stopped;            /* why no more requests are made, or NULL */
	bool stopped_by_budget;         /* and it was the time limit */
	struct debuginfod_result *res;
	size_t nr_res, alloc_res;
	bool sorted;
	struct progress *progress;      /* of the request under way, or NULL */
#ifdef HAVE_LIBDEBUGINFOD
	debuginfod_client *client;      /* made at the first request */
#endif
};

bool debuginfod__wants(const char *path)
{
	const char *base = strrchr(path, '/');

	/* "//anon", "[vdso]", "[kernel.kallsyms]_text", "anon_inode:..." */
	if (path[0] != '/' || path[1] == '/')
		return false;
	if (!strncmp(path, "/memfd:", 7) || !strncmp(path, "/dev/", 5) ||
	    !strncmp(path, "/SYSV", 5))
		return false;
	/* perf inject --jit's ELF files, one per JIT function: no server has them */
	base = base ? base + 1 : path;
	if (!strncmp(base, "jitted-", 7) && strstr(base, ".so"))
		return false;
	return true;
}

#ifdef HAVE_LIBDEBUGINFOD
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * DEBUGINFOD_MAXTIME as the run's budget, in whole seconds: the user's
 * limit for one download is the most the whole run waits too.
 */
static unsigned budget_seconds(void)
{
	const char *s = getenv("DEBUGINFOD_MAXTIME");
	unsigned long v;
	char *end;

	if (!s || !*s)
		return DEBUGINFOD_DEFAULT_BUDGET;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || !v || v > 86400) {
		warning("DEBUGINFOD_MAXTIME='%s' is not a number of seconds from 1 to 86400: "
			"%d s is the run's limit", s, DEBUGINFOD_DEFAULT_BUDGET);
		return DEBUGINFOD_DEFAULT_BUDGET;
	}
	return (unsigned)v;
}

/* Load the library once (on the main thread, before any other starts); -1 after error(). */
static int load_api(void)
{
	static void *lib;
	const char *why;

	if (lib)
		return 0;
	lib = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return error("--debuginfod: cannot load %s: %s (Debian package 'libdebuginfod1')",
			     DEBUGINFOD_SONAME, dlerror());
	/* POSIX has dlsym's object pointers converted so */
	*(void **)&api.begin = dlsym(lib, "debuginfod_begin");
	*(void **)&api.end = dlsym(lib, "debuginfod_end");
	*(void **)&api.find_debuginfo = dlsym(lib, "debuginfod_find_debuginfo");
	*(void **)&api.set_progressfn = dlsym(lib, "debuginfod_set_progressfn");
	*(void **)&api.set_user_data = dlsym(lib, "debuginfod_set_user_data");
	*(void **)&api.get_user_data = dlsym(lib, "debuginfod_get_user_data");
	*(void **)&api.get_url = dlsym(lib, "debuginfod_get_url");
	if (api.begin && api.end && api.find_debuginfo && api.set_progressfn &&
	    api.set_user_data && api.get_user_data && api.get_url)
		return 0;
	why = dlerror();
	dlclose(lib);
	lib = NULL;
	return error("--debuginfod: %s lacks functions jitsym needs (elfutils 0.179 or later): %s",
		     DEBUGINFOD_SONAME, why ? why : "?");
}

static int setup_on(struct debuginfod *d, const char *urls)
{
	const char *env = getenv("DEBUGINFOD_URLS");

	if (urls && !urls[strspn(urls, " ")])
		return error("--debuginfod= names no server: give URLS, or --debuginfod alone "
			     "for DEBUGINFOD_URLS");
	if (!urls && (!env || !env[strspn(env, " ")]))
		return error("--debuginfod needs servers: --debuginfod=URLS, or DEBUGINFOD_URLS set");
	/* the client reads its servers from the environment only */
	if (urls && setenv("DEBUGINFOD_URLS", urls, 1))
		return error("cannot set DEBUGINFOD_URLS: %s", strerror(errno));
	/* the client's own default, 90 s a connection, exceeds the run's budget */
	if (!getenv("DEBUGINFOD_TIMEOUT") &&
	    setenv("DEBUGINFOD_TIMEOUT", DEBUGINFOD_DEFAULT_TIMEOUT, 1))
		return error("cannot set DEBUGINFOD_TIMEOUT: %s", strerror(errno));
	if (load_api())
		return -1;
	d->urls = xstrdup(urls ? urls : env);
	d->budget_s = budget_seconds();
	/*
	 * The client then bounds each download by it too, also where it does not
	 * call the progress callback (newer clients, before a server answers).
	 */
	if (!getenv("DEBUGINFOD_MAXTIME")) {
		char v[16];

		snprintf(v, sizeof(v), "%u", d->budget_s);
		if (setenv("DEBUGINFOD_MAXTIME", v, 1))
			return error("cannot set DEBUGINFOD_MAXTIME: %s", strerror(errno));
	}
	d->budget_ns = (uint64_t)d->budget_s * 1000000000ull;
	return 0;
}
#endif

#ifdef HAVE_LIBDEBUGINFOD
int debuginfod__new(bool on, const char *urls, struct debuginfod **out)
{
	const char *env = getenv("DEBUGINFOD_URLS");
	struct debuginfod *d;

	*out = NULL;
	if (!on && (!env || !env[strspn(env, " ")]))
		return 0;
	d = xcalloc(1, sizeof(*d));
	d->on = on;
	pthread_mutex_init(&d->lock, NULL);
	if (on && setup_on(d, urls)) {
		debuginfod__delete(d);
		return -1;
	}
	*out = d;
	return 0;
}
#else
/* Without the library there is nothing to hint at either: --debuginfod could not follow. */
int debuginfod__new(bool on, const char *urls, struct debuginfod **out)
{
	(void)urls;
	*out = NULL;
	if (on)
		return error("--debuginfod: this jitsym was built without libdebuginfod "
			     "(Debian package 'libdebuginfod-dev')");
	return 0;
}
#endif

static void result__release(struct debuginfod_result *r)
{
	free(r->path);
	free(r->hex);
	free(r->url);
	free(r->file);
}

void debuginfod__delete(struct debuginfod *d)
{
	size_t i;

	if (!d)
		return;
#ifdef HAVE_LIBDEBUGINFOD
	if (d->client)
		api.end(d->client);
#endif
	for (i = 0; i < d->nr_res; i++)
		result__release(&d->res[i]);
	free(d->res);
	free(d->urls);
	pthread_mutex_destroy(&d->lock);
	free(d);
}

bool debuginfod__on(const struct debuginfod *d)
{
	return d && d->on;
}

const char *debuginfod__urls(const struct debuginfod *d)
{
	return d && d->on ? d->urls : NULL;
}

static char *hex_of(const uint8_t *id, size_t n)
{
	struct sbuf sb = SBUF_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		sbuf_addf(&sb, "%02x", id[i]);
	return sbuf_detach(&sb, NULL);
}

/* The result of build id hex, or NULL. Under the lock. */
static struct debuginfod_result *find_result(struct debuginfod *d, const char *hex)
{
	size_t i;

	for (i = 0; i < d->nr_res; i++)
		if (!strcmp(d->res[i].hex, hex))
			return &d->res[i];
	return NULL;
}

static struct debuginfod_result *add_result(struct debuginfod *d, const char *path,
					    char *hex)
{
	struct debuginfod_result *r;

	ALLOC_GROW(d->res, d->nr_res + 1, d->alloc_res);
	r = &d->res[d->nr_res++];
	memset(r, 0, sizeof(*r));
	r->path = xstrdup(path);
	r->hex = hex;
	d->sorted = false;
	return r;
}

#ifdef HAVE_LIBDEBUGINFOD
/*
 * The client's progress callback, about once a second and as data
 * comes: past the deadline the download is cancelled (a nonzero return).
 * a is the bytes so far once a server answers (before, a loop count),
 * b their total when known.
 */
static int on_progress(debuginfod_client *c, long a, long b)
{
	struct debuginfod *d = api.get_user_data(c);

	if (now_ns() >= d->deadline_ns) {
		d->cancelled = true;
		return 1;
	}
	/* before a server answers, a counts loops: nothing to show but the wait */
	if (b > 0 && a >= 0)
		progress__update_bytes(d->progress, (uint64_t)a, (uint64_t)b);
	else
		progress__update_bytes(d->progress, 0, 0);
	return 0;
}

/*
 * Why a request failed, from the client's negative errno; *stop: whether
 * to make no more requests this run (the servers cannot be reached or
 * did not answer in time, as they would not for the next build id).
 */
static const char *failure(int rc, bool *stop)
{
	*stop = true;
	switch (-rc) {
	case ECONNREFUSED: return "connection refused";
	case EHOSTUNREACH: return "host not found";
	case ENETUNREACH:  return "network unreachable";
	case ECONNRESET:   return "connection reset";
	case ETIME:        return "timed out (DEBUGINFOD_TIMEOUT, DEBUGINFOD_MAXTIME)";
	case EINVAL:       return "invalid URL";
	case ENOSYS:       return "no server URLs";
	case ENOMEM:       return "out of memory";
	case EIO:          return "cannot write to the client's cache";
	}
	*stop = false;
	switch (-rc) {
	case EFBIG:  return "larger than DEBUGINFOD_MAXSIZE";
	case EACCES: return "access denied";
	}
	*stop = true;
	/* glibc's own text for the rest (too many redirects, a bad signature, ...) */
	return strerrordesc_np(-rc) ? strerrordesc_np(-rc) : "failed";
}

/*
 * The client's cache directory, as libdebuginfod 0.188 chooses it:
 * $DEBUGINFOD_CACHE_PATH, else ~/.debuginfod_client_cache when it exists,
 * else $XDG_CACHE_HOME/debuginfod_client or ~/.cache/debuginfod_client.
 */
static char *client_cache_dir(void)
{
	const char *env = getenv("DEBUGINFOD_CACHE_PATH"), *home = getenv("HOME");
	const char *xdg = getenv("XDG_CACHE_HOME");
	struct stat st;
	char *old;

	if (env && *env)
		return xstrdup(env);
	home = home ? home : "/";
	old = xasprintf("%s/.debuginfod_client_cache", home);
	if (!stat(old, &st))
		return old;
	free(old);
	if (xdg && *xdg)
		return xasprintf("%s/debuginfod_client", xdg);
	return xasprintf("%s/.cache/debuginfod_client", home);
}

/*
 * A cancelled download is taken by libdebuginfod 0.188 for a 404: it
 * leaves the empty file that tells the next runs, for ten minutes, that
 * the server has nothing. Only time ran out here: remove it.
 */
static void forget_negative_entry(const char *hex)
{
	char *dir = client_cache_dir();
	char *path = xasprintf("%s/%s/debuginfo", dir, hex);
	struct stat st;

	if (!lstat(path, &st) && S_ISREG(st.st_mode) && !st.st_size)
		unlink(path);
	free(path);
	free(dir);
}

/* Say once why no more requests are made; reason static. Under the lock. */
static void stop_requests(struct debuginfod *d, const char *reason, bool budget)
{
	d->stopped = reason;
	d->stopped_by_budget = budget;
	if (budget)
		warning("debuginfod: the time limit of %u s (DEBUGINFOD_MAXTIME) is spent: no "
			"more debug files are asked for in this run", d->budget_s);
	else
		warning("debuginfod: cannot get debug files from '%s' (%s): no more are asked "
			"for in this run", d->urls, reason);
}

static void fetched(struct debuginfod *d, struct debuginfod_result *r, int fd, char *file)
{
	const char *url = api.get_url(d->client);
	struct stat st;

	r->state = DEBUGINFOD_FETCHED;
	r->file = file;
	r->url = url ? xstrdup(url) : NULL;
	r->size = !fstat(fd, &st) ? (uint64_t)st.st_size : 0;
	close(fd);
	note("debuginfod: '%s' (build id %s): %s%s, %" PRIu64 " bytes", r->path, r->hex,
	     url ? "from " : "from the client's cache", url ? url : "", r->size);
}

/* One request, timed against the budget. Under the lock. */
static void request(struct debuginfod *d, struct debuginfod_result *r, const uint8_t *id,
		    size_t id_size)
{
	uint64_t start = now_ns();
	char *file = NULL, *what;
	bool stop;
	int fd;

	if (!d->client && !(d->client = api.begin())) {
		r->state = DEBUGINFOD_FAILED;
		r->reason = "the client could not start";
		stop_requests(d, r->reason, false);
		return;
	}
	api.set_user_data(d->client, d);
	api.set_progressfn(d->client, on_progress);
	d->deadline_ns = start + (d->budget_ns - d->spent_ns);
	d->cancelled = false;
	what = xasprintf("debuginfod: the debug file of '%s'", r->path);
	d->progress = progress__new_bytes(what);
	free(what);
	fd = api.find_debuginfo(d->client, id, (int)id_size, &file);
	progress__delete(d->progress);
	d->progress = NULL;
	d->spent_ns += now_ns() - start;
	if (fd >= 0) {
		fetched(d, r, fd, file);
		return;
	}
	free(file);
	if (d->cancelled || d->spent_ns >= d->budget_ns) {
		forget_negative_entry(r->hex);
		r->state = DEBUGINFOD_FAILED;
		r->reason = "time limit spent";
		stop_requests(d, r->reason, true);
		return;
	}
	if (fd == -ENOENT) {
		r->state = DEBUGINFOD_NOT_FOUND;
		note("debuginfod: no debug file for '%s' (build id %s)", r->path, r->hex);
		return;
	}
	r->state = DEBUGINFOD_FAILED;
	r->reason = failure(fd, &stop);
	if (stop)
		stop_requests(d, r->reason, false);
}
#endif

/* Off, with DEBUGINFOD_URLS set: once, that it was not used and how to use it. */
static void hint(struct debuginfod *d, const char *path, const char *hex)
{
	if (d->hinted)
		return;
	d->hinted = true;
	warning("'%s' (build id %s) has no symbols here; debuginfod was not asked for its "
		"debug file: DEBUGINFOD_URLS is set, --debuginfod uses it", path, hex);
}

char *debuginfod__find_debuginfo(struct debuginfod *d, const char *path, const uint8_t *id,
				 size_t id_size)
{
	struct debuginfod_result *r;
	char *hex, *file = NULL;

	if (!d || !id_size || !debuginfod__wants(path))
		return NULL;
	hex = hex_of(id, id_size);
	pthread_mutex_lock(&d->lock);
	if (!d->on) {
		hint(d, path, hex);
		free(hex);
		goto out;
	}
	r = find_result(d, hex);
	if (r) {
		free(hex);
	} else {
		r = add_result(d, path, hex);
		if (d->stopped) {
			r->state = DEBUGINFOD_FAILED;
			r->reason = d->stopped_by_budget ? "not asked: time limit spent" :
				    "not asked: no server could be reached";
		} else {
#ifdef HAVE_LIBDEBUGINFOD
			request(d, r, id, id_size);
#endif
		}
	}
	if (r->state == DEBUGINFOD_FETCHED && !r->reason)
		file = xstrdup(r->file);
out:
	pthread_mutex_unlock(&d->lock);
	return file;
}

void debuginfod__unusable(struct debuginfod *d, const uint8_t *id, size_t id_size,
			  const char *reason)
{
	struct debuginfod_result *r;
	char *hex;

	if (!d)
		return;
	hex = hex_of(id, id_size);
	pthread_mutex_lock(&d->lock);
	r = find_result(d, hex);
	if (r && !r->reason) {
		r->reason = reason;
		warning("debuginfod: the debug file of '%s' (build id %s) cannot be used: %s",
			r->path, hex, reason);
	}
	pthread_mutex_unlock(&d->lock);
	free(hex);
}

static int by_path(const void *a, const void *b)
{
	const struct debuginfod_result *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : strcmp(x->hex, y->hex);
}

const struct debuginfod_result *debuginfod__results(struct debuginfod *d, size_t *nr)
{
	*nr = 0;
	if (!d)
		return NULL;
	pthread_mutex_lock(&d->lock);
	if (!d->sorted && d->nr_res)
		qsort(d->res, d->nr_res, sizeof(*d->res), by_path);
	d->sorted = true;
	*nr = d->nr_res;
	pthread_mutex_unlock(&d->lock);
	return d->res;
}
