/*
 * An opened ELF file: see elf-image.h. The section and note readers guard
 * against truncated and corrupt files, which libelf reports as NULL or
 * errors rather than crashing, except where noted.
 */
#include "common/common.h"
#include "common/vfs.h"
#include "resolve/elf-image.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Lazily created CFI: not tried yet, or the handle, or kept failure. */
struct cfi_slot {
	bool tried;
	Dwarf_CFI *cfi;
};

struct elf_image {
	int fd;                         /* -1: an image in mem */
	uint8_t *mem;                   /* elf_image__open_memory()'s copy */
	size_t mem_size;
	Elf *elf;
	GElf_Ehdr ehdr;
	bool shstr_ok;                  /* section names readable */
	char *path;
	uint8_t build_id[ELF_IMAGE_BUILD_ID_MAX];
	size_t build_id_size;
	struct cfi_slot eh_frame;       /* freed with dwarf_cfi_end() */
	struct cfi_slot debug_frame;    /* owned by dwarf */
	Dwarf *dwarf;
};

void elf_image__delete(struct elf_image *img)
{
	if (!img)
		return;
	if (img->eh_frame.cfi)
		dwarf_cfi_end(img->eh_frame.cfi);
	if (img->dwarf)
		dwarf_end(img->dwarf);
	if (img->elf)
		elf_end(img->elf);
	if (img->fd >= 0)
		close(img->fd);
	free(img->mem);
	free(img->path);
	free(img);
}

const char *elf_image__section_name(struct elf_image *img, const GElf_Shdr *shdr)
{
	size_t shstrndx;
	const char *s;

	if (!img->shstr_ok || elf_getshdrstrndx(img->elf, &shstrndx))
		return "";
	s = elf_strptr(img->elf, shstrndx, shdr->sh_name);
	return s ? s : "";
}

Elf_Scn *elf_image__find_section(struct elf_image *img, const char *name,
				 Elf64_Word type, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(img->elf, scn))) {
		if (!gelf_getshdr(scn, shdr) || shdr->sh_type != type)
			continue;
		if (!name || !strcmp(elf_image__section_name(img, shdr), name))
			return scn;
	}
	return NULL;
}

int elf_image__section_info(struct elf_image *img, const char *name,
			    struct elf_section_info *info)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(img->elf, scn))) {
		if (!gelf_getshdr(scn, &shdr) ||
		    strcmp(elf_image__section_name(img, &shdr), name))
			continue;
		info->addr = shdr.sh_addr;
		info->offset = shdr.sh_offset;
		info->size = shdr.sh_size;
		return 0;
	}
	return -ENOENT;
}

/* Look for the GNU build-id note in one block of notes: its size, 0 when none. */
static size_t notes__build_id(Elf_Data *data, uint8_t *out)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4) &&
		    nh.n_descsz > 0 && nh.n_descsz <= ELF_IMAGE_BUILD_ID_MAX) {
			memcpy(out, (char *)data->d_buf + desc_off, nh.n_descsz);
			return nh.n_descsz;
		}
		off = next;
	}
	return 0;
}

/* Sections first (debug files keep them), then PT_NOTE (no section headers). */
size_t elf_build_id(Elf *elf, uint8_t out[ELF_IMAGE_BUILD_ID_MAX])
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;
	GElf_Phdr phdr;
	size_t i, n, len;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_NOTE &&
		    (len = notes__build_id(elf_getdata(scn, NULL), out)))
			return len;
	if (elf_getphdrnum(elf, &n))
		return 0;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &phdr) || phdr.p_type != PT_NOTE)
			continue;
		if ((len = notes__build_id(elf_getdata_rawchunk(elf, (int64_t)phdr.p_offset,
				phdr.p_filesz, phdr.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR), out)))
			return len;
	}
	return 0;
}

/* Fail with err: free img, set errno, return NULL. */
static struct elf_image *elf_image__fail(struct elf_image *img, int err)
{
	elf_image__delete(img);
	errno = err;
	return NULL;
}

/* Check the ELF header and read what every image keeps: elf is set. */
static struct elf_image *elf_image__init(struct elf_image *img)
{
	size_t shstrndx;

	if (!img->elf || elf_kind(img->elf) != ELF_K_ELF ||
	    !gelf_getehdr(img->elf, &img->ehdr) ||
	    (img->ehdr.e_type != ET_EXEC && img->ehdr.e_type != ET_DYN &&
	     img->ehdr.e_type != ET_REL))
		return elf_image__fail(img, ENOEXEC);
	/* Old libelf crashed in elf_strptr() on a truncated string table. */
	img->shstr_ok = !elf_getshdrstrndx(img->elf, &shstrndx) &&
		elf_rawdata(elf_getscn(img->elf, shstrndx), NULL) != NULL;
	img->build_id_size = elf_build_id(img->elf, img->build_id);
	return img;
}

struct elf_image *elf_image__open_memory(const char *name, const void *buf, size_t size)
{
	struct elf_image *img = xcalloc(1, sizeof(*img));

	img->fd = -1;
	img->path = xstrdup(name);
	img->mem = xmalloc(size ? size : 1);
	memcpy(img->mem, buf, size);
	img->mem_size = size;
	img->elf = elf_memory((char *)img->mem, size);
	return elf_image__init(img);
}

struct elf_image *elf_image__open(const char *path)
{
	char vbuf[VFS_PATH_BUF];
	struct elf_image *img = xcalloc(1, sizeof(*img));
	struct stat st;

