#include "common/common.h"
#include "resolve/kernel.h"
#include "common/bsearch.h"
#include "common/cursor.h"
#include "common/strpool.h"
#include "common/utf8.h"

#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Longest kallsyms line we accept: KSYM_NAME_LEN is 512, module names 56. */
#define KALLSYMS_LINE_MAX 1024
#define KERNEL_PAGE_SIZE 4096
#define NOTES_PATH "/sys/kernel/notes"
#define NOTES_MAX (64u << 10)
#define NT_GNU_BUILD_ID 3
/* Build ids perf uses are SHA-1 sized; old perf.data files pad them to 24. */
#define BUILD_ID_SHA1_SIZE 20
#define BUILD_ID_MAX 64

/* Bytes read from a kallsyms file at a time; more than a line's worth. */
#define KALLSYMS_CHUNK (64u << 10)

struct kentry {
	struct ksym sym;        /* sym.name not interned until interned is set */
	size_t seq;             /* line order, to break ties between aliases */
	size_t name_off;        /* in kernel_syms.names, while loading */
	bool interned;
	bool bpf;               /* a BPF program: its DSO is its name */
};

struct kernel_syms {
	struct kentry *syms;    /* sorted by start, one per address */
	size_t nr;
	struct strpool *pool;
	char *names;            /* the kept names, each NUL-terminated, until interned */
	char *path;             /* a file still to read (kernel_syms__new()), else NULL */
	int err;                /* why reading gave no symbols: errno, else 0 */
};

/* Reads a file line by line, a chunk at a time. */
struct line_reader {
	FILE *fp;
	char *buf;              /* KALLSYMS_CHUNK bytes */
	size_t pos, len;        /* unread: buf[pos..len) */
	bool eof;
};

/* One line from read_line(): not NUL-terminated, may contain NULs. */
struct kline {
	const char *p;
	size_t len;
	bool too_long;
};

/* Per-load counters, to tell "kptr_restrict" from "nothing usable". */
struct load_stats {
	size_t lines;
	size_t parsed;
	size_t zero_addr;
};

/*
 * Read one line; false at end of file. A line longer than
 * KALLSYMS_LINE_MAX is consumed whole and comes back too_long.
 */
static bool read_line(struct line_reader *lr, struct kline *l)
{
	bool too_long = false;
	size_t n;

	for (;;) {
		char *start = lr->buf + lr->pos;
		size_t avail = lr->len - lr->pos;
		char *nl = avail ? memchr(start, '\n', avail) : NULL;

		if (nl || (lr->eof && (avail || too_long))) {
			n = nl ? (size_t)(nl - start) : avail;
			l->p = start;
			l->len = n;
			l->too_long = too_long || n > KALLSYMS_LINE_MAX;
			lr->pos += n + (nl != NULL);
			return true;
		}
		if (lr->eof)
			return false;
		if (avail > KALLSYMS_LINE_MAX) {
			too_long = true;
			avail = 0;
		}
		memmove(lr->buf, lr->buf + lr->len - avail, avail);
		lr->pos = 0;
		lr->len = avail;
		n = fread(lr->buf + lr->len, 1, KALLSYMS_CHUNK - lr->len, lr->fp);
		lr->len += n;
		if (!n)
			lr->eof = true;
	}
}

/*
 * kallsyms runs to 10 MB (120,000 lines and more), read at every run that
 * has kernel frames: its bytes go through these tables, one load each,
 * not a chain of compares (the compares were a third of a short
 * --call-graph dwarf recording's fold).
 */
static const bool blank_byte[256] = { [' '] = true, ['\t'] = true, ['\r'] = true };

/* A hex digit's value + 1; 0 for any other byte. */
static const uint8_t hex_digit[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

static bool is_blank(char c)
{
	return blank_byte[(unsigned char)c];
}

/* Parse hex digits at *p (at least one, value must fit 64 bits). */
static bool parse_hex(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	unsigned int d, n = 0;

	for (; s < end && (d = hex_digit[(unsigned char)*s]) != 0; s++, n++) {
		/* only a 17th digit or later can carry a value out */
		if (n >= 16 && v >> 60)
			return false;
		v = (v << 4) | (d - 1);
	}
	if (!n)
		return false;
	*p = s;
	*out = v;
	return true;
}

static const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && is_blank(*p))
		p++;
	return p;
}

static const char *skip_word(const char *p, const char *end)
{
	while (p < end && !is_blank(*p))
		p++;
	return p;
}

static bool keep_type(char type)
{
	switch (type) {
	case 'T': case 't': case 'W': case 'w':
	case 'D': case 'd': case 'B': case 'b':
		return true;
	default:
		return false;
	}
}

/* What parse_line() found: the name is left in the line, to copy if kept. */
struct kparsed {
	uint64_t addr;
	char type;
	const char *name, *mod;         /* mod: "[ext4]", NULL for core kernel */
	size_t name_len, mod_len;
};

