/* test_old.c — the "old" tracker (Linux 6.18 scalar bounds).
 *
 * 1. Hand-worked 64-bit examples whose expected strings are the register
 *    states the running kernel (6.18.44) printed for the same
 *    instruction sequences at log level 2 (measured with tiny socket
 *    filter programs: r6 = bpf_ktime_get_ns(), range-setting jumps, then
 *    one operation). A fall-through state is the refinement by the
 *    negated condition.
 * 2. Soundness at 8 bits (4-bit subregister) over every concrete member
 *    of generated abstract values, through rb_tracker_get("old", 8).
 */
#include <linux/bpf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "xorshift.h"

#include "tracker/tracker.h"
#include "util/array_size.h"

static const struct rb_tracker *T;

static void unk(rb_val *v) { T->unknown(v); }
static void cst(rb_val *v, uint64_t c) { T->constant(v, c); }

static void alu(rb_val *d, uint8_t cls, uint8_t op, int64_t imm, int16_t off)
{
	rb_val s;
	struct rb_alu a = {.code = (uint8_t)(cls | op | BPF_K), .off = off, .imm = (int32_t)imm};
	/* BPF_K: sign-extended imm for ALU64, the 32-bit imm for ALU */
	cst(&s, cls == BPF_ALU64 ? (uint64_t)imm : (uint32_t)imm);
	T->alu(d, &s, &a);
}

static void alu_x(rb_val *d, const rb_val *s, uint8_t cls, uint8_t op)
{
	struct rb_alu a = {.code = (uint8_t)(cls | op | BPF_X)};
	T->alu(d, s, &a);
}

static void endian(rb_val *d, uint8_t code, int32_t imm)
{
	rb_val s;
	struct rb_alu a = {.code = code, .imm = imm};
	cst(&s, 0);
	T->alu(d, &s, &a);
}

/* refine d by "d jop imm" (imm sign-extended like the kernel's K) */
static bool refine_k(rb_val *d, uint8_t jop, int64_t imm, bool is32)
{
	rb_val k;
	cst(&k, (uint64_t)imm);
	return T->branch_refine(d, &k, jop, is32);
}

/* the fall-through of "if d jop imm goto" */
static bool fall_k(rb_val *d, uint8_t jop, int64_t imm, bool is32)
{
	return refine_k(d, rb_jmp_negate(jop), imm, is32);
}

/* an unknown value after "if r > hi goto; if r < lo goto" (unsigned) */
static void urange(rb_val *r, int64_t lo, int64_t hi)
{
	unk(r);
	assert_true(fall_k(r, BPF_JGT, hi, false));
	assert_true(fall_k(r, BPF_JLT, lo, false));
}

/* an unknown value after "if r s> hi goto; if r s< lo goto" */
static void srange(rb_val *r, int64_t lo, int64_t hi, bool is32)
{
	unk(r);
	assert_true(fall_k(r, BPF_JSGT, hi, is32));
	assert_true(fall_k(r, BPF_JSLT, lo, is32));
}

#define assert_state(v, expect)                                                   \
	do {                                                                      \
		char b_[256];                                                     \
		T->print((v), b_, sizeof(b_));                                    \
		assert_string_equal(b_, (expect));                                \
	} while (0)

static int setup64(void **state)
{
	(void)state;
	T = rb_tracker_get("old", 64);
	return T ? 0 : -1;
}

static void test_vtable(void **state)
{
	(void)state;
	assert_string_equal(T->name, "old");
	assert_string_equal(T->follows, "Linux 6.18");
	assert_int_equal(T->bits, 64);
	assert_int_equal(T->subbits, 32);
	/* the kernel's var_off + eight bounds: 64 of bpf_reg_state's 112 bytes */
	assert_int_equal(T->val_size, 64);
	assert_int_equal(rb_tracker_get("old", 8)->val_size, 8);
}

/* the kernel's log for r1 = *(u32 *)(r1 +0); if r1 > 0x8 goto ... (docs/kernel-facts.md) */
static void test_load_u32_then_jgt(void **state)
{
	(void)state;
	rb_val r;
	unk(&r);
	T->truncate(&r, 32, false);
	assert_state(&r, "smin=0,smax=umax=0xffffffff,var_off=(0x0; 0xffffffff)");
	assert_true(fall_k(&r, BPF_JGT, 8, false));
	assert_state(&r, "smin=smin32=0,smax=umax=smax32=umax32=8,var_off=(0x0; 0xf)");
}

