#include "common/common.h"
#include "common/cursor.h"
#include "timeline/jit-cfi.h"
#include "timeline/jitmap.h"

#include <dwarf.h>
#include <elf.h>
#include <gelf.h>

#include <uthash.h>

/* CIEs and FDEs an .eh_frame may hold (runtimes write one of each per function). */
#define CIE_MAX 64
#define FDE_MAX 256
/* Longest augmentation string accepted ("zPLRS" and such). */
#define AUG_MAX 8

/* ---- checking ---------------------------------------------------------- */

/*
 * Bool-returning reads over common/cursor.h, as the checks below chain
 * them; .eh_frame numbers are little-endian (an x86-64 runtime's).
 */
static bool rd_bytes(struct cursor *r, uint64_t n, const uint8_t **out)
{
	const uint8_t *b = cursor_bytes(r, n);

	if (b && out)
		*out = b;
	return b != NULL;
}

static bool rd_u8(struct cursor *r, uint8_t *v)
{
	*v = cursor_u8(r);
	return !r->bad;
}

static bool rd_u32(struct cursor *r, uint32_t *v)
{
	*v = cursor_u32(r);
	return !r->bad;
}

/* A (S/U)LEB128, its value as unsigned bits (the sign is not needed here). */
static bool rd_leb(struct cursor *r, uint64_t *v)
{
	*v = cursor_uleb(r);
	return !r->bad;
}

/*
 * The bytes of a pointer in encoding enc: 0 for one libdw is not given.
 * Only absolute and pc-relative fixed-size pointers: what runtimes write.
 */
static size_t enc_size(uint8_t enc, bool allow_indirect)
{
	if (enc & DW_EH_PE_indirect) {
		if (!allow_indirect)
			return 0;
		enc &= (uint8_t)~DW_EH_PE_indirect;
	}
	if ((enc & 0x70) != DW_EH_PE_absptr && (enc & 0x70) != DW_EH_PE_pcrel)
		return 0;
	switch (enc & 0x0f) {
	case DW_EH_PE_absptr: case DW_EH_PE_udata8: case DW_EH_PE_sdata8: return 8;
	case DW_EH_PE_udata4: case DW_EH_PE_sdata4: return 4;
	case DW_EH_PE_udata2: case DW_EH_PE_sdata2: return 2;
	}
	return 0;
}

/*
 * The operands of each DW_CFA_* opcode below 0x40: r a register (ULEB128),
 * u an (S/U)LEB128, b a ULEB128-sized block, a an address in the CIE's
 * encoding, 1/2/4/8 that many bytes. NULL: not accepted.
 */
static const char *const cfa_operands[0x30] = {
	[DW_CFA_nop] = "", [DW_CFA_set_loc] = "a", [DW_CFA_advance_loc1] = "1",
	[DW_CFA_advance_loc2] = "2", [DW_CFA_advance_loc4] = "4",
	[DW_CFA_offset_extended] = "ru", [DW_CFA_restore_extended] = "r",
	[DW_CFA_undefined] = "r", [DW_CFA_same_value] = "r", [DW_CFA_register] = "rr",
	[DW_CFA_remember_state] = "", [DW_CFA_restore_state] = "", [DW_CFA_def_cfa] = "ru",
	[DW_CFA_def_cfa_register] = "r", [DW_CFA_def_cfa_offset] = "u",
	[DW_CFA_def_cfa_expression] = "b", [DW_CFA_expression] = "rb",
	[DW_CFA_offset_extended_sf] = "ru", [DW_CFA_def_cfa_sf] = "ru",
	[DW_CFA_def_cfa_offset_sf] = "u", [DW_CFA_val_offset] = "ru",
	[DW_CFA_val_offset_sf] = "ru", [DW_CFA_val_expression] = "rb",
	[DW_CFA_GNU_args_size] = "u", [DW_CFA_GNU_negative_offset_extended] = "ru",
};

