/* pieces.c — two-arc sets: intersection into pieces, the canonical pair,
 * best pair of a set, and exact bounds under a tnum. See pieces.h. */
#include <stdlib.h>

#include "tracker/arc2/pieces.h"
#include "tracker/valset.h"

static uint64_t umin_(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* out->p[out->n++] := {base, size}, field by field (a whole-struct copy
 * of a by-value argument went through the stack and stalled) */
static inline void put(struct a2_list *out, uint64_t base, uint64_t size)
{
	out->p[out->n].base = base;
	out->p[out->n].size = size;
	out->n++;
}

/* appends the pieces of a ∩ b (at most two) to out */
static void pieces_append(struct cnum a, struct cnum b, unsigned bits, struct a2_list *out)
{
	const uint64_t m = cn_mask(bits);
	if (cnum_is_empty(a, bits) || cnum_is_empty(b, bits))
		return;
	if (cnum_is_full(a, bits)) {
		put(out, b.base, b.size);
		return;
	}
	if (cnum_is_full(b, bits)) {
		put(out, a.base, a.size);
		return;
	}
	uint64_t d = (b.base - a.base) & m; /* b's start, counted from a's */
	if (d <= a.size) {
		/* b starts inside a */
		uint64_t len1 = umin_(a.size - d, b.size);
		unsigned first = out->n;
		put(out, b.base, len1);
		/* b runs on round the circle back into a's start? */
		if (d > 0 && b.size > m - d) {
			uint64_t rest = b.size - (m - d + 1); /* offsets 0..rest of a */
			uint64_t len2 = umin_(rest, a.size);
			if (len2 + 1 == d) { /* touches the first piece: one piece */
				out->p[first].base = a.base;
				out->p[first].size = d + len1;
			} else {
				put(out, a.base, len2);
			}
		}
		return;
	}
	uint64_t e = (a.base - b.base) & m; /* a's start, counted from b's */
	if (e <= b.size)
		put(out, a.base, umin_(a.size, b.size - e));
}

void a2_pieces(struct cnum a, struct cnum b, unsigned bits, struct a2_list *out)
{
	out->n = 0;
	pieces_append(a, b, bits, out);
}

void a2_list_meet_arc(struct a2_list *l, struct cnum c, unsigned bits)
{
	struct a2_list r;
	r.n = 0;
	for (unsigned i = 0; i < l->n; i++) {
		if (r.n + 2 <= A2_MAX_PIECES) {
			pieces_append(l->p[i], c, bits, &r);
			continue;
		}
		struct a2_list q;
		a2_pieces(l->p[i], c, bits, &q);
		for (unsigned j = 0; j < q.n && r.n < A2_MAX_PIECES; j++)
			r.p[r.n++] = q.p[j];
	}
	l->n = r.n;
	for (unsigned i = 0; i < r.n; i++)
		l->p[i] = r.p[i];
}

/* pieces in increasing base order (a list has at most A2_MAX_PIECES
 * pieces, distinct bases: an insertion sort) */
static void sort_by_base(struct cnum *p, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		struct cnum x = p[i];
		unsigned j = i;
		for (; j > 0 && p[j - 1].base > x.base; j--)
			p[j] = p[j - 1];
		p[j] = x;
	}
}

/* values strictly between the end of p and the start of q (clockwise) */
static uint64_t gap(struct cnum p, struct cnum q, unsigned bits)
{
	return (q.base - cnum_end(p, bits) - 1) & cn_mask(bits);
}

bool a2_first_in(struct tnum t, uint64_t lo, uint64_t hi, uint64_t *x)
{
	uint64_t y = lo;
	if (!tnum_contains(t, lo)) {
		y = tnum_step(t, lo);
		if (y <= lo)
			return false;
	}
	if (y > hi)
		return false;
	*x = y;
	return true;
}

/* has [l0, l1] (low parts, l0 <= l1) a member of an inner piece and of
 * the tnum's low part? */
