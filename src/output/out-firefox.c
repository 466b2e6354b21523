/*
 * The Firefox Profiler's processed profile format, version 70 (the
 * profiler's src/types/profile.ts at that version; older app versions
 * refuse it, newer ones upgrade it): the shared tables (strings,
 * functions, frames, stacks, resources, sources) once for every thread,
 * then one thread per track, its samples' stacks and times in ms from
 * the first sample.
 *
 * Categories are the frame classification's (frameclass.h), in enum
 * frame_category's order, "Other" (grey: the profiler's default) first;
 * each one's subcategories are the runtimes' tier names seen in it.
 * Native files with samples are the profile's libs, with their build
 * ids (breakpadId, codeId), so that the profiler can fetch their
 * assembly; JIT side files are resources of their own.
 */
#include "common/common.h"
#include "output/out-timeline.h"
#include "output/json-out.h"
#include "common/sbuf.h"

#include <ctype.h>

#include <uthash.h>

#define PROCESSED_VERSION 70
#define GECKO_VERSION 36

static const struct {
	const char *name, *color;
} categories[TL_NR_CATEGORIES] = {
	[FC_UNKNOWN] = { "Other", "grey" },
	[FC_KERNEL] = { "Kernel", "orange" },
	[FC_NATIVE] = { "Native", "blue" },
	[FC_JIT] = { "JIT", "yellow" },
	[FC_INTERPRETED] = { "Interpreted", "red" },
	[FC_BASELINE] = { "Baseline JIT", "lightblue" },
	[FC_OPTIMIZED] = { "Optimizing JIT", "green" },
	[FC_STUB] = { "Stubs", "purple" },
	[FC_RUNTIME] = { "Runtime", "brown" },
	[TL_CATEGORY_IDLE] = { "Idle", "transparent" },
};

/*
 * The marker chart's row of each kind (a span's own name for TLM_USER, the
 * event's for TLM_EVENT), and its payload's schema.
 */
static const char *const marker_names[TLM_NR] = {
	[TLM_USER] = NULL,
	[TLM_JIT_LOAD] = "JIT load",
	[TLM_JIT_MOVE] = "JIT move",
	[TLM_TIER_UP] = "Tier-up",
	[TLM_EVENT] = NULL,
	[TLM_LOST] = "Lost records",
	[TLM_LOST_SAMPLES] = "Lost samples",
	[TLM_THROTTLE] = "Throttle",
	[TLM_UNTHROTTLE] = "Unthrottle",
	[TLM_OFFCPU] = "Off-CPU",
	[TLM_GC] = "GC",
};

static const char marker_schema[] =
	"[{\"name\":\"UserMarker\",\"tooltipLabel\":\"{marker.data.name}\",\"tableLabel\":\"{marker.data.name}\","
	"\"chartLabel\":\"{marker.data.name}\",\"display\":[\"marker-chart\",\"marker-table\",\"timeline-overview\"],"
	"\"description\":\"a span of the program's marker file\","
	"\"fields\":[{\"key\":\"name\",\"label\":\"Span\",\"format\":\"string\"},"
	"{\"key\":\"source\",\"label\":\"Marker file\",\"format\":\"file-path\"}]},"
	"{\"name\":\"JitLoad\",\"tooltipLabel\":\"JIT code: {marker.data.name}\","
	"\"tableLabel\":\"{marker.data.name} ({marker.data.tier})\",\"chartLabel\":\"{marker.data.name}\","
	"\"display\":[\"marker-chart\",\"marker-table\"],\"description\":\"JIT code loaded (a jitdump's load)\","
	"\"fields\":[{\"key\":\"name\",\"label\":\"Function\",\"format\":\"string\"},"
	"{\"key\":\"tier\",\"label\":\"Tier\",\"format\":\"string\"},"
	"{\"key\":\"address\",\"label\":\"Address\",\"format\":\"string\"},"
	"{\"key\":\"size\",\"label\":\"Code size\",\"format\":\"bytes\"},"
	"{\"key\":\"source\",\"label\":\"From\",\"format\":\"file-path\"}]},"
	"{\"name\":\"JitMove\",\"tooltipLabel\":\"JIT code moved to {marker.data.to}\","
	"\"tableLabel\":\"{marker.data.from} to {marker.data.to}\",\"display\":[\"marker-chart\",\"marker-table\"],"
	"\"description\":\"JIT code moved (a jitdump's move)\","
	"\"fields\":[{\"key\":\"from\",\"label\":\"From\",\"format\":\"string\"},"
	"{\"key\":\"to\",\"label\":\"To\",\"format\":\"string\"},"
	"{\"key\":\"size\",\"label\":\"Code size\",\"format\":\"bytes\"},"
	"{\"key\":\"source\",\"label\":\"From file\",\"format\":\"file-path\"}]},"
	"{\"name\":\"TierUp\",\"tooltipLabel\":\"Optimized: {marker.data.name}\","
	"\"tableLabel\":\"{marker.data.name} ({marker.data.tier})\",\"chartLabel\":\"{marker.data.name}\","
	"\"display\":[\"marker-chart\",\"marker-table\",\"timeline-overview\"],"
	"\"description\":\"a function's first optimized code\","
	"\"fields\":[{\"key\":\"name\",\"label\":\"Function\",\"format\":\"string\"},"
	"{\"key\":\"tier\",\"label\":\"Tier\",\"format\":\"string\"}]},"
	"{\"name\":\"Lost\",\"tooltipLabel\":\"{marker.name}: {marker.data.count}\","
	"\"tableLabel\":\"{marker.data.count}\",\"display\":[\"marker-chart\",\"marker-table\",\"timeline-overview\"],"
	"\"description\":\"what the kernel could not record\","
	"\"fields\":[{\"key\":\"count\",\"label\":\"Count\",\"format\":\"integer\"}]}]";

