#include "common/common.h"
#include "timeline/machine.h"
#include "timeline/rangeset.h"
#include "common/strpool.h"

#include <uthash.h>

/*
 * JIT runtimes load code all the time, and map more memory for it as they
 * go (node: ~300 executable mmaps over a 42 s recording); dropping a
 * process's whole cache at each would leave it nearly empty. Loads (and
 * then mmaps) bump a counter per page instead, pages hashed into PAGE_GENS
 * slots (sharing one only costs extra misses); a range of more pages than
 * that bumps the whole process.
 */
#define PAGE_SHIFT_GEN 8
#define PAGE_GENS 16384u

struct proc {
	uint32_t pid;
	uint64_t gen;                 /* bumped whenever what its addresses mean changes */
	uint32_t *page_gen;           /* PAGE_GENS counters by page hash, or NULL */
	struct rangeset maps;         /* offset: file offset; data: struct map */
	bool leader_exited;           /* its main thread's EXIT was seen */
	struct proc *next_gone;       /* on machine's gone list, once replaced */
	UT_hash_handle hh;
};

struct thread_entry {
	struct thread t;              /* first: a struct thread * is its entry's */
	bool comm_set;                /* named by a COMM (or fork), not ":TID" */
	struct thread_entry *next_gone;
	UT_hash_handle hh;
};

struct machine {
	struct strpool *pool;
	struct proc *procs;
	struct thread_entry *threads;
	struct proc kernel;
	struct map **maps;            /* every MMAP record's map, freed at the end */
	size_t nr_maps, alloc_maps;
	/*
	 * Threads gone (EXIT) and processes replaced, kept to the end: caches
	 * key on their addresses, which must not come back for another.
	 */
	struct thread_entry *gone_threads;
	struct proc *gone_procs;
	bool mmap_build_ids;          /* an MMAP2 carried a build id (--buildid-mmap) */
	const struct map *kernel_text;   /* the last kernel MMAP named [kernel.kallsyms]... */
};

struct machine *machine__new(struct strpool *pool)
{
	struct machine *m = xcalloc(1, sizeof(*m));

	m->pool = pool;
	m->kernel.pid = (uint32_t)-1;
	m->kernel.gen = 1;
	return m;
}

static void proc__free(struct proc *p)
{
	rangeset__release(&p->maps);
	free(p->page_gen);
	free(p);
}

void machine__delete(struct machine *m)
{
	struct proc *p, *ptmp;
	struct thread_entry *t, *ttmp;

	if (!m)
		return;
	HASH_ITER(hh, m->procs, p, ptmp) {
		HASH_DEL(m->procs, p);
		proc__free(p);
	}
	while ((p = m->gone_procs)) {
		m->gone_procs = p->next_gone;
		proc__free(p);
	}
	HASH_ITER(hh, m->threads, t, ttmp) {
		HASH_DEL(m->threads, t);
		free(t);
	}
	while ((t = m->gone_threads)) {
		m->gone_threads = t->next_gone;
		free(t);
	}
	rangeset__release(&m->kernel.maps);
	while (m->nr_maps)
		free(m->maps[--m->nr_maps]);
	free(m->maps);
	free(m);
}

struct proc *machine__kernel(struct machine *m)
{
	return &m->kernel;
}

uint32_t proc__pid(const struct proc *p)
{
	return p->pid;
}

static inline size_t page_slot(uint64_t page)
{
	return (size_t)((page * 0x9E3779B97F4A7C15ULL) >> 48) % PAGE_GENS;
}

uint64_t proc__generation_at(const struct proc *p, uint64_t addr)
{
	/* both counters only grow, so the sum changes whenever either does */
	if (!p->page_gen)
		return p->gen;
	return p->gen + p->page_gen[page_slot(addr >> PAGE_SHIFT_GEN)];
}



static struct proc *findnew_proc(struct machine *m, uint32_t pid)
{
	struct proc *p;

	if (pid == (uint32_t)-1)
		return &m->kernel;
	HASH_FIND(hh, m->procs, &pid, sizeof(pid), p);
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
		p->gen = 1;
		HASH_ADD(hh, m->procs, pid, sizeof(p->pid), p);
	}
	return p;
}