	img->fd = open(vfs_path(path, VFS_ELF, vbuf), O_RDONLY | O_CLOEXEC);
	if (img->fd < 0)
		return elf_image__fail(img, errno);
	if (fstat(img->fd, &st))
		return elf_image__fail(img, errno);
	if (!S_ISREG(st.st_mode))
		return elf_image__fail(img, ENOENT);
	img->path = xstrdup(path);
	img->elf = elf_begin(img->fd, ELF_C_READ_MMAP, NULL);
	return elf_image__init(img);
}

bool elf_image__in_memory(const struct elf_image *img)
{
	return img->mem != NULL;
}

const char *elf_image__path(const struct elf_image *img)
{
	return img->path;
}

const void *elf_image__map_range(struct elf_image *img, uint64_t off, size_t n,
				 void **base, size_t *len)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), start = off & ~(page - 1);
	struct stat sb;
	void *m;

	if (img->fd < 0 || !n || fstat(img->fd, &sb) || sb.st_size < 0 ||
	    off > (uint64_t)sb.st_size || n > (uint64_t)sb.st_size - off)
		return NULL;
	m = mmap(NULL, (size_t)(off - start) + n, PROT_READ, MAP_PRIVATE, img->fd, (off_t)start);
	if (m == MAP_FAILED)
		return NULL;
	*base = m;
	*len = (size_t)(off - start) + n;
	return (const uint8_t *)m + (off - start);
}

ssize_t elf_image__pread(struct elf_image *img, void *buf, size_t n, uint64_t off)
{
	ssize_t got;

	if (off > (uint64_t)INT64_MAX) {
		errno = EINVAL;
		return -1;
	}
	if (img->mem) {
		if (off >= img->mem_size)
			return 0;
		got = (ssize_t)(n < img->mem_size - off ? n : img->mem_size - off);
		memcpy(buf, img->mem + off, (size_t)got);
		return got;
	}
	/* jitsym archive keeps these bytes of the file as they are */
	vfs_record_range(img->path, off, n);
	do
		got = pread(img->fd, buf, n, (off_t)off);
	while (got < 0 && errno == EINTR);
	return got;
}

Elf *elf_image__elf(struct elf_image *img)
{
	return img->elf;
}

const GElf_Ehdr *elf_image__ehdr(const struct elf_image *img)
{
	return &img->ehdr;
}

const uint8_t *elf_image__build_id(const struct elf_image *img, size_t *size)
{
	*size = img->build_id_size;
	return img->build_id_size ? img->build_id : NULL;
}

bool elf_image__has_symtab(struct elf_image *img)
{
	GElf_Shdr shdr;

	return elf_image__find_section(img, NULL, SHT_SYMTAB, &shdr) != NULL;
}

const char *elf_image__debuglink(struct elf_image *img)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = elf_image__find_section(img, ".gnu_debuglink", SHT_PROGBITS, &shdr);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;

	if (!data || !data->d_buf || !data->d_size ||
	    !memchr(data->d_buf, '\0', data->d_size) || !((char *)data->d_buf)[0])
		return NULL;
	return data->d_buf;
}

size_t elf_image__segments(struct elf_image *img, struct elf_segment **segs)
{
	size_t i, n, nr = 0, alloc = 0;
	GElf_Phdr ph;

	*segs = NULL;
	if (elf_getphdrnum(img->elf, &n))
		return 0;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(img->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !ph.p_filesz)
			continue;
		ALLOC_GROW(*segs, nr + 1, alloc);
		(*segs)[nr].offset = ph.p_offset;
		(*segs)[nr].filesz = ph.p_filesz;
		(*segs)[nr].vaddr = ph.p_vaddr;
		nr++;
	}
	return nr;
}

uint64_t elf_segments__map(const struct elf_segment *segs, size_t nr, uint64_t off)
{
	const struct elf_segment *best = NULL;
	size_t i;

	for (i = 0; i < nr; i++) {
		const struct elf_segment *s = &segs[i];

		if (off - s->offset < s->filesz && off >= s->offset)
			return off - s->offset + s->vaddr;
		if (off >= s->offset && (!best || s->offset > best->offset))
			best = s;
	}
	return best ? off - best->offset + best->vaddr : off;
}

Dwarf_CFI *elf_image__eh_frame_cfi(struct elf_image *img)
{
	if (!img->eh_frame.tried) {
		img->eh_frame.tried = true;
		img->eh_frame.cfi = dwarf_getcfi_elf(img->elf);
	}
	if (!img->eh_frame.cfi)
		errno = ENOENT;
	return img->eh_frame.cfi;
}

/*
 * Whether img may have a .debug_frame for libdw (".debug_frame", and
 * its ".zdebug", ".dwo" and ".gnu.debuglto_" spellings). Without one,
 * dwarf_getcfi() has no CFI to give, so the file is not opened through
 * dwarf_begin_elf(), which inflates every compressed debug section (libc
 * has no .debug_frame, and 10 MB of DWARF compressed in its debug file).
 */
static bool may_have_debug_frame(struct elf_image *img)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(img->elf, scn)))
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type != SHT_NOBITS &&
		    strstr(elf_image__section_name(img, &shdr), "debug_frame"))
			return true;
	return false;
}

Dwarf_CFI *elf_image__debug_frame_cfi(struct elf_image *img)
{
	if (!img->debug_frame.tried) {
		img->debug_frame.tried = true;
		/* libdw accepts a file whose only DWARF is .debug_frame */
		if (may_have_debug_frame(img))
			img->dwarf = dwarf_begin_elf(img->elf, DWARF_C_READ, NULL);
		if (img->dwarf)
			img->debug_frame.cfi = dwarf_getcfi(img->dwarf);
	}
	if (!img->debug_frame.cfi)
		errno = ENOENT;
	return img->debug_frame.cfi;
}
