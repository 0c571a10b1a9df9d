/* test_store.c — the results database: create, migrate from version 1,
 * round trips, program deduplication, runs, stale-run reaping. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "store/store.h"
#include "store_fixture.h"

static void create_fresh(void **state)
{
	(void)state;
	char path[256];
	struct rb_err err = {{0}};
	struct rb_store *st = fx_open_tmp(path, sizeof(path), &err);
	sqlite3 *db = rb_store_db(st);
	assert_int_equal(fx_count(db, "PRAGMA user_version"), RB_SCHEMA_VERSION);
	char mode[32];
	fx_text(db, "PRAGMA journal_mode", mode, sizeof(mode));
	assert_string_equal(mode, "wal");
	assert_int_equal(fx_count(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
				   "('runs','programs','results','census','bench')"),
			 5);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM sqlite_master WHERE type = 'view'"), 8);
	rb_store_close(st);
	/* opening again is a no-op on the schema */
	assert_int_equal(rb_store_open(path, &st, &err), 0);
	assert_int_equal(fx_count(rb_store_db(st), "PRAGMA user_version"), RB_SCHEMA_VERSION);
	rb_store_close(st);
	fx_rm_db(path);
}

/* the sorted "table.column type" list of every table */
static char *columns_of(sqlite3 *db)
{
	sqlite3_stmt *s;
	assert_int_equal(sqlite3_prepare_v2(db,
					    "SELECT group_concat(c, ' ') FROM (SELECT m.name || '.' || p.name "
					    "|| ':' || p.type || ':' || p.pk AS c FROM sqlite_master m, "
					    "pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY c)",
					    -1, &s, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_step(s), SQLITE_ROW);
	char *r = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return r;
}

static void migrate_from_v1(void **state)
{
	(void)state;
	char path[256], fresh[256];
	fx_tmp_db(path, sizeof(path));
	fx_tmp_db(fresh, sizeof(fresh));
	/* a version-1 database with one run, program and result in it */
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	char *sql = fx_read_file("tests/unit/fixtures/schema_v1.sql");
	assert_non_null(sql);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	free(sql);
	assert_int_equal(sqlite3_exec(db,
				      "INSERT INTO runs (label, started_at, status) VALUES ('v1', "
				      "'2026-01-01T00:00:00Z', 'complete');"
				      "INSERT INTO runs (label, started_at, status) VALUES ('v1-cut', "
				      "'2026-01-01T00:00:00Z', 'running');"
				      "INSERT INTO programs (obj_sha256, section, name, obj_path) VALUES "
				      "('ab', 'xdp', 'p1', '/x.o');"
				      "INSERT INTO results (run_id, program_id, tracker, verdict, "
				      "insns_processed) VALUES (1, 1, 'kernel', 'accept', 42);"
				      "INSERT INTO results (run_id, program_id, tracker, verdict, "
				      "insns_processed) VALUES (1, 1, 'old', 'reject', 7);",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	assert_int_equal(fx_count(db, "PRAGMA user_version"), 1);
	sqlite3_close(db);

	struct rb_store *st;
	struct rb_err err = {{0}};
	assert_int_equal(rb_store_open(path, &st, &err), 0);
	db = rb_store_db(st);
	assert_int_equal(fx_count(db, "PRAGMA user_version"), RB_SCHEMA_VERSION);
	/* old data kept, new columns present with their defaults */
	assert_int_equal(fx_count(db, "SELECT insns_processed FROM results WHERE tracker = 'kernel'"), 42);
	char kind[32];
	fx_text(db, "SELECT kind FROM runs WHERE id = 1", kind, sizeof(kind));
	assert_string_equal(kind, "verify");
	assert_int_equal(fx_count(db, "SELECT count(*) FROM result_rows WHERE program = 'p1'"), 2);
	/* 006: programs rebuilt with their ids, keyed with an ordinal (0);
	 * the results still find their program */
	assert_int_equal(fx_count(db, "SELECT count(*) FROM programs WHERE id = 1 AND name = 'p1' AND ordinal = 0"), 1);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM pragma_foreign_key_check"), 0);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM pragma_index_list('programs') WHERE \"unique\""), 1);
	/* 003: verdicts in veristat's words; a v1 run left 'running' (v1
	 * kept no pid, so nothing could ever end it) is incomplete */
	fx_text(db, "SELECT group_concat(verdict, ',') FROM (SELECT verdict FROM results ORDER BY tracker)",
		kind, sizeof(kind));
	assert_string_equal(kind, "success,failure");
	fx_text(db, "SELECT status FROM runs WHERE id = 2", kind, sizeof(kind));
	assert_string_equal(kind, "incomplete");
	/* and the same tables and columns as a database created fresh */
	struct rb_store *st2;
	assert_int_equal(rb_store_open(fresh, &st2, &err), 0);
	char *a = columns_of(db), *b = columns_of(rb_store_db(st2));
	assert_string_equal(a, b);
	free(a);
	free(b);
	rb_store_close(st2);
	/* the migrated database takes new rows */
	int64_t run;
	struct rb_run_info info = {.label = "after", .git_dirty = -1};
	assert_int_equal(rb_store_run_begin(st, &info, &run, &err), 0);
	assert_int_equal(run, 3);
	rb_store_close(st);
	fx_rm_db(path);
	fx_rm_db(fresh);
}

static void newer_schema_refused(void **state)
{
	(void)state;
	char path[256];
	fx_tmp_db(path, sizeof(path));
	sqlite3 *db;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE runs (id INTEGER); PRAGMA user_version = 99",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	sqlite3_close(db);
	struct rb_store *st;
	struct rb_err err = {{0}};
	assert_int_equal(rb_store_open(path, &st, &err), -1);
	assert_null(st);
	assert_non_null(strstr(err.msg, "newer"));
	assert_non_null(strstr(err.msg, path));
	fx_rm_db(path);
}

static void results_round_trip_and_dedup(void **state)
{
	(void)state;
	char path[256];
	struct rb_err err = {{0}};
	struct rb_store *st = fx_open_tmp(path, sizeof(path), &err);
	int64_t run;
	struct rb_run_info info = {.label = "t", .git_commit = "abc", .git_dirty = 1};
	assert_int_equal(rb_store_run_begin(st, &info, &run, &err), 0);

	struct rb_result_row rows[3];
	fx_row(&rows[0], run, "/a/x.o", "sha-x", "p1", "old", RB_ACCEPT, 100, 10);
	fx_row(&rows[1], run, "/b/x.o", "sha-x", "p1", "cnum", RB_REJECT, 120, 12); /* same object elsewhere */
	fx_row(&rows[2], run, "/a/y.o", "sha-y", "p1", "old", RB_LIMIT, 5, 1);
	rows[1].res.err_insn = 17;
	snprintf(rows[1].res.msg, sizeof(rows[1].res.msg), "R1 invalid mem access");
	assert_int_equal(rb_store_results(st, rows, 3, &err), 0);
	sqlite3 *db = rb_store_db(st);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM programs"), 2);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM results"), 3);
	char buf[256];
	fx_text(db, "SELECT obj_path FROM programs WHERE obj_sha256 = 'sha-x'", buf, sizeof(buf));
	assert_string_equal(buf, "/a/x.o"); /* first path seen */
	fx_text(db, "SELECT verdict || ':' || err_insn || ':' || msg FROM results WHERE tracker = 'cnum'",
		buf, sizeof(buf));
	assert_string_equal(buf, "failure:17:R1 invalid mem access");
	assert_int_equal(fx_count(db, "SELECT count(*) FROM results WHERE err_insn IS NULL"), 2);
	fx_text(db, "SELECT base_verdict || '/' || cand_verdict || '/' || cand_insns FROM tracker_pairs "
		"WHERE base_tracker = 'old' AND cand_tracker = 'cnum'",
		buf, sizeof(buf));
	assert_string_equal(buf, "success/failure/120");
	assert_int_equal(fx_count(db, "SELECT count(*) FROM verdict_differs_trackers"), 1);
	/* storing the same (run, program, tracker) again replaces the row */
	rows[0].res.insns_processed = 101;
	assert_int_equal(rb_store_results(st, rows, 1, &err), 0);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM results"), 3);
	assert_int_equal(fx_count(db, "SELECT insns_processed FROM results WHERE tracker = 'old' AND "
				   "program_id = (SELECT id FROM programs WHERE obj_sha256 = 'sha-x')"),
			 101);

	assert_int_equal(rb_store_run_end(st, run, "complete", &err), 0);
	fx_text(db, "SELECT status || ':' || (ended_at IS NOT NULL) || ':' || (pid IS NULL) FROM runs", buf,
		sizeof(buf));
	assert_string_equal(buf, "complete:1:1");
	assert_int_equal(rb_store_run_end(st, run, "done", &err), -1);
	assert_int_equal(rb_store_run_end(st, 999, "complete", &err), -1);

	/* runs by id and by label */
	int64_t run2, found;
	assert_int_equal(rb_store_run_begin(st, &info, &run2, &err), 0);
	assert_int_equal(rb_store_find_run(st, "t", NULL, &found, &err), 0);
	assert_int_equal(found, run2);
	assert_int_equal(rb_store_find_run(st, "1", "verify", &found, &err), 0);
	assert_int_equal(found, 1);
	assert_int_equal(rb_store_find_run(st, "1", "bench", &found, &err), -1);
	assert_int_equal(rb_store_find_run(st, "nope", NULL, &found, &err), -1);
	assert_non_null(strstr(err.msg, "nope"));

	/* census and bench rows */
	struct rb_store_census_row c = {.tracker = "cnum", .width = 8, .op = "add64", .cases = 1000,
				  .unsound = 0, .optimal = 900, .mean_extra_log2 = 0.25,
				  .tighter = 10, .looser = -1, .equal = 980, .incomparable = 0, .sampled = 0};
	assert_int_equal(rb_store_census(st, run2, &c, 1, &err), 0);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM census WHERE looser IS NULL AND optimal = 900"), 1);
	struct rb_bench_row b[2] = {{.op = "alu64_add", .tracker = "old", .ns_per_op = 3.5},
				    {.op = "alu64_add", .tracker = "cnum", .ns_per_op = 7.0}};
	assert_int_equal(rb_store_bench(st, run2, b, 2, &err), 0);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM bench"), 2);
	rb_store_close(st);
	fx_rm_db(path);
}

