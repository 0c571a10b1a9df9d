/* tracker.c — the "arc2" tracker: a tnum plus, per width, the
 * intersection of two wrapped arcs (pieces.h), 64 bytes at 64 bits like
 * the old tracker's bounds.
 *
 * The representation holds both other trackers' sets: old's "unsigned
 * range ∩ signed range" is two arcs, cnum's wrapped arc is one. Transfer
 * functions are the reduced product of the two: each operation converts
 * its inputs to old's fields and to cnum's arcs (exactly, for values the
 * domains share), runs old's and cnum's own transfer function (Linux
 * 6.18.44's algorithms on both representations) and keeps the
 * intersection of the two results. The result is therefore never looser
 * than either tracker's on equal inputs, except where the intersection
 * of old's two result arcs with cnum's one has three pieces and every gap
 * between them may hold a member: then the smallest gap is given up
 * (pieces.c a2_canon; a gap the tnum or, for the subregister, the
 * full-width pieces rule out is given up first, for free).
 * Multiplication and division on arcs split at the poles are not done
 * (yet): MUL is the better of old's and cnum's, DIV/MOD unknown as in 6.18.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/bpf.h>

#include "tracker/arc2/arc2.h"
#include "tracker/bounds.h"

extern const struct rb_concrete RB_SYM(rb_concrete);

static void mark_empty(struct a2reg *r)
{
	r->t = tnum_unknown();
	r->a = r->b = cnum_empty(W_BITS);
	r->a32 = r->b32 = cnum_empty(H_BITS);
}

static void a_unknown(rb_val *v)
{
	struct a2reg r = {tnum_unknown(), cnum_full(W_BITS), cnum_full(W_BITS), cnum_full(H_BITS),
			  cnum_full(H_BITS)};
	a2_store(v, &r);
}

static void a_constant(rb_val *v, uint64_t c)
{
	c = wtrunc(c);
	struct a2reg r = {tnum_const(c), cnum_const(c, W_BITS), cnum_full(W_BITS), cnum_const(c, H_BITS),
			  cnum_full(H_BITS)};
	a2_store(v, &r);
}

static void a_from_set(rb_val *v, const uint64_t *vals, size_t n)
{
	struct a2reg r;
	if (n == 0) {
		mark_empty(&r);
		a2_store(v, &r);
		return;
	}
	r.t = tnum_from_set(vals, n);
	/* each width's second gap is chosen knowing the other width's
	 * pieces: the subregister's alone, the full width's knowing them,
	 * the subregister's again knowing the full width's */
	struct a2_list l64, l32;
	bool ok = a2_from_set(vals, n, H_BITS, NULL, &r.a32, &r.b32);
	a2_pieces(r.a32, r.b32, H_BITS, &l32);
	struct a2_ctx ci = {.t = r.t, .inner = &l32, .inner_bits = H_BITS};
	ok = ok && a2_from_set(vals, n, W_BITS, &ci, &r.a, &r.b);
	a2_pieces(r.a, r.b, W_BITS, &l64);
	struct a2_ctx cx = {.t = r.t, .outer = &l64, .outer_bits = W_BITS};
	if (!ok || !a2_from_set(vals, n, H_BITS, &cx, &r.a32, &r.b32)) {
		a_unknown(v); /* out of memory: still sound */
		return;
	}
	a2_store(v, &r);
}

static bool a_is_empty(const rb_val *v)
{
	struct a2reg r = a2_load(v);
	return !a2_has_member(&r);
}

static void a_from_bounds(rb_val *v, const struct rb_bounds *b)
{
	rb_val o, c;
	struct a2reg r;
	a2_old()->from_bounds(&o, b);
	a2_cnum()->from_bounds(&c, b);
	a2_meet(&r, &o, &c, 1, NULL);
	a2_store(v, &r);
}

static void a_bounds(const rb_val *v, struct rb_bounds *out)
{
	struct a2reg r = a2_load(v);
	struct a2_bounds b64, b32;
	*out = (struct rb_bounds){.var_off = {r.t.value, r.t.mask}};
	if (!a2_bounds_of(&r, &b64, &b32)) {
		/* no value: inverted bounds, as the other trackers show it */
		out->umin = W_UMAX;
		out->umax = 0;
		out->smin = W_SMAX;
		out->smax = W_SMIN;
		out->u32_min = H_UMAX;
		out->u32_max = 0;
		out->s32_min = H_SMAX;
		out->s32_max = H_SMIN;
		return;
	}
	/* the exact bounds of each width's pieces, each width learning from
	 * the other as old's sync does (a2_to_old) */
	rb_val o;
	a2_to_old_with(&r, &b64, &b32, &o);
	a2_old()->bounds(&o, out);
}

