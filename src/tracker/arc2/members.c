/* members.c — the exact bounds of an arc2 value's set.
 *
 * The set is every x that is a member of the tnum, lies in the full
 * width's pieces and whose low half lies in the subregister's pieces.
 * Each width's pieces alone hold more (a subregister pair may admit a low
 * half no full-width member has), so the bounds are found over the
 * members themselves: a non-wrapping full-width range is one partial
 * block of low halves, whole blocks (every high half the tnum allows
 * between), and one partial block; the tnum's high and low parts are
 * independent, so each block's extreme members are found directly.
 * Converting to old's fields with these bounds gives old exactly what
 * its own from_set of the same set would (old's transfer functions then
 * see equal inputs).
 */
#include "tracker/arc2/arc2.h"

/* what a scan found: extreme members and extreme low halves */
struct scan {
	bool any;
	uint64_t xmin, xmax, lmin, lmax;
};

/* the least and greatest member of tl (width H_BITS) in [a, b] and in
 * one of L's pieces */
static bool low_ext(struct tnum tl, const struct a2_list *L, uint64_t a, uint64_t b, uint64_t *lo, uint64_t *hi,
		    bool first_only)
{
	bool any = false;
	for (unsigned i = 0; i < L->n; i++) {
		uint64_t rr[2][2];
		unsigned nr = a2_arc_runs(L->p[i], H_BITS, rr);
		for (unsigned j = 0; j < nr; j++) {
			uint64_t c = rr[j][0] > a ? rr[j][0] : a, d = rr[j][1] < b ? rr[j][1] : b, x, y = 0;
			if (c > d || !a2_first_in(tl, c, d, &x))
				continue;
			if (first_only) {
				*lo = *hi = x;
				return true;
			}
			a2_last_in(tl, c, d, H_BITS, &y);
			if (!any || x < *lo)
				*lo = x;
			if (!any || y > *hi)
				*hi = y;
			any = true;
		}
	}
	return any;
}

struct scan_in {
	struct tnum th, tl; /* the tnum's high part (W_BITS - H_BITS bits) and low part */
	const struct a2_list *L;
	uint64_t w0, w1; /* only low halves in [w0, w1] */
	bool first_only; /* stop at the first member (is there any?) */
	/* the extreme low halves of a whole block, once found (the same for
	 * every whole block of one scan) */
	int whole; /* 0 not yet, 1 found, -1 none */
	uint64_t whole_lo, whole_hi;
};

/* the register's pieces per width (P: full width, L: subregister) and a
 * scan over every low half of them */
static struct scan_in scan_setup(const struct a2reg *r, struct a2_list *P, struct a2_list *L, bool first_only)
{
	a2_pieces(r->a, r->b, W_BITS, P);
	a2_pieces(r->a32, r->b32, H_BITS, L);
	return (struct scan_in){
		.th = {(r->t.value & W_UMAX) >> H_BITS, (r->t.mask & W_UMAX) >> H_BITS},
		.tl = {r->t.value & H_UMAX, r->t.mask & H_UMAX},
		.L = L,
		.w0 = 0,
		.w1 = H_UMAX,
		.first_only = first_only,
	};
}

/* members whose high half is one of th's in [hf, hl] (hf, hl members)
 * and whose low half is in [a, b] */
static void scan_block(struct scan *s, struct scan_in *in, uint64_t hf, uint64_t hl, uint64_t a, uint64_t b)
{
	uint64_t lo, hi;
	if (s->any && in->first_only)
		return;
	if (a == 0 && b == H_UMAX) {
		/* a whole block: its extreme low halves are those of every
		 * whole block of this scan */
		if (!in->whole) {
			bool any = in->w0 <= in->w1 &&
				   low_ext(in->tl, in->L, in->w0, in->w1, &in->whole_lo, &in->whole_hi, in->first_only);
			in->whole = any ? 1 : -1;
		}
		if (in->whole < 0)
			return;
		lo = in->whole_lo;
		hi = in->whole_hi;
	} else {
		a = a > in->w0 ? a : in->w0;
		b = b < in->w1 ? b : in->w1;
		if (a > b || !low_ext(in->tl, in->L, a, b, &lo, &hi, in->first_only))
			return;
	}
	uint64_t xmin = hf << H_BITS | lo, xmax = hl << H_BITS | hi;
	if (!s->any || xmin < s->xmin)
		s->xmin = xmin;
	if (!s->any || xmax > s->xmax)
		s->xmax = xmax;
	if (!s->any || lo < s->lmin)
		s->lmin = lo;
	if (!s->any || hi > s->lmax)
		s->lmax = hi;
	s->any = true;
}

