/*
 * t-jit-cfi: the checks on JIT unwinding rules before libdw sees them
 * (truncated entries, hostile register numbers, sizes and offsets that do
 * not fit), and the CFI made of sound ones, at the address jit-cfi.h says.
 */
#include "common/common.h"
#include "timeline/jit-cfi.h"
#include "timeline/jitmap.h"

#include <dwarf.h>

#include "test.h"

/*
 * What CPython 3.13's -X perf_jit writes for a trampoline of 11 bytes: an
 * .eh_frame (CIE at 0: "zR", pcrel sdata4, RA 16, CFA = rsp + 8; FDE at
 * 24: from code + 4 CFA = rsp + 16, from code + 10 CFA = rsp + 8) at code
 * + 16, and its .eh_frame_hdr (at 48).
 */
static const uint8_t cpython[68] = {
	0x14, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 0x10, 1,
	0x1b, 0x0c, 0x07, 0x08, 0x90, 0x01, 0, 0,
	0x14, 0, 0, 0, 0x1c, 0, 0, 0, 0xd0, 0xff, 0xff, 0xff, 0x0b, 0, 0, 0,
	0, 0x44, 0x0e, 0x10, 0x46, 0x0e, 0x08, 0,
	0x01, 0x1b, 0x03, 0x3b, 0xcc, 0xff, 0xff, 0xff, 1, 0, 0, 0,
	0xc0, 0xff, 0xff, 0xff, 0xe8, 0xff, 0xff, 0xff,
};
#define EH_SIZE 48
#define HDR_SIZE 20
#define FDE_INSNS 41

static uint8_t buf[128];

/* The CPython rules in buf, with what the caller patches. */
static struct jit_unwind rules(size_t eh_size, size_t hdr_size)
{
	struct jit_unwind u = {
		.eh_frame = buf, .eh_frame_size = eh_size,
		.hdr = hdr_size ? buf + eh_size : NULL, .hdr_size = hdr_size,
		.eh_frame_off = 16,
	};

	return u;
}

static void reset(void)
{
	memset(buf, 0, sizeof(buf));
	memcpy(buf, cpython, sizeof(cpython));
}

/* check() of the CPython rules with bytes at off replaced by p (n bytes). */
static int patched(size_t off, const void *p, size_t n, size_t hdr_size)
{
	struct jit_unwind u;

	reset();
	memcpy(buf + off, p, n);
	u = rules(EH_SIZE, hdr_size);
	return jit_cfi__check(&u);
}

static void test_jit_cfi__accepts_cpython(void)
{
	struct jit_unwind u;
	size_t n;
	bool all_bad = true;

	reset();
	u = rules(EH_SIZE, HDR_SIZE);
	T("cpython's rules are sound", jit_cfi__check(&u) == 1);
	u = rules(EH_SIZE, 0);
	T("no .eh_frame_hdr is fine", jit_cfi__check(&u) == 1);
	u = rules(24, 0);
	T("a CIE alone has no rules", jit_cfi__check(&u) == 0);
	u = rules(0, HDR_SIZE);
	T("no .eh_frame: no rules (V8's empty record)", jit_cfi__check(&u) == 0);
	for (n = 1; n < EH_SIZE; n++) {
		u = rules(n, 0);
		if (n != 24 && jit_cfi__check(&u) >= 0)
			all_bad = false;
	}
	T("every cut of the .eh_frame inside an entry is refused", all_bad);
	u = rules(7, 0);
	T("a cut is 'truncated'", jit_cfi__check(&u) == -JIT_CFI_E_TRUNCATED);
}

static void test_jit_cfi__refuses_hostile_registers(void)
{
	static const uint8_t huge[] = { 0x05, 0xa8, 0xfa, 0xff, 0x3f, 0x01, 0 };
	static const uint8_t reg128[] = { 0x09, 0x07, 0x80, 0x01, 0, 0, 0 };
	static const uint8_t reg127[] = { 0x0c, 0x7f, 0x08, 0, 0, 0, 0 };
	static const uint8_t ra200 = 200;
	static const uint8_t cie_huge[] = { 0x10, 0xe8, 0x07, 0x00, 0, 0 };

	T("DW_CFA_offset_extended of register 134217000",
	  patched(FDE_INSNS, huge, sizeof(huge), HDR_SIZE) == -JIT_CFI_E_BAD_REGISTER);
	T("DW_CFA_register to register 128",
	  patched(FDE_INSNS, reg128, sizeof(reg128), HDR_SIZE) == -JIT_CFI_E_BAD_REGISTER);
	T("DW_CFA_def_cfa of register 127 is within the bound",
	  patched(FDE_INSNS, reg127, sizeof(reg127), HDR_SIZE) == 1);
	T("return address column 200",
	  patched(14, &ra200, 1, HDR_SIZE) == -JIT_CFI_E_BAD_REGISTER);
	T("a CIE's DW_CFA_expression of register 1000",
	  patched(17, cie_huge, sizeof(cie_huge), HDR_SIZE) == -JIT_CFI_E_BAD_REGISTER);
	T("strerror names it",
	  !strcmp(jit_cfi__strerror(-JIT_CFI_E_BAD_REGISTER), "register number too large"));
}

