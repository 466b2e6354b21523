/*
 * perfdata: read perf.data, in file or pipe mode, compressed or not, in
 * either byte order, and hand out its records decoded into native order.
 *
 * The reader never trusts a size or count from the file: every record's
 * size is checked against the bytes that remain before it is looked into,
 * and every sample field against the record's size. A record that cannot
 * be walked past (size 0, or cut short by the end of the file) ends the
 * stream with an error naming the file and offset; everything before it
 * has been returned. A sample whose fields do not fit its record is
 * skipped with a (rate-limited) warning.
 *
 * Layouts come from libperf's <perf/event.h> and <linux/perf_event.h>:
 * fields are read at offsetof() those structs, at their natural size, and
 * byte-swapped when the file was written on a machine of the other byte
 * order.
 *
 * Records are returned in file order by pd_reader__next(); time ordering
 * is the caller's business (see order.h).
 */
#ifndef JITSYM_PERFDATA_H
#define JITSYM_PERFDATA_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>

struct pd_reader;

/*
 * Deferred user call chains, newer than the <linux/perf_event.h> here
 * (Linux 6.1). From upstream include/uapi/linux/perf_event.h, as merged
 * on top of Linux 6.17's unwind_deferred infrastructure (the perf_event
 * attr bits defer_callchain and defer_output): no header on this machine
 * holds them (Debian's newest linux-source, 6.12, predates them), so the
 * layout is written here from the uapi text:
 *
 * A sample of an event with defer_callchain set, taken in the kernel,
 * ends its call chain with PERF_CONTEXT_USER_DEFERRED and a u64 cookie
 * instead of the user part. When the task returns to user space, the
 * kernel unwinds its user stack once and writes
 *
 *   PERF_RECORD_CALLCHAIN_DEFERRED = 22:
 *   { struct perf_event_header header; u64 cookie; u64 nr; u64 ips[nr];
 *     struct sample_id sample_id; }
 *
 * whose ips are the user part of every sample of that task with that
 * cookie (deferred.h joins them). The reader hands the record out with
 * the ips as ev->sample.callchain and the cookie in ev->u.deferred.
 */
#define PD_RECORD_CALLCHAIN_DEFERRED 22
#define PD_CONTEXT_USER_DEFERRED     ((uint64_t)-640)

/* One event (attr) of the recording. */
struct pd_attr {
	struct perf_event_attr attr;  /* native order, zero past attr_size */
	const char *name;             /* "cpu-clock", from EVENT_DESC or derived */
	uint64_t *ids;
	size_t nr_ids;
	unsigned int index;           /* position in the file's attr list */
	/* Size of the sample_id trailer on non-sample records, in bytes. */
	unsigned int id_trailer_size;
};

/* A build id from the HEADER_BUILD_ID feature or a pipe-mode record. */
struct pd_build_id {
	int32_t pid;                  /* -1 for the kernel and host-wide files */
	uint16_t cpumode;             /* PERF_RECORD_MISC_{KERNEL,USER,...} */
	uint8_t size;
	uint8_t id[20];
	const char *filename;
};

/* What the header and its feature sections (or pipe-mode records) say. */
struct pd_info {
	bool pipe_mode;
	bool swapped;
	const char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	const char *cmdline;          /* argv joined by spaces */
	uint32_t nr_cpus_avail, nr_cpus_online;
	uint64_t total_mem_kb;
	uint64_t clock_res_ns;        /* HEADER_CLOCKID: the clock's resolution, 0 if absent
	                                 (the clock itself is the attrs' clockid) */
	/* HEADER_SAMPLE_TIME: the first and last sample's time (file mode only) */
	bool has_sample_time;
	uint64_t first_sample_time, last_sample_time;
	bool compressed;              /* HEADER_COMPRESSED feature present */
	uint32_t comp_type, comp_level;
	uint32_t comp_mmap_len;       /* most one COMPRESSED record holds */
	struct pd_build_id *build_ids;
	size_t nr_build_ids;
	const uint8_t *tracing_data;  /* HEADER_TRACING_DATA payload */
	uint64_t tracing_data_size;
	uint64_t data_offset, data_size;
};

/* A sample, or the sample_id trailer of a sideband record. */
struct pd_sample {
	const struct pd_attr *attr;
	uint64_t ip, addr, id, stream_id, period, time, weight, data_src;
	uint64_t transaction, phys_addr, cgroup;
	uint32_t pid, tid, cpu;
	uint64_t nr_callchain;
	const uint64_t *callchain;    /* native order; valid until the next call; NULL
	                                 exactly when the attr samples no call chain */
	uint32_t raw_size;
	const void *raw_data;         /* as in the file (tracepoint payload) */
	uint64_t nr_branches;
	/*
	 * PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER (--call-graph
	 * dwarf). With no registers (abi NONE, or the bit not sampled) abi and
	 * mask are 0 and user_regs NULL, so popcount(user_regs_mask) is always
	 * the number of values at user_regs.
	 */
	uint64_t user_regs_abi;          /* PERF_SAMPLE_REGS_ABI_*; 0 (NONE): no registers */
	uint64_t user_regs_mask;         /* the attr's sample_regs_user: bit i = register i */
	const uint64_t *user_regs;       /* popcount(mask) values in native order, by bit; valid like callchain */
	uint64_t user_stack_size;        /* bytes of user_stack that hold data: dyn_size (<= the dumped size) */
	const uint8_t *user_stack;       /* the dump from the user sp upward, as in the file (raw
	                                    memory, never swapped); NULL when user_stack_size is 0;
	                                    valid like callchain */
	bool has_time;
};

