/*
 * jit: see jit.h.
 *
 * Code memory is never writable and executable at once: a region is
 * mapped (or carved) read-write, code is copied in, and mprotect() makes
 * it read+exec. That mprotect() is what perf sees: the kernel reports an
 * executable mapping whenever one appears or changes, as an MMAP2 record
 * named //anon covering the whole (possibly merged) mapping.
 */
#define _GNU_SOURCE
#include "jit.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "jitdump-writer.h"
#include "perfmap-writer.h"

typedef uint64_t (*mj_fn)(uint64_t);

static void vsay(const char *fmt, va_list ap)
{
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* One fprintf per line: parent and child share stderr. */
	fprintf(stderr, "minijit[%d]: %s\n", (int)getpid(), msg);
}

int mj_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
	return -1;
}

void mj_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay(fmt, ap);
	va_end(ap);
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t page_size(void)
{
	long page = sysconf(_SC_PAGESIZE);

	return page > 0 ? (size_t)page : 4096;
}

/* ---- the table and the writers ---- */

void mj_jit_init(struct mj_jit *j, const struct mj_opts *o)
{
	memset(j, 0, sizeof(*j));
	j->opts = o;
	pthread_mutex_init(&j->lock, NULL);
}

static int open_jitdump(struct mj_jit *j)
{
	char dir[PATH_MAX];

	if (!realpath(j->opts->dir, dir))
		return mj_error("cannot find '%s': %s", j->opts->dir, strerror(errno));
	j->jd = jd_writer_open(dir);
	if (!j->jd)
		return mj_error("cannot create a jitdump in '%s': %s", dir,
				strerror(errno));
	mj_say("jitdump %s", jd_writer_path(j->jd));
	return 0;
}

static int open_perfmap(struct mj_jit *j)
{
	char dir[PATH_MAX];

	if (!realpath(j->opts->perfmap_dir, dir))
		return mj_error("cannot find '%s': %s", j->opts->perfmap_dir,
				strerror(errno));
	j->pm = pm_writer_open(dir);
	if (!j->pm)
		return mj_error("cannot create a perf map in '%s': %s", dir,
				strerror(errno));
	mj_say("perfmap %s", pm_writer_path(j->pm));
	return 0;
}

int mj_jit_open(struct mj_jit *j)
{
	if ((j->opts->describe & MJ_DESCRIBE_JITDUMP) && open_jitdump(j))
		return -1;
	if ((j->opts->describe & MJ_DESCRIBE_PERFMAP) && open_perfmap(j))
		return -1;
	return 0;
}

int mj_jit_close(struct mj_jit *j)
{
	int err = jd_writer_close(j->jd);

	if (err)
		mj_error("cannot close the jitdump: %s", strerror(-err));
	pm_writer_close(j->pm);
	j->jd = NULL;
	j->pm = NULL;
	return err ? -1 : 0;
}

void mj_jit_forget(struct mj_jit *j)
{
	jd_writer_forget(j->jd);
	pm_writer_close(j->pm);
	j->jd = NULL;
	j->pm = NULL;
}

struct mj_func *mj_func_new(struct mj_jit *j, const char *name)
{
	struct mj_func *f = NULL;

	if (strlen(name) >= MJ_NAME_MAX) {
		mj_error("function name '%s' is too long", name);
		return NULL;
	}
	pthread_mutex_lock(&j->lock);
	if (j->nfuncs < MJ_MAX_FUNCS)
		f = &j->funcs[j->nfuncs++];
	pthread_mutex_unlock(&j->lock);
	if (!f) {
		mj_error("more than %d functions", MJ_MAX_FUNCS);
		return NULL;
	}
	memset(f, 0, sizeof(*f));
	memcpy(f->name, name, strlen(name) + 1);
	f->owner = getpid();
	f->tid = gettid();
	f->state = MJ_LOADED;
	return f;
}

/* ---- generating code ---- */

static int code_done(struct mj_code *c, const struct x86buf *b, int err)
{
	if (err)
		return mj_error("cannot generate code: %s", strerror(-err));
	c->len = b->len;
	return 0;
}

