#include "common/common.h"
#include "common/pipeline.h"

#include <pthread.h>
#include <unistd.h>

/*
 * One mutex guards everything below it; the worker sleeps on "work" (an
 * item queued, or stop), the maker on "room" (an item free, or the worker
 * idle for drain). Every item is always in exactly one place: free,
 * queued, or the worker's (busy).
 */
struct pipeline {
	pipeline_fn fn;
	void *ctx;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work, room;
	void **free_items;            /* a stack */
	size_t nr_free;
	void **queue;                 /* a ring of nr_items slots */
	size_t head, nr_queued, nr_items;
	bool busy;                    /* the worker holds an item */
	bool stop;                    /* no more items will come */
	bool failed;
	const char *context;          /* the maker's recording, which the worker's messages name */
	struct msg_capture *capture;  /* where the maker keeps its messages: the worker too */
};

static void *worker(void *arg)
{
	struct pipeline *p = arg;

	msg_set_context(p->context);
	if (p->capture)
		msg_capture_begin(p->capture);
	pthread_mutex_lock(&p->lock);
	for (;;) {
		void *item;
		bool skip;
		int ret = 0;

		while (!p->nr_queued && !p->stop)
			pthread_cond_wait(&p->work, &p->lock);
		if (!p->nr_queued)
			break;
		item = p->queue[p->head];
		p->head = (p->head + 1) % p->nr_items;
		p->nr_queued--;
		p->busy = true;
		skip = p->failed;
		pthread_mutex_unlock(&p->lock);
		if (!skip)
			ret = p->fn(p->ctx, item);
		pthread_mutex_lock(&p->lock);
		if (ret)
			p->failed = true;
		p->free_items[p->nr_free++] = item;
		p->busy = false;
		pthread_cond_broadcast(&p->room);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

/* What pipeline__new() made, once the worker is gone or never started. */
static void pipeline_free(struct pipeline *p)
{
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->work);
	pthread_mutex_destroy(&p->lock);
	free(p->queue);
	free(p->free_items);
	free(p);
}

struct pipeline *pipeline__new(pipeline_fn fn, void *ctx, void *const *items, size_t nr_items)
{
	struct pipeline *p;
	int err;

	if (!nr_items)
		BUG("a pipeline needs items");
	p = xcalloc(1, sizeof(*p));
	p->fn = fn;
	p->ctx = ctx;
	p->nr_items = nr_items;
	p->free_items = xcalloc(nr_items, sizeof(*p->free_items));
	p->queue = xcalloc(nr_items, sizeof(*p->queue));
	memcpy(p->free_items, items, nr_items * sizeof(*items));
	p->nr_free = nr_items;
	p->context = msg_context();
	p->capture = msg_capturing();
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->room, NULL);
	err = pthread_create(&p->thread, NULL, worker, p);
	if (err) {
		pipeline_free(p);
		errno = err;
		return NULL;
	}
	return p;
}

void pipeline__delete(struct pipeline *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
	/* the worker empties the queue before it sees stop */
	pthread_join(p->thread, NULL);
	pipeline_free(p);
}

void *pipeline__get(struct pipeline *p)
{
	void *item;

	pthread_mutex_lock(&p->lock);
	while (!p->nr_free)
		pthread_cond_wait(&p->room, &p->lock);
	item = p->free_items[--p->nr_free];
	pthread_mutex_unlock(&p->lock);
	return item;
}

void pipeline__put(struct pipeline *p, void *item)
{
	pthread_mutex_lock(&p->lock);
	if (p->stop || p->nr_queued == p->nr_items)
		BUG("pipeline__put() of an item that is not the maker's");
	p->queue[(p->head + p->nr_queued) % p->nr_items] = item;
	p->nr_queued++;
	pthread_cond_signal(&p->work);
	pthread_mutex_unlock(&p->lock);
}

void pipeline__drain(struct pipeline *p)
{
	pthread_mutex_lock(&p->lock);
	while (p->nr_queued || p->busy)
		pthread_cond_wait(&p->room, &p->lock);
	pthread_mutex_unlock(&p->lock);
}

bool pipeline__failed(struct pipeline *p)
{
	bool failed;

	pthread_mutex_lock(&p->lock);
	failed = p->failed;
	pthread_mutex_unlock(&p->lock);
	return failed;
}

unsigned int pipeline__default_threads(unsigned int max)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (max < 1)
		max = 1;
	if (n < 1)
		return 1;
	return (unsigned long)n < max ? (unsigned int)n : max;
}