static bool a_contains(const rb_val *v, uint64_t x)
{
	struct a2reg r = a2_load(v);
	x = wtrunc(x);
	return tnum_contains(r.t, x) && cnum_contains(r.a, x, W_BITS) && cnum_contains(r.b, x, W_BITS) &&
	       cnum_contains(r.a32, htrunc(x), H_BITS) && cnum_contains(r.b32, htrunc(x), H_BITS);
}

static bool a_is_const(const rb_val *v)
{
	struct a2reg r = a2_load(v);
	struct a2_bounds b64, b32;
	return a2_bounds_of(&r, &b64, &b32) && b64.umin == b64.umax;
}

/* equal representations, or both empty (the emptiness tests only when
 * the representations differ) */
static bool a_equal(const rb_val *x, const rb_val *y)
{
	struct a2reg a = a2_load(x), b = a2_load(y);
	if (tnum_equal(a.t, b.t) && cnum_equal(a.a, b.a) && cnum_equal(a.b, b.b) && cnum_equal(a.a32, b.a32) &&
	    cnum_equal(a.b32, b.b32))
		return true;
	return a_is_empty(x) && a_is_empty(y);
}

/* is every piece of cur inside both arcs of old? */
static bool pieces_within(struct cnum oa, struct cnum ob, struct cnum ca, struct cnum cb, unsigned bits)
{
	struct a2_list l;
	a2_pieces(ca, cb, bits, &l);
	for (unsigned i = 0; i < l.n; i++)
		if (!cnum_is_subset(oa, l.p[i], bits) || !cnum_is_subset(ob, l.p[i], bits))
			return false;
	return true;
}

/* state pruning: the tnum and, per width, the two-arc sets (sound: each
 * part of cur within the same part of old) */
static bool a_is_subset(const rb_val *old, const rb_val *cur)
{
	struct a2reg o = a2_load(old), c = a2_load(cur);
	if (tnum_in(o.t, c.t) && pieces_within(o.a, o.b, c.a, c.b, W_BITS) &&
	    pieces_within(o.a32, o.b32, c.a32, c.b32, H_BITS))
		return true;
	return a_is_empty(cur); /* the empty set is within every set */
}

static int a_print(const rb_val *v, char *buf, size_t len)
{
	struct rb_bounds b;
	a_bounds(v, &b);
	if (b.umin > b.umax) /* a_bounds' sign of no member */
		return snprintf(buf, len, "empty");
	return rb_print_bounds(&b, buf, len);
}

/* the representation itself: the tnum and both arcs of each width (the
 * set is their intersection), each arc as first..last member, u64 order */
static int a_print_repr(const rb_val *v, char *buf, size_t len)
{
	struct a2reg r = a2_load(v);
	if (a_is_empty(v))
		return snprintf(buf, len, "empty");
	return snprintf(buf, len,
			"var_off=(%#llx; %#llx) r64=[%#llx..%#llx]&[%#llx..%#llx] r32=[%#llx..%#llx]&[%#llx..%#llx]",
			(unsigned long long)r.t.value, (unsigned long long)r.t.mask, (unsigned long long)r.a.base,
			(unsigned long long)cnum_end(r.a, W_BITS), (unsigned long long)r.b.base,
			(unsigned long long)cnum_end(r.b, W_BITS), (unsigned long long)r.a32.base,
			(unsigned long long)cnum_end(r.a32, H_BITS), (unsigned long long)r.b32.base,
			(unsigned long long)cnum_end(r.b32, H_BITS));
}

/* Every operation runs old's transfer function on the value in old's
 * fields and cnum's on each smallest-arc cnum value of it (a2_to_cnums:
 * usually one; when two arcs are equally small, both, so the result is
 * within cnum's whichever arc cnum holds), and keeps the intersection. */
static void a_alu(rb_val *dst, const rb_val *src, const struct rb_alu *op)
{
	struct a2reg d = a2_load(dst), s = a2_load(src), r;
	rb_val od, os, cd[A2_MAX_CNUMS], cs[A2_MAX_CNUMS], res[A2_MAX_CNUMS * A2_MAX_CNUMS];
	a2_to_old(&d, &od);
	a2_to_old(&s, &os);
	unsigned nd = a2_to_cnums(&d, cd), ns = a2_to_cnums(&s, cs), n = 0;
	a2_old()->alu(&od, &os, op);
	for (unsigned i = 0; i < nd; i++)
		for (unsigned j = 0; j < ns; j++) {
			res[n] = cd[i];
			a2_cnum()->alu(&res[n++], &cs[j], op);
		}
	a2_meet(&r, &od, res, n, NULL);
	a2_store(dst, &r);
}