int mj_code_leaf(struct mj_code *c, const struct x86_leaf *spec)
{
	struct x86buf b;

	x86buf_init(&b, c->bytes, sizeof(c->bytes));
	return code_done(c, &b, x86_emit_leaf(&b, spec));
}

int mj_code_caller(struct mj_code *c, const struct x86_caller *spec)
{
	struct x86buf b;

	x86buf_init(&b, c->bytes, sizeof(c->bytes));
	return code_done(c, &b, x86_emit_caller(&b, spec));
}

/* ---- regions ---- */

static size_t round_to_pages(size_t n)
{
	size_t page = page_size();

	return (n + page - 1) / page * page;
}

int mj_region_map(struct mj_region *r, size_t size)
{
	size_t page = page_size();

	memset(r, 0, sizeof(*r));
	r->size = round_to_pages(size);
	r->map_len = r->size + 2 * page;
	r->map = mmap(NULL, r->map_len, PROT_NONE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		return mj_error("cannot map %zu bytes: %s", r->map_len, strerror(errno));
	}
	r->base = r->map + page;
	return mj_region_write(r);
}

int mj_region_carve(struct mj_region *r, uint8_t *base, size_t size)
{
	memset(r, 0, sizeof(*r));
	r->base = base;
	r->size = round_to_pages(size);
	return mj_region_write(r);
}

static int region_protect(struct mj_region *r, int prot, const char *what)
{
	if (mprotect(r->base, r->size, prot))
		return mj_error("cannot make %p..%p %s: %s", (void *)r->base,
				(void *)(r->base + r->size), what, strerror(errno));
	return 0;
}

int mj_region_write(struct mj_region *r)
{
	return region_protect(r, PROT_READ | PROT_WRITE, "writable");
}

int mj_region_exec(struct mj_region *r)
{
	return region_protect(r, PROT_READ | PROT_EXEC, "executable");
}

void mj_region_unmap(struct mj_region *r)
{
	if (r->map)
		munmap(r->map, r->map_len);
	memset(r, 0, sizeof(*r));
}

int mj_place(struct mj_region *r, struct mj_func *f, const struct mj_code *c)
{
	size_t at = (r->used + MJ_CODE_ALIGN - 1) / MJ_CODE_ALIGN * MJ_CODE_ALIGN;

	if (at > r->size || c->len > r->size - at)
		return mj_error("no room for '%s' in %p..%p", f->name,
				(void *)r->base, (void *)(r->base + r->size));
	/* int3 between functions: a stray jump traps instead of sliding on */
	memset(r->base + r->used, 0xcc, at - r->used);
	mj_place_at((uint64_t)(uintptr_t)(r->base + at), f, c);
	r->used = at + c->len;
	return 0;
}

void mj_place_at(uint64_t addr, struct mj_func *f, const struct mj_code *c)
{
	memcpy((void *)(uintptr_t)addr, c->bytes, c->len);
	f->entry = addr;
	f->size = c->len;
}

/* ---- describing ---- */

/* JIT_CODE_DEBUG_INFO: line N of "minijit/NAME.mj" for each 16 bytes of code. */
static int publish_lines(struct mj_jit *j, const struct mj_func *f)
{
	struct jd_line lines[MJ_CODE_MAX / 16];
	const char *base = f->name;
	char file[MJ_NAME_MAX + 16];
	size_t i, n = (size_t)(f->size + 15) / 16;
	int err;

	if (!strncmp(base, "mj:", 3))
		base += 3;
	snprintf(file, sizeof(file), "minijit/%s.mj", base);
	for (i = 0; i < n && i < sizeof(lines) / sizeof(lines[0]); i++) {
		lines[i].addr = f->entry + 16 * i;
		lines[i].line = (uint32_t)i + 1;
		lines[i].discrim = 0;
		lines[i].file = file;
	}
	err = jd_writer_debug_info(j->jd, f->entry, lines, i);
	if (err)
		return mj_error("cannot write '%s': %s", jd_writer_path(j->jd),
				strerror(-err));
	return 0;
}

