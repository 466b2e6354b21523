/*
 * speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * the timeline's functions as the shared frame table, one "sampled" profile
 * per thread, its samples in the recording's order, each a stack of
 * frame indexes from the root, weighed by count or by period
 * (nanoseconds for a clock event's). speedscope's Time Order view lays
 * them out in that order, its Left Heavy and Sandwich views sum them.
 */
#include "common/common.h"
#include "output/out-timeline.h"
#include "output/json-out.h"
#include "common/sbuf.h"

/*
 * speedscope's frames are functions: it keys a frame by its index, so a
 * function seen at several lines would be as many functions in its Left
 * Heavy and Sandwich views. Each is named with its file and the line of
 * its first frame (where its samples first were).
 */
static void write_frames(struct json_out *j, const struct timeline_view *v)
{
	uint32_t *line = xcalloc(v->nr_funcs + 1, sizeof(*line));
	size_t i;

	for (i = v->nr_frames; i-- > 0;)
		line[v->frames[i].func] = v->frames[i].line;
	json_out__puts(j, "\"shared\":{\"frames\":[");
	for (i = 0; i < v->nr_funcs; i++) {
		const struct tl_func *fn = &v->funcs[i];

		if (i)
			json_out__ch(j, ',');
		json_out__puts(j, "\n{\"name\":");
		json_out__str(j, fn->name);
		if (fn->file) {
			json_out__puts(j, ",\"file\":");
			json_out__str(j, fn->file);
		} else if (fn->resource != TL_NONE) {
			json_out__puts(j, ",\"file\":");
			json_out__str(j, v->resources[fn->resource].path);
		}
		if (line[i]) {
			json_out__puts(j, ",\"line\":");
			json_out__u64(j, line[i]);
		}
		json_out__ch(j, '}');
	}
	json_out__puts(j, "]}");
	free(line);
}

static void write_profile(struct json_out *j, const struct timeline_view *v,
			  const struct tl_thread *th, uint32_t *frames, size_t max)
{
	const uint32_t *stack;
	const uint64_t *time, *weight;
	size_t c, i, k, n, depth;
	bool first = true;
	char name[64];

	json_out__puts(j, "\n{\"type\":\"sampled\",\"name\":");
	snprintf(name, sizeof(name), " (%" PRIu32 "/%" PRIu32 ")", th->pid, th->tid);
	{
		struct sbuf sb = SBUF_INIT;

		sbuf_addstr(&sb, th->comm);
		sbuf_addstr(&sb, name);
		json_out__str(j, sb.buf);
		sbuf_release(&sb);
	}
	json_out__puts(j, ",\"unit\":");
	json_out__puts(j, v->weight_ns ? "\"nanoseconds\"" : "\"none\"");
	json_out__puts(j, ",\"startValue\":0,\"endValue\":");
	json_out__u64(j, th->total_weight);
	json_out__puts(j, ",\"samples\":[");
	for (c = 0; timeline__chunk(v, th, c, &stack, &time, &weight, &n); c++) {
		for (i = 0; i < n; i++, first = false) {
			if (!first)
				json_out__ch(j, ',');
			json_out__ch(j, '[');
			depth = stack[i] == TL_NONE ? 0 : timeline__stack_frames(v, stack[i], frames, max);
			if (depth > max)
				BUG("a stack deeper than its frames");
			for (k = 0; k < depth; k++) {
				if (k)
					json_out__ch(j, ',');
				json_out__u64(j, v->frames[frames[k]].func);
			}
			json_out__ch(j, ']');
		}
	}
	json_out__puts(j, "],\"weights\":[");
	first = true;
	for (c = 0; timeline__chunk(v, th, c, &stack, &time, &weight, &n); c++) {
		for (i = 0; i < n; i++, first = false) {
			if (!first)
				json_out__ch(j, ',');
			json_out__u64(j, weight[i]);
		}
	}
	json_out__puts(j, "]}");
}

/* The deepest stack's depth: every stack is at most that many frames. */
static size_t max_depth(const struct timeline_view *v)
{
	size_t *depth = xcalloc(v->nr_stacks ? v->nr_stacks : 1, sizeof(*depth)), max = 0, i;

	/* a stack's prefix is always made before it */
	for (i = 0; i < v->nr_stacks; i++) {
		uint32_t p = v->stacks[i].prefix;

		depth[i] = (p == TL_NONE ? 0 : depth[p]) + 1;
		if (depth[i] > max)
			max = depth[i];
	}
	free(depth);
	return max;
}

int timeline__write_speedscope(const struct timeline_view *v, const struct timeline_meta *m,
			       FILE *out)
{
	struct json_out *j = json_out__new(out, m->gzip);
	size_t max = max_depth(v), i, active = 0;
	uint32_t *frames = xcalloc(max ? max : 1, sizeof(*frames));

	for (i = 1; i < v->nr_threads; i++)
		if (v->threads[i].nr_samples > v->threads[active].nr_samples)
			active = i;
	json_out__puts(j, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",");
	json_out__puts(j, "\"exporter\":\"jitsym\",\"name\":");
	json_out__str(j, m->name);
	json_out__puts(j, ",\"activeProfileIndex\":");
	json_out__u64(j, active);
	json_out__ch(j, ',');
	write_frames(j, v);
	json_out__puts(j, ",\"profiles\":[");
	for (i = 0; i < v->nr_threads; i++) {
		if (i)
			json_out__ch(j, ',');
		write_profile(j, v, &v->threads[i], frames, max);
	}
	json_out__puts(j, "]}\n");
	free(frames);
	return json_out__close(j);
}
