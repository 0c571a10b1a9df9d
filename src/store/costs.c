/* costs.c — per-program costs of earlier runs (see costs.h). */
#include "store/costs.h"

#include <sqlite3.h>

#include "store/store.h"

/* the latest run that holds each program, and its rows there */
static const char COSTS_SQL[] =
	"WITH last AS (SELECT program_id, max(run_id) AS run_id FROM results GROUP BY program_id) "
	"SELECT p.obj_sha256, p.section, p.name, "
	"       sum(coalesce(r.insns_processed, 0)) + ? * count(*) "
	"FROM last JOIN results r ON r.program_id = last.program_id AND r.run_id = last.run_id "
	"JOIN programs p ON p.id = last.program_id "
	"GROUP BY p.obj_sha256, p.section, p.name";

int rb_store_program_costs(const char *path, rb_cost_fn fn, void *ctx, struct rb_err *err)
{
	struct rb_store *st;
	if (rb_store_open_read(path, &st, err) < 0)
		return -1;
	sqlite3 *db = rb_store_db(st);
	sqlite3_stmt *s = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db, COSTS_SQL, -1, &s, NULL) != SQLITE_OK) {
		rb_errf(err, "%s: reading program costs: %s", path, sqlite3_errmsg(db));
		rb_store_close(st);
		return -1;
	}
	sqlite3_bind_int64(s, 1, RB_COST_PER_ROW);
	int step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *sha = (const char *)sqlite3_column_text(s, 0);
		const char *sec = (const char *)sqlite3_column_text(s, 1);
		const char *name = (const char *)sqlite3_column_text(s, 2);
		sqlite3_int64 cost = sqlite3_column_int64(s, 3);
		if (!sha || !sec || !name)
			continue;
		if (fn(ctx, sha, sec, name, cost > 0 ? (uint64_t)cost : 0))
			break;
	}
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		rb_errf(err, "%s: reading program costs: %s", path, sqlite3_errmsg(db));
		rc = -1;
	}
	sqlite3_finalize(s);
	rb_store_close(st);
	return rc;
}