static void test_jgt_both_outcomes_and_add(void **state)
{
	(void)state;
	rb_val r, t;
	unk(&r);
	assert_state(&r, "");
	t = r;
	assert_true(refine_k(&t, BPF_JGT, 8, false));
	assert_state(&t, "umin=9");
	assert_true(fall_k(&r, BPF_JGT, 8, false));
	assert_state(&r, "smin=smin32=0,smax=umax=smax32=umax32=8,var_off=(0x0; 0xf)");
	alu(&r, BPF_ALU64, BPF_ADD, 3, 0);
	assert_state(&r, "smin=umin=smin32=umin32=3,smax=umax=smax32=umax32=11,var_off=(0x0; 0xf)");
}

/* both unsigned additions wrap: the wrapped bounds are kept */
static void test_add_both_overflow(void **state)
{
	(void)state;
	rb_val r;
	unk(&r);
	assert_true(fall_k(&r, BPF_JLT, -16, false));
	assert_state(&r, "smin=smin32=-16,smax=smax32=-1,umin=0xfffffffffffffff0,umin32=0xfffffff0,"
			 "var_off=(0xfffffffffffffff0; 0xf)");
	alu(&r, BPF_ALU64, BPF_ADD, 32, 0);
	assert_state(&r, "smin=umin=smin32=umin32=16,smax=umax=smax32=umax32=31,var_off=(0x10; 0xf)");
}

static void test_mul_signed(void **state)
{
	(void)state;
	rb_val r;
	unk(&r);
	assert_true(fall_k(&r, BPF_JSGT, -2, false));
	assert_state(&r, "smax=-2,umin=0x8000000000000000,umax=0xfffffffffffffffe,"
			 "var_off=(0x8000000000000000; 0x7fffffffffffffff)");
	assert_true(fall_k(&r, BPF_JSLT, -3, false));
	assert_state(&r, "smin=smin32=-3,smax=smax32=-2,umin=0xfffffffffffffffd,umax=0xfffffffffffffffe,"
			 "umin32=0xfffffffd,umax32=0xfffffffe,var_off=(0xfffffffffffffffc; 0x3)");
	alu(&r, BPF_ALU64, BPF_MUL, 3, 0);
	assert_state(&r, "smin=smin32=-9,smax=smax32=-6,umin=0xfffffffffffffff7,umax=0xfffffffffffffffa,"
			 "umin32=0xfffffff7,umax32=0xfffffffa,var_off=(0xfffffffffffffff0; 0xf)");
}

static void range_1_5(rb_val *r)
{
	urange(r, 1, 5);
	assert_state(r, "smin=umin=smin32=umin32=1,smax=umax=smax32=umax32=5,var_off=(0x0; 0x7)");
}

static void test_neg(void **state)
{
	(void)state;
	rb_val r;
	range_1_5(&r);
	alu(&r, BPF_ALU64, BPF_NEG, 0, 0);
	assert_state(&r, "smin=smin32=-5,smax=smax32=-1,umin=0xfffffffffffffffb,umin32=0xfffffffb,"
			 "var_off=(0xfffffffffffffff8; 0x7)");
	range_1_5(&r);
	alu(&r, BPF_ALU, BPF_NEG, 0, 0);
	assert_state(&r, "smin=umin=umin32=0xfffffffb,smax=umax=0xffffffff,smin32=-5,smax32=-1,"
			 "var_off=(0xfffffff8; 0x7)");
}

/* 6.18 leaves DIV/MOD untracked: the result is unknown, even for ALU32 */
static void test_div_mod_unknown(void **state)
{
	(void)state;
	static const struct {
		uint8_t cls, op;
		int16_t off;
	} ops[] = {{BPF_ALU64, BPF_DIV, 0}, {BPF_ALU, BPF_DIV, 0}, {BPF_ALU64, BPF_MOD, 0},
		   {BPF_ALU64, BPF_DIV, 1}};
	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		rb_val r;
		range_1_5(&r);
		alu(&r, ops[i].cls, ops[i].op, ops[i].op == BPF_MOD ? 7 : 2, ops[i].off);
		assert_state(&r, "");
	}
}

