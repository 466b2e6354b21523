/*
 * libFuzzer entry point for the unwinder (src/unwind/unwind.c): hostile registers,
 * stack bytes and CFI. Input (little-endian):
 *
 *   u8 mode       bit 0: 0 = the CFI of this program's own .eh_frame,
 *                        1 = CFI instructions from the input
 *   u8 max        frames to ask for (0: 64)
 *   u64 mask      perf's x86 register mask, then one u64 per bit set
 *   mode 1 only:  u8 length and a CIE's initial instructions, u8 length and
 *                 an FDE's instructions (for [0x400000, 0x401000))
 *   the rest      the stack dump, starting at the SP register's value
 *
 * Mode 0 gives every pc below 2^63 real CFI: the pc is folded into this
 * program's .text (a bias per pc); other pcs have none (the frame pointer
 * is tried). Mode 1 puts a CIE (data alignment -8, return address column
 * 16) and one FDE with the input's instructions into an .eh_frame of an ELF
 * image made in memory, and offers it for pcs below 2^32.
 *
 * libdw grows a frame's register table to the highest register number an
 * instruction names, up to 2^31 bytes: instruction streams naming a
 * register above 127 are skipped (screen_cfa()), since that is libdw's
 * limit to know about, not the unwinder's to find again and again.
 *
 * Checks: the walk returns at most max addresses, ips[0] is the sampled ip,
 * the end reason is one of the enum, and a second walk, from the rule
 * cache, gives exactly the same result.
 */
#include "common/common.h"
#include "resolve/elf-image.h"
#include "unwind/unwind.h"

#include <elf.h>
#include <linux/perf_event.h>

#define MAX_FRAMES 64
#define EH_FRAME_ADDR 0x1000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                      \
	do {                             \
		if (!(cond))             \
			__builtin_trap(); \
	} while (0)

struct input {
	const uint8_t *p;
	size_t left;
};

static bool take(struct input *in, void *out, size_t n)
{
	if (in->left < n)
		return false;
	memcpy(out, in->p, n);
	in->p += n;
	in->left -= n;
	return true;
}

static uint64_t take_u64(struct input *in)
{
	uint8_t b[8] = { 0 };
	uint64_t v = 0;
	int i;

	take(in, b, sizeof(b));
	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* ---- mode 0: this program's own CFI ---- */

static struct elf_image *self_img;
static struct elf_section_info self_text;
static Dwarf_CFI *self_cfi;

static int find_self(void *ctx, uint64_t pc, enum unwind_cfi_which which,
		     struct unwind_cfi *out)
{
	(void)ctx;
	memset(out, 0, sizeof(*out));
	out->name = "self";
	if (pc >> 63 || !self_cfi || !self_text.size)
		return -ENOENT;
	out->object = self_img;
	out->cfi = which == UNWIND_CFI_PRIMARY ? self_cfi : NULL;
	out->bias = pc - (self_text.addr + pc % self_text.size);
	return 0;
}

static void open_self(void)
{
	static bool tried;

	if (tried)
		return;
	tried = true;
	elf_version(EV_CURRENT);
	self_img = elf_image__open("/proc/self/exe");
	if (!self_img || elf_image__section_info(self_img, ".text", &self_text))
		return;
	self_cfi = elf_image__eh_frame_cfi(self_img);
}

/* ---- mode 1: CFI from the input ---- */

#define REG_SCREEN_MAX 127

/* A ULEB128 at *p (before end); false when it runs off the end. */
static bool uleb(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*p < end) {
		uint8_t b = *(*p)++;

		if (shift < 64)
			*v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return true;
	}
	return false;
}

/*
 * Whether the DW_CFA_* instructions in [p, end) name only registers up to
 * REG_SCREEN_MAX. Each opcode's operands: r a register (ULEB128), u/s a
 * (S)LEB128, b a ULEB128-sized block, 1/2/4/8 fixed bytes.
 */