static struct thread_entry *find_thread(struct machine *m, uint32_t tid)
{
	struct thread_entry *t;

	HASH_FIND(hh, m->threads, &tid, sizeof(tid), t);
	return t;
}

/*
 * A main thread seen again after its EXIT (a sample, a FORK reusing the
 * pid) starts a new address space, as in perf 6.12, which makes a new
 * thread with empty maps there; threads still running keep the old one.
 */
static void replace_exited_proc(struct machine *m, uint32_t pid)
{
	struct proc *p;

	HASH_FIND(hh, m->procs, &pid, sizeof(pid), p);
	if (!p || !p->leader_exited)
		return;
	HASH_DEL(m->procs, p);
	p->next_gone = m->gone_procs;
	m->gone_procs = p;
}

struct thread *machine__findnew_thread(struct machine *m, uint32_t pid, uint32_t tid)
{
	struct thread_entry *t = find_thread(m, tid);
	char name[32];

	if (t) {
		/* A tid reused by another process, or first seen without its pid. */
		if (t->t.proc->pid != pid && pid != (uint32_t)-1)
			t->t.proc = findnew_proc(m, pid);
		return &t->t;
	}
	t = xcalloc(1, sizeof(*t));
	t->t.tid = tid;
	/* perf's names: the idle task is "swapper", an unnamed thread ":TID" */
	if (tid == 0)
		snprintf(name, sizeof(name), "swapper");
	else
		snprintf(name, sizeof(name), ":%" PRId32, (int32_t)tid);
	t->t.comm = strpool__intern(m->pool, name);
	t->comm_set = tid == 0;
	if (tid == pid)
		replace_exited_proc(m, pid);
	t->t.proc = findnew_proc(m, pid);
	HASH_ADD(hh, m->threads, t.tid, sizeof(t->t.tid), t);
	return &t->t;
}

void machine__changed(struct machine *m, uint32_t pid)
{
	findnew_proc(m, pid)->gen++;
}

void machine__changed_range(struct machine *m, uint32_t pid, uint64_t start, uint64_t end)
{
	struct proc *p = findnew_proc(m, pid);
	/* the page of end too: a caller's return address one past the code */
	uint64_t first = start >> PAGE_SHIFT_GEN, last = end >> PAGE_SHIFT_GEN, pg;

	if (end < start || last - first >= PAGE_GENS) {
		p->gen++;
		return;
	}
	if (!p->page_gen)
		p->page_gen = xcalloc(PAGE_GENS, sizeof(*p->page_gen));
	for (pg = first; pg <= last; pg++)
		p->page_gen[page_slot(pg)]++;
}

void machine__comm(struct machine *m, uint32_t pid, uint32_t tid, const char *comm, bool exec)
{
	struct thread *t = machine__findnew_thread(m, pid, tid);

	/*
	 * The maps are kept across exec: samples taken while execve finishes
	 * still carry the old image's user call chain (perf resolves them
	 * the same way), and the new image's mmaps replace what they overlap.
	 */
	t->execs += exec;
	t->comm = strpool__intern(m->pool, comm);
	((struct thread_entry *)t)->comm_set = true;
}

void machine__fork(struct machine *m, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	struct thread *parent = machine__findnew_thread(m, ppid, ptid);
	const char *comm = parent->comm;
	bool comm_set = ((struct thread_entry *)parent)->comm_set;
	struct proc *pp = parent->proc;
	struct thread_entry *old = find_thread(m, tid);
	struct thread *child;

	if (old) {
		/* tid reused: the old thread is gone */
		HASH_DEL(m->threads, old);
		old->next_gone = m->gone_threads;
		m->gone_threads = old;
	}
	child = machine__findnew_thread(m, pid, tid);
	/* a parent never named (seen again after its EXIT) leaves ":TID", as in perf */
	if (comm_set) {
		child->comm = comm;
		((struct thread_entry *)child)->comm_set = true;
	}
	/* a new process starts with a copy of its parent's address space */
	if (pid != ppid && child->proc != pp) {
		rangeset__copy(&child->proc->maps, &pp->maps);
		child->proc->gen++;
	}
}

/*
 * As perf 6.12 does (6.1 kept exited threads): the thread is gone, and a
 * sample of it after its EXIT makes a new one, named ":TID". The process
 * keeps its mappings for its other threads.
 */
