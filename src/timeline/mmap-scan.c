#include "common/common.h"
#include "common/vfs.h"
#include "timeline/mmap-scan.h"
#include "reader/perfdata.h"

#include <sys/stat.h>

#include <linux/perf_event.h>

/* One record that matters, of one process: an exec mmap, or the start of an image. */
struct scan_item {
	uint32_t pid;
	bool image_start;
	uint64_t time, seq;
	struct jit_exec_mmap m;
};

struct mmap_scan {
	struct scan_item *items;        /* by pid, time, then file order */
	size_t nr, alloc;
	struct jit_exec_mmap *out;      /* the last answer's copy */
	size_t alloc_out;
	const char *unknown;            /* non-NULL: every answer is "unknown" */
};

static bool is_exec_anon(const struct pd_event *ev)
{
	const char *f = ev->u.mmap.filename;

	return (ev->u.mmap.prot & 4 /* PROT_EXEC */) &&
	       (!strcmp(f, "//anon") || !strncmp(f, "[anon:", 6));
}

static void add_item(struct mmap_scan *s, uint32_t pid, bool image_start, uint64_t time)
{
	struct scan_item *it;

	ALLOC_GROW(s->items, s->nr + 1, s->alloc);
	it = &s->items[s->nr];
	memset(it, 0, sizeof(*it));
	it->pid = pid;
	it->image_start = image_start;
	it->time = time;
	it->seq = s->nr++;
}

static void scan_record(struct mmap_scan *s, const struct pd_event *ev)
{
	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (!is_exec_anon(ev))
			return;
		if (!ev->sample.has_time)
			s->unknown = "exec mmaps have no times";
		add_item(s, ev->u.mmap.pid, false, ev->sample.time);
		s->items[s->nr - 1].m.time = ev->sample.time;
		s->items[s->nr - 1].m.start = ev->u.mmap.start;
		s->items[s->nr - 1].m.len = ev->u.mmap.len;
		break;
	case PERF_RECORD_COMM:
		if (ev->u.comm.exec)
			add_item(s, ev->u.comm.pid, true, ev->sample.time);
		break;
	case PERF_RECORD_FORK:
		if (ev->u.fork.pid != ev->u.fork.ppid)
			add_item(s, ev->u.fork.pid, true, ev->u.fork.time);
		break;
	default:
		break;
	}
}

static int cmp_item(const void *a, const void *b)
{
	const struct scan_item *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

struct mmap_scan *mmap_scan__new(const char *path)
{
	char vbuf[VFS_PATH_BUF];
	struct mmap_scan *s = xcalloc(1, sizeof(*s));
	struct pd_reader *r;
	struct pd_event ev;
	struct stat st;

	if (!strcmp(path, "-") || stat(vfs_path(path, VFS_PERFDATA, vbuf), &st) || !S_ISREG(st.st_mode)) {
		s->unknown = "input not a file (read once)";
		return s;
	}
	msg_mute(true);
	r = pd_reader__open(path);
	/* the samples' fields are not looked at: half the walk's cost on node-medium */
	if (r)
		pd_reader__sideband_only(r);
	while (r && pd_reader__next(r, &ev) > 0)
		scan_record(s, &ev);
	pd_reader__delete(r);
	msg_mute(false);
	if (!r)
		s->unknown = "input cannot be read again";
	qsort(s->items, s->nr, sizeof(*s->items), cmp_item);
	return s;
}

void mmap_scan__delete(struct mmap_scan *s)
{
	if (!s)
		return;
	free(s->items);
	free(s->out);
	free(s);
}

/* The first item of pid, or s->nr. */
static size_t first_of(const struct mmap_scan *s, uint32_t pid)
{
	size_t lo = 0, hi = s->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->items[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct jit_exec_mmaps mmap_scan__image(struct mmap_scan *s, uint32_t pid, uint64_t at)
{
	struct jit_exec_mmaps res = { NULL, 0, s->unknown };
	size_t i = first_of(s, pid), start = i;

	if (s->unknown)
		return res;
	/* the image live at at: after the last image start at or before it */
	for (; i < s->nr && s->items[i].pid == pid && s->items[i].time <= at; i++)
		if (s->items[i].image_start)
			start = i + 1;
	for (i = start; i < s->nr && s->items[i].pid == pid && !s->items[i].image_start; i++) {
		ALLOC_GROW(s->out, res.nr + 1, s->alloc_out);
		s->out[res.nr++] = s->items[i].m;
	}
	res.v = s->out;
	return res;
}
