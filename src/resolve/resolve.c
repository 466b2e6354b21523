#include "common/common.h"
#include "resolve/resolve.h"
#include "common/callsite.h"
#include "resolve/dso.h"
#include "resolve/dso-locate.h"
#include "timeline/jit-loader.h"
#include "timeline/jitmap.h"
#include "resolve/kernel.h"
#include "resolve/vmlinux.h"
#include "timeline/machine.h"
#include "reader/perfdata.h"
#include "common/strpool.h"

#include <perf/event.h>
#include <unistd.h>
#include <uthash.h>

/*
 * Direct-mapped cache of resolved frames, 2^12 slots at first, four times
 * as many (up to 2^16) each time it has been filled twice over: a short
 * recording does not pay for writing 9 MB it never uses (17% of a small
 * --call-graph dwarf recording's first thread), a long one soon has them.
 */
#define FRAME_CACHE_BITS_MIN 12
#define FRAME_CACHE_BITS_MAX 16

struct frame_slot {
	const void *space;      /* proc (or kernel) the address belongs to */
	uint64_t key;           /* ip << 1 | caller: without ip's top bit, which frame.ip has */
	uint64_t gen;
	struct frame frame;
};

/*
 * Whether a call ends at an address of an ELF file costs a pread() of the
 * bytes before it; the frame cache keeps the answer with the frame, but
 * frames it has dropped come back (node-large: 0.8 M ELF re-resolutions,
 * 3% of fold in pread). A direct-mapped cache of the answers by (DSO,
 * address) saves the system call.
 */
#define CALL_CACHE_BITS_MIN 11
#define CALL_CACHE_BITS_MAX 15

struct call_answer {
	const struct dso *dso;      /* NULL: empty */
	uint64_t addr;
	int answer;                 /* dso__call_ends_at()'s */
};

struct bid_entry {
	const char *filename;   /* interned: key by pointer */
	const struct pd_build_id *bid;
	UT_hash_handle hh;
};

/*
 * The view of a file without a DSO behind its frames: the kernel's and its
 * modules' (by the name pprof maps them under), a mapping that is no ELF
 * file. Its build id is the header's alone.
 */
struct name_view {
	const char *name;       /* interned: key by pointer, with kernel */
	bool kernel;
	struct obj_view view;
	uint8_t id[OBJ_BUILD_ID_MAX];
	UT_hash_handle hh;
};

struct resolver {
	struct machine *machine;
	const struct pd_info *info; /* the header, its build ids as they grow (pipe mode) */
	struct name_view *kernel_views, *user_views;
	struct jitmap *jitmap;
	struct strpool *pool;
	struct dso_cache *dsos;
	struct kernel_syms *ksyms;
	struct vmlinux *vmlinux;    /* --vmlinux, or NULL */
	const char *vmlinux_path;   /* as the DSO cache takes it, interned */
	struct bid_entry *bids;
	struct frame_slot *cache;
	struct call_answer *calls;
	unsigned cache_bits, calls_bits;
	size_t cache_fills, calls_fills;    /* since the cache was made */
	const char *s_unknown, *s_kernel;
	struct dso_recording rec;   /* for [vdso]: the DSO cache borrows it */
};

static void index_build_ids(struct resolver *r, const struct pd_info *info)
{
	size_t i;

	for (i = 0; i < info->nr_build_ids; i++) {
		const struct pd_build_id *b = &info->build_ids[i];
		const char *fn = strpool__intern(r->pool, b->filename);
		struct bid_entry *e;

		HASH_FIND_PTR(r->bids, &fn, e);
		if (e)
			continue;
		e = xmalloc(sizeof(*e));
		e->filename = fn;
		e->bid = b;
		HASH_ADD_PTR(r->bids, filename, e);
	}
}

static const struct pd_build_id *kernel_build_id(const struct pd_info *info)
{
	size_t i;

	for (i = 0; i < info->nr_build_ids; i++)
		if (info->build_ids[i].cpumode == PERF_RECORD_MISC_KERNEL &&
		    !strcmp(info->build_ids[i].filename, KSYM_DSO_KERNEL))
			return &info->build_ids[i];
	return NULL;
}

/*
 * The header's build id for the file name (kernel: of cpumode kernel, else
 * of the others) as the header has it now: in pipe mode its records come
 * as the recording goes. NULL when it has none or one too long.
 */