/* The marker chart's row: a span's file's tag (its spans are one row), the event's name, the kind's. */
static const char *marker_name(const struct tl_marker *m)
{
	if (m->kind == TLM_USER)
		return m->group;
	return m->kind == TLM_EVENT ? m->name : marker_names[m->kind];
}

struct str_entry {
	const char *s;          /* the key: the pointer (strings are interned) */
	uint32_t index;
	UT_hash_handle hh;
};

struct writer {
	const struct timeline_view *v;
	struct json_out *j;
	struct str_entry *strings;
	const char **string_list;
	size_t nr_strings, alloc_strings;
	struct str_entry *files;        /* a source table row per file */
	const char **file_list;
	size_t nr_files, alloc_files;
	int32_t *lib_of;                /* a resource's lib index, or -1 */
	size_t nr_libs;
};

static uint32_t intern(struct str_entry **head, const char ***list, size_t *nr, size_t *alloc,
		       const char *s)
{
	struct str_entry *e;

	HASH_FIND_PTR(*head, &s, e);
	if (e)
		return e->index;
	e = xmalloc(sizeof(*e));
	e->s = s;
	e->index = (uint32_t)*nr;
	HASH_ADD_PTR(*head, s, e);
	ALLOC_GROW(*list, *nr + 1, *alloc);
	(*list)[(*nr)++] = s;
	return e->index;
}

static uint32_t str_index(struct writer *w, const char *s)
{
	return intern(&w->strings, &w->string_list, &w->nr_strings, &w->alloc_strings, s);
}

static uint32_t file_index(struct writer *w, const char *file)
{
	return intern(&w->files, &w->file_list, &w->nr_files, &w->alloc_files, file);
}

static void free_hash(struct str_entry **head)
{
	struct str_entry *e, *tmp;

	HASH_ITER(hh, *head, e, tmp) {
		HASH_DEL(*head, e);
		free(e);
	}
}

/* A JSON key and the start of its value: ,"key": (no comma for the first) */
static void key(struct json_out *j, const char *k, bool first)
{
	if (!first)
		json_out__ch(j, ',');
	json_out__ch(j, '"');
	json_out__puts(j, k);
	json_out__puts(j, "\":");
}

static void key_str(struct json_out *j, const char *k, const char *v, bool first)
{
	key(j, k, first);
	json_out__str(j, v);
}

/* breakpad's id of an ELF build id: its first 16 bytes as a GUID (the first three fields byte-swapped), then age 0 */
static void breakpad_id(struct sbuf *sb, const char *hex)
{
	static const int order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	size_t len = strlen(hex), i;

	for (i = 0; i < 16; i++) {
		size_t at = (size_t)order[i] * 2;

		if (at + 1 < len) {
			sbuf_addch(sb, (char)toupper((unsigned char)hex[at]));
			sbuf_addch(sb, (char)toupper((unsigned char)hex[at + 1]));
		} else {
			sbuf_addstr(sb, "00");
		}
	}
	sbuf_addch(sb, '0');
}

