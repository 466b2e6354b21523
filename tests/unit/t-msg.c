/*
 * Unit tests for src/common/msg.c's kept messages: what a thread keeps
 * (msg_capture_begin()) is neither printed nor counted until it is said
 * (msg_capture_replay()), and then exactly as if it had been issued at
 * that point: the same lines, each warning counted against its call
 * site's limit in the order said, the recording each names as it was
 * when kept; mutes and recordings are each thread's own.
 */
#include "common/common.h"

#include <pthread.h>

/* the project's one test harness: T(name, cond), test_done() */
#include "test.h"

static char lines[64][256];
static size_t nr_lines;

static void sink(const char *line)
{
	if (nr_lines < ARRAY_SIZE(lines))
		snprintf(lines[nr_lines], sizeof(lines[0]), "%s", line);
	nr_lines++;
}

static bool said(size_t i, const char *text)
{
	return i < nr_lines && !strcmp(lines[i], text);
}

/* One warning site, said n times, numbered from first. */
static void warn_n(int first, int n)
{
	int i;

	for (i = first; i < first + n; i++)
		warning("the same kind of thing, %d", i);
}

struct kept_on_thread {
	struct msg_capture *c;
	const char *recording;
};

static void *keep_on_thread(void *arg)
{
	struct kept_on_thread *k = arg;

	msg_set_context(k->recording);
	msg_capture_begin(k->c);
	warn_n(10, 3);
	error("cannot do %s", "that");
	msg_mute(true);
	warning("never said");
	msg_mute(false);
	msg_capture_end();
	return NULL;
}

static void test_msg__kept_and_said(void)
{
	struct kept_on_thread k = { msg_capture_new(), "b.data" };
	unsigned long before = msg_warning_count();
	pthread_t t;

	msg_set_sink(sink);
	nr_lines = 0;
	/* kept on another thread: nothing said, nothing counted */
	T("a thread keeps its messages", !pthread_create(&t, NULL, keep_on_thread, &k) &&
	  !pthread_join(t, NULL));
	T("kept: nothing printed", nr_lines == 0);
	T("kept: no warning counted", msg_warning_count() == before);
	/* this thread's own, said at once: its recording is not the other's */
	msg_set_context("a.data");
	warn_n(0, 3);
	msg_set_context(NULL);
	T("said at once here", nr_lines == 3 &&
	  said(0, "jitsym: warning: 'a.data': the same kind of thing, 0"));
	/* said now: in order, as kept, and counted against the site's limit of 5 */
	msg_capture_replay(k.c);
	T("said: the recording it named when kept",
	  said(3, "jitsym: warning: 'b.data': the same kind of thing, 10"));
	T("said: counted on with this thread's (5 of 6 printed)",
	  nr_lines == 6 && said(4, "jitsym: warning: 'b.data': the same kind of thing, 11") &&
	  said(5, "jitsym: error: 'b.data': cannot do that"));
	T("said: the warnings counted", msg_warning_count() == before + 6);
	T("muted on its thread: never kept", nr_lines == 6);
	msg_capture_delete(k.c);
	msg_set_sink(NULL);
}

/* Kept past the limit: counted, not held (a damaged input's millions of warnings). */
static void test_msg__kept_past_limit(void)
{
	struct msg_capture *c = msg_capture_new();
	unsigned long before = msg_warning_count();

	msg_set_sink(sink);
	nr_lines = 0;
	msg_capture_begin(c);
	warn_n(100, 1000);
	msg_capture_end();
	msg_capture_replay(c);
	T("past the limit: all counted when said", msg_warning_count() == before + 1000);
	T("past the limit: none printed (the site is past it already)", nr_lines == 0);
	msg_capture_delete(c);
	msg_set_sink(NULL);
}

int main(void)
{
	test_msg__kept_and_said();
	test_msg__kept_past_limit();
	return test_done();
}