static bool lows_may_hold(uint64_t l0, uint64_t l1, const struct a2_ctx *cx)
{
	const unsigned ib = cx->inner_bits;
	struct tnum tl = {cx->t.value & cn_mask(ib), cx->t.mask & cn_mask(ib)};
	struct cnum r = {l0, l1 - l0};
	uint64_t x;
	for (unsigned i = 0; i < cx->inner->n; i++) {
		struct a2_list q;
		a2_pieces(r, cx->inner->p[i], ib, &q);
		for (unsigned j = 0; j < q.n; j++) {
			uint64_t e = cnum_end(q.p[j], ib);
			if (q.p[j].base <= e ? a2_first_in(tl, q.p[j].base, e, &x)
					     : a2_first_in(tl, q.p[j].base, cn_mask(ib), &x) || a2_first_in(tl, 0, e, &x))
				return true;
		}
	}
	return false;
}

/* has [lo, hi] (lo <= hi, full width) a member of the tnum whose low part
 * is in an inner piece? Exact: the range is a partial block of low parts,
 * whole blocks, and a partial block. */
static bool range_may_hold(uint64_t lo, uint64_t hi, const struct a2_ctx *cx)
{
	const unsigned ib = cx->inner_bits;
	const uint64_t lm = cn_mask(ib);
	struct tnum th = {cx->t.value >> ib, cx->t.mask >> ib};
	uint64_t h0 = lo >> ib, h1 = hi >> ib, x;
	if (h0 == h1)
		return tnum_contains(th, h0) && lows_may_hold(lo & lm, hi & lm, cx);
	if (tnum_contains(th, h0) && lows_may_hold(lo & lm, lm, cx))
		return true;
	if (tnum_contains(th, h1) && lows_may_hold(0, hi & lm, cx))
		return true;
	return h1 - h0 > 1 && a2_first_in(th, h0 + 1, h1 - 1, &x) && lows_may_hold(0, lm, cx);
}

/* May the values strictly between pieces p and q hold a member? Not if
 * the tnum has none there, nor (for the subregister) if no piece of the
 * full-width set has low halves there. */
static bool gap_may_hold(struct cnum p, struct cnum q, unsigned bits, const struct a2_ctx *cx)
{
	const uint64_t m = cn_mask(bits);
	uint64_t g = gap(p, q, bits), x;
	if (!g)
		return false;
	struct cnum ga = {(cnum_end(p, bits) + 1) & m, g - 1};
	bool tmember;
	if (ga.base + ga.size <= m)
		tmember = a2_first_in(cx->t, ga.base, ga.base + ga.size, &x);
	else
		tmember = a2_first_in(cx->t, ga.base, m, &x) || a2_first_in(cx->t, 0, cnum_end(ga, bits), &x);
	if (!tmember)
		return false;
	if (cx->outer) {
		bool any = false;
		for (unsigned i = 0; i < cx->outer->n && !any; i++) {
			struct cnum lo = cnum_narrow(cx->outer->p[i], cx->outer_bits, bits);
			struct a2_list q2;
			a2_pieces(lo, ga, bits, &q2);
			any = q2.n > 0;
		}
		if (!any)
			return false;
	}
	if (cx->inner) {
		/* a member's low part lies in an inner piece and in the tnum's
		 * low part, its high part in the tnum's high part */
		uint64_t end = cnum_end(ga, bits);
		if (ga.base <= end)
			return range_may_hold(ga.base, end, cx);
		return range_may_hold(ga.base, m, cx) || range_may_hold(0, end, cx);
	}
	return true;
}

/* are the values strictly between p and q inside one piece of k? (k's
 * pieces are disjoint and not adjacent, so inside their union) */
static bool gap_inside(struct cnum p, struct cnum q, unsigned bits, const struct a2_list *k)
{
	const uint64_t m = cn_mask(bits);
	uint64_t g = gap(p, q, bits);
	if (!g)
		return false;
	struct cnum ga = {(cnum_end(p, bits) + 1) & m, g - 1};
	for (unsigned i = 0; i < k->n; i++)
		if (cnum_is_subset(k->p[i], ga, bits))
			return true;
	return false;
}

