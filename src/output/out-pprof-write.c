#include "common/common.h"
#include "output/out-pprof-internal.h"
#include "output/gzsink.h"
#include "common/varint.h"

/*
 * Writing the profile: the messages are made and packed one at a time as
 * they are written, in Profile's field order (sample_type, the samples,
 * the mappings, the locations, the functions, then the string table and
 * the rest), so the profile never exists whole in memory: concatenated
 * fields are one message to a protobuf reader, the same bytes as packing
 * the whole.
 */

static int cmp_mappings(const void *a, const void *b)
{
	const struct mapping *x = *(const struct mapping *const *)a;
	const struct mapping *y = *(const struct mapping *const *)b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->library != y->library)
		return x->library ? 1 : -1;
	/*
	 * Readers call the first mapping the main binary (go tool pprof's
	 * "File:"): the program most sampled addresses are in, not the first
	 * one seen, which is often the shell that started it.
	 */
	if (x->kind == MAP_FILE && !x->library && x->nr_locs != y->nr_locs)
		return x->nr_locs > y->nr_locs ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Number the mappings in output order and fill them in; the list is the caller's. */
static Perftools__Profiles__Mapping **mapping_list(struct pprof_builder *b)
{
	size_t n = b->nr_maps ? b->nr_maps : 1, i = 0;
	struct mapping **maps = xcalloc(n, sizeof(*maps)), *m;
	Perftools__Profiles__Mapping **list = xcalloc(n, sizeof(*list));

	for (m = b->maps; m; m = m->hh.next)
		maps[i++] = m;
	qsort(maps, b->nr_maps, sizeof(*maps), cmp_mappings);
	for (i = 0; i < b->nr_maps; i++) {
		Perftools__Profiles__Mapping *msg = &maps[i]->msg;

		m = maps[i];
		perftools__profiles__mapping__init(msg);
		msg->id = i + 1;
		msg->memory_start = m->start;
		msg->memory_limit = m->limit;
		msg->file_offset = m->kind == MAP_JIT ? 0 : m->offset;
		msg->filename = pprof_builder__str_index(b, m->key.name);
		msg->build_id = pprof_builder__str_index(b, m->build_id);
		msg->has_functions = m->nr_locs && m->nr_functions == m->nr_locs;
		msg->has_filenames = m->nr_locs && m->nr_filenames == m->nr_locs;
		msg->has_line_numbers = m->nr_locs && m->nr_line_numbers == m->nr_locs;
		msg->has_inline_frames = m->has_inline_frames;
		list[i] = msg;
	}
	free(maps);
	return list;
}

/* Profile.sample, .location and .function: fields 2, 4, 5, wire type 2 (length-delimited) */
#define SAMPLE_TAG (2u << 3 | 2u)
#define LOCATION_TAG (4u << 3 | 2u)
#define FUNCTION_TAG (5u << 3 | 2u)

/* Scratch space for packing one message at a time. */
struct packer {
	uint8_t *buf;
	size_t alloc;
};

/* One element of a repeated message field of Profile: tag, length, message. */
static void write_field(struct packer *pk, struct gz_sink *g, unsigned tag,
			const ProtobufCMessage *msg)
{
	size_t size = protobuf_c_message_get_packed_size(msg), n;
	uint8_t hdr[2 * 10];

	ALLOC_GROW(pk->buf, size, pk->alloc);
	protobuf_c_message_pack(msg, pk->buf);
	n = put_varint(hdr, tag);
	n += put_varint(hdr + n, size);
	gz_sink__write(g, hdr, n);
	gz_sink__write(g, pk->buf, size);
}

/*
 * The samples, as Profile field 2 (repeated Sample) in wire format, each
 * built and packed only as it is written: a reader merges repeated fields
 * across the whole message, so they can come between the other fields.
 */
static void write_samples(const struct pprof_builder *b, struct gz_sink *g, struct packer *pk)
{
	Perftools__Profiles__Label labels[PPROF_MAX_LABELS], *label_ptrs[PPROF_MAX_LABELS];
	Perftools__Profiles__Sample msg;
	struct stack_iter it = STACK_ITER_INIT;
	const uint32_t *key;
	uint64_t *ids = NULL, count, period;
	int64_t values[2];
	size_t ids_alloc = 0, len, j;

	while (!gz_sink__failed(g) && stack_store__next(b->stacks, &it, &key, &len, &count, &period)) {
		size_t nr_ids = len - b->nr_labels, nr_label = 0;

		ALLOC_GROW(ids, nr_ids + 1, ids_alloc);
		for (j = 0; j < nr_ids; j++)
			ids[j] = key[j];
		perftools__profiles__sample__init(&msg);
		msg.n_location_id = nr_ids;
		msg.location_id = ids;
		values[0] = (int64_t)count;
		values[1] = (int64_t)period;
		msg.n_value = ARRAY_SIZE(values);
		msg.value = values;
		for (j = nr_ids; j < len; j++) {
			Perftools__Profiles__Label *l = &labels[nr_label];

			/* all labels are strings; 0 (""): not known, left out */
			if (!key[j])
				continue;
			perftools__profiles__label__init(l);
			l->key = b->label_keys[j - nr_ids];
			l->str = key[j];
			label_ptrs[nr_label++] = l;
		}
		msg.n_label = nr_label;
		msg.label = label_ptrs;
		write_field(pk, g, SAMPLE_TAG, &msg.base);
	}
	free(ids);
}