void machine__exit(struct machine *m, uint32_t pid, uint32_t tid)
{
	struct thread_entry *t = find_thread(m, tid);

	(void)pid;
	if (!t)
		return;
	HASH_DEL(m->threads, t);
	if (t->t.proc->pid == tid)
		t->t.proc->leader_exited = true;
	t->next_gone = m->gone_threads;
	m->gone_threads = t;
}

bool proc__find_map(struct proc *p, uint64_t addr, struct map_hit *hit)
{
	const struct range *r = rangeset__find(&p->maps, addr);

	if (!r)
		return false;
	hit->start = r->start;
	hit->end = r->end;
	hit->pgoff = r->offset;
	hit->map = r->data;
	return true;
}

/*
 * Memory without a file behind it, by the name the kernel gives it. perf
 * 6.1 (util/map.h) takes "//anon", "/dev/zero..." and "/anon_hugepage..."
 * (or MAP_HUGETLB) for anonymous memory, and "[stack...", "/SYSV..." and
 * "[heap]" for memory without a DSO; an executable mapping of either kind
 * it names "/tmp/perf-PID.map" and looks up in that perf map. Any other
 * name it takes for a file, "/memfd:..." too. jitsym keeps the mapped name
 * (as it keeps "//anon") and also takes memfd, "[anon:...]" (prctl names)
 * and /dev/shm files for memory where only a JIT's side file can name
 * code. "/dev/zero (deleted)" is what the kernel calls shared anonymous
 * memory (mmap MAP_SHARED|MAP_ANONYMOUS, or of /dev/zero): PHP's opcache
 * puts its JIT buffer there.
 */
bool map_name_is_anon(const char *fn)
{
	static const char *const prefixes[] = {
		"//anon", "[anon", "/memfd:", "/anon_hugepage", "[heap]", "[stack",
		"/dev/zero", "/SYSV", "/dev/shm/",
	};
	size_t i;

	if (!fn[0])
		return true;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (!strncmp(fn, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

const char *map_name__anon_what(const char *fn)
{
	static const struct { const char *prefix, *what; } kinds[] = {
		{ "/dev/zero", "shared anonymous memory, as PHP opcache's JIT buffer" },
		{ "/SYSV", "System V shared memory" },
		{ "/memfd:", "anonymous memory of a memfd" },
		{ "/anon_hugepage", "anonymous huge pages" },
		{ "/dev/shm/", "POSIX shared memory" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strncmp(fn, kinds[i].prefix, strlen(kinds[i].prefix)))
			return kinds[i].what;
	return NULL;
}

void machine__mmap(struct machine *m, uint32_t pid, uint64_t start, uint64_t len,
		   uint64_t pgoff, const struct map *tmpl)
{
	struct proc *p;
	struct map *map;

	if (!len || start + len < start)
		return;
	map = xmalloc(sizeof(*map));
	*map = *tmpl;
	m->mmap_build_ids |= tmpl->build_id_size > 0;
	map->filename = strpool__intern(m->pool, tmpl->filename);
	map->anon = map_name_is_anon(map->filename);
	map->dso = NULL;
	map->jit_marker = -1;
	map->start = start;
	map->len = len;
	map->pgoff = pgoff;
	ALLOC_GROW(m->maps, m->nr_maps + 1, m->alloc_maps);
	m->maps[m->nr_maps++] = map;
	p = findnew_proc(m, pid);
	rangeset__insert(&p->maps, start, start + len, pgoff, map);
	if (p == &m->kernel && !strncmp(map->filename, "[kernel.kallsyms]", 17))
		m->kernel_text = map;
	/*
	 * Only addresses in the new mapping (or just past it, as callers) mean
	 * something else now. Per page only where JIT code made the counters
	 * (they cost 64 KiB a process); elsewhere mmaps come at start-up.
	 */
	if (p->page_gen)
		machine__changed_range(m, pid, start, start + len);
	else
		p->gen++;
}

bool machine__mmap_build_ids(const struct machine *m)
{
	return m->mmap_build_ids;
}

const struct map *machine__kernel_text(const struct machine *m)
{
	return m->kernel_text;
}