void a2_canon(const struct a2_list *l, unsigned bits, const struct a2_ctx *cx, struct cnum *a, struct cnum *b)
{
	const uint64_t m = cn_mask(bits);
	struct a2_list s = *l;
	if (s.n == 0) {
		*a = *b = cnum_empty(bits);
		return;
	}
	sort_by_base(s.p, s.n);
	/* merge touching neighbours, then (beyond two pieces) across a gap
	 * that holds no member, else across the smallest gap */
	for (;;) {
		unsigned best = 0;
		uint64_t g = UINT64_MAX;
		bool free_gap = false;
		for (unsigned i = 0; s.n > 1 && i < s.n; i++) {
			uint64_t gi = gap(s.p[i], s.p[(i + 1) % s.n], bits);
			if (gi < g)
				g = gi, best = i;
		}
		if (s.n > 2 && g != 0 && cx) {
			for (unsigned i = 0; i < s.n && !free_gap; i++)
				if (!gap_may_hold(s.p[i], s.p[(i + 1) % s.n], bits, cx))
					free_gap = true, best = i;
			/* no free gap: give up the smallest gap inside cx->keep
			 * and cx->keep2, else inside cx->keep, so that a set
			 * they hold exactly stays held */
			for (int both = 1; both >= 0 && !free_gap && cx->keep; both--) {
				uint64_t gk = UINT64_MAX;
				for (unsigned i = 0; i < s.n; i++) {
					struct cnum p = s.p[i], q = s.p[(i + 1) % s.n];
					uint64_t gi = gap(p, q, bits);
					if (gi < gk && gap_inside(p, q, bits, cx->keep) &&
					    (!both || (cx->keep2 && gap_inside(p, q, bits, cx->keep2))))
						gk = gi, best = i;
				}
				if (gk != UINT64_MAX)
					break;
			}
		}
		if (s.n <= 1 || (s.n <= 2 && g != 0))
			break;
		unsigned j = (best + 1) % s.n;
		if (s.n == 2 && g == 0 && gap(s.p[j], s.p[best], bits) == 0) {
			s.n = 1; /* the two pieces close the circle */
			s.p[0] = cnum_full(bits);
			break;
		}
		struct cnum merged = {s.p[best].base, (cnum_end(s.p[j], bits) - s.p[best].base) & m};
		s.p[best] = merged;
		for (unsigned k = j; k + 1 < s.n; k++)
			s.p[k] = s.p[k + 1];
		s.n--;
		if (j < best) /* merged across the wrap: the piece moved down */
			sort_by_base(s.p, s.n);
	}
	if (s.n == 1) {
		if (s.p[0].size == m) {
			*a = *b = cnum_full(bits);
		} else {
			*a = s.p[0];
			*b = cnum_full(bits);
		}
		return;
	}
	struct cnum p = s.p[0], q = s.p[1];
	*a = (struct cnum){p.base, (cnum_end(q, bits) - p.base) & m};
	*b = (struct cnum){q.base, (cnum_end(p, bits) - q.base) & m};
}

/* the smallest tnum holding t's members and x */
static struct tnum tnum_or_value(struct tnum t, uint64_t x)
{
	uint64_t diff = (t.value ^ x) & ~t.mask;
	t.mask |= diff;
	t.value &= ~t.mask;
	return t;
}

/* how many members of t (width bits) are <= x; a double (2^64 members
 * do not fit a uint64_t), exact up to 2^53 */
static double count_le(struct tnum t, uint64_t x, unsigned bits)
{
	double n = 0;
	if (bits == 0)
		return 1;
	/* k: the unknown bits of t below bit i, kept as i goes down (one
	 * popcount, not one per bit); 2^k for k <= 63 is exact as a double
	 * from the shifted integer, as ldexp(1.0, k) gave it (census and
	 * test_arc2 spent a third of their time in ldexp and popcount here) */
	unsigned k = (unsigned)__builtin_popcountll(t.mask & ((UINT64_C(1) << (bits - 1)) - 1));
	for (int i = (int)bits - 1; i >= 0; i--) {
		uint64_t bit = UINT64_C(1) << i;
		if (i < (int)bits - 1 && (t.mask & bit))
			k--; /* bit i was counted below bit i + 1 */
		double below = (double)(UINT64_C(1) << k);
		int xb = !!(x & bit);
		if (t.mask & bit) {
			if (xb)
				n += below; /* this bit 0: every choice below is smaller */
			else
				continue; /* must be 0 to stay <= x */
		} else {
			int vb = !!(t.value & bit);
			if (vb < xb)
				return n + below;
			if (vb > xb)
				return n;
		}
	}
	return n + 1; /* x itself is a member */
}

/* members of t strictly between a and b (a circular gap after a) */
static double gap_members(struct tnum t, uint64_t a, uint64_t b, unsigned bits)
{
	const uint64_t m = cn_mask(bits);
	uint64_t lo = (a + 1) & m, hi = (b - 1) & m;
	if (((b - a - 1) & m) == 0)
		return 0;
	if (lo <= hi)
		return count_le(t, hi, bits) - (lo ? count_le(t, lo - 1, bits) : 0);
	return count_le(t, hi, bits) + count_le(t, m, bits) - count_le(t, lo - 1, bits);
}

