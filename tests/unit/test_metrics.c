/* test_metrics.c — the metric registry (src/result/metrics.h) and what
 * follows from it: every metric stored and read back through its column,
 * a column missing from an older database added on open, the pair views
 * with base_/cand_ for every metric, the kernel log's keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "report/compare.h"
#include "result/result.h"
#include "store/store.h"
#include "store_fixture.h"

static void rows_are_whole(void **state)
{
	(void)state;
	for (int m = 0; m < RB_METRIC_COUNT; m++) {
		const struct rb_metric_def *d = &rb_metrics[m];
		assert_non_null(d->column);
		assert_non_null(d->name);
		assert_non_null(d->title);
		assert_int_equal(rb_metric_parse(d->name), m);
		assert_int_equal(rb_cmp_stat_parse(d->name), m + 1);
		assert_true((d->vtitle == NULL) == (d->vcsv == NULL));
		for (int k = 0; k < m; k++) {
			assert_string_not_equal(rb_metrics[k].name, d->name);
			assert_string_not_equal(rb_metrics[k].column, d->column);
		}
		/* get and set reach the member of the row */
		struct rb_result r;
		memset(&r, 0, sizeof(r));
		rb_metric_set(&r, (enum rb_metric)m, 1234);
		assert_true(rb_metric_get(&r, (enum rb_metric)m) == 1234);
		for (int k = 0; k < RB_METRIC_COUNT; k++)
			if (k != m)
				assert_true(rb_metric_get(&r, (enum rb_metric)k) == 0);
	}
	assert_int_equal(rb_metric_parse("nope"), -1);
	assert_int_equal(rb_cmp_stat_parse("verdict"), RB_STAT_VERDICT);
	/* compare's defaults begin as before the registry (a metric added
	 * later may join them) */
	enum rb_cmp_stat d[RB_STAT_COUNT];
	size_t n = rb_cmp_default_stats(d);
	assert_true(n >= 4);
	assert_int_equal(d[0], RB_STAT_VERDICT);
	assert_int_equal(d[1], RB_STAT_INSNS);
	assert_int_equal(d[2], RB_STAT_STATES);
	assert_int_equal(d[3], RB_STAT_TIME);
}

static void kernel_log_keys(void **state)
{
	(void)state;
	static const char log[] = "0: (b7) r0 = 0\n1: (95) exit\n"
				  "verification time 1354 usec\nstack depth 0\n"
				  "processed 19 insns (limit 1000000) max_states_per_insn 3 total_states 2 "
				  "peak_states 4 mark_read 5\n";
	struct rb_result r;
	memset(&r, 0, sizeof(r));
	assert_true(rb_metrics_from_klog(log, &r));
	assert_int_equal(r.insns_processed, 19);
	assert_int_equal(r.max_states_per_insn, 3);
	assert_int_equal(r.total_states, 2);
	assert_int_equal(r.peak_states, 4);
	assert_int_equal(r.mark_read, 5);
	assert_true(r.verify_us == 1354);
	/* a time glued to a message without its newline (6.18) still counts */
	memset(&r, 0, sizeof(r));
	assert_true(rb_metrics_from_klog("expected prog array map for tail callverification time 7 usec\n"
					 "processed 3 insns (limit 1000000)\n", &r));
	assert_int_equal(r.insns_processed, 3);
	assert_true(r.verify_us == 7);
	memset(&r, 0, sizeof(r));
	assert_false(rb_metrics_from_klog("R1 invalid mem access 'scalar'\n", &r));
	assert_false(rb_metrics_from_klog(NULL, &r));
}

