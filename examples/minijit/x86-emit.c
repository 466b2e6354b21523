/*
 * x86-emit: encodes the instructions minijit needs, from the Intel SDM
 * (volume 2) encodings. Notation in the comments: "REX.W 89 /r" is a REX
 * prefix with W=1 (64-bit operand), opcode 89, then a ModRM byte whose reg
 * field names a register; "/2" means reg holds the opcode extension 2;
 * "+rd" adds the register number to the opcode; id/io are 4- and 8-byte
 * little-endian immediates; cb/cd are 1- and 4-byte relative displacements,
 * counted from the end of the jump.
 */
#include "x86-emit.h"

#include <errno.h>
#include <string.h>

/* Register numbers as encoded in ModRM and opcode+rd fields. */
enum {
	RAX = 0, RCX = 1, RBX = 3, RSP = 4, RBP = 5, RDI = 7,
	R12 = 4,	/* r12 is 4 plus REX.B (or REX.R) */
};

enum {
	REX_W = 0x48,	/* 64-bit operand size */
	REX_WB = 0x49,	/* 64-bit operand, rm or opcode register is r8..r15 */
	REX_B = 0x41,	/* rm or opcode register is r8..r15 */
};

enum { MAX_BLOCKS = 8, MAX_CELLS = 8 };

void x86buf_init(struct x86buf *b, uint8_t *mem, size_t cap)
{
	b->p = mem;
	b->len = 0;
	b->cap = cap;
	b->overflow = false;
}

static void put(struct x86buf *b, const uint8_t *bytes, size_t n)
{
	if (b->overflow || b->cap - b->len < n) {
		b->overflow = true;
		return;
	}
	memcpy(b->p + b->len, bytes, n);
	b->len += n;
}

/* EMIT(b, 0x48, 0x89, 0xe5): append the listed bytes. */
#define EMIT(b, ...) \
	put((b), (const uint8_t[]){ __VA_ARGS__ }, \
	    sizeof((const uint8_t[]){ __VA_ARGS__ }))

static void put_u32(struct x86buf *b, uint32_t v)
{
	EMIT(b, (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24));
}

static void put_u64(struct x86buf *b, uint64_t v)
{
	put_u32(b, (uint32_t)v);
	put_u32(b, (uint32_t)(v >> 32));
}

/* ModRM: mod (2 bits), reg (3), rm (3). mod 3 is register direct. */
static uint8_t modrm(unsigned int mod, unsigned int reg, unsigned int rm)
{
	return (uint8_t)(mod << 6 | (reg & 7) << 3 | (rm & 7));
}

/* push rbp (50+rd); mov rbp, rsp (REX.W 89 /r, reg = rsp, rm = rbp): 55 48 89 e5 */
static void emit_frame_enter(struct x86buf *b)
{
	EMIT(b, 0x50 + RBP, REX_W, 0x89, modrm(3, RSP, RBP));
}

/* pop rbp (58+rd); ret (c3): 5d c3 */
static void emit_frame_leave(struct x86buf *b)
{
	EMIT(b, 0x58 + RBP, 0xc3);
}

/* mov DST, SRC, 64-bit: REX.W 89 /r with reg = SRC, rm = DST */
static void emit_mov(struct x86buf *b, unsigned int dst, unsigned int src)
{
	EMIT(b, REX_W, 0x89, modrm(3, src, dst));
}

/* mov ecx, IMM: b8+rd id; writing a 32-bit register clears bits 63..32 */
static void emit_mov_ecx(struct x86buf *b, uint32_t imm)
{
	EMIT(b, 0xb8 + RCX);
	put_u32(b, imm);
}

/*
 * ITERS rounds of REG = (REG * MUL + ADD) ^ rcx, rcx counting down to 1:
 *
 *	      mov  ecx, ITERS		b9 id
 *	top:  imul REG, REG, MUL	REX.W 69 /r id  (reg = rm = REG)
 *	      add  REG, ADD		REX.W 81 /0 id  (ADD sign-extended)
 *	      xor  REG, rcx		REX.W 31 /r     (reg = rcx, rm = REG)
 *	      dec  ecx			ff /1
 *	      jnz  top			75 cb
 *
 * Clobbers rcx and flags. The loop body is 21 bytes, so rel8 reaches top.
 */
