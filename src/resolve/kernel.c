#include "common/common.h"
#include "common/vfs.h"
#include "resolve/kernel.h"
#include "common/bsearch.h"
#include "common/cursor.h"
#include "common/radix.h"
#include "common/strpool.h"
#include "common/utf8.h"

#define uthash_malloc(sz) xmalloc(sz)
#define uthash_free(ptr, sz) free(ptr)
#include <uthash.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Longest kallsyms line we accept: KSYM_NAME_LEN is 512, module names 56. */
#define KALLSYMS_LINE_MAX 1024
/* A kallsyms line's usual length: what its entries array is first sized by. */
#define KALLSYMS_LINE_USUAL 40
#define KERNEL_PAGE_SIZE 4096
#define NOTES_PATH "/sys/kernel/notes"
#define NOTES_MAX (64u << 10)
#define NT_GNU_BUILD_ID 3
/* Build ids perf uses are SHA-1 sized; old perf.data files pad them to 24. */
#define BUILD_ID_SHA1_SIZE 20
#define BUILD_ID_MAX 64

/* kallsyms read whole: the first buffer, and the most we read (about 10 MB is usual). */
#define KALLSYMS_TEXT_FIRST ((size_t)16 << 20)
#define KALLSYMS_TEXT_MAX ((size_t)256 << 20)

/*
 * A kallsyms symbol as read: 24 bytes, its name left in the file's text
 * (kallsyms is 120,000 lines and more, read at every run with kernel
 * frames: copying each name and growing 72-byte entries was a third of
 * a short recording's page faults). A struct ksym is made for the few
 * thousand a recording's frames ask for.
 */
struct kentry {
	uint64_t start;
	uint32_t name_off;      /* in kernel_syms.text */
	uint16_t name_len;
	char type;
	uint32_t mod;           /* in kernel_syms.mods; 0: the core kernel */
};

/* A module as kallsyms names it: "[ext4]" (what perf prints) and "ext4". */
struct kmod {
	const char *dso, *module;       /* interned, so pointers compare */
	bool bpf;                       /* "[bpf]": a program's DSO is its name */
};

/* A symbol handed out, made on first use. */
struct kmade {
	size_t idx;
	struct ksym sym;
	UT_hash_handle hh;
};

struct kernel_syms {
	struct kentry *syms;    /* sorted by start, one per address */
	size_t nr;
	struct kmod *mods;
	size_t nr_mods, alloc_mods;
	struct kmade *made;     /* by index */
	struct strpool *pool;
	char *text;             /* the file's bytes: mapped (text_mapped) or read */
	size_t text_len;
	bool text_mapped;
	char *path;             /* a file still to read (kernel_syms__new()), else NULL */
	int err;                /* why reading gave no symbols: errno, else 0 */
};

/* One line of the text: not NUL-terminated, may contain NULs. */
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

/* What parse_line() found: the name is left in the line. */
struct kparsed {
	uint64_t addr;
	char type;
	const char *name, *mod;         /* mod: "[ext4]", NULL for core kernel */
	size_t name_len, mod_len;
};

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

/*
 * Parse "ADDR TYPE NAME [\t[MODULE]]". Returns false for a malformed line,
 * with *why set.
 */
