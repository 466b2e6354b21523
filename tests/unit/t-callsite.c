/*
 * callsite: which byte sequences end in an x86-64 call. The encodings were
 * checked with objdump -d (GNU binutils) on the bytes as written here.
 */
#include "common/common.h"
#include "common/callsite.h"
#include "test.h"

#define ENDS(...) ends((const uint8_t[]){ __VA_ARGS__ }, sizeof((const uint8_t[]){ __VA_ARGS__ }))

static bool ends(const uint8_t *b, size_t n)
{
	return callsite__ends_in_call(b, n);
}

static void test_direct(void)
{
	T("call rel32", ENDS(0xe8, 0x10, 0x20, 0x30, 0x40));
	T("call rel32 after other code", ENDS(0x48, 0x89, 0xc7, 0xe8, 0xfc, 0xff, 0xff, 0xff));
	T("call rel32 cut short", !ENDS(0xe8, 0x10, 0x20, 0x30));
	T("jmp rel32 is no call", !ENDS(0xe9, 0x10, 0x20, 0x30, 0x40));
	T("nothing before", !callsite__ends_in_call(NULL, 0));
}

static void test_indirect(void)
{
	T("call *%rax (ff d0)", ENDS(0xff, 0xd0));
	T("call *%r11 (41 ff d3)", ENDS(0x41, 0xff, 0xd3));
	T("call *(%rax) (ff 10)", ENDS(0xff, 0x10));
	T("call *0x8(%rax) (ff 50 08)", ENDS(0xff, 0x50, 0x08));
	T("call *0x100(%rbx) (ff 93 disp32)", ENDS(0xff, 0x93, 0x00, 0x01, 0x00, 0x00));
	T("call *(%rsp) (ff 14 24)", ENDS(0xff, 0x14, 0x24));
	T("call *0x8(%rsp) (ff 54 24 08)", ENDS(0xff, 0x54, 0x24, 0x08));
	T("call *0x80(%rsp) (ff 94 24 disp32)", ENDS(0xff, 0x94, 0x24, 0x80, 0, 0, 0));
	T("call *tbl(,%rax,8) (ff 14 c5 disp32)", ENDS(0xff, 0x14, 0xc5, 0x10, 0x20, 0x30, 0x40));
	T("call *rip+disp32 (ff 15 disp32)", ENDS(0xff, 0x15, 0xaa, 0xbb, 0xcc, 0xdd));
	T("call *0x18(%r13) (41 ff 55 18)", ENDS(0x41, 0xff, 0x55, 0x18));
	T("notrack call *%rax (3e ff d0)", ENDS(0x3e, 0xff, 0xd0));
	T("lcall *(%rax) (ff 18)", ENDS(0xff, 0x18));
}

static void test_not_calls(void)
{
	T("jmp *%rax (ff e0)", !ENDS(0xff, 0xe0));
	T("push (%rax) (ff 30)", !ENDS(0xff, 0x30));
	T("inc %eax (ff c0)", !ENDS(0xff, 0xc0));
	T("lcall to a register is invalid (ff d8)", !ENDS(0xff, 0xd8));
	T("ret", !ENDS(0xc3));
	T("nop padding", !ENDS(0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90));
	T("int3 padding", !ENDS(0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc));
	T("endbr64", !ENDS(0xf3, 0x0f, 0x1e, 0xfa));
	T("mov %rsp,%rbp", !ENDS(0x48, 0x89, 0xe5));
	T("ff 15 with a disp32 cut short", !ENDS(0xff, 0x15, 0xaa, 0xbb, 0xcc));
	T("ff 14 without its SIB byte", !ENDS(0xff, 0x14));
	T("ff 54 24 with a disp8 missing", !ENDS(0xff, 0x54, 0x24));
	/* ff 14 25 disp32: mod 0 with SIB base 5 takes a disp32, so 3 bytes are not enough */
	T("ff 14 25 takes a disp32", !ENDS(0xff, 0x14, 0x25));
}

