#include "common/common.h"
#include "unwind/unwind.h"

#include <dwarf.h>
#include <linux/perf_event.h>

/*
 * Registers by their x86-64 DWARF numbers: 0 rax, 1 rdx, 2 rcx, 3 rbx,
 * 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8-15 r8-r15, and 16 the return address
 * column, which in a frame's register file holds that frame's rip.
 */
#define NREGS 17
#define REG_RBP 6
/* rbx, rbp, r12-r15: what a callee gives back unchanged (x86-64 psABI) */
#define CALLEE_SAVED (1u << 3 | 1u << 6 | 1u << 12 | 1u << 13 | 1u << 14 | 1u << 15)
#define REG_RSP 7
#define REG_RIP 16

/* perf's x86 register numbers (asm/perf_regs.h) for each DWARF register. */
static const uint8_t perf_reg_of[NREGS] = {
	0 /* AX */, 3 /* DX */, 2 /* CX */, 1 /* BX */, 4 /* SI */, 5 /* DI */,
	6 /* BP */, 7 /* SP */, 16, 17, 18, 19, 20, 21, 22, 23 /* R8-R15 */, 8 /* IP */,
};

#define CACHE_BITS_DEFAULT 14
#define CACHE_BITS_MAX 24
/*
 * The cache starts at 2^10 slots (or fewer, if asked) and grows four times
 * each time it has been filled twice over, to the size asked for: a short
 * recording does not write 5 MB of slots it never uses.
 */
#define CACHE_BITS_FIRST 10
/* Bounds of the expression evaluator: ops per slot, values on its stack. */
#define SLOT_OPS_MAX 64
#define EXPR_STACK_MAX 16

/* One register's (or the CFA's) rule, compiled from libdw's location description. */
enum rule_kind {
	RULE_UNDEF,         /* not recoverable */
	RULE_SAME,          /* unchanged from the callee */
	RULE_OFFSET,        /* saved at [CFA + off] */
	RULE_VAL_OFFSET,    /* the value CFA + off */
	RULE_REGISTER,      /* the callee's register reg (+ off, for the CFA) */
	RULE_EXPR,          /* slot->ops[off .. off + nops): an address, or a value
	                       when it ends with DW_OP_stack_value */
};

struct rule {
	int64_t off;
	uint16_t nops;
	uint8_t kind;
	uint8_t reg;
};

enum slot_state { SLOT_EMPTY, SLOT_RULES, SLOT_NO_CFI, SLOT_BAD };

/* The rules at one (object, CFI address): one slot of a direct-mapped cache. */
struct slot {
	const void *object;
	uint64_t pc;
	uint8_t state;
	bool signal;            /* a signal frame: its caller's pc is exact */
	uint16_t nops;
	uint32_t same;          /* bit r: regs[r] is RULE_SAME */
	uint32_t eval;          /* bit r: regs[r] needs evaluating (not same, not undefined) */
	struct rule cfa;
	struct rule regs[NREGS];
	Dwarf_Op *ops;          /* owned; the RULE_EXPR operations, usually NULL */
};

struct unwinder {
	bool supported;
	unsigned bits, max_bits;        /* now, and at most */
	size_t fills;                   /* since the cache was made */
	struct slot *slots;
	struct unwind_stats stats;
};

/* A walk in progress: the current frame's registers and the dump. */
struct walk {
	const uint8_t *stack;
	uint64_t sp0, size;
	uint64_t regs[NREGS];
	uint32_t valid;         /* bit r: regs[r] is known */
	uint32_t short_bits;    /* bit r: unknown because its slot lay past the dump */
	uint64_t cfa;           /* the last CFA (at first, the sampled sp) */
	bool fp_last;           /* the last frame came from the frame pointer */
	uint64_t *need;         /* the most bytes from sp0 a read past the dump needed */
	bool exact;             /* the current pc is exact (leaf, or after a signal frame) */
};

/* ---- the unwinder and its cache ---- */

struct unwinder *unwinder__new(const struct unwind_opts *opts)
{
	struct unwinder *u = xcalloc(1, sizeof(*u));
	const char *arch = opts ? opts->arch : NULL;