static void write_meta(struct writer *w, const struct timeline_meta *m)
{
	const struct timeline_view *v = w->v;
	struct json_out *j = w->j;
	struct sbuf sb = SBUF_INIT;
	size_t c, i;

	json_out__puts(j, "\"meta\":{");
	key(j, "interval", true);
	sbuf_addf(&sb, "%.6g", m->interval_ms > 0 ? m->interval_ms : 1.0);
	json_out__puts(j, sb.buf);
	key(j, "startTime", false);
	json_out__ch(j, '0');
	/* the range shown: from the first sample or marker (time 0) to the last, one interval more */
	{
		uint64_t end = v->nr_samples ? v->last_time : v->zero_time;

		for (i = 0; i < v->nr_markers; i++)
			if (v->markers[i].end > end)
				end = v->markers[i].end;
		key(j, "profilingStartTime", false);
		json_out__ch(j, '0');
		key(j, "profilingEndTime", false);
		sbuf_reset(&sb);
		sbuf_addf(&sb, "%.6f", (double)(end - v->zero_time) / 1e6 +
			  (m->interval_ms > 0 ? m->interval_ms : 1.0));
		json_out__puts(j, sb.buf);
	}
	key(j, "processType", false);
	json_out__ch(j, '0');
	sbuf_reset(&sb);
	sbuf_addf(&sb, "jitsym: %s", m->name);
	key_str(j, "product", sb.buf, false);
	key(j, "stackwalk", false);
	json_out__ch(j, '1');
	key(j, "version", false);
	json_out__u64(j, GECKO_VERSION);
	key(j, "preprocessedProfileVersion", false);
	json_out__u64(j, PROCESSED_VERSION);
	key(j, "symbolicated", false);
	json_out__puts(j, "true");
	key_str(j, "importedFrom", "jitsym", false);
	key_str(j, "platform", "Linux", false);
	if (m->arch)
		key_str(j, "oscpu", m->arch, false);
	if (m->command_line)
		key_str(j, "arguments", m->command_line, false);
	key(j, "categories", false);
	json_out__ch(j, '[');
	for (c = 0; c < TL_NR_CATEGORIES; c++) {
		const struct tl_subcategories *s = &v->subcategories[c];

		json_out__puts(j, c ? ",\n{" : "\n{");
		key_str(j, "name", categories[c].name, true);
		key_str(j, "color", categories[c].color, false);
		key(j, "subcategories", false);
		json_out__ch(j, '[');
		for (i = 0; i < s->nr; i++) {
			if (i)
				json_out__ch(j, ',');
			json_out__str(j, s->names[i]);
		}
		json_out__puts(j, "]}");
	}
	json_out__ch(j, ']');
	key(j, "markerSchema", false);
	json_out__puts(j, marker_schema);
	/* what the recording says of itself, in the profile's info panel */
	key(j, "extra", false);
	json_out__puts(j, "[{\"label\":\"Recording\",\"entries\":[");
	{
		const struct { const char *label, *value; } rows[] = {
			{ "Recording", m->name }, { "Command line", m->command_line },
			{ "Host", m->host }, { "perf version", m->perf_version },
			{ "Architecture", m->arch }, { "Event", v->event },
		};
		bool first = true;

		for (i = 0; i < ARRAY_SIZE(rows); i++) {
			if (!rows[i].value)
				continue;
			json_out__puts(j, first ? "{" : ",{");
			first = false;
			key_str(j, "label", rows[i].label, true);
			key_str(j, "format", "string", false);
			key_str(j, "value", rows[i].value, false);
			json_out__ch(j, '}');
		}
	}
	json_out__puts(j, "]}]}");
	sbuf_release(&sb);
}