static void range_300_12345(rb_val *r)
{
	urange(r, 0x300, 0x12345);
	assert_state(r, "smin=umin=smin32=umin32=768,smax=umax=smax32=umax32=0x12345,var_off=(0x0; 0x1ffff)");
}

static void test_endian(void **state)
{
	(void)state;
	static const struct {
		uint8_t code;
		int32_t imm;
		const char *expect;
	} cases[] = {
		{BPF_ALU | BPF_END | BPF_TO_LE, 16, "smin=smin32=0,smax=umax=smax32=umax32=0xffff,var_off=(0x0; 0xffff)"},
		{BPF_ALU | BPF_END | BPF_TO_LE, 32,
		 "smin=umin=smin32=umin32=768,smax=umax=smax32=umax32=0x12345,var_off=(0x0; 0x1ffff)"},
		{BPF_ALU | BPF_END | BPF_TO_LE, 64,
		 "smin=umin=smin32=umin32=768,smax=umax=smax32=umax32=0x12345,var_off=(0x0; 0x1ffff)"},
		{BPF_ALU | BPF_END | BPF_TO_BE, 16, "smin=smin32=0,smax=umax=smax32=umax32=0xffff,var_off=(0x0; 0xffff)"},
		{BPF_ALU | BPF_END | BPF_TO_BE, 32,
		 "smin=0,smax=umax=umax32=0xffff0100,smax32=0x7fff0100,var_off=(0x0; 0xffff0100)"},
		{BPF_ALU | BPF_END | BPF_TO_BE, 64,
		 "smax=0x7fff010000000000,umax=0xffff010000000000,smin32=0,smax32=umax32=0,"
		 "var_off=(0x0; 0xffff010000000000)"},
		{BPF_ALU64 | BPF_END, 16, "smin=smin32=0,smax=umax=smax32=umax32=0xffff,var_off=(0x0; 0xffff)"},
		{BPF_ALU64 | BPF_END, 32,
		 "smin=0,smax=umax=umax32=0xffff0100,smax32=0x7fff0100,var_off=(0x0; 0xffff0100)"},
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		rb_val r;
		range_300_12345(&r);
		endian(&r, cases[i].code, cases[i].imm);
		assert_state(&r, cases[i].expect);
	}
	/* be16 of [0, 5] */
	rb_val r;
	unk(&r);
	assert_true(fall_k(&r, BPF_JGT, 5, false));
	endian(&r, BPF_ALU | BPF_END | BPF_TO_BE, 16);
	assert_state(&r, "smin=smin32=0,smax=umax=smax32=umax32=1792,var_off=(0x0; 0x700)");
}

/* narrowing loads of a spilled register (coerce_reg_to_size) and
 * sign-extending ones / MOVSX (6.18.44's coerce_reg_to_size_sx) */
static void test_loads_and_movsx(void **state)
{
	(void)state;
	rb_val r, t;
	urange(&r, 0x150, 0x160);
	t = r;
	T->truncate(&t, 8, false);
	assert_state(&t, "smin=umin=smin32=umin32=80,smax=umax=smax32=umax32=96,var_off=(0x40; 0x3f)");
	t = r;
	T->truncate(&t, 8, true);
	assert_state(&t, "smin=umin=smin32=umin32=80,smax=umax=smax32=umax32=96,var_off=(0x40; 0x3f)");

	srange(&r, -5, 5, false);
	t = r;
	T->truncate(&t, 32, false);
	assert_state(&t, "smin=0,smax=umax=0xffffffff,smin32=-5,smax32=5,var_off=(0x0; 0xffffffff)");
	t = r;
	T->truncate(&t, 8, false);
	assert_state(&t, "smin=smin32=0,smax=umax=smax32=umax32=255,var_off=(0x0; 0xff)");
	/* sign extension from 16 bits of a value whose s32 range fits s16 */
	{
		struct rb_alu a = {.code = BPF_ALU64 | BPF_MOV | BPF_X, .off = 16};
		t = r;
		T->alu(&t, &r, &a);
	}
	assert_state(&t, "smin=smin32=-5,smax=smax32=5");
	/* 32-bit MOVSX of the same: the 8-bit range, zero-extended */
	{
		struct rb_alu a = {.code = BPF_ALU | BPF_MOV | BPF_X, .off = 8};
		t = r;
		T->alu(&t, &r, &a);
	}
	assert_state(&t, "smin=0,smax=umax=0xffffffff,smin32=-128,smax32=127,var_off=(0x0; 0xffffffff)");

	/* u32 [732, 0xfffffffe] with unknown upper bits, sign-extended from 32 */
	unk(&r);
	assert_true(fall_k(&r, BPF_JLT, 732, true));
	assert_true(fall_k(&r, BPF_JEQ, -1, true));
	t = r;
	T->truncate(&t, 32, true);
	assert_state(&t, "smin=0xffffffff80000000,smax=0x7fffffff,umin=umin32=732,umax=0xfffffffffffffffe,"
			 "umax32=0xfffffffe");
	/* [0x100, 0x1ff] from 8 bits: both signs, the s8 range */
	urange(&r, 0x100, 0x1ff);
	T->truncate(&r, 8, true);
	assert_state(&r, "smin=smin32=-128,smax=smax32=127");
	/* a constant */
	cst(&r, 0x1ff);
	T->truncate(&r, 8, true);
	assert_state(&r, "-1");
}

