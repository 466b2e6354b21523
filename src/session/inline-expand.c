#include "common/common.h"
#include "session/inline-expand.h"
#include "resolve/inline.h"
#include "common/strpool.h"

struct inline_expander {
	struct strpool *pool;
	struct inline_cache *cache;
	size_t max;
	struct frame *v;        /* the frames handed out when any changed */
	size_t alloc;
};

struct inline_expander *inline_expander__new(bool demangle, size_t max)
{
	struct inline_expander *x = xcalloc(1, sizeof(*x));

	x->pool = strpool__new();
	x->cache = inline_cache__new(x->pool, demangle);
	x->max = max;
	return x;
}

void inline_expander__delete(struct inline_expander *x)
{
	if (!x)
		return;
	inline_cache__delete(x->cache);
	strpool__delete(x->pool);
	free(x->v);
	free(x);
}

/*
 * perf (6.1, 6.12) names the real frame of an unwound address after the
 * outermost function DWARF gives there, as binutils' addr2line -f -i
 * does (__libc_start_main_impl for __libc_start_main, __GI_getppid for an
 * assembly getppid), and jitsym follows it. In a recorded call chain perf
 * asks addr2line nothing: the real frame keeps its ELF symbol there, and
 * only the inlined functions are added.
 */
size_t inline_expander__run(struct inline_expander *x, const struct frame *in, size_t nr,
			    const struct frame **out)
{
	size_t i, nr_out = 0, k;
	bool copied = false;

	*out = in;
	for (i = 0; i < nr; i++) {
		const char *const *names;
		struct frame *f;
		size_t n;

		if (nr_out >= x->max)
			break;
		/* inline__lookup() is inlined: an unmarked or JIT frame costs a test or two */
		n = in[i].inline_mode ? inline__lookup(x->cache, &in[i], &names) : 0;
		if (!copied && (n > 1 || (n == 1 && in[i].inline_mode == FRAME_INLINE_UNWOUND &&
					  in[i].sym != names[0]))) {
			/* the first frame that changes: from here on, the frames are a copy */
			ALLOC_GROW(x->v, nr, x->alloc);
			memcpy(x->v, in, nr_out * sizeof(*in));
			copied = true;
		}
		if (!copied) {
			nr_out++;
			continue;
		}
		ALLOC_GROW(x->v, nr_out + 1, x->alloc);
		f = &x->v[nr_out++];
		*f = in[i];
		if (n == 1 && in[i].inline_mode == FRAME_INLINE_UNWOUND)
			f->sym = names[0];
		if (n < 2 || nr_out - 1 + n > x->max)
			continue;
		/* the real frame becomes n frames: the inlined functions, then itself */
		ALLOC_GROW(x->v, nr_out - 1 + n, x->alloc);
		for (k = 0; k < n; k++) {
			struct frame *g = &x->v[nr_out - 1 + k];

			*g = in[i];
			g->sym = k + 1 < n || in[i].inline_mode == FRAME_INLINE_UNWOUND ? names[k]
											    : in[i].sym;
			g->inlined = k + 1 < n;
		}
		nr_out += n - 1;
	}
	if (copied)
		*out = x->v;
	return nr_out;
}
