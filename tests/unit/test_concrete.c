/* test_concrete.c — the concrete BPF semantics (src/tracker/concrete.c)
 * that the census checks trackers against: pinned against hand-worked
 * 64-bit results and against the scaling rule at 8 bits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <linux/bpf.h>

#include "tracker/tracker.h"

static uint64_t alu(const struct rb_concrete *c, uint8_t code, uint64_t d, uint64_t s, int16_t off, int32_t imm)
{
	struct rb_alu op = {.code = code, .off = off, .imm = imm};
	return c->alu(d, s, &op);
}

static void test_alu64(void **state)
{
	(void)state;
	const struct rb_concrete *c = rb_concrete_get(64);
	assert_non_null(c);
	assert_int_equal(c->bits, 64);
	assert_int_equal(c->subbits, 32);
	assert_true(alu(c, BPF_ALU64 | BPF_ADD | BPF_X, UINT64_MAX, 2, 0, 0) == 1);
	assert_true(alu(c, BPF_ALU64 | BPF_DIV | BPF_X, 7, 0, 0, 0) == 0);
	assert_true(alu(c, BPF_ALU64 | BPF_MOD | BPF_X, 7, 0, 0, 0) == 7);
	/* signed: INT64_MIN / -1 == INT64_MIN, INT64_MIN % -1 == 0 */
	assert_true(alu(c, BPF_ALU64 | BPF_DIV | BPF_X, UINT64_C(1) << 63, UINT64_MAX, 1, 0) == UINT64_C(1) << 63);
	assert_true(alu(c, BPF_ALU64 | BPF_MOD | BPF_X, UINT64_C(1) << 63, UINT64_MAX, 1, 0) == 0);
	assert_true(alu(c, BPF_ALU64 | BPF_DIV | BPF_X, (uint64_t)-7, 2, 1, 0) == (uint64_t)-3);
	assert_true(alu(c, BPF_ALU64 | BPF_MOD | BPF_X, (uint64_t)-7, 2, 1, 0) == (uint64_t)-1);
	/* shift amounts are masked to the width */
	assert_true(alu(c, BPF_ALU64 | BPF_LSH | BPF_X, 1, 65, 0, 0) == 2);
	assert_true(alu(c, BPF_ALU64 | BPF_ARSH | BPF_X, UINT64_C(1) << 63, 63, 0, 0) == UINT64_MAX);
	/* MOVSX */
	assert_true(alu(c, BPF_ALU64 | BPF_MOV | BPF_X, 0, 0x80, 8, 0) == (uint64_t)-128);
	assert_true(alu(c, BPF_ALU64 | BPF_MOV | BPF_X, 0, 0x80000000u, 32, 0) == 0xffffffff80000000ull);
	assert_true(alu(c, BPF_ALU64 | BPF_NEG | BPF_K, 1, 0, 0, 0) == UINT64_MAX);
	/* byte swaps: ALU64|END always swaps; ALU|END swaps only for TO_BE */
	assert_true(alu(c, BPF_ALU64 | BPF_END | BPF_TO_LE, 0x1122334455667788ull, 0, 0, 16) == 0x8877);
	assert_true(alu(c, BPF_ALU | BPF_END | BPF_TO_BE, 0x1122334455667788ull, 0, 0, 32) == 0x88776655);
	assert_true(alu(c, BPF_ALU | BPF_END | BPF_TO_LE, 0x1122334455667788ull, 0, 0, 16) == 0x7788);
	assert_true(alu(c, BPF_ALU64 | BPF_END | BPF_TO_LE, 0x1122334455667788ull, 0, 0, 64) == 0x8877665544332211ull);
}

static void test_alu32(void **state)
{
	(void)state;
	const struct rb_concrete *c = rb_concrete_get(64);
	/* 32-bit results are zero-extended */
	assert_true(alu(c, BPF_ALU | BPF_ADD | BPF_X, 0xffffffffffffffffull, 1, 0, 0) == 0);
	assert_true(alu(c, BPF_ALU | BPF_SUB | BPF_X, 0, 1, 0, 0) == 0xffffffffull);
	assert_true(alu(c, BPF_ALU | BPF_MOD | BPF_X, 0x1234567800000007ull, 0, 0, 0) == 7);
	assert_true(alu(c, BPF_ALU | BPF_ARSH | BPF_K, 0x80000000ull, 31, 0, 0) == 0xffffffffull);
	assert_true(alu(c, BPF_ALU | BPF_MOV | BPF_X, 0, 0xff, 8, 0) == 0xffffffffull);
	assert_true(alu(c, BPF_ALU | BPF_DIV | BPF_X, (uint32_t)-8, (uint32_t)-2, 1, 0) == 4);
}

static void test_jmp_and_truncate(void **state)
{
	(void)state;
	const struct rb_concrete *c = rb_concrete_get(64);
	assert_true(c->jmp(UINT64_MAX, 0, BPF_JGT, false));
	assert_false(c->jmp(UINT64_MAX, 0, BPF_JSGT, false));
	assert_true(c->jmp(0x1ffffffffull, 0, BPF_JSLT, true)); /* low half is -1 */
	assert_true(c->jmp(6, 1, RB_JSET_FALSE, false));
	assert_false(c->jmp(7, 1, RB_JSET_FALSE, false));
	assert_true(c->truncate(0x1ff, 8, false) == 0xff);
	assert_true(c->truncate(0x1ff, 8, true) == UINT64_MAX);
	assert_true(c->truncate(0x12345678, 16, true) == 0x5678);
}

/* At 8 bits (4-bit subregister) BPF sizes scale by 8/64: a "byte" is one bit. */
static void test_scaled_width8(void **state)
{
	(void)state;
	const struct rb_concrete *c = rb_concrete_get(8);
	assert_non_null(c);
	assert_int_equal(c->subbits, 4);
	assert_true(alu(c, BPF_ALU64 | BPF_ADD | BPF_X, 0xff, 1, 0, 0) == 0);
	assert_true(alu(c, BPF_ALU | BPF_ADD | BPF_X, 0xff, 1, 0, 0) == 0);
	assert_true(alu(c, BPF_ALU | BPF_SUB | BPF_X, 0, 1, 0, 0) == 0xf);
	assert_true(alu(c, BPF_ALU64 | BPF_LSH | BPF_X, 1, 9, 0, 0) == 2);
	assert_true(c->truncate(0x0b, 32, true) == 0xfb);  /* 4-bit sign extension */
	assert_true(c->truncate(0x0b, 8, false) == 1);     /* 1-bit "byte" */
	/* bswap64 at 8 bits reverses the bits */
	assert_true(alu(c, BPF_ALU64 | BPF_END | BPF_TO_LE, 0x01, 0, 0, 64) == 0x80);
	/* every pair: 64-bit ops agree with 8-bit modular arithmetic */
	for (unsigned a = 0; a < 256; a++)
		for (unsigned b = 0; b < 256; b++) {
			assert_true(alu(c, BPF_ALU64 | BPF_MUL | BPF_X, a, b, 0, 0) == ((a * b) & 0xff));
			assert_true(c->jmp(a, b, BPF_JSLT, false) == ((int8_t)a < (int8_t)b));
			assert_true(c->jmp(a, b, BPF_JLT, true) == ((a & 15) < (b & 15)));
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alu64),
		cmocka_unit_test(test_alu32),
		cmocka_unit_test(test_jmp_and_truncate),
		cmocka_unit_test(test_scaled_width8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