	u->supported = !arch || !strcmp(arch, "x86_64");
	u->max_bits = opts && opts->cache_bits ? opts->cache_bits : CACHE_BITS_DEFAULT;
	if (u->max_bits > CACHE_BITS_MAX)
		u->max_bits = CACHE_BITS_MAX;
	if (u->max_bits < 1)
		u->max_bits = 1;
	u->bits = u->max_bits < CACHE_BITS_FIRST ? u->max_bits : CACHE_BITS_FIRST;
	u->slots = xcalloc_written((size_t)1 << u->bits, sizeof(*u->slots));
	return u;
}

static void slot_release(struct slot *s)
{
	free(s->ops);
	memset(s, 0, sizeof(*s));
}

/* Free the expressions the slots own; the slots are left as they are. */
static void free_slot_ops(struct unwinder *u)
{
	size_t i;

	for (i = 0; i < (size_t)1 << u->bits; i++)
		free(u->slots[i].ops);
}

void unwinder__flush(struct unwinder *u)
{
	free_slot_ops(u);
	memset(u->slots, 0, ((size_t)1 << u->bits) * sizeof(*u->slots));
}

void unwinder__delete(struct unwinder *u)
{
	if (!u)
		return;
	free_slot_ops(u);
	free(u->slots);
	free(u);
}

void unwinder__stats(const struct unwinder *u, struct unwind_stats *st)
{
	*st = u->stats;
}

const char *unwind_end__name(enum unwind_end end)
{
	static const char *const names[UNWIND_END__NR] = {
		[UNWIND_END_COMPLETE] = "complete",
		[UNWIND_END_NO_CFI] = "no CFI",
		[UNWIND_END_STACK_SHORT] = "stack dump too short",
		[UNWIND_END_BAD_RULE] = "bad unwind rule",
		[UNWIND_END_FP_LEFT] = "frame-pointer chain left the dump",
		[UNWIND_END_DEPTH] = "depth limit",
		[UNWIND_END_NO_REGS] = "no user registers",
		[UNWIND_END_UNSUPPORTED] = "unsupported architecture",
		[UNWIND_END_JIT_NO_CFI] = "JIT code without unwinding info",
	};

	return (unsigned)end < UNWIND_END__NR ? names[end] : "unknown";
}

/* perf record's largest --call-graph dwarf,SIZE: 65535 rounded down to 8 bytes */
#define PERF_STACK_DUMP_MAX 65528

const char *unwind_end__fix(enum unwind_end end, uint64_t need, char *buf, size_t size)
{
	switch (end) {
	case UNWIND_END_STACK_SHORT:
		if (need > PERF_STACK_DUMP_MAX)
			snprintf(buf, size, "they need more than perf's largest dump "
				 "(%d bytes, %" PRIu64 " or more): record them with frame pointers, "
				 "perf record --call-graph fp", PERF_STACK_DUMP_MAX, need);
		else if (need)
			snprintf(buf, size, "record a larger dump: perf record --call-graph dwarf,SIZE "
				 "with SIZE %" PRIu64 " or more (the walks needed at least that; "
				 "perf's default is 8192, its largest %d)", need, PERF_STACK_DUMP_MAX);
		else
			snprintf(buf, size, "record a larger dump: perf record --call-graph dwarf,SIZE "
				 "(perf's default is 8192, its largest %d)", PERF_STACK_DUMP_MAX);
		return buf;
	case UNWIND_END_JIT_NO_CFI:
		snprintf(buf, size, "have the runtime write its unwinding info into a jitdump "
			 "(node --perf-prof --perf-prof-unwinding-info, python3.13 -X perf_jit) or "
			 "keep frame pointers in its code (java -XX:+PreserveFramePointer)");
		return buf;
	default:
		return NULL;
	}
}

/* ---- compiling libdw's rules ---- */

/* Append ops to s->ops as rule r's expression; false when over the bound. */
static bool slot_add_expr(struct slot *s, struct rule *r, const Dwarf_Op *ops, size_t nops)
{
	if (nops > (size_t)(SLOT_OPS_MAX - s->nops))
		return false;
	if (!s->ops)
		s->ops = xcalloc(SLOT_OPS_MAX, sizeof(*s->ops));
	memcpy(s->ops + s->nops, ops, nops * sizeof(*ops));
	r->kind = RULE_EXPR;
	r->off = s->nops;
	r->nops = (uint16_t)nops;
	s->nops = (uint16_t)(s->nops + nops);
	return true;
}