static bool screen_cfa(const uint8_t *p, const uint8_t *end)
{
	static const char *const operands[0x30] = {
		[0x00] = "", [0x01] = "8", [0x02] = "1", [0x03] = "2", [0x04] = "4",
		[0x05] = "ru", [0x06] = "r", [0x07] = "r", [0x08] = "r", [0x09] = "rr",
		[0x0a] = "", [0x0b] = "", [0x0c] = "ru", [0x0d] = "r", [0x0e] = "u",
		[0x0f] = "b", [0x10] = "rb", [0x11] = "rs", [0x12] = "rs", [0x13] = "s",
		[0x14] = "ru", [0x15] = "rs", [0x16] = "rb", [0x2e] = "u", [0x2f] = "ru",
	};
	uint64_t v;

	while (p < end) {
		uint8_t op = *p++;
		const char *o;

		if (op & 0xc0) {
			if ((op & 0xc0) == 0x80 && !uleb(&p, end, &v))
				return false;
			continue;
		}
		if (op >= 0x30 || !(o = operands[op]))
			return false;
		for (; *o; o++) {
			if (*o >= '1' && *o <= '8') {
				if ((size_t)(end - p) < (size_t)(*o - '0'))
					return false;
				p += *o - '0';
			} else if (!uleb(&p, end, &v) || (*o == 'r' && v > REG_SCREEN_MAX) ||
				   (*o == 'b' && v > (uint64_t)(end - p))) {
				return false;
			} else if (*o == 'b') {
				p += v;
			}
		}
	}
	return true;
}

/* Append n bytes; then DW_CFA_nop up to a multiple of 8 from start. */
static size_t put(uint8_t *buf, size_t at, const void *src, size_t n)
{
	memcpy(buf + at, src, n);
	return at + n;
}

static size_t put_u32(uint8_t *buf, size_t at, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	return put(buf, at, b, 4);
}

/*
 * An .eh_frame in buf (room for 64 + cie_n + fde_n bytes): a CIE with the
 * initial instructions cie, an FDE for [0x400000, 0x401000) with fde, and
 * the terminator; returns its size.
 */
static size_t make_eh_frame(uint8_t *buf, const uint8_t *cie, size_t cie_n,
			    const uint8_t *fde, size_t fde_n)
{
	static const uint8_t cie_head[] = { 1, 0, 1, 0x78, 16 };   /* v1, "", 1, -8, RA 16 */
	static const uint8_t range[16] = { 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0x10 };
	size_t cie_len = (4 + sizeof(cie_head) + cie_n + 7) / 8 * 8 + 4;
	size_t fde_len = (4 + sizeof(range) + fde_n + 3) / 8 * 8 + 4, at;

	memset(buf, 0, 4 + cie_len + 4 + fde_len + 4);
	at = put_u32(buf, 0, (uint32_t)cie_len);
	at = put_u32(buf, at, 0);
	at = put(buf, at, cie_head, sizeof(cie_head));
	put(buf, at, cie, cie_n);
	at = 4 + cie_len;
	at = put_u32(buf, at, (uint32_t)fde_len);
	at = put_u32(buf, at, (uint32_t)at);        /* back to the CIE at 0 */
	at = put(buf, at, range, sizeof(range));
	put(buf, at, fde, fde_n);
	return 4 + cie_len + 4 + fde_len + 4;
}

struct fuzz_elf {
	uint8_t *image;
	Elf *elf;
	Dwarf_CFI *cfi;
};

/* An ELF file in memory with one section, .eh_frame, holding eh (n bytes). */
static void fuzz_elf__init(struct fuzz_elf *fe, const uint8_t *eh, size_t n)
{
	static const char names[] = "\0.eh_frame\0.shstrtab";
	size_t shoff = (sizeof(Elf64_Ehdr) + n + sizeof(names) + 7) & ~(size_t)7;
	Elf64_Ehdr eh_hdr;
	Elf64_Shdr sh[3];

	memset(fe, 0, sizeof(*fe));
	memset(&eh_hdr, 0, sizeof(eh_hdr));
	memset(sh, 0, sizeof(sh));
	memcpy(eh_hdr.e_ident, ELFMAG, SELFMAG);
	eh_hdr.e_ident[EI_CLASS] = ELFCLASS64;
	eh_hdr.e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
	eh_hdr.e_ident[EI_VERSION] = EV_CURRENT;
	eh_hdr.e_type = ET_DYN;
	eh_hdr.e_machine = EM_X86_64;
	eh_hdr.e_version = EV_CURRENT;
	eh_hdr.e_shoff = shoff;
	eh_hdr.e_ehsize = sizeof(Elf64_Ehdr);
	eh_hdr.e_shentsize = sizeof(Elf64_Shdr);
	eh_hdr.e_shnum = 3;
	eh_hdr.e_shstrndx = 2;
	sh[1].sh_name = 1;
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_flags = SHF_ALLOC;
	sh[1].sh_addr = EH_FRAME_ADDR;
	sh[1].sh_offset = sizeof(Elf64_Ehdr);
	sh[1].sh_size = n;
	sh[1].sh_addralign = 8;
	sh[2].sh_name = 11;
	sh[2].sh_type = SHT_STRTAB;
	sh[2].sh_offset = sizeof(Elf64_Ehdr) + n;
	sh[2].sh_size = sizeof(names);
	sh[2].sh_addralign = 1;
	fe->image = xcalloc(1, shoff + sizeof(sh));
	memcpy(fe->image, &eh_hdr, sizeof(eh_hdr));
	memcpy(fe->image + sizeof(eh_hdr), eh, n);
	memcpy(fe->image + sizeof(eh_hdr) + n, names, sizeof(names));
	memcpy(fe->image + shoff, sh, sizeof(sh));
	fe->elf = elf_memory((char *)fe->image, shoff + sizeof(sh));
	fe->cfi = fe->elf ? dwarf_getcfi_elf(fe->elf) : NULL;
}