/* The libs: the native resources, in resource order. */
static void write_libs(struct writer *w, const struct timeline_meta *m)
{
	const struct timeline_view *v = w->v;
	struct json_out *j = w->j;
	struct sbuf sb = SBUF_INIT;
	size_t i;

	w->lib_of = xcalloc(v->nr_resources ? v->nr_resources : 1, sizeof(*w->lib_of));
	json_out__puts(j, ",\"libs\":[");
	for (i = 0; i < v->nr_resources; i++) {
		const struct tl_resource *r = &v->resources[i];

		w->lib_of[i] = -1;
		if (r->jit)
			continue;
		w->lib_of[i] = (int32_t)w->nr_libs;
		json_out__puts(j, w->nr_libs++ ? ",\n{" : "\n{");
		key_str(j, "arch", m->arch ? m->arch : "", true);
		key_str(j, "name", r->name, false);
		key_str(j, "path", r->path, false);
		key_str(j, "debugName", r->name, false);
		key_str(j, "debugPath", r->path, false);
		sbuf_reset(&sb);
		if (r->build_id)
			breakpad_id(&sb, r->build_id);
		key_str(j, "breakpadId", sb.buf, false);
		key_str(j, "codeId", r->build_id, false);
		json_out__ch(j, '}');
	}
	json_out__ch(j, ']');
	sbuf_release(&sb);
}

/* A column of n values, each written by one statement of body (i the row). */
#define COLUMN(j, name, n, body)                                \
	do {                                                    \
		size_t i;                                       \
		json_out__puts(j, ",\"" name "\":[");           \
		for (i = 0; i < (n); i++) {                     \
			if (i)                                  \
				json_out__ch(j, ',');           \
			body;                                   \
		}                                               \
		json_out__ch(j, ']');                           \
	} while (0)

static void write_u32_or_null(struct json_out *j, uint32_t v, bool null)
{
	if (null)
		json_out__puts(j, "null");
	else
		json_out__u64(j, v);
}

static void write_nulls(struct json_out *j, const char *name, size_t n)
{
	size_t i;

	json_out__puts(j, ",\"");
	json_out__puts(j, name);
	json_out__puts(j, "\":[");
	for (i = 0; i < n; i++)
		json_out__puts(j, i ? ",null" : "null");
	json_out__ch(j, ']');
}

