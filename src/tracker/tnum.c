/* tnum.c — tristate numbers, width-generic (see tnum.h).
 *
 * Follows kernel/bpf/tnum.c of the running 6.18.44 stable kernel: the
 * same algorithms (carry-aware add/sub, bit-serial multiply with a union
 * for uncertain multiplier bits, range-to-tnum via the highest differing
 * bit), re-expressed here with every result truncated to W_BITS.
 */
#include <stdio.h>

#include "tracker/tnum.h"

static struct tnum mk(uint64_t v, uint64_t m)
{
	return TNUM_C(wtrunc(v), wtrunc(m));
}

struct tnum tnum_unknown(void)
{
	return TNUM_C(0, W_MASK);
}

struct tnum tnum_lshift(struct tnum a, unsigned shift)
{
	if (shift >= 64)
		return mk(0, 0);
	return mk(a.value << shift, a.mask << shift);
}

struct tnum tnum_rshift(struct tnum a, unsigned shift)
{
	if (shift >= 64)
		return mk(0, 0);
	return mk(a.value >> shift, a.mask >> shift);
}

struct tnum tnum_arshift(struct tnum a, unsigned min_shift, unsigned bits)
{
	/* The sign bit of value and of mask are shifted in independently:
	 * an unknown sign gives unknown high bits, a known one copies it. */
	if (min_shift > 63)
		min_shift = 63;
	uint64_t bm = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	uint64_t v = (uint64_t)(sext_bits(a.value, bits) >> min_shift) & bm;
	uint64_t m = (uint64_t)(sext_bits(a.mask, bits) >> min_shift) & bm;
	return mk(v, m);
}

struct tnum tnum_add(struct tnum a, struct tnum b)
{
	uint64_t sm = a.mask + b.mask;
	uint64_t sv = a.value + b.value;
	uint64_t sigma = sm + sv;
	/* bits that may differ between the smallest and largest carry chains */
	uint64_t chi = sigma ^ sv;
	uint64_t mu = chi | a.mask | b.mask;
	return mk(sv & ~mu, mu);
}

struct tnum tnum_sub(struct tnum a, struct tnum b)
{
	uint64_t dv = a.value - b.value;
	uint64_t alpha = dv + a.mask;
	uint64_t beta = dv - b.mask;
	uint64_t chi = alpha ^ beta;
	uint64_t mu = chi | a.mask | b.mask;
	return mk(dv & ~mu, mu);
}

struct tnum tnum_neg(struct tnum a)
{
	return tnum_sub(TNUM_C(0, 0), a);
}

struct tnum tnum_and(struct tnum a, struct tnum b)
{
	uint64_t alpha = a.value | a.mask;
	uint64_t beta = b.value | b.mask;
	uint64_t v = a.value & b.value;
	return mk(v, alpha & beta & ~v);
}

struct tnum tnum_xor(struct tnum a, struct tnum b)
{
	uint64_t v = a.value ^ b.value;
	uint64_t mu = a.mask | b.mask;
	return mk(v & ~mu, mu);
}

struct tnum tnum_mul_ref(struct tnum a, struct tnum b)
{
	/* Schoolbook multiplication over a's bits, as the running 6.18.44
	 * kernel does it (measured: it reproduces its var_off after every
	 * MUL we tried): a certain 1 in a adds b shifted to that position;
	 * an uncertain bit gives either the sum so far or the sum plus the
	 * shifted b, so the accumulator becomes the union of both. */
	struct tnum acc = TNUM_C(0, 0);

	while (a.value || a.mask) {
		if (a.value & 1)
			acc = tnum_add(acc, b);
		else if (a.mask & 1)
			acc = tnum_union(acc, tnum_add(acc, b));
		a = tnum_rshift(a, 1);
		b = tnum_lshift(b, 1);
	}
	return acc;
}

