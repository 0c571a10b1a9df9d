/* stretch.c — the stretches of (program, tracker) pairs the workers'
 * verifier children go through, and an idle worker's share of the longest
 * one (driver_impl.h, struct rb_stretch). */
#include <stdlib.h>
#include <time.h>

#include "driver/driver_impl.h"

bool rb_drv_stretches_init(struct rb_driver *d)
{
	unsigned n = d->opts.jobs ? d->opts.jobs : 1;
	d->stretch = d->opts.child_exe ? calloc(n, sizeof(*d->stretch)) : NULL;
	d->nstretch = d->stretch ? n : 0;
	return d->stretch != NULL;
}

static struct rb_stretch *free_stretch(struct rb_driver *d)
{
	for (unsigned j = 0; j < d->nstretch; j++)
		if (!d->stretch[j].busy)
			return &d->stretch[j];
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The second half of the pairs not yet started of the stretch with the
 * most (at least two: its owner keeps one) whose rest is worth a child
 * (driver_impl.h: RB_STEAL_MIN_S), as a new stretch; NULL if none, and
 * *later set when some stretch of two or more might become worth it. */
static struct rb_stretch *steal(struct rb_driver *d, bool *later)
{
	struct rb_stretch *best = NULL, *s = free_stretch(d);
	double now = now_s();
	*later = false;
	for (unsigned j = 0; s && j < d->nstretch; j++) {
		struct rb_stretch *o = &d->stretch[j];
		if (!o->busy || o->end - o->next < 2)
			continue;
		double rest = o->paced && o->next > o->q0
				      ? (now - o->t0) / (double)(o->next - o->q0) * (double)(o->end - o->next)
				      : 0;
		if (rest < RB_STEAL_MIN_S)
			*later = true;
		else if (!best || o->end - o->next > best->end - best->next)
			best = o;
	}
	if (!best)
		return NULL;
	size_t mid = best->next + (best->end - best->next) / 2;
	*s = (struct rb_stretch){.i = best->i, .next = mid, .end = best->end, .busy = true};
	best->end = mid;
	return s;
}

bool rb_drv_next_work(struct rb_driver *d, size_t *i, struct rb_stretch **s)
{
	for (;;) {
		bool found = true, later = false;
		pthread_mutex_lock(&d->lock);
		if (d->next < d->norder) {
			/* claimed and opened at once, so that an idle worker sees it */
			*i = d->next++;
			const struct obj_state *os = &d->objs[d->order[*i]];
			if ((*s = free_stretch(d)))
				**s = (struct rb_stretch){
					.i = *i, .next = 0, .end = os->nprogs * d->opts.ntrackers, .busy = true};
		} else if ((*s = steal(d, &later))) {
			*i = (*s)->i;
		} else {
			found = false;
		}
		pthread_mutex_unlock(&d->lock);
		if (found || !later || rb_drv_stop_requested(d))
			return found;
		/* a stretch not (yet) worth a share: looked at again soon */
		nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
	}
}

size_t rb_drv_stretch_end(struct rb_driver *d, struct rb_stretch *s, size_t npairs)
{
	if (!s)
		return npairs;
	pthread_mutex_lock(&d->lock);
	size_t end = s->end;
	pthread_mutex_unlock(&d->lock);
	return end;
}

bool rb_drv_stretch_start(struct rb_driver *d, struct rb_stretch *s, size_t q)
{
	if (!s)
		return true;
	double now = now_s();
	pthread_mutex_lock(&d->lock);
	bool ours = q < s->end;
	if (ours && !s->paced) {
		s->paced = true;
		s->q0 = s->next;
		s->t0 = now;
	}
	if (ours)
		s->next = q + 1;
	pthread_mutex_unlock(&d->lock);
	return ours;
}

size_t rb_drv_stretch_close(struct rb_driver *d, struct rb_stretch *s, size_t q, size_t npairs)
{
	if (!s)
		return npairs;
	pthread_mutex_lock(&d->lock);
	size_t end = s->end;
	s->next = s->end = q;
	pthread_mutex_unlock(&d->lock);
	return end;
}

void rb_drv_stretch_free(struct rb_driver *d, struct rb_stretch *s)
{
	if (!s)
		return;
	pthread_mutex_lock(&d->lock);
	s->busy = false;
	pthread_mutex_unlock(&d->lock);
}

