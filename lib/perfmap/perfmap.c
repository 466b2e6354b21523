/*
 * libperfmap: parse "START SIZE NAME" lines in place in one copy of the
 * file, then turn the entries, where later lines win, into a sorted list
 * of disjoint address ranges for binary search.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

#define READ_CHUNK (64u << 10)

static perfmap_print_fn_t print_fn;

perfmap_print_fn_t perfmap__set_print(perfmap_print_fn_t fn)
{
	perfmap_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

__attribute__((format(printf, 2, 3)))
static void pr(enum perfmap_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}

/*
 * Grow array p (*alloc elements of sz bytes) to hold at least nr. Returns
 * the array, or NULL (p still valid) when out of memory or size overflows.
 */
static void *grow(void *p, size_t *alloc, size_t nr, size_t sz)
{
	size_t n;
	void *q;

	if (nr <= *alloc)
		return p;
	n = *alloc < 16 ? 16 : *alloc + *alloc / 2;
	if (n < nr || n < *alloc)
		n = nr;
	if (n > SIZE_MAX / sz)
		return NULL;
	q = realloc(p, n * sz);
	if (q)
		*alloc = n;
	return q;
}

/* hex digit value + 1; 0 for anything else */
static const unsigned char hex_tab[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static bool is_sep(char c)
{
	return c == ' ' || c == '\t';
}

/* Parse [0x]HEX at *p, below end; false when absent or over 64 bits. */
static bool parse_hex(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	unsigned d;

	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (s == end || !hex_tab[(unsigned char)*s])
		return false;
	for (; s < end && (d = hex_tab[(unsigned char)*s]); s++) {
		if (v >> 60)
			return false;
		v = (v << 4) | (d - 1);
	}
	*p = s;
	*out = v;
	return true;
}

struct parser {
	struct perfmap *pm;     /* the counters; and the entries, without fn */
	const char *path;       /* for messages; NULL for buffers */
	size_t lineno;
	size_t alloc;           /* of pm->entries */
	perfmap_entry_fn_t fn;  /* perfmap__read_each(): each entry goes here, not kept */
	void *ctx;
};

__attribute__((format(printf, 3, 4)))
static void line_msg(const struct parser *ps, enum perfmap_print_level level,
		     const char *fmt, ...)
{
	char msg[128];
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (ps->path)
		pr(level, "'%s':%zu: %s", ps->path, ps->lineno, msg);
	else
		pr(level, "line %zu: %s", ps->lineno, msg);
}

static void bad_line(struct parser *ps, const char *why)
{
	size_t n = ++ps->pm->nr_bad_lines;

	line_msg(ps, n <= PERFMAP_MAX_WARNINGS ? PERFMAP_WARN : PERFMAP_DEBUG,
		 "%s", why);
}

/* Is [p, e) only spaces, tabs and carriage returns? */
static bool is_blank_line(const char *p, const char *e)
{
	for (; p < e; p++)
		if (!is_sep(*p) && *p != '\r')
			return false;
	return true;
}

/*
 * Split the line [p, *e) into its fields: the name is [name, *e) on
 * success. Returns NULL, or why the line is bad.
 */
static const char *parse_fields(char *p, char **e, struct perfmap_entry *ent,
				char **name)
{
	const char *q = p, *end = *e;

	if (memchr(p, '\0', (size_t)(end - p)))
		return "NUL byte in line";
	if (is_blank_line(p, end))
		return "blank line";
	while (is_sep(*q))
		q++;
	if (!parse_hex(&q, end, &ent->start) || q == end || !is_sep(*q))
		return "bad start address";
	while (is_sep(*q))
		q++;
	if (!parse_hex(&q, end, &ent->size))
		return "bad size";
	if (q < end && !is_sep(*q) && !(*q == '\r' && q + 1 == end))
		return "bad size";
	while (q < end && is_sep(*q))
		q++;
	*name = p + (q - p);
	if (end > *name && end[-1] == '\r')
		end--;
	if (*name == end)
		return "missing name";
	if (ent->size && ent->size - 1 > UINT64_MAX - ent->start)
		return "start + size overflows";
	*e = p + (end - p);
	return NULL;
}

/*
 * Parse the line [p, e) of the map's own text, NUL-terminating the name in
 * place (e is a '\n' or the spare byte after the text). Returns 0, or
 * -ENOMEM, or what ps->fn returned; bad lines are counted, not errors.
 */
static int parse_line(struct parser *ps, char *p, char *e)
{
	struct perfmap *pm = ps->pm;
	struct perfmap_entry ent, *entries;
	const char *why;
	char *name;

	why = parse_fields(p, &e, &ent, &name);
	if (why) {
		bad_line(ps, why);
		return 0;
	}
	if ((size_t)(e - name) > PERFMAP_MAX_NAME) {
		line_msg(ps, PERFMAP_WARN, "name cut to %u bytes", PERFMAP_MAX_NAME);
		e = name + PERFMAP_MAX_NAME;
	}
	*e = '\0';
	ent.name = name;
	if (ps->fn) {
		pm->nr_entries++;
		return ps->fn(ps->ctx, &ent);
	}
	entries = grow(pm->entries, &ps->alloc, pm->nr_entries + 1, sizeof(ent));
	if (!entries)
		return -ENOMEM;
	pm->entries = entries;
	pm->entries[pm->nr_entries++] = ent;
	return 0;
}

/*
 * The length of text without its last line when that line has no newline:
 * a runtime still appending may have written part of it, so whatever it
 * holds (a size cut to its first digits looks well formed) is not read.
 * How many bytes that line had is kept in pm->partial.
 */
static size_t whole_lines(struct perfmap *pm, size_t len)
{
	size_t whole = len;

	while (whole && pm->text[whole - 1] != '\n')
		whole--;
	pm->partial = len - whole;
	return whole;
}

/* Parse the whole lines of [p, end) (which ends with one); 0 or as parse_line(). */
static int parse_lines(struct parser *ps, char *p, char *end)
{
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *e = nl ? nl : end;
		int ret;

		ps->lineno++;
		ret = parse_line(ps, p, e);
		if (ret)
			return ret;
		p = e + 1;
	}
	return 0;
}

