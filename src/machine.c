#include "common.h"
#include "machine.h"
#include "strpool.h"

#include <uthash.h>

struct proc {
	uint32_t pid;
	struct map *maps;             /* sorted by start, non-overlapping */
	size_t nr_maps, alloc_maps;
	UT_hash_handle hh;
};

struct thread_entry {
	struct thread t;
	UT_hash_handle hh;
};

struct machine {
	struct strpool *pool;
	struct proc *procs;
	struct thread_entry *threads;
	struct proc kernel;
};

struct machine *machine__new(struct strpool *pool)
{
	struct machine *m = xcalloc(1, sizeof(*m));

	m->pool = pool;
	m->kernel.pid = (uint32_t)-1;
	return m;
}

void machine__delete(struct machine *m)
{
	struct proc *p, *ptmp;
	struct thread_entry *t, *ttmp;

	if (!m)
		return;
	HASH_ITER(hh, m->procs, p, ptmp) {
		HASH_DEL(m->procs, p);
		free(p->maps);
		free(p);
	}
	HASH_ITER(hh, m->threads, t, ttmp) {
		HASH_DEL(m->threads, t);
		free(t);
	}
	free(m->kernel.maps);
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

static struct proc *findnew_proc(struct machine *m, uint32_t pid)
{
	struct proc *p;

	if (pid == (uint32_t)-1)
		return &m->kernel;
	HASH_FIND(hh, m->procs, &pid, sizeof(pid), p);
	if (!p) {
		p = xcalloc(1, sizeof(*p));
		p->pid = pid;
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
		snprintf(name, sizeof(name), ":%" PRIu32, tid);
	t->t.comm = strpool__intern(m->pool, name);
	t->t.proc = findnew_proc(m, pid);
	HASH_ADD(hh, m->threads, t.tid, sizeof(t->t.tid), t);
	return &t->t;
}

void machine__comm(struct machine *m, uint32_t pid, uint32_t tid, const char *comm, bool exec)
{
	struct thread *t = machine__findnew_thread(m, pid, tid);

	/*
	 * The maps are kept across exec: samples taken while execve finishes
	 * still carry the old image's user call chain (perf resolves them
	 * the same way), and the new image's mmaps replace what they overlap.
	 */
	(void)exec;
	t->comm = strpool__intern(m->pool, comm);
}

void machine__fork(struct machine *m, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	struct thread *parent = machine__findnew_thread(m, ppid, ptid);
	const char *comm = parent->comm;
	struct proc *pp = parent->proc;
	struct thread_entry *old = find_thread(m, tid);
	struct thread *child;

	if (old) {
		/* tid reused: the old thread is gone */
		HASH_DEL(m->threads, old);
		free(old);
	}
	child = machine__findnew_thread(m, pid, tid);
	child->comm = comm;
	if (pid != ppid && child->proc != pp) {
		struct proc *cp = child->proc;

		/* a new process starts with a copy of its parent's address space */
		cp->nr_maps = 0;
		ALLOC_GROW(cp->maps, pp->nr_maps, cp->alloc_maps);
		if (pp->nr_maps)
			memcpy(cp->maps, pp->maps, pp->nr_maps * sizeof(*pp->maps));
		cp->nr_maps = pp->nr_maps;
	}
}

void machine__exit(struct machine *m, uint32_t pid, uint32_t tid)
{
	/* Samples may still name the thread (ordering slack); keep it. */
	(void)m;
	(void)pid;
	(void)tid;
}

/* Index of the first map whose end is above addr. */
static size_t first_ending_after(const struct proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->nr_maps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct map *proc__find_map(struct proc *p, uint64_t addr)
{
	size_t i = first_ending_after(p, addr);

	if (i < p->nr_maps && p->maps[i].start <= addr)
		return &p->maps[i];
	return NULL;
}

/*
 * Insert map, cutting the parts of existing maps it overlaps. At most two
 * pieces survive per overlapped map (the parts before and after), so the
 * array stays sorted and non-overlapping.
 */
static void proc_insert_map(struct proc *p, const struct map *map)
{
	size_t i = first_ending_after(p, map->start), j = i, nr_new;
	struct map head, tail;
	bool has_head = false, has_tail = false;

	while (j < p->nr_maps && p->maps[j].start < map->end)
		j++;
	/* maps [i, j) overlap the new one */
	if (i < j && p->maps[i].start < map->start) {
		head = p->maps[i];
		head.end = map->start;
		has_head = true;
	}
	if (i < j && p->maps[j - 1].end > map->end) {
		tail = p->maps[j - 1];
		tail.pgoff += map->end - tail.start;
		tail.start = map->end;
		has_tail = true;
	}
	nr_new = 1 + has_head + has_tail;
	if (nr_new > j - i)
		ALLOC_GROW(p->maps, p->nr_maps + nr_new - (j - i), p->alloc_maps);
	memmove(p->maps + i + nr_new, p->maps + j, (p->nr_maps - j) * sizeof(*p->maps));
	p->nr_maps = p->nr_maps + nr_new - (j - i);
	if (has_head)
		p->maps[i++] = head;
	p->maps[i++] = *map;
	if (has_tail)
		p->maps[i] = tail;
}

void machine__mmap(struct machine *m, uint32_t pid, const struct map *map)
{
	struct map copy = *map;

	if (map->end <= map->start)
		return;
	copy.filename = strpool__intern(m->pool, map->filename);
	copy.dso = NULL;
	proc_insert_map(findnew_proc(m, pid), &copy);
}
