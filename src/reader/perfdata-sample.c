/*
 * perfdata-sample: PERF_RECORD_SAMPLE bodies, field by field as the
 * event's sample_type lays them out, and the kernel's sideband records
 * (COMM, MMAP, MMAP2, FORK, EXIT, ...) with their sample_id trailers. See
 * perfdata-internal.h.
 */
#include "reader/perfdata-internal.h"

/* ---- samples -------------------------------------------------------- */

static struct pd_attr *attr_for_id(struct pd_reader *r, uint64_t id)
{
	struct id_entry *e;

	HASH_FIND(hh, r->ids, &id, sizeof(id), e);
	if (e)
		return e->attr;
	return r->nr_attrs == 1 ? r->attrs[0] : NULL;
}

static void skip_read_format(struct cursor *c, uint64_t rf)
{
	uint64_t per_value = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

	if (rf & PERF_FORMAT_GROUP) {
		uint64_t nr = cursor_u64(c);

		cursor_skip(c, 8 * (uint64_t)(!!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
					      !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
		if (nr > c->left / 8 / per_value) {
			c->bad = true;
			return;
		}
		cursor_skip(c, nr * per_value * 8);
		return;
	}
	cursor_skip(c, 8 * (per_value + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING)));
}

static void read_callchain(struct pd_reader *r, struct cursor *c, struct pd_sample *s)
{
	uint64_t nr = cursor_u64(c), i;

	if (nr > c->left / 8) {
		c->bad = true;
		return;
	}
	/* never NULL when sampled, even empty: NULL means "no call chain recorded" */
	ALLOC_GROW(r->chain, nr ? nr : 1, r->chain_alloc);
	/* it fits (checked above): one copy, swapped after if need be */
	if (nr)
		memcpy(r->chain, cursor_bytes(c, nr * 8), nr * 8);
	if (c->swap)
		for (i = 0; i < nr; i++)
			r->chain[i] = __builtin_bswap64(r->chain[i]);
	s->nr_callchain = nr;
	s->callchain = r->chain;
}

/* abi, then one u64 per bit of mask when abi is not PERF_SAMPLE_REGS_ABI_NONE. */
static void skip_regs(struct cursor *c, uint64_t mask)
{
	if (cursor_u64(c) != PERF_SAMPLE_REGS_ABI_NONE)
		cursor_skip(c, 8 * (uint64_t)__builtin_popcountll(mask));
}

/*
 * PERF_SAMPLE_REGS_USER, laid out as skip_regs() reads it. The values are
 * copied (swapped if need be) into the reader's scratch, like the call
 * chain: the record may be in the other byte order, or not 8-aligned.
 */
static void read_regs_user(struct pd_reader *r, struct cursor *c, uint64_t mask,
			   struct pd_sample *s)
{
	uint64_t abi = cursor_u64(c);
	size_t i, n = (size_t)__builtin_popcountll(mask);

	if (abi == PERF_SAMPLE_REGS_ABI_NONE)
		return;
	if (n > c->left / 8) {
		c->bad = true;
		return;
	}
	for (i = 0; i < n; i++)
		r->regs[i] = cursor_u64(c);
	s->user_regs_abi = abi;
	s->user_regs_mask = mask;
	s->user_regs = r->regs;
}

/*
 * PERF_SAMPLE_STACK_USER: u64 size, size bytes of stack from the user sp
 * upward, then, only when size is not 0, u64 dyn_size: how many of those
 * bytes the kernel could fill. The dump is memory, not numbers, so it is
 * never swapped and stays in the record. A dyn_size past the dump is
 * clamped to it, with a warning: the bytes are there, the claim is not.
 */
static void read_stack_user(struct pd_reader *r, struct cursor *c, const struct pd_event *ev,
			    struct pd_sample *s)
{
	uint64_t size = cursor_u64(c), dyn;
	const uint8_t *dump;

	if (!size)
		return;
	dump = cursor_bytes(c, size);
	dyn = cursor_u64(c);
	if (c->bad)
		return;
	if (dyn > size) {
		warning("'%s': sample at %soffset %" PRIu64 " claims %" PRIu64 " bytes of user "
			"stack in a %" PRIu64 "-byte dump; using the dump", r->path,
			ev->in_compressed ? "decompressed " : "", ev->offset, dyn, size);
		dyn = size;
	}
	s->user_stack_size = dyn;
	s->user_stack = dyn ? dump : NULL;
}

static void read_sample_tail(struct pd_reader *r, struct cursor *c,
			     const struct perf_event_attr *a, struct pd_event *ev)
{
	struct pd_sample *s = &ev->sample;
	uint64_t st = a->sample_type;

	if (st & PERF_SAMPLE_RAW) {
		s->raw_size = cursor_u32(c);
		s->raw_data = cursor_bytes(c, s->raw_size);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		s->nr_branches = cursor_u64(c);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			cursor_u64(c);
		if (s->nr_branches > c->left / sizeof(struct perf_branch_entry))
			c->bad = true;
		else
			cursor_skip(c, s->nr_branches * sizeof(struct perf_branch_entry));
	}
	if (st & PERF_SAMPLE_REGS_USER)
		read_regs_user(r, c, a->sample_regs_user, s);
	if (st & PERF_SAMPLE_STACK_USER)
		read_stack_user(r, c, ev, s);
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		s->weight = cursor_u64(c);
	if (st & PERF_SAMPLE_DATA_SRC)
		s->data_src = cursor_u64(c);
	if (st & PERF_SAMPLE_TRANSACTION)
		s->transaction = cursor_u64(c);
	if (st & PERF_SAMPLE_REGS_INTR)
		skip_regs(c, a->sample_regs_intr);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = cursor_u64(c);
	if (st & PERF_SAMPLE_CGROUP)
		s->cgroup = cursor_u64(c);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		cursor_u64(c);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		cursor_u64(c);
	if (st & PERF_SAMPLE_AUX)
		cursor_skip(c, cursor_u64(c));
}

/* TID and TIME: in a sample after IP, in a sample_id trailer first. */
static void read_tid_time(struct cursor *c, uint64_t st, struct pd_sample *s)
{
	if (st & PERF_SAMPLE_TID) {
		s->pid = cursor_u32(c);
		s->tid = cursor_u32(c);
	}
	if (st & PERF_SAMPLE_TIME) {
		s->time = cursor_u64(c);
		s->has_time = true;
	}
}

/* ID, STREAM_ID and CPU (with its u32 of padding), in that order in both. */
static void read_id_cpu(struct cursor *c, uint64_t st, struct pd_sample *s)
{
	if (st & PERF_SAMPLE_ID)         s->id = cursor_u64(c);
	if (st & PERF_SAMPLE_STREAM_ID)  s->stream_id = cursor_u64(c);
	if (st & PERF_SAMPLE_CPU) {
		s->cpu = cursor_u32(c);
		cursor_u32(c);
	}
}

bool pd_reader__decode_sample(struct pd_reader *r, const uint8_t *rec, size_t size,
			      struct pd_event *ev)
{
	struct cursor c = cursor_make(rec + 8, size - 8, r->info.swapped);
	struct pd_sample *s = &ev->sample;
	const struct pd_attr *pa;
	uint64_t st;

	if (r->id_pos >= 0) {
		if ((size_t)r->id_pos >= c.left / 8)
			return false;
		pa = attr_for_id(r, rec_u64(c.p, 8 * (size_t)r->id_pos, c.swap));
	} else {
		pa = r->nr_attrs ? r->attrs[0] : NULL;
	}
	if (!pa)
		return false;
	s->attr = pa;
	st = pa->attr.sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER) s->id = cursor_u64(&c);
	if (st & PERF_SAMPLE_IP)         s->ip = cursor_u64(&c);
	read_tid_time(&c, st, s);
	if (st & PERF_SAMPLE_ADDR)       s->addr = cursor_u64(&c);
	read_id_cpu(&c, st, s);
	s->period = pa->attr.freq ? 1 : pa->attr.sample_period;
	if (st & PERF_SAMPLE_PERIOD)     s->period = cursor_u64(&c);
	if (st & PERF_SAMPLE_READ)       skip_read_format(&c, pa->attr.read_format);
	if (st & PERF_SAMPLE_CALLCHAIN)  read_callchain(r, &c, s);
	read_sample_tail(r, &c, &pa->attr, ev);
	return !c.bad;
}

