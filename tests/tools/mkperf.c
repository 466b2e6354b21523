/*
 * mkperf: write a perf.data file described by a small text spec, so that
 * jitsym's tests need no live perf. The spec language is documented in
 * tests/tools/README.md.
 *
 *   mkperf [--pipe] [--swap] [--compress|--compress2] SPEC OUT  (OUT "-": stdout)
 *
 * Record and attr layouts come from <perf/event.h> and <linux/perf_event.h>.
 * The perf.data header, the feature numbers and the feature layouts are
 * declared by no installed header: they follow the kernel's
 * tools/perf/Documentation/perf.data-file-format.txt and are declared here
 * under mkperf names.
 *
 * The output is built in memory (at most SPEC_MAX_OUTPUT bytes): records
 * are encoded as the spec is read, so a record can only use the attrs
 * declared above it; then they are grouped into PERF_RECORD_COMPRESSED
 * records (--compress) or perf 6.15's COMPRESSED2 ones (--compress2);
 * then wrapped in the file or pipe header. Every
 * multi-byte field goes through struct buf, which writes it in the other
 * byte order under --swap.
 *
 * The spec language, messages and output buffers are spec.c's, shared
 * with mkjitdump; what is here is static, in sections: limits and formats,
 * perf layouts, lists and names, spec lines, bitfields, the spec, attrs,
 * records, samples, global verbs, reading, assembly, main.
 *
 * Exit codes: 0 ok, 1 bad command line, 2 bad spec or I/O error.
 */
#define _GNU_SOURCE
#include <byteswap.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perf/event.h>
#include <zstd.h>

#include "spec.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mkperf assumes a little-endian host (see bitword__to_be)"
#endif

_Static_assert(sizeof(struct perf_event_attr) == PERF_ATTR_SIZE_VER7,
	       "perf_event_attr changed: update attr_fields[] and ATTR_FLAG_NAMES");

const char spec_prog[] = "mkperf";

/* ---- Limits and formats ------------------------------------------------ */

enum {
	MKPERF_MAX_ATTRS = 64,
	MKPERF_MAX_IDS = 256,		/* ids of one attr */
	MKPERF_MAX_NAME = 256,		/* bytes in an attr name */
	MKPERF_MAX_READ = 256,		/* values in one read= list */
	MKPERF_MAX_ATTR_SIZE = 4096,	/* header attr_size= */
	MKPERF_MAX_RECORD = 65535,	/* perf_event_header.size is a u16 */
};

/* Feature bits of the perf.data header (perf.data-file-format.txt). */
enum mkperf_feat {
	MKPERF_FEAT_BUILD_ID = 2,
	MKPERF_FEAT_HOSTNAME = 3,
	MKPERF_FEAT_OSRELEASE = 4,
	MKPERF_FEAT_VERSION = 5,
	MKPERF_FEAT_ARCH = 6,
	MKPERF_FEAT_NRCPUS = 7,
	MKPERF_FEAT_CPUDESC = 8,
	MKPERF_FEAT_CPUID = 9,
	MKPERF_FEAT_TOTAL_MEM = 10,
	MKPERF_FEAT_CMDLINE = 11,
	MKPERF_FEAT_EVENT_DESC = 12,
	MKPERF_FEAT_SAMPLE_TIME = 21,
	MKPERF_FEAT_CLOCKID = 23,
	MKPERF_FEAT_COMPRESSED = 27,
	MKPERF_FEAT_CLOCK_DATA = 29,
	MKPERF_FEAT_BITS = 256,
};

/*
 * The file header: magic, size, attr_size, then the attrs, data and
 * event_types sections ({u64 offset, u64 size} each), then a 256-bit
 * feature bitmap as four u64 words. The pipe header is magic and size.
 */
#define MKPERF_MAGIC2 0x32454c4946524550ULL	/* "PERFILE2", read as a LE u64 */
#define MKPERF_FILE_HEADER_SIZE 104
#define MKPERF_PIPE_HEADER_SIZE 16
#define MKPERF_NAME_ALIGN 64		/* perf pads header strings to this */
#define MKPERF_COMP_ZSTD 1
#define MKPERF_MMAP_LEN 528384		/* perf record's default: 129 pages */
#define MKPERF_GROUP 32768		/* record bytes per compressed record */

/*
 * perf 6.15's PERF_RECORD_COMPRESSED2, newer than <perf/event.h>: the
 * header, a u64 data_size (the zstd bytes), the zstd bytes padded to 8.
 */
#define MKPERF_RECORD_COMPRESSED2 83
/*
 * Deferred user call chains, newer than <linux/perf_event.h> here (6.1):
 * from upstream include/uapi/linux/perf_event.h (the defer_callchain attr
 * bit, merged after Linux 6.17's unwind_deferred): a sample's call chain
 * ends PERF_CONTEXT_USER_DEFERRED, cookie; the user part comes later in
 * PERF_RECORD_CALLCHAIN_DEFERRED { header; u64 cookie, nr, ips[nr];
 * sample_id }.
 */
#define MKPERF_RECORD_CALLCHAIN_DEFERRED 22
#define MKPERF_CONTEXT_USER_DEFERRED ((uint64_t)-640)

#define ALIGN_UP(n, a) (((n) + (a) - 1) / (a) * (a))

/* ---- Perf layouts: padding, strings, record headers --------------------- */

static void buf__pad(struct buf *b, size_t align)
{
	buf__zero(b, ALIGN_UP(b->len, align) - b->len);
}

/* A NUL-terminated string, zero-padded to a multiple of align bytes. */
static void buf__cstr(struct buf *b, const char *s, size_t align)
{
	size_t n = strlen(s) + 1;

	buf__put(b, s, n);
	buf__zero(b, ALIGN_UP(n, align) - n);
}

/* A perf header string: u32 len, then len bytes of padded string. */
static void buf__string(struct buf *b, const char *s)
{
	buf__u32(b, (uint32_t)ALIGN_UP(strlen(s) + 1, MKPERF_NAME_ALIGN));
	buf__cstr(b, s, MKPERF_NAME_ALIGN);
}

/* struct perf_event_header, which starts every record. */
static void buf__event_header(struct buf *b, uint32_t type, uint16_t misc,
			      uint16_t size)
{
	buf__u32(b, type);
	buf__u16(b, misc);
	buf__u16(b, size);
}

/* ---- Lists and names ---------------------------------------------------- */

/* Up to max numbers joined by sep ("1:2:3"); returns how many, or -1. */
static int parse_parts(const char *s, const char *sep, uint64_t *out,
		       size_t max)
{
	char item[SPEC_MAX_ITEM];
	size_t n = 0;
	int r;

	if (!*s)
		return -1;
	while ((r = list__next(&s, sep, item, sizeof(item))) > 0) {
		if (n == max || parse_num(item, 64, &out[n]) < 0)
			return -1;
		n++;
	}
	return r < 0 ? -1 : (int)n;
}

static const struct name_val sample_type_names[] = {
	{ "IP", PERF_SAMPLE_IP }, { "TID", PERF_SAMPLE_TID },
	{ "TIME", PERF_SAMPLE_TIME }, { "ADDR", PERF_SAMPLE_ADDR },
	{ "READ", PERF_SAMPLE_READ }, { "CALLCHAIN", PERF_SAMPLE_CALLCHAIN },
	{ "ID", PERF_SAMPLE_ID }, { "CPU", PERF_SAMPLE_CPU },
	{ "PERIOD", PERF_SAMPLE_PERIOD }, { "STREAM_ID", PERF_SAMPLE_STREAM_ID },
	{ "RAW", PERF_SAMPLE_RAW }, { "BRANCH_STACK", PERF_SAMPLE_BRANCH_STACK },
	{ "REGS_USER", PERF_SAMPLE_REGS_USER },
	{ "STACK_USER", PERF_SAMPLE_STACK_USER },
	{ "WEIGHT", PERF_SAMPLE_WEIGHT }, { "DATA_SRC", PERF_SAMPLE_DATA_SRC },
	{ "IDENTIFIER", PERF_SAMPLE_IDENTIFIER },
	{ "TRANSACTION", PERF_SAMPLE_TRANSACTION },
	{ "REGS_INTR", PERF_SAMPLE_REGS_INTR },
	{ "PHYS_ADDR", PERF_SAMPLE_PHYS_ADDR }, { "AUX", PERF_SAMPLE_AUX },
	{ "CGROUP", PERF_SAMPLE_CGROUP },
	{ "DATA_PAGE_SIZE", PERF_SAMPLE_DATA_PAGE_SIZE },
	{ "CODE_PAGE_SIZE", PERF_SAMPLE_CODE_PAGE_SIZE },
	{ "WEIGHT_STRUCT", PERF_SAMPLE_WEIGHT_STRUCT },
	{ NULL, 0 }
};

static const struct name_val read_format_names[] = {
	{ "TOTAL_TIME_ENABLED", PERF_FORMAT_TOTAL_TIME_ENABLED },
	{ "TOTAL_TIME_RUNNING", PERF_FORMAT_TOTAL_TIME_RUNNING },
	{ "ID", PERF_FORMAT_ID }, { "GROUP", PERF_FORMAT_GROUP },
	{ "LOST", PERF_FORMAT_LOST },
	{ NULL, 0 }
};

static const struct name_val branch_type_names[] = {
	{ "USER", PERF_SAMPLE_BRANCH_USER },
	{ "KERNEL", PERF_SAMPLE_BRANCH_KERNEL },
	{ "HV", PERF_SAMPLE_BRANCH_HV }, { "ANY", PERF_SAMPLE_BRANCH_ANY },
	{ "ANY_CALL", PERF_SAMPLE_BRANCH_ANY_CALL },
	{ "ANY_RETURN", PERF_SAMPLE_BRANCH_ANY_RETURN },
	{ "IND_CALL", PERF_SAMPLE_BRANCH_IND_CALL },
	{ "ABORT_TX", PERF_SAMPLE_BRANCH_ABORT_TX },
	{ "IN_TX", PERF_SAMPLE_BRANCH_IN_TX },
	{ "NO_TX", PERF_SAMPLE_BRANCH_NO_TX },
	{ "COND", PERF_SAMPLE_BRANCH_COND },
	{ "CALL_STACK", PERF_SAMPLE_BRANCH_CALL_STACK },
	{ "IND_JUMP", PERF_SAMPLE_BRANCH_IND_JUMP },
	{ "CALL", PERF_SAMPLE_BRANCH_CALL },
	{ "NO_FLAGS", PERF_SAMPLE_BRANCH_NO_FLAGS },
	{ "NO_CYCLES", PERF_SAMPLE_BRANCH_NO_CYCLES },
	{ "TYPE_SAVE", PERF_SAMPLE_BRANCH_TYPE_SAVE },
	{ "HW_INDEX", PERF_SAMPLE_BRANCH_HW_INDEX },
	{ "PRIV_SAVE", PERF_SAMPLE_BRANCH_PRIV_SAVE },
	{ NULL, 0 }
};