/* MUL by a constant: the kernel's bit-serial tnum_mul (its var_off is
 * coarser than summing masks) */
static void test_mul_tnum(void **state)
{
	(void)state;
	rb_val r;
	unk(&r);
	T->truncate(&r, 32, false); /* w6 = w6 */
	assert_true(fall_k(&r, BPF_JLT, -2, true));
	assert_state(&r, "smin=umin=umin32=0xfffffffe,smax=umax=0xffffffff,smin32=-2,smax32=-1,"
			 "var_off=(0xfffffffe; 0x1)");
	rb_val t = r;
	alu(&t, BPF_ALU64, BPF_MUL, 0x111, 0);
	assert_state(&t, "smin=umin=0x110fffffdde,smax=umax=0x110fffffeef,smin32=-546,smax32=-273,"
			 "umin32=0xfffffdde,umax32=0xfffffeef,var_off=(0x110fffffc0e; 0x3f1)");
	t = r;
	alu(&t, BPF_ALU, BPF_MUL, -1108627369, 0);
	assert_state(&t, "smin=0,smax=umax=0xffffffff,var_off=(0x0; 0xffffffff)");
}

/* a shift amount checked on the full 64-bit value even for ALU32 */
static void test_alu32_shift_amount(void **state)
{
	(void)state;
	rb_val r, k;
	unk(&r);
	assert_true(fall_k(&r, BPF_JLE, 1, false));
	cst(&k, UINT64_C(0xfffffffe00000002));
	alu_x(&r, &k, BPF_ALU, BPF_ARSH);
	assert_state(&r, "");
	/* <<32 of a negative s32 range */
	srange(&r, -5, -1, true);
	alu(&r, BPF_ALU64, BPF_LSH, 32, 0);
	assert_state(&r, "smin=0xfffffffb00000000,smax=0xffffffff00000000,umin=0xfffffffb00000000,"
			 "umax=0xffffffff00000000,smin32=0,smax32=umax32=0,var_off=(0xfffffff800000000; 0x700000000)");
}

/* a refinement that breaks the kernel's invariants: that register's
 * bounds are forgotten (var_off kept) and the outcome still explored */
static void test_invariant_violation(void **state)
{
	(void)state;
	rb_val r, k;
	struct rb_bounds b = {.umin = 0x7ffffffe, .umax = UINT64_C(0xffffffff00000001),
			      .smin = INT64_MIN + 1, .smax = 0x7fffffff00000001LL, .u32_min = 1, .u32_max = 1,
			      .s32_min = 1, .s32_max = 1, .var_off = {1, UINT64_C(0xffffffff00000000)}};
	T->from_bounds(&r, &b);
	cst(&k, 0xfffffffc);
	assert_int_equal(T->branch_taken(&r, &k, BPF_JLE, false), RB_BR_UNKNOWN);
	assert_true(T->branch_refine(&r, &k, BPF_JLE, false));
	struct rb_bounds o;
	T->bounds(&r, &o);
	assert_int_equal(o.umin, 0);
	assert_int_equal(o.umax, UINT64_MAX);
	assert_int_equal(o.var_off.value, 1);
	assert_int_equal(o.var_off.mask, 0);
	assert_state(&r, "1");
}

