/* test_compare.c — `compare` on hand-made runs: pairing of programs across
 * runs and across trackers, verdict changes, geometric means, sorting,
 * the changed-only predicate, and the text and CSV tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>

#include "report/compare.h"
#include "store/store.h"
#include "store_fixture.h"

struct fx {
	char path[256];
	struct rb_store *st;
	int64_t run1, run2;
};

/* run1: p1..p4 with old and cnum; run2: the same except
 *   p2/old states 10 -> 40, p3/cnum accept -> reject, p4 missing, p5 new */
static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct rb_err err;
	fx_tmp_db(f->path, sizeof(f->path));
	if (rb_store_open(f->path, &f->st, &err) < 0)
		return -1;
	struct rb_run_info info = {.label = "one", .git_dirty = -1};
	rb_store_run_begin(f->st, &info, &f->run1, &err);
	info.label = "two";
	rb_store_run_begin(f->st, &info, &f->run2, &err);
	struct rb_result_row r[32];
	size_t n = 0;
	static const char *const progs[] = {"p1", "p2", "p3", "p4", "p5"};
	for (int run = 0; run < 2; run++)
		for (int p = 0; p < 5; p++)
			for (int t = 0; t < 2; t++) {
				if ((run == 0 && p == 4) || (run == 1 && p == 3))
					continue;
				const char *tr = t ? "cnum" : "old";
				uint64_t insns = 100 * (uint64_t)(p + 1) + (t ? 10 : 0);
				uint64_t states = 10;
				enum rb_verdict v = RB_ACCEPT;
				if (run == 1 && p == 1 && t == 0)
					states = 40;
				if (run == 1 && p == 2 && t == 1)
					v = RB_REJECT;
				char sha[16];
				snprintf(sha, sizeof(sha), "sha%d", p);
				fx_row(&r[n++], run ? f->run2 : f->run1, "/c/obj.o", sha, progs[p], tr, v, insns,
				       states);
			}
	if (rb_store_results(f->st, r, n, &err) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	rb_store_close(f->st);
	fx_rm_db(f->path);
	free(f);
	return 0;
}

static const struct rb_cmp_row *find(const struct rb_compare *c, const char *prog, const char *tr)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->rows[i].program, prog) && !strcmp(c->rows[i].tracker, tr))
			return &c->rows[i];
	return NULL;
}

static void runs_pairing_and_summary(void **state)
{
	struct fx *f = *state;
	struct rb_err err;
	struct rb_compare_spec spec = {.run_a = f->run1, .run_b = f->run2};
	struct rb_compare c;
	assert_int_equal(rb_compare_load(rb_store_db(f->st), &spec, &c, &err), 0);
	assert_int_equal(c.n, 10); /* 5 programs x 2 trackers */
	const struct rb_cmp_row *r = find(&c, "p2", "old");
	assert_non_null(r);
	assert_true(r->a.present && r->b.present);
	assert_true(r->a.v[RB_STAT_STATES] == 10 && r->b.v[RB_STAT_STATES] == 40);
	assert_true(rb_cmp_row_changed(r));
	r = find(&c, "p4", "cnum");
	assert_true(r->a.present && !r->b.present);
	r = find(&c, "p5", "old");
	assert_true(!r->a.present && r->b.present);
	r = find(&c, "p1", "cnum");
	assert_false(rb_cmp_row_changed(r)); /* only the time could differ */

	struct rb_compare_summary s;
	rb_compare_summarize(&c, &s);
	assert_int_equal(s.rows, 10);
	assert_int_equal(s.programs, 6); /* the one-sided rows are not compared */
	assert_int_equal(s.only_a, 2);
	assert_int_equal(s.only_b, 2);
	assert_int_equal(s.verdict_changes, 1);
	assert_int_equal(s.changed, 2); /* p2/old states + p3/cnum verdict */
	/* states: 6 pairs, one of ratio 4: geomean = 4^(1/6) */
	assert_int_equal(s.gmean_n[RB_STAT_STATES], 6);
	assert_true(fabs(s.gmean[RB_STAT_STATES] - pow(4.0, 1.0 / 6)) < 1e-9);
	assert_true(fabs(s.gmean[RB_STAT_INSNS] - 1.0) < 1e-12);

	/* only one tracker */
	rb_compare_free(&c);
	spec.tracker = "cnum";
	assert_int_equal(rb_compare_load(rb_store_db(f->st), &spec, &c, &err), 0);
	assert_int_equal(c.n, 5);
	rb_compare_free(&c);
	/* a filter on the program name */
	spec.tracker = NULL;
	spec.filter = "p[12]";
	assert_int_equal(rb_compare_load(rb_store_db(f->st), &spec, &c, &err), 0);
	assert_int_equal(c.n, 4);
	rb_compare_free(&c);
	spec.filter = "obj.o/p3";
	assert_int_equal(rb_compare_load(rb_store_db(f->st), &spec, &c, &err), 0);
	assert_int_equal(c.n, 2);
	rb_compare_free(&c);
}

