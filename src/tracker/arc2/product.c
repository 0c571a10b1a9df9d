/* product.c — arc2 values to and from the old and cnum trackers'
 * representations (see arc2.h). */
#include <string.h>

#include "tracker/arc2/arc2.h"
#include "tracker/cnum/reg.h"
#include "tracker/old/repr.h"

void a2_to_old_with(const struct a2reg *r, const struct a2_bounds *b64, const struct a2_bounds *b32, rb_val *out)
{
	memset(out, 0, sizeof(*out));
	struct old_reg *o = old_of(out);
	o->var_off = r->t;
	o->umin = b64->umin;
	o->umax = b64->umax;
	o->smin = b64->smin;
	o->smax = b64->smax;
	set_u32(&o->u32_min, b32->umin);
	set_u32(&o->u32_max, b32->umax);
	set_s32(&o->s32_min, b32->smin);
	set_s32(&o->s32_max, b32->smax);
	/* each width's bounds learn from the other's (old's own sync; it
	 * keeps the exact bounds of a set, so equal inputs convert equally) */
	old_bounds_sync(o);
}

void a2_to_old(const struct a2reg *r, rb_val *out)
{
	struct a2_bounds b64, b32;
	if (!a2_bounds_of(r, &b64, &b32)) {
		memset(out, 0, sizeof(*out));
		a2_old()->from_set(out, NULL, 0);
		return;
	}
	a2_to_old_with(r, &b64, &b32, out);
}

unsigned a2_to_cnums(const struct a2reg *r, rb_val out[A2_MAX_CNUMS])
{
	struct a2_list l64, l32;
	struct cnum h64[2], h32[2];
	a2_pieces(r->a, r->b, W_BITS, &l64);
	a2_pieces(r->a32, r->b32, H_BITS, &l32);
	unsigned n64 = a2_hulls(&l64, W_BITS, h64), n32 = a2_hulls(&l32, H_BITS, h32), n = 0;
	for (unsigned i = 0; i < n64; i++)
		for (unsigned j = 0; j < n32; j++) {
			struct creg c = {.var_off = r->t, .r64 = h64[i], .r32 = h32[j]};
			if (!creg_violation(&c))
				creg_sync(&c);
			memset(&out[n], 0, sizeof(out[n]));
			creg_store(&out[n++], &c);
		}
	return n;
}

void a2_to_cnum(const struct a2reg *r, rb_val *out)
{
	rb_val all[A2_MAX_CNUMS];
	a2_to_cnums(r, all);
	*out = all[0];
}

static void empty(struct a2reg *r)
{
	r->t = tnum_unknown();
	r->a = r->b = cnum_empty(W_BITS);
	r->a32 = r->b32 = cnum_empty(H_BITS);
}

/* r := the canonical pairs of the exact pieces l64, l32 under tnum t: the
 * full width's knowing the subregister's exact pieces, then the
 * subregister's knowing the full width's final pieces (so the two never
 * both give up the same values, each trusting the other); a gap given
 * up lies inside k's pieces (and j's, if it can) */
static void finish(struct a2reg *r, struct tnum t, const struct a2_list *l64, const struct a2_list *l32,
		   const struct a2_list *k64, const struct a2_list *k32, const struct a2_list *j64,
		   const struct a2_list *j32)
{
	struct a2_list f64;
	r->t = t;
	struct a2_ctx cx = {.t = t, .inner = l32, .inner_bits = H_BITS, .keep = k64, .keep2 = j64};
	a2_canon(l64, W_BITS, &cx, &r->a, &r->b);
	a2_pieces(r->a, r->b, W_BITS, &f64);
	struct a2_ctx cx32 = {.t = tnum_subreg(t), .outer = &f64, .outer_bits = W_BITS, .keep = k32, .keep2 = j32};
	a2_canon(l32, H_BITS, &cx32, &r->a32, &r->b32);
}

void a2_meet(struct a2reg *r, const rb_val *ov, const rb_val *cv, unsigned ncv, const struct a2reg *within)
{
	const struct old_reg *o = old_cof(ov);
	if (a2_old()->is_empty(ov) || o->umin > o->umax || o->smin > o->smax || o->u32_min > o->u32_max ||
	    o->s32_min > o->s32_max) {
		empty(r);
		return;
	}
	struct tnum t = o->var_off;
	for (unsigned i = 0; i < ncv; i++) {
		struct creg c = creg_load(&cv[i]);
		if (a2_cnum()->is_empty(&cv[i]) || !tnum_overlap(t, c.var_off)) {
			empty(r);
			return;
		}
		t = tnum_intersect(t, c.var_off);
	}
	if (within) {
		if (!tnum_overlap(t, within->t)) {
			empty(r);
			return;
		}
		t = tnum_intersect(t, within->t);
	}
	/* the exact intersection at each width */
	struct a2_list l64, l32;
	a2_pieces(cnum_from_urange(o->umin, o->umax, W_BITS), cnum_from_srange(o->smin, o->smax, W_BITS), W_BITS,
		  &l64);
	a2_pieces(cnum_from_urange(o->u32_min, o->u32_max, H_BITS), cnum_from_srange(o->s32_min, o->s32_max, H_BITS),
		  H_BITS, &l32);
	/* old's own pieces and cnum's arcs: when three pieces must become
	 * two, a gap of theirs stays (the result stays within old's, and
	 * within cnum's when a gap inside both can be given up) */
	struct a2_list k64 = l64, k32 = l32, c64 = {1, {cnum_full(W_BITS)}}, c32 = {1, {cnum_full(H_BITS)}};
	for (unsigned i = 0; i < ncv; i++) {
		struct creg c = creg_load(&cv[i]);
		a2_list_meet_arc(&l64, c.r64, W_BITS);
		a2_list_meet_arc(&l32, c.r32, H_BITS);
		a2_list_meet_arc(&c64, c.r64, W_BITS);
		a2_list_meet_arc(&c32, c.r32, H_BITS);
	}
	if (within) {
		a2_list_meet_arc(&l64, within->a, W_BITS);
		a2_list_meet_arc(&l64, within->b, W_BITS);
		a2_list_meet_arc(&l32, within->a32, H_BITS);
		a2_list_meet_arc(&l32, within->b32, H_BITS);
	}
	finish(r, t, &l64, &l32, &k64, &k32, &c64, &c32);
}

void a2_intersect(struct a2reg *r, const struct a2reg *x, const struct a2reg *y)
{
	if (!tnum_overlap(x->t, y->t)) {
		empty(r);
		return;
	}
	struct a2_list l64, l32, k64, k32, j64, j32;
	a2_pieces(x->a, x->b, W_BITS, &k64);
	a2_pieces(x->a32, x->b32, H_BITS, &k32);
	a2_pieces(y->a, y->b, W_BITS, &j64);
	a2_pieces(y->a32, y->b32, H_BITS, &j32);
	l64 = k64;
	l32 = k32;
	a2_list_meet_arc(&l64, y->a, W_BITS);
	a2_list_meet_arc(&l64, y->b, W_BITS);
	a2_list_meet_arc(&l32, y->a32, H_BITS);
	a2_list_meet_arc(&l32, y->b32, H_BITS);
	finish(r, tnum_intersect(x->t, y->t), &l64, &l32, &k64, &k32, &j64, &j32);
}