/* bits known in both operands that disagree decide JEQ */
static void test_jeq_tnum_disagrees(void **state)
{
	(void)state;
	rb_val r, k;
	unk(&r);
	alu(&r, BPF_ALU64, BPF_AND, 0xe, 0);
	assert_state(&r, "smin=smin32=0,smax=umax=smax32=umax32=14,var_off=(0x0; 0xe)");
	cst(&k, 3);
	assert_int_equal(T->branch_taken(&r, &k, BPF_JEQ, false), RB_BR_NEVER);
	assert_int_equal(T->branch_taken(&r, &k, BPF_JNE, false), RB_BR_ALWAYS);
	assert_false(T->branch_refine(&r, &k, BPF_JEQ, false));
}

/* an s64 range through the sign boundary meeting one u64 end */
static void test_cross_sign(void **state)
{
	(void)state;
	rb_val r;
	unk(&r);
	assert_true(fall_k(&r, BPF_JSGT, 5, false));
	assert_state(&r, "smax=5");
	assert_true(fall_k(&r, BPF_JSLT, -5, false));
	assert_state(&r, "smin=smin32=-5,smax=smax32=5");
	assert_true(fall_k(&r, BPF_JGT, -16, false));
	assert_state(&r, "smin=smin32=0,smax=umax=smax32=umax32=5,var_off=(0x0; 0x7)");
}

static void test_jset_false_forgets_ranges(void **state)
{
	(void)state;
	rb_val r;
	unk(&r);
	assert_true(fall_k(&r, BPF_JGT, 100, false));
	assert_true(fall_k(&r, BPF_JSET, 1, false));
	assert_state(&r, "smin=smin32=0,smax=umax=smax32=umax32=126,var_off=(0x0; 0x7e)");
}

/* a range and var_off with one value in common make a constant */
static void test_single_common_value(void **state)
{
	(void)state;
	rb_val r, t;
	unk(&r);
	alu(&r, BPF_ALU64, BPF_OR, 3584, 0);
	assert_state(&r, "smin=0x8000000000000e00,umin=umin32=3584,smin32=0x80000e00,"
			 "var_off=(0xe00; 0xfffffffffffff1ff)");
	alu(&r, BPF_ALU64, BPF_AND, 3840, 0);
	assert_state(&r, "smin=umin=smin32=umin32=3584,smax=umax=smax32=umax32=3840,var_off=(0xe00; 0x100)");
	t = r;
	assert_true(refine_k(&t, BPF_JEQ, 0xe00, false));
	assert_state(&t, "3584");
	assert_true(fall_k(&r, BPF_JEQ, 0xe00, false));
	assert_state(&r, "3840");
	assert_true(T->is_const(&r));
}

/* the proposal's example: w6 in s32 [-4, 4], i.e. {0xfffffffc..4} */
static void test_s32_wrap_then_add(void **state)
{
	(void)state;
	rb_val r, r64;
	unk(&r);
	assert_true(fall_k(&r, BPF_JSGT, 4, true));
	assert_state(&r, "smax32=4");
	assert_true(fall_k(&r, BPF_JSLT, -4, true));
	assert_state(&r, "smin32=-4,smax32=4");
	r64 = r;
	alu(&r, BPF_ALU, BPF_ADD, 4, 0);
	assert_state(&r, "smin=smin32=0,smax=umax=smax32=umax32=8,var_off=(0x0; 0xf)");
	alu(&r64, BPF_ALU64, BPF_ADD, 4, 0);
	assert_state(&r64, "smax=0x7fffffff00000008,umax=0xffffffff00000008,smin32=0,smax32=umax32=8,"
			   "var_off=(0x0; 0xffffffff0000000f)");
	/* the same at 64 bits */
	srange(&r, -4, 4, false);
	assert_state(&r, "smin=smin32=-4,smax=smax32=4");
	alu(&r, BPF_ALU64, BPF_ADD, 4, 0);
	assert_state(&r, "smin=smin32=0,smax=umax=smax32=umax32=8,var_off=(0x0; 0xf)");
}

/* the proposal's example: [2^63-2, 2^63+2] + 2^63 is {-2..2}; old keeps
 * only the subregister's s32 range */
