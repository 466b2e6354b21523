#include "common/common.h"
#include "common/progress.h"

#include <pthread.h>

int verbosity;

struct warn_site {
	const char *fmt;       /* key: the call site's format string */
	unsigned long count;
	char *first;           /* the first message of this kind, for the summary */
};

/* A handful of distinct warning kinds exist; a small table is enough. */
static struct warn_site sites[64];
static size_t nr_sites;
static unsigned long total_warnings;

/*
 * Guards everything below and each message's printing (msg.h says why).
 * Recursive: a message's own work may end in another (xstrdup's die() on
 * out of memory; a test's sink).
 */
static pthread_mutex_t lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

static void (*sink)(const char *line);
static int muted;
static void (*flush_fn)(void *ctx);
static void *flush_ctx;
static const char *context;     /* msg_set_context()'s recording, or NULL */

void msg_mute(bool on)
{
	pthread_mutex_lock(&lock);
	muted += on ? 1 : -1;
	pthread_mutex_unlock(&lock);
}

void msg_set_sink(void (*fn)(const char *line))
{
	pthread_mutex_lock(&lock);
	sink = fn;
	pthread_mutex_unlock(&lock);
}

void msg_set_flush(void (*fn)(void *ctx), void *ctx)
{
	pthread_mutex_lock(&lock);
	flush_fn = fn;
	flush_ctx = ctx;
	pthread_mutex_unlock(&lock);
}

static void print_line(const char *line)
{
	if (sink) {
		sink(line);
		return;
	}
	fflush(stdout);
	if (flush_fn)
		flush_fn(flush_ctx);
	progress__clear_line();
	fprintf(stderr, "%s\n", line);
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char body[4096], quoted[1024], line[sizeof(body) + sizeof(quoted) + 32];

	pthread_mutex_lock(&lock);
	if (!muted) {
		vsnprintf(body, sizeof(body), fmt, ap);
		/* the recording, unless the message quotes it already */
		if (context)
			snprintf(quoted, sizeof(quoted), "'%s'", context);
		if (context && !strstr(body, quoted))
			snprintf(line, sizeof(line), "jitsym: %s%s: %s", prefix, quoted, body);
		else
			snprintf(line, sizeof(line), "jitsym: %s%s", prefix, body);
		print_line(line);
	}
	pthread_mutex_unlock(&lock);
}

void msg_set_context(const char *recording)
{
	pthread_mutex_lock(&lock);
	context = recording;
	pthread_mutex_unlock(&lock);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
	return -1;
}

static struct warn_site *site_for(const char *fmt)
{
	size_t i;

	for (i = 0; i < nr_sites; i++)
		if (sites[i].fmt == fmt)
			return &sites[i];
	if (nr_sites == ARRAY_SIZE(sites))
		return NULL;
	sites[nr_sites].fmt = fmt;
	sites[nr_sites].count = 0;
	return &sites[nr_sites++];
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarning(fmt, ap);
	va_end(ap);
}

/* vwarning() with the lock held. */
static void vwarning_locked(const char *fmt, va_list args)
{
	struct warn_site *site;
	va_list ap;

	if (muted)
		return;
	site = site_for(fmt);
	total_warnings++;
	if (site && ++site->count == 1) {
		char buf[512];

		va_copy(ap, args);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		site->first = xstrdup(buf);
	}
	if (site && site->count > MSG_WARN_LIMIT)
		return;
	if (verbosity < 0)
		return;
	va_copy(ap, args);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void vwarning(const char *fmt, va_list args)
{
	pthread_mutex_lock(&lock);
	vwarning_locked(fmt, args);
	pthread_mutex_unlock(&lock);
}

void note(const char *fmt, ...)
{
	va_list ap;

	if (verbosity <= 0)
		return;
	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("fatal: ", fmt, ap);
	va_end(ap);
	exit(EXIT_INPUT);
}

void bug_fl(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "jitsym: BUG: %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

unsigned long msg_warning_count(void)
{
	unsigned long n;

	pthread_mutex_lock(&lock);
	n = total_warnings;
	pthread_mutex_unlock(&lock);
	return n;
}

void msg_summary(void)
{
	size_t i;

	if (verbosity < 0)
		return;
	pthread_mutex_lock(&lock);
	for (i = 0; i < nr_sites; i++) {
		if (sites[i].count <= MSG_WARN_LIMIT)
			continue;
		fprintf(stderr, "jitsym: warning: %lu more warnings like: %s\n",
			sites[i].count - MSG_WARN_LIMIT, sites[i].first);
	}
	pthread_mutex_unlock(&lock);
}
