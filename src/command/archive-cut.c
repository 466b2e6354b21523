/*
 * The copies of archive-cut.h. Each input is mapped read-only and read
 * with bounds checks: a record that does not fit ends the parse, and the
 * rest is copied as it is.
 */
#include "common/common.h"
#include "command/archive-cut.h"
#include "common/bsearch.h"
#include "common/outfile.h"
#include "common/radix.h"

#include <byteswap.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* jitdump (tools/perf/Documentation/jitdump-specification.txt) */
#define JD_MAGIC        0x4A695444u
#define JD_HEADER_MIN   40u
#define JD_REC_HEADER   16u
enum { JD_LOAD = 0, JD_MOVE = 1 };
#define JD_LOAD_SIZE    56u     /* through code_index; the name and the code follow */
#define JD_MOVE_SIZE    64u

/* An ELF section smaller than this is kept whole: zeroing it saves nothing. */
#define ELF_ZERO_MIN    4096u

/* A file mapped read-only; size 0 maps nothing. */
struct mapped {
	const uint8_t *p;
	size_t size;
};

static int map_file(int fd, const char *name, struct mapped *m)
{
	struct stat st;

	m->p = NULL;
	m->size = 0;
	if (fstat(fd, &st))
		return error("cannot stat '%s': %s", name, strerror(errno));
	if (!st.st_size)
		return 0;
	if ((uint64_t)st.st_size > SIZE_MAX)
		return error("'%s' is too large to map", name);
	m->p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m->p == MAP_FAILED) {
		m->p = NULL;
		return error("cannot map '%s': %s", name, strerror(errno));
	}
	m->size = (size_t)st.st_size;
	return 0;
}

static void unmap_file(struct mapped *m)
{
	if (m->p)
		munmap((void *)m->p, m->size);
}

/* What the copies are written to, for messages. */
#define COPY_NAME "a temporary copy"

/*
 * n zero bytes into out, a file: a hole (seeked over), so a 100 MB
 * binary's zeroed code takes no space in $TMPDIR. end_zeros() sets the
 * file's size when done, so zeros at its end are a hole too.
 */
static int write_zeros(int out, uint64_t n)
{
	if (n > (uint64_t)INT64_MAX || lseek(out, (off_t)n, SEEK_CUR) < 0)
		return error("cannot seek in a temporary file: %s", strerror(errno));
	return 0;
}

static int end_zeros(int out)
{
	off_t end = lseek(out, 0, SEEK_CUR);

	if (end < 0 || ftruncate(out, end))
		return error("cannot size a temporary file: %s", strerror(errno));
	return 0;
}

/* Whether one of addrs (nr, sorted) lies in [start, start + size). */
static bool looked_up(const uint64_t *addrs, size_t nr, uint64_t start, uint64_t size)
{
	/* the first address at or after start */
	size_t i = start ? bsearch_last_le_u64(addrs, nr, start - 1) : 0;

	return i < nr && addrs[i] - start < (size ? size : 1);
}

/* ---- jitdump ---- */

struct jd {
	struct mapped m;
	bool swap;
	size_t start;                  /* first record */
};

static uint32_t jd_u32(const struct jd *j, size_t off)
{
	uint32_t v;

	memcpy(&v, j->m.p + off, sizeof(v));
	return j->swap ? bswap_32(v) : v;
}

static uint64_t jd_u64(const struct jd *j, size_t off)
{
	uint64_t v;

	memcpy(&v, j->m.p + off, sizeof(v));
	return j->swap ? bswap_64(v) : v;
}

/* false: not a jitdump this can parse (copied whole then) */
static bool jd_open(struct jd *j)
{
	uint32_t magic, hsize;

	if (j->m.size < JD_HEADER_MIN)
		return false;
	memcpy(&magic, j->m.p, sizeof(magic));
	if (magic != JD_MAGIC && bswap_32(magic) != JD_MAGIC)
		return false;
	j->swap = magic != JD_MAGIC;
	hsize = jd_u32(j, 8);
	if (hsize < JD_HEADER_MIN || hsize > j->m.size)
		return false;
	j->start = hsize;
	return true;
}

