#include "common/common.h"
#include "reader/perfdata-print.h"

static void print_sample_type(FILE *out, uint64_t st)
{
	static const char *const names[] = {
		"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
		"PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
		"STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
		"REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
		"CODE_PAGE_SIZE", "WEIGHT_STRUCT",
	};
	const char *sep = "";
	size_t i;

	for (i = 0; i < 64; i++) {
		if (!(st & (1ULL << i)))
			continue;
		if (i < ARRAY_SIZE(names))
			fprintf(out, "%s%s", sep, names[i]);
		else
			fprintf(out, "%sbit%zu", sep, i);
		sep = "|";
	}
}

static void print_event_line(FILE *out, const struct pd_attr *a)
{
	size_t i;

	fprintf(out, "# event : name = %s, id = {", a->name);
	for (i = 0; i < a->nr_ids; i++)
		fprintf(out, "%s %" PRIu64, i ? "," : "", a->ids[i]);
	fprintf(out, " }, type = %" PRIu32 ", config = %#" PRIx64 ", size = %" PRIu32,
		a->attr.type, (uint64_t)a->attr.config, a->attr.size);
	fprintf(out, ", %s = %" PRIu64, a->attr.freq ? "sample_freq" : "sample_period",
		(uint64_t)a->attr.sample_period);
	fputs(", sample_type = ", out);
	print_sample_type(out, a->attr.sample_type);
	if (a->attr.sample_id_all)
		fputs(", sample_id_all = 1", out);
	if (a->attr.use_clockid)
		fprintf(out, ", clockid = %" PRId32, a->attr.clockid);
	fputc('\n', out);
}

static void print_str(FILE *out, const char *label, const char *value)
{
	if (value)
		fprintf(out, "# %s : %s\n", label, value);
}

void pd_reader__print_header(FILE *out, const struct pd_reader *r)
{
	const struct pd_info *in = pd_reader__info(r);
	size_t i;

	fputs("# ========\n", out);
	if (!in->pipe_mode) {
		fprintf(out, "# data offset    : %" PRIu64 "\n", in->data_offset);
		fprintf(out, "# data size      : %" PRIu64 "\n", in->data_size);
	}
	print_str(out, "hostname", in->hostname);
	print_str(out, "os release", in->osrelease);
	print_str(out, "perf version", in->version);
	print_str(out, "arch", in->arch);
	if (in->nr_cpus_avail) {
		fprintf(out, "# nrcpus online : %" PRIu32 "\n", in->nr_cpus_online);
		fprintf(out, "# nrcpus avail : %" PRIu32 "\n", in->nr_cpus_avail);
	}
	print_str(out, "cpudesc", in->cpudesc);
	print_str(out, "cpuid", in->cpuid);
	if (in->total_mem_kb)
		fprintf(out, "# total memory : %" PRIu64 " kB\n", in->total_mem_kb);
	print_str(out, "cmdline", in->cmdline);
	for (i = 0; i < pd_reader__nr_attrs(r); i++)
		print_event_line(out, pd_reader__attr(r, i));
	if (in->clock_res_ns)
		fprintf(out, "# clock resolution : %" PRIu64 " ns\n", in->clock_res_ns);
	if (in->compressed)
		fprintf(out, "# compressed : %s, level = %" PRIu32 "\n",
			in->comp_type == 1 ? "zstd" : "unknown", in->comp_level);
	fprintf(out, "# build ids : %zu\n", in->nr_build_ids);
	for (i = 0; i < in->nr_build_ids; i++) {
		const struct pd_build_id *b = &in->build_ids[i];
		uint8_t k;

		fputs("#   ", out);
		for (k = 0; k < b->size; k++)
			fprintf(out, "%02x", b->id[k]);
		fprintf(out, " %s\n", b->filename);
	}
	fputs("# ========\n#\n", out);
}
