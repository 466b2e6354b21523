#include "common.h"
#include "out-script.h"
#include "machine.h"

static void print_header(FILE *out, const struct resolved_sample *rs, bool chain)
{
	const struct pd_sample *s = rs->sample;
	uint64_t st = s->attr->attr.sample_type;

	if (chain)
		fprintf(out, "%s ", rs->thread->comm);
	else
		fprintf(out, "%16s ", rs->thread->comm);
	fprintf(out, "%5" PRIu32 " ", s->tid);
	if (st & PERF_SAMPLE_CPU)
		fprintf(out, "[%03" PRIu32 "] ", s->cpu);
	if (st & PERF_SAMPLE_TIME) {
		uint64_t usec = s->time / 1000;

		fprintf(out, "%5" PRIu64 ".%06" PRIu64 ": ", usec / 1000000, usec % 1000000);
	}
	if (st & PERF_SAMPLE_PERIOD)
		fprintf(out, "%10" PRIu64 " ", s->period);
	fprintf(out, "%s: ", s->attr->name);
}

static void print_frame(FILE *out, const struct frame *f, uint64_t addr)
{
	fprintf(out, "%16" PRIx64 " ", addr);
	if (f->sym)
		fprintf(out, "%s+0x%" PRIx64, f->sym, f->symoff);
	else
		fputs("[unknown]", out);
	fprintf(out, " (%s)\n", f->dso);
}

void script__print_sample(FILE *out, const struct resolved_sample *rs)
{
	bool chain = rs->sample->callchain != NULL;
	size_t i;

	print_header(out, rs, chain);
	if (!chain) {
		fputc(' ', out);
		/* perf prints the sample's own ip in full, unlike chain entries */
		if (rs->nr_frames)
			print_frame(out, &rs->frames[0], rs->sample->ip);
		else
			fputc('\n', out);
		return;
	}
	fputc('\n', out);
	for (i = 0; i < rs->nr_frames; i++) {
		fputc('\t', out);
		print_frame(out, &rs->frames[i], rs->frames[i].print_addr);
	}
	fputc('\n', out);
}