/* A base register operation (DW_OP_bregN, DW_OP_bregx): true and *reg, *off. */
static bool op_breg(const Dwarf_Op *op, unsigned *reg, int64_t *off)
{
	if (op->atom >= DW_OP_breg0 && op->atom <= DW_OP_breg31) {
		*reg = op->atom - DW_OP_breg0;
		*off = (int64_t)op->number;
		return true;
	}
	if (op->atom == DW_OP_bregx && op->number < NREGS) {
		*reg = (unsigned)op->number;
		*off = (int64_t)op->number2;
		return true;
	}
	return false;
}

static bool compile_cfa(struct slot *s, const Dwarf_Op *ops, size_t nops)
{
	unsigned reg;
	int64_t off;

	if (nops == 1 && op_breg(&ops[0], &reg, &off) && reg < NREGS) {
		s->cfa.kind = RULE_REGISTER;
		s->cfa.reg = (uint8_t)reg;
		s->cfa.off = off;
		return true;
	}
	return slot_add_expr(s, &s->cfa, ops, nops);
}

/*
 * A register's location description from dwarf_frame_register(): the
 * shapes libdw builds for the usual rules become rules of their own.
 */
static bool compile_reg(struct slot *s, struct rule *r, const Dwarf_Op *mem,
			const Dwarf_Op *ops, size_t nops)
{
	bool value = nops > 0 && ops[nops - 1].atom == DW_OP_stack_value;
	size_t n = value ? nops - 1 : nops;

	if (nops == 0) {
		r->kind = ops == mem ? RULE_UNDEF : RULE_SAME;
		return true;
	}
	if (n >= 1 && n <= 2 && ops[0].atom == DW_OP_call_frame_cfa &&
	    (n == 1 || ops[1].atom == DW_OP_plus_uconst)) {
		r->kind = value ? RULE_VAL_OFFSET : RULE_OFFSET;
		r->off = n == 2 ? (int64_t)ops[1].number : 0;
		return true;
	}
	if (!value && n == 1 && ((ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31) ||
				 ops[0].atom == DW_OP_regx)) {
		uint64_t reg = ops[0].atom == DW_OP_regx ? ops[0].number
							 : (uint64_t)(ops[0].atom - DW_OP_reg0);

		r->kind = reg < NREGS ? RULE_REGISTER : RULE_UNDEF;
		r->reg = (uint8_t)(reg < NREGS ? reg : 0);
		return true;
	}
	return slot_add_expr(s, r, ops, nops);
}

/* Fill s from libdw's frame: SLOT_RULES, or SLOT_BAD when libdw cannot say. */
static void compile_frame(struct slot *s, Dwarf_Frame *frame)
{
	Dwarf_Addr start, end;
	Dwarf_Op mem[3], *ops;
	size_t nops;
	bool signal = false;
	int r;

	s->state = SLOT_BAD;
	if (dwarf_frame_info(frame, &start, &end, &signal) < 0 ||
	    dwarf_frame_cfa(frame, &ops, &nops) || nops == 0 || !compile_cfa(s, ops, nops))
		return;
	s->signal = signal;
	for (r = 0; r < NREGS; r++) {
		if (dwarf_frame_register(frame, r, mem, &ops, &nops)) {
			s->regs[r].kind = RULE_UNDEF;
			continue;
		}
		if (!compile_reg(s, &s->regs[r], mem, ops, nops))
			return;
		/*
		 * libdw says "undefined" for a register no rule names; the x86-64
		 * psABI keeps the callee-saved ones (rbx, rbp, r12-r15) as they
		 * were: ld.so's _dl_runtime_resolve finds its CFA in the rbx that
		 * _dl_fixup's first instructions have not saved yet
		 */
		if (s->regs[r].kind == RULE_UNDEF && (CALLEE_SAVED >> r & 1))
			s->regs[r].kind = RULE_SAME;
		if (s->regs[r].kind == RULE_SAME)
			s->same |= 1u << r;
		else if (s->regs[r].kind != RULE_UNDEF)
			s->eval |= 1u << r;
	}
	s->state = SLOT_RULES;
}

/* Whether cfi has a frame at addr; if so, compile it into s. */
static bool slot_from_cfi(struct slot *s, Dwarf_CFI *cfi, uint64_t addr)
{
	Dwarf_Frame *frame = NULL;

	if (!cfi || dwarf_cfi_addrframe(cfi, addr, &frame) || !frame)
		return false;
	compile_frame(s, frame);
	free(frame);
	return true;
}

static bool slot_holds(const struct slot *s, const void *object, uint64_t addr)
{
	return s->state != SLOT_EMPTY && s->object == object && s->pc == addr;
}

