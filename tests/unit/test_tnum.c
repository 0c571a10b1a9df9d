/* test_tnum.c — tristate numbers: exhaustive soundness and exactness at
 * 8 bits (every tnum, every member), and 64-bit examples computed by hand
 * from the kernel's algorithms.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define RB_BITS 8
#include "tracker/tnum.h"

/* the 64-bit build of the same module (struct tnum is width-independent) */
struct tnum tnum_range_ool_w64(uint64_t min, uint64_t max); /* tnum_range, out of line */
struct tnum tnum_add_w64(struct tnum a, struct tnum b);
struct tnum tnum_sub_w64(struct tnum a, struct tnum b);
struct tnum tnum_mul_w64(struct tnum a, struct tnum b);
struct tnum tnum_mul_ref_w64(struct tnum a, struct tnum b);
struct tnum tnum_arshift_w64(struct tnum a, unsigned min_shift, unsigned bits);
struct tnum tnum_bswap_w64(struct tnum a, unsigned nbytes);
struct tnum tnum_with_subreg_w64(struct tnum reg, struct tnum subreg);
int tnum_strn_w64(char *str, size_t size, struct tnum a);
int tnum_sbin_w64(char *str, size_t size, struct tnum a);

/* all 3^8 tnums of 8 bits */
static struct tnum all[6561];
static size_t nall;

static int setup(void **state)
{
	(void)state;
	nall = 0;
	for (unsigned m = 0; m < 256; m++)
		for (unsigned v = 0; v < 256; v++)
			if (!(v & m))
				all[nall++] = TNUM_C(v, m);
	return nall == 6561 ? 0 : -1;
}

static bool member(struct tnum t, unsigned x) { return tnum_contains(t, x); }

static void test_range_exhaustive(void **state)
{
	(void)state;
	for (unsigned lo = 0; lo < 256; lo++)
		for (unsigned hi = lo; hi < 256; hi++) {
			struct tnum t = tnum_range(lo, hi);
			assert_int_equal(t.value & t.mask, 0);
			for (unsigned x = lo; x <= hi; x++)
				assert_true(member(t, x));
			/* all bits below the highest differing one are unknown */
			unsigned d = lo ^ hi, bits = 0;
			while (d >> bits)
				bits++;
			assert_int_equal(t.mask, bits >= 8 ? 0xff : (1u << bits) - 1);
		}
}

/* every unary result contains the image of every member; from_set gives
 * the smallest tnum of a set, so each result must contain it */
static void test_unary_exhaustive(void **state)
{
	(void)state;
	for (size_t i = 0; i < nall; i++) {
		struct tnum a = all[i];
		uint64_t img[256];
		size_t n = 0;
		for (unsigned x = 0; x < 256; x++)
			if (member(a, x))
				img[n++] = x;
		/* from_set of a's members is a itself */
		struct tnum s = tnum_from_set(img, n);
		assert_int_equal(s.value, a.value);
		assert_int_equal(s.mask, a.mask);
		for (size_t k = 0; k < n; k++) {
			unsigned x = (unsigned)img[k];
			assert_true(member(tnum_neg(a), (0u - x) & 0xff));
			for (unsigned sh = 0; sh < 8; sh++) {
				assert_true(member(tnum_lshift(a, sh), (x << sh) & 0xff));
				assert_true(member(tnum_rshift(a, sh), x >> sh));
				assert_true(member(tnum_arshift(a, sh, 8), (unsigned)((int8_t)x >> sh) & 0xff));
			}
			for (unsigned sh = 0; sh < 4; sh++)
				assert_true(member(tnum_arshift(a, sh, 4),
						   (unsigned)(sext_bits(x, 4) >> sh) & 0xf));
			assert_true(member(tnum_subreg(a), x & 0xf));
			assert_true(member(tnum_clear_subreg(a), x & 0xf0));
			assert_true(member(tnum_cast(a, 1), x & 0x1)); /* 1 BPF byte = 1 bit at 8 */
			assert_true(member(tnum_cast(a, 4), x & 0xf));
			assert_true(member(tnum_bswap(a, 2), w_bswap(x, 2)));
			assert_true(member(tnum_bswap(a, 8), w_bswap(x, 8)));
		}
		/* shifts and swaps are bitwise exact: the same number of members */
		assert_int_equal(tnum_bswap(a, 8).mask, w_bswap(a.mask, 8));
	}
}

