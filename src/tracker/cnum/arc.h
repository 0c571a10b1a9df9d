/* arc.h — circular numbers ("cnums"): one wrapped range on the circle of
 * n-bit values, width-generic.
 *
 * The representation is the one mainline Linux merged in 2026 as
 * struct cnum64 / struct cnum32 (include/linux/cnum.h): an arc drawn
 * clockwise from `base`, covering base, base+1, ..., base+size (mod 2^n).
 * `size` EXCLUDES the base, so the full circle (2^n values) is size
 * 2^n - 1 and a constant is size 0. Two distinct sentinels:
 *   unbounded (full circle)  {0, 2^n - 1}
 *   empty                    {2^n - 1, 2^n - 1}
 * (A full circle is always kept with base 0 here, so that the empty
 * sentinel can never arise by accident and equal sets have equal
 * representations.)
 *
 * Every function takes the arc's width `bits` (1..64): the tracker uses
 * W_BITS for the full register ("cnum64" in the kernel) and H_BITS for the
 * subregister ("cnum32"). One implementation serves both widths at every
 * RB_BITS build; symbols get the build's width suffix through RB_SYM().
 * Signed values are passed sign-extended in int64_t, unsigned values
 * truncated to `bits`.
 *
 * Semantics follow mainline kernel/bpf/cnum_defs.h and kernel/bpf/cnum.c
 * (reimplemented from their description, not copied); the function
 * comments say which mainline function each one corresponds to.
 */
#ifndef RB_TRACKER_CNUM_ARC_H
#define RB_TRACKER_CNUM_ARC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracker/cnum/variant.h"
#include "tracker/width.h"

struct cnum {
	uint64_t base;
	uint64_t size;
};

/* all-ones of the arc's width */
static inline uint64_t cn_mask(unsigned bits)
{
	return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}
/* largest / smallest signed value, as unsigned bits */
static inline uint64_t cn_smax_bits(unsigned bits) { return cn_mask(bits) >> 1; }
static inline uint64_t cn_smin_bits(unsigned bits) { return (cn_mask(bits) >> 1) + 1; }

static inline struct cnum cnum_full(unsigned bits)
{
	return (struct cnum){0, cn_mask(bits)};
}
static inline struct cnum cnum_empty(unsigned bits)
{
	return (struct cnum){cn_mask(bits), cn_mask(bits)};
}
static inline struct cnum cnum_const(uint64_t v, unsigned bits)
{
	return (struct cnum){v & cn_mask(bits), 0};
}
static inline bool cnum_is_empty(struct cnum a, unsigned bits)
{
	return a.base == cn_mask(bits) && a.size == cn_mask(bits);
}
static inline bool cnum_is_full(struct cnum a, unsigned bits)
{
	return a.size == cn_mask(bits) && a.base != cn_mask(bits);
}
static inline bool cnum_is_const(struct cnum a) { return a.size == 0; }
static inline bool cnum_equal(struct cnum a, struct cnum b)
{
	return a.base == b.base && a.size == b.size;
}
/* last value of a (non-empty) arc */
static inline uint64_t cnum_end(struct cnum a, unsigned bits)
{
	return (a.base + a.size) & cn_mask(bits);
}

/* arc.c has nothing that RB_CNUM_MAINLINE_ALGOS changes: both builds of
 * the folder (variant.h) share its one copy, under RB_SYM()'s names (the
 * Makefile's VARIANT_cnum_mainline_SHARED) */
#define cnum_from_urange RB_SYM(cnum_from_urange)
#define cnum_from_srange RB_SYM(cnum_from_srange)
#define cnum_umin RB_SYM(cnum_umin)
#define cnum_umax RB_SYM(cnum_umax)
#define cnum_smin RB_SYM(cnum_smin)
#define cnum_smax RB_SYM(cnum_smax)
#define cnum_contains RB_SYM(cnum_contains)
#define cnum_intersect RB_SYM(cnum_intersect)
#define cnum_hull RB_SYM(cnum_hull)
#define cnum_is_subset RB_SYM(cnum_is_subset)
#define cnum_add RB_SYM(cnum_add)
#define cnum_neg RB_SYM(cnum_neg)
#define cnum_sub RB_SYM(cnum_sub)
#define cnum_mul RB_SYM(cnum_mul)
#define cnum_mul_ref RB_SYM(cnum_mul_ref)
#define cnum_narrow RB_SYM(cnum_narrow)
#define cnum_widen_intersect RB_SYM(cnum_widen_intersect)
#define cnum_from_set RB_SYM(cnum_from_set)
#define mk RB_SYM(cnum_mk)
#define crosses_umax RB_SYM(cnum_crosses_umax)
#define crosses_smax RB_SYM(cnum_crosses_smax)