/*
 * The rules for pc in the object c names: from the cache, else from its
 * primary CFI, else from its fallback CFI (asked for only then), else a
 * cached "no CFI". Never NULL; valid until the next lookup.
 *
 * The cache is 2-way: a pc's set is two adjacent slots, the newer rules
 * in the first. Direct-mapped, two frames of one walk that hashed alike
 * evicted each other at every walk (which addresses collide depends on
 * where the code is loaded).
 */
static const struct slot *rules_lookup(struct unwinder *u, const struct unwind_space *space,
				       const struct unwind_cfi *c, uint64_t pc)
{
	uint64_t addr = pc - c->bias;
	uint64_t h = (addr ^ (uint64_t)(uintptr_t)c->object * 0xff51afd7ed558ccdULL) *
		     0x9E3779B97F4A7C15ULL;
	struct slot *s = &u->slots[(h >> (64 - u->bits)) & ~(uint64_t)1];
	struct unwind_cfi fb;

	u->stats.lookups++;
	if (slot_holds(&s[0], c->object, addr) || slot_holds(&s[1], c->object, addr)) {
		u->stats.hits++;
		return slot_holds(&s[0], c->object, addr) ? &s[0] : &s[1];
	}
	if (++u->fills > (size_t)2 << u->bits && u->bits < u->max_bits) {
		free_slot_ops(u);
		free(u->slots);
		u->bits = u->bits + 2 < u->max_bits ? u->bits + 2 : u->max_bits;
		u->fills = 0;
		u->slots = xcalloc_written((size_t)1 << u->bits, sizeof(*u->slots));
		s = &u->slots[(h >> (64 - u->bits)) & ~(uint64_t)1];
	}
	/* the older way goes; the newer moves over to it */
	slot_release(&s[1]);
	s[1] = s[0];
	memset(&s[0], 0, sizeof(s[0]));
	s->object = c->object;
	s->pc = addr;
	if (slot_from_cfi(s, c->cfi, addr))
		return s;
	memset(&fb, 0, sizeof(fb));
	if (!space->find(space->ctx, pc, UNWIND_CFI_FALLBACK, &fb) && fb.cfi &&
	    slot_from_cfi(s, fb.cfi, pc - fb.bias))
		return s;
	s->state = SLOT_NO_CFI;
	return s;
}

/* ---- evaluating rules over the dump ---- */

/* The 8 bytes at addr of the dump: 0, or why not (past the dump, or below it). */
static enum unwind_end walk_read(const struct walk *w, uint64_t addr, uint64_t *val)
{
	uint64_t v;

	if (addr < w->sp0)
		return UNWIND_END_BAD_RULE;
	if (w->size < 8 || addr - w->sp0 > w->size - 8) {
		if (addr - w->sp0 <= UINT64_MAX - 15 && addr - w->sp0 + 8 > *w->need)
			*w->need = addr - w->sp0 + 8;
		return UNWIND_END_STACK_SHORT;
	}
	memcpy(&v, w->stack + (addr - w->sp0), sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);       /* the dump is an x86-64 process's memory */
#endif
	*val = v;
	return UNWIND_END_COMPLETE;
}

/* Register reg of the current frame: 0, or why it is unknown. */
static enum unwind_end walk_reg(const struct walk *w, unsigned reg, uint64_t *val)
{
	if (reg >= NREGS || !(w->valid & (1u << reg)))
		return reg < NREGS && (w->short_bits & (1u << reg)) ? UNWIND_END_STACK_SHORT
								      : UNWIND_END_BAD_RULE;
	*val = w->regs[reg];
	return UNWIND_END_COMPLETE;
}

/* The binary operation op on a (below) and b (top); false if not one. */
static bool expr_binary(uint8_t op, uint64_t a, uint64_t b, uint64_t *out)
{
	switch (op) {
	case DW_OP_plus: *out = a + b; break;
	case DW_OP_minus: *out = a - b; break;
	case DW_OP_mul: *out = a * b; break;
	case DW_OP_and: *out = a & b; break;
	case DW_OP_or: *out = a | b; break;
	case DW_OP_xor: *out = a ^ b; break;
	case DW_OP_shl: *out = b < 64 ? a << b : 0; break;
	case DW_OP_shr: *out = b < 64 ? a >> b : 0; break;
	case DW_OP_shra: *out = b < 64 ? (uint64_t)((int64_t)a >> b) : ((int64_t)a < 0 ? ~0ULL : 0);
		break;
	case DW_OP_eq: *out = a == b; break;
	case DW_OP_ne: *out = a != b; break;
	case DW_OP_ge: *out = (int64_t)a >= (int64_t)b; break;
	case DW_OP_gt: *out = (int64_t)a > (int64_t)b; break;
	case DW_OP_le: *out = (int64_t)a <= (int64_t)b; break;
	case DW_OP_lt: *out = (int64_t)a < (int64_t)b; break;
	default: return false;
	}
	return true;
}