/* The sample_id trailer of a kernel sideband record, if its attr has one. */
static size_t decode_id_trailer(struct pd_reader *r, const uint8_t *rec, size_t size,
				struct pd_sample *s)
{
	const struct pd_attr *pa;
	struct cursor c;
	uint64_t st;

	if (!r->nr_attrs || !r->attrs[0]->attr.sample_id_all)
		return 0;
	if (r->id_pos_end > 0) {
		if ((size_t)r->id_pos_end * 8 > size - 8)
			return 0;
		pa = attr_for_id(r, rec_u64(rec, size - 8 * (size_t)r->id_pos_end, r->info.swapped));
	} else {
		pa = r->attrs[0];
	}
	if (!pa || pa->id_trailer_size > size - 8)
		return 0;
	s->attr = pa;
	st = pa->attr.sample_type;
	c = cursor_make(rec + size - pa->id_trailer_size, pa->id_trailer_size, r->info.swapped);
	read_tid_time(&c, st, s);
	read_id_cpu(&c, st, s);
	if (st & PERF_SAMPLE_IDENTIFIER) s->id = cursor_u64(&c);
	return pa->id_trailer_size;
}

/* ---- sideband records ----------------------------------------------- */

/* A NUL-terminated string at [off, end) of the record, or NULL. */
static const char *rec_string(const uint8_t *rec, size_t off, size_t end)
{
	if (off >= end || !memchr(rec + off, '\0', end - off))
		return NULL;
	return (const char *)rec + off;
}