/* After the last line: what was not read, and how many lines were bad. */
static void parse_end(struct parser *ps)
{
	struct perfmap *pm = ps->pm;
	const char *path = ps->path;

	if (pm->partial) {
		ps->lineno++;
		line_msg(ps, PERFMAP_INFO, "no newline at its end (still being written?): "
			 "its %zu bytes are not read", pm->partial);
	}
	if (pm->nr_bad_lines > PERFMAP_MAX_WARNINGS)
		pr(PERFMAP_WARN, "%s%s%s%zu bad lines in total",
		   path ? "'" : "", path ? path : "", path ? "': " : "",
		   pm->nr_bad_lines);
}

static int parse_text(struct perfmap *pm, size_t len, const char *path)
{
	struct parser ps = { .pm = pm, .path = path };
	int ret = parse_lines(&ps, pm->text, pm->text + whole_lines(pm, len));

	if (!ret)
		parse_end(&ps);
	return ret;
}

/* Max-heap of entry indexes: the top is the latest line. */
struct heap {
	size_t *v;
	size_t nr;
};

static void heap_push(struct heap *h, size_t x)
{
	size_t i = h->nr++;

	while (i && h->v[(i - 1) / 2] < x) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = x;
}

static void heap_pop(struct heap *h)
{
	size_t x = h->v[--h->nr], i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->nr)
			break;
		if (c + 1 < h->nr && h->v[c + 1] > h->v[c])
			c++;
		if (h->v[c] <= x)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->nr)
		h->v[i] = x;
}

/* An entry to sweep: its start, copied so qsort needs no context. */
struct sweep_item {
	uint64_t start;
	size_t entry;
};

