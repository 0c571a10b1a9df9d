/* arc.c — circular numbers, width-generic (see arc.h).
 *
 * Reimplements the semantics of mainline Linux (2026)
 * kernel/bpf/cnum_defs.h and kernel/bpf/cnum.c for any arc width; each
 * function names the mainline function it corresponds to.
 */
#include <stdlib.h>

#include "tracker/cnum/arc.h"
#include "tracker/valset.h"












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





/* mainline scalar_min_max_mul / scalar32_min_max_mul (verifier.c): the
 * product of the unsigned bounds and the four products of the signed
 * bounds, each unbounded on overflow, intersected. cnum_mul_ref() is that
 * sequence; cnum_mul_at() (arc.h) gives the same arcs with less work
 * (test_cnum_fast's test_mul_ref8 compares them on every pair of 4- and
 * 5-bit arcs and samples of 6- and 8-bit ones):
 *   - the product of the unsigned minimums cannot overflow when that of
 *     the maximums does not, so only the latter is checked;
 *   - a non-empty arc's signed bounds are its ends unless it crosses
 *     S_MAX -> S_MIN (then the whole signed range), as cnum_smin/smax
 *     compute them;
 *   - the four signed products stop at the first overflow;
 *   - a full arc intersected with another is the other, so the
 *     intersection runs only when neither product is unbounded. */
static inline __attribute__((always_inline)) struct cnum mul_ref(struct cnum a, struct cnum b, unsigned bits)
{
	if (cnum_is_empty(a, bits) || cnum_is_empty(b, bits))
		return cnum_empty(bits);

	uint64_t umin, umax;
	if (cnum_umul_ov(cnum_umax(a, bits), cnum_umax(b, bits), bits, &umax) ||
	    cnum_umul_ov(cnum_umin(a, bits), cnum_umin(b, bits), bits, &umin)) {
		umin = 0;
		umax = cn_mask(bits);
	}

	int64_t as[2] = {cnum_smin(a, bits), cnum_smax(a, bits)};
	int64_t bs[2] = {cnum_smin(b, bits), cnum_smax(b, bits)};
	int64_t smin = 0, smax = 0;
	for (int i = 0; i < 4; i++) {
		int64_t p;
		if (cnum_smul_ov(as[i >> 1], bs[i & 1], bits, &p)) {
			/* one overflow: the whole signed range (the others
			 * do not matter) */
			smin = sext_bits(cn_smin_bits(bits), bits);
			smax = (int64_t)cn_smax_bits(bits);
			break;
		}
		if (i == 0 || p < smin)
			smin = p;
		if (i == 0 || p > smax)
			smax = p;
	}
	return cnum_intersect(cnum_from_urange(umin, umax, bits),
			      cnum_from_srange(smin, smax, bits), bits);
}

/* compiled once per width the tracker uses, each with its masks and sign
 * bits constant (the generic one serves any other width) */
struct cnum cnum_mul(struct cnum a, struct cnum b, unsigned bits)
{
	if (bits == W_BITS)
		return cnum_mul_at(a, b, W_BITS);
	if (bits == H_BITS)
		return cnum_mul_at(a, b, H_BITS);
	return cnum_mul_at(a, b, bits);
}

struct cnum cnum_mul_ref(struct cnum a, struct cnum b, unsigned bits)
{
	return mul_ref(a, b, bits);
}



/* smallest arc over a set: sort, then cut the circle at its largest gap
 * (ties: the gap met first, starting with the one from the largest value
 * round to the smallest, so a set that fits [min, max] gets that arc) */
bool cnum_from_set(const uint64_t *vals, size_t n, unsigned bits, struct cnum *out)
{
	const uint64_t m = cn_mask(bits);
	uint64_t buf[RB_VALSET_BUF], *v;
	long k = rb_valset_sorted(vals, n, m, buf, &v);
	if (k == 0) {
		*out = cnum_empty(bits);
		return true;
	}
	if (k < 0) {
		*out = cnum_full(bits);
		return false;
	}
	if (k == 1) { /* a single distinct value */
		*out = cnum_const(v[0], bits);
		rb_valset_release(v, buf);
		return true;
	}
	/* the gap from v[k-1] round to v[0] (values strictly between) */
	uint64_t best_gap = (v[0] - v[k - 1] - 1) & m;
	long best = 0; /* the arc starts at v[best] */
	for (long i = 1; i < k; i++) {
		uint64_t gap = v[i] - v[i - 1] - 1;
		if (gap > best_gap) {
			best_gap = gap;
			best = i;
		}
	}
	/* the arc covers everything but the gap */
	*out = mk(v[best], m - best_gap, bits);
	rb_valset_release(v, buf);
	return true;
}