/* a run whose process died is marked incomplete by the next open */
static void stale_run_reaped(void **state)
{
	(void)state;
	char path[256];
	fx_tmp_db(path, sizeof(path));
	struct rb_store *st;
	struct rb_err err = {{0}};
	char host[256] = "";
	gethostname(host, sizeof(host) - 1);
	assert_int_equal(rb_store_open(path, &st, &err), 0);
	int64_t dead_run, live_run;
	struct rb_run_info info = {.label = "t", .host = host, .git_dirty = -1};
	assert_int_equal(rb_store_run_begin(st, &info, &dead_run, &err), 0);
	assert_int_equal(rb_store_run_begin(st, &info, &live_run, &err), 0);
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	char sql[128];
	snprintf(sql, sizeof(sql), "UPDATE runs SET pid = %d WHERE id = %lld", (int)child,
		 (long long)dead_run);
	assert_int_equal(rb_store_exec(st, sql, &err), 0);
	rb_store_close(st);

	assert_int_equal(rb_store_open(path, &st, &err), 0);
	sqlite3 *db = rb_store_db(st);
	char buf[64];
	snprintf(sql, sizeof(sql), "SELECT status FROM runs WHERE id = %lld", (long long)dead_run);
	fx_text(db, sql, buf, sizeof(buf));
	assert_string_equal(buf, "incomplete");
	snprintf(sql, sizeof(sql), "SELECT status FROM runs WHERE id = %lld", (long long)live_run);
	fx_text(db, sql, buf, sizeof(buf)); /* its process (us) is alive */
	assert_string_equal(buf, "running");
	rb_store_close(st);
	fx_rm_db(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(create_fresh),
		cmocka_unit_test(migrate_from_v1),
		cmocka_unit_test(newer_schema_refused),
		cmocka_unit_test(results_round_trip_and_dedup),
		cmocka_unit_test(stale_run_reaped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
