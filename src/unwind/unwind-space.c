#include "common/common.h"
#include "unwind/unwind-space.h"
#include "resolve/dso.h"
#include "resolve/elf-image.h"
#include "timeline/jit-cfi.h"
#include "timeline/jit-loader.h"
#include "timeline/jitmap.h"
#include "timeline/machine.h"
#include "resolve/resolve.h"

/*
 * JIT code: the function at pc now, if its runtime wrote unwinding rules
 * for it. The object is the rules (jitmap keeps one copy of identical
 * ones, which stay as long as the unwinder): functions with the same rules
 * share their cached rows at offsets from their starts, and a later load
 * with other rules at the same address is another object. Without rules
 * (or for .debug_frame, which JIT code has none of) "no object" lets the
 * walk try the frame pointer, as hybrid unwinders do.
 */
static int jit_find(struct unwind_space_machine *m, uint64_t pc,
		    enum unwind_cfi_which which, struct unwind_cfi *out)
{
	const struct jit_sym *sym;
	Dwarf_CFI *cfi;

	if (which != UNWIND_CFI_PRIMARY || !m->jitmap || !m->jit_cfi || !m->proc)
		return -ENOENT;
	sym = jitmap__find(m->jitmap, proc__pid(m->proc), pc, false);
	if (!sym || !sym->unwind)
		return -ENOENT;
	cfi = jit_cfi__get(m->jit_cfi, sym->unwind);
	if (!cfi)
		return -ENOENT;
	out->cfi = cfi;
	out->object = sym->unwind;
	out->bias = sym->start - JIT_CFI_CODE_BASE;
	return 0;
}

/* The CFI of d asked for: .eh_frame; else .debug_frame, of the debug file first. */
static Dwarf_CFI *dso_cfi(struct dso *d, enum unwind_cfi_which which)
{
	struct elf_image *bin = dso__elf_image(d), *dbg;
	Dwarf_CFI *cfi;

	if (which == UNWIND_CFI_PRIMARY)
		return bin ? elf_image__eh_frame_cfi(bin) : NULL;
	dbg = dso__debug_elf_image(d);
	cfi = dbg ? elf_image__debug_frame_cfi(dbg) : NULL;
	if (!cfi && bin && bin != dbg)
		cfi = elf_image__debug_frame_cfi(bin);
	return cfi;
}

/* The mapping at pc in m->proc, from the last one of this walk when it holds pc. */
static bool find_map(struct unwind_space_machine *m, uint64_t pc, struct map_hit *hit)
{
	if (m->last_valid && pc >= m->last.start && pc < m->last.end) {
		*hit = m->last;
		return true;
	}
	if (!proc__find_map(m->proc, pc, hit))
		return false;
	m->last = *hit;
	m->last_valid = true;
	return true;
}

/* The slot of (proc, pc) in table (1 << UNWIND_SPACE_AT_BITS); true when it holds them. */
static bool at_slot(struct unwind_space_at *table, const struct proc *p, uint64_t pc,
		    struct unwind_space_at **slot)
{
	uint64_t gen = proc__generation_at(p, pc);
	struct unwind_space_at *s;

	s = &table[((uintptr_t)p ^ pc) * 0x9E3779B97F4A7C15ULL >> (64 - UNWIND_SPACE_AT_BITS)];
	*slot = s;
	if (s->proc == p && s->pc == pc && s->gen == gen)
		return true;
	s->proc = NULL;         /* filled by the caller */
	s->pc = pc;
	s->gen = gen;
	return false;
}

static int find_uncached(struct unwind_space_machine *m, uint64_t pc,
			 enum unwind_cfi_which which, struct unwind_cfi *out)
{
	struct map_hit hit;
	struct dso *d;

	memset(out, 0, sizeof(*out));
	out->name = UNKNOWN_LABEL;
	if (!m->proc || !find_map(m, pc, &hit))
		return jit_find(m, pc, which, out);
	out->name = hit.map->filename;
	/* a mapping that has a DSO was judged an ELF file before, as resolve.c does */
	if (hit.map->anon || (!hit.map->dso && jit_loader__map_marker(hit.map)))
		return jit_find(m, pc, which, out);
	d = resolver__map_dso(m->resolver, hit.map);
	out->object = d;
	out->bias = pc - dso__map_ip(d, hit.start, hit.pgoff, pc);
	out->cfi = dso_cfi(d, which);
	return 0;
}

static int machine_find(void *ctx, uint64_t pc, enum unwind_cfi_which which,
			struct unwind_cfi *out)
{
	struct unwind_space_machine *m = ctx;
	struct unwind_space_at *slot;

	if (which != UNWIND_CFI_PRIMARY || !m->proc)
		return find_uncached(m, pc, which, out);
	if (!at_slot(m->finds, m->proc, pc, &slot)) {
		slot->ret = find_uncached(m, pc, which, &slot->cfi);
		slot->proc = m->proc;
	}
	*out = slot->cfi;
	return slot->ret;
}

/* The resolver's answer, kept by (proc, pc) while the code there stays. */
static bool jit_after_call(struct unwind_space_machine *m, uint64_t pc)
{
	struct unwind_space_at *slot;

	if (!at_slot(m->jit_calls, m->proc, pc, &slot)) {
		slot->after_call = resolver__after_call(m->resolver, m->proc, pc);
		slot->proc = m->proc;
	}
	return slot->after_call;
}

/*
 * As resolver__after_call(): in an ELF file's code, whether a call ends at
 * pc by the file's bytes (which the DSO keeps); anything else (JIT code,
 * bytes the file does not have) the resolver answers.
 */
static bool machine_after_call(void *ctx, uint64_t pc)
{
	struct unwind_space_machine *m = ctx;
	struct map_hit hit;
	struct dso *d;
	int v;

	if (!m->proc)
		return true;
	if (!find_map(m, pc, &hit) || hit.map->anon || jit_loader__map_marker(hit.map))
		return jit_after_call(m, pc);
	d = resolver__map_dso(m->resolver, hit.map);
	v = dso__call_ends_at(d, dso__map_ip(d, hit.start, hit.pgoff, pc));
	return v < 0 ? jit_after_call(m, pc) : v;
}

struct unwind_space unwind_space_machine__space(struct unwind_space_machine *m)
{
	struct unwind_space s = { .ctx = m, .find = machine_find, .after_call = machine_after_call };

	m->last_valid = false;
	return s;
}