static void test_add_2_63_straddling(void **state)
{
	(void)state;
	rb_val r, lo, hi, k;
	unk(&r);
	cst(&lo, UINT64_C(0x7ffffffffffffffe));
	cst(&hi, UINT64_C(0x8000000000000002));
	assert_true(T->branch_refine(&r, &lo, BPF_JGE, false));
	assert_state(&r, "umin=0x7ffffffffffffffe");
	assert_true(T->branch_refine(&r, &hi, BPF_JLE, false));
	assert_state(&r, "umin=0x7ffffffffffffffe,umax=0x8000000000000002,smin32=-2,smax32=2");
	cst(&k, UINT64_C(1) << 63);
	alu_x(&r, &k, BPF_ALU64, BPF_ADD);
	assert_state(&r, "smin32=-2,smax32=2");
	for (int64_t x = -2; x <= 2; x++)
		assert_true(T->contains(&r, (uint64_t)x));
	assert_true(T->contains(&r, UINT64_C(0x100000000))); /* what old loses */
	assert_false(T->contains(&r, 3));
}

static void test_print_rules(void **state)
{
	(void)state;
	rb_val r;
	char b[128];
	cst(&r, (uint64_t)-1);
	assert_state(&r, "-1");
	cst(&r, UINT64_C(0x100000000));
	assert_state(&r, "0x100000000");
	cst(&r, 32767);
	assert_state(&r, "32767");
	cst(&r, 32768);
	assert_state(&r, "0x8000");
	/* snprintf contract: the length is returned even when truncated */
	unk(&r);
	alu(&r, BPF_ALU64, BPF_AND, 0xff, 0);
	int n = T->print(&r, b, 8);
	assert_int_equal(n, (int)strlen("smin=smin32=0,smax=umax=smax32=umax32=255,var_off=(0x0; 0xff)"));
	assert_int_equal(strlen(b), 7);
}

static void test_subset_and_equal(void **state)
{
	(void)state;
	rb_val a, b;
	unk(&a);
	range_1_5(&b);
	assert_true(T->is_subset(&a, &b));
	assert_false(T->is_subset(&b, &a));
	assert_true(T->is_subset(&b, &b));
	assert_true(T->equal(&b, &b));
	assert_false(T->equal(&a, &b));
	assert_true(T->intersect(&a, &b));
	assert_true(T->equal(&a, &b));
	rb_val c;
	cst(&c, 9);
	assert_false(T->intersect(&a, &c));
}

/* ---------- soundness at 8 bits ---------- */

/* an abstract value and its members (8-bit values), listed in ascending
 * order: the checks below visit each member (each pair of members) in the
 * order a scan of the 256 values would, without scanning the others */
struct absval {
	rb_val v;
	unsigned n;
	uint8_t mem[256];
};

static void members(const struct rb_tracker *t, struct absval *a)
{
	a->n = 0;
	for (unsigned x = 0; x < 256; x++)
		if (t->contains(&a->v, x))
			a->mem[a->n++] = (uint8_t)x;
}

/* varied abstract inputs: from random sets, random bounds, constants,
 * arithmetic on them */
static void gen(const struct rb_tracker *t, struct rng *g, struct absval *a)
{
	uint64_t k = rnd(g) % 6;
	if (k == 0) {
		t->constant(&a->v, rnd(g) & 0xff);
	} else if (k <= 2) {
		uint64_t vals[8];
		size_t n = 1 + rnd(g) % 8;
		uint64_t base = rnd(g) & 0xff, spread = rnd(g) % 64 + 1;
		for (size_t i = 0; i < n; i++)
			vals[i] = k == 1 ? rnd(g) & 0xff : (base + rnd(g) % spread) & 0xff;
		t->from_set(&a->v, vals, n);
	} else {
		t->unknown(&a->v);
		/* a couple of random range-setting jumps */
		for (int i = 0; i < 2; i++) {
			static const uint8_t jops[] = {BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE, BPF_JSGT,
						       BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET, RB_JSET_FALSE,
						       BPF_JNE};
			rb_val kk = a->v, save = a->v;
			t->constant(&kk, rnd(g) & 0xff);
			if (!t->branch_refine(&a->v, &kk, jops[rnd(g) % 11], rnd(g) % 4 == 0))
				a->v = save;
		}
	}
	members(t, a);
}

static unsigned count(const struct absval *a)
{
	return a->n;
}

