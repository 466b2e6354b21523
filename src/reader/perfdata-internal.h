/*
 * perfdata-internal: what the perf.data reader's files share. Not for use
 * outside src/perfdata*.c: everything else goes through perfdata.h.
 *
 *  perfdata.c         input (mapped file or pipe), the record walk,
 *                     COMPRESSED containers, pipe-mode header records,
 *                     the reader's life cycle
 *  perfdata-header.c  the file header, attrs and their ids, feature
 *                     sections (also as pipe-mode HEADER_* records)
 *  perfdata-sample.c  PERF_RECORD_SAMPLE bodies by sample_type, and the
 *                     kernel's sideband records with their sample_id trailers
 *
 * Every length and count read from the file is checked against the bytes
 * that hold it (struct cursor, or the record size) before use.
 */
#ifndef JITSYM_PERFDATA_INTERNAL_H
#define JITSYM_PERFDATA_INTERNAL_H

#include "common/common.h"
#include "common/cursor.h"
#include "reader/perfdata.h"
#include "common/strpool.h"

#include <perf/event.h>
#include <uthash.h>
#include <zstd.h>


#define PERF_MAGIC2      0x32454c4946524550ULL   /* "PERFILE2" */
#define PD_MAX_TRACING   (256u << 20)            /* tracing data cap */
/*
 * What one COMPRESSED record may decompress to: perf compresses one ring
 * buffer read at a time, so no more than the COMPRESSED feature's mmap_len
 * (plus the part of a record left over from the previous one). Without the
 * feature, a generous default. Either way a small hostile record cannot
 * make the reader allocate more than this.
 */
#define PD_DECOMP_DEFAULT (64u << 20)
#define PD_DECOMP_MAX     (1u << 30)
/*
 * Decompressed bytes buffered at most before the records in them are
 * handed out (more than the largest record, 64 KiB, plus one zstd block):
 * a container is inflated step by step, so memory stays at this however
 * much it decompresses to.
 */
#define PD_DECOMP_STEP    (256u << 10)
/*
 * Record types newer than the libperf headers here (linux 6.12): perf 6.15
 * writes -z data as COMPRESSED2 (header, u64 data_size, the zstd bytes
 * padded to 8); perf 6.16 adds BPF_METADATA, and perf's sched stats
 * SCHEDSTAT_CPU and SCHEDSTAT_DOMAIN (tools/perf/util/event.h's
 * perf_user_event_type): records perf synthesizes for itself, of no use
 * to symbols, skipped by their size and counted per type (said under -v).
 * The kernel's CALLCHAIN_DEFERRED (22) is in perfdata.h.
 */
#define PD_RECORD_COMPRESSED2      83
#define PD_RECORD_BPF_METADATA     84
#define PD_RECORD_SCHEDSTAT_CPU    85
#define PD_RECORD_SCHEDSTAT_DOMAIN 86
#define PD_RECORD_USER_MAX         86     /* the newest user type known */
#define PD_RECORD_KERNEL_MAX       PD_RECORD_CALLCHAIN_DEFERRED
/* Unknown record types counted one by one below this; above, together. */
#define PD_UNKNOWN_TYPES        256
#define PD_MAX_ATTRS     4096
#define PD_MAX_IDS       (1u << 20)
#define PD_READ_CHUNK    (256u << 10)

/* Feature bits (perf.data-file-format.txt). */
enum {
	FEAT_TRACING_DATA = 1, FEAT_BUILD_ID = 2, FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4, FEAT_VERSION = 5, FEAT_ARCH = 6, FEAT_NRCPUS = 7,
	FEAT_CPUDESC = 8, FEAT_CPUID = 9, FEAT_TOTAL_MEM = 10, FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12, FEAT_SAMPLE_TIME = 21, FEAT_CLOCKID = 23, FEAT_COMPRESSED = 27,
	FEAT_MAX = 256,
	/*
	 * The last feature perf 6.12 defines (HEADER_PMU_CAPS). Newer perfs
	 * add more after it (32 on: HEADER_CPU_DOMAIN_INFO for perf's sched
	 * stats, ...): skipped, and counted (said under -v), never an error.
	 */
	FEAT_KNOWN_LAST = 31,
};