/* The smallest arc containing both a and b (a join; not in mainline). */
struct cnum cnum_hull(struct cnum a, struct cnum b, unsigned bits);
/* a * b through the unsigned and signed bounds (mainline has no cnum
 * multiply: scalar_min_max_mul multiplies the converted bounds, falls back
 * to unbounded on overflow and intersects the two results). */
struct cnum cnum_mul(struct cnum a, struct cnum b, unsigned bits);
/* the same, step by step as mainline (the reference of cnum_mul) */
struct cnum cnum_mul_ref(struct cnum a, struct cnum b, unsigned bits);
/* The smallest arc containing every vals[i] (truncated to `bits`): the
 * complement of the largest circular gap between them. Empty for n == 0.
 * Returns false only if memory ran out (then *out is the full circle). */
bool cnum_from_set(const uint64_t *vals, size_t n, unsigned bits, struct cnum *out);

/* ---- the hot operations, inline so that the width is a constant at
 * each call (every sync of the engine and the census calls them):
 *   cnum_from_urange/srange  [min, max]; min > max gives the wrapping arc
 *   cnum_umin/umax/smin/smax the bounds an arc implies (an arc crossing
 *                            2^n-1 -> 0, resp. S_MAX -> S_MIN, gives the
 *                            whole range); undefined for the empty arc
 *   cnum_contains, cnum_is_subset (exact)
 *   cnum_intersect           a superset of a ∩ b that is one arc: exact
 *                            when the intersection is one arc, else the
 *                            smaller of a and b (as mainline)
 *   cnum_add/neg/sub         mainline cnum{T}_add/negate, sub = a + (-b)
 *   cnum_narrow              the low nbits of a bits-wide arc
 *                            (mainline cnum32_from_cnum64)
 *   cnum_widen_intersect     the tightest sub-arc of a whose low nbits
 *                            lie in b (mainline cnum64_cnum32_intersect)
 * ---- */

/* a full circle always gets base 0 (mainline normalize() does the same for
 * the results of add and negate) */
static inline struct cnum mk(uint64_t base, uint64_t size, unsigned bits)
{
	uint64_t m = cn_mask(bits);
	size &= m;
	if (size == m)
		return cnum_full(bits);
	return (struct cnum){base & m, size};
}

/* mainline cnum{T}_contains: v is in the arc iff its clockwise distance
 * from base is at most size */
static inline bool cnum_contains(struct cnum a, uint64_t v, unsigned bits)
{
	if (cnum_is_empty(a, bits))
		return false;
	return ((v - a.base) & cn_mask(bits)) <= a.size;
}

/* does the arc cross the 2^n-1 -> 0 point? (mainline urange_overflow) */
static inline bool crosses_umax(struct cnum a, unsigned bits)
{
	return a.size > cn_mask(bits) - a.base;
}

/* does the arc cross the S_MAX -> S_MIN point? (mainline srange_overflow:
 * it holds both). One test instead of two membership tests: a non-empty
 * arc shorter than the circle holds S_MAX and the value after it iff
 * S_MAX's clockwise distance from base is below size; a full circle
 * holds both; the empty arc neither. */
static inline bool crosses_smax(struct cnum a, unsigned bits)
{
	const uint64_t m = cn_mask(bits);
	if (a.size == m)
		return a.base != m;
	return ((cn_smax_bits(bits) - a.base) & m) < a.size;
}

/* mainline cnum{T}_from_urange */
static inline struct cnum cnum_from_urange(uint64_t min, uint64_t max, unsigned bits)
{
	return mk(min, max - min, bits);
}

/* mainline cnum{T}_from_srange: the arc from smin clockwise to smax */
static inline struct cnum cnum_from_srange(int64_t smin, int64_t smax, unsigned bits)
{
	return mk((uint64_t)smin, (uint64_t)smax - (uint64_t)smin, bits);
}

/* mainline cnum{T}_umin / cnum{T}_umax */
static inline uint64_t cnum_umin(struct cnum a, unsigned bits)
{
	return crosses_umax(a, bits) ? 0 : a.base;
}

static inline uint64_t cnum_umax(struct cnum a, unsigned bits)
{
	return crosses_umax(a, bits) ? cn_mask(bits) : a.base + a.size;
}

/* mainline cnum{T}_smin / cnum{T}_smax: an arc not crossing S_MAX -> S_MIN
 * is an increasing run of signed values from base to its end */