static void every_metric_stored_and_paired(void **state)
{
	(void)state;
	char path[256];
	struct rb_err err = {{0}};
	struct rb_store *st = fx_open_tmp(path, sizeof(path), &err);
	int64_t run;
	struct rb_run_info info = {.label = "t", .git_dirty = -1};
	assert_int_equal(rb_store_run_begin(st, &info, &run, &err), 0);
	struct rb_result_row rows[2];
	fx_row(&rows[0], run, "/a/x.o", "sha-x", "p1", "old", RB_ACCEPT, 100, 10);
	fx_row(&rows[1], run, "/a/x.o", "sha-x", "p1", "cnum", RB_ACCEPT, 100, 10);
	for (int m = 0; m < RB_METRIC_COUNT; m++) {
		rb_metric_set(&rows[0].res, (enum rb_metric)m, 10 + m);
		rb_metric_set(&rows[1].res, (enum rb_metric)m, 100 + m);
	}
	assert_int_equal(rb_store_results(st, rows, 2, &err), 0);
	sqlite3 *db = rb_store_db(st);
	char sql[512];
	for (int m = 0; m < RB_METRIC_COUNT; m++) {
		const struct rb_metric_def *d = &rb_metrics[m];
		snprintf(sql, sizeof(sql), "SELECT %s FROM results WHERE tracker = 'cnum'", d->column);
		assert_int_equal(fx_count(db, sql), 100 + m);
		snprintf(sql, sizeof(sql),
			 "SELECT base_%s * 1000 + cand_%s FROM tracker_pairs WHERE base_tracker = 'old' AND "
			 "cand_tracker = 'cnum'", d->name, d->name);
		assert_int_equal(fx_count(db, sql), (10 + m) * 1000 + 100 + m);
		snprintf(sql, sizeof(sql),
			 "SELECT cand FROM tracker_pair_metrics WHERE base_tracker = 'old' AND metric = '%s'", d->name);
		assert_int_equal(fx_count(db, sql), 100 + m);
		/* the two-run pair view has the same columns */
		snprintf(sql, sizeof(sql),
			 "SELECT count(*) FROM pragma_table_info('run_pairs') WHERE name IN ('base_%s', 'cand_%s')",
			 d->name, d->name);
		assert_int_equal(fx_count(db, sql), 2);
	}
	assert_int_equal(fx_count(db, "SELECT count(*) FROM tracker_pair_metrics"), 2 * RB_METRIC_COUNT);
	rb_store_close(st);

	/* a database made before a metric: its column is added on open */
	sqlite3 *raw;
	assert_int_equal(sqlite3_open(path, &raw), SQLITE_OK);
	const char *col = rb_metrics[RB_METRIC_COUNT - 1].column;
	snprintf(sql, sizeof(sql), "DROP VIEW tracker_pair_metrics; DROP VIEW tracker_pairs; DROP VIEW run_pairs; "
		 "ALTER TABLE results DROP COLUMN %s", col);
	assert_int_equal(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM pragma_table_info('results') WHERE name = '%s'", col);
	assert_int_equal(fx_count(raw, sql), 0);
	sqlite3_close(raw);
	/* a reader sees NULL for it, and writes nothing */
	assert_int_equal(rb_store_open_read(path, &st, &err), 0);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM tracker_pairs WHERE cand_%s IS NULL",
		 rb_metrics[RB_METRIC_COUNT - 1].name);
	assert_int_equal(fx_count(rb_store_db(st), sql), 2);
	rb_store_close(st);
	/* a writer adds it */
	assert_int_equal(rb_store_open(path, &st, &err), 0);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM pragma_table_info('results') WHERE name = '%s'", col);
	assert_int_equal(fx_count(rb_store_db(st), sql), 1);
	rb_store_close(st);
	fx_rm_db(path);
}

/* an engine bug is an outcome of its own: its word, and compare counts it
 * apart from the verdicts */
static void engine_bug_outcome(void **state)
{
	(void)state;
	assert_string_equal(rb_verdict_name(RB_ENGINE_BUG), "engine_bug");
	assert_int_equal(rb_verdict_parse("engine_bug"), RB_ENGINE_BUG);
	for (int v = 0; v < RB_VERDICT_COUNT; v++)
		assert_int_equal(rb_verdict_parse(rb_verdict_name((enum rb_verdict)v)), v);
	struct rb_cmp_row row;
	memset(&row, 0, sizeof(row));
	row.a.present = row.b.present = true;
	snprintf(row.a.verdict, sizeof(row.a.verdict), "success");
	snprintf(row.b.verdict, sizeof(row.b.verdict), "engine_bug");
	struct rb_compare c = {.rows = &row, .n = 1};
	struct rb_compare_summary s;
	rb_compare_summarize(&c, &s);
	assert_int_equal(s.programs, 0);
	assert_int_equal(s.unverified[1][RB_ENGINE_BUG], 1);
	assert_int_equal(s.verdict_changes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_are_whole),
		cmocka_unit_test(kernel_log_keys),
		cmocka_unit_test(every_metric_stored_and_paired),
		cmocka_unit_test(engine_bug_outcome),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