static int check_operand(struct cursor *r, char o, size_t addr_size)
{
	uint64_t v;

	switch (o) {
	case 'a':
		return rd_bytes(r, addr_size, NULL) ? 0 : -JIT_CFI_E_TRUNCATED;
	case '1': case '2': case '4': case '8':
		return rd_bytes(r, (size_t)(o - '0'), NULL) ? 0 : -JIT_CFI_E_TRUNCATED;
	}
	if (!rd_leb(r, &v))
		return -JIT_CFI_E_TRUNCATED;
	if (o == 'r' && v > JIT_CFI_REG_MAX)
		return -JIT_CFI_E_BAD_REGISTER;
	if (o == 'b' && !rd_bytes(r, v > SIZE_MAX ? SIZE_MAX : (size_t)v, NULL))
		return -JIT_CFI_E_TRUNCATED;
	return 0;
}

/* The call frame instructions in [p, end): 0 or -JIT_CFI_E_*. */
static int check_instructions(const uint8_t *p, const uint8_t *end, size_t addr_size)
{
	struct cursor r = cursor_make_order(p, (size_t)(end - p), false);
	uint8_t op;
	uint64_t v;
	int err;

	while (rd_u8(&r, &op)) {
		const char *o;

		if ((op & 0xc0) == DW_CFA_offset) {
			if (!rd_leb(&r, &v))
				return -JIT_CFI_E_TRUNCATED;
			continue;
		}
		if (op & 0xc0)
			continue;       /* advance_loc, restore: the register fits in 6 bits */
		if (op >= ARRAY_SIZE(cfa_operands) || !(o = cfa_operands[op]))
			return -JIT_CFI_E_BAD_INSTRUCTION;
		for (; *o; o++)
			if ((err = check_operand(&r, *o, addr_size)) < 0)
				return err;
	}
	return 0;
}

/* What a CIE says that its FDEs need. */
struct cie {
	size_t offset;          /* of its length field in the .eh_frame */
	size_t addr_size;       /* of pc_begin and DW_CFA_set_loc: the R encoding's */
	bool aug_data;          /* 'z': FDEs have augmentation data */
};

/* The augmentation data of a CIE with augmentation aug: sets c->addr_size. */
static int check_cie_aug(struct cursor *r, const char *aug, struct cie *c)
{
	const uint8_t *data;
	struct cursor d;
	uint64_t len;
	uint8_t enc;

	c->addr_size = 8;
	if (!*aug)
		return 0;
	if (aug[0] != 'z')
		return -JIT_CFI_E_BAD_ENTRY;
	c->aug_data = true;
	if (!rd_leb(r, &len) || len > r->left || !rd_bytes(r, (size_t)len, &data))
		return -JIT_CFI_E_TRUNCATED;
	d = cursor_make_order(data, (size_t)len, false);
	for (aug++; *aug; aug++) {
		if (*aug == 'S')
			continue;
		if (!strchr("RLP", *aug))
			return -JIT_CFI_E_BAD_ENTRY;
		if (!rd_u8(&d, &enc))
			return -JIT_CFI_E_TRUNCATED;
		if (*aug == 'R' && !(c->addr_size = enc_size(enc, false)))
			return -JIT_CFI_E_BAD_ENCODING;
		if (*aug == 'P' && (!enc_size(enc, true) || !rd_bytes(&d, enc_size(enc, true), NULL)))
			return enc_size(enc, true) ? -JIT_CFI_E_TRUNCATED : -JIT_CFI_E_BAD_ENCODING;
	}
	return 0;
}