static void a_truncate(rb_val *v, unsigned size_bits, bool sext)
{
	struct a2reg x = a2_load(v), r;
	rb_val o, c[A2_MAX_CNUMS];
	a2_to_old(&x, &o);
	unsigned n = a2_to_cnums(&x, c);
	a2_old()->truncate(&o, size_bits, sext);
	for (unsigned i = 0; i < n; i++)
		a2_cnum()->truncate(&c[i], size_bits, sext);
	a2_meet(&r, &o, c, n, NULL);
	a2_store(v, &r);
}

static int a_branch_taken(const rb_val *a, const rb_val *b, uint8_t jop, bool is32)
{
	struct a2reg x = a2_load(a), y = a2_load(b);
	rb_val ox, oy, cx[A2_MAX_CNUMS], cy[A2_MAX_CNUMS];
	a2_to_old(&x, &ox);
	a2_to_old(&y, &oy);
	int r = a2_old()->branch_taken(&ox, &oy, jop, is32);
	if (r != RB_BR_UNKNOWN)
		return r;
	unsigned nx = a2_to_cnums(&x, cx), ny = a2_to_cnums(&y, cy);
	for (unsigned i = 0; i < nx; i++)
		for (unsigned j = 0; j < ny; j++) {
			r = a2_cnum()->branch_taken(&cx[i], &cy[j], jop, is32);
			if (r != RB_BR_UNKNOWN)
				return r;
		}
	return RB_BR_UNKNOWN;
}

/* A refined register is also within what it was before: the result is
 * met with the input too. */
static bool a_branch_refine(rb_val *a, rb_val *b, uint8_t jop, bool is32)
{
	struct a2reg x = a2_load(a), y = a2_load(b), rx, ry;
	rb_val ox, oy, cx[A2_MAX_CNUMS], cy[A2_MAX_CNUMS];
	rb_val rxs[A2_MAX_CNUMS * A2_MAX_CNUMS], rys[A2_MAX_CNUMS * A2_MAX_CNUMS];
	a2_to_old(&x, &ox);
	a2_to_old(&y, &oy);
	unsigned nx = a2_to_cnums(&x, cx), ny = a2_to_cnums(&y, cy), n = 0;
	bool ok = a2_old()->branch_refine(&ox, a == b ? &ox : &oy, jop, is32);
	if (a == b)
		oy = ox;
	for (unsigned i = 0; i < nx && ok; i++)
		for (unsigned j = 0; j < ny && ok; j++) {
			rxs[n] = cx[i];
			rys[n] = cy[j];
			/* "if r1 < r1": one register, refined in place */
			ok = a2_cnum()->branch_refine(&rxs[n], a == b ? &rxs[n] : &rys[n], jop, is32);
			if (a == b)
				rys[n] = rxs[n];
			n++;
		}
	if (!ok) {
		mark_empty(&rx);
		a2_store(a, &rx);
		a2_store(b, &rx);
		return false;
	}
	a2_meet(&rx, &ox, rxs, n, &x);
	a2_meet(&ry, &oy, rys, n, &y);
	if (jop == BPF_JEQ && !is32 && a != b) {
		/* equal registers: each is what both know */
		struct a2reg both;
		a2_intersect(&both, &rx, &ry);
		rx = ry = both;
	}
	a2_store(a, &rx);
	a2_store(b, &ry);
	return !a_is_empty(a) && !a_is_empty(b);
}

static bool a_intersect(rb_val *a, const rb_val *b)
{
	struct a2reg x = a2_load(a), y = a2_load(b), r;
	a2_intersect(&r, &x, &y);
	a2_store(a, &r);
	return !a_is_empty(a);
}

const struct rb_tracker RB_SYM(rb_arc2_tracker) = {
	.name = "arc2",
	.follows = "this project: two wrapped arcs per width, the reduced product of old's and cnum's "
		   "Linux 6.18.44 algorithms",
	.build_flags = "",
	.bits = W_BITS,
	.subbits = H_BITS,
	/* tnum (2 words) + two 64-bit arcs (4 words) + two 32-bit arcs (4 half words) */
	.val_size = (6 * W_BITS + 4 * H_BITS) / 8,
	.concrete = &RB_SYM(rb_concrete),
	.unknown = a_unknown,
	.constant = a_constant,
	.from_bounds = a_from_bounds,
	.from_set = a_from_set,
	.from_set_best = false,
	.bounds = a_bounds,
	.contains = a_contains,
	.is_const = a_is_const,
	.is_empty = a_is_empty,
	.equal = a_equal,
	.is_subset = a_is_subset,
	.print = a_print,
	.print_repr = a_print_repr,
	.alu = a_alu,
	.truncate = a_truncate,
	.branch_taken = a_branch_taken,
	.branch_refine = a_branch_refine,
	.intersect = a_intersect,
};