/* The locations, as Profile field 4, each made into a message as it is written. */
static void write_locations(const struct pprof_builder *b, struct gz_sink *g, struct packer *pk)
{
	Perftools__Profiles__Line lines[SRCLINE_MAX_DEPTH], *line_ptrs[SRCLINE_MAX_DEPTH];
	Perftools__Profiles__Location msg;
	size_t i, j;

	for (i = 0; i < b->nr_locs && !gz_sink__failed(g); i++) {
		const struct location *l = loc_at(b, i);
		size_t end = i + 1 < b->nr_locs ? loc_at(b, i + 1)->first_line : b->nr_lines;

		perftools__profiles__location__init(&msg);
		msg.id = i + 1;
		msg.mapping_id = class_at(b, l->cls)->map == NO_MAPPING ? 0 :
				 b->map_list[class_at(b, l->cls)->map]->msg.id;
		msg.address = l->ip;
		for (j = l->first_line; j < end; j++) {
			Perftools__Profiles__Line *line = &lines[j - l->first_line];

			perftools__profiles__line__init(line);
			line->function_id = line_at(b, j)->function_id;
			line->line = line_at(b, j)->line;
			line->column = line_at(b, j)->column;
			line_ptrs[j - l->first_line] = line;
		}
		msg.n_line = end - l->first_line;
		msg.line = line_ptrs;
		write_field(pk, g, LOCATION_TAG, &msg.base);
	}
}

/* The functions, as Profile field 5. */
static void write_functions(const struct pprof_builder *b, struct gz_sink *g, struct packer *pk)
{
	Perftools__Profiles__Function msg;
	size_t i;

	for (i = 0; i < b->nr_funcs && !gz_sink__failed(g); i++) {
		perftools__profiles__function__init(&msg);
		msg.id = i + 1;
		msg.name = func_at(b, i)->name_index;
		/* only the demangled name is kept (the mangled one with --no-demangle) */
		msg.system_name = msg.name;
		msg.filename = func_at(b, i)->file_index;
		write_field(pk, g, FUNCTION_TAG, &msg.base);
	}
}

/*
 * The profile's period: the sampling period when it was fixed; with -F
 * (a frequency), a clock event's is 1e9 / frequency ns, any other event's
 * the mean period of its samples.
 */
static int64_t profile_period(const struct pprof_builder *b)
{
	if (!b->freq)
		return (int64_t)b->sample_period;
	if (!strcmp(b->unit, "nanoseconds") && b->sample_freq)
		return (int64_t)(1000000000 / b->sample_freq);
	return b->nr_samples ? (int64_t)(b->period_sum / b->nr_samples) : 0;
}

int pprof_builder__write(struct pprof_builder *b, FILE *out)
{
	Perftools__Profiles__Profile head = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Profile maps = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Profile p = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType types[2], period_type, *type_ptrs[2];
	struct packer pk = { NULL, 0 };
	struct gz_sink *g;

	perftools__profiles__value_type__init(&types[0]);
	types[0].type = pprof_builder__str_index(b, "samples");
	types[0].unit = pprof_builder__str_index(b, "count");
	perftools__profiles__value_type__init(&types[1]);
	types[1].type = pprof_builder__str_index(b, b->type);
	types[1].unit = pprof_builder__str_index(b, b->unit);
	type_ptrs[0] = &types[0];
	type_ptrs[1] = &types[1];
	period_type = types[1];
	/* field 1, then the samples (field 2), then the rest, in field order */
	head.n_sample_type = 2;
	head.sample_type = type_ptrs;
	p.period_type = &period_type;
	p.period = profile_period(b);
	/*
	 * perf's sample times are not wall-clock time (with -k 1 they are
	 * CLOCK_MONOTONIC, time since boot), and readers take time_nanos as
	 * Unix time (Pyroscope and Parca file the profile under it): leave
	 * it 0, "unknown". The duration is what the samples span; for
	 * merged recordings, each its own clock, the sum of their spans.
	 */
	p.time_nanos = 0;
	p.duration_nanos = (int64_t)(b->duration_before +
				     (b->have_time ? b->last_time - b->first_time : 0));

	/* field 3; the locations (4) and functions (5), streamed; then the rest */
	maps.mapping = mapping_list(b);
	maps.n_mapping = b->nr_maps;
	/* last: everything above has interned its strings */
	p.string_table = b->strings;
	p.n_string_table = b->nr_strings;

	g = gz_sink__new(out);
	perftools__profiles__profile__pack_to_buffer(&head, gz_sink__buffer(g));
	write_samples(b, g, &pk);
	if (!gz_sink__failed(g))
		perftools__profiles__profile__pack_to_buffer(&maps, gz_sink__buffer(g));
	write_locations(b, g, &pk);
	write_functions(b, g, &pk);
	if (!gz_sink__failed(g))
		perftools__profiles__profile__pack_to_buffer(&p, gz_sink__buffer(g));
	free(maps.mapping);
	free(pk.buf);
	return gz_sink__close(g);
}
