#include "common/common.h"
#include "timeline/jit-loader.h"
#include "timeline/machine.h"

/* Each defined in its src/jit-loader-NAME.c. */
extern const struct jit_loader jit_loader_jitdump;
extern const struct jit_loader jit_loader_perfmap;

/* The timed formats first: sources lists what beats what. */
const struct jit_loader *const jit_loaders[] = {
	&jit_loader_jitdump,
	&jit_loader_perfmap,
	NULL,
};

const struct jit_loader *jit_loader__for_marker(const char *path)
{
	const struct jit_loader *const *l;

	for (l = jit_loaders; *l; l++)
		if ((*l)->kind == JIT_TIMED && (*l)->is_marker(path))
			return *l;
	return NULL;
}

bool jit_loader__map_marker(struct map *m)
{
	if (m->jit_marker < 0)
		m->jit_marker = jit_loader__for_marker(m->filename) != NULL;
	return m->jit_marker;
}