static void write_shared(struct writer *w)
{
	const struct timeline_view *v = w->v;
	struct json_out *j = w->j;
	uint32_t *func_name = xcalloc(v->nr_funcs + 1, sizeof(*func_name));
	uint32_t *func_source = xcalloc(v->nr_funcs + 1, sizeof(*func_source));
	uint32_t *res_name = xcalloc(v->nr_resources + 1, sizeof(*res_name));
	size_t k;

	/* the strings, in the order the tables name them */
	for (k = 0; k < v->nr_resources; k++)
		res_name[k] = str_index(w, v->resources[k].name);
	for (k = 0; k < v->nr_funcs; k++) {
		func_name[k] = str_index(w, v->funcs[k].name);
		func_source[k] = v->funcs[k].file ? file_index(w, v->funcs[k].file) : TL_NONE;
	}
	for (k = 0; k < w->nr_files; k++)
		str_index(w, w->file_list[k]);
	for (k = 0; k < v->nr_markers; k++) {
		const struct tl_marker *m = &v->markers[k];

		str_index(w, marker_name(m));
	}

	json_out__puts(j, ",\"shared\":{\"stringArray\":[");
	for (k = 0; k < w->nr_strings; k++) {
		if (k)
			json_out__ch(j, ',');
		json_out__str(j, w->string_list[k]);
	}
	json_out__ch(j, ']');

	json_out__puts(j, ",\"funcTable\":{\"length\":");
	json_out__u64(j, v->nr_funcs);
	COLUMN(j, "name", v->nr_funcs, json_out__u64(j, func_name[i]));
	COLUMN(j, "isJS", v->nr_funcs, {
		enum frame_category c = v->funcs[i].category;

		json_out__puts(j, c == FC_JIT || c == FC_INTERPRETED || c == FC_BASELINE ||
				  c == FC_OPTIMIZED ? "true" : "false");
	});
	COLUMN(j, "relevantForJS", v->nr_funcs,
	       json_out__puts(j, v->funcs[i].category == FC_STUB ? "true" : "false"));
	COLUMN(j, "resource", v->nr_funcs,
	       json_out__i64(j, v->funcs[i].resource == TL_NONE ? -1 : (int64_t)v->funcs[i].resource));
	COLUMN(j, "source", v->nr_funcs,
	       write_u32_or_null(j, func_source[i], func_source[i] == TL_NONE));
	write_nulls(j, "lineNumber", v->nr_funcs);
	write_nulls(j, "columnNumber", v->nr_funcs);
	write_nulls(j, "originalLocation", v->nr_funcs);
	json_out__ch(j, '}');

	json_out__puts(j, ",\"frameTable\":{\"length\":");
	json_out__u64(j, v->nr_frames);
	COLUMN(j, "address", v->nr_frames, json_out__puts(j, "-1"));
	COLUMN(j, "lib", v->nr_frames, {
		uint32_t r = v->funcs[v->frames[i].func].resource;

		json_out__i64(j, r == TL_NONE ? -1 : w->lib_of[r]);
	});
	COLUMN(j, "inlineDepth", v->nr_frames, json_out__u64(j, v->frames[i].inline_depth));
	COLUMN(j, "category", v->nr_frames, json_out__u64(j, v->frames[i].category));
	COLUMN(j, "subcategory", v->nr_frames, json_out__u64(j, v->frames[i].subcategory));
	COLUMN(j, "func", v->nr_frames, json_out__u64(j, v->frames[i].func));
	write_nulls(j, "nativeSymbol", v->nr_frames);
	COLUMN(j, "innerWindowID", v->nr_frames, json_out__ch(j, '0'));
	COLUMN(j, "line", v->nr_frames,
	       write_u32_or_null(j, v->frames[i].line, !v->frames[i].line));
	COLUMN(j, "column", v->nr_frames,
	       write_u32_or_null(j, v->frames[i].column, !v->frames[i].column));
	write_nulls(j, "originalLocation", v->nr_frames);
	json_out__ch(j, '}');

	/* a stack's prefix is made before it: prefixOffset = index - prefix, 0 at a root */
	json_out__puts(j, ",\"stackTable\":{\"length\":");
	json_out__u64(j, v->nr_stacks);
	COLUMN(j, "frame", v->nr_stacks, json_out__u64(j, v->stacks[i].frame));
	COLUMN(j, "prefixOffset", v->nr_stacks,
	       json_out__u64(j, v->stacks[i].prefix == TL_NONE ? 0 : i - v->stacks[i].prefix));
	json_out__ch(j, '}');

	json_out__puts(j, ",\"resourceTable\":{\"length\":");
	json_out__u64(j, v->nr_resources);
	COLUMN(j, "name", v->nr_resources, json_out__u64(j, res_name[i]));
	write_nulls(j, "host", v->nr_resources);
	/* 1: a library; 0: unknown (a JIT side file) */
	COLUMN(j, "type", v->nr_resources, json_out__ch(j, v->resources[i].jit ? '0' : '1'));
	json_out__ch(j, '}');

	json_out__puts(j, ",\"nativeSymbols\":{\"length\":0,\"libIndex\":[],\"address\":[],"
		       "\"name\":[],\"functionSize\":[]}");

	json_out__puts(j, ",\"sources\":{\"length\":");
	json_out__u64(j, w->nr_files);
	write_nulls(j, "id", w->nr_files);
	COLUMN(j, "filename", w->nr_files, json_out__u64(j, str_index(w, w->file_list[i])));
	COLUMN(j, "startLine", w->nr_files, json_out__ch(j, '1'));
	COLUMN(j, "startColumn", w->nr_files, json_out__ch(j, '1'));
	write_nulls(j, "sourceMapURL", w->nr_files);
	write_nulls(j, "content", w->nr_files);
	json_out__ch(j, '}');
	json_out__puts(j, ",\"sourceLocationTable\":{\"length\":0,\"source\":[],\"line\":[],\"column\":[]}}");
	free(func_name);
	free(func_source);
	free(res_name);
}

/* The name of a thread's process: its main thread's comm, else its first thread's. */
static const char *process_name(const struct timeline_view *v, size_t first)
{
	size_t i;

	for (i = first; i < v->nr_threads && v->threads[i].pid == v->threads[first].pid; i++)
		if (v->threads[i].tid == v->threads[i].pid)
			return v->threads[i].comm;
	return v->threads[first].comm;
}

static void hex_field(struct json_out *j, const char *k, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	key_str(j, k, buf, false);
}

