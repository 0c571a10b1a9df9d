/* run_summary.c — see run_summary.h */
#include "report/run_summary.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/printable.h"

int rb_run_summary_table(sqlite3 *db, int64_t run_id, struct rb_table *out, int64_t *rows,
			 struct rb_err *err)
{
	static const char *const hdr[] = {"tracker", "programs", "success", "failure",
					  "other",   "insns",    "states"};
	*rows = 0;
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db,
			       "SELECT tracker, count(*), sum(verdict = 'success'), sum(verdict = 'failure'), "
			       "sum(verdict NOT IN ('success', 'failure')), sum(insns_processed), "
			       "sum(total_states) FROM results WHERE run_id = ?1 GROUP BY tracker "
			       "ORDER BY tracker",
			       -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "run summary: %s", sqlite3_errmsg(db));
	if (rb_table_init(out, 7, hdr) < 0) {
		sqlite3_finalize(s);
		return rb_errf(err, "run summary: out of memory");
	}
	sqlite3_bind_int64(s, 1, run_id);
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		char v[6][24];
		const char *cells[7] = {(const char *)sqlite3_column_text(s, 0)};
		for (int i = 0; i < 6; i++) {
			snprintf(v[i], sizeof(v[i]), "%lld", (long long)sqlite3_column_int64(s, i + 1));
			cells[i + 1] = v[i];
		}
		*rows += sqlite3_column_int64(s, 1);
		rb_table_add(out, cells);
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		rb_table_free(out);
		return rb_errf(err, "run summary: %s", sqlite3_errmsg(db));
	}
	return 0;
}

/* the loader's words for an object without programs (object.c) */
#define NO_PROGRAMS "%: no programs: %"

int64_t rb_run_failed_objects(sqlite3 *db, int64_t run_id, FILE *f, const char *prefix, unsigned max,
			      int64_t *noprog, struct rb_err *err)
{
	sqlite3_stmt *s;
	if (noprog) {
		*noprog = 0;
		if (sqlite3_prepare_v2(db,
				       "SELECT count(DISTINCT r.program_id) FROM results r JOIN programs p ON "
				       "p.id = r.program_id WHERE r.run_id = ?1 AND p.name = '(object)' AND r.msg "
				       "LIKE '" NO_PROGRAMS "'",
				       -1, &s, NULL) != SQLITE_OK)
			return rb_errf(err, "failed objects: %s", sqlite3_errmsg(db));
		sqlite3_bind_int64(s, 1, run_id);
		if (sqlite3_step(s) == SQLITE_ROW)
			*noprog = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	/* one row per object (the first tracker's message) */
	if (sqlite3_prepare_v2(db,
			       "SELECT min(r.msg) FROM results r JOIN programs p ON p.id = r.program_id "
			       "WHERE r.run_id = ?1 AND p.name = '(object)' AND r.msg NOT LIKE '" NO_PROGRAMS "' "
			       "GROUP BY r.program_id "
			       "ORDER BY min(r.obj_path)",
			       -1, &s, NULL) != SQLITE_OK)
		return rb_errf(err, "failed objects: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(s, 1, run_id);
	int64_t n = 0;
	int rc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n < max) {
			/* stored messages name objects: escaped for the terminal */
			char *m = rb_printable_dup((const char *)sqlite3_column_text(s, 0));
			fprintf(f, "%s: %s\n", prefix, m ? m : "(out of memory)");
			free(m);
		}
		n++;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return rb_errf(err, "failed objects: %s", sqlite3_errmsg(db));
	if (n > max)
		fprintf(f, "%s: ... and %lld more objects that could not be opened\n", prefix,
			(long long)(n - max));
	return n;
}
