/* stretch.c — the stretches of (program, tracker) pairs the workers'
 * verifier children go through, and an idle worker's share of the longest
 * one (driver_impl.h, struct rb_stretch). */
#include <stdlib.h>

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

/* the second half of the pairs not yet started of the stretch with the
 * most (at least two: its owner keeps one), as a new stretch; NULL if none */
static struct rb_stretch *steal(struct rb_driver *d)
{
	struct rb_stretch *best = NULL, *s = free_stretch(d);
	for (unsigned j = 0; s && j < d->nstretch; j++) {
		struct rb_stretch *o = &d->stretch[j];
		if (o->busy && o->end - o->next >= 2 && (!best || o->end - o->next > best->end - best->next))
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
	bool found = true;
	pthread_mutex_lock(&d->lock);
	if (d->next < d->norder) {
		/* claimed and opened at once, so that an idle worker sees it */
		*i = d->next++;
		const struct obj_state *os = &d->objs[d->order[*i]];
		if ((*s = free_stretch(d)))
			**s = (struct rb_stretch){.i = *i, .next = 0, .end = os->nprogs * d->opts.ntrackers, .busy = true};
	} else if ((*s = steal(d))) {
		*i = (*s)->i;
	} else {
		found = false;
	}
	pthread_mutex_unlock(&d->lock);
	return found;
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
	pthread_mutex_lock(&d->lock);
	bool ours = q < s->end;
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