static void test_sound_alu_8(void **state)
{
	(void)state;
	const struct rb_tracker *t = rb_tracker_get("old", 8);
	const struct rb_concrete *c = t->concrete;
	static const uint8_t ops[] = {BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_OR, BPF_AND, BPF_LSH,
				      BPF_RSH, BPF_NEG, BPF_MOD, BPF_XOR, BPF_MOV, BPF_ARSH};
	struct rng g = {0x9e3779b97f4a7c15ULL};
	unsigned checked = 0;

	for (int iter = 0; iter < 1500; iter++) {
		struct absval a, b;
		gen(t, &g, &a);
		gen(t, &g, &b);
		if (count(&a) == 0 || count(&b) == 0)
			continue;
		for (size_t o = 0; o < sizeof(ops); o++) {
			for (int cls = 0; cls < 2; cls++) {
				struct rb_alu op = {.code = (uint8_t)((cls ? BPF_ALU64 : BPF_ALU) | ops[o] | BPF_X)};
				if ((ops[o] == BPF_DIV || ops[o] == BPF_MOD) && (iter & 1))
					op.off = 1;
				if (ops[o] == BPF_MOV && (iter % 3))
					op.off = (int16_t)(iter % 3 == 1 ? 8 : 16);
				rb_val r = a.v;
				t->alu(&r, &b.v, &op);
				int8_t rin[256]; /* contains(r, z) of each 8-bit z, asked once */
				memset(rin, -1, sizeof(rin));
				for (unsigned i = 0; i < a.n; i++) {
					unsigned x = a.mem[i];
					for (unsigned k = 0; k < b.n; k++) {
						unsigned y = b.mem[k];
						uint64_t z = c->alu(x, y, &op);
						if (z < 256 && rin[z] < 0)
							rin[z] = t->contains(&r, z);
						if (!(z < 256 ? rin[z] : t->contains(&r, z))) {
							char sa[160], sb[160], sr[160];
							t->print(&a.v, sa, sizeof sa);
							t->print(&b.v, sb, sizeof sb);
							t->print(&r, sr, sizeof sr);
							fail_msg("unsound %s cls=%d off=%d: %u op %u = %llu not in [%s] "
								 "(a=[%s] b=[%s])",
								 rb_alu_name(ops[o]), cls, op.off, x, y,
								 (unsigned long long)z, sr, sa, sb);
						}
						checked++;
					}
				}
			}
		}
	}
	assert_true(checked > 100000);
}

static void test_sound_end_trunc_8(void **state)
{
	(void)state;
	const struct rb_tracker *t = rb_tracker_get("old", 8);
	const struct rb_concrete *c = t->concrete;
	static const uint8_t codes[] = {BPF_ALU | BPF_END | BPF_TO_LE, BPF_ALU | BPF_END | BPF_TO_BE,
					BPF_ALU64 | BPF_END};
	static const int32_t sizes[] = {16, 32, 64};
	struct rng g = {12345};
	for (int iter = 0; iter < 3000; iter++) {
		struct absval a;
		gen(t, &g, &a);
		for (size_t i = 0; i < 3; i++)
			for (size_t s = 0; s < 3; s++) {
				struct rb_alu op = {.code = codes[i], .imm = sizes[s]};
				rb_val r = a.v, z;
				t->constant(&z, 0);
				t->alu(&r, &z, &op);
				for (unsigned i = 0; i < a.n; i++)
					assert_true(t->contains(&r, c->alu(a.mem[i], 0, &op)));
			}
		for (unsigned sz = 8; sz <= 32; sz *= 2)
			for (int sx = 0; sx < 2; sx++) {
				rb_val r = a.v;
				t->truncate(&r, sz, sx);
				for (unsigned i = 0; i < a.n; i++)
					if (!t->contains(&r, c->truncate(a.mem[i], sz, sx)))
						fail_msg("truncate %u sext=%d of %u unsound", sz, sx, a.mem[i]);
			}
	}
}