/* tnum_mul_ref() with the same result, stopping once the rest of the loop
 * can change nothing: after i steps the shifted b has no bit below i, and
 * once every bit of the accumulator from i up is unknown, adding b keeps
 * it as it is (below i nothing is added and no carry starts; from i up
 * the sum's mask holds the accumulator's, all ones, and its value is 0
 * there, as in the accumulator: tnum_add and tnum_union always return
 * value & ~mask), and so does the union with itself. test_tnum's
 * test_mul_ref8 compares the two on every pair of 8-bit tnums. */
struct tnum tnum_mul(struct tnum a, struct tnum b)
{
	struct tnum acc = TNUM_C(0, 0);
	uint64_t low = 0; /* the bits below i */

	while (a.value || a.mask) {
		if (a.value & 1)
			acc = tnum_add(acc, b);
		else if (a.mask & 1)
			acc = tnum_union(acc, tnum_add(acc, b));
		a = tnum_rshift(a, 1);
		b = tnum_lshift(b, 1);
		low = low << 1 | 1;
		if ((acc.mask | low) == W_MASK)
			break;
	}
	return acc;
}

struct tnum tnum_union(struct tnum a, struct tnum b)
{
	uint64_t mu = a.mask | b.mask | (a.value ^ b.value);
	return mk(a.value & ~mu, mu);
}

struct tnum tnum_cast(struct tnum a, unsigned size)
{
	return tnum_cast_bits(a, W_SCALE(size * 8));
}

bool tnum_is_aligned(struct tnum a, uint64_t size)
{
	if (!size)
		return true;
	return !((a.value | a.mask) & (size - 1));
}

bool tnum_in(struct tnum a, struct tnum b)
{
	if (b.mask & ~a.mask)
		return false;
	return a.value == (b.value & ~a.mask);
}

struct tnum tnum_with_subreg(struct tnum reg, struct tnum subreg)
{
	return tnum_or(tnum_clear_subreg(reg), tnum_subreg(subreg));
}

struct tnum tnum_const_subreg(struct tnum a, uint64_t value)
{
	return tnum_with_subreg(a, tnum_const(value));
}

struct tnum tnum_bswap(struct tnum a, unsigned nbytes)
{
	return mk(w_bswap(a.value, nbytes), w_bswap(a.mask, nbytes));
}

struct tnum tnum_from_set(const uint64_t *vals, size_t n)
{
	if (n == 0)
		return TNUM_C(0, 0);
	uint64_t first = wtrunc(vals[0]), diff = 0;
	for (size_t i = 1; i < n; i++)
		diff |= first ^ wtrunc(vals[i]);
	return mk(first & ~diff, diff);
}

int tnum_strn(char *str, size_t size, struct tnum a)
{
	/* the kernel's %#llx prints 0x0 for zero, glibc's would print 0 */
	return snprintf(str, size, "(0x%llx; 0x%llx)", (unsigned long long)a.value,
			(unsigned long long)a.mask);
}

int tnum_sbin(char *str, size_t size, struct tnum a)
{
	for (size_t n = W_BITS; n; n--) {
		if (n < size)
			str[n - 1] = (a.mask & 1) ? 'x' : (a.value & 1) ? '1' : '0';
		a.mask >>= 1;
		a.value >>= 1;
	}
	if (size)
		str[size - 1 < W_BITS ? size - 1 : W_BITS] = 0;
	return W_BITS;
}

/* ---- Added for the cnum tracker: operations of mainline Linux after 6.18
 * (used by mainline verifier.c's is_scalar_branch_taken and
 * __update_reg64_bounds). Reimplemented from their documented meaning. */

/* a and b share a value iff they agree on every bit known in both */
bool tnum_overlap(struct tnum a, struct tnum b)
{
	uint64_t known = ~(a.mask | b.mask);
	return ((a.value ^ b.value) & known) == 0;
}

/* tnum_range() is inline (tnum.h); this copy lets a test call another
 * width's build (test_tnum's 64-bit examples) */
struct tnum RB_SYM(tnum_range_ool)(uint64_t min, uint64_t max);
struct tnum RB_SYM(tnum_range_ool)(uint64_t min, uint64_t max)
{
	return tnum_range(min, max);
}