static const struct name_val misc_names[] = {
	{ "kernel", PERF_RECORD_MISC_KERNEL },
	{ "user", PERF_RECORD_MISC_USER },
	{ "hv", PERF_RECORD_MISC_HYPERVISOR },
	{ "guest_kernel", PERF_RECORD_MISC_GUEST_KERNEL },
	{ "guest_user", PERF_RECORD_MISC_GUEST_USER },
	{ "proc_map_parse_timeout", PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT },
	{ "mmap_data", PERF_RECORD_MISC_MMAP_DATA },
	{ "comm_exec", PERF_RECORD_MISC_COMM_EXEC },
	{ "fork_exec", PERF_RECORD_MISC_FORK_EXEC },
	{ "switch_out", PERF_RECORD_MISC_SWITCH_OUT },
	{ "exact_ip", PERF_RECORD_MISC_EXACT_IP },
	{ "switch_out_preempt", PERF_RECORD_MISC_SWITCH_OUT_PREEMPT },
	{ "mmap_build_id", PERF_RECORD_MISC_MMAP_BUILD_ID },
	{ "ext_reserved", PERF_RECORD_MISC_EXT_RESERVED },
	{ NULL, 0 }
};

static const struct name_val callchain_contexts[] = {
	{ "hv", PERF_CONTEXT_HV }, { "kernel", PERF_CONTEXT_KERNEL },
	{ "user", PERF_CONTEXT_USER }, { "guest", PERF_CONTEXT_GUEST },
	{ "guest_kernel", PERF_CONTEXT_GUEST_KERNEL },
	{ "guest_user", PERF_CONTEXT_GUEST_USER },
	/* the marker a deferred call chain ends with, before its cookie */
	{ "user_deferred", MKPERF_CONTEXT_USER_DEFERRED },
	{ NULL, 0 }
};

/* ---- Spec lines --------------------------------------------------------- */

/* An optional override: set only when the key is on the line. */
static void line__opt(struct line *l, const char *key, unsigned bits,
		      struct opt_u64 *o)
{
	if (!line__has(l, key))
		return;
	o->v = line__num(l, key, bits, 0);
	o->set = true;
}

/* ---- Bitfields ---------------------------------------------------------- */

/*
 * perf_event_attr's flags and perf_branch_entry's flags are C bitfields in
 * one u64. Their layout is not hard-coded: each field is probed by setting
 * it to all ones through the real struct and looking at the word. That
 * gives the little-endian layout, and from it the big-endian one used by
 * --swap (see bitword__to_be).
 */
union probe_obj {
	struct perf_event_attr attr;
	struct perf_branch_entry branch;
};

struct flag_def {
	const char *name;
	void (*probe)(union probe_obj *o, uint64_t v);
};

struct bitword {
	const struct flag_def *defs;
	size_t n;
	size_t off;			/* of the u64 in union probe_obj */
};

#define ATTR_FLAG_NAMES(X) X(disabled) X(inherit) X(pinned) X(exclusive) \
	X(exclude_user) X(exclude_kernel) X(exclude_hv) X(exclude_idle)     \
	X(mmap) X(comm) X(freq) X(inherit_stat) X(enable_on_exec) X(task)   \
	X(watermark) X(precise_ip) X(mmap_data) X(sample_id_all)            \
	X(exclude_host) X(exclude_guest) X(exclude_callchain_kernel)        \
	X(exclude_callchain_user) X(mmap2) X(comm_exec) X(use_clockid)      \
	X(context_switch) X(write_backward) X(namespaces) X(ksymbol)        \
	X(bpf_event) X(aux_output) X(cgroup) X(text_poke) X(build_id)       \
	X(inherit_thread) X(remove_on_exec) X(sigtrap)

#define BRANCH_FLAG_NAMES(X) X(mispred) X(predicted) X(in_tx) X(abort) \
	X(cycles) X(type) X(spec) X(new_type) X(priv)

#define ATTR_PROBE(f) \
	static void attr_probe_##f(union probe_obj *o, uint64_t v) \
	{ o->attr.f = v; }
#define BRANCH_PROBE(f) \
	static void branch_probe_##f(union probe_obj *o, uint64_t v) \
	{ o->branch.f = v; }
#define ATTR_FLAG_DEF(f) { #f, attr_probe_##f },
#define BRANCH_FLAG_DEF(f) { #f, branch_probe_##f },

ATTR_FLAG_NAMES(ATTR_PROBE)
BRANCH_FLAG_NAMES(BRANCH_PROBE)

static const struct flag_def attr_flag_defs[] = { ATTR_FLAG_NAMES(ATTR_FLAG_DEF) };
static const struct flag_def branch_flag_defs[] = { BRANCH_FLAG_NAMES(BRANCH_FLAG_DEF) };

/* The attr flags word follows read_format; the branch one follows to. */
#define ATTR_FLAGS_OFF (offsetof(struct perf_event_attr, read_format) + 8)

static const struct bitword attr_word = {
	attr_flag_defs, sizeof(attr_flag_defs) / sizeof(attr_flag_defs[0]),
	ATTR_FLAGS_OFF,
};
static const struct bitword branch_word = {
	branch_flag_defs, sizeof(branch_flag_defs) / sizeof(branch_flag_defs[0]),
	offsetof(struct perf_branch_entry, to) + 8,
};

static void bitword__layout(const struct bitword *w, size_t i,
			    unsigned *shift, unsigned *width)
{
	union probe_obj o;
	uint64_t word;

	memset(&o, 0, sizeof(o));
	w->defs[i].probe(&o, UINT64_MAX);
	memcpy(&word, (uint8_t *)&o + w->off, sizeof(word));
	if (!word)
		die("bitfield '%s' is not in its flags word", w->defs[i].name);
	*shift = (unsigned)__builtin_ctzll(word);
	*width = (unsigned)__builtin_popcountll(word);
}

static uint64_t width_mask(unsigned width)
{
	return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

static int bitword__find(const struct bitword *w, const char *name)
{
	size_t i;

	for (i = 0; i < w->n; i++)
		if (!strcmp(w->defs[i].name, name))
			return (int)i;
	return -1;
}

/* Store v in field i of *word; -1 if v does not fit the field. */
static int bitword__set(const struct bitword *w, size_t i, uint64_t v,
			uint64_t *word)
{
	unsigned shift, width;
	uint64_t mask;

	bitword__layout(w, i, &shift, &width);
	mask = width_mask(width);
	if (v & ~mask)
		return -1;
	*word = (*word & ~(mask << shift)) | (v << shift);
	return 0;
}

/*
 * The same word as a big-endian compiler lays it out: fields are
 * allocated from the most significant bit, so a field at little-endian
 * bit offset o of width w sits at bit 64 - o - w, its value unchanged.
 * Bits of no known field move one by one, bit i to bit 63 - i. The result
 * is then stored as a big-endian u64.
 */
static uint64_t bitword__to_be(const struct bitword *w, uint64_t le)
{
	uint64_t be = 0, known = 0;
	unsigned shift, width, i;

	for (i = 0; i < w->n; i++) {
		uint64_t mask;

		bitword__layout(w, i, &shift, &width);
		mask = width_mask(width);
		be |= ((le >> shift) & mask) << (64 - shift - width);
		known |= mask << shift;
	}
	for (i = 0; i < 64; i++)
		if (!(known >> i & 1) && (le >> i & 1))
			be |= UINT64_C(1) << (63 - i);
	return be;
}

/*
 * Flags written as "name|name=value|0x10": each item sets a field (a bare
 * name sets it to 1) or ors in raw bits of the little-endian layout.
 */
static int bitword__parse(const struct bitword *w, const char *s,
			  uint64_t *word)
{
	char item[SPEC_MAX_ITEM];
	int r;

	while ((r = list__next(&s, "|", item, sizeof(item))) > 0) {
		char *eq = strchr(item, '=');
		uint64_t v = 1;
		int i;

		if (eq)
			*eq = '\0';
		i = bitword__find(w, item);
		if (i < 0) {
			if (eq || parse_num(item, 64, &v) < 0)
				return -1;
			*word |= v;
			continue;
		}
		if ((eq && parse_num(eq + 1, 64, &v) < 0) ||
		    bitword__set(w, (size_t)i, v, word) < 0)
			return -1;
	}
	return r < 0 ? -1 : 0;
}

/* ---- The spec ----------------------------------------------------------- */

struct attr_def {
	struct perf_event_attr attr;	/* native order */
	char name[MKPERF_MAX_NAME];
	bool has_name;
	bool size_given;		/* size= set attr.size itself */
	uint64_t ids[MKPERF_MAX_IDS];
	size_t nr_ids;
	struct opt_u64 nr_ids_claimed;	/* nr_ids=: the count the file states */
};

struct rec_ref {
	size_t off, len;
	bool compressible;
};

/* What the header line overrides; see README.md. */
struct header_over {
	struct opt_u64 attr_size, attr_size_field, nr_attrs, attrs_offset;
	struct opt_u64 attrs_size, data_offset, data_size, size, event_desc;
	char magic[8];
	bool has_magic;
};

struct spec {
	const char *path;
	bool pipe, swap, compress;
	bool compress2;			/* COMPRESSED2 records, not COMPRESSED */
	struct attr_def attrs[MKPERF_MAX_ATTRS];
	size_t nr_attrs;
	struct buf feat[MKPERF_FEAT_BITS];	/* contents, by feature bit */
	bool has_feat[MKPERF_FEAT_BITS];
	struct buf build_ids;		/* PERF_RECORD_HEADER_BUILD_ID records */
	struct buf records;		/* encoded records, back to back */
	struct rec_ref *recs;
	size_t nr_recs, alloc_recs;
	struct header_over hdr;
	struct {
		uint64_t level, mmap_len, group, version;
	} comp;
	struct truncation trunc;
};

static size_t spec__attr_size(const struct spec *s)
{
	return opt_or(s->hdr.attr_size, sizeof(struct perf_event_attr));
}

static void spec__add_rec(struct spec *s, size_t off, bool compressible)
{
	if (s->nr_recs == s->alloc_recs) {
		s->alloc_recs = s->alloc_recs ? s->alloc_recs * 2 : 64;
		if (s->alloc_recs > SPEC_MAX_OUTPUT / sizeof(*s->recs))
			die("too many records");
		s->recs = xrealloc(s->recs, s->alloc_recs * sizeof(*s->recs));
	}
	s->recs[s->nr_recs].off = off;
	s->recs[s->nr_recs].len = s->records.len - off;
	s->recs[s->nr_recs].compressible = compressible;
	s->nr_recs++;
}

/* ---- attr lines --------------------------------------------------------- */

/* The scalar members of perf_event_attr, for parsing and for --swap. */
struct attr_field {
	const char *key;
	size_t off;
	unsigned size;				/* bytes */
	const struct name_val *names;		/* symbolic values, or NULL */
	bool alias;				/* same bytes as the one before */
};

#define AF(key, m, names) { key, offsetof(struct perf_event_attr, m), \
	sizeof(((struct perf_event_attr *)0)->m), names, false }

