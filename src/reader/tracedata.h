/*
 * tracedata: the tracepoint formats a recording carries (perf's
 * HEADER_TRACING_DATA feature, or the pipe-mode TRACING_DATA record), and
 * the text of a tracepoint sample's fields formatted with them, as perf
 * script prints after the event name:
 *
 *	prev_comm=perf prev_pid=21208 prev_prio=120 prev_state=D ==> ...
 *
 * The container is trace-cmd's file header (see trace-cmd.dat(5)): the
 * magic "\027\010\104tracing", a NUL-terminated version ("0.6"), one
 * byte endianness (1 = big), one byte sizeof(long), a u32 page size, then
 * in the file's byte order:
 *	"header_page\0"  u64 size, text
 *	"header_event\0" u64 size, text
 *	u32 count, then per ftrace event: u64 size, format text
 *	u32 count of systems, then per system: NUL-terminated name, u32
 *	    count, then per event: u64 size, format text
 *	u32 size, kallsyms text ("ADDR TYPE NAME [MODULE]" lines)
 *	u32 size, printk formats ("0xADDR : \"FORMAT\"" lines)
 *	u64 size, saved cmdlines ("PID COMM" lines; version 0.6 and later)
 *
 * Every count and size is checked against the bytes that remain before it
 * is used; a container that breaks any check is rejected as a whole, with
 * a tracedata_err naming what was wrong and the offset where. Formats go
 * to libtraceevent (which evaluates their print fmt); a sample's payload is
 * copied into a zero-padded scratch buffer before libtraceevent reads it,
 * so no field of a short or hostile payload is read out of bounds.
 */
#ifndef JITSYM_TRACEDATA_H
#define JITSYM_TRACEDATA_H

#include <stddef.h>
#include <stdint.h>

struct sbuf;
struct tracedata;

enum tracedata_err {
	TRACEDATA_OK = 0,
	TRACEDATA_E_TRUNCATED,      /* a section or size runs past the end */
	TRACEDATA_E_BAD_MAGIC,      /* not "\027\010\104tracing" */
	TRACEDATA_E_BAD_HEADER,     /* version string, endianness or long size */
	TRACEDATA_E_BAD_SECTION,    /* "header_page"/"header_event" tag missing */
	TRACEDATA_E_BAD_FORMAT,     /* header page rejected, or a field past 64 KiB */
};

/* Why tracedata__new() failed: a short static string. */
const char *tracedata__strerror(enum tracedata_err err);

/*
 * Parse len bytes of tracing data at buf (not kept: everything is copied).
 * Returns NULL and sets *err (and *err_off, the offset into buf where the
 * problem was; either may be NULL) when the container is malformed. Event
 * formats libtraceevent cannot parse are counted, not fatal (see
 * tracedata__nr_bad_formats()).
 */
struct tracedata *tracedata__new(const void *buf, size_t len, enum tracedata_err *err,
				 size_t *err_off);
void tracedata__delete(struct tracedata *td);   /* accepts NULL */

/* Number of event formats parsed, and of those libtraceevent rejected. */
size_t tracedata__nr_events(const struct tracedata *td);
size_t tracedata__nr_bad_formats(const struct tracedata *td);
/* True when the recording machine was big-endian. */
int tracedata__big_endian(const struct tracedata *td);

/*
 * Kernel symbols for %pS-style fields, when the tracing data's kallsyms
 * section has none: fn returns the name of the symbol holding *addr (and
 * sets *addr to its start; *mod to a module name or NULL), or NULL. The
 * returned strings must stay valid while td lives. fn may be NULL.
 */
typedef const char *(*tracedata_ksym_fn)(void *priv, uint64_t *addr, const char **mod);
void tracedata__set_ksym_resolver(struct tracedata *td, tracedata_ksym_fn fn, void *priv);

enum tracedata_fmt {
	TRACEDATA_FMT_OK = 0,
	TRACEDATA_FMT_NO_EVENT,     /* no format for this tracepoint id */
	TRACEDATA_FMT_MISMATCH,     /* the payload's common_type is another event */
	TRACEDATA_FMT_TOO_BIG,      /* payload or format past what is bounded */
};

/*
 * Append to out the fields of one tracepoint sample (raw: the
 * PERF_SAMPLE_RAW payload, size bytes, in the recording's byte order) of
 * the tracepoint with this id (the attr's config), recorded on cpu.
 * Appends nothing unless it returns TRACEDATA_FMT_OK.
 */
enum tracedata_fmt tracedata__format(struct tracedata *td, uint64_t id, const void *raw,
				     size_t size, uint32_t cpu, struct sbuf *out);
/*
 * The integer field name of one tracepoint sample (as tracedata__format()
 * takes it; signed fields sign-extended): 0 and *val, or -1 when there is
 * no format for id, the payload is another event's, or it has no such
 * integer field within size bytes.
 */
int tracedata__field_int(struct tracedata *td, uint64_t id, const void *raw, size_t size,
			 const char *name, int64_t *val);

#endif
