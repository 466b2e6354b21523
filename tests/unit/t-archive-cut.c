/*
 * archive-cut (src/command/archive-cut.h): the copies jitsym archive puts
 * in a bundle keep every byte a lookup reads and every size, and zero
 * only the rest.
 *
 * A jitdump made here, in either byte order: loads A (an address looked
 * up inside it), B (none), C (none, but a move moves it), a move, a
 * debug-info record, then a tail that is no whole record. The copy has
 * the original's size; A's and C's code and every other byte as they
 * were; B's code zeros. A file that is no jitdump is copied whole.
 *
 * An ELF file: this test's own executable. The copy has its size, its
 * ELF header, section headers, .symtab, .strtab, .eh_frame and notes as
 * they were; .text zeros but for a range given as read, which stays.
 */
#include "common/common.h"
#include "command/archive-cut.h"
#include "common/radix.h"
#include "test.h"

#include <byteswap.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct buf {
	uint8_t *p;
	size_t len, alloc;
	bool swap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	ALLOC_GROW(b->p, b->len + n, b->alloc);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put32(struct buf *b, uint32_t v)
{
	v = b->swap ? bswap_32(v) : v;
	put(b, &v, sizeof(v));
}

static void put64(struct buf *b, uint64_t v)
{
	v = b->swap ? bswap_64(v) : v;
	put(b, &v, sizeof(v));
}

static void header(struct buf *b)
{
	put32(b, 0x4A695444);   /* magic */
	put32(b, 1);            /* version */
	put32(b, 40);           /* total size */
	put32(b, 62);           /* EM_X86_64 */
	put32(b, 0);
	put32(b, 4242);         /* pid */
	put64(b, 1000);
	put64(b, 0);
}

/* A load record; *code_at: where its code starts in b. */
static void load(struct buf *b, uint64_t addr, uint64_t index, uint8_t fill, size_t *code_at)
{
	static const char name[] = "JS:*f";
	const uint64_t size = 64;
	size_t i;

	put32(b, 0);
	put32(b, (uint32_t)(56 + sizeof(name) + size));
	put64(b, 2000 + index);
	put32(b, 4242);
	put32(b, 4242);
	put64(b, addr);
	put64(b, addr);
	put64(b, size);
	put64(b, index);
	put(b, name, sizeof(name));
	*code_at = b->len;
	for (i = 0; i < size; i++)
		put(b, &fill, 1);
}

static void move(struct buf *b, uint64_t from, uint64_t to, uint64_t index)
{
	put32(b, 1);
	put32(b, 64);
	put64(b, 5000);
	put32(b, 4242);
	put32(b, 4242);
	put64(b, to);
	put64(b, from);
	put64(b, to);
	put64(b, 64);
	put64(b, index);
}

static void debug_info(struct buf *b, uint64_t addr)
{
	put32(b, 2);
	put32(b, 16 + 16);
	put64(b, 4000);
	put64(b, addr);
	put64(b, 0);            /* no entries */
}

static int memfd_with(const void *p, size_t n)
{
	int fd = memfd_create("t-archive-cut", MFD_CLOEXEC);

	if (fd < 0 || (n && write(fd, p, n) != (ssize_t)n) || lseek(fd, 0, SEEK_SET))
		abort();
	return fd;
}

/* The whole of fd, from its start. */
static uint8_t *read_all(int fd, size_t *len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	uint8_t *p = xmalloc(end > 0 ? (size_t)end : 1);

	if (end < 0 || pread(fd, p, (size_t)end, 0) != (ssize_t)end)
		abort();
	*len = (size_t)end;
	return p;
}

static bool all(const uint8_t *p, size_t n, uint8_t v)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != v)
			return false;
	return true;
}

