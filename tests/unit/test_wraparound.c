/* test_wraparound.c — the proposal's wrap-around examples at 64 bits, for
 * both trackers, and the difference between them:
 *   1. a 32-bit range {0xFFFFFFFC..4} = s32 [-4,4]: one arc for cnum, the
 *      signed subregister bounds for old; both exact;
 *   2. adding 2^63 to a range that straddles 2^63: old loses the 64-bit
 *      bounds (the unsigned sum overflows at one end only, the signed range
 *      was already unbounded), cnum's arc just moves to [-4, 4];
 *   3. where cnum is strictly less precise than old: a refinement whose
 *      true result is two arcs, which old's two range pairs (unsigned and
 *      signed) can hold and one arc cannot: "if w > 2" on the set of (1),
 *      and the case the census found for JSGT (a in u[100, 2^63],
 *      b in [83, 108], not taken: a <=s 108).
 * States are asserted in the kernel's log syntax and by membership. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/bpf.h>
#include <string.h>

#include "tracker/tracker.h"

#define TOP (UINT64_C(1) << 63)

static const struct rb_tracker *tr(const char *name)
{
	const struct rb_tracker *t = rb_tracker_get(name, 64);
	assert_non_null(t);
	return t;
}

static const char *show(const struct rb_tracker *t, const rb_val *v, char *buf, size_t len)
{
	assert_true(t->print(v, buf, len) >= 0);
	return buf;
}

#define ASSERT_PRINTS(t, v, want)                                      \
	do {                                                           \
		char b_[512];                                          \
		assert_string_equal(show(t, v, b_, sizeof(b_)), want); \
	} while (0)

/* the 32-bit set {0xFFFFFFFC, ..., 0xFFFFFFFF, 0, ..., 4}, zero-extended
 * (as after an ALU32 op), or sign-extended to 64 bits */
static void s32_range(const struct rb_tracker *t, rb_val *v, bool sext)
{
	uint64_t vals[9];
	for (int k = 0; k < 9; k++)
		vals[k] = sext ? (uint64_t)(int64_t)(k - 4) : (uint32_t)(k - 4);
	*v = (rb_val){0};
	t->from_set(v, vals, 9);
}

static void test_s32_arc_both_exact(void **state)
{
	(void)state;
	const char *names[] = {"old", "cnum"};
	for (int i = 0; i < 2; i++) {
		const struct rb_tracker *t = tr(names[i]);
		rb_val v;
		struct rb_bounds b;
		s32_range(t, &v, false);
		/* the unsigned 32-bit view is everything; only the signed view
		 * (old) or the arc (cnum) keeps the set */
		ASSERT_PRINTS(t, &v, "smin=0,smax=umax=0xffffffff,smin32=-4,smax32=4,var_off=(0x0; 0xffffffff)");
		t->bounds(&v, &b);
		assert_true(b.u32_min == 0 && b.u32_max == UINT32_MAX);
		assert_true(b.s32_min == -4 && b.s32_max == 4);
		for (int64_t x = -64; x <= 64; x++)
			assert_int_equal(t->contains(&v, (uint32_t)x), x >= -4 && x <= 4);
		assert_false(t->contains(&v, UINT64_C(0x1fffffffc)));

		s32_range(t, &v, true);
		ASSERT_PRINTS(t, &v, "smin=smin32=-4,smax=smax32=4");
		for (int64_t x = -64; x <= 64; x++)
			assert_int_equal(t->contains(&v, (uint64_t)x), x >= -4 && x <= 4);
		assert_false(t->contains(&v, UINT32_MAX));
	}
}

static void test_add_2_63_to_straddling_range(void **state)
{
	(void)state;
	rb_val r[2];
	const char *names[] = {"old", "cnum"};
	for (int i = 0; i < 2; i++) {
		const struct rb_tracker *t = tr(names[i]);
		uint64_t vals[9];
		for (int k = 0; k < 9; k++)
			vals[k] = TOP + (uint64_t)(k - 4); /* [2^63 - 4, 2^63 + 4] */
		rb_val v = {0}, k = {0};
		t->from_set(&v, vals, 9);
		ASSERT_PRINTS(t, &v, "umin=0x7ffffffffffffffc,umax=0x8000000000000004,smin32=-4,smax32=4");
		t->constant(&k, TOP);
		struct rb_alu add = {.code = BPF_ALU64 | BPF_ADD | BPF_K, .imm = 0};
		t->alu(&v, &k, &add);
		r[i] = v;
	}
	const struct rb_tracker *old = tr("old"), *cnum = tr("cnum");
	/* old: the unsigned sum overflows at the top end only and the signed
	 * bounds were unbounded, so only the subregister survives */
	ASSERT_PRINTS(old, &r[0], "smin32=-4,smax32=4");
	/* cnum: the arc moves across the boundary intact */
	ASSERT_PRINTS(cnum, &r[1], "smin=smin32=-4,smax=smax32=4");
	for (int64_t x = -4; x <= 4; x++) {
		assert_true(old->contains(&r[0], (uint64_t)x));
		assert_true(cnum->contains(&r[1], (uint64_t)x));
	}
	assert_false(cnum->contains(&r[1], 5));
	assert_false(cnum->contains(&r[1], (uint64_t)-5));
	assert_true(old->contains(&r[0], UINT64_C(1) << 62)); /* low half 0 */
	assert_false(cnum->contains(&r[1], UINT64_C(1) << 62));
}