static int cmp_sweep_item(const void *a, const void *b)
{
	const struct sweep_item *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->entry < y->entry ? -1 : x->entry > y->entry;
}

static uint64_t entry_last(const struct perfmap_entry *e)
{
	return e->start + (e->size - 1);
}

static void add_range(struct perfmap *pm, uint64_t first, uint64_t last, size_t entry)
{
	struct perfmap_range *prev = pm->nr_ranges ? &pm->ranges[pm->nr_ranges - 1] : NULL;

	if (prev && prev->entry == entry && prev->last + 1 == first) {
		prev->last = last;
		return;
	}
	pm->ranges[pm->nr_ranges++] = (struct perfmap_range){ first, last, entry };
}

/*
 * Sweep the entries in start order keeping the ones that cover the current
 * address x in a max-heap of line numbers (expired ones are dropped lazily
 * when they reach the top). The winner only changes where a new entry
 * starts or the winner ends, so each step emits one range and pushes or
 * pops one entry: O(n log n), at most 2n ranges.
 */
static int build_ranges(struct perfmap *pm)
{
	const struct perfmap_entry *ents = pm->entries;
	struct heap h = { NULL, 0 };
	struct sweep_item *order;
	size_t n = 0, i = 0, k;
	uint64_t x = 0;

	if (!pm->nr_entries)
		return 0;
	if (pm->nr_entries > SIZE_MAX / 2 / sizeof(*pm->ranges))
		return -ENOMEM;
	order = malloc(pm->nr_entries * sizeof(*order));
	h.v = malloc(pm->nr_entries * sizeof(*h.v));
	pm->ranges = malloc(2 * pm->nr_entries * sizeof(*pm->ranges));
	if (!order || !h.v || !pm->ranges) {
		free(order);
		free(h.v);
		return -ENOMEM;
	}
	for (k = 0; k < pm->nr_entries; k++)
		if (ents[k].size)
			order[n++] = (struct sweep_item){ ents[k].start, k };
	qsort(order, n, sizeof(*order), cmp_sweep_item);

	while (i < n || h.nr) {
		uint64_t last;

		if (!h.nr)
			x = order[i].start;
		while (i < n && order[i].start <= x)
			heap_push(&h, order[i++].entry);
		while (h.nr && entry_last(&ents[h.v[0]]) < x)
			heap_pop(&h);
		if (!h.nr)
			continue;
		last = entry_last(&ents[h.v[0]]);
		if (i < n && order[i].start - 1 < last)
			last = order[i].start - 1;
		add_range(pm, x, last, h.v[0]);
		if (last == UINT64_MAX)
			break;
		x = last + 1;
	}
	free(order);
	free(h.v);
	return 0;
}

/* Take ownership of text (len bytes plus one spare) and index it. */
static struct perfmap *perfmap__from_text(char *text, size_t len, const char *path)
{
	struct perfmap *pm = calloc(1, sizeof(*pm));
	int ret;

	if (!pm) {
		free(text);
		errno = ENOMEM;
		return NULL;
	}
	pm->text = text;
	text[len] = '\0';
	ret = parse_text(pm, len, path);
	if (!ret)
		ret = build_ranges(pm);
	if (ret) {
		perfmap__delete(pm);
		errno = -ret;
		return NULL;
	}
	pr(PERFMAP_DEBUG, "%s%s%s%zu entries, %zu ranges, %zu bad lines",
	   path ? "'" : "", path ? path : "", path ? "': " : "",
	   pm->nr_entries, pm->nr_ranges, pm->nr_bad_lines);
	return pm;
}

struct perfmap *perfmap__parse(const char *buf, size_t len)
{
	char *text;

	if (len == SIZE_MAX || (!buf && len)) {
		errno = EINVAL;
		return NULL;
	}
	text = malloc(len + 1);
	if (!text) {
		errno = ENOMEM;
		return NULL;
	}
	if (len)
		memcpy(text, buf, len);
	return perfmap__from_text(text, len, NULL);
}

