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
static void (*flush_fn)(void *ctx);
static void *flush_ctx;

/* Each thread's own: its mute count, its recording, where its messages are kept. */
static __thread int muted;
static __thread const char *context;    /* msg_set_context()'s recording, or NULL */
static __thread struct msg_capture *capturing;

/* A message kept by msg_capture_begin(), as it is to be printed. */
struct kept_msg {
	const char *fmt;        /* a warning's call site; NULL: an error or a note */
	char *body;             /* a warning's text, for the summary */
	char *line;             /* the whole line */
};

/*
 * A capture's warnings of one call site: those past the limit are only
 * counted, as no count the run reaches when they are said can print them.
 */
struct kept_site {
	const char *fmt;
	unsigned long kept, more;
};

struct msg_capture {
	pthread_mutex_t lock;   /* a recording's threads keep theirs in one */
	struct kept_msg *v;
	size_t nr, alloc;
	struct kept_site sites[64];
	size_t nr_sites;
};

void msg_mute(bool on)
{
	muted += on ? 1 : -1;
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

#define BODY_MAX 4096
#define QUOTED_MAX 1024
#define LINE_MAX_ (BODY_MAX + QUOTED_MAX + 32)

/* The message's text in body, and in line as printed: with prefix and the recording. */
static void format_msg(const char *prefix, const char *fmt, va_list ap, char *body, char *line)
{
	char quoted[QUOTED_MAX];

	vsnprintf(body, BODY_MAX, fmt, ap);
	/* the recording, unless the message quotes it already */
	if (context)
		snprintf(quoted, sizeof(quoted), "'%s'", context);
	if (context && !strstr(body, quoted))
		snprintf(line, LINE_MAX_, "jitsym: %s%s: %s", prefix, quoted, body);
	else
		snprintf(line, LINE_MAX_, "jitsym: %s%s", prefix, body);
}

static void keep(const char *fmt, const char *body, const char *line)
{
	struct msg_capture *c = capturing;
	struct kept_msg *k;

	pthread_mutex_lock(&c->lock);
	if (fmt) {
		struct kept_site *ks = NULL;
		size_t i;

		for (i = 0; i < c->nr_sites && !ks; i++)
			if (c->sites[i].fmt == fmt)
				ks = &c->sites[i];
		if (!ks && c->nr_sites < ARRAY_SIZE(c->sites)) {
			ks = &c->sites[c->nr_sites++];
			ks->fmt = fmt;
		}
		if (ks && ks->kept >= MSG_WARN_LIMIT) {
			ks->more++;
			pthread_mutex_unlock(&c->lock);
			return;
		}
		if (ks)
			ks->kept++;
	}
	ALLOC_GROW(c->v, c->nr + 1, c->alloc);
	k = &c->v[c->nr++];
	k->fmt = fmt;
	k->body = fmt ? xstrdup(body) : NULL;
	k->line = xstrdup(line);
	pthread_mutex_unlock(&c->lock);
}

/* keep: the thread's capture may take it (not die()'s last words). */
static void vreport_as(const char *prefix, const char *fmt, va_list ap, bool may_keep)
{
	char body[BODY_MAX], line[LINE_MAX_];

	if (muted)
		return;
	format_msg(prefix, fmt, ap, body, line);
	if (may_keep && capturing) {
		keep(NULL, body, line);
		return;
	}
	pthread_mutex_lock(&lock);
	print_line(line);
	pthread_mutex_unlock(&lock);
}

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	vreport_as(prefix, fmt, ap, true);
}

void msg_set_context(const char *recording)
{
	context = recording;
}

const char *msg_context(void)
{
	return context;
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

/* A warning of site fmt counted; whether it is to be printed. Under lock. */
static bool count_warning(const char *fmt, const char *body)
{
	struct warn_site *site = site_for(fmt);

	total_warnings++;
	/* the summary's text: its first 511 bytes */
	if (site && ++site->count == 1)
		site->first = xstrndup(body, 511);
	return !(site && site->count > MSG_WARN_LIMIT) && verbosity >= 0;
}

void vwarning(const char *fmt, va_list args)
{
	char body[BODY_MAX] = "", line[LINE_MAX_];
	struct warn_site *site;

	if (muted)
		return;
	if (capturing) {
		format_msg("warning: ", fmt, args, body, line);
		keep(fmt, body, line);
		return;
	}
	pthread_mutex_lock(&lock);
	/* formatted only to be printed, or kept as its site's first: past the limit, counted */
	site = site_for(fmt);
	if (!site || site->count < MSG_WARN_LIMIT)
		format_msg("warning: ", fmt, args, body, line);
	if (count_warning(fmt, body))
		print_line(line);
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
	vreport_as("fatal: ", fmt, ap, false);
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

struct msg_capture *msg_capture_new(void)
{
	struct msg_capture *c = xcalloc(1, sizeof(*c));

	pthread_mutex_init(&c->lock, NULL);
	return c;
}

void msg_capture_begin(struct msg_capture *c)
{
	capturing = c;
}

void msg_capture_end(void)
{
	capturing = NULL;
}

struct msg_capture *msg_capturing(void)
{
	return capturing;
}

void msg_capture_replay(struct msg_capture *c)
{
	size_t i;

	pthread_mutex_lock(&lock);
	for (i = 0; i < c->nr; i++) {
		const struct kept_msg *k = &c->v[i];

		if (!k->fmt || count_warning(k->fmt, k->body))
			print_line(k->line);
	}
	for (i = 0; i < c->nr_sites; i++) {
		struct warn_site *site = site_for(c->sites[i].fmt);

		total_warnings += c->sites[i].more;
		if (site)
			site->count += c->sites[i].more;
	}
	pthread_mutex_unlock(&lock);
}

void msg_capture_delete(struct msg_capture *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nr; i++) {
		free(c->v[i].body);
		free(c->v[i].line);
	}
	free(c->v);
	pthread_mutex_destroy(&c->lock);
	free(c);
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
