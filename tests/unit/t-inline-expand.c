/*
 * Unit tests for src/session/inline-expand.c: the frames a hook sees for a
 * sample's resolved frames, with the functions inlined at the marked ones
 * added (the rules perf follows, inline-expand.h).
 *
 * On tests/golden/inline-synth's inl-main (-O2 -g): 0x1250 is leaf_a
 * inlined into mid_b inlined into outer_c (binutils' addr2line -f -i:
 * three names), 0x1316 rec inlined into itself three times in run_rec
 * (five). Checked:
 * - frames none of which change come back as they were, at the same
 *   address (no copy): unmarked ones, JIT ones, a marked one at an address
 *   with one name in a call chain;
 * - a call chain's 0x1250 becomes leaf_a, mid_b (inlined) and the real
 *   frame with its ELF symbol; unwound, the real frame is named outer_c;
 *   the frames around it keep their places;
 * - at most max frames: a frame whose names do not all fit is left as it
 *   is, and frames past the max-th are dropped.
 */
#include "common/common.h"
#include "session/inline-expand.h"
#include "resolve/sample.h"
#include "test.h"

#include <string.h>

static struct obj_view view;

static struct frame native(uint64_t addr, const char *sym, enum frame_inline mode)
{
	return (struct frame){
		.kind = FRAME_NATIVE, .obj = &view, .elf_addr = addr, .sym = sym,
		.dso = "/usr/bin/inl-main", .ip = addr, .print_addr = addr, .inline_mode = (uint8_t)mode,
	};
}

static bool is(const struct frame *f, const char *sym, bool inlined, uint64_t addr)
{
	return f->sym && !strcmp(f->sym, sym) && f->inlined == inlined && f->elf_addr == addr;
}

int main(void)
{
	const char *srcdir = getenv("abs_top_srcdir");
	struct inline_expander *x, *small;
	const struct frame *out;
	struct frame in[6];
	char *path;
	size_t n;

	if (!srcdir) {
		printf("# abs_top_srcdir must be set (tests/setup.sh)\n");
		return 99;
	}
	verbosity = -1;
	path = xasprintf("%s/tests/golden/inline-synth/symfs/usr/bin/inl-main", srcdir);
	view.path = view.file = view.symfile = path;
	x = inline_expander__new(false, 65536);

	/* nothing changes: the same frames, not a copy */
	in[0] = native(0x1250, "outer_c", FRAME_INLINE_NO);
	in[1] = (struct frame){ .kind = FRAME_JIT, .sym = "LazyCompile:f", .inline_mode = FRAME_INLINE_CHAIN };
	in[2] = native(0x1316, "run_rec", FRAME_INLINE_NO);
	n = inline_expander__run(x, in, 3, &out);
	T("unmarked and JIT frames: as they were, not copied", n == 3 && out == in);

	/* a call chain's 0x1250 between two others */
	in[0] = native(0x1316, "run_rec", FRAME_INLINE_NO);
	in[1] = native(0x1250, "outer_c", FRAME_INLINE_CHAIN);
	in[2] = native(0x1316, "run_rec", FRAME_INLINE_NO);
	n = inline_expander__run(x, in, 3, &out);
	T("a call chain's address: two inlined frames added", n == 5 && out != in);
	T("innermost first, then the real frame with its ELF symbol",
	  n == 5 && is(&out[1], "leaf_a", true, 0x1250) && is(&out[2], "mid_b", true, 0x1250) &&
	  is(&out[3], "outer_c", false, 0x1250));
	T("the frames around it keep their places",
	  n == 5 && is(&out[0], "run_rec", false, 0x1316) && is(&out[4], "run_rec", false, 0x1316));
	T("the input is unchanged", is(&in[1], "outer_c", false, 0x1250) && in[1].inline_mode);

	/* unwound: the real frame takes DWARF's outermost name */
	in[0] = native(0x1250, "elf_name", FRAME_INLINE_UNWOUND);
	n = inline_expander__run(x, in, 1, &out);
	T("unwound: the real frame named as addr2line names it",
	  n == 3 && is(&out[0], "leaf_a", true, 0x1250) && is(&out[2], "outer_c", false, 0x1250));
	in[0] = native(0x1250, "elf_name", FRAME_INLINE_CHAIN);
	n = inline_expander__run(x, in, 1, &out);
	T("in a call chain it keeps its ELF symbol", n == 3 && is(&out[2], "elf_name", false, 0x1250));

	/* the recursive inline: five names */
	in[0] = native(0x1316, "run_rec", FRAME_INLINE_CHAIN);
	n = inline_expander__run(x, in, 1, &out);
	T("0x1316: rec four times, then run_rec",
	  n == 5 && is(&out[0], "rec", true, 0x1316) && is(&out[3], "rec", true, 0x1316) &&
	  is(&out[4], "run_rec", false, 0x1316));

	/* at most max frames */
	small = inline_expander__new(false, 4);
	in[0] = native(0x1316, "run_rec", FRAME_INLINE_NO);
	in[1] = native(0x1250, "outer_c", FRAME_INLINE_CHAIN);
	in[2] = native(0x1316, "run_rec", FRAME_INLINE_NO);
	in[3] = native(0x1316, "run_rec", FRAME_INLINE_NO);
	in[4] = native(0x1316, "run_rec", FRAME_INLINE_NO);
	n = inline_expander__run(small, in, 2, &out);
	T("max 4: a frame whose three names fit is expanded", n == 4 && is(&out[1], "leaf_a", true, 0x1250));
	n = inline_expander__run(small, in, 5, &out);
	T("and the frames past the fourth are dropped",
	  n == 4 && is(&out[3], "outer_c", false, 0x1250));
	in[0] = native(0x1316, "run_rec", FRAME_INLINE_NO);
	in[1] = native(0x1316, "run_rec", FRAME_INLINE_NO);
	in[2] = native(0x1250, "outer_c", FRAME_INLINE_CHAIN);
	n = inline_expander__run(small, in, 3, &out);
	T("a frame whose names do not fit is left as it is",
	  n == 3 && is(&out[2], "outer_c", false, 0x1250));
	n = inline_expander__run(small, in, 5, &out);
	T("5 frames, none expanded: the first four", n == 4);

	inline_expander__delete(small);
	inline_expander__delete(x);
	free(path);
	return test_done();
}