/* members of tl (width ib) in [a, b] ∩ [l0, l1] */
static double lows_in(struct tnum tl, uint64_t a, uint64_t b, uint64_t l0, uint64_t l1, unsigned ib)
{
	uint64_t x = a > l0 ? a : l0, y = b < l1 ? b : l1;
	if (x > y)
		return 0;
	return count_le(tl, y, ib) - (x ? count_le(tl, x - 1, ib) : 0);
}

/* members x of t (width bits) in [lo, hi] (lo <= hi) whose low ib bits
 * are in [l0, l1] (l0 <= l1) */
static double count_range_lows(struct tnum t, uint64_t lo, uint64_t hi, uint64_t l0, uint64_t l1, unsigned bits,
			       unsigned ib)
{
	const uint64_t lm = cn_mask(ib);
	struct tnum th = {t.value >> ib, t.mask >> ib}, tl = {t.value & lm, t.mask & lm};
	uint64_t h0 = lo >> ib, h1 = hi >> ib;
	double n;
	if (h0 == h1) {
		n = tnum_contains(th, h0) ? lows_in(tl, lo & lm, hi & lm, l0, l1, ib) : 0;
	} else {
		n = tnum_contains(th, h0) ? lows_in(tl, lo & lm, lm, l0, l1, ib) : 0;
		n += tnum_contains(th, h1) ? lows_in(tl, 0, hi & lm, l0, l1, ib) : 0;
		if (h1 - h0 > 1)
			n += (count_le(th, h1 - 1, bits - ib) - count_le(th, h0, bits - ib)) * lows_in(tl, 0, lm, l0, l1, ib);
	}
	return n;
}

/* members of cx->t (full width) in cx->outer's pieces whose low `bits`
 * bits lie strictly between a and b (a circular gap of low parts) */
static double gap_members_outer(const struct a2_ctx *cx, uint64_t a, uint64_t b, unsigned bits)
{
	const uint64_t m = cn_mask(bits);
	if (((b - a - 1) & m) == 0)
		return 0;
	uint64_t lr[2][2];
	unsigned nl = a2_circ_runs((a + 1) & m, (b - 1) & m, m, lr);
	double n = 0;
	for (unsigned i = 0; i < cx->outer->n; i++) {
		uint64_t pr[2][2];
		unsigned np = a2_arc_runs(cx->outer->p[i], cx->outer_bits, pr);
		for (unsigned x = 0; x < np; x++)
			for (unsigned y = 0; y < nl; y++)
				n += count_range_lows(cx->t, pr[x][0], pr[x][1], lr[y][0], lr[y][1], cx->outer_bits, bits);
	}
	return n;
}

/* members of cx->t (width bits) strictly between a and b whose low
 * cx->inner_bits bits lie in a piece of cx->inner */
static double gap_members_inner(const struct a2_ctx *cx, uint64_t a, uint64_t b, unsigned bits)
{
	const uint64_t m = cn_mask(bits);
	if (((b - a - 1) & m) == 0)
		return 0;
	uint64_t gr[2][2];
	unsigned ng = a2_circ_runs((a + 1) & m, (b - 1) & m, m, gr);
	double n = 0;
	for (unsigned i = 0; i < cx->inner->n; i++) {
		uint64_t pr[2][2];
		unsigned np = a2_arc_runs(cx->inner->p[i], cx->inner_bits, pr);
		for (unsigned x = 0; x < ng; x++)
			for (unsigned y = 0; y < np; y++)
				n += count_range_lows(cx->t, gr[x][0], gr[x][1], pr[y][0], pr[y][1], bits, cx->inner_bits);
	}
	return n;
}