/* One operation that pushes a value: true and *val, or false if not one. */
static bool expr_push(const struct walk *w, const Dwarf_Op *op, uint64_t cfa, bool have_cfa,
		      uint64_t *val, enum unwind_end *err)
{
	unsigned reg;
	int64_t off;

	*err = UNWIND_END_COMPLETE;
	if (op->atom >= DW_OP_lit0 && op->atom <= DW_OP_lit31) {
		*val = op->atom - DW_OP_lit0;
	} else if (op_breg(op, &reg, &off)) {
		*err = walk_reg(w, reg, val);
		*val += (uint64_t)off;
	} else if (op->atom == DW_OP_call_frame_cfa) {
		*val = cfa;
		if (!have_cfa)
			*err = UNWIND_END_BAD_RULE;
	} else if ((op->atom >= DW_OP_const1u && op->atom <= DW_OP_consts) ||
		   op->atom == DW_OP_addr) {
		*val = op->number;      /* libdw sign-extends the signed ones */
	} else {
		return false;
	}
	return true;
}

/*
 * Evaluate a DWARF expression without branches on a bounded stack: 0 and
 * *out, *is_value (it ended with DW_OP_stack_value), or why not.
 */
static enum unwind_end expr_eval(const struct walk *w, const Dwarf_Op *ops, size_t nops,
				 uint64_t cfa, bool have_cfa, uint64_t *out, bool *is_value)
{
	uint64_t st[EXPR_STACK_MAX], v;
	size_t sp = 0, i;
	enum unwind_end err;

	*is_value = false;
	for (i = 0; i < nops; i++) {
		const Dwarf_Op *op = &ops[i];

		if (expr_push(w, op, cfa, have_cfa, &v, &err)) {
			if (err != UNWIND_END_COMPLETE)
				return err;
			if (sp == EXPR_STACK_MAX)
				return UNWIND_END_BAD_RULE;
			st[sp++] = v;
			continue;
		}
		if (op->atom == DW_OP_nop)
			continue;
		if (op->atom == DW_OP_stack_value && i == nops - 1) {
			*is_value = true;
			break;
		}
		if (sp == 0)
			return UNWIND_END_BAD_RULE;
		switch (op->atom) {
		case DW_OP_plus_uconst: st[sp - 1] += op->number; continue;
		case DW_OP_neg: st[sp - 1] = -st[sp - 1]; continue;
		case DW_OP_not: st[sp - 1] = ~st[sp - 1]; continue;
		case DW_OP_drop: sp--; continue;
		case DW_OP_deref:
			err = walk_read(w, st[sp - 1], &st[sp - 1]);
			if (err != UNWIND_END_COMPLETE)
				return err;
			continue;
		case DW_OP_dup:
			if (sp == EXPR_STACK_MAX)
				return UNWIND_END_BAD_RULE;
			st[sp] = st[sp - 1];
			sp++;
			continue;
		}
		if (sp < 2)
			return UNWIND_END_BAD_RULE;
		if (op->atom == DW_OP_swap || op->atom == DW_OP_over) {
			v = st[sp - 2];
			if (op->atom == DW_OP_swap)
				st[sp - 2] = st[sp - 1];
			else if (sp == EXPR_STACK_MAX)
				return UNWIND_END_BAD_RULE;
			else
				sp++;
			st[sp - 1] = v;
			continue;
		}
		if (!expr_binary(op->atom, st[sp - 2], st[sp - 1], &st[sp - 2]))
			return UNWIND_END_BAD_RULE;
		sp--;
	}
	if (sp == 0)
		return UNWIND_END_BAD_RULE;
	*out = st[sp - 1];
	return UNWIND_END_COMPLETE;
}

/* The CFA by s's rule: 0 and *cfa, or why not. */
static enum unwind_end eval_cfa(const struct walk *w, const struct slot *s, uint64_t *cfa)
{
	enum unwind_end err;
	bool is_value;