/* The record at off: its id and size; false when none fits whole. */
static bool jd_record(const struct jd *j, size_t off, uint32_t *id, size_t *size)
{
	uint32_t n;

	if (j->m.size - off < JD_REC_HEADER)
		return false;
	*id = jd_u32(j, off);
	n = jd_u32(j, off + 4);
	if (n < JD_REC_HEADER || n > j->m.size - off)
		return false;
	if ((*id == JD_LOAD && n < JD_LOAD_SIZE) || (*id == JD_MOVE && n < JD_MOVE_SIZE))
		return false;
	*size = n;
	return true;
}

int archive_cut_jitdump(const uint64_t *addrs, size_t nr_addrs, int fd, const char *name,
			int out, size_t *kept, size_t *total)
{
	struct jd j = { 0 };
	struct radix_item *moved = NULL;
	size_t off, n, done = 0, nr_moved = 0, alloc = 0;
	uint32_t id;
	int ret = 0;

	*kept = *total = 0;
	if (map_file(fd, name, &j.m))
		return -1;
	if (!jd_open(&j)) {
		ret = j.m.size ? fd_write_all(out, COPY_NAME, j.m.p, j.m.size) : 0;
		goto out;
	}
	/* the loads a move moves (by code index): their code runs at another address */
	for (off = j.start; jd_record(&j, off, &id, &n); off += n) {
		if (id != JD_MOVE)
			continue;
		ALLOC_GROW(moved, nr_moved + 1, alloc);
		moved[nr_moved++] = (struct radix_item){ .key = jd_u64(&j, off + 56) };
	}
	radix_sort(moved, nr_moved);
	/* every record stays; of a load no lookup met, the code is zeros */
	for (off = j.start; !ret && jd_record(&j, off, &id, &n); off += n) {
		uint64_t size, code, index;
		const uint8_t *nul;
		size_t i;

		if (id != JD_LOAD)
			continue;
		(*total)++;
		size = jd_u64(&j, off + 40);
		index = jd_u64(&j, off + 48);
		i = bsearch_last_le(moved, nr_moved, sizeof(*moved), 0, index);
		if (looked_up(addrs, nr_addrs, jd_u64(&j, off + 32), size) ||
		    (i && moved[i - 1].key == index)) {
			(*kept)++;
			continue;
		}
		/* the code follows the name's NUL; a record that says otherwise stays whole */
		nul = memchr(j.m.p + off + JD_LOAD_SIZE, '\0', n - JD_LOAD_SIZE);
		if (!nul)
			continue;
		code = (uint64_t)(j.m.p + off + n - (nul + 1));
		if (code != size || !size)
			continue;
		ret = fd_write_all(out, COPY_NAME, j.m.p + done, (size_t)(nul + 1 - j.m.p) - done);
		if (!ret)
			ret = write_zeros(out, code);
		done = off + n;
	}
	/* the rest, a damaged tail too */
	if (!ret && done < j.m.size)
		ret = fd_write_all(out, COPY_NAME, j.m.p + done, j.m.size - done);
	if (!ret)
		ret = end_zeros(out);
out:
	if (ret)
		error("cannot write the copy of '%s'", name);
	free(moved);
	unmap_file(&j.m);
	return ret;
}

/* ---- ELF ---- */

/* Sections whose contents a lookup reads: never zeroed, whatever their size. */
static bool elf_keep_section(const char *name)
{
	static const char *const keep[] = {
		".eh_frame", ".eh_frame_hdr", ".gcc_except_table", ".plt", ".plt.got", ".plt.sec",
		".got", ".got.plt", ".interp", ".init", ".fini", ".opd",
	};
	size_t i;

	if (!name)
		return true;
	for (i = 0; i < ARRAY_SIZE(keep); i++)
		if (!strcmp(name, keep[i]))
			return true;
	return false;
}

/*
 * Whether a section's contents may be zeroed: large, allocated, code or
 * data or dynamic relocations (no lookup reads them; .rela.plt, which
 * names the PLT's entries, stays), and not on the keep list.
 */