/*
 * Parse "ADDR TYPE NAME [\t[MODULE]]". Returns false for a malformed line,
 * with *why set.
 */
static bool parse_line(const struct kline *l, struct kparsed *k, const char **why)
{
	const char *p = l->p, *end = l->p + l->len;
	const char *name_end, *mod_end;

	if (l->too_long) {
		*why = "line too long";
		return false;
	}
	if (memchr(l->p, '\0', l->len)) {
		*why = "NUL byte";
		return false;
	}
	p = skip_blanks(p, end);
	if (!parse_hex(&p, end, &k->addr) || (p < end && !is_blank(*p))) {
		*why = "bad address";
		return false;
	}
	p = skip_blanks(p, end);
	if (p == end) {
		*why = "missing type";
		return false;
	}
	if (p + 1 < end && !is_blank(p[1])) {
		*why = "bad type";
		return false;
	}
	k->type = *p;
	k->name = skip_blanks(p + 1, end);
	name_end = skip_word(k->name, end);
	if (k->name == name_end) {
		*why = "missing name";
		return false;
	}
	k->name_len = (size_t)(name_end - k->name);
	k->mod = NULL;
	k->mod_len = 0;
	p = skip_blanks(name_end, end);
	if (p < end) {
		mod_end = skip_word(p, end);
		if (mod_end - p < 3 || p[0] != '[' || mod_end[-1] != ']') {
			*why = "bad module";
			return false;
		}
		if (skip_blanks(mod_end, end) != end) {
			*why = "trailing garbage";
			return false;
		}
		k->mod = p;
		k->mod_len = (size_t)(mod_end - p);
	}
	return true;
}

/*
 * Fill e's module and DSO, interned (so that pointers compare modules);
 * consecutive lines of one module share the last lookup.
 */
static void kentry__set_module(struct kentry *e, const struct kparsed *k,
			       struct strpool *pool, struct ksym *last)
{
	if (!k->mod) {
		e->sym.dso = KSYM_DSO_KERNEL;
		e->sym.module = NULL;
		return;
	}
	if (!last->dso || strlen(last->dso) != k->mod_len ||
	    memcmp(last->dso, k->mod, k->mod_len)) {
		last->dso = strpool__intern_len(pool, k->mod, k->mod_len);
		last->module = strpool__intern_len(pool, k->mod + 1, k->mod_len - 2);
	}
	e->sym.dso = last->dso;
	e->sym.module = last->module;
	/* perf names a BPF program's DSO after the program itself. */
	e->bpf = !strcmp(e->sym.module, "bpf");
}

static int read_kallsyms(FILE *fp, const char *path, struct kernel_syms *ks,
			 struct load_stats *st)
{
	struct line_reader lr = { .fp = fp, .buf = xmalloc(KALLSYMS_CHUNK) };
	size_t alloc = 0, nr_names = 0, alloc_names = 0, i;
	struct ksym last = { 0 };
	struct kparsed k;
	struct kline l;
	const char *why;

	while (read_line(&lr, &l)) {
		struct kentry *e;

		st->lines++;
		if (!l.too_long && skip_blanks(l.p, l.p + l.len) == l.p + l.len)
			continue;
		if (!parse_line(&l, &k, &why)) {
			warning("'%s':%zu: malformed kallsyms line (%s)",
				path, st->lines, why);
			continue;
		}
		st->parsed++;
		if (!k.addr) {
			st->zero_addr++;
			continue;
		}
		if (!keep_type(k.type) || k.name[0] == '$')
			continue;
		ALLOC_GROW(ks->syms, ks->nr + 1, alloc);
		e = &ks->syms[ks->nr];
		memset(e, 0, sizeof(*e));
		e->seq = ks->nr++;
		e->sym.start = k.addr;
		e->sym.type = k.type;
		kentry__set_module(e, &k, ks->pool, &last);
		e->name_off = nr_names;
		ALLOC_GROW(ks->names, st_add(nr_names, k.name_len + 1), alloc_names);
		memcpy(ks->names + nr_names, k.name, k.name_len);
		ks->names[nr_names + k.name_len] = '\0';
		nr_names += k.name_len + 1;
	}
	for (i = 0; i < ks->nr; i++)
		ks->syms[i].sym.name = ks->names + ks->syms[i].name_off;
	free(lr.buf);
	if (ferror(fp))
		return error("cannot read '%s': %s", path, strerror(errno));
	return 0;
}