static void write_payload(struct json_out *j, const struct tl_marker *m)
{
	switch (m->kind) {
	case TLM_USER:
		json_out__puts(j, "{\"type\":\"UserMarker\"");
		key_str(j, "name", m->name, false);
		key_str(j, "source", m->source, false);
		break;
	case TLM_JIT_LOAD:
	case TLM_TIER_UP:
		json_out__puts(j, m->kind == TLM_JIT_LOAD ? "{\"type\":\"JitLoad\"" : "{\"type\":\"TierUp\"");
		key_str(j, "name", m->name, false);
		key_str(j, "tier", m->tier ? m->tier : "", false);
		if (m->kind == TLM_JIT_LOAD) {
			hex_field(j, "address", m->addr);
			key(j, "size", false);
			json_out__u64(j, m->size);
			key_str(j, "source", m->source, false);
		}
		break;
	case TLM_JIT_MOVE:
		json_out__puts(j, "{\"type\":\"JitMove\"");
		hex_field(j, "from", m->old_addr);
		hex_field(j, "to", m->addr);
		key(j, "size", false);
		json_out__u64(j, m->size);
		key_str(j, "source", m->source, false);
		break;
	case TLM_LOST:
	case TLM_LOST_SAMPLES:
		json_out__puts(j, "{\"type\":\"Lost\"");
		key(j, "count", false);
		json_out__u64(j, m->count);
		break;
	default:
		json_out__puts(j, "null");
		return;
	}
	json_out__ch(j, '}');
}

/* A thread's markers (indexes into the view's, in time order): the marker table. */
static void write_markers(struct writer *w, const uint32_t *marks, size_t n)
{
	const struct timeline_view *v = w->v;
	struct json_out *j = w->j;

	json_out__puts(j, ",\"markers\":{\"length\":");
	json_out__u64(j, n);
	COLUMN(j, "data", n, write_payload(j, &v->markers[marks[i]]));
	COLUMN(j, "name", n, {
		const struct tl_marker *m = &v->markers[marks[i]];

		json_out__u64(j, str_index(w, marker_name(m)));
	});
	COLUMN(j, "startTime", n, json_out__ms(j, v->markers[marks[i]].start - v->zero_time));
	COLUMN(j, "endTime", n, {
		const struct tl_marker *m = &v->markers[marks[i]];

		if (m->kind == TLM_USER || m->kind == TLM_OFFCPU || m->kind == TLM_GC)
			json_out__ms(j, m->end - v->zero_time);
		else
			json_out__puts(j, "null");
	});
	/* 1: an interval (a span, time off the CPU or in GC), 0: an instant */
	COLUMN(j, "phase", n, {
		enum tl_marker_kind k = v->markers[marks[i]].kind;

		json_out__ch(j, k == TLM_USER || k == TLM_OFFCPU || k == TLM_GC ? '1' : '0');
	});
	COLUMN(j, "category", n, json_out__u64(j, v->markers[marks[i]].category));
	json_out__ch(j, '}');
}

enum sample_column { SC_STACK, SC_TIME, SC_WEIGHT, SC_WEIGHT_MS };

/* One column of th's samples table, read chunk by chunk (timeline.h). */
static void write_samples(struct writer *w, const struct tl_thread *th, enum sample_column col)
{
	static const char *const names[] = { "stack", "time", "weight", "weight" };
	const struct timeline_view *v = w->v;
	struct json_out *j = w->j;
	const uint32_t *stack;
	const uint64_t *time, *weight;
	size_t c, i, n;
	bool first = true;

	json_out__puts(j, ",\"");
	json_out__puts(j, names[col]);
	json_out__puts(j, "\":[");
	for (c = 0; timeline__chunk(v, th, c, &stack, &time, &weight, &n); c++) {
		for (i = 0; i < n; i++, first = false) {
			if (!first)
				json_out__ch(j, ',');
			switch (col) {
			case SC_STACK:
				write_u32_or_null(j, stack[i], stack[i] == TL_NONE);
				break;
			case SC_TIME:
				json_out__ms(j, time[i] - v->zero_time);
				break;
			case SC_WEIGHT:
				json_out__u64(j, weight[i]);
				break;
			case SC_WEIGHT_MS:
				json_out__ms(j, weight[i]);
				break;
			}
		}
	}
	json_out__ch(j, ']');
}