static void test_binary_sound(void **state)
{
	(void)state;
	/* every pair would be 43M; take every 31st tnum against every 11th.
	 * The members of each right-hand tnum (by member(), ascending) are
	 * listed once, not found again by a scan of 256 values per pair. */
	static uint8_t bmem[6561 / 11 + 1][256];
	static unsigned bn[6561 / 11 + 1];
	for (size_t j = 0; j < nall; j += 11) {
		bn[j / 11] = 0;
		for (unsigned y = 0; y < 256; y++)
			if (member(all[j], y))
				bmem[j / 11][bn[j / 11]++] = (uint8_t)y;
	}
	for (size_t i = 0; i < nall; i += 31)
		for (size_t j = 0; j < nall; j += 11) {
			struct tnum a = all[i], b = all[j];
			struct tnum add = tnum_add(a, b), sub = tnum_sub(a, b), mul = tnum_mul(a, b);
			struct tnum and = tnum_and(a, b), or = tnum_or(a, b), xor = tnum_xor(a, b);
			struct tnum uni = tnum_union(a, b), isect = tnum_intersect(a, b);
			const uint8_t *ys = bmem[j / 11];
			const unsigned ny = bn[j / 11];
			bool overlap = false;
			for (unsigned x = 0; x < 256; x++) {
				if (!member(a, x))
					continue;
				assert_true(member(uni, x));
				if (member(b, x)) {
					overlap = true;
					assert_true(member(isect, x));
				}
				for (unsigned k = 0; k < ny; k++) {
					unsigned y = ys[k];
					assert_true(member(add, (x + y) & 0xff));
					assert_true(member(sub, (x - y) & 0xff));
					assert_true(member(mul, (x * y) & 0xff));
					assert_true(member(and, x & y));
					assert_true(member(or, x | y));
					assert_true(member(xor, x ^ y));
				}
			}
			assert_int_equal(tnum_overlap(a, b), overlap);
			assert_true(tnum_in(uni, a) && tnum_in(uni, b));
			assert_int_equal(tnum_in(a, b), ((b.mask & ~a.mask) == 0 && (b.value & ~a.mask) == a.value));
		}
}

/* tnum_step: the smallest member above z (t's largest if none, t's
 * smallest below it) */
/* tnum_mul (which stops once the rest of the loop can change nothing)
 * against tnum_mul_ref (6.18.44's every step): every 8-bit tnum against
 * every 5th, and random 64-bit pairs of a few shapes (unknown high bits,
 * ranges, constants) */
static void test_mul_ref8(void **state)
{
	(void)state;
	unsigned long pairs = 0, unknown = 0;
	for (size_t i = 0; i < nall; i++)
		for (size_t j = i % 5; j < nall; j += 5, pairs++) {
			struct tnum f = tnum_mul(all[i], all[j]), r = tnum_mul_ref(all[i], all[j]);
			if (f.value != r.value || f.mask != r.mask) {
				print_error("(%#llx; %#llx) * (%#llx; %#llx): tnum_mul (%#llx; %#llx), ref (%#llx; %#llx)\n",
					    (unsigned long long)all[i].value, (unsigned long long)all[i].mask,
					    (unsigned long long)all[j].value, (unsigned long long)all[j].mask,
					    (unsigned long long)f.value, (unsigned long long)f.mask,
					    (unsigned long long)r.value, (unsigned long long)r.mask);
				fail();
			}
			unknown += r.mask == 0xff;
		}
	uint64_t g = 0x9e3779b97f4a7c15ull;
	for (unsigned i = 0; i < 200000; i++, pairs++) {
		uint64_t x[4];
		for (int k = 0; k < 4; k++) {
			g ^= g << 13;
			g ^= g >> 7;
			g ^= g << 17;
			x[k] = g;
		}
		/* masks: a low run of i % 64 bits, a high run, or random bits */
		uint64_t m1 = i % 3 == 0 ? (UINT64_C(1) << (i % 64)) - 1 : i % 3 == 1 ? ~UINT64_C(0) << (i % 64) : x[2];
		uint64_t m2 = i % 5 == 0 ? 0 : i % 5 == 1 ? (UINT64_C(1) << (i % 61)) - 1 : x[3] >> (i % 64);
		struct tnum a = TNUM_C(x[0] & ~m1, m1), b = TNUM_C(x[1] & ~m2 & (i % 7 ? ~UINT64_C(0) : 0xfff), m2);
		struct tnum f = tnum_mul_w64(a, b), r = tnum_mul_ref_w64(a, b);
		assert_true(f.value == r.value && f.mask == r.mask);
	}
	print_message("%lu products, %lu of 8-bit tnums unknown\n", pairs, unknown);
	assert_true(unknown > 100000 && unknown < pairs / 2);
}