static const struct pd_build_id *header_build_id(const struct resolver *r, const char *name,
						 bool kernel)
{
	size_t i;

	for (i = 0; i < r->info->nr_build_ids; i++) {
		const struct pd_build_id *id = &r->info->build_ids[i];

		if (!strcmp(id->filename, name) && (id->cpumode == PERF_RECORD_MISC_KERNEL) == kernel)
			return id->size <= sizeof(id->id) && id->size <= OBJ_BUILD_ID_MAX ? id : NULL;
	}
	return NULL;
}

/*
 * The view of an ELF file's frames: the DSO's, its build id the DSO's
 * (dso.h), else, when it has none, the header's as it is when the file is
 * first met.
 */
static const struct obj_view *elf_view(struct resolver *r, struct dso *d)
{
	const struct pd_build_id *h = NULL;

	if (!dso__has_view(d) && !dso__build_id(d, NULL))
		h = header_build_id(r, dso__path(d), false);
	return dso__view(d, h ? h->id : NULL, h ? h->size : 0);
}

/* The entry of file name (interned) without a DSO, made when first met. */
static struct name_view *name_view_entry(struct resolver *r, const char *name, bool kernel)
{
	struct name_view **views = kernel ? &r->kernel_views : &r->user_views, *v;
	const struct pd_build_id *h;

	HASH_FIND_PTR(*views, &name, v);
	if (v)
		return v;
	v = xcalloc(1, sizeof(*v));
	v->name = name;
	v->kernel = kernel;
	v->view.path = name;
	h = header_build_id(r, name, kernel);
	if (h && h->size) {
		memcpy(v->id, h->id, h->size);
		v->view.build_id = v->id;
		v->view.build_id_size = h->size;
	}
	HASH_ADD_PTR(*views, name, v);
	return v;
}

/* The view of file name (interned) without a DSO, made when first met. */
static const struct obj_view *name_view(struct resolver *r, const char *name, bool kernel)
{
	return &name_view_entry(r, name, kernel)->view;
}

static void name_views__delete(struct name_view **views)
{
	struct name_view *v, *tmp;

	HASH_ITER(hh, *views, v, tmp) {
		HASH_DEL(*views, v);
		free(v);
	}
}

static void load_kernel(struct resolver *r, const struct resolve_opts *opts,
			const struct pd_info *info)
{
	const struct pd_build_id *kb = kernel_build_id(info);
	char *path = kernel__kallsyms_path(opts->kallsyms, info->osrelease,
					   kb ? kb->id : NULL, kb ? kb->size : 0);

	if (!path)
		return;
	r->ksyms = kernel_syms__new(path, r->pool);   /* read at the first kernel frame */
	free(path);
}

/*
 * The --vmlinux path as the DSO cache takes it (recorded paths, put
 * under --symfs there): as perf takes it, a relative one is under the
 * symfs if there is one, else the current directory's. *host: where
 * that is here (under the symfs). Both interned.
 */
static const char *vmlinux_path(const struct resolve_opts *opts, struct strpool *pool,
				const char **host)
{
	bool symfs = opts->symfs && opts->symfs[0];
	const char *path = opts->vmlinux;
	char cwd[4096];
	char *s;

	if (path[0] == '/')
		s = xstrdup(path);
	else if (symfs)
		s = xasprintf("/%s", path);
	else if (getcwd(cwd, sizeof(cwd)))
		s = xasprintf("%s/%s", cwd, path);
	else
		s = xstrdup(path);
	path = strpool__intern(pool, s);
	free(s);
	if (!symfs) {
		*host = path;
		return path;
	}
	s = xasprintf("%s%s", opts->symfs, path);
	*host = strpool__intern(pool, s);
	free(s);
	return path;
}

struct resolver *resolver__new(const struct resolve_opts *opts, struct machine *m,
			       struct jitmap *jm, struct strpool *pool,
			       const struct pd_info *info)
{
	struct resolver *r = xcalloc(1, sizeof(*r));
	const char *host;
	struct dso_opts dopts = {
		.symfs = opts->symfs,
		.buildid_dir = opts->buildid_dir,
		.demangle = opts->demangle,
		.rec = &r->rec,
		.debuginfod = opts->debuginfod,
	};

	r->machine = m;
	r->info = info;
	r->jitmap = jm;
	r->pool = pool;
	r->rec.osrelease = info->osrelease;
	r->rec.hostname = info->hostname;
	r->rec.pipe_mode = info->pipe_mode;
	r->rec.compressed = info->compressed;
	r->rec.has_build_ids = info->nr_build_ids > 0;
	r->dsos = dso_cache__new(&dopts, pool);
	r->cache_bits = FRAME_CACHE_BITS_MIN;
	r->cache = xcalloc_written((size_t)1 << r->cache_bits, sizeof(*r->cache));
	r->calls_bits = CALL_CACHE_BITS_MIN;
	r->calls = xcalloc_written((size_t)1 << r->calls_bits, sizeof(*r->calls));
	r->s_unknown = strpool__intern(pool, UNKNOWN_LABEL);
	r->s_kernel = strpool__intern(pool, KSYM_DSO_KERNEL);
	index_build_ids(r, info);
	load_kernel(r, opts, info);
	if (opts->vmlinux) {
		r->vmlinux_path = vmlinux_path(opts, pool, &host);
		r->vmlinux = vmlinux__new(opts->vmlinux, host);
	}
	return r;
}