static int cmp_kentry(const void *a, const void *b)
{
	const struct kentry *x = a, *y = b;

	if (x->sym.start != y->sym.start)
		return x->sym.start < y->sym.start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * round_up(start, page) + page, saturating at the top: one page past the
 * page boundary at or after start (perf's end for symbols it cannot bound).
 */
static uint64_t page_end(uint64_t start)
{
	const uint64_t page = KERNEL_PAGE_SIZE;

	if (start > UINT64_MAX - 2 * page)
		return UINT64_MAX;
	return ((start + page - 1) & ~(page - 1)) + page;
}

/* Sort (kallsyms mostly is), keep the last-listed alias at each address, set the ends. */
static void index_syms(struct kernel_syms *ks)
{
	size_t i, n = 0;

	for (i = 1; i < ks->nr && ks->syms[i - 1].sym.start <= ks->syms[i].sym.start; i++)
		;
	if (i < ks->nr)
		qsort(ks->syms, ks->nr, sizeof(*ks->syms), cmp_kentry);
	for (i = 0; i < ks->nr; i++) {
		if (i + 1 < ks->nr && ks->syms[i + 1].sym.start == ks->syms[i].sym.start)
			continue;
		ks->syms[n++] = ks->syms[i];
	}
	ks->nr = n;
	for (i = 0; i < n; i++) {
		struct ksym *s = &ks->syms[i].sym;
		uint64_t pend = page_end(s->start);

		if (i + 1 == n) {
			s->end = pend;
			continue;
		}
		s->end = ks->syms[i + 1].sym.start;
		/* Interned, so pointers compare modules (NULL: core kernel). */
		if (ks->syms[i + 1].sym.module != s->module && pend < s->end)
			s->end = pend;
	}
}

/* Read ks->path into ks; on failure ks has no symbols and ks->err says why. */
static void kernel_syms__read(struct kernel_syms *ks)
{
	struct load_stats st = { 0 };
	char *path = ks->path;
	FILE *fp;
	int ret;

	if (!path)
		return;
	ks->path = NULL;
	fp = fopen(path, "r");
	if (!fp) {
		ks->err = errno;
		error("cannot open '%s': %s", path, strerror(ks->err));
		free(path);
		return;
	}
	ret = read_kallsyms(fp, path, ks, &st);
	fclose(fp);
	if (ret < 0) {
		ks->err = EIO;
	} else if (!ks->nr) {
		if (st.parsed && st.zero_addr == st.parsed)
			warning("'%s' lists only zero addresses (kptr_restrict?): "
				"no kernel symbols", path);
		else
			warning("no kernel text symbols in '%s'", path);
		ks->err = ENODATA;
	} else {
		index_syms(ks);
		note("'%s': %zu kernel symbols from %zu lines", path, ks->nr, st.lines);
	}
	if (ks->err) {
		ks->nr = 0;
		free(ks->syms);
		ks->syms = NULL;
	}
	free(path);
}

struct kernel_syms *kernel_syms__new(const char *path, struct strpool *pool)
{
	struct kernel_syms *ks = xcalloc(1, sizeof(*ks));

	ks->pool = pool;
	ks->path = xstrdup(path);
	return ks;
}

struct kernel_syms *kernel_syms__load(const char *path, struct strpool *pool)
{
	struct kernel_syms *ks = kernel_syms__new(path, pool);

	kernel_syms__read(ks);
	if (ks->err) {
		int saved = ks->err;

		kernel_syms__delete(ks);
		errno = saved;
		return NULL;
	}
	return ks;
}

void kernel_syms__delete(struct kernel_syms *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->names);
	free(ks->path);
	free(ks);
}

bool kernel_syms__usable(struct kernel_syms *ks)
{
	kernel_syms__read(ks);
	return ks->nr > 0;
}

/* The entry's symbol, its name interned on first use. */
static const struct ksym *kentry__sym(struct kernel_syms *ks, struct kentry *e)
{
	if (!e->interned) {
		e->sym.name = strpool__intern(ks->pool, e->sym.name);
		if (e->bpf)
			e->sym.dso = e->sym.name;
		e->interned = true;
	}
	return &e->sym;
}

const struct ksym *kernel_syms__find(struct kernel_syms *ks, uint64_t addr)
{
	size_t lo;

	kernel_syms__read(ks);
	/* The last symbol starting at or before addr may hold it. */
	lo = bsearch_last_le(ks->syms, ks->nr, sizeof(*ks->syms), offsetof(struct kentry, sym.start),
			     addr);
	if (!lo || addr >= ks->syms[lo - 1].sym.end)
		return NULL;
	return kentry__sym(ks, &ks->syms[lo - 1]);
}

size_t kernel_syms__nr(struct kernel_syms *ks)
{
	kernel_syms__read(ks);
	return ks->nr;
}

const struct ksym *kernel_syms__at(struct kernel_syms *ks, size_t idx)
{
	kernel_syms__read(ks);
	return idx < ks->nr ? kentry__sym(ks, &ks->syms[idx]) : NULL;
}

const char *ksym__dso_name(const struct ksym *sym)
{
	return sym ? sym->dso : UNKNOWN_LABEL;
}

int kernel__notes_build_id(const void *notes, size_t len, uint8_t *out, size_t outsz)
{
	struct cursor c = cursor_make(notes, len, false);  /* notes are in the kernel's byte order */

	while (c.left >= 12) {
		uint64_t namesz = cursor_u32(&c);
		uint64_t descsz = cursor_u32(&c);
		uint32_t type = cursor_u32(&c);
		const uint8_t *name = cursor_bytes(&c, (namesz + 3) & ~(uint64_t)3);
		const uint8_t *desc = cursor_bytes(&c, descsz);
		uint64_t pad = ((descsz + 3) & ~(uint64_t)3) - descsz;

		/* The last note's padding may be cut off; its bytes may not. */
		if (!name || !desc)
			return -EINVAL;
		if (namesz == 4 && !memcmp(name, "GNU", 4) &&
		    type == NT_GNU_BUILD_ID) {
			if (descsz > outsz)
				return -ENOSPC;
			memcpy(out, desc, descsz);
			return (int)descsz;
		}
		cursor_skip(&c, pad < c.left ? pad : c.left);
	}
	return -ENOENT;
}

/* Read a small pseudo-file whole; returns its length or a negative errno. */
static ssize_t read_small_file(const char *path, unsigned char *buf, size_t size)
{
	size_t len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (len < size) {
		ssize_t n = read(fd, buf + len, size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int ret = -errno;

			close(fd);
			return ret;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	return (ssize_t)len;
}

int kernel__running_build_id(uint8_t *out, size_t outsz)
{
	unsigned char *buf = xmalloc(NOTES_MAX);
	ssize_t len = read_small_file(NOTES_PATH, buf, NOTES_MAX);
	int ret = len < 0 ? (int)len : kernel__notes_build_id(buf, (size_t)len, out, outsz);

	free(buf);
	return ret;
}

bool kernel__build_id_equal(const uint8_t *a, size_t asz, const uint8_t *b, size_t bsz)
{
	size_t i, n = asz < bsz ? asz : bsz;

	if (memcmp(a, b, n))
		return false;
	for (i = n; i < asz; i++)
		if (a[i])
			return false;
	for (i = n; i < bsz; i++)
		if (b[i])
			return false;
	return true;
}

bool kernel__running_matches(const char *osrelease, const uint8_t *build_id,
			     size_t build_id_size, const char **why)
{
	uint8_t running[BUILD_ID_MAX];
	struct utsname u;
	const char *dummy;
	int n;

	if (!why)
		why = &dummy;
	if (!osrelease) {
		*why = "the recording does not say which kernel it ran on";
		return false;
	}
	if (uname(&u) < 0 || strcmp(u.release, osrelease)) {
		*why = "the recording was made on another kernel release";
		return false;
	}
	if (!build_id_size)
		return true;
	n = kernel__running_build_id(running, sizeof(running));
	if (n < 0) {
		*why = "cannot read the running kernel's build id";
		return false;
	}
	if (!kernel__build_id_equal(build_id, build_id_size, running, (size_t)n)) {
		*why = "the recording was made on another kernel build";
		return false;
	}
	return true;
}

/* $HOME/.debug/[kernel.kallsyms]/BUILDID/kallsyms, as perf record leaves it. */
static char *buildid_cache_path(const uint8_t *build_id, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	char id[2 * BUILD_ID_MAX + 1];
	const char *home = getenv("HOME");
	size_t i;

	/* Padded ids from old files name the cache by their SHA-1 part. */
	while (size > BUILD_ID_SHA1_SIZE && !build_id[size - 1])
		size--;
	if (!home || !*home || !size || size > BUILD_ID_MAX)
		return NULL;
	for (i = 0; i < size; i++) {
		id[2 * i] = hex[build_id[i] >> 4];
		id[2 * i + 1] = hex[build_id[i] & 15];
	}
	id[2 * size] = '\0';
	return xasprintf("%s/.debug/[kernel.kallsyms]/%s/kallsyms", home, id);
}

char *kernel__kallsyms_path(const char *user_path, const char *osrelease,
			    const uint8_t *build_id, size_t build_id_size)
{
	const char *why;
	char *path;

	if (user_path)
		return xstrdup(user_path);
	path = build_id_size ? buildid_cache_path(build_id, build_id_size) : NULL;
	if (path && !access(path, R_OK)) {
		note("using kernel symbols from '%s'", path);
		return path;
	}
	free(path);
	if (kernel__running_matches(osrelease, build_id, build_id_size, &why))
		return xstrdup(KERNEL_PROC_KALLSYMS);
	warning("not using '%s': %s; kernel frames stay unresolved "
		"(pass --kallsyms FILE)", KERNEL_PROC_KALLSYMS, why);
	return NULL;
}