static const struct attr_field attr_fields[] = {
	AF("type", type, NULL),
	AF("size", size, NULL),
	AF("config", config, NULL),
	AF("sample_period", sample_period, NULL),
	{ "sample_freq", offsetof(struct perf_event_attr, sample_freq), 8,
	  NULL, true },
	AF("sample_type", sample_type, sample_type_names),
	AF("read_format", read_format, read_format_names),
	AF("wakeup_events", wakeup_events, NULL),
	AF("bp_type", bp_type, NULL),
	AF("config1", config1, NULL),
	AF("config2", config2, NULL),
	AF("branch_sample_type", branch_sample_type, branch_type_names),
	AF("sample_regs_user", sample_regs_user, NULL),
	AF("sample_stack_user", sample_stack_user, NULL),
	AF("clockid", clockid, NULL),
	AF("sample_regs_intr", sample_regs_intr, NULL),
	AF("aux_watermark", aux_watermark, NULL),
	AF("sample_max_stack", sample_max_stack, NULL),
	AF("reserved_2", __reserved_2, NULL),
	AF("aux_sample_size", aux_sample_size, NULL),
	AF("reserved_3", __reserved_3, NULL),
	AF("sig_data", sig_data, NULL),
};
#define NR_ATTR_FIELDS (sizeof(attr_fields) / sizeof(attr_fields[0]))

static void mem_store(uint8_t *dst, uint64_t v, unsigned size)
{
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	if (size == 2)
		memcpy(dst, &v16, 2);
	else if (size == 4)
		memcpy(dst, &v32, 4);
	else
		memcpy(dst, &v, 8);
}

static void mem_reverse(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n / 2; i++) {
		uint8_t t = p[i];

		p[i] = p[n - 1 - i];
		p[n - 1 - i] = t;
	}
}

static void attr__parse_fields(struct attr_def *d, struct line *l)
{
	size_t i;

	d->size_given = line__has(l, "size");
	for (i = 0; i < NR_ATTR_FIELDS; i++) {
		const struct attr_field *f = &attr_fields[i];
		unsigned bits = f->size * 8;
		uint64_t v;

		if (!line__has(l, f->key))
			continue;
		if (f->names)
			v = line__flags(l, f->key, f->names, bits, 0);
		else
			v = line__num(l, f->key, bits, 0);
		mem_store((uint8_t *)&d->attr + f->off, v, f->size);
	}
}

static void attr__parse_flags(struct attr_def *d, struct line *l)
{
	uint8_t *at = (uint8_t *)&d->attr + ATTR_FLAGS_OFF;
	uint64_t word;
	size_t i;

	memcpy(&word, at, sizeof(word));
	word |= line__u64(l, "flags", 0);
	for (i = 0; i < attr_word.n; i++) {
		const char *name = attr_word.defs[i].name;

		if (line__has(l, name) &&
		    bitword__set(&attr_word, i, line__u64(l, name, 0), &word) < 0)
			line__error(l, "value for '%s' does not fit the bitfield",
				    name);
	}
	memcpy(at, &word, sizeof(word));
}

static bool attr__has_id(const struct attr_def *d, uint64_t id)
{
	size_t i;

	for (i = 0; i < d->nr_ids; i++)
		if (d->ids[i] == id)
			return true;
	return false;
}

static const struct attr_def *spec__attr_by_id(const struct spec *s,
					       uint64_t id)
{
	size_t i;

	for (i = 0; i < s->nr_attrs; i++)
		if (attr__has_id(&s->attrs[i], id))
			return &s->attrs[i];
	return NULL;
}

static void attr__parse_ids(struct attr_def *d, struct line *l,
			    const struct spec *s)
{
	const char *v = line__str(l, "ids");
	char item[SPEC_MAX_ITEM];
	uint64_t id;
	int r;

	while (v && (r = list__next(&v, ",", item, sizeof(item))) > 0) {
		if (parse_num(item, 64, &id) < 0) {
			line__error(l, "bad id '%s'", item);
			return;
		}
		if (d->nr_ids == MKPERF_MAX_IDS || spec__attr_by_id(s, id) ||
		    attr__has_id(d, id)) {
			line__error(l, "id %s: repeated, or more than %d ids",
				    item, MKPERF_MAX_IDS);
			return;
		}
		d->ids[d->nr_ids++] = id;
	}
	line__opt(l, "nr_ids", 32, &d->nr_ids_claimed);
}

static int verb_attr(struct spec *s, struct line *l, uint32_t arg)
{
	struct attr_def *d = &s->attrs[s->nr_attrs];
	const char *name;

	(void)arg;
	if (s->nr_attrs == MKPERF_MAX_ATTRS)
		return line__error(l, "more than %d attrs", MKPERF_MAX_ATTRS);
	memset(d, 0, sizeof(*d));
	name = line__str(l, "name");
	if (name && strlen(name) >= sizeof(d->name))
		return line__error(l, "name longer than %d bytes",
				   MKPERF_MAX_NAME - 1);
	if (name) {
		memcpy(d->name, name, strlen(name) + 1);
		d->has_name = true;
	}
	attr__parse_fields(d, l);
	attr__parse_flags(d, l);
	attr__parse_ids(d, l, s);
	if (line__finish(l) < 0)
		return -1;
	s->nr_attrs++;
	return 0;
}

/* Swap every field of an encoded attr in place, as a BE machine has it. */
static void attr__swap(uint8_t *p)
{
	uint64_t word;
	size_t i;

	for (i = 0; i < NR_ATTR_FIELDS; i++)
		if (!attr_fields[i].alias)
			mem_reverse(p + attr_fields[i].off, attr_fields[i].size);
	memcpy(&word, p + ATTR_FLAGS_OFF, sizeof(word));
	word = bswap_64(bitword__to_be(&attr_word, word));
	memcpy(p + ATTR_FLAGS_OFF, &word, sizeof(word));
}

/* The attr in attr_size bytes: cut short, or zero-extended. */
static void attr__encode(struct buf *b, const struct attr_def *d,
			 size_t attr_size)
{
	union {
		struct perf_event_attr attr;
		uint8_t bytes[sizeof(struct perf_event_attr)];
	} u;
	size_t n = attr_size < sizeof(u) ? attr_size : sizeof(u);

	u.attr = d->attr;
	if (!d->size_given)
		u.attr.size = (uint32_t)attr_size;
	if (b->swap)
		attr__swap(u.bytes);
	buf__put(b, u.bytes, n);
	buf__zero(b, attr_size - n);
}

static size_t attr__nr_ids_claimed(const struct attr_def *d)
{
	return opt_or(d->nr_ids_claimed, d->nr_ids);
}

/* ---- Records ------------------------------------------------------------ */

/* The sample_id fields of a non-sample record (see struct sample_id). */
struct sid {
	uint32_t pid, tid, cpu;
	uint64_t time, id, stream_id;
};

/*
 * The attr a record belongs to: attr=INDEX, or the attr holding id=, or
 * the first attr. *id gets id=, or that attr's first id, or 0.
 */
static const struct attr_def *spec__pick_attr(struct spec *s, struct line *l,
					      uint64_t *id)
{
	bool has_id = line__has(l, "id");
	const struct attr_def *a = NULL;

	*id = line__u64(l, "id", 0);
	if (line__has(l, "attr")) {
		uint64_t i = line__u64(l, "attr", 0);

		if (i >= s->nr_attrs) {
			line__error(l, "attr=%llu: there are %zu attrs",
				    (unsigned long long)i, s->nr_attrs);
			return NULL;
		}
		a = &s->attrs[i];
	} else if (has_id) {
		a = spec__attr_by_id(s, *id);
		if (!a)
			line__error(l, "no attr has id %llu (attr=INDEX writes it anyway)",
				    (unsigned long long)*id);
		return a;
	} else if (s->nr_attrs) {
		a = &s->attrs[0];
	}
	if (a && !has_id && a->nr_ids)
		*id = a->ids[0];
	return a;
}

/* The trailing sample_id block, if the attr has sample_id_all. */
static void sid__put(struct buf *b, struct line *l, const struct attr_def *a,
		     struct sid *v)
{
	uint64_t t;

