/*
 * perfdata-header: the file header, the attrs and their sample ids, and
 * the feature sections (build ids, hostname, os release, cmdline, event
 * descriptions, compression, ...), which pipe mode sends as HEADER_ATTR,
 * HEADER_FEATURE and HEADER_BUILD_ID records instead. See
 * perfdata-internal.h for how the reader's files divide the work.
 */
#include "reader/perfdata-internal.h"

/* A perf_header_string: u32 len, then len bytes holding a NUL-terminated string. */
static const char *cursor_header_string(struct pd_reader *r, struct cursor *c)
{
	uint32_t len = cursor_u32(c);
	const uint8_t *s = cursor_bytes(c, len);

	return s ? intern_str(r, s, len) : NULL;
}

const char *pd_attr_default_name(const struct perf_event_attr *a)
{
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults",
		"alignment-faults", "emulation-faults", "dummy", "bpf-output",
		"cgroup-switches",
	};
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
	};

	if (a->type == PERF_TYPE_SOFTWARE && a->config < ARRAY_SIZE(sw))
		return sw[a->config];
	if (a->type == PERF_TYPE_HARDWARE && a->config < ARRAY_SIZE(hw))
		return hw[a->config];
	if (a->type == PERF_TYPE_TRACEPOINT)
		return "tracepoint";
	return "unknown-event";
}

/*
 * Copy an attr of attr_size bytes into native order. A larger attr than
 * ours is a newer perf: the fields we know are read, the rest skipped. The
 * bitfield word after read_format was laid out from the other end of the
 * word by a compiler of the other byte order, so each of its bytes has its
 * bits reversed (its bytes are not swapped).
 */
/* perf_event_attr fields narrower than a u64, swapped at their own size. */
#define ATTR_FIELD(f) { offsetof(struct perf_event_attr, f), sizeof(((struct perf_event_attr *)0)->f) }
static const struct { size_t off, size; } attr_narrow[] = {
	ATTR_FIELD(type), ATTR_FIELD(size), ATTR_FIELD(wakeup_events),
	ATTR_FIELD(bp_type), ATTR_FIELD(sample_stack_user), ATTR_FIELD(clockid),
	ATTR_FIELD(aux_watermark), ATTR_FIELD(sample_max_stack),
	ATTR_FIELD(__reserved_2), ATTR_FIELD(aux_sample_size),
	ATTR_FIELD(__reserved_3),
};

static void swap_in_place(uint8_t *p, size_t size)
{
	size_t i;

	for (i = 0; i < size / 2; i++) {
		uint8_t t = p[i];

		p[i] = p[size - 1 - i];
		p[size - 1 - i] = t;
	}
}

static uint8_t bit_reverse8(uint8_t b)
{
	uint8_t r = 0;
	int k;

	for (k = 0; k < 8; k++)
		if (b & (1u << k))
			r |= (uint8_t)(0x80u >> k);
	return r;
}

/*
 * Copy an attr of attr_size bytes into native order. A larger attr than
 * ours is a newer perf: the fields we know are read, the rest skipped. The
 * bitfield word after read_format was laid out from the other end of the
 * word by a compiler of the other byte order, so each of its bytes has its
 * bits reversed and its bytes stay where they are.
 */
static void attr_from_file(struct perf_event_attr *dst, const uint8_t *src,
			   size_t attr_size, bool swap)
{
	size_t n = attr_size < sizeof(*dst) ? attr_size : sizeof(*dst);
	size_t flags_off = offsetof(struct perf_event_attr, read_format) + 8;
	uint8_t *d = (uint8_t *)dst;
	size_t off, i;

	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, n);
	if (swap) {
		for (off = 0; off + 8 <= n; off += 8) {
			bool narrow = false;

			for (i = 0; i < ARRAY_SIZE(attr_narrow); i++)
				if (attr_narrow[i].off / 8 == off / 8)
					narrow = true;
			if (off == flags_off)
				for (i = 0; i < 8; i++)
					d[off + i] = bit_reverse8(d[off + i]);
			else if (!narrow)
				swap_in_place(d + off, 8);
		}
		for (i = 0; i < ARRAY_SIZE(attr_narrow); i++)
			if (attr_narrow[i].off + attr_narrow[i].size <= n)
				swap_in_place(d + attr_narrow[i].off, attr_narrow[i].size);
	}
	if (dst->size == 0)
		dst->size = PERF_ATTR_SIZE_VER0;
}