void resolver__delete(struct resolver *r)
{
	struct bid_entry *e, *tmp;

	if (!r)
		return;
	HASH_ITER(hh, r->bids, e, tmp) {
		HASH_DEL(r->bids, e);
		free(e);
	}
	name_views__delete(&r->kernel_views);
	name_views__delete(&r->user_views);
	dso_cache__delete(r->dsos);
	kernel_syms__delete(r->ksyms);
	vmlinux__delete(r->vmlinux);
	free(r->cache);
	free(r->calls);
	free(r);
}

void resolver__invalidate(struct resolver *r, uint32_t pid)
{
	machine__changed(r->machine, pid);
}

/* __pfx_X: the padding the compiler puts before X for call thunks, no code of its own */
static bool is_padding(const char *name)
{
	return !strncmp(name, "__pfx_", 6);
}

/*
 * A caller's kernel symbol: at ip - 1 (there are no code bytes to tell an
 * interrupted ip from a return address), except that ip - 1 in __pfx_X
 * with ip X's first byte is X itself: padding ends in no call.
 */
static const struct ksym *kernel_caller(struct resolver *r, uint64_t ip, struct frame *f)
{
	const struct ksym *s = kernel_syms__find(r->ksyms, ip - 1), *at;

	f->at_call = true;
	if (!s || !is_padding(s->name))
		return s;
	at = kernel_syms__find(r->ksyms, ip);
	if (!at || at->start != ip)
		return s;
	f->at_call = false;
	return at;
}

/* What f says of the MMAP record its ip is in, m. */
static void frame_map(const struct map *m, struct frame *f)
{
	f->map.present = true;
	f->map.anon = m->anon;
	f->map.start = m->start;
	f->map.len = m->len;
	f->map.pgoff = m->pgoff;
}

static void kernel_frame(struct resolver *r, uint64_t ip, bool caller, struct frame *f)
{
	bool loaded = r->ksyms && kernel_syms__usable(r->ksyms);
	const struct ksym *s = NULL;
	struct map_hit hit;

	f->at_call = caller;
	if (loaded)
		s = caller ? kernel_caller(r, ip, f) : kernel_syms__find(r->ksyms, ip);
	f->kind = FRAME_KERNEL;
	f->print_addr = ip;
	if (proc__find_map(machine__kernel(r->machine), ip, &hit))
		frame_map(hit.map, f);
	/* like perf: a miss among loaded kernel symbols has no DSO */
	f->dso = loaded ? r->s_unknown : r->s_kernel;
	if (!s)
		return;
	f->sym = s->name;
	f->symoff = ip - s->start;
	f->dso = strpool__intern(r->pool, ksym__dso_name(s));
}

static const struct symbol *elf_symbol(struct dso *d, uint64_t addr, uint64_t *look);

/*
 * The vmlinux, decided at the first kernel frame (the kernel MMAP and the
 * header's build ids are known then): NULL when none is given or it was
 * refused. Its frames' view is the kernel's ([kernel.kallsyms], made then),
 * given its files for DWARF; frames kallsyms names there have no elf_addr.
 */
static struct vmlinux *vmlinux_ready(struct resolver *r)
{
	const struct pd_build_id *h;
	struct dso *d;

	if (!r->vmlinux)
		return NULL;
	if (!vmlinux__decided(r->vmlinux)) {
		h = header_build_id(r, KSYM_DSO_KERNEL, true);
		d = dso_cache__findnew(r->dsos, r->vmlinux_path, NULL, 0);
		/* before any frame has the kernel's view: it is filled once */
		if (vmlinux__decide(r->vmlinux, d, h ? h->id : NULL, h ? h->size : 0,
				    machine__kernel_text(r->machine))) {
			struct obj_view *kv = &name_view_entry(r, r->s_kernel, true)->view;

			kv->file = dso__file(d);
			kv->symfile = dso__symfile(d);
			if (!kv->build_id)
				kv->build_id = dso__build_id(d, &kv->build_id_size);
		}
	}
	return vmlinux__used(r->vmlinux) ? r->vmlinux : NULL;
}