/* Describe F in the writers named by WHERE (enum mj_describe bits) that are open. */
static int publish(struct mj_jit *j, struct mj_func *f, unsigned int where, int cut)
{
	const void *code = (const void *)(uintptr_t)f->entry;
	int err;

	if (j->jd && (where & MJ_DESCRIBE_JITDUMP)) {
		if (j->opts->debug_info && publish_lines(j, f))
			return -1;
		err = (cut ? jd_writer_load_cut : jd_writer_load)(j->jd, f->name,
				f->entry, code, f->size, &f->index);
		if (err)
			return mj_error("cannot write '%s': %s",
					jd_writer_path(j->jd), strerror(-err));
	}
	if (j->pm && (where & MJ_DESCRIBE_PERFMAP)) {
		err = (cut ? pm_writer_add_cut : pm_writer_add)(j->pm, f->entry,
				f->size, f->name);
		if (err)
			return mj_error("cannot write '%s': %s",
					pm_writer_path(j->pm), strerror(-err));
	}
	return 0;
}

int mj_publish(struct mj_jit *j, struct mj_func *f)
{
	return publish(j, f, MJ_DESCRIBE_JITDUMP | MJ_DESCRIBE_PERFMAP, 0);
}

int mj_publish_only(struct mj_jit *j, struct mj_func *f, unsigned int where)
{
	return publish(j, f, where, 0);
}

int mj_publish_cut(struct mj_jit *j, struct mj_func *f)
{
	f->state = MJ_CUT;
	j->cut = true;
	return publish(j, f, MJ_DESCRIBE_JITDUMP | MJ_DESCRIBE_PERFMAP, 1);
}

int mj_publish_move(struct mj_jit *j, struct mj_func *f)
{
	int err;

	if (j->jd) {
		err = jd_writer_move(j->jd, f->index, f->old_entry, f->entry, f->size);
		if (err)
			return mj_error("cannot write '%s': %s",
					jd_writer_path(j->jd), strerror(-err));
	}
	/* A perf map cannot say "moved": the same name at a second address. */
	if (j->pm) {
		err = pm_writer_add(j->pm, f->entry, f->size, f->name);
		if (err)
			return mj_error("cannot write '%s': %s",
					pm_writer_path(j->pm), strerror(-err));
	}
	return 0;
}

/* ---- running ---- */

uint64_t mj_call(const struct mj_func *f, uint64_t x)
{
	mj_fn fn = (mj_fn)(uintptr_t)f->entry;

	return fn(x);
}

/* noinline: "mj_run_for" is the native frame right below the JIT frames. */
MJ_NOINLINE unsigned long mj_run_for(struct mj_func *const *fs, size_t n,
				  double seconds)
{
	double deadline = now_sec() + seconds;
	unsigned long calls = 0;
	uint64_t x = 1;

	do {
		x = mj_call(fs[calls % n], x);
		calls++;
	} while (now_sec() < deadline);
	return calls;
}

/* ---- summary ---- */

static const char *const state_names[] = {
	[MJ_LOADED] = "loaded",
	[MJ_MOVED] = "moved",
	[MJ_UNLOADED] = "unloaded",
	[MJ_REUSED] = "reused",
	[MJ_CUT] = "cut",
	[MJ_INHERITED] = "inherited",
};

static void state_detail(const struct mj_func *f, char *buf, size_t len)
{
	buf[0] = '\0';
	if (f->state == MJ_MOVED)
		snprintf(buf, len, " from=0x%" PRIx64, f->old_entry);
	else if (f->state == MJ_UNLOADED && f->peer)
		snprintf(buf, len, " by=%s", f->peer->name);
	else if (f->state == MJ_REUSED && f->peer)
		snprintf(buf, len, " replaces=%s", f->peer->name);
	else if (f->state == MJ_INHERITED)
		snprintf(buf, len, " owner=%d", (int)f->owner);
}

void mj_print_funcs(const struct mj_jit *j)
{
	char detail[MJ_NAME_MAX + 16];
	size_t i;

	for (i = 0; i < j->nfuncs; i++) {
		const struct mj_func *f = &j->funcs[i];

		state_detail(f, detail, sizeof(detail));
		mj_say("func %s 0x%" PRIx64 "-0x%" PRIx64 " size=%" PRIu64
		       " index=%" PRIu64 " tid=%d state=%s%s", f->name, f->entry,
		       f->entry + f->size, f->size, f->index, (int)f->tid,
		       state_names[f->state], detail);
	}
}
