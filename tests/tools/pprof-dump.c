/*
 * pprof-dump: print a gzipped pprof profile (profile.proto) as stable
 * text, after checking what every reader relies on, so that golden tests
 * can check "jitsym pprof" without go tool pprof.
 *
 *	pprof-dump FILE
 *
 * Checks: gzip data; string_table[0] is ""; strings are UTF-8; every
 * string index is in the table; mapping, location and function ids are
 * nonzero and unique; every id a location, line or sample names exists;
 * a location's address is in its mapping's range; every sample has one
 * value per sample type. A violation is printed ("pprof-dump: ...") and
 * the exit status is 1; 2 when the file cannot be read or decoded.
 *
 * Output: the sample types, period, duration, the mappings in id order,
 * the totals per sample type, then each sample, sorted by its text: its
 * values and labels (KEY=VALUE for a string, KEY=#N for a number), then
 * one line per location, leaf first:
 *
 *	ADDRESS mMAPPING-ID FUNCTION [{SYSTEM-NAME}] [FILE:LINE[:COLUMN]] | ...
 *
 * with the inlined functions first, as the profile lists them (an
 * address alone: no lines).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include <zlib.h>

#include "profile.pb-c.h"

#define DUMP_MAX_INPUT (1u << 30)

static int problems;

static void problem(const char *fmt, ...)
{
	va_list ap;

	fputs("pprof-dump: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	problems++;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("pprof-dump: out of memory\n", stderr);
		exit(2);
	}
	return p;
}

/* A growable text buffer. */
struct text {
	char *buf;
	size_t len, alloc;
};

