/* census_store.c — census rows into the database. */
#include "driver/census_store.h"

#include <stdio.h>
#include <string.h>

#include "tracker/tracker.h"

int rb_census_store_row(struct rb_store *st, int64_t run_id, const struct rb_census_row *row,
			struct rb_err *err)
{
	struct rb_store_census_row r;
	memset(&r, 0, sizeof(r));
	snprintf(r.tracker, sizeof(r.tracker), "%s", row->tracker);
	snprintf(r.op, sizeof(r.op), "%s", row->op);
	snprintf(r.kind, sizeof(r.kind), "%s", row->kind ? row->kind : "");
	r.width = row->bits;
	r.sampled = row->sampled;
	r.cases = row->cases;
	r.unsound = row->unsound;
	r.optimal = row->sampled ? -1 : (int64_t)row->optimal;
	r.mean_extra_log2 = row->extra_log2;
	r.tighter = row->has_cmp ? (int64_t)row->tighter : -1;
	r.looser = row->has_cmp ? (int64_t)row->looser : -1;
	r.equal = row->has_cmp ? (int64_t)row->equal : -1;
	r.incomparable = row->has_cmp ? (int64_t)row->incomparable : -1;
	return rb_store_census(st, run_id, &r, 1, err);
}

struct ctx {
	struct rb_store *st;
	int64_t run_id;
	volatile sig_atomic_t *stop;
	struct rb_err *err;
	int failed;
};

static int on_row(const struct rb_census_row *row, void *arg)
{
	struct ctx *c = arg;
	if (rb_census_store_row(c->st, c->run_id, row, c->err) < 0) {
		c->failed = 1;
		return 1;
	}
	return c->stop && *c->stop ? 2 : 0;
}

int rb_census_store(struct rb_store *st, const struct rb_census_opts *opts,
		    const struct rb_run_info *info, volatile sig_atomic_t *stop, int64_t *run_id,
		    struct rb_census_summary *sum, struct rb_err *err)
{
	if (rb_census_check_opts(opts, err) < 0)
		return -1;
	struct rb_run_info ci = *info;
	ci.kind = "census";
	/* the census covers the userspace trackers only */
	char names[128] = "";
	const struct rb_tracker *const *l = rb_trackers(opts->bits);
	for (; l && *l; l++)
		if (!opts->trackers)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", *names ? "," : "",
				 (*l)->name);
	for (const char *const *t = opts->trackers; t && *t; t++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s", *names ? "," : "", *t);
	ci.trackers = names;
	if (rb_store_run_begin(st, &ci, run_id, err) < 0)
		return -1;
	struct ctx c = {st, *run_id, stop, err, 0};
	memset(sum, 0, sizeof(*sum));
	struct rb_census_opts o = *opts;
	if (!o.stop)
		o.stop = stop;
	int rc = rb_census_run(&o, on_row, &c, sum, err);
	struct rb_err e2;
	if (rb_store_run_end(st, *run_id, rc == 0 ? "complete" : "incomplete", &e2) < 0 && rc == 0) {
		*err = e2;
		return -1;
	}
	if (c.failed || rc < 0)
		return -1;
	if (rc == 2)
		return rb_errf(err, "census: interrupted");
	return 0;
}