static bool parse_line(const struct kline *l, bool has_nul, struct kparsed *k, const char **why)
{
	const char *p = l->p, *end = l->p + l->len;
	const char *name_end, *mod_end;

	if (l->too_long) {
		*why = "line too long";
		return false;
	}
	if (has_nul && memchr(l->p, '\0', l->len)) {
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

/* Where a name or module ends in a line parse_usual_line() takes. */
static const bool word_end[256] = {
	[' '] = true, ['\t'] = true, ['\r'] = true, ['\n'] = true, ['\0'] = true,
};

/*
 * The line at *p as parse_line() would take it, when it is a line as the
 * kernel writes them, "%016lx %c %s" and "\t[%s]" for a module's, ending
 * in a newline or the text: *p moved past it. Else false, *p unmoved, for
 * parse_line() to say what it makes of the line. One pass over the bytes,
 * where finding each line's end first (memchr) was a third of the parse.
 */
static bool parse_usual_line(const char **p, const char *end, struct kparsed *k)
{
	const unsigned char *s = (const unsigned char *)*p, *e = (const unsigned char *)end;
	const unsigned char *name, *q;
	uint64_t v = 0;
	unsigned i, d, ok = 1;

	if (e - s < 21 || s[16] != ' ' || s[18] != ' ' || word_end[s[17]])
		return false;
	for (i = 0; i < 16; i++) {
		d = hex_digit[s[i]];
		ok &= d != 0;
		v = v << 4 | ((d - 1) & 0xf);
	}
	if (!ok)
		return false;
	name = s + 19;
	for (q = name; q < e && !word_end[*q]; q++)
		;
	if (q == name)
		return false;
	k->addr = v;
	k->type = (char)s[17];
	k->name = (const char *)name;
	k->name_len = (size_t)(q - name);
	k->mod = NULL;
	k->mod_len = 0;
	if (q < e && *q == '\t') {
		const unsigned char *mod = ++q;

		for (; q < e && !word_end[*q]; q++)
			;
		if (q - mod < 3 || mod[0] != '[' || q[-1] != ']')
			return false;
		k->mod = (const char *)mod;
		k->mod_len = (size_t)(q - mod);
	}
	if (q < e && *q != '\n')
		return false;
	if ((const char *)q - *p > KALLSYMS_LINE_MAX)
		return false;
	*p = (const char *)q + (q < e);
	return true;
}

/*
 * The index in ks->mods of the module k names; consecutive lines of one
 * module share the last lookup (*last).
 */
static uint32_t kmod_index(struct kernel_syms *ks, const struct kparsed *k, uint32_t *last)
{
	const char *dso;
	uint32_t i;

	if (!k->mod)
		return 0;
	if (*last && strlen(ks->mods[*last].dso) == k->mod_len &&
	    !memcmp(ks->mods[*last].dso, k->mod, k->mod_len))
		return *last;
	dso = strpool__intern_len(ks->pool, k->mod, k->mod_len);
	for (i = 1; i < ks->nr_mods; i++)
		if (ks->mods[i].dso == dso)
			return *last = i;
	if (ks->nr_mods > UINT32_MAX - 1)
		return 0;
	ALLOC_GROW(ks->mods, ks->nr_mods + 1, ks->alloc_mods);
	ks->mods[i].dso = dso;
	ks->mods[i].module = strpool__intern_len(ks->pool, k->mod + 1, k->mod_len - 2);
	/* perf names a BPF program's DSO after the program itself. */
	ks->mods[i].bpf = !strcmp(ks->mods[i].module, "bpf");
	ks->nr_mods++;
	return *last = i;
}

/* Parse ks->text into ks->syms, in line order. */
static void parse_kallsyms(struct kernel_syms *ks, const char *path, struct load_stats *st)
{
	const char *p = ks->text, *end = ks->text + ks->text_len;
	bool has_nul = memchr(p, '\0', ks->text_len) != NULL;
	uint32_t last = 0;

	/*
	 * Room for the lines a kallsyms of this size usually has (40 bytes or
	 * more each), grown like any array when it has more: not counted in a
	 * pass of their own, nor sized for the shortest lines a file holds.
	 */
	size_t alloc = ks->text_len / KALLSYMS_LINE_USUAL + 16;

	ks->syms = xreallocarray(NULL, alloc, sizeof(*ks->syms));
	while (p < end) {
		struct kparsed k;
		struct kentry *e;

		st->lines++;
		if (!parse_usual_line(&p, end, &k)) {
			const char *nl = memchr(p, '\n', (size_t)(end - p)), *why;
			struct kline l = { .p = p, .len = nl ? (size_t)(nl - p) : (size_t)(end - p) };

			p += l.len + (nl != NULL);
			l.too_long = l.len > KALLSYMS_LINE_MAX;
			if (!l.too_long && skip_blanks(l.p, l.p + l.len) == l.p + l.len)
				continue;
			if (!parse_line(&l, has_nul, &k, &why)) {
				warning("'%s':%zu: malformed kallsyms line (%s)", path, st->lines, why);
				continue;
			}
		}
		st->parsed++;
		if (!k.addr) {
			st->zero_addr++;
			continue;
		}
		if (!keep_type(k.type) || k.name[0] == '$')
			continue;
		ALLOC_GROW(ks->syms, ks->nr + 1, alloc);
		e = &ks->syms[ks->nr++];
		e->start = k.addr;
		e->name_off = (uint32_t)(k.name - ks->text);
		e->name_len = (uint16_t)k.name_len;
		e->type = k.type;
		e->mod = kmod_index(ks, &k, &last);
	}
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

/* Sort (kallsyms mostly is), keeping line order at equal addresses. */
static void sort_syms(struct kernel_syms *ks)
{
	struct radix_item *v;
	struct kentry *sorted;
	size_t i;

	for (i = 1; i < ks->nr && ks->syms[i - 1].start <= ks->syms[i].start; i++)
		;
	if (i >= ks->nr)
		return;
	v = xreallocarray(NULL, ks->nr, sizeof(*v));
	for (i = 0; i < ks->nr; i++) {
		v[i].key = ks->syms[i].start;
		v[i].val = i;
	}
	radix_sort(v, ks->nr);
	sorted = xreallocarray(NULL, ks->nr, sizeof(*sorted));
	for (i = 0; i < ks->nr; i++)
		sorted[i] = ks->syms[v[i].val];
	free(ks->syms);
	ks->syms = sorted;
	free(v);
}

/* Sort, and keep the last-listed alias at each address. */
static void index_syms(struct kernel_syms *ks)
{
	size_t i, n = 0;

	sort_syms(ks);
	for (i = 0; i < ks->nr; i++) {
		if (i + 1 < ks->nr && ks->syms[i + 1].start == ks->syms[i].start)
			continue;
		ks->syms[n++] = ks->syms[i];
	}
	ks->nr = n;
}

/*
 * Where syms[i] ends: at the next symbol, or one page past its own page
 * boundary when it is the last, or the next is another module's and
 * further away (perf's ends for symbols it cannot bound).
 */
static uint64_t kentry__end(const struct kernel_syms *ks, size_t i)
{
	const struct kentry *e = &ks->syms[i];
	uint64_t pend = page_end(e->start);

	if (i + 1 == ks->nr)
		return pend;
	if (e[1].mod != e->mod && pend < e[1].start)
		return pend;
	return e[1].start;
}

/*
 * The whole file in ks->text: mapped when it is a regular file, else
 * (/proc/kallsyms says its size is 0) read. 0, or an errno. perf writes
 * its build-id cache's copy elsewhere and renames it into place, so the
 * mapped file is not cut short while it is read; one truncated in place
 * meanwhile would end the run with SIGBUS, as an ELF file libelf maps
 * would.
 */
static int read_text(struct kernel_syms *ks, int fd)
{
	size_t alloc = KALLSYMS_TEXT_FIRST;
	struct stat sb;

	if (fstat(fd, &sb))
		return errno;
	if (S_ISREG(sb.st_mode) && sb.st_size > 0) {
		void *m;

		if ((uint64_t)sb.st_size > KALLSYMS_TEXT_MAX)
			return EFBIG;
		m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m != MAP_FAILED) {
			ks->text = m;
			ks->text_len = (size_t)sb.st_size;
			ks->text_mapped = true;
			return 0;
		}
	}
	/* a large first buffer: glibc maps it, and realloc() moves pages, not bytes */
	ks->text = xmalloc(alloc);
	for (;;) {
		ssize_t n;

		if (ks->text_len == alloc) {
			if (alloc >= KALLSYMS_TEXT_MAX)
				return EFBIG;
			alloc *= 2;
			ks->text = xrealloc(ks->text, alloc);
		}
		n = read(fd, ks->text + ks->text_len, alloc - ks->text_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno;
		if (!n)
			return 0;
		ks->text_len += (size_t)n;
	}
}

static void kernel_syms__drop_text(struct kernel_syms *ks)
{
	if (ks->text_mapped)
		munmap(ks->text, ks->text_len);
	else
		free(ks->text);
	ks->text = NULL;
	ks->text_len = 0;
	ks->text_mapped = false;
}

/* Read ks->path into ks; on failure ks has no symbols and ks->err says why. */
static void kernel_syms__read(struct kernel_syms *ks)
{
	char vbuf[VFS_PATH_BUF];
	struct load_stats st = { 0 };
	char *path = ks->path;
	int fd, err;

	if (!path)
		return;
	ks->path = NULL;
	fd = open(vfs_path(path, VFS_FILE, vbuf), O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ks->err = errno;
		error("cannot open '%s': %s", path, strerror(ks->err));
		free(path);
		return;
	}
	err = read_text(ks, fd);
	close(fd);
	if (err) {
		if (err == EFBIG)
			error("cannot read '%s': larger than %u MiB", path,
			      (unsigned)(KALLSYMS_TEXT_MAX >> 20));
		else
			error("cannot read '%s': %s", path, strerror(err));
		ks->err = EIO;
	} else {
		parse_kallsyms(ks, path, &st);
		if (!ks->nr) {
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
	}
	if (ks->err) {
		ks->nr = 0;
		free(ks->syms);
		ks->syms = NULL;
		kernel_syms__drop_text(ks);
	}
	free(path);
}

struct kernel_syms *kernel_syms__new(const char *path, struct strpool *pool)
{
	struct kernel_syms *ks = xcalloc(1, sizeof(*ks));

	ks->pool = pool;
	ks->path = xstrdup(path);
	/* index 0: the core kernel */
	ALLOC_GROW(ks->mods, 1, ks->alloc_mods);
	ks->mods[0].dso = KSYM_DSO_KERNEL;
	ks->mods[0].module = NULL;
	ks->mods[0].bpf = false;
	ks->nr_mods = 1;
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
	struct kmade *m, *tmp;

	if (!ks)
		return;
	HASH_ITER(hh, ks->made, m, tmp) {
		HASH_DEL(ks->made, m);
		free(m);
	}
	free(ks->syms);
	free(ks->mods);
	kernel_syms__drop_text(ks);
	free(ks->path);
	free(ks);
}

bool kernel_syms__usable(struct kernel_syms *ks)
{
	kernel_syms__read(ks);
	return ks->nr > 0;
}

/* The symbol of syms[idx], made (its name interned) on first use. */
static const struct ksym *kentry__sym(struct kernel_syms *ks, size_t idx)
{
	const struct kentry *e = &ks->syms[idx];
	const struct kmod *mod = &ks->mods[e->mod];
	struct kmade *m;

	HASH_FIND(hh, ks->made, &idx, sizeof(idx), m);
	if (m)
		return &m->sym;
	m = xcalloc(1, sizeof(*m));
	m->idx = idx;
	m->sym.start = e->start;
	m->sym.end = kentry__end(ks, idx);
	m->sym.name = strpool__intern_len(ks->pool, ks->text + e->name_off, e->name_len);
	m->sym.module = mod->module;
	m->sym.dso = mod->bpf ? m->sym.name : mod->dso;
	m->sym.type = e->type;
	HASH_ADD(hh, ks->made, idx, sizeof(m->idx), m);
	return &m->sym;
}

const struct ksym *kernel_syms__find(struct kernel_syms *ks, uint64_t addr)
{
	size_t lo;

	kernel_syms__read(ks);
	/* The last symbol starting at or before addr may hold it. */
	lo = bsearch_last_le(ks->syms, ks->nr, sizeof(*ks->syms), offsetof(struct kentry, start),
			     addr);
	if (!lo || addr >= kentry__end(ks, lo - 1))
		return NULL;
	return kentry__sym(ks, lo - 1);
}

size_t kernel_syms__nr(struct kernel_syms *ks)
{
	kernel_syms__read(ks);
	return ks->nr;
}

const struct ksym *kernel_syms__at(struct kernel_syms *ks, size_t idx)
{
	kernel_syms__read(ks);
	return idx < ks->nr ? kentry__sym(ks, idx) : NULL;
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
	char vbuf[VFS_PATH_BUF];
	int fd = open(vfs_path(path, VFS_FILE, vbuf), O_RDONLY | O_CLOEXEC);

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
	if (vfs_uname(&u) < 0 || strcmp(u.release, osrelease)) {
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
	const char *home = vfs_home();
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
	char vbuf[VFS_PATH_BUF];
	const char *why;
	char *path;

	if (user_path)
		return xstrdup(user_path);
	path = build_id_size ? buildid_cache_path(build_id, build_id_size) : NULL;
	if (path && !access(vfs_path(path, VFS_FILE, vbuf), R_OK)) {
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