	if (!a || !a->attr.sample_id_all)
		return;
	t = a->attr.sample_type;
	if (t & PERF_SAMPLE_TID) {
		v->pid = line__u32(l, "pid", v->pid);
		v->tid = line__u32(l, "tid", v->tid);
		buf__u32(b, v->pid);
		buf__u32(b, v->tid);
	}
	if (t & PERF_SAMPLE_TIME)
		buf__u64(b, line__u64(l, "time", v->time));
	if (t & PERF_SAMPLE_ID)
		buf__u64(b, v->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		buf__u64(b, line__u64(l, "stream_id", v->stream_id));
	if (t & PERF_SAMPLE_CPU) {
		buf__u32(b, line__u32(l, "cpu", v->cpu));
		buf__u32(b, 0);
	}
	if (t & PERF_SAMPLE_IDENTIFIER)
		buf__u64(b, v->id);
}

/* Start a record: its header with size 0 until rec__end(). */
static size_t rec__begin(struct spec *s, struct line *l, uint32_t type,
			 uint16_t misc)
{
	size_t at = s->records.len;

	misc = (uint16_t)line__flags(l, "misc", misc_names, 16, misc);
	buf__event_header(&s->records, type, misc, 0);
	return at;
}

/* Finish a record: set its size (or size=) and check the line. */
static int rec__end(struct spec *s, struct line *l, size_t at,
		    bool compressible)
{
	size_t len = s->records.len - at;

	if (len > MKPERF_MAX_RECORD)
		return line__error(l, "record is %zu bytes, more than a header's u16 size can say",
				   len);
	buf__set_u16(&s->records, at + 6,
		     line__u16(l, "size", (uint16_t)len));
	if (line__finish(l) < 0)
		return -1;
	spec__add_rec(s, at, compressible);
	return 0;
}


static int rec_comm(struct spec *s, struct line *l, uint32_t arg)
{
	struct buf *b = &s->records;
	struct sid v = { 0 };
	const struct attr_def *a = spec__pick_attr(s, l, &v.id);
	bool exec = line__bool(l, "exec", false);
	size_t at;

	(void)arg;
	at = rec__begin(s, l, PERF_RECORD_COMM,
			exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	v.pid = line__u32(l, "pid", 0);
	v.tid = line__u32(l, "tid", v.pid);
	buf__u32(b, v.pid);
	buf__u32(b, v.tid);
	buf__cstr(b, line__cstr(l, "comm"), 8);
	sid__put(b, l, a, &v);
	return rec__end(s, l, at, true);
}

/* fork and exit share struct perf_record_fork. */
static int rec_task(struct spec *s, struct line *l, uint32_t type)
{
	struct buf *b = &s->records;
	struct sid v = { 0 };
	const struct attr_def *a = spec__pick_attr(s, l, &v.id);
	size_t at = rec__begin(s, l, type, 0);
	uint32_t ppid;

	v.pid = line__u32(l, "pid", 0);
	ppid = line__u32(l, "ppid", 0);
	v.tid = line__u32(l, "tid", v.pid);
	v.time = line__u64(l, "time", 0);
	buf__u32(b, v.pid);
	buf__u32(b, ppid);
	buf__u32(b, v.tid);
	buf__u32(b, line__u32(l, "ptid", ppid));
	buf__u64(b, v.time);
	sid__put(b, l, a, &v);
	return rec__end(s, l, at, true);
}

/* pid, tid, start, len, pgoff: the head of mmap and mmap2. */
static void mmap__put_head(struct buf *b, struct line *l, struct sid *v)
{
	v->pid = line__u32(l, "pid", 0);
	v->tid = line__u32(l, "tid", v->pid);
	buf__u32(b, v->pid);
	buf__u32(b, v->tid);
	buf__u64(b, line__u64(l, "start", 0));
	buf__u64(b, line__u64(l, "len", 0));
	buf__u64(b, line__u64(l, "pgoff", 0));
}

static int rec_mmap(struct spec *s, struct line *l, uint32_t arg)
{
	struct buf *b = &s->records;
	struct sid v = { 0 };
	const struct attr_def *a = spec__pick_attr(s, l, &v.id);
	size_t at = rec__begin(s, l, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);

	(void)arg;
	mmap__put_head(b, l, &v);
	buf__cstr(b, line__cstr(l, "filename"), 8);
	sid__put(b, l, a, &v);
	return rec__end(s, l, at, true);
}

/* mmap2's union: a build id (buildid=) or maj, min, ino, ino_generation. */
static void mmap2__put_dev(struct buf *b, struct line *l, const struct buf *id)
{
	if (id) {
		buf__u8(b, (uint8_t)id->len);
		buf__u8(b, 0);
		buf__u16(b, 0);
		buf__put(b, id->p, id->len);
		buf__zero(b, 20 - id->len);
		return;
	}
	buf__u32(b, line__u32(l, "maj", 0));
	buf__u32(b, line__u32(l, "min", 0));
	buf__u64(b, line__u64(l, "ino", 0));
	buf__u64(b, line__u64(l, "ino_generation", 0));
}

static int rec_mmap2(struct spec *s, struct line *l, uint32_t arg)
{
	struct buf *b = &s->records, id = { 0 };
	struct sid v = { 0 };
	const struct attr_def *a = spec__pick_attr(s, l, &v.id);
	bool has_id = line__hex(l, "buildid", &id);
	size_t at;
	int ret;

	(void)arg;
	if (id.len > 20)
		line__error(l, "buildid longer than 20 bytes");
	at = rec__begin(s, l, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER |
			(has_id ? PERF_RECORD_MISC_MMAP_BUILD_ID : 0));
	mmap__put_head(b, l, &v);
	mmap2__put_dev(b, l, has_id && id.len <= 20 ? &id : NULL);
	buf__u32(b, line__u32(l, "prot", 0));
	buf__u32(b, line__u32(l, "flags", 0));
	buf__cstr(b, line__cstr(l, "filename"), 8);
	sid__put(b, l, a, &v);
	ret = rec__end(s, l, at, true);
	buf__release(&id);
	return ret;
}

static int rec_lost(struct spec *s, struct line *l, uint32_t type)
{
	struct buf *b = &s->records;
	struct sid v = { 0 };
	const struct attr_def *a = spec__pick_attr(s, l, &v.id);
	size_t at = rec__begin(s, l, type, 0);

	if (type == PERF_RECORD_LOST)
		buf__u64(b, v.id);
	buf__u64(b, line__u64(l, "lost", 0));
	sid__put(b, l, a, &v);
	return rec__end(s, l, at, true);
}

static int rec_throttle(struct spec *s, struct line *l, uint32_t type)
{
	struct buf *b = &s->records;
	struct sid v = { 0 };
	const struct attr_def *a = spec__pick_attr(s, l, &v.id);
	size_t at = rec__begin(s, l, type, 0);

	v.time = line__u64(l, "time", 0);
	v.stream_id = line__u64(l, "stream_id", 0);
	buf__u64(b, v.time);
	buf__u64(b, v.id);
	buf__u64(b, v.stream_id);
	sid__put(b, l, a, &v);
	return rec__end(s, l, at, true);
}

/* switch and switch_cpu_wide; out=1, preempt=1 set the misc bits. */
static int rec_switch(struct spec *s, struct line *l, uint32_t type)
{
	struct buf *b = &s->records;
	struct sid v = { 0 };
	const struct attr_def *a = spec__pick_attr(s, l, &v.id);
	uint16_t misc = 0;
	size_t at;

	if (line__bool(l, "out", false))
		misc |= PERF_RECORD_MISC_SWITCH_OUT;
	if (line__bool(l, "preempt", false))
		misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	at = rec__begin(s, l, type, misc);
	if (type == PERF_RECORD_SWITCH_CPU_WIDE) {
		buf__u32(b, line__u32(l, "next_prev_pid", 0));
		buf__u32(b, line__u32(l, "next_prev_tid", 0));
	}
	sid__put(b, l, a, &v);
	return rec__end(s, l, at, true);
}

static int rec_ksymbol(struct spec *s, struct line *l, uint32_t arg)
{
	struct buf *b = &s->records;
	struct sid v = { 0 };
	const struct attr_def *a = spec__pick_attr(s, l, &v.id);
	size_t at = rec__begin(s, l, PERF_RECORD_KSYMBOL, 0);

	(void)arg;
	buf__u64(b, line__u64(l, "addr", 0));
	buf__u32(b, line__u32(l, "len", 0));
	buf__u16(b, line__u16(l, "ksym_type", PERF_RECORD_KSYMBOL_TYPE_BPF));
	buf__u16(b, line__u16(l, "flags", 0));
	buf__cstr(b, line__cstr(l, "name"), 8);
	sid__put(b, l, a, &v);
	return rec__end(s, l, at, true);
}

/*
 * namespaces: u32 pid, tid; u64 nr_namespaces; {u64 dev, ino} each, in
 * the kernel's order (net, uts, ipc, pid, user, mnt, cgroup). pid_ns=
 * is the pid namespace's inode; the others get 0xeffffff0 + index.
 */
static int rec_namespaces(struct spec *s, struct line *l, uint32_t arg)
{
	struct buf *b = &s->records;
	struct sid v = { 0 };
	const struct attr_def *a = spec__pick_attr(s, l, &v.id);
	size_t at = rec__begin(s, l, PERF_RECORD_NAMESPACES, 0);
	uint64_t i, nr = line__u64(l, "nr", 7), dev = line__u64(l, "dev", 4);

	(void)arg;
	if (nr > 64)
		return line__error(l, "nr=%llu: at most 64 namespaces", (unsigned long long)nr);
	v.pid = line__u32(l, "pid", 0);
	v.tid = line__u32(l, "tid", v.pid);
	v.time = line__u64(l, "time", 0);
	buf__u32(b, v.pid);
	buf__u32(b, v.tid);
	buf__u64(b, nr);
	for (i = 0; i < nr; i++) {
		buf__u64(b, dev);
		buf__u64(b, i == 3 ? line__u64(l, "pid_ns", 0xeffffffcu) : 0xeffffff0u + i);
	}
	sid__put(b, l, a, &v);
	return rec__end(s, l, at, true);
}

/* finished_round, finished_init: a bare header, never compressed. */
static int rec_marker(struct spec *s, struct line *l, uint32_t type)
{
	size_t at = rec__begin(s, l, type, 0);

	return rec__end(s, l, at, false);
}

/* Any type, any bytes, any size: for malformed input. */
static int rec_raw(struct spec *s, struct line *l, uint32_t arg)
{
	size_t at;

	(void)arg;
	if (!line__has(l, "type"))
		return line__error(l, "raw needs type=");
	at = rec__begin(s, l, line__u32(l, "type", 0), 0);
	line__hex(l, "bytes", &s->records);
	return rec__end(s, l, at, false);
}

/* ---- Samples ------------------------------------------------------------ */

struct sample_ctx {
	struct buf *b;
	struct line *l;
	const struct attr_def *a;
	uint64_t id;
};

static void put_id(struct sample_ctx *c)
{
	buf__u64(c->b, c->id);
}

static void put_tid(struct sample_ctx *c)
{
	uint32_t pid = line__u32(c->l, "pid", 0);

	buf__u32(c->b, pid);
	buf__u32(c->b, line__u32(c->l, "tid", pid));
}

static void put_cpu(struct sample_ctx *c)
{
	buf__u32(c->b, line__u32(c->l, "cpu", 0));
	buf__u32(c->b, 0);
}

/* One read_format value: VALUE[:ID][:LOST], as read_format has them. */
struct read_val {
	uint64_t value, id, lost;
};

static int read__parse(struct sample_ctx *c, const char *s,
		       struct read_val *v, size_t *n)
{
	uint64_t rf = c->a->attr.read_format;
	bool has_id = rf & PERF_FORMAT_ID, has_lost = rf & PERF_FORMAT_LOST;
	size_t max = 1 + has_id + has_lost;
	char item[SPEC_MAX_ITEM];
	uint64_t p[3] = { 0 };
	int r, k;

	for (*n = 0; (r = list__next(&s, ",", item, sizeof(item))) > 0; (*n)++) {
		k = parse_parts(item, ":", p, max);
		if (k < 0 || *n == MKPERF_MAX_READ)
			return line__error(c->l, "bad read value '%s': expected VALUE%s%s, at most %d",
					   item, has_id ? "[:ID]" : "",
					   has_lost ? "[:LOST]" : "",
					   MKPERF_MAX_READ);
		v[*n].value = p[0];
		v[*n].id = has_id && k > 1 ? p[1] : 0;
		v[*n].lost = has_lost && k > 1 + has_id ? p[1 + has_id] : 0;
		memset(p, 0, sizeof(p));
	}
	return r < 0 ? line__error(c->l, "read= item too long") : 0;
}

static void read__put_one(struct sample_ctx *c, const struct read_val *v)
{
	uint64_t rf = c->a->attr.read_format;

	buf__u64(c->b, v->value);
	if (!(rf & PERF_FORMAT_GROUP)) {
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			buf__u64(c->b, line__u64(c->l, "time_enabled", 0));
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			buf__u64(c->b, line__u64(c->l, "time_running", 0));
	}
	if (rf & PERF_FORMAT_ID)
		buf__u64(c->b, v->id);
	if (rf & PERF_FORMAT_LOST)
		buf__u64(c->b, v->lost);
}

static void put_read(struct sample_ctx *c)
{
	uint64_t rf = c->a->attr.read_format;
	struct read_val v[MKPERF_MAX_READ] = { { 0, 0, 0 } };
	const char *s = line__str(c->l, "read");
	size_t i, n = 0;

	if (s && read__parse(c, s, v, &n) < 0)
		return;
	if (!s) {
		/* Like the kernel: at least the event itself, with its id. */
		v[0].id = c->id;
		n = 1;
	}
	if (!(rf & PERF_FORMAT_GROUP)) {
		if (n > 1)
			line__error(c->l, "read= has %zu values but read_format has no GROUP",
				    n);
		read__put_one(c, &v[0]);
		return;
	}
	buf__u64(c->b, n);
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		buf__u64(c->b, line__u64(c->l, "time_enabled", 0));
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		buf__u64(c->b, line__u64(c->l, "time_running", 0));
	for (i = 0; i < n; i++)
		read__put_one(c, &v[i]);
}

/* "kernel:0xffff...", "user:", "0x401234": a context marker and/or an ip. */
static int callchain__item(struct sample_ctx *c, char *item, uint64_t *n)
{
	char *colon = strchr(item, ':');
	uint64_t v;

	if (colon)
		*colon = '\0';
	if (!name_val__find(callchain_contexts, item, &v)) {
		buf__u64(c->b, v);
		(*n)++;
		item = colon ? colon + 1 : item + strlen(item);
		if (!*item)
			return 0;
	} else if (colon) {
		return line__error(c->l, "unknown callchain context '%s'", item);
	}
	if (parse_num(item, 64, &v) < 0)
		return line__error(c->l, "bad callchain address '%s'", item);
	buf__u64(c->b, v);
	(*n)++;
	return 0;
}

/*
 * Each ','-separated item of key's value through put(), which writes it
 * and adds to *n what it counts for the field's nr. -1 at the first bad
 * item (put() says why), or at one longer than SPEC_MAX_ITEM.
 */
static int sample__items(struct sample_ctx *c, const char *key,
			 int (*put)(struct sample_ctx *c, char *item,
				    uint64_t *n),
			 uint64_t *n)
{
	const char *s = line__str(c->l, key);
	char item[SPEC_MAX_ITEM];
	int r = 0;

	while (s && (r = list__next(&s, ",", item, sizeof(item))) > 0)
		if (put(c, item, n) < 0)
			return -1;
	return r < 0 ? line__error(c->l, "%s item too long", key) : 0;
}

/* u64 nr, then nr u64s: the callchain= ips and context markers. */
static void put_callchain(struct sample_ctx *c)
{
	size_t at = c->b->len;
	uint64_t n = 0;

	buf__u64(c->b, 0);
	sample__items(c, "callchain", callchain__item, &n);
	buf__set_u64(c->b, at, n);
}

/*
 * callchain_deferred: u64 cookie, u64 nr, nr ips (callchain=, as a
 * sample's), then the sample_id block: the kernel's layout (see
 * MKPERF_RECORD_CALLCHAIN_DEFERRED).
 */
static int rec_callchain_deferred(struct spec *s, struct line *l, uint32_t arg)
{
	struct buf *b = &s->records;
	struct sid v = { 0 };
	const struct attr_def *a = spec__pick_attr(s, l, &v.id);
	size_t at = rec__begin(s, l, MKPERF_RECORD_CALLCHAIN_DEFERRED, PERF_RECORD_MISC_USER);
	struct sample_ctx c = { b, l, a, v.id };

	(void)arg;
	v.pid = line__u32(l, "pid", 0);
	v.tid = line__u32(l, "tid", v.pid);
	buf__u64(b, line__u64(l, "cookie", 0));
	put_callchain(&c);
	sid__put(b, l, a, &v);
	return rec__end(s, l, at, true);
}

/* u32 size, then the bytes zero-padded so that size + 4 is 8-aligned. */
static void put_raw(struct sample_ctx *c)
{
	struct buf data = { 0 };
	size_t padded;

	line__hex(c->l, "raw", &data);
	padded = ALIGN_UP(data.len + 4, 8) - 4;
	buf__u32(c->b, (uint32_t)padded);
	buf__put(c->b, data.p, data.len);
	buf__zero(c->b, padded - data.len);
	buf__release(&data);
}

/* "FROM:TO[:FLAGS]", FLAGS as in bitword__parse(); one more entry in *n. */
static int branch__item(struct sample_ctx *c, char *item, uint64_t *n)
{
	char *to = strchr(item, ':'), *flags = NULL;
	uint64_t from_v, to_v, word = 0;
	char whole[SPEC_MAX_ITEM];

	memcpy(whole, item, strlen(item) + 1);
	if (to) {
		*to++ = '\0';
		flags = strchr(to, ':');
		if (flags)
			*flags++ = '\0';
	}
	if (!to || parse_num(item, 64, &from_v) < 0 ||
	    parse_num(to, 64, &to_v) < 0 ||
	    (flags && bitword__parse(&branch_word, flags, &word) < 0))
		return line__error(c->l, "bad branch '%s': expected FROM:TO[:FLAGS]",
				   whole);
	buf__u64(c->b, from_v);
	buf__u64(c->b, to_v);
	buf__u64(c->b, c->b->swap ? bitword__to_be(&branch_word, word) : word);
	(*n)++;
	return 0;
}

/* u64 nr, u64 hw_idx if branch_sample_type has HW_INDEX, nr entries. */
static void put_branch_stack(struct sample_ctx *c)
{
	size_t at = c->b->len;
	uint64_t n = 0;

	buf__u64(c->b, 0);
	if (c->a->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
		buf__u64(c->b, line__u64(c->l, "hw_idx", 0));
	sample__items(c, "branch_stack", branch__item, &n);
	buf__set_u64(c->b, at, n);
}

/* "ABI[:V1,V2,...]": u64 abi, then one u64 per bit of mask unless abi 0. */
static void put_regs(struct sample_ctx *c, const char *key, uint64_t mask)
{
	const char *s = line__str(c->l, key), *vals = NULL;
	size_t n = 0, want = (size_t)__builtin_popcountll(mask);
	char item[SPEC_MAX_ITEM];
	uint64_t abi = 0, v;
	int r = 0;

	if (s && (vals = strchr(s, ':')) != NULL)
		vals++;
	if (s && (list__next(&s, ":", item, sizeof(item)) <= 0 ||
		  parse_num(item, 64, &abi) < 0)) {
		line__error(c->l, "bad %s ABI: expected ABI[:V1,V2,...]", key);
		return;
	}
	buf__u64(c->b, abi);
	if (!abi)
		want = 0;
	while (vals && (r = list__next(&vals, ",", item, sizeof(item))) > 0) {
		if (n == want || parse_num(item, 64, &v) < 0) {
			line__error(c->l, "%s: bad value, or more than the %zu the mask (and ABI) allow",
				    key, want);
			return;
		}
		buf__u64(c->b, v);
		n++;
	}
	for (; n < want; n++)
		buf__u64(c->b, 0);
}

static void put_regs_user(struct sample_ctx *c)
{
	put_regs(c, "regs_user", c->a->attr.sample_regs_user);
}

static void put_regs_intr(struct sample_ctx *c)
{
	put_regs(c, "regs_intr", c->a->attr.sample_regs_intr);
}

/*
 * The bytes of the file at path, relative to the spec's directory unless
 * absolute, appended to out; at most max of them. -1 after line__error().
 */
static int read_bytes_file(struct line *l, const char *path, size_t max, struct buf *out)
{
	const char *slash = strrchr(l->path, '/');
	char full[4096], chunk[4096];
	size_t n, total = 0;
	FILE *f;

	if (path[0] != '/' && slash && strcmp(l->path, "-"))
		snprintf(full, sizeof(full), "%.*s/%s", (int)(slash - l->path), l->path, path);
	else
		snprintf(full, sizeof(full), "%s", path);
	f = fopen(full, "rb");
	if (!f)
		return line__error(l, "cannot open '%s'", full);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 && (total += n) <= max)
		buf__put(out, chunk, n);
	fclose(f);
	if (total > max)
		return line__error(l, "'%s' is larger than %zu bytes", full, max);
	return 0;
}

/*
 * The dump's bytes: stack_data=HEX or stack_file=PATH (raw bytes, as the
 * stack holds them); neither is an empty dump. -1 after line__error().
 */
static int stack_bytes(struct sample_ctx *c, struct buf *data)
{
	const char *file = line__str(c->l, "stack_file");

	if (file && line__has(c->l, "stack_data"))
		return line__error(c->l, "stack_data and stack_file both give the stack's bytes");
	if (file)
		return read_bytes_file(c->l, file, MKPERF_MAX_RECORD, data);
	line__hex(c->l, "stack_data", data);
	return c->l->err ? -1 : 0;
}

/*
 * "SIZE[:DYN_SIZE]": u64 size, size bytes (the stack's bytes, zero-filled),
 * u64 dyn_size. Without stack_user, SIZE is the bytes given, rounded up to
 * 8, and DYN_SIZE their number.
 */
static void put_stack_user(struct sample_ctx *c)
{
	const char *s = line__str(c->l, "stack_user");
	uint64_t p[2] = { 0, 0 };
	struct buf data = { 0 };
	int k = s ? parse_parts(s, ":", p, 2) : 1;

	if (k < 0 || p[0] % 8 || p[0] > MKPERF_MAX_RECORD) {
		line__error(c->l, "bad stack_user: expected SIZE[:DYN_SIZE], SIZE a multiple of 8 below 64 KiB");
		return;
	}
	if (stack_bytes(c, &data) < 0)
		goto out;
	if (!s) {
		p[0] = ALIGN_UP(data.len, 8);
		p[1] = data.len;
		k = 2;
	}
	if (data.len > p[0]) {
		line__error(c->l, "the stack's bytes are more than the stack_user size");
		goto out;
	}
	buf__u64(c->b, p[0]);
	if (p[0]) {
		buf__put(c->b, data.p, data.len);
		buf__zero(c->b, p[0] - data.len);
		buf__u64(c->b, k > 1 ? p[1] : p[0]);
	}
out:
	buf__release(&data);
}

/* "FULL" or "VAR1:VAR2:VAR3" (u32, u16, u16, packed low to high). */
static void put_weight(struct sample_ctx *c)
{
	const char *s = line__str(c->l, "weight");
	uint64_t p[3] = { 0, 0, 0 };
	int k = s ? parse_parts(s, ":", p, 3) : 1;

	if (k < 0 || (k > 1 && (p[0] >> 32 || p[1] >> 16 || p[2] >> 16))) {
		line__error(c->l, "bad weight: expected FULL or VAR1:VAR2:VAR3");
		return;
	}
	buf__u64(c->b, k > 1 ? p[0] | p[1] << 32 | p[2] << 48 : p[0]);
}

/* u64 size, then the bytes zero-padded to 8. */
static void put_aux(struct sample_ctx *c)
{
	struct buf data = { 0 };
	size_t padded;

	line__hex(c->l, "aux", &data);
	padded = ALIGN_UP(data.len, 8);
	buf__u64(c->b, padded);
	buf__put(c->b, data.p, data.len);
	buf__zero(c->b, padded - data.len);
	buf__release(&data);
}

/* PERF_RECORD_SAMPLE fields in the order the kernel writes them. */
static const struct sample_field {
	uint64_t bit;
	const char *key;			/* a plain u64 read from key */
	void (*put)(struct sample_ctx *c);	/* or a field of its own shape */
} sample_layout[] = {
	{ PERF_SAMPLE_IDENTIFIER, NULL, put_id },
	{ PERF_SAMPLE_IP, "ip", NULL },
	{ PERF_SAMPLE_TID, NULL, put_tid },
	{ PERF_SAMPLE_TIME, "time", NULL },
	{ PERF_SAMPLE_ADDR, "addr", NULL },
	{ PERF_SAMPLE_ID, NULL, put_id },
	{ PERF_SAMPLE_STREAM_ID, "stream_id", NULL },
	{ PERF_SAMPLE_CPU, NULL, put_cpu },
	{ PERF_SAMPLE_PERIOD, "period", NULL },
	{ PERF_SAMPLE_READ, NULL, put_read },
	{ PERF_SAMPLE_CALLCHAIN, NULL, put_callchain },
	{ PERF_SAMPLE_RAW, NULL, put_raw },
	{ PERF_SAMPLE_BRANCH_STACK, NULL, put_branch_stack },
	{ PERF_SAMPLE_REGS_USER, NULL, put_regs_user },
	{ PERF_SAMPLE_STACK_USER, NULL, put_stack_user },
	{ PERF_SAMPLE_WEIGHT_TYPE, NULL, put_weight },
	{ PERF_SAMPLE_DATA_SRC, "data_src", NULL },
	{ PERF_SAMPLE_TRANSACTION, "transaction", NULL },
	{ PERF_SAMPLE_REGS_INTR, NULL, put_regs_intr },
	{ PERF_SAMPLE_PHYS_ADDR, "phys_addr", NULL },
	{ PERF_SAMPLE_CGROUP, "cgroup", NULL },
	{ PERF_SAMPLE_DATA_PAGE_SIZE, "data_page_size", NULL },
	{ PERF_SAMPLE_CODE_PAGE_SIZE, "code_page_size", NULL },
	{ PERF_SAMPLE_AUX, NULL, put_aux },
};

static int rec_sample(struct spec *s, struct line *l, uint32_t arg)
{
	struct sample_ctx c = { &s->records, l, NULL, 0 };
	uint64_t ip = 0;
	size_t i, at;

	(void)arg;
	c.a = spec__pick_attr(s, l, &c.id);
	if (!c.a)
		return line__error(l, "a sample needs an attr line above it");
	if (c.a->attr.sample_type & PERF_SAMPLE_IP)
		ip = line__u64(l, "ip", 0);
	at = rec__begin(s, l, PERF_RECORD_SAMPLE, ip >> 63 ?
			PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	for (i = 0; i < sizeof(sample_layout) / sizeof(sample_layout[0]); i++) {
		const struct sample_field *f = &sample_layout[i];

		if (!(c.a->attr.sample_type & f->bit))
			continue;
		if (f->put)
			f->put(&c);
		else
			buf__u64(c.b, line__u64(l, f->key, 0));
	}
	return rec__end(s, l, at, true);
}

/* ---- Global verbs: header, feature, buildid, compress, truncate --------- */

static int verb_header(struct spec *s, struct line *l, uint32_t arg)
{
	struct header_over *h = &s->hdr;
	const char *magic = line__str(l, "magic");

	(void)arg;
	line__opt(l, "attr_size", 32, &h->attr_size);
	line__opt(l, "attr_size_field", 64, &h->attr_size_field);
	line__opt(l, "nr_attrs", 32, &h->nr_attrs);
	line__opt(l, "attrs_offset", 64, &h->attrs_offset);
	line__opt(l, "attrs_size", 64, &h->attrs_size);
	line__opt(l, "data_offset", 64, &h->data_offset);
	line__opt(l, "data_size", 64, &h->data_size);
	line__opt(l, "size", 64, &h->size);
	line__opt(l, "event_desc", 1, &h->event_desc);
	if (magic && strlen(magic) != sizeof(h->magic))
		return line__error(l, "magic must be 8 characters");
	if (magic) {
		memcpy(h->magic, magic, sizeof(h->magic));
		h->has_magic = true;
	}
	if (h->attr_size.set && (h->attr_size.v < 8 ||
				 h->attr_size.v > MKPERF_MAX_ATTR_SIZE))
		return line__error(l, "attr_size must be 8..%d", MKPERF_MAX_ATTR_SIZE);
	if (s->pipe && (h->nr_attrs.set || h->attrs_offset.set ||
			h->attrs_size.set || h->data_offset.set ||
			h->data_size.set || h->attr_size_field.set))
		return line__error(l, "that header key has no meaning with --pipe");
	return line__finish(l);
}

enum feat_kind { FK_STRING, FK_STRLIST, FK_NUMS, FK_RAW };

/*
 * nums spells a FK_NUMS layout: '4' a u32 and '8' a u64 from the line,
 * 'v' a u32 version 1.
 */
static const struct feat_def {
	const char *name;
	unsigned int id;
	enum feat_kind kind;
	const char *nums;
} feat_defs[] = {
	{ "hostname", MKPERF_FEAT_HOSTNAME, FK_STRING, NULL },
	{ "osrelease", MKPERF_FEAT_OSRELEASE, FK_STRING, NULL },
	{ "version", MKPERF_FEAT_VERSION, FK_STRING, NULL },
	{ "arch", MKPERF_FEAT_ARCH, FK_STRING, NULL },
	{ "cpudesc", MKPERF_FEAT_CPUDESC, FK_STRING, NULL },
	{ "cpuid", MKPERF_FEAT_CPUID, FK_STRING, NULL },
	{ "nrcpus", MKPERF_FEAT_NRCPUS, FK_NUMS, "44" },
	{ "total_mem", MKPERF_FEAT_TOTAL_MEM, FK_NUMS, "8" },
	{ "cmdline", MKPERF_FEAT_CMDLINE, FK_STRLIST, NULL },
	{ "sample_time", MKPERF_FEAT_SAMPLE_TIME, FK_NUMS, "88" },
	{ "clockid", MKPERF_FEAT_CLOCKID, FK_NUMS, "8" },
	{ "clock_data", MKPERF_FEAT_CLOCK_DATA, FK_NUMS, "v488" },
	{ "raw", 0, FK_RAW, NULL },
};

/* Feature id's contents, from now on written; in the output's byte order. */
static struct buf *spec__add_feat(struct spec *s, unsigned int id)
{
	s->has_feat[id] = true;
	s->feat[id].swap = s->swap;
	return &s->feat[id];
}

/* spec__add_feat() for a feature line; NULL if id was given before. */
static struct buf *spec__claim_feat(struct spec *s, struct line *l,
				    unsigned int id)
{
	if (s->has_feat[id]) {
		line__error(l, "feature %u given twice", id);
		return NULL;
	}
	return spec__add_feat(s, id);
}

static int feature__nums(struct buf *b, struct line *l, const char *nums)
{
	size_t w = 2;
	uint64_t v;

	for (; *nums; nums++) {
		unsigned bits = *nums == '8' ? 64 : 32;

		if (*nums == 'v') {
			buf__u32(b, 1);
			continue;
		}
		if (w >= l->nword || parse_num(l->word[w], bits, &v) < 0)
			return line__error(l, "feature '%s': missing or bad number",
					   l->word[1]);
		if (bits == 64)
			buf__u64(b, v);
		else
			buf__u32(b, (uint32_t)v);
		w++;
	}
	if (w != l->nword)
		return line__error(l, "feature '%s': too many values", l->word[1]);
	return 0;
}

/* The words after the feature name, joined by single blanks. */
static int feature__string(struct buf *b, struct line *l)
{
	struct buf text = { 0 };
	size_t w;

	if (l->nword < 3)
		return line__error(l, "feature '%s' needs a value", l->word[1]);
	for (w = 2; w < l->nword; w++) {
		if (w > 2)
			buf__u8(&text, ' ');
		buf__put(&text, l->word[w], strlen(l->word[w]));
	}
	buf__u8(&text, '\0');
	buf__string(b, (const char *)text.p);
	buf__release(&text);
	return 0;
}

/* feature raw ID [HEX]: any feature bit with any bytes. */
static int feature__raw(struct spec *s, struct line *l)
{
	uint64_t id;
	struct buf *b;

	if (l->nword < 3 || l->nword > 4 || parse_num(l->word[2], 8, &id) < 0 ||
	    !id)
		return line__error(l, "expected: feature raw ID [HEX], ID 1..255");
	b = spec__claim_feat(s, l, (unsigned int)id);
	if (!b)
		return -1;
	if (l->nword == 4 && parse_hex(l->word[3], b) < 0)
		return line__error(l, "bad hex bytes");
	return 0;
}

static int verb_feature(struct spec *s, struct line *l, uint32_t arg)
{
	const struct feat_def *f = NULL;
	struct buf *b;
	size_t i, w;

	(void)arg;
	for (i = 0; l->nword > 1 && i < sizeof(feat_defs) / sizeof(feat_defs[0]); i++)
		if (!strcmp(feat_defs[i].name, l->word[1]))
			f = &feat_defs[i];
	if (!f)
		return line__error(l, "unknown feature '%s'",
				   l->nword > 1 ? l->word[1] : "");
	if (f->kind == FK_RAW)
		return feature__raw(s, l);
	b = spec__claim_feat(s, l, f->id);
	if (!b)
		return -1;
	if (f->kind == FK_NUMS)
		return feature__nums(b, l, f->nums);
	if (f->kind == FK_STRING)
		return feature__string(b, l);
	buf__u32(b, (uint32_t)(l->nword - 2));
	for (w = 2; w < l->nword; w++)
		buf__string(b, l->word[w]);
	return 0;
}

/*
 * A build id event, as in HEADER_BUILD_ID and PERF_RECORD_HEADER_BUILD_ID:
 * header, pid, 20 id bytes, id size, 3 reserved, then the name padded to
 * NAME_ALIGN. Like perf, the size is not rounded to 8.
 */
static int verb_buildid(struct spec *s, struct line *l, uint32_t arg)
{
	struct buf *b = &s->build_ids, id = { 0 };
	const char *name = line__str(l, "name");
	uint16_t misc = line__flags(l, "misc", misc_names, 16,
				    PERF_RECORD_MISC_USER);
	size_t len;

	(void)arg;
	b->swap = s->swap;
	if (!name || !line__hex(l, "id", &id) || id.len > 20) {
		buf__release(&id);
		return line__error(l, "buildid needs name= and id= (at most 20 hex bytes)");
	}
	len = 36 + ALIGN_UP(strlen(name) + 1, MKPERF_NAME_ALIGN);
	if (len > MKPERF_MAX_RECORD)
		line__error(l, "name too long for a record");
	buf__event_header(b, PERF_RECORD_HEADER_BUILD_ID,
			  misc | PERF_RECORD_MISC_BUILD_ID_SIZE, (uint16_t)len);
	buf__u32(b, line__u32(l, "pid", UINT32_MAX));
	buf__put(b, id.p, id.len);
	buf__zero(b, 20 - id.len);
	buf__u8(b, (uint8_t)id.len);
	buf__zero(b, 3);
	buf__cstr(b, name, MKPERF_NAME_ALIGN);
	buf__release(&id);
	return line__finish(l);
}

static int verb_compress(struct spec *s, struct line *l, uint32_t arg)
{
	(void)arg;
	s->comp.level = line__u64(l, "level", s->comp.level);
	s->comp.mmap_len = line__u32(l, "mmap_len", s->comp.mmap_len);
	s->comp.group = line__u64(l, "group", s->comp.group);
	s->comp.version = line__u32(l, "version", s->comp.version);
	if (s->comp.level < 1 || s->comp.level > (uint64_t)ZSTD_maxCLevel())
		return line__error(l, "level must be 1..%d", ZSTD_maxCLevel());
	if (s->comp.group < 8 || s->comp.group > MKPERF_MAX_RECORD)
		return line__error(l, "group must be 8..%d bytes", MKPERF_MAX_RECORD);
	return line__finish(l);
}

static int verb_truncate(struct spec *s, struct line *l, uint32_t arg)
{
	(void)arg;
	return truncation__parse(&s->trunc, l);
}

/* ---- Reading the spec --------------------------------------------------- */

static const struct verb {
	const char *name;
	int (*fn)(struct spec *s, struct line *l, uint32_t arg);
	uint32_t arg;
	bool kv;			/* takes KEY=VALUE words */
} verbs[] = {
	{ "header", verb_header, 0, true },
	{ "attr", verb_attr, 0, true },
	{ "feature", verb_feature, 0, false },
	{ "buildid", verb_buildid, 0, true },
	{ "compress", verb_compress, 0, true },
	{ "truncate", verb_truncate, 0, false },
	{ "comm", rec_comm, 0, true },
	{ "fork", rec_task, PERF_RECORD_FORK, true },
	{ "exit", rec_task, PERF_RECORD_EXIT, true },
	{ "mmap", rec_mmap, 0, true },
	{ "mmap2", rec_mmap2, 0, true },
	{ "lost", rec_lost, PERF_RECORD_LOST, true },
	{ "lost_samples", rec_lost, PERF_RECORD_LOST_SAMPLES, true },
	{ "throttle", rec_throttle, PERF_RECORD_THROTTLE, true },
	{ "unthrottle", rec_throttle, PERF_RECORD_UNTHROTTLE, true },
	{ "switch", rec_switch, PERF_RECORD_SWITCH, true },
	{ "switch_cpu_wide", rec_switch, PERF_RECORD_SWITCH_CPU_WIDE, true },
	{ "ksymbol", rec_ksymbol, 0, true },
	{ "namespaces", rec_namespaces, 0, true },
	{ "sample", rec_sample, 0, true },
	{ "callchain_deferred", rec_callchain_deferred, 0, true },
	{ "finished_round", rec_marker, PERF_RECORD_FINISHED_ROUND, true },
	{ "finished_init", rec_marker, PERF_RECORD_FINISHED_INIT, true },
	{ "raw", rec_raw, 0, true },
};

static int spec__line(struct spec *s, struct line *l)
{
	size_t i;

	for (i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		if (strcmp(verbs[i].name, l->word[0]))
			continue;
		if (verbs[i].kv && line__pairs(l) < 0)
			return -1;
		return verbs[i].fn(s, l, verbs[i].arg);
	}
	return line__error(l, "unknown verb '%s'", l->word[0]);
}

static int spec__read(struct spec *s, const char *path)
{
	FILE *f = input__open(path);
	struct spec_reader r;
	int ret;

	if (!f)
		return -1;
	spec_reader__init(&r, f, path);
	r.nul_ends_line = true;
	r.line->unused_hint = "unknown key, or a field its attr's sample_type / sample_id_all / read_format does not have";
	while ((ret = spec_reader__next(&r)) > 0) {
		ret = spec__line(s, r.line);
		if (ret < 0)
			break;
	}
	spec_reader__exit(&r);
	input__close(f);
	return ret;
}

/* ---- Assembly ----------------------------------------------------------- */

struct comp {
	ZSTD_CCtx *cctx;
	struct buf group;		/* records waiting to be compressed */
	uint64_t in, out;		/* bytes before and after */
};

/* Wrap the waiting group in one PERF_RECORD_COMPRESSED or COMPRESSED2 (one zstd frame). */
static int comp__flush(struct comp *c, const struct spec *s, struct buf *out)
{
	size_t bound = ZSTD_compressBound(c->group.len), n;
	uint8_t *frame;

	if (!c->group.len)
		return 0;
	frame = xrealloc(NULL, bound);
	n = ZSTD_compressCCtx(c->cctx, frame, bound, c->group.p, c->group.len,
			      (int)s->comp.level);
	if (ZSTD_isError(n)) {
		free(frame);
		return error("zstd: %s", ZSTD_getErrorName(n));
	}
	if ((s->compress2 ? ALIGN_UP(n, 8) + 16 : n + 8) > MKPERF_MAX_RECORD) {
		free(frame);
		return error("a compressed group of %zu bytes does not fit one record: lower 'compress group='",
			     c->group.len);
	}
	if (s->compress2) {
		buf__event_header(out, MKPERF_RECORD_COMPRESSED2, 0, (uint16_t)(ALIGN_UP(n, 8) + 16));
		buf__u64(out, n);
		buf__put(out, frame, n);
		buf__zero(out, ALIGN_UP(n, 8) - n);
	} else {
		buf__event_header(out, PERF_RECORD_COMPRESSED, 0, (uint16_t)(n + 8));
		buf__put(out, frame, n);
	}
	c->in += c->group.len;
	c->out += n;
	c->group.len = 0;
	free(frame);
	return 0;
}

/* The data section: records as they are, or grouped and compressed. */
static int stream__build(const struct spec *s, struct buf *out,
			 struct comp *c)
{
	size_t i;

	for (i = 0; i < s->nr_recs; i++) {
		const struct rec_ref *r = &s->recs[i];
		const uint8_t *p = s->records.p + r->off;

		if (!s->compress || !r->compressible) {
			if (s->compress && comp__flush(c, s, out) < 0)
				return -1;
			buf__put(out, p, r->len);
			continue;
		}
		if (c->group.len + r->len > s->comp.group &&
		    comp__flush(c, s, out) < 0)
			return -1;
		buf__put(&c->group, p, r->len);
	}
	return s->compress ? comp__flush(c, s, out) : 0;
}

static void feature__event_desc(const struct spec *s, struct buf *b)
{
	size_t i, j, attr_size = spec__attr_size(s);

	buf__u32(b, (uint32_t)s->nr_attrs);
	buf__u32(b, (uint32_t)attr_size);
	for (i = 0; i < s->nr_attrs; i++) {
		const struct attr_def *d = &s->attrs[i];

		attr__encode(b, d, attr_size);
		buf__u32(b, (uint32_t)attr__nr_ids_claimed(d));
		buf__string(b, d->name);
		for (j = 0; j < d->nr_ids; j++)
			buf__u64(b, d->ids[j]);
	}
}

/* HEADER_COMPRESSED: version, type, level, ratio, mmap_len. */
static void feature__compressed(const struct spec *s, const struct comp *c,
				struct buf *b)
{
	buf__u32(b, (uint32_t)s->comp.version);
	buf__u32(b, MKPERF_COMP_ZSTD);
	buf__u32(b, (uint32_t)s->comp.level);
	buf__u32(b, (uint32_t)(c->out ? (c->in + c->out / 2) / c->out : 0));
	buf__u32(b, (uint32_t)s->comp.mmap_len);
}

/* Features mkperf writes itself, unless the spec gave them raw. */
static void spec__derive_features(struct spec *s, const struct comp *c)
{
	bool named = false;
	struct buf *b;
	size_t i;

	for (i = 0; i < s->nr_attrs; i++)
		named |= s->attrs[i].has_name;
	if (opt_or(s->hdr.event_desc, named) && s->nr_attrs &&
	    !s->has_feat[MKPERF_FEAT_EVENT_DESC]) {
		b = spec__add_feat(s, MKPERF_FEAT_EVENT_DESC);
		feature__event_desc(s, b);
	}
	if (s->compress && !s->has_feat[MKPERF_FEAT_COMPRESSED]) {
		b = spec__add_feat(s, MKPERF_FEAT_COMPRESSED);
		feature__compressed(s, c, b);
	}
	if (!s->pipe && s->build_ids.len && !s->has_feat[MKPERF_FEAT_BUILD_ID]) {
		b = spec__add_feat(s, MKPERF_FEAT_BUILD_ID);
		buf__put(b, s->build_ids.p, s->build_ids.len);
	}
	/*
	 * perf guesses how a swapped feature bitmap was written by looking
	 * for the HOSTNAME bit, and drops all features if it is not there.
	 */
	for (i = 0; s->swap && !s->pipe && i < MKPERF_FEAT_BITS; i++) {
		if (s->has_feat[i] && !s->has_feat[MKPERF_FEAT_HOSTNAME]) {
			warning("--swap without 'feature hostname': perf will ignore every feature");
			break;
		}
	}
}

static void header__magic(const struct spec *s, struct buf *b)
{
	if (s->hdr.has_magic)
		buf__put(b, s->hdr.magic, sizeof(s->hdr.magic));
	else
		buf__u64(b, MKPERF_MAGIC2);
}

/* Where the file's parts landed, for the header. */
struct layout {
	size_t attr_size;
	size_t attrs_off, attrs_len;
	size_t data_off, data_len;
};

static void header__encode(const struct spec *s, const struct layout *lo,
			   struct buf *h)
{
	const struct header_over *o = &s->hdr;
	uint64_t entry = lo->attr_size + 16, word;
	size_t w, bit;

	header__magic(s, h);
	buf__u64(h, opt_or(o->size, MKPERF_FILE_HEADER_SIZE));
	/* perf writes sizeof(struct perf_file_attr): the attr and its ids section */
	buf__u64(h, opt_or(o->attr_size_field, entry));
	buf__u64(h, opt_or(o->attrs_offset, lo->attrs_off));
	buf__u64(h, opt_or(o->attrs_size, o->nr_attrs.set ?
			   o->nr_attrs.v * entry : lo->attrs_len));
	buf__u64(h, opt_or(o->data_offset, lo->data_off));
	buf__u64(h, opt_or(o->data_size, lo->data_len));
	buf__u64(h, 0);			/* event_types: unused */
	buf__u64(h, 0);
	for (w = 0; w < MKPERF_FEAT_BITS / 64; w++) {
		for (word = 0, bit = 0; bit < 64; bit++)
			if (s->has_feat[w * 64 + bit])
				word |= UINT64_C(1) << bit;
		buf__u64(h, word);
	}
}

/* The section table, then each feature's contents, in bit order. */
static void features__write_sections(const struct spec *s, struct buf *out)
{
	size_t id, k = 0, n = 0, table;

	for (id = 0; id < MKPERF_FEAT_BITS; id++)
		n += s->has_feat[id];
	table = out->len;
	buf__zero(out, n * 16);
	for (id = 0; id < MKPERF_FEAT_BITS; id++) {
		if (!s->has_feat[id])
			continue;
		buf__set_u64(out, table + k * 16, out->len);
		buf__set_u64(out, table + k * 16 + 8, s->feat[id].len);
		buf__put(out, s->feat[id].p, s->feat[id].len);
		k++;
	}
}

static void file__assemble(const struct spec *s, const struct buf *data,
			   struct buf *out)
{
	size_t ids_at[MKPERF_MAX_ATTRS], i, j;
	struct buf h = { NULL, 0, 0, s->swap };
	struct layout lo = { spec__attr_size(s), 0, 0, 0, data->len };

	buf__zero(out, MKPERF_FILE_HEADER_SIZE);
	for (i = 0; i < s->nr_attrs; i++) {
		ids_at[i] = out->len;
		for (j = 0; j < s->attrs[i].nr_ids; j++)
			buf__u64(out, s->attrs[i].ids[j]);
	}
	lo.attrs_off = out->len;
	for (i = 0; i < s->nr_attrs; i++) {
		attr__encode(out, &s->attrs[i], lo.attr_size);
		buf__u64(out, ids_at[i]);
		buf__u64(out, attr__nr_ids_claimed(&s->attrs[i]) * 8);
	}
	lo.attrs_len = out->len - lo.attrs_off;
	buf__pad(out, 8);
	lo.data_off = out->len;
	buf__put(out, data->p, data->len);
	features__write_sections(s, out);
	header__encode(s, &lo, &h);
	memcpy(out->p, h.p, h.len);
	buf__release(&h);
}

/* Pipe mode: header, attr records, feature records, build ids, data. */
static int pipe__assemble(const struct spec *s, const struct buf *data,
			  struct buf *out)
{
	size_t attr_size = spec__attr_size(s), i, j, len;

	header__magic(s, out);
	buf__u64(out, opt_or(s->hdr.size, MKPERF_PIPE_HEADER_SIZE));
	for (i = 0; i < s->nr_attrs; i++) {
		const struct attr_def *d = &s->attrs[i];

		len = 8 + attr_size + 8 * attr__nr_ids_claimed(d);
		if (len > MKPERF_MAX_RECORD)
			return error("attr %zu does not fit a record", i);
		buf__event_header(out, PERF_RECORD_HEADER_ATTR, 0,
				  (uint16_t)len);
		attr__encode(out, d, attr_size);
		for (j = 0; j < d->nr_ids; j++)
			buf__u64(out, d->ids[j]);
	}
	for (i = 0; i < MKPERF_FEAT_BITS; i++) {
		if (!s->has_feat[i])
			continue;
		len = 16 + s->feat[i].len;
		if (len > MKPERF_MAX_RECORD)
			return error("feature %zu does not fit a record", i);
		buf__event_header(out, PERF_RECORD_HEADER_FEATURE, 0,
				  (uint16_t)len);
		buf__u64(out, i);
		buf__put(out, s->feat[i].p, s->feat[i].len);
	}
	buf__put(out, s->build_ids.p, s->build_ids.len);
	buf__put(out, data->p, data->len);
	return 0;
}

/* ---- main --------------------------------------------------------------- */

struct mkperf_opts {
	bool pipe, swap, compress, compress2;
	bool recompress2;		/* spec is a perf.data to rewrite */
	const char *spec, *out;
};

static const char *const usage[] = {
	"usage: mkperf [--pipe] [--swap] [--compress|--compress2] SPEC OUT",
	"",
	"Write the perf.data described by SPEC to OUT (\"-\" for stdout).",
	"",
	"  --pipe      pipe-mode file (attrs and features as records)",
	"  --swap      opposite byte order (big-endian on x86)",
	"  --compress  wrap records in zstd PERF_RECORD_COMPRESSED records",
	"  --compress2 the same in perf 6.15's PERF_RECORD_COMPRESSED2 records",
	"  -h, --help  this text",
	"",
	"The spec language is described in tests/tools/README.md.",
	"",
	"   or: mkperf --recompress2 PERF.DATA OUT",
	"",
	"Rewrite a file-mode perf.data (this machine's byte order) with its",
	"COMPRESSED records as COMPRESSED2 ones, as perf 6.15 writes -z data.",
	NULL
};

static void print_usage(FILE *f)
{
	const char *const *u;

	for (u = usage; *u; u++)
		fprintf(f, "%s\n", *u);
}

/* 0 to run; -1 to stop with *code (after --help, or a bad command line). */
static int opts__parse(struct mkperf_opts *o, int argc, char **argv,
		       int *code)
{
	static const struct option longopts[] = {
		{ "pipe", no_argument, NULL, 'p' },
		{ "swap", no_argument, NULL, 's' },
		{ "compress", no_argument, NULL, 'z' },
		{ "compress2", no_argument, NULL, '2' },
		{ "recompress2", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'p')
			o->pipe = true;
		else if (c == 's')
			o->swap = true;
		else if (c == 'z')
			o->compress = true;
		else if (c == '2')
			o->compress = o->compress2 = true;
		else if (c == 'r')
			o->recompress2 = true;
		else
			break;
	}
	if (c == 'h') {
		print_usage(stdout);
		*code = SPEC_EXIT_OK;
		return -1;
	}
	if (c != -1 || argc - optind != 2) {
		print_usage(stderr);
		*code = SPEC_EXIT_USAGE;
		return -1;
	}
	o->spec = argv[optind];
	o->out = argv[optind + 1];
	return 0;
}

static void spec__delete(struct spec *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < MKPERF_FEAT_BITS; i++)
		buf__release(&s->feat[i]);
	buf__release(&s->build_ids);
	buf__release(&s->records);
	free(s->recs);
	free(s);
}

static struct spec *spec__new(const struct mkperf_opts *o)
{
	struct spec *s = xrealloc(NULL, sizeof(*s));

	memset(s, 0, sizeof(*s));
	s->path = o->spec;
	s->pipe = o->pipe;
	s->swap = o->swap;
	s->compress = o->compress;
	s->compress2 = o->compress2;
	s->records.swap = o->swap;
	s->build_ids.swap = o->swap;
	s->comp.level = 1;
	s->comp.mmap_len = MKPERF_MMAP_LEN;
	s->comp.group = MKPERF_GROUP;
	return s;
}

/* ---- --recompress2: a perf.data's COMPRESSED records as COMPRESSED2 ---- */

#define MKPERF_HDR_SIZE 104		/* struct perf_file_header */
#define MKPERF_HDR_DATA 40		/* its data section: u64 offset, u64 size */
#define MKPERF_HDR_FLAGS 72		/* its feature bits: 4 u64 */

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The whole of path into b; -1 after error(). */
static int read_whole(const char *path, struct buf *b)
{
	FILE *f = input__open(path);
	uint8_t chunk[65536];
	size_t n;

	if (!f)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf__put(b, chunk, n);
	if (ferror(f)) {
		input__close(f);
		return error("cannot read '%s'", path);
	}
	input__close(f);
	return 0;
}

/* The data section of in, each COMPRESSED record rewritten, appended to out. */
static int recompress2__data(const uint8_t *p, uint64_t len, struct buf *out)
{
	uint64_t at = 0;

	while (at + 8 <= len) {
		uint32_t type;
		uint16_t size;

		memcpy(&type, p + at, 4);
		memcpy(&size, p + at + 6, 2);
		if (size < 8 || size > len - at)
			return error("record at data offset %llu has a bad size %u",
				     (unsigned long long)at, size);
		if (type == PERF_RECORD_COMPRESSED) {
			size_t n = size - 8u;

			if (ALIGN_UP(n, 8) + 16 > MKPERF_MAX_RECORD)
				return error("a COMPRESSED record of %u bytes does not fit a COMPRESSED2 one", size);
			buf__event_header(out, MKPERF_RECORD_COMPRESSED2, 0, (uint16_t)(ALIGN_UP(n, 8) + 16));
			buf__u64(out, n);
			buf__put(out, p + at + 8, n);
			buf__zero(out, ALIGN_UP(n, 8) - n);
		} else {
			buf__put(out, p + at, size);
		}
		at += size;
	}
	return at == len ? 0 : error("the data section ends inside a record header");
}

/*
 * A file-mode perf.data in this machine's byte order, as perf >= 6.15 would
 * have written it: its COMPRESSED records as COMPRESSED2, the data size and
 * the feature sections' offsets moved to match.
 */
static int recompress2(const char *in_path, const char *out_path)
{
	struct buf in = { NULL, 0, 0, false }, out = { NULL, 0, 0, false };
	uint64_t off, size, delta, nr_feat = 0, i;
	int ret = read_whole(in_path, &in);

	if (ret)
		goto done;
	if (in.len < MKPERF_HDR_SIZE || memcmp(in.p, "PERFILE2", 8) ||
	    get_u64(in.p + 8) != MKPERF_HDR_SIZE) {
		ret = error("'%s' is not a file-mode perf.data in this byte order", in_path);
		goto done;
	}
	off = get_u64(in.p + MKPERF_HDR_DATA);
	size = get_u64(in.p + MKPERF_HDR_DATA + 8);
	if (off < MKPERF_HDR_SIZE || off > in.len || size > in.len - off) {
		ret = error("'%s': the data section is not inside the file", in_path);
		goto done;
	}
	buf__put(&out, in.p, off);
	ret = recompress2__data(in.p + off, size, &out);
	if (ret)
		goto done;
	delta = out.len - off - size;
	buf__set_u64(&out, MKPERF_HDR_DATA + 8, out.len - off);
	for (i = 0; i < 4; i++)
		nr_feat += (uint64_t)__builtin_popcountll(get_u64(in.p + MKPERF_HDR_FLAGS + 8 * i));
	if (nr_feat * 16 > in.len - off - size) {
		ret = error("'%s': the feature table is cut short", in_path);
		goto done;
	}
	for (i = 0; i < nr_feat; i++) {
		size_t at = out.len + 16 * i;

		buf__put(&out, in.p + off + size + 16 * i, 16);
		buf__set_u64(&out, at, get_u64(out.p + at) + delta);
	}
	buf__put(&out, in.p + off + size + 16 * nr_feat, in.len - off - size - 16 * nr_feat);
	ret = output__write(out_path, &out);
done:
	buf__release(&in);
	buf__release(&out);
	return ret;
}

static int mkperf__run(const struct mkperf_opts *o)
{
	struct spec *s = spec__new(o);
	struct buf data = { NULL, 0, 0, o->swap }, out = { NULL, 0, 0, o->swap };
	struct comp c = { NULL, { 0 }, 0, 0 };
	int ret = spec__read(s, o->spec);

	if (!ret && s->compress) {
		c.cctx = ZSTD_createCCtx();
		if (!c.cctx)
			die("out of memory");
	}
	if (!ret)
		ret = stream__build(s, &data, &c);
	if (!ret) {
		spec__derive_features(s, &c);
		if (s->pipe)
			ret = pipe__assemble(s, &data, &out);
		else
			file__assemble(s, &data, &out);
	}
	if (!ret)
		ret = truncation__apply(&s->trunc, &out);
	if (!ret)
		ret = output__write(o->out, &out);
	ZSTD_freeCCtx(c.cctx);
	buf__release(&c.group);
	buf__release(&data);
	buf__release(&out);
	spec__delete(s);
	return ret;
}

int main(int argc, char **argv)
{
	struct mkperf_opts o;
	int code;

	if (opts__parse(&o, argc, argv, &code) < 0)
		return code;
	if (o.recompress2)
		return recompress2(o.spec, o.out) < 0 ? SPEC_EXIT_DATA : SPEC_EXIT_OK;
	return mkperf__run(&o) < 0 ? SPEC_EXIT_DATA : SPEC_EXIT_OK;
}