static void test_sound_branch_8(void **state)
{
	(void)state;
	const struct rb_tracker *t = rb_tracker_get("old", 8);
	const struct rb_concrete *c = t->concrete;
	static const uint8_t jops[] = {BPF_JEQ, BPF_JNE, BPF_JSET, RB_JSET_FALSE, BPF_JGT, BPF_JGE,
				       BPF_JLT, BPF_JLE, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE};
	struct rng g = {777};
	unsigned refined = 0, impossible = 0;
	for (int iter = 0; iter < 3000; iter++) {
		struct absval a, b;
		gen(t, &g, &a);
		gen(t, &g, &b);
		for (size_t j = 0; j < sizeof(jops); j++)
			for (int is32 = 0; is32 < 2; is32++) {
				int taken = t->branch_taken(&a.v, &b.v, jops[j], is32);
				rb_val ra = a.v, rb = b.v;
				bool possible = t->branch_refine(&ra, &rb, jops[j], is32);
				/* contains() of the refined values, asked once per value */
				int8_t ain[256], bin[256];
				memset(ain, -1, sizeof(ain));
				memset(bin, -1, sizeof(bin));
				bool any = false;
				for (unsigned i = 0; i < a.n; i++) {
					unsigned x = a.mem[i];
					for (unsigned k = 0; k < b.n; k++) {
						unsigned y = b.mem[k];
						bool h = c->jmp(x, y, jops[j], is32);
						if (taken == RB_BR_ALWAYS)
							assert_true(h);
						if (taken == RB_BR_NEVER)
							assert_false(h);
						if (h) {
							any = true;
							if (possible && ain[x] < 0)
								ain[x] = t->contains(&ra, x);
							if (possible && bin[y] < 0)
								bin[y] = t->contains(&rb, y);
							if (!possible || !ain[x] || !bin[y])
								fail_msg("%s%s: %u vs %u lost (possible=%d)",
									 rb_jmp_name(jops[j]), is32 ? "32" : "", x, y,
									 possible);
						}
					}
				}
				refined += possible;
				impossible += !any && !possible;
			}
	}
	assert_true(refined > 1000);
	assert_true(impossible > 10);
}

/* from_set is exact in every bound and in the tnum */
static void test_from_set_exact_8(void **state)
{
	(void)state;
	const struct rb_tracker *t = rb_tracker_get("old", 8);
	uint64_t v[3] = {0xfc, 0x02, 0x04};
	rb_val r;
	struct rb_bounds b;
	t->from_set(&r, v, 3);
	t->bounds(&r, &b);
	assert_int_equal(b.umin, 2);
	assert_int_equal(b.umax, 0xfc);
	assert_int_equal(b.smin, -4);
	assert_int_equal(b.smax, 4);
	assert_int_equal(b.u32_min, 2);
	assert_int_equal(b.u32_max, 0xc);
	assert_int_equal(b.s32_min, -4);
	assert_int_equal(b.s32_max, 4);
	assert_int_equal(b.var_off.value, 0);
	assert_int_equal(b.var_off.mask, 0xfe);
	for (unsigned x = 0; x < 256; x++)
		if (x == 0xfc || x == 2 || x == 4)
			assert_true(t->contains(&r, x));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_vtable, setup64),
		cmocka_unit_test_setup(test_load_u32_then_jgt, setup64),
		cmocka_unit_test_setup(test_jgt_both_outcomes_and_add, setup64),
		cmocka_unit_test_setup(test_add_both_overflow, setup64),
		cmocka_unit_test_setup(test_mul_signed, setup64),
		cmocka_unit_test_setup(test_neg, setup64),
		cmocka_unit_test_setup(test_div_mod_unknown, setup64),
		cmocka_unit_test_setup(test_endian, setup64),
		cmocka_unit_test_setup(test_loads_and_movsx, setup64),
		cmocka_unit_test_setup(test_mul_tnum, setup64),
		cmocka_unit_test_setup(test_alu32_shift_amount, setup64),
		cmocka_unit_test_setup(test_invariant_violation, setup64),
		cmocka_unit_test_setup(test_jeq_tnum_disagrees, setup64),
		cmocka_unit_test_setup(test_cross_sign, setup64),
		cmocka_unit_test_setup(test_jset_false_forgets_ranges, setup64),
		cmocka_unit_test_setup(test_single_common_value, setup64),
		cmocka_unit_test_setup(test_s32_wrap_then_add, setup64),
		cmocka_unit_test_setup(test_add_2_63_straddling, setup64),
		cmocka_unit_test_setup(test_print_rules, setup64),
		cmocka_unit_test_setup(test_subset_and_equal, setup64),
		cmocka_unit_test(test_sound_alu_8),
		cmocka_unit_test(test_sound_end_trunc_8),
		cmocka_unit_test(test_sound_branch_8),
		cmocka_unit_test(test_from_set_exact_8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