/* The CIE whose body (after the id) is r, at offset: its fields into c. */
static int check_cie(struct cursor *r, size_t offset, struct cie *c)
{
	char aug[AUG_MAX + 1];
	uint8_t version, b;
	uint64_t v;
	size_t n = 0;
	int err;

	memset(c, 0, sizeof(*c));
	c->offset = offset;
	if (!rd_u8(r, &version))
		return -JIT_CFI_E_TRUNCATED;
	if (version != 1 && version != 3 && version != 4)
		return -JIT_CFI_E_BAD_ENTRY;
	do {
		if (!rd_u8(r, &b))
			return -JIT_CFI_E_TRUNCATED;
		if (n == AUG_MAX && b)
			return -JIT_CFI_E_BAD_ENTRY;
		aug[n++] = (char)b;
	} while (b);
	if (version == 4 && (!rd_u8(r, &b) || b != 8 || !rd_u8(r, &b) || b != 0))
		return -JIT_CFI_E_BAD_ENTRY;          /* address size 8, segment size 0 */
	if (!rd_leb(r, &v) || !rd_leb(r, &v))       /* code and data alignment */
		return -JIT_CFI_E_TRUNCATED;
	if (version == 1 ? !rd_u8(r, &b) : !rd_leb(r, &v))
		return -JIT_CFI_E_TRUNCATED;
	if ((version == 1 ? b : v) > JIT_CFI_REG_MAX)
		return -JIT_CFI_E_BAD_REGISTER;       /* the return address column */
	if ((err = check_cie_aug(r, aug, c)) < 0)
		return err;
	return check_instructions(r->p, r->p + r->left, c->addr_size);
}

static int check_fde(struct cursor *r, const struct cie *c)
{
	uint64_t len;

	if (!rd_bytes(r, c->addr_size, NULL) || !rd_bytes(r, c->addr_size, NULL))
		return -JIT_CFI_E_TRUNCATED;          /* pc_begin, pc_range */
	if (c->aug_data && (!rd_leb(r, &len) || len > r->left ||
			    !rd_bytes(r, (size_t)len, NULL)))
		return -JIT_CFI_E_TRUNCATED;
	return check_instructions(r->p, r->p + r->left, c->addr_size);
}

/*
 * Every entry of the .eh_frame (up to a zero terminator, which must end
 * it): 0 or -JIT_CFI_E_*. fdes[] (FDE_MAX) gets each FDE's offset.
 */
static int check_eh_frame(const uint8_t *eh, size_t size, size_t *fdes, size_t *nr_fdes)
{
	struct cie cies[CIE_MAX];
	size_t nr_cies = 0, at = 0, i;
	struct cursor r = cursor_make_order(eh, size, false);
	int err;

	*nr_fdes = 0;
	while (r.left) {
		struct cursor body;
		const uint8_t *b;
		uint32_t len, id;

		at = cursor_offset(&r);
		if (!rd_u32(&r, &len))
			return -JIT_CFI_E_TRUNCATED;
		if (len == 0)   /* the terminator: libdw is given every byte, so nothing may follow */
			return !r.left ? 0 : -JIT_CFI_E_BAD_ENTRY;
		if (len == 0xffffffffu || len < 4)
			return -JIT_CFI_E_BAD_ENTRY;    /* 64-bit DWARF: no runtime writes it */
		if (!rd_bytes(&r, len, &b))
			return -JIT_CFI_E_TRUNCATED;
		body = cursor_make_order(b, len, false);
		rd_u32(&body, &id);
		if (id == 0) {
			if (nr_cies == CIE_MAX)
				return -JIT_CFI_E_BAD_ENTRY;
			err = check_cie(&body, at, &cies[nr_cies]);
			nr_cies++;
		} else {
			/* the CIE pointer counts back from the id field, at + 4 */
			if ((size_t)id > at + 4)
				return -JIT_CFI_E_BAD_ENTRY;
			for (i = 0; i < nr_cies && cies[i].offset != at + 4 - (size_t)id; i++)
				;
			if (i == nr_cies)
				return -JIT_CFI_E_BAD_ENTRY;
			if (*nr_fdes == FDE_MAX)
				return -JIT_CFI_E_BAD_ENTRY;
			err = check_fde(&body, &cies[i]);
			fdes[(*nr_fdes)++] = at;
		}
		if (err < 0)
			return err;
	}
	return 0;
}

