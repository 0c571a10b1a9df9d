/* arc.c — circular numbers, width-generic (see arc.h).
 *
 * Reimplements the semantics of mainline Linux (2026)
 * kernel/bpf/cnum_defs.h and kernel/bpf/cnum.c for any arc width; each
 * function names the mainline function it corresponds to.
 */
#include <stdlib.h>

#include "tracker/cnum/arc.h"

/* a full circle always gets base 0 (mainline normalize() does the same for
 * the results of add and negate) */
static struct cnum mk(uint64_t base, uint64_t size, unsigned bits)
{
	uint64_t m = cn_mask(bits);
	size &= m;
	if (size == m)
		return cnum_full(bits);
	return (struct cnum){base & m, size};
}

/* does the arc cross the 2^n-1 -> 0 point? (mainline urange_overflow) */
static bool crosses_umax(struct cnum a, unsigned bits)
{
	return a.size > cn_mask(bits) - a.base;
}

/* does the arc cross the S_MAX -> S_MIN point? (mainline srange_overflow) */
static bool crosses_smax(struct cnum a, unsigned bits)
{
	return cnum_contains(a, cn_smax_bits(bits), bits) &&
	       cnum_contains(a, cn_smin_bits(bits), bits);
}

/* mainline cnum{T}_from_urange */
struct cnum cnum_from_urange(uint64_t min, uint64_t max, unsigned bits)
{
	return mk(min, max - min, bits);
}

/* mainline cnum{T}_from_srange: the arc from smin clockwise to smax */
struct cnum cnum_from_srange(int64_t smin, int64_t smax, unsigned bits)
{
	return mk((uint64_t)smin, (uint64_t)smax - (uint64_t)smin, bits);
}

/* mainline cnum{T}_umin / cnum{T}_umax */
uint64_t cnum_umin(struct cnum a, unsigned bits)
{
	return crosses_umax(a, bits) ? 0 : a.base;
}

uint64_t cnum_umax(struct cnum a, unsigned bits)
{
	return crosses_umax(a, bits) ? cn_mask(bits) : a.base + a.size;
}

/* mainline cnum{T}_smin / cnum{T}_smax: an arc not crossing S_MAX -> S_MIN
 * is an increasing run of signed values from base to its end */
int64_t cnum_smin(struct cnum a, unsigned bits)
{
	if (crosses_smax(a, bits))
		return sext_bits(cn_smin_bits(bits), bits);
	int64_t b = sext_bits(a.base, bits), e = sext_bits(cnum_end(a, bits), bits);
	return b < e ? b : e;
}

int64_t cnum_smax(struct cnum a, unsigned bits)
{
	if (crosses_smax(a, bits))
		return sext_bits(cn_smax_bits(bits), bits);
	int64_t b = sext_bits(a.base, bits), e = sext_bits(cnum_end(a, bits), bits);
	return b > e ? b : e;
}

/* mainline cnum{T}_contains: v is in the arc iff its clockwise distance
 * from base is at most size */
bool cnum_contains(struct cnum a, uint64_t v, unsigned bits)
{
	if (cnum_is_empty(a, bits))
		return false;
	return ((v - a.base) & cn_mask(bits)) <= a.size;
}

/* mainline cnum{T}_intersect. Work in the frame where the arc with the
 * smaller base starts at 0: `a` is then [0, a.size] and `b` is
 * [d, d + b.size], which may run past 2^n - 1 and continue at 0. */
struct cnum cnum_intersect(struct cnum a, struct cnum b, unsigned bits)
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

/* smallest arc containing both a and b: either go clockwise from a's
 * start to b's end, or from b's start to a's end; whichever of the two
 * contains both and is shorter (neither: the arcs cover the circle) */
struct cnum cnum_hull(struct cnum a, struct cnum b, unsigned bits)
{
	if (cnum_is_empty(a, bits))
		return b;
	if (cnum_is_empty(b, bits))
		return a;
	if (cnum_is_subset(a, b, bits))
		return a;
	if (cnum_is_subset(b, a, bits))
		return b;
	struct cnum c1 = mk(a.base, cnum_end(b, bits) - a.base, bits);
	struct cnum c2 = mk(b.base, cnum_end(a, bits) - b.base, bits);
	bool ok1 = cnum_is_subset(c1, a, bits) && cnum_is_subset(c1, b, bits);
	bool ok2 = cnum_is_subset(c2, a, bits) && cnum_is_subset(c2, b, bits);
	if (ok1 && (!ok2 || c1.size <= c2.size))
		return c1;
	if (ok2)
		return c2;
	return cnum_full(bits);
}

/* mainline cnum{T}_is_subset: rotate so that `big` starts at 0; then
 * `small` must not wrap and must end within big */
bool cnum_is_subset(struct cnum big, struct cnum small, unsigned bits)
{
	const uint64_t m = cn_mask(bits);

	if (cnum_is_empty(small, bits))
		return true;
	if (cnum_is_empty(big, bits))
		return false;
	if (big.size == m)
		return true;
	uint64_t s = (small.base - big.base) & m;
	if (small.size > m - s)
		return false;
	return s + small.size <= big.size;
}