struct pd_event {
	uint32_t type;                /* PERF_RECORD_* */
	uint16_t misc;
	uint16_t size;
	uint64_t offset;              /* in the file; in the decompressed stream
	                                 for records inside COMPRESSED ones */
	bool in_compressed;
	/*
	 * The record's bytes are in the mapped file or the caller's buffer
	 * (file mode, not inside a COMPRESSED container): sample.raw_data
	 * and sample.user_stack, which point into the record itself, stay
	 * valid until pd_reader__delete(), not only until the next call.
	 * False in pipe mode and for records inside COMPRESSED ones, which
	 * are in buffers the next call reuses. callchain and user_regs are
	 * the reader's scratch either way.
	 */
	bool in_map;
	struct pd_sample sample;      /* for samples, and sample_id_all trailers */
	union {
		struct { uint32_t pid, tid; const char *comm; bool exec; } comm;
		struct { uint32_t pid, ppid, tid, ptid; uint64_t time; } fork; /* FORK, EXIT */
		struct {
			uint32_t pid, tid;
			uint64_t start, len, pgoff;
			uint32_t prot, flags;   /* MMAP2 only; MMAP: prot from misc */
			uint8_t build_id_size;  /* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID */
			uint8_t build_id[20];
			const char *filename;
		} mmap;                         /* MMAP and MMAP2 */
		struct { uint64_t id, lost; } lost;
		struct { uint64_t addr; uint32_t len; uint16_t ksym_type, flags; const char *name; } ksymbol;
		/* NAMESPACES: the pid namespace (has_pid_ns: the record holds it) */
		struct { uint32_t pid, tid; bool has_pid_ns; uint64_t pid_ns_dev, pid_ns_ino; } ns;
		/* CALLCHAIN_DEFERRED: its ips are sample.callchain; tid from sample_id */
		struct { uint64_t cookie; } deferred;
	} u;
};

/*
 * Open a perf.data file ("-" is stdin) read-only, read its header, attrs
 * and features. Returns NULL after printing an error when the file cannot
 * be read or is not perf.data.
 */
struct pd_reader *pd_reader__open(const char *path);
/*
 * The same over len bytes at buf, which must outlive the reader; name is
 * used in messages. A pipe-mode recording in a buffer reads like a file.
 */
struct pd_reader *pd_reader__open_buffer(const void *buf, size_t len, const char *name);
void pd_reader__delete(struct pd_reader *r);   /* accepts NULL */

const struct pd_info *pd_reader__info(const struct pd_reader *r);
/* The attrs known so far (in pipe mode they arrive as records). */
size_t pd_reader__nr_attrs(const struct pd_reader *r);
const struct pd_attr *pd_reader__attr(const struct pd_reader *r, size_t i);
const char *pd_reader__path(const struct pd_reader *r);

/*
 * The next record: 1 and *ev filled (pointers in it are valid until the
 * next call), 0 at the end of the data, -1 when the data is damaged and
 * cannot be walked further (an error naming the offset has been printed).
 * Header records (attrs, features, build ids, tracing data in pipe mode),
 * COMPRESSED and COMPRESSED2 containers and auxtrace payloads are
 * consumed here and not returned; FINISHED_ROUND is. Records of types newer
 * than the reader knows are skipped and counted; the first call that returns
 * 0 or -1 warns once with the count per type. perf's own newer records
 * (BPF_METADATA, SCHEDSTAT_CPU, SCHEDSTAT_DOMAIN) and header features newer
 * than perf 6.12's are skipped too, and said then only under -v (note()).
 */
int pd_reader__next(struct pd_reader *r, struct pd_event *ev);

/*
 * Residency, not validity: the pages of a mapped file behind the reader
 * are given back to the kernel as it goes (read again from the file if
 * touched). A caller that keeps pointers into in_map records says here
 * the smallest file offset it still points into, and pages from there
 * on are kept; UINT64_MAX (the default) keeps none.
 */
void pd_reader__keep_from(struct pd_reader *r, uint64_t offset);

/* True once pd_reader__next() has hit damage (truncation, corruption). */
bool pd_reader__damaged(const struct pd_reader *r);
/* Number of samples skipped because their fields did not fit. */
uint64_t pd_reader__nr_bad_samples(const struct pd_reader *r);
/*
 * From now on a sample is returned with its type, misc, size and offset
 * only, its fields not decoded (nor checked: none is counted bad): for a
 * walk over the sideband alone (mmap-scan.h), which skips the samples.
 */
void pd_reader__sideband_only(struct pd_reader *r);

/* The name perf gives an event of this type/config when no name is stored. */
const char *pd_attr_default_name(const struct perf_event_attr *attr);

#endif