static void trackers_within_one_run(void **state)
{
	struct fx *f = *state;
	struct rb_err err;
	struct rb_compare_spec spec = {.run_a = f->run2, .run_b = f->run2, .tracker_a = "old",
				       .tracker_b = "cnum"};
	struct rb_compare c;
	assert_int_equal(rb_compare_load(rb_store_db(f->st), &spec, &c, &err), 0);
	assert_int_equal(c.n, 4); /* p1 p2 p3 p5 */
	struct rb_compare_summary s;
	rb_compare_summarize(&c, &s);
	assert_int_equal(s.verdict_changes, 1); /* p3: old accepts, cnum rejects */
	/* insns: cnum = old + 10 for p = 100, 200, 300, 500 */
	double expect = pow((110.0 / 100) * (210.0 / 200) * (310.0 / 300) * (510.0 / 500), 0.25);
	assert_true(fabs(s.gmean[RB_STAT_INSNS] - expect) < 1e-9);
	assert_string_equal(c.rows[0].tracker, "");
	rb_compare_free(&c);
}

static void sorting(void **state)
{
	struct fx *f = *state;
	struct rb_err err;
	struct rb_compare_spec spec = {.run_a = f->run1, .run_b = f->run2};
	struct rb_compare c;
	assert_int_equal(rb_compare_load(rb_store_db(f->st), &spec, &c, &err), 0);
	assert_int_equal(rb_compare_sort(&c, "states_pct"), 0);
	assert_string_equal(c.rows[0].program, "p2"); /* +300% */
	assert_string_equal(c.rows[0].tracker, "old");
	assert_int_equal(rb_compare_sort(&c, "verdict"), 0);
	assert_string_equal(c.rows[0].program, "p3");
	assert_int_equal(rb_compare_sort(&c, "insns_b"), 0);
	assert_string_equal(c.rows[0].program, "p5"); /* 510 */
	assert_int_equal(rb_compare_sort(&c, "name"), 0);
	assert_string_equal(c.rows[0].program, "p1");
	assert_string_equal(c.rows[9].program, "p5");
	assert_int_equal(rb_compare_sort(&c, "bogus_pct"), -1);
	assert_int_equal(rb_compare_sort(&c, "insns_zz"), -1);
	rb_compare_free(&c);
}

/* one run, old vs kernel: only rows both verified are compared; the rest
 * are counted by reason; objects are named by their shortest unique path */
