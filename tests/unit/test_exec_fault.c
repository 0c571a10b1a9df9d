/* test_exec_fault.c — proof that execcheck catches an unsound engine: this
 * binary links src/engine/alu.c built with -DRB_FAULT_ALU32_LINK (see the
 * Makefile), which puts issue 10's cause A back (a 32-bit add of a constant
 * keeps the register link even when the upper half is not known zero).
 * The cause-A reproducer is then accepted and its concrete runs read the
 * stack out of bounds or leave the abstract values; generated programs of
 * the "link" family show violations for old and cnum. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "exec_fixture.h"
#include "util/array_size.h"

#ifndef RB_FAULT_ALU32_LINK
#error "test_exec_fault.c must be built with -DRB_FAULT_ALU32_LINK"
#endif

struct seen {
	int n, insn, reg;
	char what[96];
};

static void record(void *ctx, const struct rb_exec_violation *v)
{
	struct seen *s = ctx;
	if (s->n++ == 0) {
		s->insn = v->insn;
		s->reg = v->reg;
		snprintf(s->what, sizeof(s->what), "%s", v->what);
	}
}

static void reproducer_reported(void **state)
{
	(void)state;
	struct xfixture f;
	xmkobj(&f, a3_prog, ARRAY_SIZE(a3_prog), 0);
	const char *trackers[] = {"old", "cnum"};
	for (int k = 0; k < 2; k++) {
		struct seen s = {0};
		struct rb_exec_stats st = {0};
		struct rb_exec_opts o = {.seed = 3, .runs = 20, .report = record, .report_ctx = &s};
		struct rb_err err = {0};
		assert_int_equal(rb_exec_check_prog(&f.obj, 0, rb_tracker_get(trackers[k], 64), &o, &st, &err), 0);
		assert_int_equal(st.programs, 1); /* the faulty engine accepts it */
		assert_true(st.violations > 0);
		assert_int_equal((int)st.violations, s.n);
		/* the first wrong value: r6 on either side of the jump that
		 * synced it from r7 (insn 9 falling through, 17 jumping) */
		assert_true(s.insn == 9 || s.insn == 17);
		assert_int_equal(s.reg, 6);
		assert_string_equal(s.what, "value outside the abstract scalar");
	}
}

static void generated_link_family_reported(void **state)
{
	(void)state;
	const char *trackers[] = {"old", "cnum"};
	for (int k = 0; k < 2; k++) {
		struct rb_exec_stats st;
		xrun_family("link", trackers[k], 300, 10, &st);
		assert_true(st.violations > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reproducer_reported),
		cmocka_unit_test(generated_link_family_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