static unsigned int id_trailer_size(uint64_t st)
{
	unsigned int n = 0;

	n += !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
	     !!(st & PERF_SAMPLE_ID) + !!(st & PERF_SAMPLE_STREAM_ID) +
	     !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_IDENTIFIER);
	return n * 8;
}

static struct pd_attr *add_attr(struct pd_reader *r, const struct perf_event_attr *a)
{
	struct pd_attr *pa;

	if (r->nr_attrs >= PD_MAX_ATTRS) {
		error("'%s': more than %d events", r->path, PD_MAX_ATTRS);
		return NULL;
	}
	pa = xcalloc(1, sizeof(*pa));
	pa->attr = *a;
	pa->index = (unsigned int)r->nr_attrs;
	pa->name = pd_attr_default_name(a);
	pa->id_trailer_size = a->sample_id_all ? id_trailer_size(a->sample_type) : 0;
	ALLOC_GROW(r->attrs, r->nr_attrs + 1, r->alloc_attrs);
	r->attrs[r->nr_attrs++] = pa;
	return pa;
}

static void attr_add_id(struct pd_reader *r, struct pd_attr *pa, uint64_t id)
{
	struct id_entry *e;

	HASH_FIND(hh, r->ids, &id, sizeof(id), e);
	if (e)
		return;
	e = xmalloc(sizeof(*e));
	e->id = id;
	e->attr = pa;
	HASH_ADD(hh, r->ids, id, sizeof(e->id), e);
	pa->ids = xreallocarray(pa->ids, pa->nr_ids + 1, sizeof(*pa->ids));
	pa->ids[pa->nr_ids++] = id;
}

void pd_reader__compute_id_pos(struct pd_reader *r)
{
	uint64_t st;
	int pos = 0;

	r->id_pos = r->id_pos_end = -1;
	if (!r->nr_attrs)
		return;
	st = r->attrs[0]->attr.sample_type;
	if (st & PERF_SAMPLE_IDENTIFIER) {
		r->id_pos = 0;
		r->id_pos_end = 1;
		return;
	}
	if (!(st & PERF_SAMPLE_ID))
		return;
	pos += !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) +
	       !!(st & PERF_SAMPLE_TIME) + !!(st & PERF_SAMPLE_ADDR);
	r->id_pos = pos;
	r->id_pos_end = 1 + !!(st & PERF_SAMPLE_STREAM_ID) + !!(st & PERF_SAMPLE_CPU);
}

/*
 * The attrs section: entries of the header's attr_size bytes, each a
 * perf_event_attr followed by the file section of its ids.
 */