static int32_t le_s32(const uint8_t *b)
{
	return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			 (uint32_t)b[3] << 24);
}

/*
 * The .eh_frame_hdr as runtimes write it (version 1, a pc-relative sdata4
 * pointer to the .eh_frame right before it, a udata4 count and a sorted
 * table of datarel sdata4 pairs): each pair's FDE must be one of fdes[].
 */
static int check_hdr(const struct jit_unwind *u, const size_t *fdes, size_t nr_fdes)
{
	const uint8_t *h = u->hdr;
	int64_t eh_start = -(int64_t)u->eh_frame_size;  /* relative to the header */
	uint32_t count;
	size_t i, j;

	if (u->hdr_size < 12 || h[0] != 1 || h[1] != (DW_EH_PE_pcrel | DW_EH_PE_sdata4) ||
	    h[2] != DW_EH_PE_udata4 || h[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4))
		return -JIT_CFI_E_BAD_HDR;
	if (4 + (int64_t)le_s32(h + 4) != eh_start)
		return -JIT_CFI_E_BAD_HDR;
	count = (uint32_t)le_s32(h + 8);
	if (count > (u->hdr_size - 12) / 8)
		return -JIT_CFI_E_BAD_HDR;
	for (i = 0; i < count; i++) {
		const uint8_t *e = h + 12 + 8 * i;
		int64_t fde = (int64_t)le_s32(e + 4) - eh_start;

		if (i && le_s32(e) < le_s32(e - 8))
			return -JIT_CFI_E_BAD_HDR;
		for (j = 0; j < nr_fdes && (int64_t)fdes[j] != fde; j++)
			;
		if (j == nr_fdes)
			return -JIT_CFI_E_BAD_HDR;
	}
	return 0;
}

int jit_cfi__check(const struct jit_unwind *u)
{
	size_t fdes[FDE_MAX], nr_fdes;
	int err;

	if (!u->eh_frame_size)
		return 0;
	if (u->eh_frame_size > INT32_MAX || u->hdr_size > INT32_MAX)
		return -JIT_CFI_E_BAD_ENTRY;
	err = check_eh_frame(u->eh_frame, u->eh_frame_size, fdes, &nr_fdes);
	if (err < 0)
		return err;
	if (u->hdr_size && (err = check_hdr(u, fdes, nr_fdes)) < 0)
		return err;
	return nr_fdes > 0;
}

const char *jit_cfi__strerror(int err)
{
	static const char *const msgs[JIT_CFI_E__END] = {
		[JIT_CFI_E_TRUNCATED] = "an entry runs past the unwinding data",
		[JIT_CFI_E_BAD_ENTRY] = "malformed CIE or FDE",
		[JIT_CFI_E_BAD_ENCODING] = "unsupported pointer encoding",
		[JIT_CFI_E_BAD_REGISTER] = "register number too large",
		[JIT_CFI_E_BAD_INSTRUCTION] = "unknown call frame instruction",
		[JIT_CFI_E_BAD_HDR] = ".eh_frame_hdr does not match the .eh_frame",
	};

	if (err < 0)
		err = -err;
	return err > 0 && err < JIT_CFI_E__END ? msgs[err] : "no error";
}

/* ---- CFI over an ELF image in memory ------------------------------------ */

struct jit_cfi_entry {
	const struct jit_unwind *u;       /* key */
	uint8_t *image;
	Elf *elf;
	Dwarf_CFI *cfi;
	UT_hash_handle hh;
};

struct jit_cfi {
	struct jit_cfi_entry *entries;
};

struct jit_cfi *jit_cfi__new(void)
{
	return xcalloc(1, sizeof(struct jit_cfi));
}

void jit_cfi__delete(struct jit_cfi *jc)
{
	struct jit_cfi_entry *e, *tmp;

	if (!jc)
		return;
	HASH_ITER(hh, jc->entries, e, tmp) {
		HASH_DEL(jc->entries, e);
		if (e->cfi)
			dwarf_cfi_end(e->cfi);
		if (e->elf)
			elf_end(e->elf);
		free(e->image);
		free(e);
	}
	free(jc);
}