/*
 * A core kernel frame named from the vmlinux (--vmlinux): its symbol at
 * the un-slid address (a caller's at its call, as kernel_caller()), and
 * that address as elf_addr, for its DWARF. false when ip is not the
 * vmlinux's (a module's: kallsyms names it).
 */
static bool vmlinux_frame(struct resolver *r, uint64_t ip, bool caller, struct frame *f)
{
	struct vmlinux *v = vmlinux_ready(r);
	const struct symbol *s;
	uint64_t addr, look;
	struct map_hit hit;

	if (!v || !vmlinux__covers(v, ip))
		return false;
	addr = vmlinux__unslide(v, ip);
	look = caller ? addr - 1 : addr;
	s = elf_symbol(vmlinux__dso(v), addr, &look);
	f->kind = FRAME_KERNEL;
	f->print_addr = ip;
	f->at_call = look != addr;
	f->elf_addr = look;
	if (proc__find_map(machine__kernel(r->machine), ip, &hit))
		frame_map(hit.map, f);
	f->obj = name_view(r, r->s_kernel, true);
	/* like perf, and kernel_frame(): a miss among loaded kernel symbols has no DSO */
	f->dso = r->s_unknown;
	if (s) {
		f->sym = s->name;
		f->symoff = addr - s->start;
		f->dso = r->s_kernel;
	}
	return true;
}

/*
 * A kernel frame, its view the file's pprof maps it under: its module's,
 * else the kernel's (an address no kernel symbol covers is still the
 * kernel's).
 */
static void resolve_kernel(struct resolver *r, uint64_t ip, bool caller, struct frame *f)
{
	const char *name;

	if (vmlinux_frame(r, ip, caller, f))
		return;
	kernel_frame(r, ip, caller, f);
	name = f->dso[0] == '[' && f->dso != r->s_unknown ? f->dso : r->s_kernel;
	f->obj = name_view(r, name, true);
}

const struct ksym *resolver__kernel_symbol(struct resolver *r, uint64_t addr)
{
	return r->ksyms ? kernel_syms__find(r->ksyms, addr) : NULL;
}

static struct dso *map_dso(struct resolver *r, struct map *map)
{
	const uint8_t *bid = NULL;
	size_t bid_size = 0;

	if (map->dso)
		return map->dso;
	if (map->build_id_size) {
		bid = map->build_id;
		bid_size = map->build_id_size;
	} else {
		struct bid_entry *e;

		HASH_FIND_PTR(r->bids, &map->filename, e);
		if (e) {
			bid = e->bid->id;
			bid_size = e->bid->size;
		}
	}
	/* --buildid-mmap, for a [vdso]'s warning: the records so far say */
	r->rec.mmap_build_ids = machine__mmap_build_ids(r->machine);
	map->dso = dso_cache__findnew(r->dsos, map->filename, bid, bid_size);
	return map->dso;
}

struct dso *resolver__map_dso(struct resolver *r, struct map *map)
{
	return map_dso(r, map);
}

const char *resolver__vmlinux_status(const struct resolver *r)
{
	return r->vmlinux ? vmlinux__status(r->vmlinux) : NULL;
}

/* A JIT function's frame: its loader's kind says whether it came from timed entries. */
static void jit_frame(const struct jit_sym *js, uint64_t ip, struct frame *f)
{
	if (!js)
		return;
	f->kind = js->loader->kind == JIT_TIMED ? FRAME_JIT : FRAME_PERFMAP;
	f->jit = js;
	f->code_start = js->start;
	f->code_size = js->size;
	f->sym = js->name;
	f->symoff = ip - js->start;
	f->dso = js->source;
}

/*
 * The symbol of DSO address addr, looked up at look (addr or addr - 1):
 * never a __pfx_ padding symbol when addr is the first byte of the
 * function after it. *look becomes where it was found.
 */
static const struct symbol *elf_symbol(struct dso *d, uint64_t addr, uint64_t *look)
{
	const struct symbol *s = dso__find_symbol(d, *look), *at;

	if (!s || *look == addr || !is_padding(s->name))
		return s;
	at = dso__find_symbol(d, addr);
	if (!at || at->start != addr)
		return s;
	*look = addr;
	return at;
}