/* mainline cnum{T}_add: {a.base + b.base, a.size + b.size}, unbounded if
 * the sizes together exceed the circle */
struct cnum cnum_add(struct cnum a, struct cnum b, unsigned bits)
{
	if (cnum_is_empty(a, bits) || cnum_is_empty(b, bits))
		return cnum_empty(bits);
	if (a.size > cn_mask(bits) - b.size)
		return cnum_full(bits);
	return mk(a.base + b.base, a.size + b.size, bits);
}

/* mainline cnum{T}_negate: the arc's end becomes the new base */
struct cnum cnum_neg(struct cnum a, unsigned bits)
{
	if (cnum_is_empty(a, bits))
		return cnum_empty(bits);
	return mk(0 - (a.base + a.size), a.size, bits);
}

/* mainline scalar_min_max_sub: cnum_add(dst, cnum_negate(src)) */
struct cnum cnum_sub(struct cnum a, struct cnum b, unsigned bits)
{
	return cnum_add(a, cnum_neg(b, bits), bits);
}

/* unsigned / signed products of `bits`-wide values; true on overflow */
static bool umul_ov(uint64_t x, uint64_t y, unsigned bits, uint64_t *r)
{
	uint64_t p;
	bool ov = __builtin_mul_overflow(x, y, &p);
	*r = p & cn_mask(bits);
	return ov || p > cn_mask(bits);
}

static bool smul_ov(int64_t x, int64_t y, unsigned bits, int64_t *r)
{
	int64_t p;
	bool ov = __builtin_mul_overflow(x, y, &p);
	int64_t lo = sext_bits(cn_smin_bits(bits), bits), hi = (int64_t)cn_smax_bits(bits);
	*r = p;
	return ov || p < lo || p > hi;
}

/* mainline scalar_min_max_mul / scalar32_min_max_mul (verifier.c): the
 * product of the unsigned bounds and the four products of the signed
 * bounds, each unbounded on overflow, intersected */
struct cnum cnum_mul(struct cnum a, struct cnum b, unsigned bits)
{
	if (cnum_is_empty(a, bits) || cnum_is_empty(b, bits))
		return cnum_empty(bits);

	uint64_t umin, umax;
	if (umul_ov(cnum_umax(a, bits), cnum_umax(b, bits), bits, &umax) ||
	    umul_ov(cnum_umin(a, bits), cnum_umin(b, bits), bits, &umin)) {
		umin = 0;
		umax = cn_mask(bits);
	}

	int64_t as[2] = {cnum_smin(a, bits), cnum_smax(a, bits)};
	int64_t bs[2] = {cnum_smin(b, bits), cnum_smax(b, bits)};
	int64_t smin = 0, smax = 0;
	bool ov = false;
	for (int i = 0; i < 4; i++) {
		int64_t p;
		ov |= smul_ov(as[i >> 1], bs[i & 1], bits, &p);
		if (i == 0 || p < smin)
			smin = p;
		if (i == 0 || p > smax)
			smax = p;
	}
	if (ov) {
		smin = sext_bits(cn_smin_bits(bits), bits);
		smax = (int64_t)cn_smax_bits(bits);
	}
	return cnum_intersect(cnum_from_urange(umin, umax, bits),
			      cnum_from_srange(smin, smax, bits), bits);
}

/* mainline cnum32_from_cnum64: an arc of fewer than 2^nbits values keeps
 * its length in the low bits; a longer one covers every low pattern */
struct cnum cnum_narrow(struct cnum a, unsigned bits, unsigned nbits)
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
struct cnum cnum_widen_intersect(struct cnum a, unsigned bits, struct cnum b, unsigned nbits)
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

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

/* smallest arc over a set: sort, then cut the circle at its largest gap
 * (ties: the gap met first, starting with the one from the largest value
 * round to the smallest, so a set that fits [min, max] gets that arc) */
bool cnum_from_set(const uint64_t *vals, size_t n, unsigned bits, struct cnum *out)
{
	const uint64_t m = cn_mask(bits);

	if (n == 0) {
		*out = cnum_empty(bits);
		return true;
	}
	uint64_t *v = malloc(n * sizeof(*v));
	if (!v) {
		*out = cnum_full(bits);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = vals[i] & m;
	qsort(v, n, sizeof(*v), cmp_u64);

	/* the gap from v[n-1] round to v[0] (values strictly between) */
	uint64_t best_gap = (v[0] - v[n - 1] - 1) & m;
	if (v[0] == v[n - 1]) { /* a single distinct value */
		*out = cnum_const(v[0], bits);
		free(v);
		return true;
	}
	size_t best = 0; /* the arc starts at v[best] */
	for (size_t i = 1; i < n; i++) {
		if (v[i] == v[i - 1])
			continue;
		uint64_t gap = v[i] - v[i - 1] - 1;
		if (gap > best_gap) {
			best_gap = gap;
			best = i;
		}
	}
	/* the arc covers everything but the gap */
	*out = mk(v[best], m - best_gap, bits);
	free(v);
	return true;
}
