/* run_guests.c — `run`'s kernel images: each kernel of --trackers that is
 * an image of kernels.conf verifies the run's objects in its guests
 * (src/guest/guest.h), and its rows are stored under the run like the
 * driver's. */
#include <stdlib.h>
#include <string.h>

#include "cli/run_opts.h"
#include "guest/guest.h"
#include "kernels/kernels.h"

#define FLUSH_ROWS 256

struct sink {
	struct rb_store *st;
	int64_t run_id;
	struct rb_result_row *rows;
	size_t n;
	struct rb_err err;
	bool failed;
	unsigned long long stored, not_accepted;
};

static int flush(struct sink *s)
{
	if (s->n && !s->failed && rb_store_results(s->st, s->rows, s->n, &s->err) < 0)
		s->failed = true;
	s->stored += s->failed ? 0 : s->n;
	s->n = 0;
	return s->failed ? -1 : 0;
}

static int put(void *ctx, const struct rb_result_row *row, const char *log)
{
	(void)log;
	struct sink *s = ctx;
	s->rows[s->n] = *row;
	s->rows[s->n].run_id = s->run_id;
	s->not_accepted += row->res.verdict != RB_ACCEPT;
	return ++s->n == FLUSH_ROWS ? flush(s) : 0;
}

int rb_run_guests(struct rb_store *st, const struct run_cli *c, const struct rb_joblist *jobs, int64_t run_id,
		  volatile sig_atomic_t *stop, char *why, size_t whylen)
{
	struct rb_guest_obj *objs = calloc(jobs->n ? jobs->n : 1, sizeof(*objs));
	struct sink s = {.st = st, .run_id = run_id, .rows = calloc(FLUSH_ROWS, sizeof(struct rb_result_row))};
	if (!objs || !s.rows) {
		free(objs);
		free(s.rows);
		snprintf(why, whylen, " (out of memory)");
		return -1;
	}
	for (size_t i = 0; i < jobs->n; i++) {
		objs[i].path = jobs->objs[i].path;
		objs[i].source = jobs->objs[i].source;
		objs[i].prog_type = rb_driver_job_prog_type(&c->o, &jobs->objs[i]);
		objs[i].error = jobs->objs[i].error;
	}
	int rc = 0;
	for (unsigned g = 0; g < c->nguests && rc == 0; g++) {
		struct rb_kernel k;
		struct rb_err err = {{0}};
		struct rb_guest_stats gs;
		struct rb_guest_opts go = {
			.jobs = c->o.jobs,
			.filter = c->o.filter,
			.stop = stop,
			.progress = c->quiet ? NULL : stderr,
		};
		if (rb_kernel_find(c->guests[g], &k, &err) < 0 ||
		    rb_guest_run(&k, objs, jobs->n, &go, put, &s, &gs, &err) < 0 || flush(&s) < 0) {
			fprintf(stderr, "rangebench run: %s\n", s.failed ? s.err.msg : err.msg);
			snprintf(why, whylen, " (%s: %.300s)", c->guests[g], s.failed ? s.err.msg : err.msg);
			rc = -1;
		} else if (!c->quiet) {
			fprintf(stderr, "%s (%s, %s): %zu objects, %zu from the cache, %u guests; %llu rows so far\n",
				k.name, gs.release[0] ? gs.release : "release unknown",
				gs.accel[0] ? gs.accel : "no guest booted", gs.objects, gs.cached, gs.guests, s.stored);
		}
	}
	free(objs);
	free(s.rows);
	return rc;
}
