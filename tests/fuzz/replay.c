/*
 * Replay inputs through a fuzz target without libFuzzer, so that the
 * regression files (tests/corrupt/) and the seed corpora run in every
 * build, with any compiler:
 *
 *	replay-TARGET FILE|DIR...
 *
 * calls LLVMFuzzerTestOneInput() once per file; a directory stands for
 * every regular file inside it, in name order. A crash or a sanitizer
 * report ends the program abnormally; a file that cannot be read is exit
 * status 1.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long nr_replayed;

static int replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, alloc = 0;
	int ret = 0;

	if (!fp) {
		fprintf(stderr, "replay: cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t got;

		if (len == alloc) {
			uint8_t *p;

			alloc = alloc ? alloc * 2 : 65536;
			p = realloc(buf, alloc);
			if (!p) {
				fprintf(stderr, "replay: out of memory reading '%s'\n", path);
				ret = -1;
				goto out;
			}
			buf = p;
		}
		got = fread(buf + len, 1, alloc - len, fp);
		len += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		fprintf(stderr, "replay: cannot read '%s'\n", path);
		ret = -1;
		goto out;
	}
	/* an exact-size copy, so ASan catches a read one past the end */
	{
		uint8_t *copy = malloc(len ? len : 1);

		if (!copy) {
			ret = -1;
			goto out;
		}
		memcpy(copy, buf, len);
		LLVMFuzzerTestOneInput(copy, len);
		free(copy);
	}
	nr_replayed++;
out:
	free(buf);
	fclose(fp);
	return ret;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t nr = 0, alloc = 0, i;
	int ret = 0;

	if (!d) {
		fprintf(stderr, "replay: cannot open '%s': %s\n", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		struct stat st;
		char *path;

		if (de->d_name[0] == '.')
			continue;
		path = malloc(strlen(dir) + strlen(de->d_name) + 2);
		if (!path)
			abort();
		snprintf(path, strlen(dir) + strlen(de->d_name) + 2, "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode)) {
			free(path);
			continue;
		}
		if (nr == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			names = realloc(names, alloc * sizeof(*names));
			if (!names)
				abort();
		}
		names[nr++] = path;
	}
	closedir(d);
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_names);
	for (i = 0; i < nr; i++) {
		if (replay_file(names[i]))
			ret = -1;
		free(names[i]);
	}
	free(names);
	return ret;
}

int main(int argc, char **argv)
{
	int i, ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st)) {
			fprintf(stderr, "replay: cannot stat '%s': %s\n", argv[i], strerror(errno));
			ret = 1;
		} else if (S_ISDIR(st.st_mode) ? replay_dir(argv[i]) : replay_file(argv[i])) {
			ret = 1;
		}
	}
	printf("replayed %lu files\n", nr_replayed);
	return ret;
}
