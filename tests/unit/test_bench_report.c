/* test_bench_report.c — the benchmark shim's C side (bench/report.c): the
 * repetitions of one (operation, tracker) pair become their median with
 * the fastest and slowest repetition beside it, and all three reach the
 * results database. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "store_fixture.h"

static struct rb_bench_result res(const char *op, const char *tracker, double ns)
{
	struct rb_bench_result r;
	memset(&r, 0, sizeof(r));
	snprintf(r.op, sizeof(r.op), "%s", op);
	snprintf(r.tracker, sizeof(r.tracker), "%s", tracker);
	r.ns_per_op = ns;
	r.iterations = 100;
	return r;
}

/* shuffled repetitions (as random interleaving leaves them) of two
 * trackers on two operations, and one row of an unknown tracker */
static void median_min_max(void **state)
{
	(void)state;
	const char *a = rb_bench_op(0), *b = rb_bench_op(1);
	struct rb_bench_result r[] = {
		res(b, "cnum", 9), res(a, "old", 5), res(a, "cnum", 2), res(a, "old", 1),
		res(a, "nosuch", 7), res(a, "old", 3), res(a, "cnum", 4), res(b, "old", 6),
		res(a, "old", 4), res(a, "old", 2),
	};
	size_t n = rb_bench_median(r, sizeof(r) / sizeof(r[0]));
	assert_int_equal(n, 4);
	/* the order of the operations, then of the registry (old first) */
	assert_string_equal(r[0].op, a);
	assert_string_equal(r[0].tracker, "old");
	assert_true(r[0].ns_per_op == 3 && r[0].ns_min == 1 && r[0].ns_max == 5);
	assert_int_equal(r[0].iterations, 500);
	/* an even count: the mean of the middle two */
	assert_string_equal(r[1].tracker, "cnum");
	assert_true(r[1].ns_per_op == 3 && r[1].ns_min == 2 && r[1].ns_max == 4);
	/* one repetition: its time is the median and both ends */
	assert_string_equal(r[2].op, b);
	assert_true(r[2].ns_per_op == 6 && r[2].ns_min == 6 && r[2].ns_max == 6);
	assert_true(r[3].ns_per_op == 9 && r[3].ns_min == 9 && r[3].ns_max == 9);
}

static void stored_with_spread(void **state)
{
	(void)state;
	char path[256], msg[600];
	fx_tmp_db(path, sizeof(path));
	struct rb_bench_db *bdb = NULL;
	assert_int_equal(rb_bench_db_begin(path, "t", "test", &bdb, msg, sizeof(msg)), 0);
	struct rb_bench_result r[] = {res(rb_bench_op(0), "old", 3), res(rb_bench_op(0), "cnum", 2)};
	r[0].ns_min = 2.5;
	r[0].ns_max = 4.5;
	assert_int_equal(rb_bench_db_finish(bdb, r, 2, 1, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "stored as bench run"));
	struct rb_store *st;
	struct rb_err err = {{0}};
	assert_int_equal(rb_store_open(path, &st, &err), 0);
	sqlite3 *db = rb_store_db(st);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM bench WHERE tracker = 'old' AND ns_per_op = 3 "
				      "AND ns_min = 2.5 AND ns_max = 4.5"),
			 1);
	/* no spread measured: NULL, not a made-up zero */
	assert_int_equal(fx_count(db, "SELECT count(*) FROM bench WHERE tracker = 'cnum' AND ns_min IS NULL "
				      "AND ns_max IS NULL"),
			 1);
	assert_int_equal(fx_count(db, "SELECT count(*) FROM runs WHERE kind = 'bench' AND status = 'complete'"), 1);
	rb_store_close(st);
	fx_rm_db(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(median_min_max),
		cmocka_unit_test(stored_with_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
