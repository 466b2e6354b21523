/*
 * offcpu-demo: threads that spend their time off the CPU, each measuring
 * how long it was blocked, for tests/live/t-offcpu.sh.
 *
 *	offcpu-demo [ROUNDS [MS]]
 *
 * "sleeper" sleeps ROUNDS times MS ms (nanosleep); "feeder" does the same
 * and writes a byte into a pipe after each sleep; "reader" reads those
 * bytes, blocking in read() until each arrives. Each thread names itself,
 * then times with CLOCK_MONOTONIC the whole stretch from before its first
 * blocking call to after its last one (its time between the calls, a few
 * microseconds on the CPU, is inside that too, but so is any time it lost
 * the CPU there), and main prints "NAME TID NS" for each once all have
 * ended.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

struct worker {
	const char *name;
	pthread_t thread;
	pid_t tid;
	uint64_t blocked_ns;
};

static int rounds = 30;
static long round_ms = 10;
static int pipe_fds[2];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_round(void)
{
	struct timespec ts = { round_ms / 1000, (round_ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void named(struct worker *w)
{
	pthread_setname_np(pthread_self(), w->name);
	w->tid = gettid();
}

static void *sleeper(void *arg)
{
	struct worker *w = arg;
	uint64_t start;
	int i;

	named(w);
	start = now_ns();
	for (i = 0; i < rounds; i++)
		sleep_round();
	w->blocked_ns = now_ns() - start;
	return NULL;
}

static void *feeder(void *arg)
{
	struct worker *w = arg;
	uint64_t start;
	int i;

	named(w);
	start = now_ns();
	for (i = 0; i < rounds; i++) {
		sleep_round();
		if (write(pipe_fds[1], "x", 1) != 1)
			exit(2);
	}
	w->blocked_ns = now_ns() - start;
	return NULL;
}

static void *reader(void *arg)
{
	struct worker *w = arg;
	uint64_t start;
	char c;
	int i;

	named(w);
	start = now_ns();
	for (i = 0; i < rounds; i++)
		if (read(pipe_fds[0], &c, 1) != 1)
			exit(2);
	w->blocked_ns = now_ns() - start;
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[] = { { .name = "sleeper" }, { .name = "reader" }, { .name = "feeder" } };
	void *(*fn[])(void *) = { sleeper, reader, feeder };
	size_t i;

	if (argc > 1)
		rounds = atoi(argv[1]);
	if (argc > 2)
		round_ms = atol(argv[2]);
	if (rounds < 1 || round_ms < 1 || pipe(pipe_fds))
		return 1;
	for (i = 0; i < 3; i++)
		if (pthread_create(&w[i].thread, NULL, fn[i], &w[i]))
			return 1;
	for (i = 0; i < 3; i++)
		pthread_join(w[i].thread, NULL);
	for (i = 0; i < 3; i++)
		printf("%s %d %llu\n", w[i].name, (int)w[i].tid, (unsigned long long)w[i].blocked_ns);
	return 0;
}