static bool decode_mmap(struct pd_reader *r, const uint8_t *rec, size_t end,
			struct pd_event *ev)
{
	bool swap = r->info.swapped, v2 = ev->type == PERF_RECORD_MMAP2;
	size_t fn_off = v2 ? offsetof(struct perf_record_mmap2, filename) :
			     offsetof(struct perf_record_mmap, filename);

	if (end < fn_off)
		return false;
	/* pid..pgoff are at the same offsets in both layouts */
	ev->u.mmap.pid = REC32(rec, struct perf_record_mmap, pid, swap);
	ev->u.mmap.tid = REC32(rec, struct perf_record_mmap, tid, swap);
	ev->u.mmap.start = REC64(rec, struct perf_record_mmap, start, swap);
	ev->u.mmap.len = REC64(rec, struct perf_record_mmap, len, swap);
	ev->u.mmap.pgoff = REC64(rec, struct perf_record_mmap, pgoff, swap);
	ev->u.mmap.prot = (ev->misc & PERF_RECORD_MISC_MMAP_DATA) ? 1 /* PROT_READ */ : 5;
	if (v2) {
		ev->u.mmap.prot = REC32(rec, struct perf_record_mmap2, prot, swap);
		ev->u.mmap.flags = REC32(rec, struct perf_record_mmap2, flags, swap);
		if (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			uint8_t n = rec[offsetof(struct perf_record_mmap2, build_id_size)];

			ev->u.mmap.build_id_size = n <= 20 ? n : 20;
			memcpy(ev->u.mmap.build_id,
			       rec + offsetof(struct perf_record_mmap2, build_id), 20);
		}
	}
	ev->u.mmap.filename = rec_string(rec, fn_off, end);
	return ev->u.mmap.filename != NULL;
}

/*
 * NAMESPACES: u32 pid, tid; u64 nr_namespaces; then {u64 dev, ino} per
 * namespace, PID_NS_INDEX among them. A record with fewer holds no pid
 * namespace; one whose entries overrun it is malformed.
 */
static bool decode_namespaces(struct pd_reader *r, const uint8_t *rec, size_t end,
			      struct pd_event *ev)
{
	bool swap = r->info.swapped;
	size_t head = offsetof(struct perf_record_namespaces, link_info);
	size_t at = head + PID_NS_INDEX * sizeof(struct perf_ns_link_info);
	uint64_t nr;

	if (end < head)
		return false;
	ev->u.ns.pid = REC32(rec, struct perf_record_namespaces, pid, swap);
	ev->u.ns.tid = REC32(rec, struct perf_record_namespaces, tid, swap);
	nr = REC64(rec, struct perf_record_namespaces, nr_namespaces, swap);
	if (nr > (end - head) / sizeof(struct perf_ns_link_info))
		return false;
	ev->u.ns.has_pid_ns = nr > PID_NS_INDEX;
	if (ev->u.ns.has_pid_ns) {
		ev->u.ns.pid_ns_dev = rec_u64(rec, at, swap);
		ev->u.ns.pid_ns_ino = rec_u64(rec, at + 8, swap);
	}
	return true;
}