static void test_jit_cfi__refuses_bad_sizes(void)
{
	static const uint8_t cie_len[] = { 0x00, 0x01, 0, 0 };
	static const uint8_t fde_len64[] = { 0xff, 0xff, 0xff, 0xff };
	static const uint8_t cie_ptr = 0x10, version = 2, aug = 'X', enc = 0x3b, op = 0x2d;
	static const uint8_t block[] = { 0x10, 0x07, 0x20, 0, 0, 0, 0 };
	static const uint8_t count2 = 2, fde_off = 0xec, hdr_ptr = 0xd0;
	struct jit_unwind u;

	T("a CIE longer than the data",
	  patched(0, cie_len, sizeof(cie_len), 0) == -JIT_CFI_E_TRUNCATED);
	T("a 64-bit DWARF length", patched(24, fde_len64, 4, 0) == -JIT_CFI_E_BAD_ENTRY);
	T("an FDE's CIE pointer off the CIE", patched(28, &cie_ptr, 1, 0) == -JIT_CFI_E_BAD_ENTRY);
	T("CIE version 2", patched(8, &version, 1, 0) == -JIT_CFI_E_BAD_ENTRY);
	T("augmentation \"zX\"", patched(10, &aug, 1, 0) == -JIT_CFI_E_BAD_ENTRY);
	T("a datarel FDE encoding", patched(16, &enc, 1, 0) == -JIT_CFI_E_BAD_ENCODING);
	T("an unknown instruction", patched(FDE_INSNS, &op, 1, 0) == -JIT_CFI_E_BAD_INSTRUCTION);
	T("an expression block past the FDE",
	  patched(FDE_INSNS, block, sizeof(block), 0) == -JIT_CFI_E_TRUNCATED);
	T("an .eh_frame_hdr counting 2 FDEs in room for 1",
	  patched(EH_SIZE + 8, &count2, 1, HDR_SIZE) == -JIT_CFI_E_BAD_HDR);
	T("an .eh_frame_hdr pointing between FDEs",
	  patched(EH_SIZE + 16, &fde_off, 1, HDR_SIZE) == -JIT_CFI_E_BAD_HDR);
	T("an .eh_frame_hdr not pointing at the .eh_frame",
	  patched(EH_SIZE + 4, &hdr_ptr, 1, HDR_SIZE) == -JIT_CFI_E_BAD_HDR);
	T("an .eh_frame_hdr too short", patched(0, cpython, 1, 8) == -JIT_CFI_E_BAD_HDR);
	reset();
	memset(buf + EH_SIZE, 0, 4);
	u = rules(EH_SIZE + 4, 0);
	T("a terminator ends the .eh_frame", jit_cfi__check(&u) == 1);
	buf[EH_SIZE + 4] = 0x14;
	u = rules(EH_SIZE + 8, 0);
	T("nothing may follow the terminator", jit_cfi__check(&u) == -JIT_CFI_E_BAD_ENTRY);
}

/* The CFA rule at addr: register and offset, or false. */
static bool cfa_at(Dwarf_CFI *cfi, uint64_t addr, unsigned *reg, int64_t *off)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Op *ops;
	size_t nops;
	bool ok = false;

	if (dwarf_cfi_addrframe(cfi, addr, &frame) || !frame)
		return false;
	if (!dwarf_frame_cfa(frame, &ops, &nops) && nops == 1) {
		ok = true;
		if (ops[0].atom == DW_OP_bregx) {
			*reg = (unsigned)ops[0].number;
			*off = (int64_t)ops[0].number2;
		} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
			*reg = ops[0].atom - DW_OP_breg0;
			*off = (int64_t)ops[0].number;
		} else {
			ok = false;
		}
	}
	free(frame);
	return ok;
}

static void test_jit_cfi__makes_cfi_at_the_code(void)
{
	struct jit_cfi *jc = jit_cfi__new();
	struct jit_unwind with_hdr, without;
	Dwarf_CFI *a, *b;
	unsigned reg = 0;
	int64_t off = 0;

	reset();
	with_hdr = rules(EH_SIZE, HDR_SIZE);
	without = rules(EH_SIZE, 0);
	a = jit_cfi__get(jc, &with_hdr);
	T("CFI made", a != NULL);
	T("kept: the same CFI again", jit_cfi__get(jc, &with_hdr) == a);
	T("code + 0: CFA = rsp + 8",
	  a && cfa_at(a, JIT_CFI_CODE_BASE, &reg, &off) && reg == 7 && off == 8);
	T("code + 5: CFA = rsp + 16",
	  a && cfa_at(a, JIT_CFI_CODE_BASE + 5, &reg, &off) && reg == 7 && off == 16);
	T("code + 10: CFA = rsp + 8",
	  a && cfa_at(a, JIT_CFI_CODE_BASE + 10, &reg, &off) && reg == 7 && off == 8);
	T("code + 11: past the FDE", a && !cfa_at(a, JIT_CFI_CODE_BASE + 11, &reg, &off));
	b = jit_cfi__get(jc, &without);
	T("without .eh_frame_hdr: another CFI, same rules", b && b != a &&
	  cfa_at(b, JIT_CFI_CODE_BASE + 5, &reg, &off) && reg == 7 && off == 16);
	jit_cfi__delete(jc);
	jit_cfi__delete(NULL);
}

int main(void)
{
	test_jit_cfi__accepts_cpython();
	test_jit_cfi__refuses_hostile_registers();
	test_jit_cfi__refuses_bad_sizes();
	test_jit_cfi__makes_cfi_at_the_code();
	return test_done();
}
