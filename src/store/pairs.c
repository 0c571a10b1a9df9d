/* pairs.c — result rows side by side, from the metric registry (see
 * pairs.h). */
#include "store/pairs.h"

#include "result/metrics.h"

#include <stdbool.h>
#include <string.h>

bool rb_results_has_column(sqlite3 *db, const char *col)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info('results', 'main') WHERE name = ?1", -1, &s,
			       NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(s, 1, col, -1, SQLITE_STATIC);
	bool has = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return has;
}

/* which of the registry's metrics have their column in results: one
 * read of the table's columns (rb_results_has_column per metric prepared
 * a statement each, twice per open of the database: issue 26); all false
 * when they cannot be read, as rb_results_has_column says then */
static void metric_columns(sqlite3 *db, bool has[RB_METRIC_COUNT])
{
	memset(has, 0, sizeof(bool) * RB_METRIC_COUNT);
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info('results', 'main')", -1, &s, NULL) !=
	    SQLITE_OK)
		return;
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(s, 0);
		for (int m = 0; c && m < RB_METRIC_COUNT; m++)
			if (!strcmp(c, rb_metrics[m].column))
				has[m] = true;
	}
	sqlite3_finalize(s);
}

/* the columns into one growing string: a sqlite3_mprintf of the whole
 * text per metric copied it 19 times over (twice per open of the
 * database, ~40 KB of fresh allocations each under the sanitizers) */
static void pair_columns(sqlite3_str *q, const bool has[RB_METRIC_COUNT], const char *a, const char *b)
{
	sqlite3_str_appendf(q, "%s.verdict AS base_verdict, %s.verdict AS cand_verdict", a, b);
	for (int m = 0; m < RB_METRIC_COUNT; m++) {
		const struct rb_metric_def *d = &rb_metrics[m];
		if (!has[m])
			sqlite3_str_appendf(q, ", NULL AS base_%s, NULL AS cand_%s", d->name, d->name);
		else if (d->flags & RB_MF_SAME_CLOCK)
			/* a guest's emulated time never meets a native one (results.clock) */
			sqlite3_str_appendf(q,
					    ", CASE WHEN %s.clock IS %s.clock THEN %s.%s END AS base_%s, "
					    "CASE WHEN %s.clock IS %s.clock THEN %s.%s END AS cand_%s",
					    a, b, a, d->column, d->name, a, b, b, d->column, d->name);
		else
			sqlite3_str_appendf(q, ", %s.%s AS base_%s, %s.%s AS cand_%s", a, d->column, d->name, b,
					    d->column, d->name);
	}
}

char *rb_pair_columns(sqlite3 *db, const char *a, const char *b, struct rb_err *err)
{
	bool has[RB_METRIC_COUNT];
	metric_columns(db, has);
	sqlite3_str *q = sqlite3_str_new(db);
	pair_columns(q, has, a, b);
	char *out = sqlite3_str_finish(q);
	if (!out)
		rb_errf(err, "pair columns: out of memory");
	return out;
}

int rb_pair_view_create(sqlite3 *db, bool temp, struct rb_err *err)
{
	bool has[RB_METRIC_COUNT];
	metric_columns(db, has);
	const char *tmp = temp ? "TEMP " : "";
	/* the two pairings share the columns: two trackers of one run, and
	 * one tracker in two runs (a before/after of a patch) */
	sqlite3_str *q = sqlite3_str_new(db);
	sqlite3_str_appendf(q,
			    "%sCREATE %sVIEW tracker_pairs AS SELECT o.run_id, p.id AS program_id, p.source, "
			    "p.obj_path AS object, p.name AS program, o.tracker AS base_tracker, c.tracker AS cand_tracker, ",
			    temp ? "" : "DROP VIEW IF EXISTS tracker_pair_metrics; DROP VIEW IF EXISTS tracker_pairs; "
					"DROP VIEW IF EXISTS run_pairs; ",
			    tmp);
	pair_columns(q, has, "o", "c");
	sqlite3_str_appendf(q,
			    " FROM results o JOIN results c ON c.run_id = o.run_id AND c.program_id = o.program_id "
			    "AND c.tracker <> o.tracker JOIN programs p ON p.id = o.program_id; "
			    "CREATE %sVIEW run_pairs AS SELECT o.run_id AS base_run, c.run_id AS cand_run, p.id AS program_id, "
			    "p.source, p.obj_path AS object, p.name AS program, o.tracker, ",
			    tmp);
	pair_columns(q, has, "o", "c");
	sqlite3_str_appendf(q, " FROM results o JOIN results c ON c.program_id = o.program_id AND c.tracker = o.tracker "
			       "AND c.run_id <> o.run_id JOIN programs p ON p.id = o.program_id");
	/* the same pairs one row per metric (metric, ord = registry order,
	 * base, cand): a chart or query over every metric, a new metric
	 * being a new row */
	for (int m = 0; m < RB_METRIC_COUNT; m++)
		sqlite3_str_appendf(q,
				    "%s SELECT run_id, program_id, source, object, program, base_tracker, cand_tracker, "
				    "base_verdict, cand_verdict, '%s' AS metric, %d AS ord, base_%s AS base, cand_%s AS cand "
				    "FROM tracker_pairs",
				    m ? " UNION ALL" : temp ? "; CREATE TEMP VIEW tracker_pair_metrics AS"
							    : "; DROP VIEW IF EXISTS tracker_pair_metrics; "
							      "CREATE VIEW tracker_pair_metrics AS",
				    rb_metrics[m].name, m, rb_metrics[m].name, rb_metrics[m].name);
	char *sql = sqlite3_str_finish(q);
	char *msg = NULL;
	int rc = sql ? sqlite3_exec(db, sql, NULL, NULL, &msg) : SQLITE_NOMEM;
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		rb_errf(err, "tracker_pairs view: %s", msg ? msg : "out of memory");
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int rb_results_add_metric_columns(sqlite3 *db, struct rb_err *err)
{
	bool has[RB_METRIC_COUNT];
	metric_columns(db, has);
	for (int m = 0; m < RB_METRIC_COUNT; m++) {
		const struct rb_metric_def *d = &rb_metrics[m];
		if (has[m])
			continue;
		char *sql = sqlite3_mprintf("ALTER TABLE results ADD COLUMN %s %s", d->column,
					    d->real ? "REAL" : "INTEGER");
		char *msg = NULL;
		int rc = sql ? sqlite3_exec(db, sql, NULL, NULL, &msg) : SQLITE_NOMEM;
		sqlite3_free(sql);
		if (rc != SQLITE_OK) {
			rb_errf(err, "results column %s: %s", d->column, msg ? msg : "out of memory");
			sqlite3_free(msg);
			return -1;
		}
	}
	return 0;
}