static bool resolve_elf(struct resolver *r, const struct map_hit *hit, uint64_t ip,
			bool at_call, struct frame *f)
{
	struct dso *d = map_dso(r, hit->map);
	uint64_t addr = dso__map_ip(d, hit->start, hit->pgoff, ip);
	uint64_t look = at_call ? addr - 1 : addr;
	const struct symbol *s = elf_symbol(d, addr, &look);

	if (!s)
		return false;
	f->kind = FRAME_NATIVE;
	f->sym = s->name;
	f->symoff = addr - s->start;
	f->obj = elf_view(r, d);
	f->elf_addr = look;
	f->at_call = look != addr;
	return true;
}

/*
 * One more fill of a cache of 2^*bits slots of size bytes: filled twice
 * over since it was made, it grows four times (up to 2^max), and this
 * returns it made anew, empty (cache freed); else NULL.
 */
static void *cache_grow(void *cache, unsigned *bits, size_t *fills, unsigned max, size_t size)
{
	if (++*fills <= (size_t)2 << *bits || *bits >= max)
		return NULL;
	*bits = *bits + 2 < max ? *bits + 2 : max;
	*fills = 0;
	free(cache);
	return xcalloc_written((size_t)1 << *bits, size);
}

/* dso__call_ends_at(d, addr), through the cache of answers. */
static int elf_call_ends_at(struct resolver *r, struct dso *d, uint64_t addr)
{
	uint64_t h = (addr ^ (uintptr_t)d) * 0x9E3779B97F4A7C15ULL;
	struct call_answer *c = &r->calls[h >> (64 - r->calls_bits)];
	struct call_answer *grown;
	int answer;

	if (c->dso == d && c->addr == addr)
		return c->answer;
	answer = dso__call_ends_at(d, addr);
	grown = cache_grow(r->calls, &r->calls_bits, &r->calls_fills, CALL_CACHE_BITS_MAX,
			   sizeof(*r->calls));
	if (grown) {
		r->calls = grown;
		return answer;
	}
	c->dso = d;
	c->addr = addr;
	c->answer = answer;
	return answer;
}

/* A timed JIT lookup already made for a frame, to be reused. */
struct jit_probe {
	bool done;
	uint64_t ip;
	const struct jit_sym *js;
};

/* The timed JIT code at ip, through what probe already knows. */
static const struct jit_sym *timed_at(struct resolver *r, uint32_t pid, uint64_t ip,
				      const struct jit_probe *probe)
{
	if (probe && probe->done && probe->ip == ip)
		return probe->js;
	return jitmap__find(r->jitmap, pid, ip, false);
}

/*
 * Whether a caller's ip is a return address, by the code bytes before it:
 * the mapped file's, else the bytes of the JIT code at ip - 1 (a
 * jitdump's); without bytes it is taken for one, as it usually is. The
 * JIT lookup at ip - 1, when made, is left in probe (may be NULL).
 */
static bool returns_here(struct resolver *r, uint32_t pid, const struct map_hit *hit,
			 bool elf, uint64_t ip, struct jit_probe *probe)
{
	const struct jit_sym *js;

	if (elf) {
		struct dso *d = map_dso(r, hit->map);
		int v = elf_call_ends_at(r, d, dso__map_ip(d, hit->start, hit->pgoff, ip));

		if (v >= 0)
			return v;
	}
	if (!r->jitmap)
		return true;
	js = jitmap__find(r->jitmap, pid, ip - 1, false);
	if (probe) {
		probe->done = true;
		probe->ip = ip - 1;
		probe->js = js;
	}
	return !js || jitmap__call_ends_at(js, ip - js->start);
}

/* Whether a mapping holds an ELF file (not anonymous memory, not a JIT marker). */
static bool elf_mapping(bool mapped, const struct map_hit *hit)
{
	return mapped && !hit->map->anon && !jit_loader__map_marker(hit->map);
}

bool resolver__after_call(struct resolver *r, struct proc *p, uint64_t ip)
{
	struct map_hit hit;
	bool mapped = proc__find_map(p, ip, &hit);

	return returns_here(r, proc__pid(p), &hit, elf_mapping(mapped, &hit), ip, NULL);
}

/*
 * A user address: the process's timed JIT code first (the runtime said
 * what code is there, even inside a mapped file: V8 describes its embedded
 * builtins in node's own text), then the mapped file's ELF symbols, then
 * the untimed JIT entries (which have no times, so they come last). Outside
 * files with symbols the timeline is asked once, fallback included (and
 * not again when the call-site decision looked there).
 */
