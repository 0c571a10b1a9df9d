/* query.c — see query.h */
#include "report/query.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "tracker/tracker.h"

int rb_query_run(sqlite3 *db, const char *sql, const char *what, const struct rb_query_params *p,
		 rb_query_cb cb, void *ctx, struct rb_err *err)
{
	static const char *const names[] = {":run", ":census_run", ":bench_run"};
	const int64_t ids[3] = {p->run, p->census_run, p->bench_run};
	const char *tail = sql;
	while (tail && *tail) {
		sqlite3_stmt *s = NULL;
		if (sqlite3_prepare_v2(db, tail, -1, &s, &tail) != SQLITE_OK)
			return rb_errf(err, "%s: %s", what, sqlite3_errmsg(db));
		if (!s)
			break; /* only whitespace or comments left */
		/* the database is opened read-only: a statement that writes
		 * (VACUUM INTO a new file, CREATE TEMP ..., a PRAGMA that sets)
		 * is refused before it runs, like any other write */
		if (!sqlite3_stmt_readonly(s)) {
			char head[64];
			snprintf(head, sizeof(head), "%s", sqlite3_sql(s) ? sqlite3_sql(s) : "");
			sqlite3_finalize(s);
			return rb_errf(err, "%s: refused: a statement that writes (%s%s): queries only read", what, head,
				       strlen(head) == sizeof(head) - 1 ? "..." : "");
		}
		for (int k = 0; k < 3; k++) {
			int pi = sqlite3_bind_parameter_index(s, names[k]);
			if (pi > 0 && ids[k] >= 0)
				sqlite3_bind_int64(s, pi, ids[k]);
		}
		int pb = sqlite3_bind_parameter_index(s, ":baseline");
		int pc = sqlite3_bind_parameter_index(s, ":candidate");
		if (pb > 0)
			sqlite3_bind_text(s, pb, p->baseline ? p->baseline : RB_ROLE_BASELINE, -1, SQLITE_STATIC);
		if (pc > 0)
			sqlite3_bind_text(s, pc, p->candidate ? p->candidate : RB_ROLE_CANDIDATE, -1, SQLITE_STATIC);
		int ncol = sqlite3_column_count(s);
		if (ncol > 64)
			ncol = 64;
		const char *hdr[64];
		for (int i = 0; i < ncol; i++)
			hdr[i] = sqlite3_column_name(s, i);
		struct rb_table t;
		if (ncol > 0 && rb_table_init(&t, (size_t)ncol, hdr) < 0) {
			sqlite3_finalize(s);
			return rb_errf(err, "%s: out of memory", what);
		}
		int step;
		while ((step = sqlite3_step(s)) == SQLITE_ROW) {
			const char *cells[64];
			for (int i = 0; i < ncol; i++)
				cells[i] = (const char *)sqlite3_column_text(s, i);
			if (ncol > 0)
				rb_table_add(&t, cells);
		}
		int rc = 0;
		if (step != SQLITE_DONE)
			rc = rb_errf(err, "%s: %s", what, sqlite3_errmsg(db));
		if (ncol > 0) {
			if (cb)
				cb(&t, ctx);
			rb_table_free(&t);
		}
		sqlite3_finalize(s);
		if (rc)
			return rc;
	}
	return 0;
}
