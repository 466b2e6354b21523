/*
 * vdso-info: what the tests need to know about the running kernel's vdso,
 * read from this process's mapping of it (getauxval(AT_SYSINFO_EHDR)) by
 * its own ELF walk, independent of jitsym's:
 *
 *   buildid HEX        the GNU build id note (PT_NOTE)
 *   size N             bytes to the end of the furthest PT_LOAD or header table
 *   symbol NAME ADDR SIZE   the clock_gettime entry (__vdso_clock_gettime or
 *                      __kernel_clock_gettime), from .dynsym, ADDR in hex
 *
 * Exit 77 (skip) when the process has no vdso or no such symbol.
 */
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

static const char *const names[] = { "__vdso_clock_gettime", "__kernel_clock_gettime" };

int main(void)
{
	const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	const ElfW(Phdr) *ph;
	const ElfW(Shdr) *sh;
	uint64_t size = 0, end;
	size_t i, k, n;
	int found = 0;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG)) {
		fprintf(stderr, "vdso-info: this process has no vdso\n");
		return 77;
	}
	ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
	sh = (const ElfW(Shdr) *)(base + eh->e_shoff);
	end = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
	size = end;
	for (i = 0; i < eh->e_phnum; i++) {
		end = (uint64_t)ph[i].p_offset + ph[i].p_filesz;
		if (ph[i].p_type == PT_LOAD && end > size)
			size = end;
		if (ph[i].p_type != PT_NOTE)
			continue;
		for (n = 0; n + sizeof(ElfW(Nhdr)) <= ph[i].p_filesz;) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(base + ph[i].p_offset + n);
			const unsigned char *name = (const unsigned char *)(nh + 1);
			const unsigned char *desc = name + ((nh->n_namesz + 3) & ~3u);

			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(name, "GNU", 4)) {
				printf("buildid ");
				for (k = 0; k < nh->n_descsz; k++)
					printf("%02x", desc[k]);
				printf("\n");
			}
			n += sizeof(*nh) + ((nh->n_namesz + 3) & ~3u) + ((nh->n_descsz + 3) & ~3u);
		}
	}
	printf("size %llu\n", (unsigned long long)size);
	for (i = 0; i < eh->e_shnum && !found; i++) {
		const ElfW(Sym) *sym;
		const char *str;

		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		sym = (const ElfW(Sym) *)(base + sh[i].sh_offset);
		str = (const char *)(base + sh[sh[i].sh_link].sh_offset);
		for (k = 0; k < sizeof(names) / sizeof(names[0]) && !found; k++)
			for (n = 0; n < sh[i].sh_size / sizeof(*sym); n++)
				if (!strcmp(str + sym[n].st_name, names[k])) {
					printf("symbol %s %llx %llu\n", names[k],
					       (unsigned long long)sym[n].st_value,
					       (unsigned long long)sym[n].st_size);
					found = 1;
					break;
				}
	}
	if (!found) {
		fprintf(stderr, "vdso-info: no clock_gettime in the vdso\n");
		return 77;
	}
	return 0;
}