/*
 * CALLCHAIN_DEFERRED (perfdata.h): header, u64 cookie, u64 nr, nr ips,
 * then the sample_id trailer (end is where it starts). The ips go where a
 * sample's call chain goes, in the reader's scratch.
 */
static bool decode_deferred(struct pd_reader *r, const uint8_t *rec, size_t end,
			    struct pd_event *ev)
{
	struct cursor c;
	uint64_t nr, i;

	if (end < 24)
		return false;
	c = cursor_make(rec + 8, end - 8, r->info.swapped);
	ev->u.deferred.cookie = cursor_u64(&c);
	nr = cursor_u64(&c);
	if (nr > c.left / 8)
		return false;
	ALLOC_GROW(r->chain, nr ? nr : 1, r->chain_alloc);
	for (i = 0; i < nr; i++)
		r->chain[i] = cursor_u64(&c);
	ev->sample.nr_callchain = nr;
	ev->sample.callchain = r->chain;
	return true;
}

bool pd_reader__decode_sideband(struct pd_reader *r, const uint8_t *rec, size_t size,
			    struct pd_event *ev)
{
	bool swap = r->info.swapped;
	size_t end = size - decode_id_trailer(r, rec, size, &ev->sample);

	switch (ev->type) {
	case PERF_RECORD_COMM:
		if (end < offsetof(struct perf_record_comm, comm))
			return false;
		ev->u.comm.pid = REC32(rec, struct perf_record_comm, pid, swap);
		ev->u.comm.tid = REC32(rec, struct perf_record_comm, tid, swap);
		ev->u.comm.exec = ev->misc & PERF_RECORD_MISC_COMM_EXEC;
		ev->u.comm.comm = rec_string(rec, offsetof(struct perf_record_comm, comm), end);
		return ev->u.comm.comm != NULL;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (end < sizeof(struct perf_record_fork))
			return false;
		ev->u.fork.pid = REC32(rec, struct perf_record_fork, pid, swap);
		ev->u.fork.ppid = REC32(rec, struct perf_record_fork, ppid, swap);
		ev->u.fork.tid = REC32(rec, struct perf_record_fork, tid, swap);
		ev->u.fork.ptid = REC32(rec, struct perf_record_fork, ptid, swap);
		ev->u.fork.time = REC64(rec, struct perf_record_fork, time, swap);
		return true;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return decode_mmap(r, rec, end, ev);
	case PERF_RECORD_LOST:
		if (end < sizeof(struct perf_record_lost))
			return false;
		ev->u.lost.id = REC64(rec, struct perf_record_lost, id, swap);
		ev->u.lost.lost = REC64(rec, struct perf_record_lost, lost, swap);
		return true;
	case PERF_RECORD_LOST_SAMPLES:
		if (end < sizeof(struct perf_record_lost_samples))
			return false;
		ev->u.lost.lost = REC64(rec, struct perf_record_lost_samples, lost, swap);
		return true;
	case PERF_RECORD_KSYMBOL:
		if (end < offsetof(struct perf_record_ksymbol, name))
			return false;
		ev->u.ksymbol.addr = REC64(rec, struct perf_record_ksymbol, addr, swap);
		ev->u.ksymbol.len = REC32(rec, struct perf_record_ksymbol, len, swap);
		ev->u.ksymbol.ksym_type = rec_u16(rec, offsetof(struct perf_record_ksymbol, ksym_type), swap);
		ev->u.ksymbol.flags = rec_u16(rec, offsetof(struct perf_record_ksymbol, flags), swap);
		ev->u.ksymbol.name = rec_string(rec, offsetof(struct perf_record_ksymbol, name), end);
		return ev->u.ksymbol.name != NULL;
	case PERF_RECORD_NAMESPACES:
		return decode_namespaces(r, rec, end, ev);
	case PD_RECORD_CALLCHAIN_DEFERRED:
		return decode_deferred(r, rec, end, ev);
	default:
		return true;
	}
}