static void text_addf(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void text_addf(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (t->len + (size_t)n + 1 > t->alloc) {
		t->alloc = (t->len + (size_t)n + 1) * 2;
		t->buf = xrealloc(t->buf, t->alloc);
	}
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n;
}

static uint8_t *read_gzip(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char magic[2];
	uint8_t *buf = NULL;
	size_t alloc = 0;
	gzFile gz;
	int n;

	if (!fp || fread(magic, 1, 2, fp) != 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
		fprintf(stderr, "pprof-dump: '%s' is not gzip data\n", path);
		exit(2);
	}
	fclose(fp);
	gz = gzopen(path, "rb");
	if (!gz) {
		fprintf(stderr, "pprof-dump: cannot open '%s'\n", path);
		exit(2);
	}
	*len = 0;
	do {
		if (*len + 65536 > alloc) {
			alloc = (*len + 65536) * 2;
			if (alloc > DUMP_MAX_INPUT) {
				fprintf(stderr, "pprof-dump: '%s' is too large\n", path);
				exit(2);
			}
			buf = xrealloc(buf, alloc);
		}
		n = gzread(gz, buf + *len, 65536);
		if (n < 0) {
			fprintf(stderr, "pprof-dump: '%s': bad gzip data\n", path);
			exit(2);
		}
		*len += (size_t)n;
	} while (n > 0);
	gzclose(gz);
	return buf;
}

struct profile {
	const Perftools__Profiles__Profile *p;
	/* by id - 1, NULL where no entry has that id */
	Perftools__Profiles__Mapping **maps;
	Perftools__Profiles__Location **locs;
	Perftools__Profiles__Function **funcs;
};

static const char *str(const struct profile *pr, int64_t i)
{
	if (i < 0 || (uint64_t)i >= pr->p->n_string_table) {
		problem("string index %" PRId64 " is outside the table (%zu strings)",
			i, pr->p->n_string_table);
		return "?";
	}
	return pr->p->string_table[i];
}

/* Whether s is valid UTF-8, as proto3 requires of strings (strict readers check). */
static bool valid_utf8(const unsigned char *s)
{
	while (*s) {
		unsigned char lo = 0x80, hi = 0xbf;
		int n, i;

		if (*s < 0x80) {
			s++;
			continue;
		}
		if (*s >= 0xc2 && *s <= 0xdf)
			n = 2;
		else if (*s >= 0xe0 && *s <= 0xef)
			n = 3;
		else if (*s >= 0xf0 && *s <= 0xf4)
			n = 4;
		else
			return false;
		if (*s == 0xe0)
			lo = 0xa0;
		else if (*s == 0xed)
			hi = 0x9f;
		else if (*s == 0xf0)
			lo = 0x90;
		else if (*s == 0xf4)
			hi = 0x8f;
		if (s[1] < lo || s[1] > hi)
			return false;
		for (i = 2; i < n; i++)
			if (s[i] < 0x80 || s[i] > 0xbf)
				return false;
		s += n;
	}
	return true;
}

/* Index entries by id; ids must be nonzero, unique and at most n (pprof writes 1..n). */
#define INDEX_BY_ID(what, arr, n, out)                                          \
	do {                                                                    \
		size_t i_;                                                      \
		out = xrealloc(NULL, (n) * sizeof(*(out)));                     \
		memset(out, 0, (n) * sizeof(*(out)));                           \
		for (i_ = 0; i_ < (n); i_++) {                                  \
			uint64_t id_ = (arr)[i_]->id;                           \
			if (!id_ || id_ > (n))                                  \
				problem(what " id %" PRIu64 " out of 1..%zu", id_, (size_t)(n)); \
			else if ((out)[id_ - 1])                                \
				problem(what " id %" PRIu64 " used twice", id_); \
			else                                                    \
				(out)[id_ - 1] = (arr)[i_];                     \
		}                                                               \
	} while (0)

static void check_profile(struct profile *pr)
{
	const Perftools__Profiles__Profile *p = pr->p;
	size_t i, j;

	if (!p->n_string_table || p->string_table[0][0])
		problem("string_table[0] is not \"\"");
	for (i = 0; i < p->n_string_table; i++)
		if (!valid_utf8((const unsigned char *)p->string_table[i]))
			problem("string %zu is not UTF-8", i);
	INDEX_BY_ID("mapping", p->mapping, p->n_mapping, pr->maps);
	INDEX_BY_ID("location", p->location, p->n_location, pr->locs);
	INDEX_BY_ID("function", p->function, p->n_function, pr->funcs);
	for (i = 0; i < p->n_location; i++) {
		const Perftools__Profiles__Location *l = p->location[i];

		const Perftools__Profiles__Mapping *m = l->mapping_id && l->mapping_id <= p->n_mapping ?
			pr->maps[l->mapping_id - 1] : NULL;

		if (l->mapping_id && !m)
			problem("location %" PRIu64 ": no mapping %" PRIu64, l->id, l->mapping_id);
		if (m && (l->address < m->memory_start || l->address >= m->memory_limit))
			problem("location %" PRIu64 ": address %#" PRIx64 " outside mapping %" PRIu64,
				l->id, l->address, m->id);
		for (j = 0; j < l->n_line; j++) {
			uint64_t f = l->line[j]->function_id;

			if (!f || f > p->n_function || !pr->funcs[f - 1])
				problem("location %" PRIu64 ": no function %" PRIu64, l->id, f);
		}
	}
	for (i = 0; i < p->n_sample; i++) {
		const Perftools__Profiles__Sample *s = p->sample[i];

		if (s->n_value != p->n_sample_type)
			problem("sample %zu: %zu values for %zu sample types", i, s->n_value,
				p->n_sample_type);
		for (j = 0; j < s->n_location_id; j++)
			if (!s->location_id[j] || s->location_id[j] > p->n_location ||
			    !pr->locs[s->location_id[j] - 1])
				problem("sample %zu: no location %" PRIu64, i, s->location_id[j]);
	}
}

static void print_header(const struct profile *pr)
{
	const Perftools__Profiles__Profile *p = pr->p;
	size_t i;

	printf("sample_type:");
	for (i = 0; i < p->n_sample_type; i++)
		printf(" %s/%s", str(pr, p->sample_type[i]->type), str(pr, p->sample_type[i]->unit));
	printf("\nperiod: %" PRId64, p->period);
	if (p->period_type)
		printf(" %s/%s", str(pr, p->period_type->type), str(pr, p->period_type->unit));
	printf("\ntime_nanos: %" PRId64 "\nduration_nanos: %" PRId64 "\n",
	       p->time_nanos, p->duration_nanos);
	for (i = 0; i < p->n_comment; i++)
		printf("comment: %s\n", str(pr, p->comment[i]));
	printf("mappings:\n");
	for (i = 0; i < p->n_mapping; i++) {
		const Perftools__Profiles__Mapping *m = pr->maps[i];

		if (!m)
			continue;
		printf("  %" PRIu64 ": %#" PRIx64 "-%#" PRIx64 " @%#" PRIx64 " %s", m->id,
		       m->memory_start, m->memory_limit, m->file_offset, str(pr, m->filename));
		if (*str(pr, m->build_id))
			printf(" build_id=%s", str(pr, m->build_id));
		printf("%s%s%s%s\n", m->has_functions ? " functions" : "",
		       m->has_filenames ? " filenames" : "",
		       m->has_line_numbers ? " lines" : "",
		       m->has_inline_frames ? " inline" : "");
	}
}

static void location_text(const struct profile *pr, uint64_t id, struct text *t)
{
	const Perftools__Profiles__Location *l = id && id <= pr->p->n_location ? pr->locs[id - 1] : NULL;
	size_t i;

	if (!l) {
		text_addf(t, "    ?\n");
		return;
	}
	text_addf(t, "    %#" PRIx64 " m%" PRIu64, l->address, l->mapping_id);
	for (i = 0; i < l->n_line; i++) {
		const Perftools__Profiles__Line *ln = l->line[i];
		const Perftools__Profiles__Function *f = ln->function_id &&
			ln->function_id <= pr->p->n_function ? pr->funcs[ln->function_id - 1] : NULL;

		text_addf(t, "%s", i ? " |" : "");
		if (!f) {
			text_addf(t, " ?");
			continue;
		}
		text_addf(t, " %s", str(pr, f->name));
		if (f->system_name != f->name)
			text_addf(t, " {%s}", str(pr, f->system_name));
		if (*str(pr, f->filename) || ln->line)
			text_addf(t, " %s:%" PRId64, str(pr, f->filename), ln->line);
		if (ln->column)
			text_addf(t, ":%" PRId64, ln->column);
	}
	text_addf(t, "\n");
}

static char *sample_text(const struct profile *pr, const Perftools__Profiles__Sample *s)
{
	struct text t = { NULL, 0, 0 };
	size_t i;

	text_addf(&t, "sample");
	for (i = 0; i < s->n_value; i++)
		text_addf(&t, " %" PRId64, s->value[i]);
	for (i = 0; i < s->n_label; i++) {
		const Perftools__Profiles__Label *l = s->label[i];

		if (l->str)
			text_addf(&t, " %s=%s", str(pr, l->key), str(pr, l->str));
		else
			text_addf(&t, " %s=#%" PRId64, str(pr, l->key), l->num);
	}
	text_addf(&t, "\n");
	for (i = 0; i < s->n_location_id; i++)
		location_text(pr, s->location_id[i], &t);
	return t.buf;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void print_samples(const struct profile *pr)
{
	const Perftools__Profiles__Profile *p = pr->p;
	char **texts = xrealloc(NULL, p->n_sample * sizeof(*texts));
	int64_t *totals = xrealloc(NULL, p->n_sample_type * sizeof(*totals));
	size_t i, j;

	memset(totals, 0, p->n_sample_type * sizeof(*totals));
	for (i = 0; i < p->n_sample; i++) {
		texts[i] = sample_text(pr, p->sample[i]);
		for (j = 0; j < p->sample[i]->n_value && j < p->n_sample_type; j++)
			totals[j] += p->sample[i]->value[j];
	}
	printf("total:");
	for (j = 0; j < p->n_sample_type; j++)
		printf(" %" PRId64, totals[j]);
	printf(" (%zu samples, %zu locations, %zu functions, %zu strings)\n", p->n_sample,
	       p->n_location, p->n_function, p->n_string_table);
	qsort(texts, p->n_sample, sizeof(*texts), cmp_str);
	for (i = 0; i < p->n_sample; i++) {
		fputs(texts[i], stdout);
		free(texts[i]);
	}
	free(texts);
	free(totals);
}

int main(int argc, char **argv)
{
	struct profile pr = { NULL, NULL, NULL, NULL };
	Perftools__Profiles__Profile *p;
	uint8_t *buf;
	size_t len;

	if (argc != 2) {
		fputs("usage: pprof-dump FILE.pb.gz\n", stderr);
		return 2;
	}
	buf = read_gzip(argv[1], &len);
	p = perftools__profiles__profile__unpack(NULL, len, buf);
	if (!p) {
		fprintf(stderr, "pprof-dump: '%s' is not a profile.proto Profile\n", argv[1]);
		return 2;
	}
	pr.p = p;
	check_profile(&pr);
	print_header(&pr);
	print_samples(&pr);
	free(pr.maps);
	free(pr.locs);
	free(pr.funcs);
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
	if (fflush(stdout) || ferror(stdout))
		return 2;
	return problems ? 1 : 0;
}
