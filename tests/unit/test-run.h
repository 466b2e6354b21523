/*
 * Running a jitsym command in a forked child of a unit test, as main()
 * would run it: the command function (cmd_fold(), cmd_script(), ...) gets
 * argv with "-o FILE" added; its messages go through msg_set_sink() to a
 * second file and the child's stderr (sanitizer reports) to a third. The
 * child runs under alarm(timeout), so a hang ends as SIGALRM. Each run is
 * a fresh copy of the test process: rate-limited warnings and other
 * per-process state start from zero. Include after test-files.h.
 */
#ifndef JITSYM_TEST_RUN_H
#define JITSYM_TEST_RUN_H

#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

struct run {
	int exit_code;          /* -1 when killed by a signal */
	int sig;                /* that signal, or 0 */
	char *out, *msgs, *err; /* NUL-terminated file contents */
	size_t out_len;
};

typedef int (*run_cmd_fn)(int argc, char **argv);

/* The whole file as a NUL-terminated heap string ("" if it is missing). */
static inline char *read_whole(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	size_t n = 0, alloc = 0, got;
	char *buf = NULL;

	for (;;) {
		ALLOC_GROW(buf, n + 65536 + 1, alloc);
		if (!fp)
			break;
		got = fread(buf + n, 1, 65536, fp);
		n += got;
		if (got < 65536)
			break;
	}
	if (fp)
		fclose(fp);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static FILE *run_msgs_fp;

static inline void run_sink(const char *line)
{
	fprintf(run_msgs_fp, "%s\n", line);
}

static inline void run_release(struct run *r)
{
	free(r->out);
	free(r->msgs);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

/* Run fn with argv {name, "-o", OUT, args...}; args ends with NULL. */
static inline void run_cmd(struct run *r, run_cmd_fn fn, const char *name,
			   const char *const *args, unsigned int timeout)
{
	static char *out, *msgs, *err;
	char *argv[64];
	int argc = 0, status;
	pid_t pid;

	if (!out) {
		out = tpath("run.out");
		msgs = tpath("run.msgs");
		err = tpath("run.err");
	}
	argv[argc++] = (char *)name;
	argv[argc++] = (char *)"-o";
	argv[argc++] = out;
	while (*args && argc < (int)ARRAY_SIZE(argv) - 1)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	unlink(out);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		die("cannot fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		run_msgs_fp = fopen(msgs, "w");
		if (fd < 0 || !run_msgs_fp)
			_exit(99);
		dup2(fd, 2);
		close(fd);
		msg_set_sink(run_sink);
		alarm(timeout);
		optind = 1;
		/* exit(), not _exit(): LeakSanitizer checks at exit */
		exit(fn(argc, argv));
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid: %s", strerror(errno));
	r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r->sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	r->out = read_whole(out, &r->out_len);
	r->msgs = read_whole(msgs, NULL);
	r->err = read_whole(err, NULL);
}

/* Exited 0 or 2, no signal, nothing on stderr (sanitizers report there). */
static inline bool run_clean(const struct run *r)
{
	return !r->sig && (r->exit_code == EXIT_OK || r->exit_code == EXIT_INPUT) && !r->err[0];
}

#endif
