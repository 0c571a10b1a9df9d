/* query.h — running a ready-made query (db/queries/NAME.sql, several
 * statements) against the results database, each statement's rows as a
 * table. */
#ifndef RB_REPORT_QUERY_H
#define RB_REPORT_QUERY_H

#include <sqlite3.h>
#include <stdint.h>

#include "report/table.h"
#include "util/err.h"

/* Named parameters a query may use, bound when present: :run (a verify
 * run), :census_run and :bench_run (ids < 0 leave them NULL), :baseline
 * and :candidate (the two trackers compared by role; NULL: the defaults
 * RB_ROLE_BASELINE and RB_ROLE_CANDIDATE). */
struct rb_query_params {
	int64_t run, census_run, bench_run;
	const char *baseline, *candidate;
};

/* called with each statement's rows (the table is freed after) */
typedef void (*rb_query_cb)(const struct rb_table *t, void *ctx);

/* Run every statement of sql; errors name `what` (the file). */
int rb_query_run(sqlite3 *db, const char *sql, const char *what, const struct rb_query_params *p,
		 rb_query_cb cb, void *ctx, struct rb_err *err);

#endif
