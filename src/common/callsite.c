#include "common/common.h"
#include "common/callsite.h"

#define OP_CALL_REL32 0xe8
#define OP_GROUP5 0xff          /* FF /2: call near indirect, FF /3: call far indirect */

/*
 * The length of an FF instruction from its opcode, by its ModRM byte (and
 * SIB byte when it has one: sib < 0 when not at hand); 0 when it is no call.
 * In 64-bit mode the ModRM forms are the 32-bit ones whatever the prefixes
 * (no 16-bit addressing; REX.B changes no form).
 */
static size_t group5_call_len(uint8_t modrm, int sib)
{
	unsigned mod = modrm >> 6, reg = (modrm >> 3) & 7, rm = modrm & 7;

	if (reg != 2 && reg != 3)
		return 0;
	if (mod == 3)
		return reg == 2 ? 2 : 0;     /* a far call needs memory */
	if (rm == 4) {                       /* a SIB byte follows */
		if (sib < 0)
			return 0;
		if (mod == 0)
			return (sib & 7) == 5 ? 7 : 3;
		return mod == 1 ? 4 : 7;
	}
	if (mod == 0)
		return rm == 5 ? 6 : 2;      /* rm 5: rip + disp32 */
	return mod == 1 ? 3 : 6;
}

bool callsite__ends_in_call(const uint8_t *before, size_t n)
{
	size_t len;

	if (n > CALLSITE_WINDOW) {
		before += n - CALLSITE_WINDOW;
		n = CALLSITE_WINDOW;
	}
	if (n >= 5 && before[n - 5] == OP_CALL_REL32)
		return true;
	for (len = 2; len <= n; len++) {
		const uint8_t *op = before + n - len;
		int sib = len >= 3 ? op[2] : -1;

		if (op[0] == OP_GROUP5 && group5_call_len(op[1], sib) == len)
			return true;
	}
	return false;
}

/*
 * The offsets, in whichever form is smaller: a bitmap of (size + 1) bits,
 * or a sorted array of 16- or 32-bit offsets. Code with few calls (most of
 * it) takes the array; code dense with calls the bitmap.
 */
enum set_form { FORM_BITMAP, FORM_OFF16, FORM_OFF32 };

struct callsite_set {
	uint8_t form;
	uint64_t nr;            /* offsets; or, for the bitmap, bits */
	uint8_t data[];
};

static struct callsite_set *set_alloc(enum set_form form, uint64_t nr, size_t bytes)
{
	struct callsite_set *s = xcalloc(1, st_add(sizeof(*s), bytes));

	s->form = form;
	s->nr = nr;
	return s;
}

/* If a call encoding starts at p, mark where it ends; whether that is a new end. */
static bool mark_at(const uint8_t *code, uint64_t size, uint64_t p, uint8_t *bits)
{
	uint64_t len = 0;

	if (p + 2 > size)
		return false;
	if (code[p] == OP_CALL_REL32 && p + 5 <= size)
		len = 5;
	else if (code[p] == OP_GROUP5)
		len = group5_call_len(code[p + 1], p + 2 < size ? code[p + 2] : -1);
	if (!len || p + len > size || (bits[(p + len) >> 3] >> ((p + len) & 7) & 1))
		return false;
	bits[(p + len) >> 3] |= (uint8_t)(1u << ((p + len) & 7));
	return true;
}

#define BYTES_01 0x0101010101010101ULL
#define BYTES_7F 0x7f7f7f7f7f7f7f7fULL
#define BYTES_80 0x8080808080808080ULL

/* 0x80 in each byte of x that is zero, and nothing elsewhere (no borrow between bytes). */
static uint64_t zero_bytes(uint64_t x)
{
	return ~(((x & BYTES_7F) + BYTES_7F) | x) & BYTES_80;
}