/* Read a field of a libperf record struct at its offset and natural size. */
static inline uint64_t rec_u64(const uint8_t *rec, size_t off, bool swap)
{
	uint64_t v;

	memcpy(&v, rec + off, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static inline uint32_t rec_u32(const uint8_t *rec, size_t off, bool swap)
{
	uint32_t v;

	memcpy(&v, rec + off, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint16_t rec_u16(const uint8_t *rec, size_t off, bool swap)
{
	uint16_t v;

	memcpy(&v, rec + off, 2);
	return swap ? __builtin_bswap16(v) : v;
}

#define REC64(rec, type, field, swap) rec_u64(rec, offsetof(type, field), swap)
#define REC32(rec, type, field, swap) rec_u32(rec, offsetof(type, field), swap)

struct id_entry {
	uint64_t id;
	struct pd_attr *attr;
	UT_hash_handle hh;
};

struct pd_input {
	int fd;
	const uint8_t *map;     /* regular file: the whole file, mapped */
	uint64_t map_size;
	uint8_t *buf;           /* pipe: read-ahead buffer */
	size_t buf_pos, buf_len, buf_alloc;
	bool eof;
	uint64_t pos;           /* file offset of the next unread byte */
	uint64_t end;           /* file mode: end of the data section */
	bool borrowed;          /* map is the caller's buffer */
	uint64_t released;      /* map pages before this were given back */
	uint64_t hold;          /* map pages from this offset on are kept (pd_reader__keep_from) */
};

struct pd_reader {
	char *path;
	struct pd_input in;
	struct pd_info info;
	struct strpool *pool;
	struct pd_attr **attrs;
	size_t nr_attrs, alloc_attrs;
	struct id_entry *ids;
	int id_pos;             /* sample: u64 index of the id, or -1 */
	int id_pos_end;         /* sideband trailer: u64 index from the end, or -1 */
	bool damaged;
	uint64_t data_size_stated;  /* the header's data size when the file is shorter, else 0 */
	uint64_t nr_bad_samples;
	bool samples_undecoded;     /* pd_reader__sideband_only() */
	/* records of types the reader does not know, skipped: said once at the end */
	uint64_t nr_unknown[PD_UNKNOWN_TYPES + 1];   /* the last: all types above */
	bool unknown_said;
	/* perf's own records skipped: BPF_METADATA, SCHEDSTAT_CPU, SCHEDSTAT_DOMAIN */
	uint64_t nr_perf_only[3];
	uint64_t new_feats[FEAT_MAX / 64];          /* features past FEAT_KNOWN_LAST seen */
	/* decompression */
	ZSTD_DStream *zds;
	uint8_t *dbuf;
	size_t dpos, dlen, dalloc;
	uint64_t doff;          /* offset of dbuf[dpos] in the decompressed stream */
	uint64_t last_comp_off;
	uint8_t *zin;           /* the COMPRESSED record being inflated */
	size_t zin_pos, zin_len, zin_alloc;
	bool zin_full;          /* the last step filled its output: zstd may hold more */
	uint64_t zout;          /* bytes this record has decompressed to so far */
	/* scratch for native-order copies */
	uint64_t *chain;
	size_t chain_alloc;
	uint64_t regs[64];      /* the sample's user registers: at most one per mask bit */
	uint8_t *rec;           /* copy of a record from a pipe */
	size_t rec_alloc;
	struct pd_build_id *bids;
	size_t bids_alloc;
	uint8_t *tracing_buf;   /* pipe-mode tracing data */
};

static inline const char *intern_str(struct pd_reader *r, const uint8_t *p, size_t len)
{
	return strpool__intern_len(r->pool, (const char *)p, strnlen((const char *)p, len));
}

/* perfdata-header.c */

/* File mode: the header, attrs and features of r->in's map; -1 after error(). */
int pd_reader__read_header(struct pd_reader *r);
/* Where the id sits in samples and sideband trailers, from the attrs known now. */
void pd_reader__compute_id_pos(struct pd_reader *r);
/* A pipe-mode HEADER_ATTR record (size bytes at rec); warns and ignores a bad one. */
void pd_reader__attr_record(struct pd_reader *r, const uint8_t *rec, size_t size);
/* One feature section's payload (file mode, or a HEADER_FEATURE record's). */
void pd_reader__feature(struct pd_reader *r, int feat, const uint8_t *p, uint64_t size);
/* A build-id record (in the feature section or a HEADER_BUILD_ID record). */
void pd_reader__build_id(struct pd_reader *r, const uint8_t *rec, size_t size, bool swap);
/* Tracing data: kept as a copy (the caller's buffer may be reused). */
void pd_reader__keep_tracing_data(struct pd_reader *r, const uint8_t *p, size_t size);

/* perfdata-sample.c */

/*
 * Decode a PERF_RECORD_SAMPLE body into ev->sample (ev's offset names it in
 * warnings); false if it does not fit or has no attr.
 */
bool pd_reader__decode_sample(struct pd_reader *r, const uint8_t *rec, size_t size,
			      struct pd_event *ev);
/* Decode a kernel record other than a sample; false if malformed. */
bool pd_reader__decode_sideband(struct pd_reader *r, const uint8_t *rec, size_t size,
				struct pd_event *ev);

#endif