static void fuzz_elf__release(struct fuzz_elf *fe)
{
	if (fe->cfi)
		dwarf_cfi_end(fe->cfi);
	if (fe->elf)
		elf_end(fe->elf);
	free(fe->image);
}

static int find_input(void *ctx, uint64_t pc, enum unwind_cfi_which which,
		      struct unwind_cfi *out)
{
	struct fuzz_elf *fe = ctx;

	memset(out, 0, sizeof(*out));
	out->name = "input";
	if (pc >> 32)
		return -ENOENT;
	out->object = fe;
	out->cfi = which == UNWIND_CFI_PRIMARY ? fe->cfi : NULL;
	return 0;
}

/* ---- the walk ---- */

static void walk_twice(const struct unwind_regs *regs, const struct input *stack,
		       const struct unwind_space *space, size_t max)
{
	struct unwind_opts opts = { .cache_bits = 4 };
	struct unwinder *u = unwinder__new(&opts);
	uint64_t ips[MAX_FRAMES], again[MAX_FRAMES];
	struct unwind_result res, res2;
	size_t n, n2;

	n = unwinder__unwind(u, regs, stack->p, stack->left, space, ips, max, &res);
	CHECK(n <= max && res.end < UNWIND_END__NR);
	CHECK(res.nr_cfi + res.nr_fp + 1 >= n);
	if (n)
		CHECK(res.end != UNWIND_END_NO_REGS && res.end != UNWIND_END_UNSUPPORTED);
	CHECK(unwind_end__name(res.end) != NULL);
	n2 = unwinder__unwind(u, regs, stack->p, stack->left, space, again, max, &res2);
	CHECK(n2 == n && !memcmp(ips, again, n * sizeof(*ips)));
	CHECK(res2.end == res.end && res2.nr_cfi == res.nr_cfi && res2.nr_fp == res.nr_fp);
	unwinder__delete(u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	uint8_t mode = 0, max = 0;
	uint64_t vals[64];
	struct unwind_regs regs = { PERF_SAMPLE_REGS_ABI_64, 0, vals };
	struct unwind_space space = { NULL, find_self, NULL };
	struct fuzz_elf fe;
	unsigned i, n = 0;
	uint8_t cie_n = 0, fde_n = 0, eh[64 + 2 * 255 + 32];
	const uint8_t *cie;

	take(&in, &mode, 1);
	take(&in, &max, 1);
	regs.mask = take_u64(&in);
	for (i = 0; i < 64; i++)
		if (regs.mask & (1ULL << i))
			vals[n++] = take_u64(&in);
	if (mode & 1) {
		take(&in, &cie_n, 1);
		cie = in.p;
		if (!take(&in, eh, cie_n) || !take(&in, &fde_n, 1) || !take(&in, eh, fde_n) ||
		    !screen_cfa(cie, cie + cie_n) || !screen_cfa(in.p - fde_n, in.p))
			return 0;
		fuzz_elf__init(&fe, eh, make_eh_frame(eh, cie, cie_n, in.p - fde_n, fde_n));
		space.ctx = &fe;
		space.find = find_input;
	} else {
		open_self();
	}
	walk_twice(&regs, &in, &space, max ? (max > MAX_FRAMES ? MAX_FRAMES : max) : MAX_FRAMES);
	if (mode & 1)
		fuzz_elf__release(&fe);
	return 0;
}