static inline int64_t cnum_smin(struct cnum a, unsigned bits)
{
	if (crosses_smax(a, bits))
		return sext_bits(cn_smin_bits(bits), bits);
	int64_t b = sext_bits(a.base, bits), e = sext_bits(cnum_end(a, bits), bits);
	return b < e ? b : e;
}

static inline int64_t cnum_smax(struct cnum a, unsigned bits)
{
	if (crosses_smax(a, bits))
		return sext_bits(cn_smax_bits(bits), bits);
	int64_t b = sext_bits(a.base, bits), e = sext_bits(cnum_end(a, bits), bits);
	return b > e ? b : e;
}

/* mainline cnum{T}_is_subset: rotate so that `big` starts at 0; then
 * `small` must not wrap and must end within big. The two sentinels first
 * (each a size of 2^n - 1): a full `big` holds everything, an empty one
 * only the empty arc; a `small` of that size is empty (a subset of
 * anything) or full (of no shorter arc). */
static inline bool cnum_is_subset(struct cnum big, struct cnum small, unsigned bits)
{
	const uint64_t m = cn_mask(bits);

	if (big.size == m)
		return big.base != m || (small.base == m && small.size == m);
	if (small.size == m)
		return small.base == m;
	uint64_t s = (small.base - big.base) & m;
	return s <= big.size && small.size <= big.size - s;
}

/* mainline cnum{T}_intersect. Work in the frame where the arc with the
 * smaller base starts at 0: `a` is then [0, a.size] and `b` is
 * [d, d + b.size], which may run past 2^n - 1 and continue at 0. */
static inline struct cnum cnum_intersect(struct cnum a, struct cnum b, unsigned bits)
{
	const uint64_t m = cn_mask(bits);

	if (cnum_is_empty(a, bits) || cnum_is_empty(b, bits))
		return cnum_empty(bits);
	if (a.base > b.base) {
		struct cnum t = a;
		a = b;
		b = t;
	}
	uint64_t d = b.base - a.base;
	if (b.size > m - d) {
		/* b covers [d, 2^n-1] and wraps to [0, tail] */
		uint64_t tail = (d + b.size) & m;
		if (d <= a.size) /* a meets both pieces of b: two arcs */
			return a.size <= b.size ? a : b;
		/* a meets only the wrapped-around piece */
		return mk(a.base, a.size < tail ? a.size : tail, bits);
	}
	if (d <= a.size) {
		uint64_t room = a.size - d;
		return mk(b.base, room < b.size ? room : b.size, bits);
	}
	return cnum_empty(bits);
}

/* mainline cnum{T}_add: {a.base + b.base, a.size + b.size}, unbounded if
 * the sizes together exceed the circle */
static inline struct cnum cnum_add(struct cnum a, struct cnum b, unsigned bits)
{
	if (cnum_is_empty(a, bits) || cnum_is_empty(b, bits))
		return cnum_empty(bits);
	if (a.size > cn_mask(bits) - b.size)
		return cnum_full(bits);
	return mk(a.base + b.base, a.size + b.size, bits);
}

/* mainline cnum{T}_negate: the arc's end becomes the new base */
static inline struct cnum cnum_neg(struct cnum a, unsigned bits)
{
	if (cnum_is_empty(a, bits))
		return cnum_empty(bits);
	return mk(0 - (a.base + a.size), a.size, bits);
}

/* mainline scalar_min_max_sub: cnum_add(dst, cnum_negate(src)) */
static inline struct cnum cnum_sub(struct cnum a, struct cnum b, unsigned bits)
{
	return cnum_add(a, cnum_neg(b, bits), bits);
}

/* mainline cnum32_from_cnum64: an arc of fewer than 2^nbits values keeps
 * its length in the low bits; a longer one covers every low pattern */
static inline struct cnum cnum_narrow(struct cnum a, unsigned bits, unsigned nbits)
{
	if (cnum_is_empty(a, bits))
		return cnum_empty(nbits);
	if (a.size >= cn_mask(nbits))
		return cnum_full(nbits);
	return mk(a.base, a.size, nbits);
}

/* mainline cnum64_cnum32_intersect, derived afresh. Number the values of
 * `a` by their offset k = 0..a.size from a.base. The low part of
 * a.base + k is in b iff (k mod 2^nbits) is in b1, b rotated so that
 * low(a.base) is 0. The result runs from the first such k to the last. */