static int read_attr_section(struct pd_reader *r, const uint8_t *base, uint64_t fsize,
			     uint64_t entry, uint64_t off, uint64_t size)
{
	uint64_t attr_size = entry - 16, nr, i;
	bool swap = r->info.swapped;

	if (entry < PERF_ATTR_SIZE_VER0 + 16 || entry > 4096)
		return error("'%s': header attr_size %" PRIu64 " (at offset 16) is invalid",
			     r->path, entry);
	if (off > fsize || size > fsize - off)
		return error("'%s': attrs section (offset %" PRIu64 ", size %" PRIu64
			     ") is past the end of the file (%" PRIu64 " bytes)", r->path, off, size, fsize);
	if (size % entry)
		warning("'%s': attrs section size %" PRIu64 " is not a multiple of %" PRIu64
			" (attr count mismatch); reading the whole entries", r->path, size, entry);
	nr = size / entry;
	for (i = 0; i < nr; i++) {
		const uint8_t *p = base + off + i * entry;
		struct perf_event_attr a;
		struct pd_attr *pa;
		uint64_t ids_off = rec_u64(p, attr_size, swap);
		uint64_t ids_size = rec_u64(p, attr_size + 8, swap), k;

		attr_from_file(&a, p, attr_size, swap);
		pa = add_attr(r, &a);
		if (!pa)
			return -1;
		if (ids_off > fsize || ids_size > fsize - ids_off || ids_size / 8 > PD_MAX_IDS) {
			warning("'%s': ids of event %" PRIu64 " (offset %" PRIu64 ", size %" PRIu64
				") are past the end of the file", r->path, i, ids_off, ids_size);
			continue;
		}
		for (k = 0; k < ids_size / 8; k++)
			attr_add_id(r, pa, rec_u64(base + ids_off, k * 8, swap));
	}
	if (!r->nr_attrs)
		return error("'%s': no events in the attrs section", r->path);
	return 0;
}

void pd_reader__build_id(struct pd_reader *r, const uint8_t *rec, size_t size, bool swap)
{
	size_t fn_off = offsetof(struct perf_record_header_build_id, filename);
	uint16_t misc = rec_u16(rec, offsetof(struct perf_event_header, misc), swap);
	struct pd_build_id *b;

	if (size <= fn_off)
		return;
	ALLOC_GROW(r->bids, r->info.nr_build_ids + 1, r->bids_alloc);
	b = &r->bids[r->info.nr_build_ids++];
	b->pid = (int32_t)REC32(rec, struct perf_record_header_build_id, pid, swap);
	b->cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	memcpy(b->id, rec + offsetof(struct perf_record_header_build_id, data), 20);
	b->size = 20;
	if (misc & PERF_RECORD_MISC_BUILD_ID_SIZE) {
		uint8_t sz = rec[offsetof(struct perf_record_header_build_id, size)];

		b->size = sz <= 20 ? sz : 20;
	}
	b->filename = intern_str(r, rec + fn_off, size - fn_off);
	r->info.build_ids = r->bids;
}

static void parse_build_ids(struct pd_reader *r, struct cursor *c)
{
	while (c->left >= sizeof(struct perf_event_header)) {
		uint16_t size = rec_u16(c->p, offsetof(struct perf_event_header, size), c->swap);

		if (size < sizeof(struct perf_event_header) || size > c->left) {
			warning("'%s': build-id table entry of size %u does not fit; ignoring the rest",
				r->path, size);
			return;
		}
		pd_reader__build_id(r, c->p, size, c->swap);
		cursor_skip(c, size);
	}
}

static void parse_event_desc(struct pd_reader *r, struct cursor *c)
{
	uint32_t nr = cursor_u32(c), attr_size = cursor_u32(c), i, k;

	if (attr_size < PERF_ATTR_SIZE_VER0 || nr > PD_MAX_ATTRS)
		return;
	for (i = 0; i < nr && !c->bad; i++) {
		struct perf_event_attr a;
		const uint8_t *p = cursor_bytes(c, attr_size);
		uint32_t nr_ids = cursor_u32(c);
		const char *name = cursor_header_string(r, c);
		uint64_t first_id = 0;

		if (!p || !name)
			break;
		attr_from_file(&a, p, attr_size, c->swap);
		for (k = 0; k < nr_ids && !c->bad; k++) {
			uint64_t id = cursor_u64(c);

			if (k == 0)
				first_id = id;
		}
		/* Match by id when there is one, else by position. */
		if (nr_ids) {
			struct id_entry *e;

			HASH_FIND(hh, r->ids, &first_id, sizeof(first_id), e);
			if (e) {
				e->attr->name = name;
				continue;
			}
		}
		if (i < r->nr_attrs)
			r->attrs[i]->name = name;
	}
}