/* "if w > 2" (JMP32 JGT, immediate) on the set of test 1, taken: the true
 * set {3, 4, 0xFFFFFFFC..0xFFFFFFFF} is two arcs */
static void test_cnum_looser_jgt32(void **state)
{
	(void)state;
	const struct rb_tracker *old = tr("old"), *cnum = tr("cnum");
	rb_val a[2], c[2];
	const struct rb_tracker *t2[2] = {old, cnum};
	for (int i = 0; i < 2; i++) {
		s32_range(t2[i], &a[i], false);
		c[i] = (rb_val){0};
		t2[i]->constant(&c[i], 2);
		assert_int_equal(t2[i]->branch_taken(&a[i], &c[i], BPF_JGT, true), RB_BR_UNKNOWN);
		assert_true(t2[i]->branch_refine(&a[i], &c[i], BPF_JGT, true));
	}
	/* old: u32 >= 3 and s32 in [-4, 4]: exactly the six values */
	ASSERT_PRINTS(old, &a[0],
		      "smin=umin=umin32=3,smax=umax=0xffffffff,smin32=-4,smax32=4,var_off=(0x0; 0xffffffff)");
	/* cnum: the smallest arc holding both pieces is still [-4, 4] */
	ASSERT_PRINTS(cnum, &a[1], "smin=0,smax=umax=0xffffffff,smin32=-4,smax32=4,var_off=(0x0; 0xffffffff)");
	for (int64_t x = -4; x <= 4; x++) {
		bool taken = (uint32_t)x > 2;
		assert_int_equal(old->contains(&a[0], (uint32_t)x), taken);
		assert_true(cnum->contains(&a[1], (uint32_t)x));
	}
}

/* found by `rangebench ops --width 8 --examples` (jsgt64, 8-bit values
 * a in u[100, 128], b in [83, 108]); here scaled to 64 bits */
static void test_cnum_looser_jsgt64_not_taken(void **state)
{
	(void)state;
	const struct rb_tracker *old = tr("old"), *cnum = tr("cnum");
	const struct rb_tracker *t2[2] = {old, cnum};
	rb_val a[2], b[2];
	for (int i = 0; i < 2; i++) {
		struct rb_bounds ba = {.umin = 100, .umax = TOP, .smin = INT64_MIN, .smax = INT64_MAX,
				       .u32_min = 0, .u32_max = UINT32_MAX, .s32_min = INT32_MIN,
				       .s32_max = INT32_MAX, .var_off = {0, UINT64_MAX}};
		struct rb_bounds bb = ba;
		bb.umin = 83;
		bb.umax = 108;
		a[i] = b[i] = (rb_val){0};
		t2[i]->from_bounds(&a[i], &ba);
		t2[i]->from_bounds(&b[i], &bb);
		assert_int_equal(t2[i]->branch_taken(&a[i], &b[i], BPF_JSGT, false), RB_BR_UNKNOWN);
		/* the not-taken outcome: a <=s b */
		assert_true(t2[i]->branch_refine(&a[i], &b[i], rb_jmp_negate(BPF_JSGT), false));
	}
	/* old intersects u[100, 2^63] with s(-inf, 108]: {100..108} and 2^63 */
	ASSERT_PRINTS(old, &a[0], "smax=108,umin=100,umax=0x8000000000000000");
	ASSERT_PRINTS(cnum, &a[1], "umin=100,umax=0x8000000000000000");
	for (uint64_t x = 100; x <= 108; x++)
		assert_true(old->contains(&a[0], x) && cnum->contains(&a[1], x));
	assert_true(old->contains(&a[0], TOP) && cnum->contains(&a[1], TOP));
	assert_false(old->contains(&a[0], 109));
	assert_true(cnum->contains(&a[1], 109));
	assert_true(cnum->contains(&a[1], UINT64_C(1) << 62));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_s32_arc_both_exact),
		cmocka_unit_test(test_add_2_63_to_straddling_range),
		cmocka_unit_test(test_cnum_looser_jgt32),
		cmocka_unit_test(test_cnum_looser_jsgt64_not_taken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
