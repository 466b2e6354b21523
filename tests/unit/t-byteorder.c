/*
 * t-byteorder: every form of one recording prints the same.
 *
 * The golden cases compare some forms (synth-modes: swap, pipe, compress
 * and pairs of them; jit-swapped: a swapped jitdump with six perf.data
 * forms). Here each spec is written by $MKPERF in all eight combinations
 * of --swap, --pipe and --compress, and its jitdumps by $MKJITDUMP in both
 * byte orders, so that a swapped, compressed pipe-mode recording with a
 * native jitdump is covered as well as the rest. Each form is written to
 * the same path, and script, fold --include-tid (and sources, with a
 * jitdump) must give the native file-mode form's exit status, output and
 * messages byte for byte.
 */
#include "common/common.h"
#include "command/cmds.h"

#include <sys/stat.h>

#include "test.h"
#include "test-files.h"
#include "test-run.h"

struct bo_case {
	const char *dir;
	const char *spec;         /* for the native forms */
	const char *swap_spec;    /* for --swap (byte-swapped payloads), or NULL: spec */
	const char *pipe_spec;    /* for --pipe, or NULL: spec */
	const char *jdspec, *dump;
	bool no_pipe_swap;        /* no spec for --pipe --swap */
};

static const struct bo_case cases[] = {
	{ "synth-modes", "native.spec", NULL, NULL, NULL, NULL, false },
	{ "synth-fields", "exotic.spec", NULL, NULL, NULL, NULL, false },
	{ "jit-swapped", "swapped.spec", NULL, NULL, "jit-5000013.jdspec", "jit-5000013.dump", false },
	{ "jit-mixed", "mixed.spec", NULL, NULL, "jit-5000006.jdspec", "jit-5000006.dump", false },
	/* tracing data and payloads are in the writer's byte order: own specs */
	{ "synth-tracepoint", "tp.spec", "tp-be.spec", "tp-pipe.spec", NULL, NULL, true },
};

static const char *srcdir;

struct outputs {
	struct run r[3];
};

static void run_all(struct outputs *o, const struct bo_case *c, const char *dir)
{
	static const char *const names[] = { "script", "fold", "sources" };
	static const run_cmd_fn fns[] = { cmd_script, cmd_fold, cmd_sources };
	char *src = xasprintf("%s/tests/golden/%s", srcdir, c->dir);
	char *kallsyms = xasprintf("%s/kallsyms", src), *maps = xasprintf("%s/maps", src);
	char *data = xasprintf("%s/x.data", dir);
	const char *args[16];
	size_t i, n = 0;

	args[n++] = "--kallsyms";
	args[n++] = access(kallsyms, R_OK) ? "/dev/null" : kallsyms;
	args[n++] = "--symfs";
	args[n++] = src;
	args[n++] = "--buildid-dir";
	args[n++] = src;
	if (!access(maps, R_OK)) {
		args[n++] = "--perfmap-dir";
		args[n++] = maps;
	}
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		size_t k = n;

		if (i == 1)
			args[k++] = "--include-tid";
		args[k++] = data;
		args[k] = NULL;
		if (i == 2 && !c->jdspec) {
			memset(&o->r[i], 0, sizeof(o->r[i]));
			o->r[i].out = xstrdup("");
			o->r[i].msgs = xstrdup("");
			o->r[i].err = xstrdup("");
			continue;
		}
		run_cmd(&o->r[i], fns[i], names[i], args, 30);
	}
	free(data);
	free(maps);
	free(kallsyms);
	free(src);
}

static void release_all(struct outputs *o)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(o->r); i++)
		run_release(&o->r[i]);
}

static bool same(const struct outputs *a, const struct outputs *b)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(a->r); i++)
		if (a->r[i].exit_code != b->r[i].exit_code || a->r[i].sig || b->r[i].sig ||
		    a->r[i].err[0] || b->r[i].err[0] || a->r[i].out_len != b->r[i].out_len ||
		    memcmp(a->r[i].out, b->r[i].out, a->r[i].out_len) ||
		    strcmp(a->r[i].msgs, b->r[i].msgs))
			return false;
	return true;
}

static void write_forms(const struct bo_case *c, const char *dir, unsigned int form,
			bool jd_swap)
{
	bool swap = form & 1, pipe = form & 2, compress = form & 4;
	const char *spec = swap && c->swap_spec ? c->swap_spec :
			   pipe && c->pipe_spec ? c->pipe_spec : c->spec;

	if (sh("'%s' %s %s %s '%s/tests/golden/%s/%s' '%s/x.data'", getenv("MKPERF"),
	       swap ? "--swap" : "", pipe ? "--pipe" : "", compress ? "--compress" : "",
	       srcdir, c->dir, spec, dir))
		die("%s: mkperf failed", c->dir);
	if (c->jdspec && sh("'%s' %s '%s/tests/golden/%s/%s' '%s/%s'", getenv("MKJITDUMP"),
			    jd_swap ? "--swap" : "", srcdir, c->dir, c->jdspec, dir, c->dump))
		die("%s: mkjitdump failed", c->dir);
}

static void test_case(const struct bo_case *c, const char *dir)
{
	struct outputs ref, got;
	unsigned int form, jd;

	write_forms(c, dir, 0, false);
	run_all(&ref, c, dir);
	T(c->dir, ref.r[0].exit_code == EXIT_OK && ref.r[0].out_len > 0 && !ref.r[0].err[0]);
	for (jd = 0; jd < (c->jdspec ? 2u : 1u); jd++) {
		for (form = 0; form < 8; form++) {
			if (!form && !jd)
				continue;
			if (c->no_pipe_swap && (form & 3) == 3)
				continue;
			write_forms(c, dir, form, jd);
			run_all(&got, c, dir);
			{
				char name[256];

				snprintf(name, sizeof(name), "%s: perf.data%s%s%s%s%s: same output",
					 c->dir, form & 1 ? " --swap" : "", form & 2 ? " --pipe" : "",
					 form & 4 ? " --compress" : "", !form ? " native" : "",
					 c->jdspec ? jd ? ", jitdump --swap" : ", jitdump native" : "");
				T(name, same(&ref, &got));
			}
			release_all(&got);
		}
	}
	release_all(&ref);
}

int main(void)
{
	size_t i;

	srcdir = getenv("abs_top_srcdir");
	if (!srcdir || !getenv("MKPERF") || !getenv("MKJITDUMP")) {
		printf("# abs_top_srcdir, MKPERF and MKJITDUMP must be set (tests/setup.sh)\n");
		return 99;
	}
	tmpdir_create("t-byteorder", "T_BYTEORDER_KEEP");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char *dir = xasprintf("%s/%zu", tmpdir, i);

		if (mkdir(dir, 0755))
			die("cannot create '%s'", dir);
		test_case(&cases[i], dir);
		free(dir);
	}
	return test_done();
}