static void test_jitdump(bool swap)
{
	const uint64_t a = 0x10000, b = 0x20000, c = 0x30000, moved_to = 0x40000;
	/* looked up: inside A, and where C was moved to (not C's own range) */
	const uint64_t addrs[] = { a + 0x10, moved_to + 0x8 };
	struct buf in = { .swap = swap };
	size_t at_a, at_b, at_c, kept, total, len;
	uint8_t *out;
	int fd, o;
	char name[64];

	header(&in);
	load(&in, a, 1, 0xaa, &at_a);
	debug_info(&in, b);
	load(&in, b, 2, 0xbb, &at_b);
	load(&in, c, 3, 0xcc, &at_c);
	move(&in, c, moved_to, 3);
	put(&in, "\x01\x02\x03", 3);     /* a tail that is no whole record */
	fd = memfd_with(in.p, in.len);
	o = memfd_with(NULL, 0);
	snprintf(name, sizeof(name), "jitdump (%s)", swap ? "swapped" : "native");
	T(name, !archive_cut_jitdump(addrs, ARRAY_SIZE(addrs), fd, "jit.dump", o, &kept, &total));
	out = read_all(o, &len);
	T("the copy is the original's size", len == in.len);
	T("loads counted: 3, 2 kept (looked up in, moved)", total == 3 && kept == 2);
	T("A's code (an address looked up in it) is kept", !memcmp(out + at_a, in.p + at_a, 64));
	T("C's code (a move moves it) is kept", !memcmp(out + at_c, in.p + at_c, 64));
	T("B's code (nothing looked up) is zeros", all(out + at_b, 64, 0));
	T("everything before B's code is as it was", !memcmp(out, in.p, at_b));
	T("everything after B's code is as it was, the tail too",
	  !memcmp(out + at_b + 64, in.p + at_b + 64, in.len - at_b - 64));
	free(out);
	close(o);
	close(fd);
	free(in.p);
}

static void test_not_jitdump(void)
{
	static const char text[] = "not a jitdump at all\n";
	size_t kept, total, len;
	uint8_t *out;
	int fd = memfd_with(text, sizeof(text) - 1), o = memfd_with(NULL, 0);

	T("a file that is no jitdump is copied",
	  !archive_cut_jitdump(NULL, 0, fd, "x", o, &kept, &total));
	out = read_all(o, &len);
	T("whole", len == sizeof(text) - 1 && !memcmp(out, text, len) && !total);
	free(out);
	close(o);
	close(fd);
}

/* Section name's header in elf, or false. */
static bool section(Elf *elf, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstrndx, sh->sh_name)) &&
		    !strcmp(n, name))
			return true;
	}
	return false;
}

static bool same_range(const uint8_t *a, const uint8_t *b, const GElf_Shdr *sh)
{
	return sh->sh_type == SHT_NOBITS || !memcmp(a + sh->sh_offset, b + sh->sh_offset, sh->sh_size);
}

static void test_elf(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), o = memfd_with(NULL, 0);
	GElf_Shdr text, symtab, strtab, eh, note;
	size_t len, inlen;
	uint8_t *in, *out;
	struct radix_item keep;
	Elf *elf;
	bool found;

	if (fd < 0)
		abort();
	in = read_all(fd, &inlen);
	elf_version(EV_CURRENT);
	elf = elf_memory((char *)in, inlen);
	found = elf && section(elf, ".text", &text) && section(elf, ".symtab", &symtab) &&
		section(elf, ".strtab", &strtab) && section(elf, ".eh_frame", &eh) &&
		section(elf, ".note.gnu.build-id", &note);
	T("this test's executable has .text, .symtab, .strtab, .eh_frame and a build id", found);
	if (!found || text.sh_size < 4096) {
		T(".text is large enough to be zeroed", false);
		goto out;
	}
	/* 16 bytes in the middle of .text, read as they are */
	keep.key = text.sh_offset + text.sh_size / 2;
	keep.val = keep.key + 16;
	lseek(fd, 0, SEEK_SET);
	T("ELF copy", !archive_cut_elf(fd, "self", o, &keep, 1));
	out = read_all(o, &len);
	T("the copy is the original's size", len == inlen);
	T("the ELF header is as it was", !memcmp(out, in, 64));
	T("the section headers are as they were",
	  !memcmp(out + ((Elf64_Ehdr *)in)->e_shoff, in + ((Elf64_Ehdr *)in)->e_shoff,
		  (size_t)((Elf64_Ehdr *)in)->e_shnum * ((Elf64_Ehdr *)in)->e_shentsize));
	T(".symtab, .strtab, .eh_frame and the build id are as they were",
	  same_range(out, in, &symtab) && same_range(out, in, &strtab) &&
	  same_range(out, in, &eh) && same_range(out, in, &note));
	T("the range read as it is stays", !memcmp(out + keep.key, in + keep.key, 16));
	T(".text before it is zeros", all(out + text.sh_offset, keep.key - text.sh_offset, 0));
	T(".text after it is zeros",
	  all(out + keep.val, text.sh_offset + text.sh_size - keep.val, 0));
	free(out);
out:
	if (elf)
		elf_end(elf);
	free(in);
	close(o);
	close(fd);
}

int main(void)
{
	test_jitdump(false);
	test_jitdump(true);
	test_not_jitdump();
	test_elf();
	return test_done();
}
