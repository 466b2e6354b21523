#include "common/common.h"
#include "common/vfs.h"
#include "resolve/vmlinux.h"
#include "resolve/dso.h"
#include "resolve/kernel.h"
#include "timeline/machine.h"

#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

/* What the kernel MMAP's name starts with; the reference symbol's name follows. */
#define KERNEL_MMAP_PREFIX "[kernel.kallsyms]"

enum vmlinux_state {
	VMLINUX_PENDING,        /* not decided: no kernel frame yet */
	VMLINUX_USED,
	VMLINUX_REFUSED,
};

struct vmlinux {
	const char *path, *host_path;
	enum vmlinux_state state;
	struct dso *dso;
	uint64_t slide;
	bool in_map;            /* ktext bounds the image's addresses */
	uint64_t map_start, map_end;
	char *status;
};

struct vmlinux *vmlinux__new(const char *path, const char *host_path)
{
	struct vmlinux *v = xcalloc(1, sizeof(*v));

	v->path = path;
	v->host_path = host_path;
	v->status = xasprintf("vmlinux '%s' not read: no kernel frames", path);
	return v;
}

void vmlinux__delete(struct vmlinux *v)
{
	if (!v)
		return;
	free(v->status);
	free(v);
}

const char *vmlinux__path(const struct vmlinux *v)
{
	return v->path;
}

bool vmlinux__decided(const struct vmlinux *v)
{
	return v->state != VMLINUX_PENDING;
}

bool vmlinux__used(const struct vmlinux *v)
{
	return v->state == VMLINUX_USED;
}

struct dso *vmlinux__dso(const struct vmlinux *v)
{
	return v->dso;
}

uint64_t vmlinux__unslide(const struct vmlinux *v, uint64_t ip)
{
	return ip - v->slide;
}

bool vmlinux__covers(const struct vmlinux *v, uint64_t ip)
{
	if (v->state != VMLINUX_USED)
		return false;
	if (v->in_map)
		return ip >= v->map_start && ip < v->map_end;
	return dso__find_symbol(v->dso, ip - v->slide) != NULL;
}

const char *vmlinux__status(const struct vmlinux *v)
{
	return v->status;
}

static void set_status(struct vmlinux *v, char *s)
{
	free(v->status);
	v->status = s;
}

/* The build id in hex, into buf (2 * size + 1 bytes at most 2 * DSO_BUILD_ID_MAX + 1). */
static const char *hex_id(char *buf, const uint8_t *id, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	if (size > DSO_BUILD_ID_MAX)
		size = DSO_BUILD_ID_MAX;
	for (i = 0; i < size; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * size] = '\0';
	return buf;
}

/* The value of the symbol named name in path's .symtab: true and *addr, or false. */
static bool symbol_value(const char *path, const char *name, uint64_t *addr)
{
	char vbuf[VFS_PATH_BUF];
	int fd = path ? open(vfs_path(path, VFS_ELF, vbuf), O_RDONLY | O_CLOEXEC) : -1;
	Elf_Scn *scn = NULL;
	bool found = false;
	GElf_Shdr shdr;
	Elf *elf;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	while (elf && !found && (scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		size_t i, nr;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_SYMTAB || !shdr.sh_entsize ||
		    !(data = elf_getdata(scn, NULL)))
			continue;
		nr = shdr.sh_size / shdr.sh_entsize;
		for (i = 1; i < nr && !found; i++) {
			GElf_Sym sym;
			const char *n;

			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
			    !(n = elf_strptr(elf, shdr.sh_link, sym.st_name)) || strcmp(n, name))
				continue;
			*addr = sym.st_value;
			found = true;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return found;
}

/* Whether the image's build id is the recording's kernel's; warns when not. */
static bool same_build(struct vmlinux *v, const uint8_t *rec_id, size_t rec_size)
{
	char a[2 * DSO_BUILD_ID_MAX + 1], b[2 * DSO_BUILD_ID_MAX + 1];
	const uint8_t *id;
	size_t size;

	id = dso__build_id(v->dso, &size);
	if (!rec_id || !rec_size || !id || !size ||
	    kernel__build_id_equal(id, size, rec_id, rec_size))
		return true;
	hex_id(a, id, size);
	hex_id(b, rec_id, rec_size);
	warning("not using vmlinux '%s': its build id %s is not the recorded kernel's, %s",
		v->path, a, b);
	set_status(v, xasprintf("vmlinux '%s' refused: its build id %s is not the recorded "
				"kernel's, %s; kernel frames named as without it", v->path, a, b));
	return false;
}

/* The slide, from ktext's reference symbol; the status says what was found. */
static void find_slide(struct vmlinux *v, const struct map *ktext)
{
	const char *ref = NULL;
	uint64_t link;

	if (ktext && !strncmp(ktext->filename, KERNEL_MMAP_PREFIX, strlen(KERNEL_MMAP_PREFIX))) {
		ref = ktext->filename + strlen(KERNEL_MMAP_PREFIX);
		v->in_map = true;
		v->map_start = ktext->start;
		v->map_end = ktext->start + ktext->len;
	}
	if (!ref) {
		set_status(v, xasprintf("vmlinux '%s' used as linked: the recording has no kernel "
					"MMAP saying where it ran", v->path));
		return;
	}
	if (!*ref || !ktext->pgoff) {
		set_status(v, xasprintf("vmlinux '%s' used as linked: the recording's kernel MMAP "
					"does not say where it ran (no address: kptr_restrict when "
					"recording?)", v->path));
		return;
	}
	if (!symbol_value(dso__symfile(v->dso), ref, &link) &&
	    !symbol_value(dso__file(v->dso), ref, &link)) {
		set_status(v, xasprintf("vmlinux '%s' used as linked: it has no symbol %s "
					"to relocate by", v->path, ref));
		return;
	}
	v->slide = ktext->pgoff - link;
	set_status(v, xasprintf("vmlinux '%s' used: %s at 0x%" PRIx64 ", linked at 0x%" PRIx64
				" (KASLR slide 0x%" PRIx64 ")", v->path, ref, ktext->pgoff,
				link, v->slide));
}

bool vmlinux__decide(struct vmlinux *v, struct dso *d, const uint8_t *rec_id,
		     size_t rec_id_size, const struct map *ktext)
{
	char vbuf[VFS_PATH_BUF];
	if (v->state != VMLINUX_PENDING)
		return v->state == VMLINUX_USED;
	v->state = VMLINUX_REFUSED;
	v->dso = d;
	if (access(vfs_path(v->host_path, VFS_ELF, vbuf), R_OK)) {
		const char *why = strerror(errno);

		warning("cannot read vmlinux '%s': %s", v->path, why);
		set_status(v, xasprintf("vmlinux '%s' refused: cannot read it (%s); kernel frames "
					"named as without it", v->path, why));
		return false;
	}
	if (!dso__nr_symbols(d) || !dso__file(d)) {
		/* the DSO has said why (missing, not ELF, no symbols) */
		set_status(v, xasprintf("vmlinux '%s' refused: no symbols read from it; kernel "
					"frames named as without it", v->path));
		return false;
	}
	if (!same_build(v, rec_id, rec_id_size))
		return false;
	v->state = VMLINUX_USED;
	find_slide(v, ktext);
	return true;
}