static void emit_spin(struct x86buf *b, unsigned int reg, uint32_t iters,
		      int32_t mul, int32_t add)
{
	size_t top;
	long disp;

	emit_mov_ecx(b, iters);
	top = b->len;
	EMIT(b, REX_W, 0x69, modrm(3, reg, reg));
	put_u32(b, (uint32_t)mul);
	EMIT(b, REX_W, 0x81, modrm(3, 0, reg));
	put_u32(b, (uint32_t)add);
	EMIT(b, REX_W, 0x31, modrm(3, RCX, reg));
	EMIT(b, 0xff, modrm(3, 1, RCX));
	disp = (long)top - (long)(b->len + 2);
	EMIT(b, 0x75, (uint8_t)(disp & 0xff));
}

/*
 *	push rbp; mov rbp, rsp
 *	mov  rax, rdi
 *	BLOCKS x spin on rax
 *	pop  rbp; ret
 *
 * rsp is never used after the prologue, so a sample anywhere after it
 * finds the caller's return address at [rbp + 8].
 */
int x86_emit_leaf(struct x86buf *b, const struct x86_leaf *s)
{
	unsigned int i;

	if (!s->iters || !s->blocks || s->blocks > MAX_BLOCKS)
		return -EINVAL;
	emit_frame_enter(b);
	emit_mov(b, RAX, RDI);
	for (i = 0; i < s->blocks; i++)
		emit_spin(b, RAX, s->iters, (int32_t)((uint32_t)s->mul + 2 * i),
			  (int32_t)((uint32_t)s->add + i));
	emit_frame_leave(b);
	return b->overflow ? -ENOSPC : 0;
}

/*
 * Call *CELL with x in rdi and add the result to x (kept in rbx):
 *
 *	mov    rdi, rbx		REX.W 89 /r
 *	movabs rax, CELL	REX.W b8+rd io
 *	call   [rax]		ff /2, mod 0 rm rax: ff 10
 *	add    rbx, rax		REX.W 01 /r (reg = rax, rm = rbx)
 */
static void emit_call_cell(struct x86buf *b, const uint64_t *cell)
{
	emit_mov(b, RDI, RBX);
	EMIT(b, REX_W, 0xb8 + RAX);
	put_u64(b, (uint64_t)(uintptr_t)cell);
	EMIT(b, 0xff, modrm(0, 2, RAX));
	EMIT(b, REX_W, 0x01, modrm(3, RAX, RBX));
}

/*
 *	push rbp; mov rbp, rsp		55 48 89 e5
 *	push rbx			53
 *	push r12			REX.B 50+rd: 41 54
 *	mov  rbx, rdi			x lives in rbx across calls
 *	mov  r12d, REPS			REX.B b8+rd id: 41 bc id
 *  top:	spin on rbx		(if SELF_ITERS)
 *	call each cell
 *	dec  r12			REX.WB ff /1: 49 ff cc
 *	jnz  top			0f 85 cd
 *	mov  rax, rbx
 *	pop  r12; pop rbx		41 5c 5b
 *	pop  rbp; ret
 *
 * Stack alignment: rsp is 8 mod 16 on entry (the return address), three
 * pushes make it 0 mod 16, as the ABI wants at each call.
 */
int x86_emit_caller(struct x86buf *b, const struct x86_caller *s)
{
	size_t top, i;
	long disp;

	if (!s->reps || !s->ncells || s->ncells > MAX_CELLS)
		return -EINVAL;
	emit_frame_enter(b);
	EMIT(b, 0x50 + RBX, REX_B, 0x50 + R12);
	emit_mov(b, RBX, RDI);
	EMIT(b, REX_B, 0xb8 + R12);
	put_u32(b, s->reps);
	top = b->len;
	if (s->self_iters)
		emit_spin(b, RBX, s->self_iters, s->mul, 0x2545f491);
	for (i = 0; i < s->ncells; i++)
		emit_call_cell(b, s->cells[i]);
	EMIT(b, REX_WB, 0xff, modrm(3, 1, R12));
	disp = (long)top - (long)(b->len + 6);
	EMIT(b, 0x0f, 0x85);
	put_u32(b, (uint32_t)disp);
	emit_mov(b, RAX, RBX);
	EMIT(b, REX_B, 0x58 + R12, 0x58 + RBX);
	emit_frame_leave(b);
	return b->overflow ? -ENOSPC : 0;
}