static inline struct cnum cnum_widen_intersect(struct cnum a, unsigned bits, struct cnum b, unsigned nbits)
{
	const uint64_t hm = cn_mask(nbits);

	if (cnum_is_empty(a, bits) || cnum_is_empty(b, nbits))
		return cnum_empty(bits);
	if (b.size == hm) /* every low pattern allowed */
		return a;
	struct cnum b1 = {(b.base - a.base) & hm, b.size};
	bool b1_wraps = b1.size > hm - b1.base; /* b1 holds 2^nbits-1 and 0 */
	uint64_t b1_end = (b1.base + b1.size) & hm;
	uint64_t b1_max = b1_wraps ? hm : b1_end; /* largest element of b1 */

	/* first offset: 0 if b1 holds 0, else b1's base */
	uint64_t first = (b1_wraps || b1.base == 0) ? 0 : b1.base;
	if (first > a.size)
		return cnum_empty(bits);

	/* last offset: in the block of 2^nbits offsets holding a.size, the
	 * largest element of b1 not above a.size's low part, else the
	 * largest element of b1 in the block before */
	uint64_t q = a.size & hm, blk = a.size - q, last;
	if (cnum_contains(b1, q, nbits)) {
		last = a.size;
	} else if (b1_wraps) {
		last = blk + b1_end; /* q lies in the gap after b1's tail */
	} else if (q > b1_end) {
		last = blk + b1_end;
	} else { /* q < b1.base: nothing of b1 in this block */
		if (blk == 0)
			return cnum_empty(bits);
		last = blk - (hm + 1) + b1_max;
	}
	if (last < first)
		return cnum_empty(bits);
	return mk(a.base + first, last - first, bits);
}

/* unsigned / signed products of `bits`-wide values; true on overflow */
static inline bool cnum_umul_ov(uint64_t x, uint64_t y, unsigned bits, uint64_t *r)
{
	uint64_t p;
	bool ov = __builtin_mul_overflow(x, y, &p);
	*r = p & cn_mask(bits);
	return ov || p > cn_mask(bits);
}

static inline bool cnum_smul_ov(int64_t x, int64_t y, unsigned bits, int64_t *r)
{
	int64_t p;
	bool ov = __builtin_mul_overflow(x, y, &p);
	int64_t lo = sext_bits(cn_smin_bits(bits), bits), hi = (int64_t)cn_smax_bits(bits);
	*r = p;
	return ov || p < lo || p > hi;
}

/* a * b (cnum_mul, see arc.c), inline for callers that multiply at a
 * constant width */
static inline __attribute__((always_inline)) struct cnum cnum_mul_at(struct cnum a, struct cnum b, unsigned bits)
{
	const uint64_t m = cn_mask(bits);
	if (cnum_is_empty(a, bits) || cnum_is_empty(b, bits))
		return cnum_empty(bits);

	struct cnum u = cnum_full(bits), s = cnum_full(bits);
	uint64_t umax;
	if (!cnum_umul_ov(crosses_umax(a, bits) ? m : a.base + a.size, crosses_umax(b, bits) ? m : b.base + b.size,
		     bits, &umax)) {
		uint64_t umin = (crosses_umax(a, bits) ? 0 : a.base) * (crosses_umax(b, bits) ? 0 : b.base);
		u = cnum_from_urange(umin, umax, bits);
	}

	const int64_t smn = sext_bits(cn_smin_bits(bits), bits), smx = (int64_t)cn_smax_bits(bits);
	/* crosses_smax() of a non-empty arc: the full circle (size m, base
	 * 0) passes the test too */
	bool ca = ((cn_smax_bits(bits) - a.base) & m) < a.size, cb = ((cn_smax_bits(bits) - b.base) & m) < b.size;
	int64_t a0 = ca ? smn : sext_bits(a.base, bits), a1 = ca ? smx : sext_bits(cnum_end(a, bits), bits);
	int64_t b0 = cb ? smn : sext_bits(b.base, bits), b1 = cb ? smx : sext_bits(cnum_end(b, bits), bits);
	int64_t p0, p1, p2, p3;
	if (!cnum_smul_ov(a0, b0, bits, &p0) && !cnum_smul_ov(a0, b1, bits, &p1) && !cnum_smul_ov(a1, b0, bits, &p2) &&
	    !cnum_smul_ov(a1, b1, bits, &p3)) {
		int64_t lo01 = p0 < p1 ? p0 : p1, hi01 = p0 < p1 ? p1 : p0;
		int64_t lo23 = p2 < p3 ? p2 : p3, hi23 = p2 < p3 ? p3 : p2;
		s = cnum_from_srange(lo01 < lo23 ? lo01 : lo23, hi01 < hi23 ? hi23 : hi01, bits);
	}
	if (s.size == m)
		return u;
	if (u.size == m)
		return s;
	return cnum_intersect(u, s, bits);
}

#endif