/* Section header i: name offset, address, file offset, size. */
static void put_shdr(Elf64_Shdr *sh, uint32_t name, uint32_t type, uint64_t addr,
		     uint64_t offset, uint64_t size)
{
	memset(sh, 0, sizeof(*sh));
	sh->sh_name = name;
	sh->sh_type = type;
	sh->sh_flags = type == SHT_PROGBITS ? SHF_ALLOC : 0;
	sh->sh_addr = addr;
	sh->sh_offset = offset;
	sh->sh_size = size;
	sh->sh_addralign = type == SHT_PROGBITS ? 4 : 1;
}

/*
 * An ELF file (x86-64, no program headers) whose sections are the
 * .eh_frame_hdr (first, where libdw looks for it), the .eh_frame and
 * .shstrtab, placed as jit-cfi.h says; *len its size.
 */
static uint8_t *make_image(const struct jit_unwind *u, size_t *len)
{
	static const char names[] = "\0.eh_frame_hdr\0.eh_frame\0.shstrtab";
	uint64_t eh_addr = JIT_CFI_CODE_BASE + u->eh_frame_off;
	size_t hdr_size = u->hdr_size, off_eh, off_names, off_sh, nsh = 4;
	Elf64_Ehdr eh;
	Elf64_Shdr sh[4];
	uint8_t *img;

	off_eh = sizeof(eh) + ((hdr_size + 7) & ~(size_t)7);
	off_names = off_eh + u->eh_frame_size;
	off_sh = (off_names + sizeof(names) + 7) & ~(size_t)7;
	*len = off_sh + nsh * sizeof(Elf64_Shdr);
	img = xcalloc(1, *len);
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_machine = EM_X86_64;       /* libdw's default rules: rbx, rbp, r12-r15 kept */
	eh.e_version = EV_CURRENT;
	eh.e_shoff = off_sh;
	eh.e_ehsize = sizeof(eh);
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (uint16_t)nsh;
	eh.e_shstrndx = 3;
	memset(&sh[0], 0, sizeof(sh[0]));
	/* an empty .eh_frame_hdr section when there is none: libdw then skips it */
	put_shdr(&sh[1], 1, SHT_PROGBITS, hdr_size ? eh_addr + u->eh_frame_size : 0,
		 sizeof(eh), hdr_size);
	put_shdr(&sh[2], 15, SHT_PROGBITS, eh_addr, off_eh, u->eh_frame_size);
	put_shdr(&sh[3], 25, SHT_STRTAB, 0, off_names, sizeof(names));
	memcpy(img, &eh, sizeof(eh));
	if (hdr_size)
		memcpy(img + sizeof(eh), u->hdr, hdr_size);
	memcpy(img + off_eh, u->eh_frame, u->eh_frame_size);
	memcpy(img + off_names, names, sizeof(names));
	memcpy(img + off_sh, sh, sizeof(sh));
	return img;
}

static void make_cfi(struct jit_cfi_entry *e)
{
	size_t len;

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return;         /* the image's headers are written in host order, as LSB */
#endif
	elf_version(EV_CURRENT);
	e->image = make_image(e->u, &len);
	e->elf = elf_memory((char *)e->image, len);
	e->cfi = e->elf ? dwarf_getcfi_elf(e->elf) : NULL;
}

Dwarf_CFI *jit_cfi__get(struct jit_cfi *jc, const struct jit_unwind *u)
{
	struct jit_cfi_entry *e;

	HASH_FIND_PTR(jc->entries, &u, e);
	if (!e) {
		e = xcalloc(1, sizeof(*e));
		e->u = u;
		make_cfi(e);
		HASH_ADD_PTR(jc->entries, u, e);
	}
	return e->cfi;
}