static void write_thread(struct writer *w, const struct tl_thread *th, const char *process,
			 const uint32_t *marks, size_t nr_marks)
{
	const struct timeline_view *v = w->v;
	struct json_out *j = w->j;
	bool ms_weight = v->weight_ns;

	json_out__ch(j, '{');
	key_str(j, "name", th->comm, true);
	key(j, "isMainThread", false);
	json_out__puts(j, th->tid == th->pid ? "true" : "false");
	key_str(j, "processType", "default", false);
	key_str(j, "processName", process, false);
	json_out__puts(j, ",\"processStartupTime\":0,\"processShutdownTime\":null,"
		       "\"registerTime\":0,\"unregisterTime\":null,\"pausedRanges\":[]");
	key(j, "pid", false);
	json_out__ch(j, '"');
	json_out__u64(j, th->pid);
	json_out__ch(j, '"');
	key(j, "tid", false);
	json_out__u64(j, th->tid);
	json_out__puts(j, ",\"samples\":{\"length\":");
	json_out__u64(j, th->nr_samples);
	write_samples(w, th, SC_STACK);
	write_samples(w, th, SC_TIME);
	if (!v->weight_period) {
		json_out__puts(j, ",\"weight\":null,\"weightType\":\"samples\"}");
	} else {
		write_samples(w, th, ms_weight ? SC_WEIGHT_MS : SC_WEIGHT);
		json_out__puts(j, ms_weight ? ",\"weightType\":\"tracing-ms\"}" :
			       ",\"weightType\":\"samples\"}");
	}
	write_markers(w, marks, nr_marks);
	json_out__ch(j, '}');
}

/*
 * The thread each marker goes to: its own (pid and tid), else its
 * process's with the most samples (the first of them in the view's
 * order, the main thread first), the track the profiler opens on: a
 * JVM's main thread only waits for the one running main(). Lost and
 * throttle records of no sampled process go to the first thread, other
 * markers of no sampled process nowhere. *marks: marker indexes by
 * thread, thread i's from (*first)[i] to (*first)[i + 1].
 */
static void assign_markers(const struct timeline_view *v, uint32_t **marks, size_t **first)
{
	size_t *thread_of = xcalloc(v->nr_markers + 1, sizeof(*thread_of));
	size_t *count = xcalloc(v->nr_threads + 2, sizeof(*count));
	size_t i, k, none = v->nr_threads;

	for (i = 0; i < v->nr_markers; i++) {
		const struct tl_marker *m = &v->markers[i];
		size_t to = none, busiest = none;

		for (k = 0; k < v->nr_threads; k++) {
			if (v->threads[k].pid != m->pid)
				continue;
			if (busiest == none || v->threads[k].nr_samples > v->threads[busiest].nr_samples)
				busiest = k;
			if (m->tid && v->threads[k].tid == m->tid) {
				to = k;
				break;
			}
		}
		if (to == none)
			to = busiest;
		if (to == none && v->nr_threads && m->kind >= TLM_LOST)
			to = 0;
		thread_of[i] = to;
		count[to + 1]++;
	}
	for (k = 0; k < v->nr_threads; k++)
		count[k + 1] += count[k];
	*marks = xcalloc(v->nr_markers + 1, sizeof(**marks));
	*first = xcalloc(v->nr_threads + 2, sizeof(**first));
	memcpy(*first, count, (v->nr_threads + 1) * sizeof(*count));
	for (i = 0; i < v->nr_markers; i++)
		if (thread_of[i] != none)
			(*marks)[count[thread_of[i]]++] = (uint32_t)i;
	free(thread_of);
	free(count);
}

int timeline__write_firefox(const struct timeline_view *v, const struct timeline_meta *m, FILE *out)
{
	struct writer w = { .v = v };
	size_t i, first = 0, *first_mark;
	uint32_t *marks;
	int ret;

	w.j = json_out__new(out, m->gzip);
	json_out__ch(w.j, '{');
	write_meta(&w, m);
	write_libs(&w, m);
	write_shared(&w);
	assign_markers(v, &marks, &first_mark);
	json_out__puts(w.j, ",\"threads\":[");
	for (i = 0; i < v->nr_threads; i++) {
		if (!i || v->threads[i].pid != v->threads[i - 1].pid)
			first = i;
		json_out__puts(w.j, i ? ",\n" : "\n");
		write_thread(&w, &v->threads[i], process_name(v, first), marks + first_mark[i],
			     first_mark[i + 1] - first_mark[i]);
	}
	free(marks);
	free(first_mark);
	json_out__puts(w.j, "]}\n");
	ret = json_out__close(w.j);
	free_hash(&w.strings);
	free_hash(&w.files);
	free(w.string_list);
	free(w.file_list);
	free(w.lib_of);
	return ret;
}