	if (s->cfa.kind == RULE_REGISTER) {
		err = walk_reg(w, s->cfa.reg, cfa);
		*cfa += (uint64_t)s->cfa.off;
		return err;
	}
	return expr_eval(w, s->ops + s->cfa.off, s->cfa.nops, 0, false, cfa, &is_value);
}

/*
 * The caller's value of register reg by rule r: 0 and *val, why not, or
 * UNWIND_END_NO_REGS for "undefined" (not an error by itself).
 */
static enum unwind_end eval_reg(const struct walk *w, const struct slot *s, unsigned reg,
				uint64_t cfa, uint64_t *val)
{
	const struct rule *r = &s->regs[reg];
	enum unwind_end err;
	bool is_value;

	switch (r->kind) {
	case RULE_SAME:
		return walk_reg(w, reg, val);
	case RULE_OFFSET:
		return walk_read(w, cfa + (uint64_t)r->off, val);
	case RULE_VAL_OFFSET:
		*val = cfa + (uint64_t)r->off;
		return UNWIND_END_COMPLETE;
	case RULE_REGISTER:
		return walk_reg(w, r->reg, val);
	case RULE_EXPR:
		err = expr_eval(w, s->ops + r->off, r->nops, cfa, true, val, &is_value);
		if (err != UNWIND_END_COMPLETE || is_value)
			return err;
		return walk_read(w, *val, val);
	}
	return UNWIND_END_NO_REGS;
}

/*
 * One step by CFI rules s: the caller's registers replace w's. Returns
 * UNWIND_END__NR when it stepped, else how the walk ends.
 */
static enum unwind_end step_cfi(struct walk *w, const struct slot *s)
{
	uint64_t cfa, regs[NREGS];
	uint32_t valid, short_bits, m;
	enum unwind_end err;
	unsigned r;

	err = eval_cfa(w, s, &cfa);
	if (err != UNWIND_END_COMPLETE)
		return err;
	if (cfa <= w->cfa)
		return UNWIND_END_BAD_RULE;
	err = eval_reg(w, s, REG_RIP, cfa, &regs[REG_RIP]);
	if (err == UNWIND_END_NO_REGS)
		return UNWIND_END_COMPLETE;     /* the outermost frame */
	if (err != UNWIND_END_COMPLETE)
		return err;
	/* same-value registers keep the callee's values; the others are evaluated */
	memcpy(regs + 0, w->regs, REG_RIP * sizeof(regs[0]));
	valid = (w->valid & s->same) | 1u << REG_RIP;
	short_bits = w->short_bits & s->same;
	for (m = s->eval & ~(1u << REG_RIP); m; m &= m - 1) {
		r = (unsigned)__builtin_ctz(m);
		err = eval_reg(w, s, r, cfa, &regs[r]);
		if (err == UNWIND_END_COMPLETE)
			valid |= 1u << r;
		else if (err == UNWIND_END_STACK_SHORT)
			short_bits |= 1u << r;
	}
	if (s->regs[REG_RSP].kind == RULE_UNDEF || s->regs[REG_RSP].kind == RULE_SAME) {
		regs[REG_RSP] = cfa;    /* the CFA is the caller's sp on x86-64 */
		valid |= 1u << REG_RSP;
	}
	memcpy(w->regs, regs, sizeof(regs));
	w->valid = valid;
	w->short_bits = short_bits;
	w->cfa = cfa;
	w->fp_last = false;
	w->exact = s->signal;
	return UNWIND_END__NR;
}

/*
 * One step by the frame pointer: [rbp] is the caller's rbp, [rbp + 8] its
 * return address, while rbp stays in the dump and above the last CFA.
 */
static bool step_fp(struct walk *w)
{
	uint64_t rbp, ra, next;

	if (!(w->valid & (1u << REG_RBP)))
		return false;
	rbp = w->regs[REG_RBP];
	if (rbp < w->cfa || rbp > UINT64_MAX - 16 ||
	    walk_read(w, rbp + 8, &ra) != UNWIND_END_COMPLETE ||
	    walk_read(w, rbp, &next) != UNWIND_END_COMPLETE)
		return false;
	w->regs[REG_RIP] = ra;
	w->regs[REG_RSP] = rbp + 16;
	w->regs[REG_RBP] = next;
	w->valid = 1u << REG_RIP | 1u << REG_RSP | 1u << REG_RBP;
	w->short_bits = 0;
	w->cfa = rbp + 16;
	w->fp_last = true;
	w->exact = false;
	return true;
}

