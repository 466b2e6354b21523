/*
 * The copies of archive-cut.h. Each input is mapped read-only and read
 * with bounds checks: a record that does not fit ends the parse, and the
 * rest is copied as it is.
 */
#include "common/common.h"
#include "command/archive-cut.h"

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

static int write_all(int out, const void *buf, size_t n)
{
	const uint8_t *p = buf;

	while (n) {
		ssize_t w = write(out, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return error("cannot write a bundle member: %s",
				     strerror(w < 0 ? errno : ENOSPC));
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

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

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u64_pair(const void *a, const void *b)
{
	return cmp_u64(a, b);
}

/* Whether one of addrs (nr, sorted) lies in [start, start + size). */
static bool looked_up(const uint64_t *addrs, size_t nr, uint64_t start, uint64_t size)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addrs[mid] < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nr && addrs[lo] - start < (size ? size : 1);
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
	uint64_t *moved = NULL;
	size_t off, n, done = 0, nr_moved = 0, alloc = 0;
	uint32_t id;
	int ret = 0;

	*kept = *total = 0;
	if (map_file(fd, name, &j.m))
		return -1;
	if (!jd_open(&j)) {
		ret = j.m.size ? write_all(out, j.m.p, j.m.size) : 0;
		goto out;
	}
	/* the loads a move moves: their code runs at another address */
	for (off = j.start; jd_record(&j, off, &id, &n); off += n) {
		if (id != JD_MOVE)
			continue;
		ALLOC_GROW(moved, nr_moved + 1, alloc);
		moved[nr_moved++] = jd_u64(&j, off + 56);
	}
	if (nr_moved)
		qsort(moved, nr_moved, sizeof(*moved), cmp_u64);
	/* every record stays; of a load no lookup met, the code is zeros */
	for (off = j.start; !ret && jd_record(&j, off, &id, &n); off += n) {
		uint64_t size, code, index;
		const uint8_t *nul;

		if (id != JD_LOAD)
			continue;
		(*total)++;
		size = jd_u64(&j, off + 40);
		index = jd_u64(&j, off + 48);
		if (looked_up(addrs, nr_addrs, jd_u64(&j, off + 32), size) ||
		    (nr_moved && bsearch(&index, moved, nr_moved, sizeof(*moved), cmp_u64))) {
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
		ret = write_all(out, j.m.p + done, (size_t)(nul + 1 - j.m.p) - done);
		if (!ret)
			ret = write_zeros(out, code);
		done = off + n;
	}
	/* the rest, a damaged tail too */
	if (!ret && done < j.m.size)
		ret = write_all(out, j.m.p + done, j.m.size - done);
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

/* Remove [s, e) from the sorted, disjoint pairs in z (n pairs); returns the new count. */
static size_t subtract(uint64_t **z, size_t n, size_t *alloc, uint64_t s, uint64_t e)
{
	size_t i, k = 0;
	uint64_t *out = xreallocarray(NULL, 2 * n + 2, sizeof(*out));

	for (i = 0; i < n; i++) {
		uint64_t a = (*z)[2 * i], b = (*z)[2 * i + 1];

		if (e <= a || s >= b) {
			out[k++] = a;
			out[k++] = b;
			continue;
		}
		if (a < s) {
			out[k++] = a;
			out[k++] = s;
		}
		if (e < b) {
			out[k++] = e;
			out[k++] = b;
		}
	}
	free(*z);
	*z = out;
	*alloc = 2 * n + 2;
	return k / 2;
}

int archive_cut_elf(int fd, const char *name, int out, const uint64_t *ranges, size_t nr)
{
	uint64_t *zero = NULL;
	size_t nr_zero = 0, alloc = 0, shstrndx, i;
	struct mapped m;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	uint64_t pos;
	Elf *elf;
	int ret = 0;

	if (map_file(fd, name, &m))
		return -1;
	elf_version(EV_CURRENT);
	elf = m.size ? elf_memory((char *)m.p, m.size) : NULL;
	if (elf && elf_kind(elf) == ELF_K_ELF && gelf_getehdr(elf, &eh) &&
	    !elf_getshdrstrndx(elf, &shstrndx)) {
		/* what may be zeroed: large allocated contents not on the keep list */
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;

			if (!gelf_getshdr(scn, &sh) || !zeroable(elf, shstrndx, &sh) ||
			    sh.sh_offset > m.size || sh.sh_size > m.size - sh.sh_offset)
				continue;
			ALLOC_GROW(zero, 2 * nr_zero + 2, alloc);
			zero[2 * nr_zero] = sh.sh_offset;
			zero[2 * nr_zero + 1] = sh.sh_offset + sh.sh_size;
			nr_zero++;
		}
		if (nr_zero)
			qsort(zero, nr_zero, 2 * sizeof(*zero), cmp_u64_pair);
		/* never what another section, the headers or a read range hold */
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
				continue;
			if (zeroable(elf, shstrndx, &sh))
				continue;
			nr_zero = subtract(&zero, nr_zero, &alloc, sh.sh_offset,
					   sh.sh_offset + sh.sh_size);
		}
		nr_zero = subtract(&zero, nr_zero, &alloc, 0, eh.e_ehsize);
		nr_zero = subtract(&zero, nr_zero, &alloc, eh.e_phoff,
				   eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize);
		nr_zero = subtract(&zero, nr_zero, &alloc, eh.e_shoff,
				   eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize);
		for (i = 0; i < nr; i++)
			nr_zero = subtract(&zero, nr_zero, &alloc, ranges[2 * i], ranges[2 * i + 1]);
	}
	if (elf)
		elf_end(elf);
	/* the file with the zeroed stretches written as zeros (they compress away) */
	for (pos = 0, i = 0; !ret && pos < m.size; ) {
		uint64_t next = i < nr_zero ? zero[2 * i] : m.size;

		if (pos < next) {
			ret = write_all(out, m.p + pos, (size_t)(next - pos));
			pos = next;
			continue;
		}
		ret = write_zeros(out, zero[2 * i + 1] - pos);
		pos = zero[2 * i + 1];
		i++;
	}
	if (!ret)
		ret = end_zeros(out);
	if (ret)
		error("cannot write the copy of '%s'", name);
	free(zero);
	unmap_file(&m);
	return ret;
}