static void parse_cmdline(struct pd_reader *r, struct cursor *c)
{
	uint32_t nr = cursor_u32(c), i;
	char *line = NULL;
	size_t len = 0;

	for (i = 0; i < nr && !c->bad; i++) {
		const char *arg = cursor_header_string(r, c);
		size_t alen;

		if (!arg)
			break;
		alen = strlen(arg);
		line = xrealloc(line, st_add(st_add(len, alen), 2));
		if (len)
			line[len++] = ' ';
		memcpy(line + len, arg, alen);
		len += alen;
		line[len] = '\0';
	}
	r->info.cmdline = line ? strpool__intern(r->pool, line) : NULL;
	free(line);
}

void pd_reader__feature(struct pd_reader *r, int feat, const uint8_t *p, uint64_t size)
{
	struct cursor c = cursor_make(p, (size_t)size, r->info.swapped);
	struct pd_info *in = &r->info;

	switch (feat) {
	case FEAT_TRACING_DATA:
		in->tracing_data = p;
		in->tracing_data_size = size;
		break;
	case FEAT_BUILD_ID:   parse_build_ids(r, &c); break;
	case FEAT_HOSTNAME:   in->hostname = cursor_header_string(r, &c); break;
	case FEAT_OSRELEASE:  in->osrelease = cursor_header_string(r, &c); break;
	case FEAT_VERSION:    in->version = cursor_header_string(r, &c); break;
	case FEAT_ARCH:       in->arch = cursor_header_string(r, &c); break;
	case FEAT_CPUDESC:    in->cpudesc = cursor_header_string(r, &c); break;
	case FEAT_CPUID:      in->cpuid = cursor_header_string(r, &c); break;
	case FEAT_CMDLINE:    parse_cmdline(r, &c); break;
	case FEAT_EVENT_DESC: parse_event_desc(r, &c); break;
	case FEAT_NRCPUS:
		in->nr_cpus_avail = cursor_u32(&c);
		in->nr_cpus_online = cursor_u32(&c);
		break;
	case FEAT_TOTAL_MEM:
		in->total_mem_kb = cursor_u64(&c);
		break;
	case FEAT_CLOCKID:
		in->clock_res_ns = cursor_u64(&c);
		break;
	case FEAT_SAMPLE_TIME:
		in->first_sample_time = cursor_u64(&c);
		in->last_sample_time = cursor_u64(&c);
		in->has_sample_time = !c.bad;
		break;
	case FEAT_COMPRESSED:
		cursor_u32(&c);                 /* version */
		in->comp_type = cursor_u32(&c);
		in->comp_level = cursor_u32(&c);
		cursor_u32(&c);                 /* ratio */
		in->comp_mmap_len = cursor_u32(&c);
		in->compressed = !c.bad;
		break;
	default:
		if (feat > FEAT_KNOWN_LAST && feat < FEAT_MAX)
			r->new_feats[feat / 64] |= 1ULL << (feat % 64);
		break;
	}
	if (c.bad)
		warning("'%s': feature %d is truncated (%" PRIu64 " bytes)", r->path, feat, size);
}

static void read_features(struct pd_reader *r, const uint64_t bits[4])
{
	const uint8_t *base = r->in.map;
	uint64_t fsize = r->in.map_size;
	uint64_t off = r->info.data_offset + r->info.data_size;
	int feat;

	for (feat = 0; feat < FEAT_MAX; feat++) {
		uint64_t f_off, f_size;

		if (!(bits[feat / 64] & (1ULL << (feat % 64))))
			continue;
		if (off > fsize || fsize - off < 16) {
			warning("'%s': feature table at offset %" PRIu64 " is past the end of the file",
				r->path, off);
			return;
		}
		f_off = rec_u64(base, off, r->info.swapped);
		f_size = rec_u64(base, off + 8, r->info.swapped);
		off += 16;
		if (f_off > fsize || f_size > fsize - f_off) {
			warning("'%s': feature %d (offset %" PRIu64 ", size %" PRIu64
				") is past the end of the file", r->path, feat, f_off, f_size);
			continue;
		}
		pd_reader__feature(r, feat, base + f_off, f_size);
	}
}