static bool zeroable(Elf *elf, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *name = elf_strptr(elf, shstrndx, sh->sh_name);

	if (!(sh->sh_flags & SHF_ALLOC) || sh->sh_size < ELF_ZERO_MIN || !name)
		return false;
	if (sh->sh_type == SHT_RELA || sh->sh_type == SHT_REL)
		return strcmp(name, ".rela.plt") && strcmp(name, ".rel.plt");
	return sh->sh_type == SHT_PROGBITS && !elf_keep_section(name);
}

/* Ranges of a file, key the start and val the end: what is zeroed, what is kept. */
struct ranges {
	struct radix_item *v;
	size_t nr, alloc;
};

static void add_range(struct ranges *r, uint64_t start, uint64_t end)
{
	if (end <= start)
		return;
	ALLOC_GROW(r->v, r->nr + 1, r->alloc);
	r->v[r->nr++] = (struct radix_item){ start, end };
}

/* Sorted by start, overlapping ones merged. */
static void merge_ranges(struct ranges *r)
{
	size_t i, n = 0;

	radix_sort(r->v, r->nr);
	for (i = 0; i < r->nr; i++) {
		if (n && r->v[i].key <= r->v[n - 1].val) {
			if (r->v[i].val > r->v[n - 1].val)
				r->v[n - 1].val = r->v[i].val;
			continue;
		}
		r->v[n++] = r->v[i];
	}
	r->nr = n;
}

/*
 * The file out of m with zeros where zero says and keep does not (both
 * merged): one walk over both.
 */
static int write_zeroed(const struct mapped *m, const struct ranges *zero,
			const struct ranges *keep, int out)
{
	uint64_t pos = 0;
	size_t i, k = 0;
	int ret = 0;

	for (i = 0; !ret && i < zero->nr; i++) {
		uint64_t s = zero->v[i].key, e = zero->v[i].val < m->size ? zero->v[i].val : m->size;

		while (!ret && s < e) {
			uint64_t z;

			while (k < keep->nr && keep->v[k].val <= s)
				k++;
			/* zeros up to the next kept range in this one, then skip past it */
			z = k < keep->nr && keep->v[k].key < e ? keep->v[k].key : e;
			if (z > s) {
				ret = fd_write_all(out, COPY_NAME, m->p + pos, (size_t)(s - pos));
				if (!ret)
					ret = write_zeros(out, z - s);
				pos = z;
			}
			s = z < e && k < keep->nr ? keep->v[k].val : e;
		}
	}
	if (!ret && pos < m->size)
		ret = fd_write_all(out, COPY_NAME, m->p + pos, m->size - pos);
	return ret ? ret : end_zeros(out);
}

int archive_cut_elf(int fd, const char *name, int out, const struct radix_item *read, size_t nr)
{
	struct ranges zero = { 0 }, keep = { 0 };
	size_t shstrndx, i;
	struct mapped m;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	Elf *elf;
	int ret;

	if (map_file(fd, name, &m))
		return -1;
	elf_version(EV_CURRENT);
	elf = m.size ? elf_memory((char *)m.p, m.size) : NULL;
	if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) &&
	    !elf_getshdrstrndx(elf, &shstrndx)) {
		/* large allocated contents not on the keep list, but never what else holds */
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
				continue;
			add_range(zeroable(elf, shstrndx, &sh) ? &zero : &keep, sh.sh_offset,
				  sh.sh_offset + sh.sh_size);
		}
		add_range(&keep, 0, eh.e_ehsize);
		add_range(&keep, eh.e_phoff, eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize);
		add_range(&keep, eh.e_shoff, eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize);
		for (i = 0; i < nr; i++)
			add_range(&keep, read[i].key, read[i].val);
		merge_ranges(&zero);
		merge_ranges(&keep);
	}
	if (elf)
		elf_end(elf);
	ret = write_zeroed(&m, &zero, &keep, out);
	if (ret)
		error("cannot write the copy of '%s'", name);
	free(zero.v);
	free(keep.v);
	unmap_file(&m);
	return ret;
}
