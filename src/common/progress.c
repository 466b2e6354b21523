#include "common/common.h"
#include "common/progress.h"
#include "common/sbuf.h"

#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_DELAY_NS    1000000000ull   /* nothing for the first second */
#define PROGRESS_REFRESH_NS  250000000ull    /* then at most 4 redraws a second */
#define PROGRESS_CHECK_EVERY 256u            /* updates between clock reads */

struct progress {
	char *what;
	uint64_t total, done, items;
	uint64_t start_ns, next_ns;
	unsigned int calls;
	size_t width;           /* the terminal's columns: a longer line would wrap */
	bool bytes_only;        /* a download: no samples */
};

/* The report on screen, if any: msg.c erases it before printing, a signal handler too. */
static atomic_bool line_shown;
#define ERASE_LINE "\r\033[K"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The command's -o FILE, or NULL: it writes to stdout. */
static const char *output_path;

void progress__set_output(const char *path)
{
	output_path = path;
}

/*
 * stderr is a terminal, and the output does not go to that same terminal:
 * stdout when there is no -o, else the -o file (which need not exist yet).
 */
static bool stderr_is_own_terminal(void)
{
	struct stat e, o;
	int ret;

	if (!isatty(STDERR_FILENO) || fstat(STDERR_FILENO, &e))
		return false;
	ret = output_path ? stat(output_path, &o) : fstat(STDOUT_FILENO, &o);
	if (ret || !S_ISCHR(o.st_mode))
		return true;
	/* /dev/tty is whichever terminal the process has: assume it is this one */
	return o.st_rdev != e.st_rdev && !(output_path && !strcmp(output_path, "/dev/tty"));
}

struct progress *progress__new(const char *what, uint64_t total)
{
	struct progress *p;

	if (verbosity < 0 || !stderr_is_own_terminal())
		return NULL;
	p = xcalloc(1, sizeof(*p));
	p->what = xstrdup(what);
	p->total = total;
	p->start_ns = now_ns();
	p->next_ns = p->start_ns + PROGRESS_DELAY_NS;
	p->width = 80;
	{
		struct winsize ws;

		if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 20)
			p->width = ws.ws_col;
	}
	return p;
}

static void add_size(struct sbuf *sb, uint64_t bytes)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes / 1024;
	size_t i = 0;

	if (bytes < 1024) {
		sbuf_addf(sb, "%" PRIu64 " B", bytes);
		return;
	}
	while (v >= 1024 && i + 1 < ARRAY_SIZE(units)) {
		v /= 1024;
		i++;
	}
	sbuf_addf(sb, "%.1f %s", v, units[i]);
}

static void add_count(struct sbuf *sb, double n)
{
	if (n >= 1e9)
		sbuf_addf(sb, "%.1fG", n / 1e9);
	else if (n >= 1e6)
		sbuf_addf(sb, "%.1fM", n / 1e6);
	else if (n >= 1e4)
		sbuf_addf(sb, "%.0fk", n / 1e3);
	else
		sbuf_addf(sb, "%.0f", n);
}

static void draw(struct progress *p, uint64_t now)
{
	struct sbuf sb;
	double secs = (double)(now - p->start_ns) / 1e9;

	sbuf_init(&sb, 512);
	sbuf_addf(&sb, "jitsym: %s: ", p->what);
	add_size(&sb, p->done);
	if (p->total) {
		uint64_t pct = p->done >= p->total ? 100 : p->done * 100 / p->total;

		sbuf_addstr(&sb, " of ");
		add_size(&sb, p->total);
		sbuf_addf(&sb, " (%" PRIu64 "%%)", pct);
	}
	if (!p->bytes_only) {
		sbuf_addstr(&sb, ", ");
		add_count(&sb, (double)p->items);
		sbuf_addstr(&sb, " samples, ");
		add_count(&sb, secs > 0 ? (double)p->items / secs : 0);
		sbuf_addstr(&sb, " samples/s");
	}
	/* one line, or "\r" would not return to its start */
	if (sb.len > p->width - 1)
		sb.len = p->width - 1;
	/* clear to the end of the line: the previous report may have been longer */
	fprintf(stderr, "\r%.*s\033[K", (int)sb.len, sb.buf);
	fflush(stderr);
	atomic_store(&line_shown, true);
	sbuf_release(&sb);
}

void progress__update(struct progress *p, uint64_t done, uint64_t items)
{
	uint64_t now;

	if (!p)
		return;
	p->done = done;
	p->items = items;
	if (++p->calls % PROGRESS_CHECK_EVERY)
		return;
	now = now_ns();
	if (now < p->next_ns)
		return;
	p->next_ns = now + PROGRESS_REFRESH_NS;
	draw(p, now);
}

struct progress *progress__new_bytes(const char *what)
{
	struct progress *p = progress__new(what, 0);

	if (p)
		p->bytes_only = true;
	return p;
}

void progress__update_bytes(struct progress *p, uint64_t done, uint64_t total)
{
	uint64_t now;

	if (!p)
		return;
	p->done = done;
	p->total = total;
	now = now_ns();
	if (now < p->next_ns)
		return;
	p->next_ns = now + PROGRESS_REFRESH_NS;
	draw(p, now);
}

void progress__clear_line(void)
{
	if (!atomic_load(&line_shown))
		return;
	fputs(ERASE_LINE, stderr);
	fflush(stderr);
	atomic_store(&line_shown, false);
}

void progress__erase_async(void)
{
	if (atomic_exchange(&line_shown, false) &&
	    write(STDERR_FILENO, ERASE_LINE, sizeof(ERASE_LINE) - 1) < 0)
		return;    /* nothing more to do about it in a signal handler */
}

void progress__delete(struct progress *p)
{
	if (!p)
		return;
	progress__clear_line();
	free(p->what);
	free(p);
}

uint64_t progress__input_size(const char *path)
{
	struct stat st;
	int ret = strcmp(path, "-") ? stat(path, &st) : fstat(STDIN_FILENO, &st);

	return !ret && S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}