bool a2_from_set(const uint64_t *vals, size_t n, unsigned bits, const struct a2_ctx *cx, struct cnum *a,
		 struct cnum *b)
{
	const uint64_t m = cn_mask(bits);
	uint64_t buf[RB_VALSET_BUF], *v;
	long nv = rb_valset_sorted(vals, n, m, buf, &v);
	if (nv == 0) {
		*a = *b = cnum_empty(bits);
		return true;
	}
	if (nv < 0) {
		*a = *b = cnum_full(bits);
		return false;
	}
	size_t k = (size_t)nv;
	/* the gaps given up: after v[g1], the largest (the wrap-around gap
	 * after v[k-1] is looked at first and ties keep the first seen, so it
	 * is the gap cnum_from_set drops), and after v[g2], of the others the
	 * one holding the most members of the set's tnum (they are what a
	 * gap takes out of the set's gamma), the larger on ties */
	struct tnum t = {v[0], 0};
	for (size_t i = 1; i < k; i++)
		t = tnum_or_value(t, v[i]);
	size_t g1 = k, g2 = k;
	uint64_t s1 = 0, s2 = 0;
	double w2 = -1;
	for (size_t j = 0; j < k; j++) {
		size_t i = (j + k - 1) % k;
		uint64_t g = (v[(i + 1) % k] - v[i] - 1) & m;
		if (k == 1)
			g = m; /* one value: everything else is the gap */
		if (g > s1)
			s1 = g, g1 = i;
	}
	for (size_t i = 0; i < k && k > 1; i++) {
		uint64_t g = (v[(i + 1) % k] - v[i] - 1) & m;
		if (i == g1 || g == 0)
			continue;
		double w = cx && cx->outer   ? gap_members_outer(cx, v[i], v[(i + 1) % k], bits)
			   : cx && cx->inner ? gap_members_inner(cx, v[i], v[(i + 1) % k], bits)
					     : gap_members(t, v[i], v[(i + 1) % k], bits);
		if (w > w2 || (w == w2 && g > s2))
			w2 = w, s2 = g, g2 = i;
	}
	struct a2_list l = {0};
	if (g1 == k) {
		l.n = 1; /* no gap: every value */
		l.p[0] = cnum_full(bits);
	} else if (g2 == k) {
		l.n = 1;
		l.p[0] = (struct cnum){v[(g1 + 1) % k], (v[g1] - v[(g1 + 1) % k]) & m};
	} else {
		l.n = 2;
		l.p[0] = (struct cnum){v[(g1 + 1) % k], (v[g2] - v[(g1 + 1) % k]) & m};
		l.p[1] = (struct cnum){v[(g2 + 1) % k], (v[g1] - v[(g2 + 1) % k]) & m};
	}
	rb_valset_release(v, buf);
	a2_canon(&l, bits, NULL, a, b);
	return true;
}

struct cnum a2_hull(const struct a2_list *l, unsigned bits)
{
	const uint64_t m = cn_mask(bits);
	if (l->n == 0)
		return cnum_empty(bits);
	if (l->n == 1)
		return l->p[0];
	struct a2_list s = *l;
	sort_by_base(s.p, s.n);
	/* drop the largest gap */
	unsigned best = 0;
	uint64_t g = 0;
	for (unsigned i = 0; i < s.n; i++) {
		uint64_t gi = gap(s.p[i], s.p[(i + 1) % s.n], bits);
		if (i == 0 || gi > g)
			g = gi, best = i;
	}
	unsigned first = (best + 1) % s.n;
	return (struct cnum){s.p[first].base, (cnum_end(s.p[best], bits) - s.p[first].base) & m};
}

unsigned a2_hulls(const struct a2_list *l, unsigned bits, struct cnum out[2])
{
	const uint64_t m = cn_mask(bits);
	out[0] = a2_hull(l, bits);
	if (l->n != 2)
		return 1;
	struct cnum p = l->p[0], q = l->p[1];
	if (gap(p, q, bits) != gap(q, p, bits))
		return 1;
	/* equal gaps: the arc from p to q and the one from q to p */
	struct cnum x = {p.base, (cnum_end(q, bits) - p.base) & m};
	struct cnum y = {q.base, (cnum_end(p, bits) - q.base) & m};
	out[0] = x;
	out[1] = y;
	return 2;
}

/* through the complement: the members of {~value & ~mask, mask} are the
 * complements of t's */
bool a2_last_in(struct tnum t, uint64_t lo, uint64_t hi, unsigned bits, uint64_t *x)
{
	const uint64_t m = cn_mask(bits);
	struct tnum c = {~t.value & ~t.mask & m, t.mask & m};
	uint64_t y;
	if (!a2_first_in(c, m ^ hi, m ^ lo, &y))
		return false;
	*x = m ^ y;
	return true;
}
