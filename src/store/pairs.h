/* pairs.h — two result rows side by side, as SQL: the one column list of
 * the tracker_pairs view (db/views.sql's neighbour, made here from the
 * metric registry, result/metrics.h) and of compare's queries. */
#ifndef RB_STORE_PAIRS_H
#define RB_STORE_PAIRS_H

#include <sqlite3.h>
#include <stdbool.h>

#include "util/err.h"

/* The columns of results rows a (baseline) and b (candidate), interleaved:
 * "a.verdict AS base_verdict, b.verdict AS cand_verdict", then per metric
 * (registry order) base_NAME, cand_NAME; a metric whose column the
 * database lacks is NULL, a same-clock metric (verify_us) NULL unless
 * both rows were measured on one clock. A new string (sqlite3_free), or
 * NULL (out of memory, err set). */
char *rb_pair_columns(sqlite3 *db, const char *a, const char *b, struct rb_err *err);

/* Does the results table have column col? */
bool rb_results_has_column(sqlite3 *db, const char *col);

/* CREATE [TEMP] VIEW tracker_pairs: every ordered pair of trackers of a
 * run, per program (run_id, program_id, source, object, program,
 * base_tracker, cand_tracker, then rb_pair_columns); tracker_pair_metrics,
 * the same one row per metric (..., base_verdict, cand_verdict, metric,
 * ord, base, cand); and run_pairs: one tracker in every ordered pair of
 * runs, per program (base_run, cand_run, program_id, source, object,
 * program, tracker, then rb_pair_columns), a patch's before/after. These
 * hold the programs both sides verified; compare also lists a program
 * only one side has (its own outer join, with the same columns). 0 or -1. */
int rb_pair_view_create(sqlite3 *db, bool temp, struct rb_err *err);

/* Writers: add the results column of every metric the table lacks (a
 * database made before the metric was). 0 or -1. */
int rb_results_add_metric_columns(sqlite3 *db, struct rb_err *err);

#endif