/* Several lengths can parse: any call that ends here counts. */
static void test_ambiguous(void)
{
	/* mov $0xd0ff,%eax ... ends in ff d0 */
	T("ff d0 inside an immediate", ENDS(0xb8, 0x00, 0x00, 0xff, 0xd0));
	/* e8 as the first byte of a 5-byte tail: call, whatever came before */
	T("e8 inside a longer instruction", ENDS(0x48, 0xb8, 0xe8, 1, 2, 3, 4));
	/* only the last CALLSITE_WINDOW bytes matter */
	T("a long buffer ending in a call",
	  ENDS(0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xe8, 1, 2, 3, 4));
	T("a call further back does not count",
	  !ENDS(0xe8, 1, 2, 3, 4, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90));
}

static void test_set(void)
{
	/* push %rbp; call f; mov; call *%rax; nops; ret */
	static const uint8_t code[] = {
		0x55, 0xe8, 1, 2, 3, 4, 0x48, 0x89, 0xc7, 0xff, 0xd0,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xc3,
	};
	uint8_t *dense = xcalloc(4096, 1);
	struct callsite_set *s = callsite_set__new(code, sizeof(code));
	struct callsite_set *d, *e = callsite_set__new(NULL, 0);
	size_t i, ok = 0;

	T("set: after call rel32", callsite_set__has(s, 6));
	T("set: after call *%rax", callsite_set__has(s, 11));
	T("set: not at the start", !callsite_set__has(s, 0));
	T("set: not inside", !callsite_set__has(s, 5) && !callsite_set__has(s, 7));
	T("set: not at the end", !callsite_set__has(s, sizeof(code)));
	T("set: past the end", !callsite_set__has(s, 1000));
	T("empty set", !callsite_set__has(e, 0) && !callsite_set__has(e, 1));
	/* call *%rax everywhere: a bitmap is smaller than the offsets */
	for (i = 0; i + 1 < 4096; i += 2) {
		dense[i] = 0xff;
		dense[i + 1] = 0xd0;
	}
	d = callsite_set__new(dense, 4096);
	for (i = 1; i <= 4096; i++)
		ok += callsite_set__has(d, i) == (i % 2 == 0);
	T("dense set: every second offset", ok == 4096);
	T("dense set: a bitmap", callsite_set__bytes(d) <= 4096 / 8 + 64);
	T("sparse set: offsets", callsite_set__bytes(s) <= 2 * 2 + 64);
	callsite_set__delete(s);
	callsite_set__delete(d);
	callsite_set__delete(e);
	callsite_set__delete(NULL);
	free(dense);
}

/* The set's forward pass against the matcher at every offset, on random code rich in e8 and ff. */
static void test_set_model(void)
{
	static const uint8_t pick[] = { 0xe8, 0xff, 0x10, 0x14, 0x15, 0x24, 0x25, 0x54, 0x94, 0xd0, 0xd8, 0x90 };
	uint32_t x = 2463534242u;
	size_t round, bad = 0;

	for (round = 0; round < 200; round++) {
		size_t size = 1 + round * 7 % 300, off;
		uint8_t *code = xcalloc(size, 1);
		struct callsite_set *s;

		for (off = 0; off < size; off++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			code[off] = x % 3 ? pick[x % sizeof(pick)] : (uint8_t)(x >> 8);
		}
		s = callsite_set__new(code, size);
		for (off = 0; off <= size + 2; off++) {
			size_t n = off <= size ? off : size;

			bad += callsite_set__has(s, off) != (off <= size && callsite__ends_in_call(code, n));
		}
		callsite_set__delete(s);
		free(code);
	}
	T("set agrees with the matcher on random code", bad == 0);
}

int main(void)
{
	test_direct();
	test_indirect();
	test_not_calls();
	test_ambiguous();
	test_set();
	test_set_model();
	return test_done();
}