static void resolve_user(struct resolver *r, struct thread *t, uint64_t ip, bool caller,
			 struct frame *f)
{
	uint32_t pid = proc__pid(t->proc);
	const struct jit_sym *js = NULL;
	struct jit_probe probe = { false, 0, NULL };
	struct map_hit hit;
	bool mapped = proc__find_map(t->proc, ip, &hit);
	bool elf = elf_mapping(mapped, &hit);
	bool at_call = caller && returns_here(r, pid, &hit, elf, ip, &probe);
	uint64_t look = at_call ? ip - 1 : ip;

	f->print_addr = ip;
	f->dso = r->s_unknown;
	f->at_call = at_call;
	if (mapped) {
		frame_map(hit.map, f);
		f->dso = hit.map->filename;
		f->print_addr = ip - hit.start + hit.pgoff;
	}
	if (r->jitmap) {
		js = timed_at(r, pid, look, &probe);
		if (!js && !elf)
			js = jitmap__find_untimed(r->jitmap, pid, look);
	}
	if (!js && elf) {
		if (resolve_elf(r, &hit, ip, at_call, f))
			return;
		if (r->jitmap)
			js = jitmap__find_untimed(r->jitmap, pid, look);
	}
	jit_frame(js, ip, f);
	if (!js && mapped)
		f->obj = elf ? elf_view(r, map_dso(r, hit.map)) : name_view(r, f->dso, false);
}

static bool kernel_mode(uint16_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

/* The cache slot of ip (a caller's or not) in space. */
static struct frame_slot *cache_slot(const struct resolver *r, const void *space, uint64_t key)
{
	uint64_t h = (key ^ (uintptr_t)space) * 0x9E3779B97F4A7C15ULL;

	return &r->cache[h >> (64 - r->cache_bits)];
}

void resolver__prefetch_chain(const struct resolver *r, const struct thread *t,
			      uint16_t cpumode, const uint64_t *chain, size_t nr)
{
	bool exact = true;
	size_t i;

	for (i = 0; i < nr; i++) {
		uint64_t ip = chain[i];
		const char *slot;

		if (ip >= PERF_CONTEXT_MAX) {
			/* only whether it is the kernel's matters here */
			if (ip == PERF_CONTEXT_KERNEL || ip == PERF_CONTEXT_GUEST_KERNEL)
				cpumode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER || ip == PERF_CONTEXT_HV ||
				 ip == PERF_CONTEXT_GUEST_USER)
				cpumode = PERF_RECORD_MISC_USER;
			exact = true;
			continue;
		}
		slot = (const char *)cache_slot(r, kernel_mode(cpumode) ? (const void *)r :
						(const void *)t->proc, ip << 1 | !exact);
		/* a slot spans two cache lines */
		__builtin_prefetch(slot);
		__builtin_prefetch(slot + sizeof(struct frame_slot) - 1);
		exact = false;
	}
}

void resolver__frame(struct resolver *r, struct thread *t, uint16_t cpumode,
		     uint64_t ip, bool caller, struct frame *out)
{
	bool kernel = kernel_mode(cpumode);
	const void *space = kernel ? (const void *)r : (const void *)t->proc;
	uint64_t key = ip << 1 | caller, gen;
	struct frame_slot *slot = cache_slot(r, space, key), *grown;

	/* kernel symbols do not change during a run; a process's addresses do */
	gen = kernel ? 1 : proc__generation_at(t->proc, ip);
	/*
	 * the key lost ip's bit 63: frame.ip tells ip from ip ^ 1 << 63 (both
	 * junk a frame-pointer walk read, in no mapping), or the answer would
	 * depend on which of them last took the slot, which the heap's
	 * addresses (space) decide
	 */
	if (slot->gen == gen && slot->space == space && slot->key == key && slot->frame.ip == ip) {
		*out = slot->frame;
		return;
	}
	memset(out, 0, sizeof(*out));
	out->ip = ip;
	if (kernel)
		resolve_kernel(r, ip, caller, out);
	else
		resolve_user(r, t, ip, caller, out);
	grown = cache_grow(r->cache, &r->cache_bits, &r->cache_fills, FRAME_CACHE_BITS_MAX,
			   sizeof(*r->cache));
	if (grown) {
		r->cache = grown;
		return;
	}
	slot->space = space;
	slot->key = key;
	slot->gen = gen;
	slot->frame = *out;
}