static void exclusions_and_names(void **state)
{
	(void)state;
	char path[256];
	struct rb_err err;
	struct rb_store *st = fx_open_tmp(path, sizeof(path), &err);
	struct rb_run_info info = {.label = "x", .git_dirty = -1};
	int64_t run;
	assert_int_equal(rb_store_run_begin(st, &info, &run, &err), 0);
	struct rb_result_row r[8];
	fx_row(&r[0], run, "/a/x/obj.o", "s1", "q1", "old", RB_ACCEPT, 10, 1);
	fx_row(&r[1], run, "/a/x/obj.o", "s1", "q1", "kernel", RB_ACCEPT, 12, 1);
	fx_row(&r[2], run, "/b/x/obj.o", "s2", "q2", "old", RB_UNSUPPORTED, 0, 0);
	fx_row(&r[3], run, "/b/x/obj.o", "s2", "q2", "kernel", RB_LOAD_ERROR, 0, 0);
	fx_row(&r[4], run, "/c/y.o", "s3", "q3", "old", RB_REJECT, 5, 1);
	fx_row(&r[5], run, "/c/y.o", "s3", "q3", "kernel", RB_REFUSED, 0, 0);
	fx_row(&r[6], run, "/d/z.o", "path:z", "(object)", "old", RB_LOAD_ERROR, 0, 0);
	fx_row(&r[7], run, "/d/z.o", "path:z", "(object)", "kernel", RB_LOAD_ERROR, 0, 0);
	assert_int_equal(rb_store_results(st, r, 8, &err), 0);
	struct rb_compare_spec spec = {.run_a = run, .run_b = run, .tracker_a = "old", .tracker_b = "kernel"};
	struct rb_compare c;
	assert_int_equal(rb_compare_load(rb_store_db(st), &spec, &c, &err), 0);
	assert_int_equal(c.n, 4);
	struct rb_compare_summary s;
	rb_compare_summarize(&c, &s);
	assert_int_equal(s.rows, 4);
	assert_int_equal(s.programs, 1);
	assert_int_equal(s.failed_open, 1);
	assert_int_equal(s.unverified[0][RB_UNSUPPORTED], 1);
	assert_int_equal(s.unverified[1][RB_REFUSED], 1);
	assert_int_equal(s.verdict_changes, 0); /* unsupported vs load_error is no change */
	assert_int_equal(s.gmean_n[RB_STAT_INSNS], 1);
	assert_true(fabs(s.gmean[RB_STAT_INSNS] - 1.2) < 1e-9);
	assert_string_equal(find(&c, "q1", "")->shown, "a/x/obj.o");
	assert_string_equal(find(&c, "q2", "")->shown, "b/x/obj.o");
	assert_string_equal(find(&c, "q3", "")->shown, "y.o");
	struct rb_table t;
	assert_int_equal(rb_compare_summary_table(&s, &t), 0);
	bool seen = false;
	for (size_t i = 0; i < t.nrows; i++)
		seen |= !strcmp(t.cells[i * 2], "excluded: A unsupported") && !strcmp(t.cells[i * 2 + 1], "1");
	assert_true(seen);
	rb_table_free(&t);
	rb_compare_free(&c);
	rb_store_close(st);
	fx_rm_db(path);
}

static char *render(const struct rb_table *t, bool csv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	rb_table_print(t, m, csv);
	fclose(m);
	return buf;
}

static void tables(void **state)
{
	struct fx *f = *state;
	struct rb_err err;
	struct rb_compare_spec spec = {.run_a = f->run1, .run_b = f->run2, .filter = "p2"};
	struct rb_compare c;
	assert_int_equal(rb_compare_load(rb_store_db(f->st), &spec, &c, &err), 0);
	enum rb_cmp_stat stats[] = {RB_STAT_VERDICT, RB_STAT_STATES};
	struct rb_table t;
	assert_int_equal(rb_compare_table(&c, stats, 2, false, false, NULL, 0, &t), 0);
	assert_int_equal(t.nrows, 2);
	char *txt = render(&t, false);
	assert_non_null(strstr(txt, "States (DIFF)"));
	assert_non_null(strstr(txt, "+30 (+300.00%)"));
	assert_non_null(strstr(txt, "MATCH"));
	free(txt);
	rb_table_free(&t);
	assert_int_equal(rb_compare_table(&c, stats, 2, true, false, NULL, 0, &t), 0);
	char *csv = render(&t, true);
	assert_non_null(strstr(csv, "object,program,tracker,verdict_a,verdict_b,verdict_diff,states_a,"
				    "states_b,states_diff,states_pct\n"));
	assert_non_null(strstr(csv, "obj.o,p2,old,success,success,MATCH,10,40,+30,300.00\n"));
	free(csv);
	rb_table_free(&t);
	/* keep[] and the row limit */
	bool keep[2] = {false, true};
	assert_int_equal(rb_compare_table(&c, stats, 2, true, false, keep, 0, &t), 0);
	assert_int_equal(t.nrows, 1);
	rb_table_free(&t);
	assert_int_equal(rb_compare_table(&c, stats, 2, true, false, NULL, 1, &t), 0);
	assert_int_equal(t.nrows, 1);
	rb_table_free(&t);
	rb_compare_free(&c);
}

static void csv_quoting(void **state)
{
	(void)state;
	static const char *const hdr[] = {"a", "b"};
	struct rb_table t;
	assert_int_equal(rb_table_init(&t, 2, hdr), 0);
	const char *row[] = {"x,y", "say \"hi\""};
	rb_table_add(&t, row);
	char *csv = render(&t, true);
	assert_string_equal(csv, "a,b\n\"x,y\",\"say \"\"hi\"\"\"\n");
	free(csv);
	rb_table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(runs_pairing_and_summary, setup, teardown),
		cmocka_unit_test_setup_teardown(trackers_within_one_run, setup, teardown),
		cmocka_unit_test_setup_teardown(sorting, setup, teardown),
		cmocka_unit_test_setup_teardown(tables, setup, teardown),
		cmocka_unit_test(csv_quoting),
		cmocka_unit_test(exclusions_and_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