/*
 * From the current frame to its caller: by CFI when the space has some for
 * the pc, else by the frame pointer. UNWIND_END__NR when it stepped, else
 * how the walk ends (res->object set for UNWIND_END_NO_CFI).
 */
static enum unwind_end walk_step(struct unwinder *u, struct walk *w,
				 const struct unwind_space *space, struct unwind_result *res)
{
	uint64_t pc = w->regs[REG_RIP], look = pc;
	struct unwind_cfi c;
	bool fp_before = w->fp_last;

	if (!w->exact && (!space->after_call || space->after_call(space->ctx, pc)))
		look = pc - 1;

	memset(&c, 0, sizeof(c));
	if (!space->find(space->ctx, look, UNWIND_CFI_PRIMARY, &c)) {
		const struct slot *s = rules_lookup(u, space, &c, look);

		if (s->state == SLOT_BAD)
			return UNWIND_END_BAD_RULE;
		if (s->state == SLOT_RULES) {
			enum unwind_end end = step_cfi(w, s);

			/* a caller pc of 0 ends the walk: no frame */
			res->nr_cfi += end == UNWIND_END__NR && w->regs[REG_RIP];
			return end;
		}
	}
	if (step_fp(w)) {
		res->nr_fp += w->regs[REG_RIP] != 0;
		return UNWIND_END__NR;
	}
	if (fp_before)
		return UNWIND_END_FP_LEFT;
	res->object = c.name ? c.name : UNKNOWN_LABEL;
	return UNWIND_END_NO_CFI;
}

/* The sampled registers into w: false without the ip and the sp. */
static bool walk_init(struct walk *w, const struct unwind_regs *regs)
{
	uint64_t vals[64];
	unsigned bit, n = 0, r;

	for (bit = 0; bit < 64; bit++)
		if (regs->mask & (1ULL << bit))
			vals[bit] = regs->regs[n++];
	for (r = 0; r < NREGS; r++) {
		if (!(regs->mask & (1ULL << perf_reg_of[r])))
			continue;
		w->regs[r] = vals[perf_reg_of[r]];
		w->valid |= 1u << r;
	}
	return (w->valid & (1u << REG_RIP)) && (w->valid & (1u << REG_RSP));
}

size_t unwinder__unwind(struct unwinder *u, const struct unwind_regs *regs,
			const uint8_t *stack, uint64_t stack_size,
			const struct unwind_space *space, uint64_t *ips, size_t max,
			struct unwind_result *res)
{
	struct walk w;
	size_t n = 0;
	enum unwind_end end;
	uint64_t need = 0;

	memset(res, 0, sizeof(*res));
	memset(&w, 0, sizeof(w));
	w.need = &need;
	if (!u->supported || (regs->abi && regs->abi != PERF_SAMPLE_REGS_ABI_64)) {
		res->end = UNWIND_END_UNSUPPORTED;
		return 0;
	}
	if (!regs->abi || !regs->regs || !walk_init(&w, regs)) {
		res->end = UNWIND_END_NO_REGS;
		return 0;
	}
	w.stack = stack;
	w.size = stack ? stack_size : 0;
	w.sp0 = w.regs[REG_RSP];
	w.cfa = w.sp0;
	w.exact = true;
	if (w.size > UINT64_MAX - w.sp0)
		w.size = UINT64_MAX - w.sp0;
	if (!max) {
		res->end = UNWIND_END_DEPTH;
		return 0;
	}
	ips[n++] = w.regs[REG_RIP];
	for (;;) {
		res->pc = w.regs[REG_RIP];
		if (!res->pc) {
			end = UNWIND_END_COMPLETE;
			break;
		}
		end = walk_step(u, &w, space, res);
		if (end != UNWIND_END__NR)
			break;
		if (w.regs[REG_RIP] && n == max) {
			end = UNWIND_END_DEPTH;
			break;
		}
		if (w.regs[REG_RIP])
			ips[n++] = w.regs[REG_RIP];
	}
	res->end = end;
	/* rounded up to 8 bytes, as perf rounds SIZE */
	if (end == UNWIND_END_STACK_SHORT)
		res->stack_need = (need + 7) & ~(uint64_t)7;
	return n;
}