/*
 * One forward pass over the code: every position that starts a call
 * encoding marks where it would end (callsite__ends_in_call() at every
 * end, without trying seven lengths at every byte). It runs over every
 * byte a runtime loads (~100 MB for node), so it finds the E8 and FF
 * bytes eight at a time and looks only at those. Returns how many.
 */
static uint64_t mark_ends(const uint8_t *code, uint64_t size, uint8_t *bits)
{
	uint64_t base, nr = 0;

	for (base = 0; base + 8 <= size; base += 8) {
		uint64_t w, m;

		memcpy(&w, code + base, sizeof(w));
		m = zero_bytes(w ^ (BYTES_01 * OP_CALL_REL32)) | zero_bytes(~w);
		while (m) {
			unsigned int byte = (unsigned int)__builtin_ctzll(m) / 8;

			m &= m - 1;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			byte = 7 - byte;
#endif
			/* the order the starts are taken in does not change the set */
			nr += mark_at(code, size, base + byte, bits);
		}
	}
	for (; base < size; base++)
		nr += mark_at(code, size, base, bits);
	return nr;
}

/* The set bits' offsets, in order, a bitmap byte at a time (most are 0). */
static void bits_to_offsets(struct callsite_set *s, const uint8_t *bits, uint64_t size)
{
	uint64_t byte, i = 0;

	for (byte = 0; byte <= size / 8; byte++) {
		unsigned int b = bits[byte];

		while (b) {
			uint64_t off = byte * 8 + (unsigned int)__builtin_ctz(b);

			b &= b - 1;
			if (s->form == FORM_OFF16)
				((uint16_t *)(void *)s->data)[i++] = (uint16_t)off;
			else
				((uint32_t *)(void *)s->data)[i++] = (uint32_t)off;
		}
	}
}

struct callsite_set *callsite_set__new(const uint8_t *code, uint64_t size)
{
	uint64_t nr, width = size <= UINT16_MAX ? 2 : 4;
	struct callsite_set *s;

	if (!code)
		size = 0;
	s = set_alloc(FORM_BITMAP, size + 1, size / 8 + 1);
	nr = mark_ends(code, size, s->data);
	if (size > UINT32_MAX || size / 8 + 1 < nr * width)
		return s;
	{
		struct callsite_set *o = set_alloc(width == 2 ? FORM_OFF16 : FORM_OFF32, nr,
						   st_mult(nr, width));

		bits_to_offsets(o, s->data, size);
		free(s);
		return o;
	}
}

void callsite_set__delete(struct callsite_set *s)
{
	free(s);
}

/* Binary search of a sorted array of offsets: find16(), find32(). */
#define DEFINE_FIND(name, type) \
	static bool name(const type *a, uint64_t nr, uint64_t key) \
	{ \
		uint64_t lo = 0, hi = nr; \
 \
		while (lo < hi) { \
			uint64_t mid = lo + (hi - lo) / 2; \
 \
			if (a[mid] == key) \
				return true; \
			if (a[mid] < key) \
				lo = mid + 1; \
			else \
				hi = mid; \
		} \
		return false; \
	}
DEFINE_FIND(find16, uint16_t)
DEFINE_FIND(find32, uint32_t)

bool callsite_set__has(const struct callsite_set *s, uint64_t off)
{
	switch (s->form) {
	case FORM_BITMAP:
		return off < s->nr && (s->data[off >> 3] >> (off & 7) & 1);
	case FORM_OFF16:
		return off <= UINT16_MAX && find16((const uint16_t *)(const void *)s->data, s->nr, off);
	default:
		return off <= UINT32_MAX && find32((const uint32_t *)(const void *)s->data, s->nr, off);
	}
}

size_t callsite_set__bytes(const struct callsite_set *s)
{
	uint64_t n = s->form == FORM_BITMAP ? s->nr / 8 + 1 : s->nr * (s->form == FORM_OFF16 ? 2 : 4);

	return sizeof(*s) + (size_t)n;
}
