/* writer.c — the single writer thread behind rb_writer_put(). */
#include "store/writer.h"
#include "util/grow.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct rb_writer {
	struct rb_store *st;
	size_t batch;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	/* queue: a growable array taken whole by the writer thread */
	struct rb_result_row *q;
	size_t n, cap;
	bool stopping, failed;
	uint64_t stored;
	struct rb_err err;
};

static void *writer_main(void *arg)
{
	struct rb_writer *w = arg;
	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->n == 0 && !w->stopping)
			pthread_cond_wait(&w->wake, &w->lock);
		if (w->n == 0 && w->stopping)
			break;
		/* take the whole queue; producers start a new one meanwhile */
		struct rb_result_row *rows = w->q;
		size_t n = w->n;
		w->q = NULL;
		w->n = w->cap = 0;
		pthread_mutex_unlock(&w->lock);

		struct rb_err err = {{0}};
		int rc = 0;
		size_t done = 0;
		for (size_t i = 0; i < n && rc == 0; i += w->batch) {
			size_t k = n - i < w->batch ? n - i : w->batch;
			rc = rb_store_results(w->st, rows + i, k, &err);
			if (rc == 0)
				done += k;
		}
		free(rows);

		pthread_mutex_lock(&w->lock);
		w->stored += done;
		if (rc < 0 && !w->failed) {
			w->failed = true;
			w->err = err;
		}
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int rb_writer_start(struct rb_store *st, size_t batch, struct rb_writer **out, struct rb_err *err)
{
	struct rb_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return rb_errf(err, "%s: out of memory", rb_store_path(st));
	w->st = st;
	w->batch = batch ? batch : 256;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	if (pthread_create(&w->thread, NULL, writer_main, w) != 0) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->wake);
		free(w);
		return rb_errf(err, "%s: cannot start the writer thread", rb_store_path(st));
	}
	*out = w;
	return 0;
}

int rb_writer_put(struct rb_writer *w, const struct rb_result_row *row)
{
	pthread_mutex_lock(&w->lock);
	if (w->failed) {
		pthread_mutex_unlock(&w->lock);
		return -1;
	}
	if (RB_GROW(w->q, w->n + 1, &w->cap, 64) < 0) {
		w->failed = true;
		rb_errf(&w->err, "%s: out of memory queueing results", rb_store_path(w->st));
		pthread_mutex_unlock(&w->lock);
		return -1;
	}
	w->q[w->n++] = *row;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

int64_t rb_writer_finish(struct rb_writer *w, struct rb_err *err)
{
	pthread_mutex_lock(&w->lock);
	w->stopping = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	int64_t rc = w->failed ? -1 : (int64_t)w->stored;
	if (w->failed && err)
		*err = w->err;
	free(w->q);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	free(w);
	return rc;
}