/* Read all of fd into a fresh buffer with one spare byte; 0 or -errno. */
static int read_all(int fd, char **out, size_t *outlen)
{
	struct stat st;
	size_t alloc = READ_CHUNK, len = 0;
	char *buf;

	/*
	 * Regular files: room for the file, the spare byte and one more, so
	 * that the read seeing end of file needs no growth. Pipes grow.
	 */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SIZE_MAX - 2)
		alloc = (size_t)st.st_size + 2;
	buf = malloc(alloc);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n;

		if (len + 1 >= alloc) {
			char *nbuf = grow(buf, &alloc, alloc + 1, 1);

			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		n = read(fd, buf + len, alloc - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;

			free(buf);
			return ret;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	*out = buf;
	*outlen = len;
	return 0;
}

struct perfmap *perfmap__read(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ret = read_all(fd, &text, &len);
	close(fd);
	if (ret) {
		errno = -ret;
		return NULL;
	}
	return perfmap__from_text(text, len, path);
}

/*
 * Parse what of buf[0, *have) ends with a newline and keep the rest at the
 * front of buf; 0 or as parse_line().
 */
static int parse_chunk(struct parser *ps, char *buf, size_t *have)
{
	size_t whole = *have;
	int ret;

	while (whole && buf[whole - 1] != '\n')
		whole--;
	ret = parse_lines(ps, buf, buf + whole);
	memmove(buf, buf + whole, *have - whole);
	*have -= whole;
	return ret;
}

/* Read fd a chunk at a time into ps's callback; 0 or -errno or fn's error. */
static int read_each(struct parser *ps, int fd)
{
	size_t alloc = 0, have = 0;
	char *buf = NULL;
	int ret = 0;

	for (;;) {
		ssize_t n;

		/* a line longer than the buffer makes it grow */
		if (alloc - have < READ_CHUNK) {
			char *nbuf = grow(buf, &alloc, have + 16 * READ_CHUNK, 1);

			if (!nbuf) {
				ret = -ENOMEM;
				break;
			}
			buf = nbuf;
		}
		n = read(fd, buf + have, alloc - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		have += (size_t)n;
		ret = parse_chunk(ps, buf, &have);
		if (ret)
			break;
	}
	ps->pm->partial = have;
	free(buf);
	return ret;
}

int perfmap__read_each(const char *path, perfmap_entry_fn_t fn, void *ctx,
		       struct perfmap_stats *st)
{
	struct perfmap counts = { 0 };
	struct parser ps = { .pm = &counts, .path = path, .fn = fn, .ctx = ctx };
	int fd, ret;

	memset(st, 0, sizeof(*st));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = read_each(&ps, fd);
	close(fd);
	st->nr_entries = counts.nr_entries;
	st->nr_bad_lines = counts.nr_bad_lines;
	st->partial_bytes = counts.partial;
	if (!ret)
		parse_end(&ps);
	return ret;
}

void perfmap__delete(struct perfmap *pm)
{
	if (!pm)
		return;
	free(pm->ranges);
	free(pm->entries);
	free(pm->text);
	free(pm);
}

const struct perfmap_entry *perfmap__lookup(const struct perfmap *pm, uint64_t addr)
{
	size_t lo = 0, hi = pm->nr_ranges;

	/* First range starting above addr; the one before may hold it. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pm->ranges[mid].first <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr > pm->ranges[lo - 1].last)
		return NULL;
	return &pm->entries[pm->ranges[lo - 1].entry];
}

size_t perfmap__nr_entries(const struct perfmap *pm)
{
	return pm->nr_entries;
}

const struct perfmap_entry *perfmap__entry(const struct perfmap *pm, size_t idx)
{
	return idx < pm->nr_entries ? &pm->entries[idx] : NULL;
}

size_t perfmap__nr_bad_lines(const struct perfmap *pm)
{
	return pm->nr_bad_lines;
}

size_t perfmap__partial_bytes(const struct perfmap *pm)
{
	return pm->partial;
}