int pd_reader__read_header(struct pd_reader *r)
{
	const uint8_t *h = r->in.map;
	uint64_t fsize = r->in.map_size, hsize, attr_size, bits[4];
	bool swap = r->info.swapped;
	int i;

	if (fsize < 104)
		return error("'%s': file header is truncated (%" PRIu64 " of 104 bytes)",
			     r->path, fsize);
	hsize = rec_u64(h, 8, swap);
	if (hsize < 104 || hsize > fsize)
		return error("'%s': header size %" PRIu64 " is invalid", r->path, hsize);
	attr_size = rec_u64(h, 16, swap);
	r->info.data_offset = rec_u64(h, 40, swap);
	r->info.data_size = rec_u64(h, 48, swap);
	for (i = 0; i < 4; i++)
		bits[i] = rec_u64(h, 72 + 8 * i, swap);
	if (read_attr_section(r, h, fsize, attr_size, rec_u64(h, 24, swap), rec_u64(h, 32, swap)))
		return -1;
	if (r->info.data_offset > fsize)
		return error("'%s': data section offset %" PRIu64 " is past the end of the file (%"
			     PRIu64 " bytes)", r->path, r->info.data_offset, fsize);
	if (r->info.data_size == 0 && fsize > r->info.data_offset) {
		warning("'%s': header says the data section is empty (perf record did not finish?); "
			"reading to the end of the file", r->path);
		r->info.data_size = fsize - r->info.data_offset;
		memset(bits, 0, sizeof(bits));
	} else if (r->info.data_size > fsize - r->info.data_offset) {
		warning("'%s': data section (offset %" PRIu64 ", size %" PRIu64
			") is cut short at %" PRIu64 " bytes", r->path, r->info.data_offset,
			r->info.data_size, fsize);
		r->data_size_stated = r->info.data_size;
		r->info.data_size = fsize - r->info.data_offset;
		memset(bits, 0, sizeof(bits));
	}
	read_features(r, bits);
	r->in.pos = r->info.data_offset;
	r->in.end = r->info.data_offset + r->info.data_size;
	return 0;
}


/* ---- header records (pipe mode) ------------------------------------- */

void pd_reader__attr_record(struct pd_reader *r, const uint8_t *rec, size_t size)
{
	struct perf_event_attr a;
	uint32_t asize;
	struct pd_attr *pa;
	size_t off;

	if (size < 8 + PERF_ATTR_SIZE_VER0)
		goto bad;
	asize = rec_u32(rec, 8 + offsetof(struct perf_event_attr, size), r->info.swapped);
	if (asize == 0)
		asize = PERF_ATTR_SIZE_VER0;
	if (asize < PERF_ATTR_SIZE_VER0 || asize > size - 8)
		goto bad;
	attr_from_file(&a, rec + 8, asize, r->info.swapped);
	pa = add_attr(r, &a);
	if (!pa)
		return;
	for (off = 8 + asize; off + 8 <= size; off += 8)
		attr_add_id(r, pa, rec_u64(rec, off, r->info.swapped));
	pd_reader__compute_id_pos(r);
	return;
bad:
	warning("'%s': attr record at offset %" PRIu64 " is malformed; ignored",
		r->path, r->in.pos - size);
}

void pd_reader__keep_tracing_data(struct pd_reader *r, const uint8_t *p, size_t size)
{
	if (size > PD_MAX_TRACING || r->tracing_buf) {
		warning("'%s': tracing data feature of %zu bytes ignored", r->path, size);
		return;
	}
	r->tracing_buf = xmalloc(size ? size : 1);
	memcpy(r->tracing_buf, p, size);
	r->info.tracing_data = r->tracing_buf;
	r->info.tracing_data_size = size;
}
