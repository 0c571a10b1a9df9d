/* test_store_concurrent.c — many producers, one writer: no row lost or
 * duplicated; and two connections writing the same file at once (WAL,
 * busy timeout) both get every row in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <pthread.h>

#include "store/store.h"
#include "store/writer.h"
#include "store_fixture.h"

#define PRODUCERS 4
#define PER_PRODUCER 600

struct producer {
	struct rb_writer *w;
	int64_t run;
	int id;
	int failures;
};

static void *produce(void *arg)
{
	struct producer *p = arg;
	for (int i = 0; i < PER_PRODUCER; i++) {
		struct rb_result_row r;
		char sha[32], name[32];
		snprintf(sha, sizeof(sha), "sha-%d-%d", p->id, i / 2);
		snprintf(name, sizeof(name), "prog%d", i);
		fx_row(&r, p->run, "/corpus/x.o", sha, name, (i & 1) ? "cnum" : "old", RB_ACCEPT,
		       (uint64_t)(p->id * 100000 + i), 1);
		if (rb_writer_put(p->w, &r) < 0)
			p->failures++;
	}
	return NULL;
}

static void many_producers_one_writer(void **state)
{
	(void)state;
	char path[256];
	struct rb_err err = {{0}};
	struct rb_store *st = fx_open_tmp(path, sizeof(path), &err);
	int64_t run;
	struct rb_run_info info = {.label = "conc", .git_dirty = -1};
	assert_int_equal(rb_store_run_begin(st, &info, &run, &err), 0);
	struct rb_writer *w;
	assert_int_equal(rb_writer_start(st, 50, &w, &err), 0);
	pthread_t t[PRODUCERS];
	struct producer p[PRODUCERS];
	for (int i = 0; i < PRODUCERS; i++) {
		p[i] = (struct producer){.w = w, .run = run, .id = i};
		assert_int_equal(pthread_create(&t[i], NULL, produce, &p[i]), 0);
	}
	for (int i = 0; i < PRODUCERS; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(p[i].failures, 0);
	}
	assert_int_equal(rb_writer_finish(w, &err), PRODUCERS * PER_PRODUCER);
	sqlite3 *db = rb_store_db(st);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM results"), PRODUCERS * PER_PRODUCER);
	assert_int_equal(fx_count(db, "SELECT count(DISTINCT insns_processed) FROM results"),
			 PRODUCERS * PER_PRODUCER);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM programs"), PRODUCERS * PER_PRODUCER);
	char check[64];
	fx_text(db, "PRAGMA integrity_check", check, sizeof(check));
	assert_string_equal(check, "ok");
	rb_store_close(st);
	fx_rm_db(path);
}

/* a writer whose batches fail reports it instead of dropping rows quietly */
static void writer_reports_failure(void **state)
{
	(void)state;
	char path[256];
	struct rb_err err = {{0}};
	struct rb_store *st = fx_open_tmp(path, sizeof(path), &err);
	struct rb_writer *w;
	assert_int_equal(rb_writer_start(st, 10, &w, &err), 0);
	struct rb_result_row r;
	fx_row(&r, 12345, "/x.o", "sha", "p", "old", RB_ACCEPT, 1, 1); /* no such run */
	assert_int_equal(rb_writer_put(w, &r), 0);
	err.msg[0] = 0;
	assert_int_equal(rb_writer_finish(w, &err), -1);
	assert_non_null(strstr(err.msg, "FOREIGN KEY"));
	sqlite3 *db = rb_store_db(st);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM results"), 0);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM programs"), 0); /* rolled back whole */
	rb_store_close(st);
	fx_rm_db(path);
}

struct conn_arg {
	const char *path;
	int id;
	int rc;
};

static void *own_connection(void *arg)
{
	struct conn_arg *a = arg;
	struct rb_store *st;
	struct rb_err err;
	err.msg[0] = 0;
	a->rc = rb_store_open(a->path, &st, &err);
	if (a->rc < 0) {
		print_error("connection %d: open: %s\n", a->id, err.msg);
		return NULL;
	}
	int64_t run;
	struct rb_run_info info = {.label = "conn", .git_dirty = -1};
	a->rc = rb_store_run_begin(st, &info, &run, &err);
	for (int b = 0; b < 20 && a->rc == 0; b++) {
		struct rb_result_row rows[25];
		for (int i = 0; i < 25; i++) {
			char sha[32];
			snprintf(sha, sizeof(sha), "shared-%d", b * 25 + i); /* same programs in both */
			fx_row(&rows[i], run, "/x.o", sha, "p", "old", RB_ACCEPT, (uint64_t)a->id, 1);
		}
		a->rc = rb_store_results(st, rows, 25, &err);
	}
	if (a->rc == 0)
		a->rc = rb_store_run_end(st, run, "complete", &err);
	if (a->rc != 0)
		print_error("connection %d: %s\n", a->id, err.msg);
	rb_store_close(st);
	return NULL;
}

static void two_connections(void **state)
{
	(void)state;
	char path[256];
	fx_tmp_db(path, sizeof(path));
	pthread_t t[2];
	struct conn_arg a[2] = {{path, 1, -1}, {path, 2, -1}};
	for (int i = 0; i < 2; i++)
		assert_int_equal(pthread_create(&t[i], NULL, own_connection, &a[i]), 0);
	for (int i = 0; i < 2; i++) {
		pthread_join(t[i], NULL);
		assert_int_equal(a[i].rc, 0);
	}
	struct rb_store *st;
	struct rb_err err;
	assert_int_equal(rb_store_open(path, &st, &err), 0);
	sqlite3 *db = rb_store_db(st);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM results"), 1000);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM programs"), 500); /* deduplicated */
	assert_int_equal(fx_count(db, "SELECT count(*) FROM runs WHERE status = 'complete'"), 2);
	rb_store_close(st);
	fx_rm_db(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(many_producers_one_writer),
		cmocka_unit_test(writer_reports_failure),
		cmocka_unit_test(two_connections),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