/* members in [lo, hi] (lo <= hi, full width) */
static void scan_range(struct scan *s, struct scan_in *in, uint64_t lo, uint64_t hi)
{
	const uint64_t lm = H_UMAX;
	uint64_t h0 = lo >> H_BITS, h1 = hi >> H_BITS, f, l = 0;
	if (h0 == h1) {
		if (tnum_contains(in->th, h0))
			scan_block(s, in, h0, h0, lo & lm, hi & lm);
		return;
	}
	if (tnum_contains(in->th, h0))
		scan_block(s, in, h0, h0, lo & lm, lm);
	if (h1 - h0 > 1 && a2_first_in(in->th, h0 + 1, h1 - 1, &f)) {
		a2_last_in(in->th, h0 + 1, h1 - 1, W_BITS - H_BITS, &l);
		scan_block(s, in, f, l, 0, lm);
	}
	if (tnum_contains(in->th, h1))
		scan_block(s, in, h1, h1, 0, hi & lm);
}

/* members of the full width's pieces within [c0, c1] (c0 <= c1) */
static void scan_pieces(struct scan *s, struct scan_in *in, const struct a2_list *P, uint64_t c0, uint64_t c1)
{
	for (unsigned i = 0; i < P->n; i++) {
		uint64_t rr[2][2];
		unsigned nr = a2_arc_runs(P->p[i], W_BITS, rr);
		for (unsigned j = 0; j < nr; j++) {
			uint64_t a = rr[j][0] > c0 ? rr[j][0] : c0, b = rr[j][1] < c1 ? rr[j][1] : c1;
			if (a <= b)
				scan_range(s, in, a, b);
		}
	}
}

/* a constant tnum: its one value, if the pieces of both widths hold it */
static bool const_member(const struct a2reg *r)
{
	uint64_t x = r->t.value & W_UMAX, l = x & H_UMAX;
	return cnum_contains(r->a, x, W_BITS) && cnum_contains(r->b, x, W_BITS) && cnum_contains(r->a32, l, H_BITS) &&
	       cnum_contains(r->b32, l, H_BITS);
}

bool a2_bounds_of(const struct a2reg *r, struct a2_bounds *b64, struct a2_bounds *b32)
{
	if (!(r->t.mask & W_UMAX)) {
		if (!const_member(r))
			return false;
		uint64_t x = r->t.value & W_UMAX, l = x & H_UMAX;
		*b64 = (struct a2_bounds){x, x, wsext(x), wsext(x)};
		*b32 = (struct a2_bounds){l, l, hsext(l), hsext(l)};
		return true;
	}
	struct a2_list P, L;
	struct scan_in in = scan_setup(r, &P, &L, false);
	const uint64_t sb = W_UMAX ^ (uint64_t)W_SMAX, hsb = H_UMAX ^ (uint64_t)H_SMAX;
	struct scan all = {0}, neg = {0}, pos = {0}, lneg = {0}, lpos = {0};
	scan_pieces(&all, &in, &P, 0, W_UMAX);
	if (!all.any)
		return false;
	b64->umin = all.xmin;
	b64->umax = all.xmax;
	b32->umin = all.lmin;
	b32->umax = all.lmax;
	/* signed order: the negative half first; members all on one side
	 * of the sign boundary are in the same order signed and unsigned */
	if (all.xmax < sb || all.xmin >= sb) {
		b64->smin = wsext(all.xmin);
		b64->smax = wsext(all.xmax);
	} else {
		scan_pieces(&neg, &in, &P, sb, W_UMAX);
		scan_pieces(&pos, &in, &P, 0, sb - 1);
		b64->smin = wsext(neg.xmin);
		b64->smax = wsext(pos.xmax);
	}
	if (all.lmax < hsb || all.lmin >= hsb) {
		b32->smin = hsext(all.lmin);
		b32->smax = hsext(all.lmax);
		return true;
	}
	in.w0 = hsb;
	in.whole = 0;
	scan_pieces(&lneg, &in, &P, 0, W_UMAX);
	in.w0 = 0;
	in.w1 = hsb - 1;
	in.whole = 0;
	scan_pieces(&lpos, &in, &P, 0, W_UMAX);
	b32->smin = hsext(lneg.lmin);
	b32->smax = hsext(lpos.lmax);
	return true;
}

bool a2_has_member(const struct a2reg *r)
{
	if (!(r->t.mask & W_UMAX))
		return const_member(r);
	struct a2_list P, L;
	struct scan_in in = scan_setup(r, &P, &L, true);
	struct scan s = {0};
	scan_pieces(&s, &in, &P, 0, W_UMAX);
	return s.any;
}