static void test_step_exhaustive(void **state)
{
	(void)state;
	for (size_t i = 0; i < nall; i++) {
		struct tnum t = all[i];
		unsigned tmax = (unsigned)(t.value | t.mask);
		for (unsigned z = 0; z < 256; z++) {
			unsigned expect;
			if (z >= tmax)
				expect = tmax;
			else if (z < t.value)
				expect = (unsigned)t.value;
			else {
				expect = z + 1;
				while (!member(t, expect))
					expect++;
			}
			assert_int_equal(tnum_step(t, z), expect);
		}
	}
}

static void test_subreg_ops(void **state)
{
	(void)state;
	struct tnum a = TNUM_C(0xa0, 0x0f), b = TNUM_C(0x05, 0x30);
	struct tnum w = tnum_with_subreg(a, b);
	assert_int_equal(w.value, 0xa5);
	assert_int_equal(w.mask, 0x00);
	struct tnum c = tnum_const_subreg(TNUM_C(0x00, 0xff), 0x9);
	assert_int_equal(c.value, 0x09);
	assert_int_equal(c.mask, 0xf0);
	assert_true(tnum_is_unknown(tnum_unknown()));
	assert_false(tnum_is_unknown(c));
	assert_true(tnum_equals_const(tnum_const(0x1ff), 0xff));
}

static void test_examples_64(void **state)
{
	(void)state;
	char b[80];
	/* the range after "if r1 > 8": (0x0; 0xf) */
	struct tnum r = tnum_range_ool_w64(0, 8);
	assert_int_equal(r.value, 0);
	assert_int_equal(r.mask, 0xf);
	/* (0; 0xf) + 3: carries may reach bit 4 */
	struct tnum s = tnum_add_w64(r, TNUM_C(3, 0));
	assert_int_equal(s.value, 0);
	assert_int_equal(s.mask, 0x1f);
	/* full range */
	struct tnum u = tnum_range_ool_w64(0, UINT64_MAX);
	assert_int_equal(u.mask, UINT64_MAX);
	/* 0 - (0; 1) = {0, -1} */
	struct tnum d = tnum_sub_w64(TNUM_C(0, 0), TNUM_C(0, 1));
	assert_int_equal(d.value, 0);
	assert_int_equal(d.mask, UINT64_MAX);
	/* {1, 3} * 3 = {3, 9} = {0b0011, 0b1001}: the uncertain bit makes the
	 * union of 3 and 3 + 6, exactly (0b1; 0b1010) */
	struct tnum m = tnum_mul_w64(TNUM_C(1, 2), TNUM_C(3, 0));
	assert_int_equal(m.value, 1);
	assert_int_equal(m.mask, 0xa);
	/* the kernel's var_off for {0xfffffffe, 0xffffffff} * 0x111 (before
	 * the range intersection): measured 0x3f1 after it */
	m = tnum_mul_w64(TNUM_C(0xfffffffe, 1), TNUM_C(0x111, 0));
	assert_int_equal(m.mask & 0x3ff, 0x3f1);
	/* arithmetic shift of a 32-bit subregister with unknown sign */
	struct tnum a = tnum_arshift_w64(TNUM_C(0x10, 0x80000000), 4, 32);
	assert_int_equal(a.value, 0x1);
	assert_int_equal(a.mask, 0xf8000000);
	struct tnum sw = tnum_bswap_w64(TNUM_C(0x1200, 0x34), 2);
	assert_int_equal(sw.value, 0x12);
	assert_int_equal(sw.mask, 0x3400);
	struct tnum ws = tnum_with_subreg_w64(TNUM_C(0x100000000, 0), TNUM_C(0, 0xffffffff));
	assert_int_equal(ws.value, 0x100000000);
	assert_int_equal(ws.mask, 0xffffffff);
	/* the kernel's log form prints 0x0 for zero */
	tnum_strn_w64(b, sizeof(b), r);
	assert_string_equal(b, "(0x0; 0xf)");
	assert_int_equal(tnum_sbin_w64(b, sizeof(b), r), 64);
	assert_int_equal(strlen(b), 64);
	assert_string_equal(b + 60, "xxxx");
	assert_int_equal(tnum_sbin(b, 5, TNUM_C(0x81, 0x02)), 8);
	assert_string_equal(b, "1000");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_range_exhaustive),
		cmocka_unit_test_setup(test_unary_exhaustive, setup),
		cmocka_unit_test_setup(test_binary_sound, setup),
		cmocka_unit_test_setup(test_step_exhaustive, setup),
		cmocka_unit_test_setup(test_mul_ref8, setup),
		cmocka_unit_test(test_subreg_ops),
		cmocka_unit_test(test_examples_64),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
