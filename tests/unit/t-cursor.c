/*
 * The bounded byte cursor: numbers in either byte order, reads that do not
 * fit failing without reading, the first failure's code and offset kept,
 * strings bounded by their NUL and a maximum, LEB128.
 */
#include "common/common.h"
#include "common/cursor.h"
#include "test.h"

enum { E_LONG = 7, E_MINE = 9 };

static void test_cursor__numbers(void)
{
	const uint8_t le[] = { 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0 };
	const uint8_t be[] = { 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2 };
	struct cursor c = cursor_make_order(le, sizeof(le), false);
	struct cursor d = cursor_make_order(be, sizeof(be), true);

	T("u32 little-endian", cursor_u32(&c) == 1);
	T("u64 little-endian", cursor_u64(&c) == 2);
	T("u32 big-endian", cursor_u32(&d) == 1);
	T("u64 big-endian", cursor_u64(&d) == 2);
	T("all read, none bad", !c.left && !c.bad && !d.left && !d.bad && cursor_offset(&c) == 12);
}

static void test_cursor__bounds(void)
{
	const uint8_t b[6] = { 1, 2, 3, 4, 5, 6 };
	struct cursor c = cursor_make(b, sizeof(b), false);

	T("u32 fits", cursor_u32(&c) != 0 && c.left == 2);
	T("u32 past the end gives 0", cursor_u32(&c) == 0);
	T("it fails, cut short, at offset 4",
	  c.bad && c.err == CURSOR_E_SHORT && c.err_off == 4 && cursor_offset(&c) == 4);
	T("then a read that would fit fails too", cursor_u8(&c) == 0 && c.err_off == 4);
	T("a later failure keeps the first", !cursor_fail(&c, E_MINE) && c.err == CURSOR_E_SHORT);

	c = cursor_make(b, sizeof(b), false);
	T("bytes: a huge count fails", !cursor_bytes(&c, UINT64_MAX) && c.bad && c.err_off == 0);
	c = cursor_make(b, sizeof(b), false);
	cursor_skip(&c, 3);
	T("a caller's failure keeps its code and offset",
	  !cursor_fail(&c, E_MINE) && c.err == E_MINE && c.err_off == 3 && !c.left);
}

static void test_cursor__cstr(void)
{
	const char s[] = "abc\0defgh";
	struct cursor c = cursor_make(s, sizeof(s) - 1, false);
	const char *r = cursor_cstr(&c, 8, E_LONG);

	T("a string and its NUL", r && !strcmp(r, "abc") && cursor_offset(&c) == 4);
	T("a string without its NUL is cut short",
	  !cursor_cstr(&c, 8, E_LONG) && c.err == CURSOR_E_SHORT && c.err_off == 4);
	c = cursor_make(s, sizeof(s), false);
	cursor_skip(&c, 4);
	T("a string longer than its maximum is too long",
	  !cursor_cstr(&c, 3, E_LONG) && c.err == E_LONG && c.err_off == 4);
}

static void test_cursor__leb(void)
{
	const uint8_t one[] = { 0xe5, 0x8e, 0x26 };
	uint8_t longer[12];
	struct cursor c = cursor_make(one, sizeof(one), false);

	T("a ULEB128", cursor_uleb(&c) == 624485 && !c.bad && !c.left);
	memset(longer, 0x80, sizeof(longer));
	c = cursor_make(longer, sizeof(longer), false);
	T("a ULEB128 of more than 64 bits fails", cursor_uleb(&c) == 0 && c.bad);
	c = cursor_make(one, 2, false);
	T("a ULEB128 cut short fails", cursor_uleb(&c) == 0 && c.err == CURSOR_E_SHORT);
}

int main(void)
{
	test_cursor__numbers();
	test_cursor__bounds();
	test_cursor__cstr();
	test_cursor__leb();
	return test_done();
}
